/* aten::as_strided_copy.out(Tensor self, SymInt[] size, SymInt[] stride,
 * SymInt? storage_offset=None, *, Tensor(a!) out): out[i] = self's storage at
 * storage_offset + sum(i[d] * stride[d]); the storage is self's numel elements. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_as_strided_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::as_strided_copy.out";
  ptera_tensor *self, *out;
  int64_t size[PTERA_MAX_DIM], stride[PTERA_MAX_DIM], off = 0;
  size_t ns, nt;
  bool has_off;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "size", size, PTERA_MAX_DIM, &ns));
  PK_TRY(pk_get_int_list(ctx, op, args, 2, "stride", stride, PTERA_MAX_DIM, &nt));
  PK_TRY(pk_get_opt_int(ctx, op, args, 3, "storage_offset", &off, &has_off));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (!has_off) off = 0;
  if (ns != nt)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'size' has %zu entries but 'stride' has %zu", op, ns, nt);
  if (off < 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'storage_offset' %lld is negative",
                             op, (long long)off);
  int32_t sizes[PTERA_MAX_DIM];
  bool empty = false;
  int64_t last = off;
  for (size_t d = 0; d < ns; d++) {
    if (size[d] < 0 || size[d] > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'size' entry %lld is invalid",
                               op, (long long)size[d]);
    if (stride[d] < 0 || stride[d] > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'stride' entry %lld is invalid",
                               op, (long long)stride[d]);
    sizes[d] = (int32_t)size[d];
    if (size[d] == 0) empty = true;
    else last += (size[d] - 1) * stride[d];
  }
  if (!empty && (off > INT32_MAX || last >= (int64_t)self->numel))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'size', 'stride' and 'storage_offset' reach element %lld of "
                             "'self', which has %zu",
                             op, (long long)last, self->numel);
  PK_TRY(pk_resize(ctx, op, "out", out, ns, sizes));
  pk_copy_view(out, self, stride, off);
  return PTERA_OK;
}
