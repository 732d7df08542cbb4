/* A driver for binary elementwise kernels: out = f(a, b[, alpha]) over the
 * broadcast of a and b, computed in the compute type of a common dtype. A Scalar
 * operand is wrapped as a 0-d tensor so every variant shares one loop. */
#ifndef PK_BINOP_H
#define PK_BINOP_H

#include "portable/util/elementwise.h"

typedef struct pk_binop {
  float (*f32)(float a, float b, float alpha);
  double (*f64)(double a, double b, double alpha);
  /* Writes *r; returns false on an integer error (division by zero). */
  bool (*i64)(int64_t a, int64_t b, int64_t alpha, int64_t *r);
  /* 1 + the cpu/vmath.h op (PK_VB_ADD...) that computes f32 exactly as f32
   * does, used on Float runs when alpha is 1 (portable/util/fast_f32.h); 0 none. */
  int fast;
} pk_binop;

/* A 0-d tensor over a Scalar's value (storage holds the value). */
typedef struct pk_scalar_tensor {
  ptera_tensor t;
  union {
    double d;
    int64_t i;
    uint8_t b;
  } v;
} pk_scalar_tensor;
PT_FUNC const ptera_tensor *pk_scalar_tensor_init(pk_scalar_tensor *st, const pk_scalar *s);

/* Runs fn elementwise; a and b are already validated, out resized to their
 * broadcast shape, common the dtype to compute in (its compute type) and to
 * wrap integer results to. alpha may be NULL (then 1). Integer errors fail with
 * InvalidArgument "<op>: <ierr>". */
PT_FUNC ptera_status pk_binop_run(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *a,
                                  const ptera_tensor *b, ptera_tensor *out, int common,
                                  const pk_scalar *alpha, const pk_binop *fn, const char *ierr);

/* Whole kernels. Flags: PK_BINOP_NO_BOOL rejects a Bool common dtype;
 * PK_BINOP_FLOAT computes integral inputs in Float and needs a floating out.
 * tt: op(Tensor self, Tensor other, *, Tensor(a!) out), args [self, other, out, ret].
 * ts: op(Tensor self, Scalar other, *, Tensor(a!) out), same layout. */
#define PK_BINOP_NO_BOOL 1u
#define PK_BINOP_FLOAT 2u
PT_FUNC ptera_status pk_binop_tt_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                        size_t nargs, const char *bname, const pk_binop *fn,
                                        unsigned flags, const char *ierr);
PT_FUNC ptera_status pk_binop_ts_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                        size_t nargs, const char *bname, const pk_binop *fn,
                                        unsigned flags, const char *ierr);

/* op(Tensor self, Tensor|Scalar other, Scalar alpha, *, Tensor(a!) out), args
 * [self, other, alpha, out, ret]: out = fn(self, other, alpha), or, with
 * PK_BINOP_SWAP, fn(other, self, alpha) (rsub). PK_BINOP_NO_BOOL_ARGS rejects a
 * Bool self or other (PyTorch's subtraction rule). */
#define PK_BINOP_SWAP 4u
#define PK_BINOP_NO_BOOL_ARGS 8u
PT_FUNC ptera_status pk_binop_alpha_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                           size_t nargs, bool scalar_other, const pk_binop *fn,
                                           unsigned flags);

/* a + alpha*b, a - alpha*b and a*b; float32 products are rounded before the
 * sum (no FMA), as ExecuTorch's portable kernels compute them. */
extern PT_FUNC const pk_binop pk_binop_add;
extern PT_FUNC const pk_binop pk_binop_sub;
extern PT_FUNC const pk_binop pk_binop_mul;

/* Common validation: fails when common is Bool and the op does not support it. */
PT_FUNC ptera_status pk_binop_no_bool(ptera_kernel_ctx *ctx, const char *op, int common);

/* Shared scalar math (PyTorch semantics). */
PT_FUNC float pk_floordiv_f32(float a, float b);
PT_FUNC double pk_floordiv_f64(double a, double b);
/* Floor / truncating division and Python / C remainders of int64 (b != 0). */
PT_FUNC int64_t pk_floordiv_i64(int64_t a, int64_t b);
PT_FUNC int64_t pk_truncdiv_i64(int64_t a, int64_t b);
PT_FUNC int64_t pk_pymod_i64(int64_t a, int64_t b);
PT_FUNC int64_t pk_cmod_i64(int64_t a, int64_t b);

/* A str? rounding_mode: 0 None, 1 "trunc", 2 "floor". */
PT_FUNC ptera_status pk_get_rounding_mode(ptera_kernel_ctx *ctx, const char *op,
                                          ptera_value **args, size_t i, int *mode);

#endif
