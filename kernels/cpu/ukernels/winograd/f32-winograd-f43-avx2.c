/* Winograd F(4x4, 3x3) input and output transforms for AVX2 (winograd.h). */
#define WINO_FN(name) name##_avx2
#include "cpu/ukernels/winograd/wino43_body.h"
