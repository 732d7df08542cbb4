/* f32 average pool, one NCHW plane, AVX2 (pool.h; avgpool_body.h). */
#define AP_FN(name) name##_avx2
#include "cpu/ukernels/pool/avgpool_body.h"
