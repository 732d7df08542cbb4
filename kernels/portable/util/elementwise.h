/* Shared preparation and drivers for elementwise kernels. */
#ifndef PK_ELEMENTWISE_H
#define PK_ELEMENTWISE_H

#include "portable/util/iter.h"

/* a, b real or bool; *common = promote(a, b) (InvalidArgument if undefined);
 * out resized to the broadcast shape; common must be castable to out. */
PT_FUNC ptera_status pk_binary_prepare(ptera_kernel_ctx *ctx, const char *op,
                                       const ptera_tensor *a, const ptera_tensor *b,
                                       ptera_tensor *out, int *common);
/* a real or bool; *common = promote(a, scalar); out resized like a; castable. */
PT_FUNC ptera_status pk_scalar_prepare(ptera_kernel_ctx *ctx, const char *op,
                                       const ptera_tensor *a, const pk_scalar *s,
                                       ptera_tensor *out, int *common);
/* PyTorch's alpha rules: no floating alpha for integral results, Bool alpha only
 * for Bool results. */
PT_FUNC ptera_status pk_check_alpha(ptera_kernel_ctx *ctx, const char *op, const pk_scalar *alpha,
                                    int common);

/* op(Tensor self, *, Tensor(a!) out) with a floating result: args [self, out, ret].
 * self real or bool; out floating; computed in double through fn. */
PT_FUNC ptera_status pk_unary_float_kernel(ptera_kernel_ctx *ctx, const char *op,
                                           ptera_value **args, size_t nargs, double (*fn)(double));
/* op(Tensor self, *, Tensor(a!) out) keeping the dtype: args [self, out, ret].
 * Floats go through ff (in double), integers through fi; bool is rejected unless
 * allow_bool (then it goes through fi). out must be castable from self. */
PT_FUNC ptera_status pk_unary_real_kernel(ptera_kernel_ctx *ctx, const char *op,
                                          ptera_value **args, size_t nargs, double (*ff)(double),
                                          int64_t (*fi)(int64_t), bool allow_bool);
/* op(Tensor self, *, Tensor(a!) out) giving 1/0 per element: args [self, out,
 * ret]; self and out of any real or bool dtype. pred sees the element as a
 * double for floating self (is_float true) and as an int64 otherwise. */
PT_FUNC ptera_status pk_unary_predicate_kernel(ptera_kernel_ctx *ctx, const char *op,
                                               ptera_value **args, size_t nargs,
                                               bool (*pred)(double x, int64_t i, bool is_float));
/* op(Tensor self, *, Tensor(a!) out): a same-dtype copy (alias_copy, detach_copy,
 * lift_fresh_copy): args [self, out, ret]. */
PT_FUNC ptera_status pk_copy_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                    size_t nargs);

#endif
