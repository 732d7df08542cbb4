#include "portable/util/index_ext.h"
#include "portable/util/index_util.h"
#include "portable/util/pk.h"

ptrdiff_t pk_flat_off(const ptera_tensor *t, size_t flat) {
  ptrdiff_t off = 0;
  size_t es = ptera_dtype_size(t->dtype);
  for (size_t d = t->dim; d-- > 0;) {
    size_t s = (size_t)t->sizes[d];
    if (s == 0) return 0;
    off += (ptrdiff_t)(flat % s) * (ptrdiff_t)t->strides[d];
    flat /= s;
  }
  return off * (ptrdiff_t)es;
}

ptrdiff_t pk_idx_off(const ptera_tensor *t, const int64_t *idx) {
  ptrdiff_t off = 0;
  for (size_t d = 0; d < t->dim; d++) off += (ptrdiff_t)idx[d] * (ptrdiff_t)t->strides[d];
  return off * (ptrdiff_t)ptera_dtype_size(t->dtype);
}

ptera_status pk_read_index_any(ptera_kernel_ctx *ctx, const char *op, const char *arg,
                               const void *p, int dt, int64_t size, bool allow_neg, int64_t *v) {
  int64_t x = dt == PTERA_DTYPE_LONG ? *(const int64_t *)p : (int64_t) * (const int32_t *)p;
  int64_t y = (allow_neg && x < 0) ? x + size : x;
  if (y < 0 || y >= size)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: '%s' value %lld is out of bounds for a dim of size %lld", op, arg,
                             (long long)x, (long long)size);
  *v = y;
  return PTERA_OK;
}

static ptera_status get_list(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                             const char *name, ptera_tensor **buf, size_t cap, size_t *len,
                             bool optional) {
  const ptera_value *v = args[i];
  *len = 0;
  bool ok = v && (v->tag == PTERA_TAG_LIST_TENSOR ||
                  (optional && v->tag == PTERA_TAG_LIST_OPTIONAL_TENSOR));
  if (!ok)
    return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "%s: '%s' must be a %s, got %s", op, name,
                             optional ? "Tensor?[]" : "Tensor[]",
                             v ? ptera_tag_name(v->tag) : "nothing");
  size_t n = v->u.list.len;
  if (n > cap)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' has %zu items, at most %zu allowed",
                             op, name, n, cap);
  if (n > 0 && !v->u.list.items)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' has no items", op, name);
  for (size_t k = 0; k < n; k++) {
    const ptera_value *e = v->u.list.items[k];
    if (optional && (!e || e->tag == PTERA_TAG_NONE)) {
      buf[k] = NULL;
      continue;
    }
    PK_TRY(pk_get_tensor(ctx, op, (ptera_value **)v->u.list.items, k, name, &buf[k]));
    continue;
  }
  *len = n;
  return PTERA_OK;
}

ptera_status pk_get_opt_tensor_list(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                    size_t i, const char *name, ptera_tensor **buf, size_t cap,
                                    size_t *len) {
  return get_list(ctx, op, args, i, name, buf, cap, len, true);
}

void pk_bcast_strides(const ptera_tensor *t, size_t bdim, const int32_t *sizes, int64_t *strides) {
  (void)sizes;
  size_t lead = bdim - t->dim;
  for (size_t k = 0; k < bdim; k++) {
    if (k < lead || t->sizes[k - lead] == 1)
      strides[k] = 0;
    else
      strides[k] = t->strides[k - lead];
  }
}

void pk_accumulate_elem(void *dst, const void *src, int dt) {
  switch (pk_compute_type(dt)) {
    case PK_CT_F32: pk_store_f32(dst, dt, pk_load_f32(dst, dt) + pk_load_f32(src, dt)); break;
    case PK_CT_F64: pk_store_f64(dst, dt, pk_load_f64(dst, dt) + pk_load_f64(src, dt)); break;
    case PK_CT_I64:
      if (dt == PTERA_DTYPE_BOOL)
        *(uint8_t *)dst = (uint8_t)(*(uint8_t *)dst || *(const uint8_t *)src);
      else
        pk_store_i64(dst, dt, pk_wadd(pk_load_i64(dst, dt), pk_load_i64(src, dt)));
      break;
  }
}

