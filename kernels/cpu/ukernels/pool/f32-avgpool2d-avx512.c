/* f32 average pool, one NCHW plane, AVX-512 (pool.h; avgpool_body.h). */
#define AP_FN(name) name##_avx512
#include "cpu/ukernels/pool/avgpool_body.h"
