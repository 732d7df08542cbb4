/* aten::rand.out(int[] size, *, Tensor(a!) out): uniform in [0, 1) samples from ptera's
 * own deterministic generator (util/fill.h), not PyTorch's. out is floating. */
#include "builtin.h"
#include "portable/util/fill.h"
#include "portable/util/pk.h"

ptera_status pk_rand_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::rand.out";
  ptera_tensor *out;
  int64_t size[PTERA_MAX_DIM];
  size_t n;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_int_list(ctx, op, args, 0, "size", size, PTERA_MAX_DIM, &n));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_check_float(ctx, op, "out", out));
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t i = 0; i < n; i++) {
    if (size[i] < 0 || size[i] > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'size' entry %lld is invalid", op,
                               (long long)size[i]);
    sizes[i] = (int32_t)size[i];
  }
  PK_TRY(pk_resize(ctx, op, "out", out, n, sizes));
  pk_rng r;
  pk_rng_init(&r);
  size_t es = ptera_dtype_size(out->dtype);
  for (size_t i = 0; i < out->numel; i++) pk_store_f64((char *)out->data + i * es, out->dtype, pk_rng_uniform(&r));
  return PTERA_OK;
}
