/* aten::mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
 *                Tensor(a!) out)
 * aten::mean.dtype_out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out): all dims.
 * The result is floating. */
#include "builtin.h"
#include "cpu/pool2d.h"
#include "portable/util/pk.h"
#include "portable/util/reduce_ops.h"

/* The mean over H and W of a contiguous f32 [N, C, H, W] (a global average
 * pool) on the fast path; false when the call is anything else, and the
 * general reduction then validates and computes it. */
static bool mean_hw_fast(ptera_kernel_ctx *ctx, const char *op, ptera_value **args) {
  ptera_tensor *in, *out;
  int64_t dims[PTERA_MAX_DIM];
  size_t nd = 0;
  bool has_dims, keepdim, has_dtype;
  int dtype = 0;
  if (pk_get_tensor(ctx, op, args, 0, "self", &in) != PTERA_OK ||
      pk_get_opt_int_list(ctx, op, args, 1, "dim", dims, PTERA_MAX_DIM, &nd, &has_dims) != PTERA_OK ||
      pk_get_bool(ctx, op, args, 2, "keepdim", &keepdim) != PTERA_OK ||
      pk_get_opt_dtype(ctx, op, args, 3, "dtype", &dtype, &has_dtype) != PTERA_OK ||
      pk_get_tensor(ctx, op, args, 4, "out", &out) != PTERA_OK)
    return false;
  if (in->dim != 4 || !has_dims || nd != 2 || (has_dtype && dtype != PTERA_DTYPE_FLOAT) ||
      in->dtype != PTERA_DTYPE_FLOAT || out->dtype != PTERA_DTYPE_FLOAT || !ptera_tensor_is_contiguous(in) ||
      in->sizes[2] == 0 || in->sizes[3] == 0)
    return false;
  int64_t a = dims[0] < 0 ? dims[0] + 4 : dims[0], b = dims[1] < 0 ? dims[1] + 4 : dims[1];
  if (!((a == 2 && b == 3) || (a == 3 && b == 2))) return false;
  int32_t sizes[4] = {in->sizes[0], in->sizes[1], 1, 1};
  if (pk_resize(ctx, op, "out", out, keepdim ? 4 : 2, sizes) != PTERA_OK || !ptera_tensor_is_contiguous(out))
    return false;
  pk_gavgpool_f32(in->data, out->data, (size_t)in->sizes[0] * (size_t)in->sizes[1],
                  (size_t)in->sizes[2] * (size_t)in->sizes[3], ctx);
  return true;
}

ptera_status pk_mean_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::mean.out";
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  if (mean_hw_fast(ctx, op, args)) return PTERA_OK;
  return pk_sum_mean(ctx, op, args, 1, 2, 3, 4, true);
}

ptera_status pk_mean_dtype_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::mean.dtype_out";
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  return pk_sum_mean(ctx, op, args, -1, -1, 1, 2, true);
}
