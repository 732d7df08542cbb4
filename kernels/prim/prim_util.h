/* Helpers for the prim (scalar) ops: they overwrite the return slot value. */
#ifndef PK_PRIM_UTIL_H
#define PK_PRIM_UTIL_H

#include "portable/util/pk.h"

static inline void pk_prim_set_int(ptera_value *v, int64_t x) {
  v->tag = PTERA_TAG_INT;
  v->u.i = x;
}
static inline void pk_prim_set_double(ptera_value *v, double x) {
  v->tag = PTERA_TAG_DOUBLE;
  v->u.d = x;
}
static inline void pk_prim_set_bool(ptera_value *v, bool x) {
  v->tag = PTERA_TAG_BOOL;
  v->u.b = x;
}
/* The return slot (args[nargs-1]) must exist. */
PT_FUNC ptera_status pk_prim_ret(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                 size_t nargs, size_t expected, ptera_value **ret);
/* An Int, Double or Bool argument; bool_ok false rejects Bool with InvalidType. */
PT_FUNC ptera_status pk_prim_scalar(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                    size_t i, const char *name, bool bool_ok, pk_scalar *s);

#endif
