/* f32 max pool 2d, NCHW plane, stride 2, avx512 (see pool.h). */
#include "cpu/ukernels/pool/maxpool_avx512.h"

void pk_f32_maxpool2d_s2_avx512(const float *in, float *out, int64_t *idx, const pk_maxpool2d_params *p) {
  pk_mp_avx512(in, out, idx, p, 2);
}
