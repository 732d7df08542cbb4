#include "portable/util/adv_index.h"

#include "portable/util/index_ext.h"

void pk_unflatten(size_t n, const int32_t *sizes, size_t dim, int64_t *idx) {
  for (size_t k = dim; k-- > 0;) {
    size_t s = (size_t)sizes[k];
    idx[k] = s ? (int64_t)(n % s) : 0;
    n = s ? n / s : 0;
  }
}

ptera_status pk_adv_plan_init(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *self,
                              ptera_tensor *const *indices, size_t n, pk_adv_plan *p) {
  memset(p, 0, sizeof *p);
  bool indexed[PTERA_MAX_DIM] = {false};
  size_t sd = 0;     /* next self dim */
  int first = -1, last = -1, gaps = 0; /* positions in the list of the index tensors */
  for (size_t k = 0; k < n; k++) {
    const ptera_tensor *t = indices[k];
    size_t cover = 1;
    bool mask = false;
    if (t) {
      mask = t->dtype == PTERA_DTYPE_BOOL || t->dtype == PTERA_DTYPE_BYTE;
      if (!mask && t->dtype != PTERA_DTYPE_LONG && t->dtype != PTERA_DTYPE_INT)
        return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                                 "%s: 'indices' item %zu must be Long, Int, Bool or Byte, got %s", op,
                                 k, ptera_dtype_name(t->dtype));
      if (mask) cover = t->dim;
    }
    if (sd + cover > self->dim)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: too many 'indices' for 'self' of rank %u", op, (unsigned)self->dim);
    if (t) {
      if (first >= 0 && last != (int)k - 1) gaps = 1;
      if (first < 0) first = (int)k;
      last = (int)k;
      pk_adv_group *g = &p->g[p->ngroups++];
      g->t = t;
      g->first_dim = sd;
      g->ndims = cover;
      g->mask = mask;
      if (mask) {
        for (size_t j = 0; j < cover; j++)
          if (t->sizes[j] != self->sizes[sd + j])
            return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                                     "%s: mask 'indices' item %zu has size %d at dim %zu but 'self' "
                                     "has %d",
                                     op, k, (int)t->sizes[j], j, (int)self->sizes[sd + j]);
        size_t cnt = 0;
        for (size_t e = 0; e < t->numel; e++)
          cnt += *((const uint8_t *)t->data + pk_flat_off(t, e)) != 0;
        int64_t *c = NULL;
        if (cnt && cover) {
          c = ptera_kernel_temp(ctx, cnt * cover * sizeof(int64_t), 8);
          if (!c)
            return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                                     "%s: no scratch memory for a mask index (%zu bytes)", op,
                                     cnt * cover * sizeof(int64_t));
          size_t r = 0;
          for (size_t e = 0; e < t->numel; e++)
            if (*((const uint8_t *)t->data + pk_flat_off(t, e))) pk_unflatten(e, t->sizes, cover, c + (r++) * cover);
        }
        g->coords = c;
        g->count = cnt;
      }
      for (size_t j = 0; j < cover; j++) indexed[sd + j] = true;
    }
    sd += cover;
  }
  /* broadcast the index shapes (a mask counts as 1-D [count]) */
  size_t bdim = 0;
  for (size_t i = 0; i < p->ngroups; i++) {
    size_t d = p->g[i].mask ? 1 : p->g[i].t->dim;
    if (d > bdim) bdim = d;
  }
  for (size_t k = 0; k < bdim; k++) p->bsizes[k] = 1;
  for (size_t i = 0; i < p->ngroups; i++) {
    pk_adv_group *g = &p->g[i];
    size_t d = g->mask ? 1 : g->t->dim;
    for (size_t j = 0; j < d; j++) {
      int32_t s = g->mask ? (int32_t)g->count : g->t->sizes[j];
      int32_t *b = &p->bsizes[bdim - d + j];
      if (*b == 1)
        *b = s;
      else if (s != 1 && s != *b)
        return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                                 "%s: 'indices' shapes cannot be broadcast together (%d vs %d)", op,
                                 (int)s, (int)*b);
    }
  }
  for (size_t i = 0; i < p->ngroups; i++) {
    pk_adv_group *g = &p->g[i];
    size_t d = g->mask ? 1 : g->t->dim;
    for (size_t k = 0; k < bdim; k++) {
      g->bstride[k] = 0;
      if (k < bdim - d) continue;
      size_t j = k - (bdim - d);
      if (g->mask)
        g->bstride[k] = g->count == 1 ? 0 : (int64_t)g->ndims;
      else
        g->bstride[k] = g->t->sizes[j] == 1 ? 0 : g->t->strides[j];
    }
  }
  p->bdim = bdim;
  /* result: free dims before the first indexed dim, the broadcast dims, the rest;
   * the broadcast dims go first when the index tensors are not adjacent */
  size_t pre = 0;
  if (!gaps && p->ngroups) pre = p->g[0].first_dim;
  size_t free_count = 0;
  for (size_t k = 0; k < self->dim; k++) free_count += !indexed[k];
  if (free_count + bdim > PTERA_MAX_DIM)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: result rank %zu is above %d", op,
                             free_count + bdim, PTERA_MAX_DIM);
  size_t r = 0, k = 0;
  for (; k < pre; k++) {
    p->rmap[r] = (int)k;
    p->rsizes[r++] = self->sizes[k];
  }
  for (size_t j = 0; j < bdim; j++) {
    p->rmap[r] = -1 - (int)j;
    p->rsizes[r++] = p->bsizes[j];
  }
  for (; k < self->dim; k++) {
    if (indexed[k]) continue;
    p->rmap[r] = (int)k;
    p->rsizes[r++] = self->sizes[k];
  }
  p->rdim = r;
  return PTERA_OK;
}

