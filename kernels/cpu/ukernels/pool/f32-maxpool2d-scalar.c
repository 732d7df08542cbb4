/* f32 max pool 2d, NCHW plane, any stride, scalar (see pool.h). */
#include <math.h>

#include "cpu/ukernels/pool/maxpool_common.h"

void pk_f32_maxpool2d_scalar(const float *in, float *out, int64_t *idx, const pk_maxpool2d_params *p) {
  for (size_t oy = 0; oy < p->oh; oy++) {
    size_t k0, k1;
    pk_mp_rows(p, oy, &k0, &k1);
    pk_mp_span(in, out + oy * p->ow, idx ? idx + oy * p->ow : NULL, p, k0, k1, oy, 0, p->ow);
  }
}

void pk_f32_maxpool2d_s1_scalar(const float *in, float *out, int64_t *idx, const pk_maxpool2d_params *p) {
  pk_f32_maxpool2d_scalar(in, out, idx, p);
}

void pk_f32_maxpool2d_s2_scalar(const float *in, float *out, int64_t *idx, const pk_maxpool2d_params *p) {
  pk_f32_maxpool2d_scalar(in, out, idx, p);
}
