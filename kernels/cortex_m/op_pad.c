/* cortex_m::pad.out(Tensor input, int[] pre_pad, int[] post_pad, int pad_value, *,
 * Tensor(a!) out): int8 constant padding of a rank 1..4 tensor in memory order: the
 * input's physical (dim-order) sizes right-aligned into 4 dims, entry d of pre_pad /
 * post_pad padding physical dim d; out is filled with pad_value and the input copied at
 * offset pre_pad (docs/CORTEX_M.md §3.11). */
#include <string.h>

#include "builtin.h"
#include "cortex_m/cm_util.h"

/* t's sizes in memory order, right-aligned into 4 dims. */
static void physical4(const ptera_tensor *t, size_t s[4]) {
  for (size_t k = 0; k < 4; k++) s[k] = 1;
  for (size_t k = 0; k < t->dim; k++) s[4 - t->dim + k] = (size_t)t->sizes[t->dim_order[k]];
}

ptera_status pk_cm_pad_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "cortex_m::pad.out";
  ptera_tensor *in, *out;
  int32_t pre[4], post[4], value;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 1, "pre_pad", 4, 0, INT32_MAX, pre));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 2, "post_pad", 4, 0, INT32_MAX, post));
  PK_TRY(pk_cm_get_int(ctx, op, args, 3, "pad_value", INT8_MIN, INT8_MAX, &value));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 4, "out", &out));
  if (in->dim < 1 || in->dim > 4 || out->dim != in->dim)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'input' and 'out' must have one rank in 1..4 (got %u and %u)", op,
                             (unsigned)in->dim, (unsigned)out->dim);
  size_t is[4], os[4];
  physical4(in, is);
  physical4(out, os);
  for (int k = 0; k < 4; k++)
    if ((int64_t)is[k] + pre[k] + post[k] != (int64_t)os[k])
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: physical dim %d of 'out' is %zu, expected %zu + %d + %d", op, k,
                               os[k], is[k], (int)pre[k], (int)post[k]);
  int8_t *y = out->data;
  const int8_t *x = in->data;
  if (out->numel) memset(y, (int8_t)value, out->numel);
  for (size_t a = 0; a < is[0]; a++)
    for (size_t b = 0; b < is[1]; b++)
      for (size_t c = 0; c < is[2]; c++) {
        size_t o = (((a + pre[0]) * os[1] + b + pre[1]) * os[2] + c + pre[2]) * os[3] + pre[3];
        memcpy(y + o, x + ((a * is[1] + b) * is[2] + c) * is[3], is[3]);
      }
  return PTERA_OK;
}
