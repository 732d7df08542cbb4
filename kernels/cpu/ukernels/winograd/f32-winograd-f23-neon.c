/* Winograd F(2x2, 3x3) input and output transforms for NEON (AArch64) (winograd.h). */
#define WINO_FN(name) name##_neon
#include "cpu/ukernels/winograd/wino23_body.h"
