/* f32 depthwise 3x3 stride 1, NCHW plane, scalar (see dwconv.h). */
#include "cpu/ukernels/dwconv/body_scalar.h"

void pk_f32_dwconv3x3s1_scalar(const float *in, const float *w, float bias, float *out,
                            const pk_dwconv2d_params *p) {
  pk_dw_scalar(in, w, bias, out, p, 3, 1);
}
