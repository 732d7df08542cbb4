/* executorch_prim::et_copy_index.tensor(Tensor copy_to, Tensor copy_from, int index):
 * exactly 3 args, no return slot. copy_to is resized to [index+1, *copy_from.sizes] and
 * copy_from's bytes land at byte offset index * copy_from.nbytes. */
#include "builtin.h"
#include "prim/prim_util.h"

ptera_status pk_prim_et_copy_index_tensor(ptera_kernel_ctx *ctx, ptera_value **args,
                                          size_t nargs) {
  static const char op[] = "executorch_prim::et_copy_index.tensor";
  ptera_tensor *to, *from;
  int64_t index;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "copy_to", &to));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "copy_from", &from));
  PK_TRY(pk_get_int(ctx, op, args, 2, "index", &index));
  PK_TRY(pk_check_same_dtype(ctx, op, "copy_to", to, "copy_from", from));
  if (index < 0 || index >= INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'index' %lld is invalid", op,
                             (long long)index);
  if (to->dim != from->dim + 1u)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'copy_to' rank %u must be one more than 'copy_from' rank %u", op,
                             (unsigned)to->dim, (unsigned)from->dim);
  for (size_t i = 0; i < from->dim; i++)
    if (to->sizes[i + 1] != from->sizes[i])
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'copy_to' sizes after dim 0 must equal 'copy_from' sizes", op);
  int32_t sizes[PTERA_MAX_DIM];
  sizes[0] = (int32_t)(index + 1);
  for (size_t i = 0; i < from->dim; i++) sizes[i + 1] = from->sizes[i];
  PK_TRY(pk_resize(ctx, op, "copy_to", to, to->dim, sizes));
  size_t nb = ptera_tensor_nbytes(from);
  uint64_t off, end;
  if (!pt_mul_u64((uint64_t)index, nb, &off) || !pt_add_u64(off, nb, &end) ||
      end > ptera_tensor_nbytes(to))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: the copy would overrun 'copy_to'",
                             op);
  if (nb) memcpy((char *)to->data + off, from->data, nb);
  return PTERA_OK;
}
