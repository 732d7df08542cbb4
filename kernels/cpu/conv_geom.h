/* The geometry of a 2-d convolution, shared by every convolution kernel
 * (portable, backward, cadence, the fast f32 path and the delegates).
 *
 * The caller fills the input fields (a 1-d convolution is a 2-d one with
 * h = kh = 1, stride[0] = dil[0] = 1, pad[0] = out_pad[0] = 0) and calls
 * pk_conv2d_geom_init, which validates them and computes oh, ow. Channel
 * counts are those of the whole convolution: c_in input channels, c_out
 * output channels, each group seeing c_in / groups and producing
 * c_out / groups. Transposed: out = (in - 1) * stride - 2 * pad
 * + dil * (k - 1) + out_pad + 1; otherwise out = (in + 2 * pad
 * - dil * (k - 1) - 1) / stride + 1, rounded up instead with ceil_mode
 * (pooling windows, PyTorch's rule: then the last window must start inside
 * the input or its leading padding, or it is dropped). Pooling fills it as
 * a convolution with c_out = c_in and groups 1. Prefix pk_. */
#ifndef PK_CPU_CONV_GEOM_H
#define PK_CPU_CONV_GEOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

typedef enum pk_conv_layout {
  PK_CONV_NCHW = 0, /* activations [N, C, H, W] contiguous */
  PK_CONV_NHWC = 1  /* activations [N, H, W, C] contiguous (channels last) */
} pk_conv_layout;

typedef struct pk_conv2d_geom {
  int64_t n, c_in, h, w, c_out, groups;
  int64_t kh, kw;
  int64_t stride[2], pad[2], dil[2], out_pad[2]; /* [0] rows, [1] columns */
  pk_conv_layout layout;
  bool transposed;
  bool ceil_mode; /* not with transposed */
  int64_t oh, ow; /* computed by pk_conv2d_geom_init */
} pk_conv2d_geom;

/* Checks the input fields: n, c_in, c_out, h, w >= 0; groups >= 1 dividing
 * c_in and c_out; kh, kw >= 1; stride, dil >= 1; pad, out_pad >= 0; every
 * value at most INT32_MAX; not both transposed and ceil_mode. Then computes oh, ow without overflow and requires
 * both in [1, INT32_MAX] (the kernel fits the padded input). On failure
 * returns PTERA_INVALID_ARGUMENT and writes what is wrong to msg[cap] (a
 * sentence fragment without the op's name). */
PT_FUNC ptera_status pk_conv2d_geom_init(pk_conv2d_geom *g, char *msg, size_t cap);

/* Channels per group. */
static inline int64_t pk_conv2d_cin_g(const pk_conv2d_geom *g) { return g->c_in / g->groups; }
static inline int64_t pk_conv2d_cout_g(const pk_conv2d_geom *g) { return g->c_out / g->groups; }
/* Whether each output channel reads exactly one input channel of its own
 * (depthwise: groups == c_in == c_out, not transposed). */
static inline bool pk_conv2d_is_depthwise(const pk_conv2d_geom *g) {
  return !g->transposed && g->groups == g->c_in && g->groups == g->c_out;
}

#endif
