/* aten::index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out):
 * advanced indexing, self[indices]. Integer index tensors (Long/Int, negative
 * values wrap) broadcast together; Bool/Byte masks select their true positions;
 * None keeps a dim. The broadcast dims replace the indexed dims when the index
 * tensors are adjacent, else they lead the result. */
#include "builtin.h"
#include "portable/util/adv_index.h"
#include "portable/util/index_ext.h"
#include "portable/util/pk.h"

ptera_status pk_index_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::index.Tensor_out";
  ptera_tensor *self, *out, *ix[PTERA_MAX_DIM];
  size_t n;
  pk_adv_plan plan;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_opt_tensor_list(ctx, op, args, 1, "indices", ix, PTERA_MAX_DIM, &n));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  PK_TRY(pk_adv_plan_init(ctx, op, self, ix, n, &plan));
  size_t numel;
  PK_TRY(pk_adv_validate(ctx, op, &plan, self, &numel)); /* before touching out */
  int64_t ridx[PTERA_MAX_DIM];
  ptrdiff_t off;
  PK_TRY(pk_resize(ctx, op, "out", out, plan.rdim, plan.rsizes));
  size_t es = ptera_dtype_size(self->dtype);
  for (size_t e = 0; e < numel; e++) {
    pk_unflatten(e, plan.rsizes, plan.rdim, ridx);
    PK_TRY(pk_adv_offset(ctx, op, &plan, self, ridx, &off));
    memcpy((char *)out->data + pk_idx_off(out, ridx), (const char *)self->data + off * (ptrdiff_t)es, es);
  }
  return PTERA_OK;
}
