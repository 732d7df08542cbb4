/* Output sizes and source-index math shared by the upsample kernels (PyTorch's
 * area_pixel_compute_scale / area_pixel_compute_source_index). */
#ifndef PK_UPSAMPLE_UTIL_H
#define PK_UPSAMPLE_UTIL_H

#include "portable/util/iter.h"

/* self is 4-D [N, C, H, W]; exactly one of output_size (args[i]) and
 * scale_factors (args[j]) is given. Fills out sizes and scales (the given factor,
 * or out/in for an output_size, as ExecuTorch does). */
PT_FUNC ptera_status pk_upsample_vec_args(ptera_kernel_ctx *ctx, const char *op,
                                          const ptera_tensor *self, ptera_value **args, size_t i,
                                          size_t j, int32_t *out_sizes, double *scales);

/* ExecuTorch's kernel scale: (in-1)/(out-1) with align_corners, else 1/scale, in
 * double (the kernels then use it as a float). */
static inline double pk_area_scale(int64_t in, int64_t out, bool align, double scale) {
  if (align) return out > 1 ? (double)(in - 1) / (double)(out - 1) : 0.0;
  return 1.0 / scale;
}

#endif
