#include "quantized/quant_group.h"

#include <string.h>

#include "portable/util/index_ext.h"

ptera_status pk_qgroups_check(ptera_kernel_ctx *ctx, const char *op, const pk_qgroups *g) {
  const ptera_tensor *s = g->scales, *z = g->zero_points;
  if (s->dtype != PTERA_DTYPE_DOUBLE && s->dtype != PTERA_DTYPE_FLOAT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'scales' must be Double or Float, got %s",
                             op, ptera_dtype_name(s->dtype));
  if (s->numel != g->count)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'scales' has %zu elements, expected %zu",
                             op, s->numel, g->count);
  if (z) {
    if (z->dtype != PTERA_DTYPE_LONG && z->dtype != PTERA_DTYPE_INT)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'zero_points' must be Long or Int, got %s", op,
                               ptera_dtype_name(z->dtype));
    if (z->numel != g->count)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'zero_points' has %zu elements, expected %zu", op, z->numel,
                               g->count);
  }
  return PTERA_OK;
}

void pk_qgroups_scalar(pk_qgroups *g, pk_qscalar *st, double scale, int64_t zero_point) {
  memset(st, 0, sizeof *st);
  st->s = scale;
  st->z = zero_point;
  st->scale = (ptera_tensor){.data = &st->s, .numel = 1, .capacity = sizeof st->s,
                             .dtype = PTERA_DTYPE_DOUBLE};
  st->zero_point = (ptera_tensor){.data = &st->z, .numel = 1, .capacity = sizeof st->z,
                                  .dtype = PTERA_DTYPE_LONG};
  *g = (pk_qgroups){0, 1, &st->scale, &st->zero_point};
}

static void group_params(const pk_qgroups *g, size_t k, double *scale, int32_t *zp) {
  *scale = pk_load_f64((const char *)g->scales->data + pk_flat_off(g->scales, k), g->scales->dtype);
  *zp = g->zero_points ? (int32_t)pk_load_i64((const char *)g->zero_points->data +
                                                  pk_flat_off(g->zero_points, k),
                                              g->zero_points->dtype)
                       : 0;
}

void pk_quantize_groups(const ptera_tensor *in, ptera_tensor *out, const pk_qgroups *g,
                        int64_t qmin, int64_t qmax) {
  size_t cur = (size_t)-1;
  float inv = 0.0f, zf = 0.0f;
  for (size_t e = 0; e < in->numel; e++) {
    size_t k = g->inner ? (e / g->inner) % g->count : 0;
    if (k != cur) {
      double s;
      int32_t z;
      group_params(g, k, &s, &z);
      inv = 1.0f / (float)s;
      zf = (float)z;
      cur = k;
    }
    const char *xp = (const char *)in->data + pk_flat_off(in, e);
    float prod = in->dtype == PTERA_DTYPE_DOUBLE ? (float)((double)inv * *(const double *)xp)
                                                 : inv * pk_load_f32(xp, in->dtype);
    float q = zf + nearbyintf(prod);
    int64_t v;
    if (q != q)
      v = qmin;
    else if (q <= (float)qmin)
      v = qmin;
    else if (q >= (float)qmax)
      v = qmax;
    else
      v = (int64_t)q;
    pk_store_i64((char *)out->data + pk_flat_off(out, e), out->dtype, v);
  }
}

/* Whether t's elements lie in row-major order without gaps. */
static bool row_major(const ptera_tensor *t) {
  int64_t s = 1;
  for (size_t d = t->dim; d-- > 0;) {
    if (t->sizes[d] != 1 && t->strides[d] != s) return false;
    s *= t->sizes[d];
  }
  return true;
}

/* int8 -> Float, both row-major (weights dequantized before a layer): the
 * same arithmetic a group at a time, without the per-element offset walk. */
static void dequantize_i8_rows(const ptera_tensor *in, ptera_tensor *out, const pk_qgroups *g) {
  const int8_t *q = in->data;
  float *o = out->data;
  const ptera_tensor *sc = g->scales;
  if (g->inner == 1 && g->count && in->numel % g->count == 0 && !g->zero_points &&
      sc->dtype == PTERA_DTYPE_FLOAT && row_major(sc)) {
    /* a scale per element of the last dim (per channel on the last axis) */
    const float *sf = sc->data;
    size_t n = g->count;
    for (size_t r = 0; r < in->numel / n; r++, q += n, o += n)
      for (size_t c = 0; c < n; c++) o[c] = (float)q[c] * sf[c];
    return;
  }
  for (size_t e = 0; e < in->numel;) {
    size_t k = g->inner ? (e / g->inner) % g->count : 0;
    size_t end = g->inner ? (e / g->inner + 1) * g->inner : in->numel;
    if (end > in->numel) end = in->numel;
    double s;
    int32_t z;
    group_params(g, k, &s, &z);
    float sf = (float)s;
    for (; e < end; e++) o[e] = (float)(int32_t)((uint32_t)(int32_t)q[e] - (uint32_t)z) * sf;
  }
}

void pk_dequantize_groups(const ptera_tensor *in, ptera_tensor *out, const pk_qgroups *g) {
  if (in->dtype == PTERA_DTYPE_CHAR && out->dtype == PTERA_DTYPE_FLOAT && row_major(in) &&
      row_major(out)) {
    dequantize_i8_rows(in, out, g);
    return;
  }
  size_t cur = (size_t)-1;
  float sf = 0.0f;
  int32_t z = 0;
  for (size_t e = 0; e < in->numel; e++) {
    size_t k = g->inner ? (e / g->inner) % g->count : 0;
    if (k != cur) {
      double s;
      group_params(g, k, &s, &z);
      sf = (float)s;
      cur = k;
    }
    int32_t q = (int32_t)pk_load_i64((const char *)in->data + pk_flat_off(in, e), in->dtype);
    int32_t c = (int32_t)((uint32_t)q - (uint32_t)z);
    pk_store_f32((char *)out->data + pk_flat_off(out, e), out->dtype, (float)c * sf);
  }
}

ptera_status pk_qgroups_axis(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                             int64_t axis, const ptera_tensor *scales,
                             const ptera_tensor *zero_points, pk_qgroups *g) {
  size_t a;
  if (in->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'input' must have rank >= 1", op);
  PK_TRY(pk_norm_dim(ctx, op, "axis", axis, in->dim, &a));
  size_t inner = 1;
  for (size_t k = a + 1; k < in->dim; k++) inner *= (size_t)in->sizes[k];
  *g = (pk_qgroups){inner, (size_t)in->sizes[a], scales, zero_points};
  return pk_qgroups_check(ctx, op, g);
}

ptera_status pk_qgroups_token(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                              const ptera_tensor *scales, const ptera_tensor *zero_points,
                              pk_qgroups *g) {
  if (in->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'input' must have rank >= 1", op);
  size_t last = (size_t)in->sizes[in->dim - 1];
  *g = (pk_qgroups){last, last ? in->numel / last : 0, scales, zero_points};
  if (last == 0) g->count = scales->numel; /* empty input: nothing to check against */
  return pk_qgroups_check(ctx, op, g);
}
