#include <stdio.h>

#include "portable/util/args.h"

ptera_status pk_check_nargs(ptera_kernel_ctx *ctx, const char *op, size_t nargs,
                            size_t expected) {
  if (nargs != expected)
    return ptera_kernel_fail(ctx, PTERA_INVALID_PROGRAM,
                             "%s: expected %zu arguments (schema arguments and the return slot), "
                             "got %zu",
                             op, expected, nargs);
  return PTERA_OK;
}

static ptera_status bad_tag(ptera_kernel_ctx *ctx, const char *op, const char *name,
                            const char *want, const ptera_value *v) {
  return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "%s: '%s' must be %s, got %s", op, name, want,
                           v ? ptera_tag_name(v->tag) : "a missing value");
}

static ptera_status check_tensor_meta(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                      const ptera_tensor *t) {
  if (t->dim > PTERA_MAX_DIM)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' has rank %u, above %d", op,
                             name, (unsigned)t->dim, PTERA_MAX_DIM);
  if (ptera_dtype_size(t->dtype) == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' has unknown dtype %u", op,
                             name, (unsigned)t->dtype);
  unsigned seen = 0;
  for (size_t d = 0; d < t->dim; d++) {
    unsigned bit = t->dim_order[d] < t->dim ? 1u << t->dim_order[d] : 0u;
    if (!bit || (seen & bit))
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: '%s' has a dim order that is not a permutation", op, name);
    seen |= bit;
  }
  uint64_t n;
  if (!pt_numel(t->sizes, t->dim, &n) || n != t->numel)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: '%s' has inconsistent sizes and numel", op, name);
  if (n > 0 && !t->data)
    return ptera_kernel_fail(ctx, PTERA_INVALID_STATE, "%s: '%s' has no data", op, name);
  return PTERA_OK;
}

ptera_status pk_get_tensor(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                           const char *name, ptera_tensor **out) {
  const ptera_value *v = args[i];
  if (!v || v->tag != PTERA_TAG_TENSOR || !v->u.tensor) return bad_tag(ctx, op, name, "a Tensor", v);
  PK_TRY(check_tensor_meta(ctx, op, name, v->u.tensor));
  *out = v->u.tensor;
  return PTERA_OK;
}

ptera_status pk_get_opt_tensor(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                               size_t i, const char *name, ptera_tensor **out) {
  const ptera_value *v = args[i];
  if (v && v->tag == PTERA_TAG_NONE) {
    *out = NULL;
    return PTERA_OK;
  }
  return pk_get_tensor(ctx, op, args, i, name, out);
}

ptera_status pk_get_int(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                        const char *name, int64_t *out) {
  const ptera_value *v = args[i];
  if (!v || v->tag != PTERA_TAG_INT) return bad_tag(ctx, op, name, "an Int", v);
  *out = v->u.i;
  return PTERA_OK;
}

ptera_status pk_get_opt_int(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                            const char *name, int64_t *out, bool *has) {
  const ptera_value *v = args[i];
  *has = false;
  if (v && v->tag == PTERA_TAG_NONE) return PTERA_OK;
  if (!v || v->tag != PTERA_TAG_INT) return bad_tag(ctx, op, name, "an Int or None", v);
  *out = v->u.i;
  *has = true;
  return PTERA_OK;
}

ptera_status pk_get_bool(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                         const char *name, bool *out) {
  const ptera_value *v = args[i];
  if (!v || v->tag != PTERA_TAG_BOOL) return bad_tag(ctx, op, name, "a Bool", v);
  *out = v->u.b;
  return PTERA_OK;
}

ptera_status pk_get_double(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                           const char *name, double *out) {
  const ptera_value *v = args[i];
  if (v && v->tag == PTERA_TAG_DOUBLE) {
    *out = v->u.d;
    return PTERA_OK;
  }
  if (v && v->tag == PTERA_TAG_INT) {
    *out = (double)v->u.i;
    return PTERA_OK;
  }
  return bad_tag(ctx, op, name, "a Double", v);
}

