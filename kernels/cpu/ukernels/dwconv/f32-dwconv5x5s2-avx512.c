/* f32 depthwise 5x5 stride 2, NCHW plane, avx512 (see dwconv.h). */
#include "cpu/ukernels/dwconv/body_avx512.h"

void pk_f32_dwconv5x5s2_avx512(const float *in, const float *w, float bias, float *out,
                            const pk_dwconv2d_params *p) {
  pk_dw_avx512(in, w, bias, out, p, 5, 2);
}
