/* Reading and validating kernel arguments. Every getter fails through the
 * context with a message "<op>: '<name>' ..." and returns the status; on
 * success it returns PTERA_OK. */
#ifndef PK_ARGS_H
#define PK_ARGS_H

#include "ptera/kernel.h"
#include "portable/util/dtype_util.h"

/* Propagates a non-OK status. */
#define PK_TRY(expr)                      \
  do {                                    \
    ptera_status pk_st_ = (expr);         \
    if (pk_st_ != PTERA_OK) return pk_st_; \
  } while (0)

/* nargs must be the schema argument count plus the return slot (InvalidProgram otherwise). */
PT_FUNC ptera_status pk_check_nargs(ptera_kernel_ctx *ctx, const char *op, size_t nargs,
                                    size_t expected);

/* A Tensor with sane metadata (rank <= 16, known dtype, numel matching sizes,
 * data present when numel > 0). */
PT_FUNC ptera_status pk_get_tensor(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t i, const char *name, ptera_tensor **out);
/* Tensor? : *out = NULL for None. */
PT_FUNC ptera_status pk_get_opt_tensor(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                       size_t i, const char *name, ptera_tensor **out);
PT_FUNC ptera_status pk_get_int(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                size_t i, const char *name, int64_t *out);
PT_FUNC ptera_status pk_get_opt_int(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                    size_t i, const char *name, int64_t *out, bool *has);
PT_FUNC ptera_status pk_get_bool(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                 size_t i, const char *name, bool *out);
/* float: a Double (an Int is accepted and converted). */
PT_FUNC ptera_status pk_get_double(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t i, const char *name, double *out);
PT_FUNC ptera_status pk_get_scalar(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t i, const char *name, pk_scalar *out);
/* int[]: copies up to cap items (more is InvalidArgument). */
/* Reads the int[] size argument args[i] (entries 0..INT32_MAX) and resizes
 * out to it (factory ops: empty, zeros, ones, full, rand, randn). */
PT_FUNC ptera_status pk_resize_to_size_arg(ptera_kernel_ctx *ctx, const char *op,
                                           ptera_value **args, size_t i, ptera_tensor *out);
PT_FUNC ptera_status pk_get_int_list(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                     size_t i, const char *name, int64_t *buf, size_t cap,
                                     size_t *len);
/* int[]? : *has = false for None. */
PT_FUNC ptera_status pk_get_opt_int_list(ptera_kernel_ctx *ctx, const char *op,
                                         ptera_value **args, size_t i, const char *name,
                                         int64_t *buf, size_t cap, size_t *len, bool *has);
/* ScalarType: an Int holding a dtype code 0..29. */
PT_FUNC ptera_status pk_get_dtype(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                  size_t i, const char *name, int *out);
PT_FUNC ptera_status pk_get_opt_dtype(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                      size_t i, const char *name, int *out, bool *has);
/* MemoryFormat?: None or an Int 0..3 (contiguous, preserve, channels_last, channels_last_3d). */
PT_FUNC ptera_status pk_get_opt_memory_format(ptera_kernel_ctx *ctx, const char *op,
                                              ptera_value **args, size_t i, const char *name,
                                              int64_t *out, bool *has);

/* Wraps dim into [0, rank) (rank 0 accepts -1 and 0 and yields 0). */
PT_FUNC ptera_status pk_norm_dim(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                 int64_t dim, size_t rank, size_t *out);

/* Resizes out (the out-variant contract); InvalidArgument naming both shapes on failure. */
PT_FUNC ptera_status pk_resize(ptera_kernel_ctx *ctx, const char *op, const char *name,
                               ptera_tensor *out, size_t dim, const int32_t *sizes);
PT_FUNC ptera_status pk_resize_like(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                    ptera_tensor *out, const ptera_tensor *like);

/* Dtype checks with messages. */
PT_FUNC ptera_status pk_check_dtype(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                    const ptera_tensor *t, int dtype);
PT_FUNC ptera_status pk_check_same_dtype(ptera_kernel_ctx *ctx, const char *op, const char *an,
                                         const ptera_tensor *a, const char *bn,
                                         const ptera_tensor *b);
PT_FUNC ptera_status pk_check_real_or_bool(ptera_kernel_ctx *ctx, const char *op,
                                           const char *name, const ptera_tensor *t);
PT_FUNC ptera_status pk_check_real(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                   const ptera_tensor *t);
PT_FUNC ptera_status pk_check_float(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                    const ptera_tensor *t);
/* from may be cast to out's dtype (PyTorch canCast). */
PT_FUNC ptera_status pk_check_can_cast(ptera_kernel_ctx *ctx, const char *op, int from,
                                       const char *name, const ptera_tensor *out);

/* Formats "[2, 3]" into buf (always terminated). */
PT_FUNC const char *pk_fmt_shape(char *buf, size_t cap, const int32_t *sizes, size_t dim);

#endif