ptera_status pk_get_scalar(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                           const char *name, pk_scalar *out) {
  const ptera_value *v = args[i];
  if (!v) return bad_tag(ctx, op, name, "a Scalar", v);
  out->i = 0;
  out->d = 0.0;
  switch (v->tag) {
    case PTERA_TAG_INT: out->tag = PTERA_TAG_INT; out->i = v->u.i; return PTERA_OK;
    case PTERA_TAG_BOOL: out->tag = PTERA_TAG_BOOL; out->i = v->u.b ? 1 : 0; return PTERA_OK;
    case PTERA_TAG_DOUBLE: out->tag = PTERA_TAG_DOUBLE; out->d = v->u.d; return PTERA_OK;
    default: return bad_tag(ctx, op, name, "a Scalar (Int, Double or Bool)", v);
  }
}

static ptera_status read_int_list(ptera_kernel_ctx *ctx, const char *op, const ptera_value *v,
                                  const char *name, int64_t *buf, size_t cap, size_t *len) {
  size_t n = v->u.list.len;
  if (n > cap)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' has %zu items, at most %zu allowed",
                             op, name, n, cap);
  if (n > 0 && !v->u.list.items)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' has no items", op, name);
  for (size_t k = 0; k < n; k++) {
    const ptera_value *e = v->u.list.items[k];
    if (!e || e->tag != PTERA_TAG_INT)
      return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "%s: '%s' item %zu must be an Int, got %s",
                               op, name, k, e ? ptera_tag_name(e->tag) : "nothing");
    buf[k] = e->u.i;
  }
  *len = n;
  return PTERA_OK;
}

ptera_status pk_get_int_list(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                             const char *name, int64_t *buf, size_t cap, size_t *len) {
  const ptera_value *v = args[i];
  if (!v || v->tag != PTERA_TAG_LIST_INT) return bad_tag(ctx, op, name, "an int list", v);
  return read_int_list(ctx, op, v, name, buf, cap, len);
}

ptera_status pk_get_opt_int_list(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                 size_t i, const char *name, int64_t *buf, size_t cap, size_t *len,
                                 bool *has) {
  const ptera_value *v = args[i];
  *has = false;
  *len = 0;
  if (v && v->tag == PTERA_TAG_NONE) return PTERA_OK;
  if (!v || v->tag != PTERA_TAG_LIST_INT) return bad_tag(ctx, op, name, "an int list or None", v);
  *has = true;
  return read_int_list(ctx, op, v, name, buf, cap, len);
}

ptera_status pk_get_dtype(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                          const char *name, int *out) {
  int64_t d = 0;
  PK_TRY(pk_get_int(ctx, op, args, i, name, &d));
  if (d < 0 || d >= PTERA_DTYPE_COUNT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' is not a dtype code: %lld", op,
                             name, (long long)d);
  *out = (int)d;
  return PTERA_OK;
}

ptera_status pk_get_opt_dtype(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                              const char *name, int *out, bool *has) {
  const ptera_value *v = args[i];
  *has = false;
  if (v && v->tag == PTERA_TAG_NONE) return PTERA_OK;
  PK_TRY(pk_get_dtype(ctx, op, args, i, name, out));
  *has = true;
  return PTERA_OK;
}

ptera_status pk_get_opt_memory_format(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                      size_t i, const char *name, int64_t *out, bool *has) {
  PK_TRY(pk_get_opt_int(ctx, op, args, i, name, out, has));
  if (*has && (*out < 0 || *out > 3))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' is not a memory format: %lld",
                             op, name, (long long)*out);
  return PTERA_OK;
}

ptera_status pk_norm_dim(ptera_kernel_ctx *ctx, const char *op, const char *name, int64_t dim,
                         size_t rank, size_t *out) {
  int64_t r = rank == 0 ? 1 : (int64_t)rank;
  if (dim < -r || dim >= r)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: '%s' = %lld is out of range for a tensor of rank %zu (expected "
                             "%lld..%lld)",
                             op, name, (long long)dim, rank, (long long)-r, (long long)(r - 1));
  *out = (size_t)(dim < 0 ? dim + r : dim);
  return PTERA_OK;
}

