/* f32 depthwise 5x5 stride 2, NCHW plane, scalar (see dwconv.h). */
#include "cpu/ukernels/dwconv/body_scalar.h"

void pk_f32_dwconv5x5s2_scalar(const float *in, const float *w, float bias, float *out,
                            const pk_dwconv2d_params *p) {
  pk_dw_scalar(in, w, bias, out, p, 5, 2);
}
