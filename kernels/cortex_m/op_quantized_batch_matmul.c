/* cortex_m::quantized_batch_matmul.out(Tensor lhs, int lhs_zero_point, Tensor rhs_transposed,
 * int rhs_zero_point, int output_zero_point, int output_multiplier, int output_shift,
 * Tensor scratch, *, Tensor(a!) out) (docs/CORTEX_M.md §3.17): int8 lhs [B, M, K],
 * rhs_transposed [B, N, K], out [B, M, N]; the "zero points" are CMSIS offsets:
 *   acc = sum_k (lhs + lhs_zero_point) * (rhs_t + rhs_zero_point),
 *   y = clamp(requant(acc, m, s) + output_zero_point, -128, 127). scratch is unused. */
#include "builtin.h"
#include "cortex_m/cm_util.h"
#include "cortex_m/fixed_point.h"

ptera_status pk_cm_quantized_batch_matmul_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                              size_t nargs) {
  static const char op[] = "cortex_m::quantized_batch_matmul.out";
  ptera_tensor *a, *b, *scratch, *out;
  int32_t oa, ob, oo, m, s;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 10));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 0, "lhs", &a));
  PK_TRY(pk_cm_get_int(ctx, op, args, 1, "lhs_zero_point", -127, 128, &oa));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 2, "rhs_transposed", &b));
  PK_TRY(pk_cm_get_int(ctx, op, args, 3, "rhs_zero_point", -127, 128, &ob));
  PK_TRY(pk_cm_get_int(ctx, op, args, 4, "output_zero_point", INT8_MIN, INT8_MAX, &oo));
  PK_TRY(pk_cm_get_requant(ctx, op, args, 5, 6, &m, &s));
  PK_TRY(pk_get_tensor(ctx, op, args, 7, "scratch", &scratch));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 8, "out", &out));
  bool ok = a->dim == 3 && b->dim == 3 && out->dim == 3 && a->sizes[0] == b->sizes[0] &&
            out->sizes[0] == a->sizes[0] && a->sizes[2] == b->sizes[2] &&
            out->sizes[1] == a->sizes[1] && out->sizes[2] == b->sizes[1];
  if (!ok) {
    char sa[96], sb[96], so[96];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'lhs' %s, 'rhs_transposed' %s and 'out' %s must be [B, M, K], "
                             "[B, N, K] and [B, M, N]",
                             op, pk_fmt_shape(sa, sizeof sa, a->sizes, a->dim),
                             pk_fmt_shape(sb, sizeof sb, b->sizes, b->dim),
                             pk_fmt_shape(so, sizeof so, out->sizes, out->dim));
  }
  PK_TRY(pk_cm_check_contiguous(ctx, op, "lhs", a));
  PK_TRY(pk_cm_check_contiguous(ctx, op, "rhs_transposed", b));
  PK_TRY(pk_cm_check_contiguous(ctx, op, "out", out));
  size_t nb = (size_t)a->sizes[0], mm = (size_t)a->sizes[1], k = (size_t)a->sizes[2],
         nn = (size_t)b->sizes[1];
  const int8_t *x = a->data, *w = b->data;
  int8_t *y = out->data;
  for (size_t bi = 0; bi < nb; bi++)
    for (size_t i = 0; i < mm; i++)
      for (size_t j = 0; j < nn; j++) {
        const int8_t *xr = x + (bi * mm + i) * k, *wr = w + (bi * nn + j) * k;
        int32_t acc = 0;
        for (size_t t = 0; t < k; t++) acc = pk_fx_add(acc, (xr[t] + oa) * (wr[t] + ob));
        y[(bi * mm + i) * nn + j] = pk_cm_requant_out(acc, m, s, oo, INT8_MIN, INT8_MAX);
      }
  return PTERA_OK;
}
