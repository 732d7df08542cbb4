#include <stdio.h>

#include "portable/util/iter.h"

void pk_iter_init_raw(pk_iter *it, size_t ndim, const int32_t *sizes, const uint8_t *order,
                      size_t nops, const int64_t strides[][PTERA_MAX_DIM], const size_t *esize) {
  it->nops = nops;
  it->pos = 0;
  it->ndim = 0;
  it->numel = 1;
  for (size_t i = 0; i < ndim; i++) {
    size_t d = order ? order[i] : i;
    size_t s = (size_t)sizes[d];
    it->numel *= s;
    if (s == 1) continue;
    size_t j = it->ndim++;
    it->size[j] = s;
    it->idx[j] = 0;
    for (size_t k = 0; k < nops; k++) it->stride[k][j] = (ptrdiff_t)(strides[k][d] * (int64_t)esize[k]);
  }
  for (size_t k = 0; k < nops; k++) it->off[k] = 0;
}

void pk_iter_rows(pk_iter *it, size_t *n, ptrdiff_t *stride) {
  size_t nd = 0;
  for (size_t j = 0; j < it->ndim; j++) {
    bool merge = nd > 0;
    for (size_t k = 0; merge && k < it->nops; k++)
      merge = it->stride[k][nd - 1] == it->stride[k][j] * (ptrdiff_t)it->size[j];
    if (merge) {
      it->size[nd - 1] *= it->size[j];
      for (size_t k = 0; k < it->nops; k++) it->stride[k][nd - 1] = it->stride[k][j];
    } else {
      it->size[nd] = it->size[j];
      for (size_t k = 0; k < it->nops; k++) it->stride[k][nd] = it->stride[k][j];
      nd++;
    }
  }
  if (nd == 0) {
    *n = 1;
    for (size_t k = 0; k < it->nops; k++) stride[k] = 0;
  } else {
    nd--;
    *n = it->size[nd];
    for (size_t k = 0; k < it->nops; k++) stride[k] = it->stride[k][nd];
  }
  it->ndim = nd;
  it->numel = *n ? it->numel / *n : 0;
  pk_iter_reset(it);
}

void pk_iter_seek(pk_iter *it, size_t pos) {
  pk_iter_reset(it);
  it->pos = pos;
  for (size_t d = it->ndim; d-- > 0;) {
    it->idx[d] = pos % it->size[d];
    pos /= it->size[d];
    for (size_t k = 0; k < it->nops; k++) it->off[k] += it->stride[k][d] * (ptrdiff_t)it->idx[d];
  }
}

void pk_iter_init(pk_iter *it, const ptera_tensor *out, const ptera_tensor *const *ins,
                  size_t nin) {
  int64_t strides[PK_ITER_MAX_OPS][PTERA_MAX_DIM];
  size_t esize[PK_ITER_MAX_OPS];
  size_t n = out->dim;
  for (size_t d = 0; d < n; d++) strides[0][d] = out->strides[d];
  esize[0] = ptera_dtype_size(out->dtype);
  for (size_t k = 0; k < nin; k++) {
    const ptera_tensor *t = ins[k];
    size_t lead = n - t->dim;
    for (size_t d = 0; d < n; d++) {
      if (d < lead) {
        strides[k + 1][d] = 0;
      } else {
        size_t e = d - lead;
        strides[k + 1][d] = (t->sizes[e] == 1 && out->sizes[d] != 1) ? 0 : t->strides[e];
      }
    }
    esize[k + 1] = ptera_dtype_size(t->dtype);
  }
  pk_iter_init_raw(it, n, out->sizes, out->dim_order, nin + 1, strides, esize);
}

void pk_iter_init_logical(pk_iter *it, const ptera_tensor *t) {
  int64_t strides[1][PTERA_MAX_DIM];
  size_t esize = ptera_dtype_size(t->dtype);
  for (size_t d = 0; d < t->dim; d++) strides[0][d] = t->strides[d];
  pk_iter_init_raw(it, t->dim, t->sizes, NULL, 1, strides, &esize);
}

