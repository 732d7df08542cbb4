/* Winograd F(2x2, 3x3) input and output transforms for AVX2 (winograd.h). */
#define WINO_FN(name) name##_avx2
#include "cpu/ukernels/winograd/wino23_body.h"
