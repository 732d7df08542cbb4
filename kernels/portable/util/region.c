#include <string.h>

#include "cpu/transpose.h"
#include "portable/util/region.h"

#define PK_TILE 16 /* elements per side of a transposing tile */

/* dst(a, b) = d[a * dsa + b] from src(a, b) = s[a + b * ssb], a < na, b < nb
 * (element strides): a transpose, walked in square tiles so both sides stay
 * in cache; 4-byte elements through the transpose micro-kernels. */
static void copy_tiles(char *d, int64_t dsa, const char *s, int64_t ssb, int64_t na, int64_t nb,
                       size_t es) {
  if (es == 4 && dsa > 0 && ssb > 0) {
    pk_x32_transpose(s, (size_t)ssb, d, (size_t)dsa, (size_t)nb, (size_t)na);
    return;
  }
#define PK_TILES(SZ)                                                                      \
  for (int64_t a0 = 0; a0 < na; a0 += PK_TILE)                                            \
    for (int64_t b0 = 0; b0 < nb; b0 += PK_TILE) {                                        \
      int64_t a1 = a0 + PK_TILE < na ? a0 + PK_TILE : na;                                 \
      int64_t b1 = b0 + PK_TILE < nb ? b0 + PK_TILE : nb;                                 \
      for (int64_t b = b0; b < b1; b++)                                                   \
        for (int64_t a = a0; a < a1; a++)                                                 \
          memcpy(d + (a * dsa + b) * (SZ), s + (a + b * ssb) * (SZ), (SZ));               \
    }                                                                                     \
  return;
  switch (es) {
    case 1: PK_TILES(1)
    case 2: PK_TILES(2)
    case 4: PK_TILES(4)
    case 8: PK_TILES(8)
    default: PK_TILES(es)
  }
#undef PK_TILES
}

void pk_copy_region(void *dst, int ddt, const int64_t *dstr, int64_t doff, const void *src,
                    int sdt, const int64_t *sstr, int64_t soff, size_t ndim,
                    const int64_t *sizes) {
  size_t n = 0;
  int64_t sz[PK_REGION_MAX_DIM], ds[PK_REGION_MAX_DIM], ss[PK_REGION_MAX_DIM];
  int64_t idx[PK_REGION_MAX_DIM];
  bool same = ddt == sdt;
  for (size_t d = 0; d < ndim; d++) {
    if (sizes[d] == 0) return;
    if (sizes[d] == 1) continue;
    if (same && n > 0 && ds[n - 1] == dstr[d] * sizes[d] && ss[n - 1] == sstr[d] * sizes[d]) {
      sz[n - 1] *= sizes[d]; /* contiguous with the dim before it in both: merge */
      ds[n - 1] = dstr[d];
      ss[n - 1] = sstr[d];
      continue;
    }
    sz[n] = sizes[d];
    ds[n] = dstr[d];
    ss[n] = sstr[d];
    idx[n] = 0;
    n++;
  }
  size_t de = ptera_dtype_size(ddt), se = ptera_dtype_size(sdt);
  char *dp = (char *)dst;
  const char *sp = (const char *)src;
  int64_t o_d = doff, o_s = soff;
  /* a same-dtype copy walks runs of the innermost dim, a converting one elements */
  int64_t run = 1, rd = 0, rs = 0;
  if (same && n > 0) {
    n--;
    run = sz[n];
    rd = ds[n];
    rs = ss[n];
  }
  /* a dst-contiguous run read with a stride, and an outer dim that is
   * contiguous in src (a transpose): copied in tiles over the two dims */
  int64_t tn = 0, tds = 0;
  if (same && rd == 1 && rs != 1 && rs != 0 && run >= 4) {
    for (size_t j = n; j-- > 0;) {
      if (ss[j] != 1 || sz[j] < 4) continue;
      tn = sz[j];
      tds = ds[j];
      for (size_t k = j; k + 1 < n; k++) {
        sz[k] = sz[k + 1];
        ds[k] = ds[k + 1];
        ss[k] = ss[k + 1];
      }
      n--;
      break;
    }
  }
  for (;;) {
    if (tn)
      copy_tiles(dp + o_d * (int64_t)de, tds, sp + o_s * (int64_t)se, rs, tn, run, de);
    else if (same)
      pk_copy_run(dp + o_d * (int64_t)de, rd, sp + o_s * (int64_t)se, rs, run, de);
    else
      pk_convert_elem(dp + o_d * (int64_t)de, ddt, sp + o_s * (int64_t)se, sdt);
    size_t d = n;
    for (;;) {
      if (d == 0) return;
      d--;
      if (++idx[d] < sz[d]) {
        o_d += ds[d];
        o_s += ss[d];
        break;
      }
      o_d -= ds[d] * (sz[d] - 1);
      o_s -= ss[d] * (sz[d] - 1);
      idx[d] = 0;
    }
  }
}

