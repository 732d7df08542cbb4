/* cortex_m::transpose.out(Tensor input, int[] perm, *, Tensor(a!) out): int8 permutation of
 * a rank 1..4 tensor, out.sizes[k] = in.sizes[perm[k]], both read and written in logical
 * (row-major) order whatever their dim orders (docs/CORTEX_M.md §3.10). */
#include "builtin.h"
#include "cortex_m/cm_util.h"

ptera_status pk_cm_transpose_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "cortex_m::transpose.out";
  ptera_tensor *in, *out;
  int64_t perm[PTERA_MAX_DIM];
  size_t np;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "perm", perm, PTERA_MAX_DIM, &np));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 2, "out", &out));
  size_t r = in->dim;
  if (r < 1 || r > 4 || np != r || out->dim != r)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'input' (rank %zu, 1..4 supported), 'perm' (%zu entries) and "
                             "'out' (rank %u) must agree",
                             op, r, np, (unsigned)out->dim);
  size_t p[4], seen = 0;
  for (size_t k = 0; k < r; k++) {
    PK_TRY(pk_norm_dim(ctx, op, "perm", perm[k], r, &p[k]));
    if (seen & (1u << p[k]))
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'perm' repeats dim %zu", op, p[k]);
    seen |= 1u << p[k];
    if (out->sizes[k] != in->sizes[p[k]])
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: out.sizes[%zu] is %d, expected input.sizes[%zu] = %d", op, k,
                               (int)out->sizes[k], p[k], (int)in->sizes[p[k]]);
  }
  /* Input strides (logical, row-major) along out's dims, padded to 4 dims in front. */
  size_t istride[4], st[4] = {0, 0, 0, 0}, osz[4] = {1, 1, 1, 1};
  size_t acc = 1;
  for (size_t k = r; k-- > 0;) {
    istride[k] = acc;
    acc *= (size_t)in->sizes[k];
  }
  for (size_t k = 0; k < r; k++) {
    st[4 - r + k] = istride[p[k]];
    osz[4 - r + k] = (size_t)out->sizes[k];
  }
  const int8_t *x = in->data;
  int8_t *y = out->data;
  for (size_t a = 0; a < osz[0]; a++)
    for (size_t b = 0; b < osz[1]; b++)
      for (size_t c = 0; c < osz[2]; c++)
        for (size_t d = 0; d < osz[3]; d++) *y++ = x[a * st[0] + b * st[1] + c * st[2] + d * st[3]];
  return PTERA_OK;
}