static ptera_status scatter_src(ptera_kernel_ctx *ctx, const char *op, ptera_tensor *out,
                            const ptera_tensor *self, size_t d, const ptera_tensor *index,
                            const ptera_tensor *src, bool add) {
  int64_t dsize = out->dim ? out->sizes[d] : 1;
  {
    pk_iter it;
    pk_iter_init_logical(&it, index);
    PK_ITER_FOR(it) {
      int64_t v;
      PK_TRY(pk_read_index_any(ctx, op, "index", PK_PTR(index->data, it, 0), PTERA_DTYPE_LONG,
                               dsize, false, &v));
    }
  }
  pk_copy_same_shape(out, self);
  if (index->numel == 0) return PTERA_OK;
  size_t es = ptera_dtype_size(out->dtype);
  int64_t strides[3][PTERA_MAX_DIM];
  size_t esz[3] = {8, es, es};
  for (size_t k = 0; k < index->dim; k++) {
    strides[0][k] = index->strides[k];
    strides[1][k] = src->dim ? src->strides[k] : 0;
    strides[2][k] = (k == d || out->dim == 0) ? 0 : out->strides[k];
  }
  ptrdiff_t dstride = out->dim ? (ptrdiff_t)out->strides[d] * (ptrdiff_t)es : 0;
  pk_iter it;
  pk_iter_init_raw(&it, index->dim, index->sizes, NULL, 3, (const int64_t(*)[PTERA_MAX_DIM])strides,
                   esz);
  PK_ITER_FOR(it) {
    int64_t v = *(const int64_t *)PK_PTR(index->data, it, 0);
    char *dst = PK_PTR(out->data, it, 2) + v * dstride;
    const char *s = PK_PTR(src->data, it, 1);
    if (add)
      pk_accumulate_elem(dst, s, out->dtype);
    else
      memcpy(dst, s, es);
  }
  return PTERA_OK;
}

static ptera_status check_scatter_src(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *index,
                                  const ptera_tensor *src) {
  size_t si = src->dim ? src->dim : 1, ii = index->dim ? index->dim : 1;
  if (si != ii)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'index' has rank %u but 'src' has rank %u", op,
                             (unsigned)index->dim, (unsigned)src->dim);
  for (size_t k = 0; k < index->dim && k < src->dim; k++)
    if (index->sizes[k] > src->sizes[k])
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'index' size %d at dim %zu exceeds the size %d of 'src'", op,
                               (int)index->sizes[k], k, (int)src->sizes[k]);
  if (index->numel > 0 && src->numel == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'src' is empty", op);
  return PTERA_OK;
}

ptera_status pk_scatter_src_op(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                               size_t nargs, bool add) {
  ptera_tensor *self, *index, *src, *out;
  int64_t dim;
  size_t d;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "index", &index));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "src", &src));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "out", &out));
  if (add) {
    PK_TRY(pk_check_real_or_bool(ctx, op, "self", self));
  }
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "src", src));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  PK_TRY(pk_check_index_tensor(ctx, op, self, dim, index, &d));
  PK_TRY(check_scatter_src(ctx, op, index, src));
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  if (index->numel > 0 && out->numel == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' is empty", op);
  return scatter_src(ctx, op, out, self, d, index, src, add);
}

void pk_store_scalar(void *elem, int dt, const pk_scalar *s) {
  if (s->tag == PTERA_TAG_DOUBLE)
    pk_store_f64(elem, dt, s->d);
  else
    pk_store_i64(elem, dt, s->i);
}

ptera_status pk_mask_shape(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *self,
                           const ptera_tensor *mask, int32_t *sizes, size_t *dim) {
  const ptera_tensor *ins[2] = {self, mask};
  static const char *const names[2] = {"self", "mask"};
  return pk_broadcast_shape(ctx, op, ins, names, 2, sizes, dim);
}

size_t pk_mask_count(const ptera_tensor *mask, size_t dim, const int32_t *sizes) {
  int64_t strides[1][PTERA_MAX_DIM];
  size_t esz[1] = {1};
  pk_bcast_strides(mask, dim, sizes, strides[0]);
  pk_iter it;
  pk_iter_init_raw(&it, dim, sizes, NULL, 1, (const int64_t(*)[PTERA_MAX_DIM])strides, esz);
  size_t count = 0;
  PK_ITER_FOR(it) count += *(const uint8_t *)PK_PTR(mask->data, it, 0) != 0;
  return count;
}