void pk_copy_view(ptera_tensor *out, const ptera_tensor *self, const int64_t *vstr, int64_t off) {
  if (out->numel == 0) return;
  int64_t sizes[PTERA_MAX_DIM], dstr[PTERA_MAX_DIM], sstr[PTERA_MAX_DIM];
  /* iterate in out's memory order so out is written sequentially */
  for (size_t i = 0; i < out->dim; i++) {
    size_t d = out->dim_order[i];
    sizes[i] = out->sizes[d];
    dstr[i] = out->strides[d];
    sstr[i] = vstr[d];
  }
  pk_copy_region(out->data, out->dtype, dstr, 0, self->data, self->dtype, sstr, off, out->dim,
                 sizes);
}

ptera_status pk_get_tensor_list(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                size_t i, const char *name, ptera_tensor ***out, size_t *len) {
  const ptera_value *v = args[i];
  if (!v || v->tag != PTERA_TAG_LIST_TENSOR)
    return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "%s: '%s' must be a TensorList, got %s", op,
                             name, v ? ptera_tag_name(v->tag) : "a missing value");
  size_t n = v->u.list.len;
  ptera_tensor **buf = (ptera_tensor **)ptera_kernel_temp(ctx, (n ? n : 1) * sizeof *buf,
                                                          _Alignof(ptera_tensor *));
  if (!buf)
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                             "%s: no temp memory for the %zu tensors of '%s'", op, n, name);
  for (size_t k = 0; k < v->u.list.len; k++) {
    ptera_value *item = v->u.list.items[k];
    ptera_value *one[1] = {item};
    PK_TRY(pk_get_tensor(ctx, op, one, 0, name, &buf[k]));
  }
  *out = buf;
  *len = n;
  return PTERA_OK;
}

int64_t pk_slice_range(int64_t n, bool has_start, int64_t start, bool has_end, int64_t end,
                       int64_t step, int64_t *first) {
  if (!has_start) start = 0;
  if (!has_end) end = n;
  if (start < 0) start = start < -n ? 0 : start + n;
  if (end < 0) end = end < -n ? 0 : end + n;
  if (start > n) start = n;
  if (end > n) end = n;
  *first = start;
  return end > start ? (end - start - 1) / step + 1 : 0;
}

ptera_status pk_scatter_view(ptera_kernel_ctx *ctx, const char *op, ptera_tensor *out,
                             const ptera_tensor *self, const ptera_tensor *src, size_t d,
                             int64_t start, int64_t step, bool keep_dim) {
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  if (out->numel == 0) return PTERA_OK;
  pk_copy_same_shape(out, self);
  if (src->numel == 0) return PTERA_OK;
  /* operands: src, out restricted to the view */
  size_t es = ptera_dtype_size(out->dtype);
  int64_t strides[2][PTERA_MAX_DIM];
  size_t esz[2] = {es, es};
  for (size_t k = 0, j = 0; k < out->dim; k++) {
    if (k == d && !keep_dim) continue;
    strides[0][j] = src->strides[j];
    strides[1][j] = k == d ? out->strides[k] * step : out->strides[k];
    j++;
  }
  char *base = (char *)out->data + (ptrdiff_t)start * out->strides[d] * (ptrdiff_t)es;
  pk_iter it;
  pk_iter_init_raw(&it, src->dim, src->sizes, NULL, 2, (const int64_t(*)[PTERA_MAX_DIM])strides, esz);
  PK_ITER_FOR(it) memcpy(PK_PTR(base, it, 1), PK_PTR(src->data, it, 0), es);
  return PTERA_OK;
}
