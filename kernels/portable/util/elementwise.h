/* Shared preparation and drivers for elementwise kernels. */
#ifndef PK_ELEMENTWISE_H
#define PK_ELEMENTWISE_H

#include "portable/util/iter.h"

/* args [self, other, out, ret]: three tensors, each real or bool. */
PT_FUNC ptera_status pk_get_binary_tensors(ptera_kernel_ctx *ctx, const char *op,
                                           ptera_value **args, size_t nargs, ptera_tensor **a,
                                           ptera_tensor **b, ptera_tensor **out);
/* *common = promote(a, b), InvalidArgument naming both dtypes if undefined. */
PT_FUNC ptera_status pk_promote_pair(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *a,
                                     const ptera_tensor *b, int *common);
/* *common = promote(a, s), InvalidArgument if a's dtype is unsupported. */
PT_FUNC ptera_status pk_promote_with_scalar(ptera_kernel_ctx *ctx, const char *op,
                                            const ptera_tensor *a, const pk_scalar *s, int *common);
/* Resizes out to the broadcast shape of ts[n] (named names[n]). */
PT_FUNC ptera_status pk_resize_broadcast(ptera_kernel_ctx *ctx, const char *op,
                                         const ptera_tensor *const *ts, const char *const *names,
                                         size_t n, ptera_tensor *out);
/* One-input iterator: out and in (same shape). */
PT_FUNC void pk_iter_init1(pk_iter *it, const ptera_tensor *out, const ptera_tensor *in);
/* in real or bool, out floating, out resized like in. */
PT_FUNC ptera_status pk_unary_float_prepare(ptera_kernel_ctx *ctx, const char *op,
                                            const ptera_tensor *in, ptera_tensor *out);
/* out has in's dtype and is resized like in. */
PT_FUNC ptera_status pk_same_dtype_resize(ptera_kernel_ctx *ctx, const char *op,
                                          const ptera_tensor *in, ptera_tensor *out);

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
/* The same with a float32 fast path: Float self and out go through the
 * cpu/vmath.h function vu (PK_VU_EXP...) instead of fn. */
PT_FUNC ptera_status pk_unary_float_kernel_fast(ptera_kernel_ctx *ctx, const char *op,
                                                ptera_value **args, size_t nargs,
                                                double (*fn)(double), int vu);
/* op(Tensor self, *, Tensor(a!) out) keeping the dtype: args [self, out, ret].
 * Floats go through ff (in double), integers through fi; bool is rejected unless
 * allow_bool (then it goes through fi). out must be castable from self. */
PT_FUNC ptera_status pk_unary_real_kernel(ptera_kernel_ctx *ctx, const char *op,
                                          ptera_value **args, size_t nargs, double (*ff)(double),
                                          int64_t (*fi)(int64_t), bool allow_bool);
/* The same with a float32 fast path through the cpu/vmath.h function vu. */
PT_FUNC ptera_status pk_unary_real_kernel_fast(ptera_kernel_ctx *ctx, const char *op,
                                               ptera_value **args, size_t nargs,
                                               double (*ff)(double), int64_t (*fi)(int64_t),
                                               bool allow_bool, int vu);
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
