/* f32 average pool, one NCHW plane, NEON (AArch64) (pool.h; avgpool_body.h). */
#define AP_FN(name) name##_neon
#include "cpu/ukernels/pool/avgpool_body.h"
