/* Winograd F(4x4, 3x3) input and output transforms for AVX-512 (winograd.h). */
#define WINO_FN(name) name##_avx512
#include "cpu/ukernels/winograd/wino43_body.h"
