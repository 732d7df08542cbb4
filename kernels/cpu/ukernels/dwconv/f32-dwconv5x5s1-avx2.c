/* f32 depthwise 5x5 stride 1, NCHW plane, avx2 (see dwconv.h). */
#include "cpu/ukernels/dwconv/body_avx2.h"

void pk_f32_dwconv5x5s1_avx2(const float *in, const float *w, float bias, float *out,
                            const pk_dwconv2d_params *p) {
  pk_dw_avx2(in, w, bias, out, p, 5, 1);
}
