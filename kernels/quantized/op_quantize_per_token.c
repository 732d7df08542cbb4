/* quantized_decomposed::quantize_per_token.out(Tensor input, Tensor scales,
 * Tensor zero_points, int quant_min, int quant_max, ScalarType dtype, *,
 * Tensor(a!) out): each token (a row along the last dim) has its own scale and
 * zero point; scales / zero_points hold one entry per token (shape [..., 1]). */
#include "builtin.h"
#include "quantized/quant_group.h"

ptera_status pk_quantize_per_token_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "quantized_decomposed::quantize_per_token.out";
  ptera_tensor *in, *scales, *zps, *out;
  int64_t qmin, qmax;
  int dtype;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 8));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "scales", &scales));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "zero_points", &zps));
  PK_TRY(pk_get_int(ctx, op, args, 3, "quant_min", &qmin));
  PK_TRY(pk_get_int(ctx, op, args, 4, "quant_max", &qmax));
  PK_TRY(pk_get_dtype(ctx, op, args, 5, "dtype", &dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, 6, "out", &out));
  PK_TRY(pk_check_float(ctx, op, "input", in));
  PK_TRY(pk_check_quant_range(ctx, op, dtype, qmin, qmax));
  PK_TRY(pk_check_dtype(ctx, op, "out", out, dtype));
  if (in->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'input' must have rank >= 1", op);
  size_t last = (size_t)in->sizes[in->dim - 1];
  pk_qgroups g = {last, last ? in->numel / last : 0, scales, zps};
  if (last == 0) g.count = scales->numel; /* empty input: nothing to check against */
  PK_TRY(pk_qgroups_check(ctx, op, &g));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  pk_quantize_groups(in, out, &g, qmin, qmax);
  return PTERA_OK;
}
