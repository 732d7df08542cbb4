/* ptera — a C runtime for ExecuTorch programs. Umbrella header. */
#ifndef PTERA_H
#define PTERA_H

#define PTERA_VERSION_MAJOR 0
#define PTERA_VERSION_MINOR 1
#define PTERA_VERSION_PATCH 0
#define PTERA_VERSION "0.1.0"

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
