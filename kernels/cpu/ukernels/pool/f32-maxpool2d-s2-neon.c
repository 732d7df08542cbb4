/* f32 max pool 2d, NCHW plane, stride 2, neon (see pool.h). */
#include "cpu/ukernels/pool/maxpool_neon.h"

void pk_f32_maxpool2d_s2_neon(const float *in, float *out, int64_t *idx, const pk_maxpool2d_params *p) {
  pk_mp_neon(in, out, idx, p, 2);
}
