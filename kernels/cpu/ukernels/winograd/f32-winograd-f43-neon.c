/* Winograd F(4x4, 3x3) input and output transforms for NEON (AArch64) (winograd.h). */
#define WINO_FN(name) name##_neon
#include "cpu/ukernels/winograd/wino43_body.h"
