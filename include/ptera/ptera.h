/* ptera — a C runtime for ExecuTorch programs. Umbrella header. */
#ifndef PTERA_H
#define PTERA_H

#include "ptera/version.h" /* generated into the build (and install) tree */

#include "alloc.h"
#include "backend.h"
#include "bundled.h"
#include "kernel.h"
#include "method.h"
#include "program.h"
#include "status.h"
#include "tensor.h"
#include "threadpool.h"

#endif