ptera_status pk_broadcast_shape(ptera_kernel_ctx *ctx, const char *op,
                                const ptera_tensor *const *ts, const char *const *names, size_t n,
                                int32_t *out_sizes, size_t *out_dim) {
  size_t dim = 0;
  for (size_t k = 0; k < n; k++)
    if (ts[k]->dim > dim) dim = ts[k]->dim;
  for (size_t d = 0; d < dim; d++) {
    int32_t s = 1;
    size_t from = 0;
    for (size_t k = 0; k < n; k++) {
      const ptera_tensor *t = ts[k];
      size_t lead = dim - t->dim;
      if (d < lead) continue;
      int32_t ts_ = t->sizes[d - lead];
      if (ts_ == 1) continue;
      if (s == 1) {
        s = ts_;
        from = k;
      } else if (s != ts_) {
        char a[128], b[128];
        return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                                 "%s: '%s' of shape %s and '%s' of shape %s are not broadcastable",
                                 op, names[from],
                                 pk_fmt_shape(a, sizeof a, ts[from]->sizes, ts[from]->dim),
                                 names[k], pk_fmt_shape(b, sizeof b, t->sizes, t->dim));
      }
    }
    out_sizes[d] = s;
  }
  *out_dim = dim;
  return PTERA_OK;
}

bool pk_can_broadcast_to(const ptera_tensor *t, const int32_t *sizes, size_t dim) {
  if (t->dim > dim) return false;
  size_t lead = dim - t->dim;
  for (size_t e = 0; e < t->dim; e++)
    if (t->sizes[e] != 1 && t->sizes[e] != sizes[e + lead]) return false;
  return true;
}

bool pk_is_rowmajor(const ptera_tensor *t) {
  int64_t expect = 1;
  for (size_t d = t->dim; d-- > 0;) {
    if (t->sizes[d] == 1) continue;
    if (t->sizes[d] == 0) return true; /* empty: nothing to order */
    if (t->strides[d] != expect) return false;
    expect *= t->sizes[d];
  }
  return true;
}

bool pk_is_channels_last(const ptera_tensor *t) {
  if (t->dim < 3) return false;
  size_t order[PTERA_MAX_DIM], n = 0;
  order[n++] = 0;
  for (size_t d = 2; d < t->dim; d++) order[n++] = d;
  order[n++] = 1;
  int64_t expect = 1;
  for (size_t k = n; k-- > 0;) {
    size_t d = order[k];
    if (t->sizes[d] == 1) continue;
    if (t->sizes[d] == 0) return true;
    if (t->strides[d] != expect) return false;
    expect *= t->sizes[d];
  }
  return true;
}

bool pk_same_layout(const ptera_tensor *a, const ptera_tensor *b) {
  if (a->dim != b->dim) return false;
  for (size_t d = 0; d < a->dim; d++) {
    if (a->sizes[d] != b->sizes[d]) return false;
    if (a->sizes[d] != 1 && a->strides[d] != b->strides[d]) return false;
  }
  return true;
}

void pk_copy_run(char *d, int64_t ds, const char *s, int64_t ss, int64_t n, size_t es) {
  if (ds == 1 && ss == 1) {
    memcpy(d, s, (size_t)n * es);
    return;
  }
#define PK_COPY_RUN(SZ)                                                              \
  for (int64_t i = 0; i < n; i++) memcpy(d + i * ds * (SZ), s + i * ss * (SZ), (SZ)); \
  return;
  switch (es) {
    case 1: PK_COPY_RUN(1)
    case 2: PK_COPY_RUN(2)
    case 4: PK_COPY_RUN(4)
    case 8: PK_COPY_RUN(8)
    default:
      for (int64_t i = 0; i < n; i++)
        memcpy(d + i * ds * (int64_t)es, s + i * ss * (int64_t)es, es);
  }
#undef PK_COPY_RUN
}

void pk_copy_reshape(ptera_tensor *dst, const ptera_tensor *src) {
  size_t n = src->numel < dst->numel ? src->numel : dst->numel;
  if (n == 0) return;
  if (dst->dtype == src->dtype && pk_is_rowmajor(dst) && pk_is_rowmajor(src)) {
    if (dst->data != src->data) memmove(dst->data, src->data, n * ptera_dtype_size(src->dtype));
    return;
  }
  pk_iter is, id;
  pk_iter_init_logical(&is, src);
  pk_iter_init_logical(&id, dst);
  size_t es = ptera_dtype_size(src->dtype);
  for (size_t i = 0; i < n; i++) {
    const char *s = PK_PTR(src->data, is, 0);
    char *d = PK_PTR(dst->data, id, 0);
    if (dst->dtype == src->dtype)
      memcpy(d, s, es);
    else
      pk_convert_elem(d, dst->dtype, s, src->dtype);
    pk_iter_next(&is);
    pk_iter_next(&id);
  }
}

