#include "prim/prim_util.h"

ptera_status pk_prim_ret(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t nargs,
                         size_t expected, ptera_value **ret) {
  PK_TRY(pk_check_nargs(ctx, op, nargs, expected));
  if (!args[nargs - 1])
    return ptera_kernel_fail(ctx, PTERA_INVALID_PROGRAM, "%s: missing the return slot", op);
  *ret = args[nargs - 1];
  return PTERA_OK;
}

ptera_status pk_prim_scalar(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                            const char *name, bool bool_ok, pk_scalar *s) {
  const ptera_value *v = args[i];
  if (v && v->tag == PTERA_TAG_BOOL && !bool_ok)
    return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "%s: '%s' must be an Int or Double, got Bool",
                             op, name);
  return pk_get_scalar(ctx, op, args, i, name, s);
}
