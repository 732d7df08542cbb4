/* Everything a portable kernel needs. */
#ifndef PK_H
#define PK_H

#include <math.h>

#include "portable/util/args.h"
#include "portable/util/dtype_util.h"
#include "portable/util/elementwise.h"
#include "portable/util/iter.h"

#endif