void pk_copy_same_shape(ptera_tensor *dst, const ptera_tensor *src) {
  if (dst->numel == 0) return;
  if (dst->dtype == src->dtype && pk_same_layout(dst, src)) {
    if (dst->data != src->data) memmove(dst->data, src->data, ptera_tensor_nbytes(src));
    return;
  }
  pk_iter it;
  const ptera_tensor *ins[1] = {src};
  pk_iter_init(&it, dst, ins, 1);
  size_t es = ptera_dtype_size(src->dtype);
  if (dst->dtype == src->dtype) { /* runs of the innermost dim */
    size_t n;
    ptrdiff_t st[2];
    pk_iter_rows(&it, &n, st);
    PK_ITER_FOR(it) {
      pk_copy_run(PK_PTR(dst->data, it, 0), st[0] / (ptrdiff_t)es, PK_PTR(src->data, it, 1),
                  st[1] / (ptrdiff_t)es, (int64_t)n, es);
    }
    return;
  }
  PK_ITER_FOR(it) {
    pk_convert_elem(PK_PTR(dst->data, it, 0), dst->dtype, PK_PTR(src->data, it, 1), src->dtype);
  }
}

ptera_status pk_reduce_plan_init(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                                 const int64_t *dims, size_t ndims, bool has_dims, bool keepdim,
                                 pk_reduce_plan *p) {
  size_t n = in->dim;
  for (size_t d = 0; d < PTERA_MAX_DIM; d++) p->reduce[d] = false;
  if (!has_dims || ndims == 0) {
    for (size_t d = 0; d < n; d++) p->reduce[d] = true;
  } else {
    bool seen0 = false; /* rank 0 accepts dim 0 / -1 once */
    for (size_t k = 0; k < ndims; k++) {
      size_t d;
      PK_TRY(pk_norm_dim(ctx, op, "dim", dims[k], n, &d));
      bool *flag = n == 0 ? &seen0 : &p->reduce[d];
      if (*flag)
        return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                                 "%s: dim %lld appears more than once in the list", op,
                                 (long long)dims[k]);
      *flag = true;
    }
  }
  p->out_dim = 0;
  p->reduced_numel = 1;
  for (size_t d = 0; d < n; d++) {
    if (p->reduce[d]) {
      p->reduced_numel *= (size_t)in->sizes[d];
      if (keepdim) p->out_sizes[p->out_dim++] = 1;
    } else {
      p->out_sizes[p->out_dim++] = in->sizes[d];
    }
  }
  return PTERA_OK;
}

void pk_reduce_iters(const pk_reduce_plan *p, const ptera_tensor *in, const ptera_tensor *out,
                     bool keepdim, pk_iter *outer, pk_iter *inner) {
  size_t n = in->dim;
  int32_t osz[PTERA_MAX_DIM], isz[PTERA_MAX_DIM];
  int64_t ost[2][PTERA_MAX_DIM], ist[1][PTERA_MAX_DIM];
  size_t oes[2] = {ptera_dtype_size(out->dtype), ptera_dtype_size(in->dtype)};
  size_t ies = oes[1];
  size_t od = 0;
  for (size_t d = 0; d < n; d++) {
    if (p->reduce[d]) {
      osz[d] = 1;
      ost[0][d] = 0;
      ost[1][d] = 0;
      isz[d] = in->sizes[d];
      ist[0][d] = in->strides[d];
      if (keepdim) od++;
    } else {
      osz[d] = in->sizes[d];
      ost[0][d] = od < out->dim ? out->strides[od] : 0;
      ost[1][d] = in->strides[d];
      od++;
      isz[d] = 1;
      ist[0][d] = 0;
    }
  }
  pk_iter_init_raw(outer, n, osz, NULL, 2, (const int64_t(*)[PTERA_MAX_DIM])ost, oes);
  pk_iter_init_raw(inner, n, isz, NULL, 1, (const int64_t(*)[PTERA_MAX_DIM])ist, &ies);
}
