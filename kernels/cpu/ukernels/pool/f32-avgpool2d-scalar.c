/* f32 average pool, one NCHW plane, scalar twin (pool.h; avgpool_body.h). */
#define AP_FN(name) name##_scalar
#include "cpu/ukernels/pool/avgpool_body.h"