const char *pk_fmt_shape(char *buf, size_t cap, const int32_t *sizes, size_t dim) {
  if (cap == 0) return buf;
  buf[0] = 0;
#if !PTERA_STRIP_MESSAGES /* only messages show shapes */
  size_t n = 0;
  int w = snprintf(buf, cap, "[");
  n = w > 0 ? (size_t)w : 0;
  for (size_t i = 0; i < dim && n < cap; i++) {
    w = snprintf(buf + n, cap - n, i ? ", %d" : "%d", (int)sizes[i]);
    if (w < 0) break;
    n += (size_t)w;
  }
  if (n < cap) snprintf(buf + n, cap - n, "]");
#endif
  return buf;
}

ptera_status pk_resize(ptera_kernel_ctx *ctx, const char *op, const char *name, ptera_tensor *out,
                       size_t dim, const int32_t *sizes) {
  if (dim > PTERA_MAX_DIM)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: result rank %zu is above %d", op,
                             dim, PTERA_MAX_DIM);
  ptera_status st = ptera_tensor_resize(out, dim, sizes);
  if (st != PTERA_OK) {
    char a[128], b[128];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: cannot resize '%s' from %s to %s (%s)", op, name,
                             pk_fmt_shape(a, sizeof a, out->sizes, out->dim),
                             pk_fmt_shape(b, sizeof b, sizes, dim), ptera_status_name(st));
  }
  return PTERA_OK;
}

ptera_status pk_resize_like(ptera_kernel_ctx *ctx, const char *op, const char *name,
                            ptera_tensor *out, const ptera_tensor *like) {
  return pk_resize(ctx, op, name, out, like->dim, like->sizes);
}

ptera_status pk_check_dtype(ptera_kernel_ctx *ctx, const char *op, const char *name,
                            const ptera_tensor *t, int dtype) {
  if (t->dtype != dtype)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' has dtype %s, expected %s", op,
                             name, ptera_dtype_name(t->dtype), ptera_dtype_name(dtype));
  return PTERA_OK;
}

ptera_status pk_check_same_dtype(ptera_kernel_ctx *ctx, const char *op, const char *an,
                                 const ptera_tensor *a, const char *bn, const ptera_tensor *b) {
  if (a->dtype != b->dtype)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: '%s' has dtype %s but '%s' has dtype %s; they must match", op, an,
                             ptera_dtype_name(a->dtype), bn, ptera_dtype_name(b->dtype));
  return PTERA_OK;
}

ptera_status pk_check_real_or_bool(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                   const ptera_tensor *t) {
  if (!pk_is_real_or_bool(t->dtype))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' has unsupported dtype %s", op,
                             name, ptera_dtype_name(t->dtype));
  return PTERA_OK;
}

ptera_status pk_check_real(ptera_kernel_ctx *ctx, const char *op, const char *name,
                           const ptera_tensor *t) {
  if (!pk_is_real(t->dtype))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: '%s' has dtype %s; an integer or floating dtype is required", op,
                             name, ptera_dtype_name(t->dtype));
  return PTERA_OK;
}

ptera_status pk_check_float(ptera_kernel_ctx *ctx, const char *op, const char *name,
                            const ptera_tensor *t) {
  if (!pk_is_float(t->dtype))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: '%s' has dtype %s; a floating dtype is required", op, name,
                             ptera_dtype_name(t->dtype));
  return PTERA_OK;
}

ptera_status pk_check_can_cast(ptera_kernel_ctx *ctx, const char *op, int from, const char *name,
                               const ptera_tensor *out) {
  if (!pk_is_real_or_bool(out->dtype) || !pk_can_cast(from, out->dtype))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: the result dtype %s cannot be stored in '%s' of dtype %s", op,
                             ptera_dtype_name(from), name, ptera_dtype_name(out->dtype));
  return PTERA_OK;
}

ptera_status pk_resize_to_size_arg(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t i, ptera_tensor *out) {
  int64_t size[PTERA_MAX_DIM];
  int32_t sizes[PTERA_MAX_DIM];
  size_t n;
  PK_TRY(pk_get_int_list(ctx, op, args, i, "size", size, PTERA_MAX_DIM, &n));
  for (size_t d = 0; d < n; d++) {
    if (size[d] < 0 || size[d] > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'size' entry %lld is invalid", op,
                               (long long)size[d]);
    sizes[d] = (int32_t)size[d];
  }
  return pk_resize(ctx, op, "out", out, n, sizes);
}
