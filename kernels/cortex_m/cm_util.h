/* Argument reading shared by the cortex_m:: kernels (docs/CORTEX_M.md §1): int8
 * tensors, channels-last 4-D tensors, int ranges, requantization parameters,
 * activation clamps, per-channel int32 vectors, and the 2-D convolution
 * geometry (the compute layer's, kernels/cpu/conv_geom.h). Every failure is InvalidArgument with a message naming the
 * argument. */
#ifndef PK_CM_UTIL_H
#define PK_CM_UTIL_H

#include "cpu/conv_geom.h"
#include "portable/util/pk.h"

/* A Tensor argument of dtype Char (int8). */
PT_FUNC ptera_status pk_cm_get_i8(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                  size_t i, const char *name, ptera_tensor **out);
/* t is 4-D and channels-last in memory (dim order [0,2,3,1], or any order
 * when C == 1 or H == W == 1, where both layouts coincide). */
PT_FUNC ptera_status pk_cm_check_nhwc(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                      const ptera_tensor *t);
/* t's dim order is 0..dim-1. */
PT_FUNC ptera_status pk_cm_check_contiguous(ptera_kernel_ctx *ctx, const char *op,
                                            const char *name, const ptera_tensor *t);
/* An int argument within [lo, hi]. */
PT_FUNC ptera_status pk_cm_get_int(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t i, const char *name, int64_t lo, int64_t hi,
                                   int32_t *out);
/* An int[] of exactly n entries, each within [lo, hi]. */
PT_FUNC ptera_status pk_cm_get_ints(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                    size_t i, const char *name, size_t n, int64_t lo, int64_t hi,
                                    int32_t *out);
/* A multiplier (int32) and shift ([-31, 31]) pair of int arguments. */
PT_FUNC ptera_status pk_cm_get_requant(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                       size_t i_mult, size_t i_shift, int32_t *mult,
                                       int32_t *shift);
/* activation_min / activation_max: int8 values with min <= max. */
PT_FUNC ptera_status pk_cm_get_clamp(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                     size_t i_min, size_t i_max, int32_t *lo, int32_t *hi);
/* A Tensor (or, when optional, Tensor? giving *out = NULL) of dtype Int with n
 * elements. */
PT_FUNC ptera_status pk_cm_get_i32_vec(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                       size_t i, const char *name, size_t n, bool optional,
                                       const int32_t **out);
/* Every shift of a per-channel shift vector within [-31, 31]. */
PT_FUNC ptera_status pk_cm_check_shifts(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                        const int32_t *shift, size_t n);

/* The per-output-channel arguments of the int8 convolutions: bias
 * (Tensor?, args[i_bias]; NULL when None), requantize_multipliers and
 * requantize_shifts (args[i_mult], args[i_mult + 1]), each oc Int values,
 * every shift within [-31, 31]. */
PT_FUNC ptera_status pk_cm_get_channel_params(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                              size_t i_bias, size_t i_mult, size_t oc, const int32_t **bias,
                                              const int32_t **mult, const int32_t **shift);

/* The geometry of a channels-last 2-D convolution or pooling: the compute
 * layer's pk_conv2d_geom (layout NHWC), filled from in and out (NCHW logical
 * sizes, channels-last memory; equal batches), the groups, the kernel size
 * and the stride/padding/dilation arguments, validated by
 * pk_conv2d_geom_init, and out's height and width checked against the
 * extents it computes. out_pad non-NULL: a transposed convolution with that
 * output_padding (each below its stride or its dilation, as PyTorch asks). */
PT_FUNC ptera_status pk_cm_conv_init(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                                     const ptera_tensor *out, int64_t groups, int32_t kh, int32_t kw,
                                     const int32_t stride[2], const int32_t pad[2],
                                     const int32_t dil[2], const int32_t *out_pad, pk_conv2d_geom *g);

/* The same for 2-D pooling (dilation 1, out with the channels of in):
 * kernel, stride and padding as given, ceil_mode as pk_conv2d_geom has it. */
PT_FUNC ptera_status pk_cm_pool_init(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                                     const ptera_tensor *out, const int32_t kernel[2],
                                     const int32_t stride[2], const int32_t pad[2], bool ceil_mode,
                                     pk_conv2d_geom *g);

/* The in-bounds rows [w[0], w[1]) and columns [w[2], w[3]) of the window of
 * output (oy, ox) of pooling g; fails (InvalidArgument) when the window
 * lies wholly in the padding. */
PT_FUNC ptera_status pk_cm_pool_window(ptera_kernel_ctx *ctx, const char *op, const pk_conv2d_geom *g,
                                       int64_t oy, int64_t ox, int64_t w[4]);

/* Operands of the int8 binary ops (quantized_add / quantized_mul): the same
 * sizes and layout for a, b and out, or channel broadcast: a and b 4-D with
 * equal size(1) = C, one of them holding exactly C elements, applied per
 * channel of the other (NHWC in memory: element i uses channel i % C). */
typedef struct pk_cm_binop {
  const int8_t *a, *b;
  int8_t *out;
  size_t n, c;
  size_t a_mod, b_mod; /* element i of out reads a[i % a_mod], b[i % b_mod] */
} pk_cm_binop;
PT_FUNC ptera_status pk_cm_binop_init(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *a,
                                      const ptera_tensor *b, const ptera_tensor *out,
                                      pk_cm_binop *bo);

/* minimum / maximum (docs/CORTEX_M.md §3.7): int8 self and other broadcast together
 * (rank <= 4, contiguous), out resized to the broadcast shape; out = min or max. */
PT_FUNC ptera_status pk_cm_extreme(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t nargs, bool is_max);

/* out = clamp(requant(acc, mult, shift) + offset, lo, hi) as int8. */
PT_FUNC int8_t pk_cm_requant_out(int32_t acc, int32_t mult, int32_t shift, int32_t offset,
                                 int32_t lo, int32_t hi);

#endif