ptera_status pk_adv_offset(ptera_kernel_ctx *ctx, const char *op, const pk_adv_plan *p,
                           const ptera_tensor *self, const int64_t *ridx, ptrdiff_t *off) {
  int64_t bidx[PTERA_MAX_DIM];
  ptrdiff_t o = 0;
  for (size_t r = 0; r < p->rdim; r++) {
    if (p->rmap[r] >= 0)
      o += (ptrdiff_t)ridx[r] * self->strides[p->rmap[r]];
    else
      bidx[-1 - p->rmap[r]] = ridx[r];
  }
  for (size_t i = 0; i < p->ngroups; i++) {
    const pk_adv_group *g = &p->g[i];
    ptrdiff_t e = 0;
    for (size_t k = 0; k < p->bdim; k++) e += (ptrdiff_t)bidx[k] * (ptrdiff_t)g->bstride[k];
    if (g->mask) {
      for (size_t j = 0; j < g->ndims; j++)
        o += (ptrdiff_t)g->coords[e + (ptrdiff_t)j] * self->strides[g->first_dim + j];
    } else {
      int64_t v;
      size_t es = ptera_dtype_size(g->t->dtype);
      PK_TRY(pk_read_index_any(ctx, op, "indices", (const char *)g->t->data + e * (ptrdiff_t)es,
                               g->t->dtype, self->sizes[g->first_dim], true, &v));
      o += (ptrdiff_t)v * self->strides[g->first_dim];
    }
  }
  *off = o;
  return PTERA_OK;
}

ptera_status pk_adv_validate(ptera_kernel_ctx *ctx, const char *op, const pk_adv_plan *p,
                             const ptera_tensor *self, size_t *numel) {
  size_t n = 1;
  for (size_t k = 0; k < p->rdim; k++) n *= (size_t)p->rsizes[k];
  if (n > 0 && self->numel == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' is empty", op);
  int64_t ridx[PTERA_MAX_DIM];
  ptrdiff_t off;
  for (size_t e = 0; e < n; e++) {
    pk_unflatten(e, p->rsizes, p->rdim, ridx);
    PK_TRY(pk_adv_offset(ctx, op, p, self, ridx, &off));
  }
  *numel = n;
  return PTERA_OK;
}
