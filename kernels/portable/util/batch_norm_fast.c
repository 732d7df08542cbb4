#include "portable/util/batch_norm_fast.h"

#include <math.h>

#include "cpu/vmath.h"
#include "portable/util/fast_f32.h"

#define BN_GRAIN_ELEMS 16384 /* elements per task, at least */

/* m, r, w, b: C floats each, one block. */
typedef struct bn_params {
  size_t C;
  double eps;
  float *p;
} bn_params;

static bool bn_float(const ptera_tensor *t) { return !t || t->dtype == PTERA_DTYPE_FLOAT; }

static void bn_fill(float *p, size_t C, const ptera_tensor *w, const ptera_tensor *b,
                    const ptera_tensor *rm, const ptera_tensor *rv, double eps) {
  const float *fm = (const float *)rm->data, *fv = (const float *)rv->data;
  const float *fw = w ? (const float *)w->data : NULL, *fb = b ? (const float *)b->data : NULL;
  for (size_t c = 0; c < C; c++) {
    p[c] = fm[c];
    p[C + c] = (float)(1.0 / sqrt((double)fv[c] + eps));
    p[2 * C + c] = fw ? fw[c] : 1.0f;
    p[3 * C + c] = fb ? fb[c] : 0.0f;
  }
}

static bool bn_const(const ptera_tensor *t) {
  return !t || ((t->flags & PTERA_TENSOR_CONST) && t->data);
}

ptera_status pk_batch_norm_fast_prepare(ptera_kernel_prepare_ctx *ctx, const ptera_tensor *in,
                                        const ptera_tensor *w, const ptera_tensor *b,
                                        const ptera_tensor *rm, const ptera_tensor *rv,
                                        double eps) {
  if (!in || !rm || !rv || in->dim < 2 || in->dtype != PTERA_DTYPE_FLOAT) return PTERA_OK;
  size_t C = (size_t)in->sizes[1];
  if (C == 0) return PTERA_OK;
  const ptera_tensor *ps[4] = {w, b, rm, rv};
  for (int k = 0; k < 4; k++)
    if (ps[k] && (!bn_float(ps[k]) || ps[k]->numel != C)) return PTERA_OK;
  if (!bn_const(w) || !bn_const(b) || !bn_const(rm) || !bn_const(rv)) {
    ptera_kernel_prepare_workspace(ctx, 4 * C * sizeof(float) + 64);
    return PTERA_OK;
  }
  bn_params *s = (bn_params *)ptera_kernel_prepare_alloc(ctx, sizeof *s, 16);
  float *p = s ? (float *)ptera_kernel_prepare_alloc(ctx, 4 * C * sizeof(float), 64) : NULL;
  if (!p)
    return ptera_kernel_prepare_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                                     "no memory for %zu batch-norm parameters", 4 * C);
  bn_fill(p, C, w, b, rm, rv, eps);
  s->C = C;
  s->eps = eps;
  s->p = p;
  ptera_kernel_prepare_set_state(ctx, s);
  return PTERA_OK;
}

typedef struct bn_job {
  const float *x, *p;
  float *y;
  size_t C, inner;
  const pk_vmath_f32_table *vm;
} bn_job;

/* Planes [begin, end) of a contiguous [N, C, inner] tensor. */
static void bn_planes(void *arg, size_t begin, size_t end) {
  const bn_job *j = (const bn_job *)arg;
  size_t C = j->C;
  for (size_t q = begin; q < end; q++) {
    size_t c = q % C;
    j->vm->chan_affine(j->inner, j->x + q * j->inner, j->p[c], j->p[C + c], j->p[2 * C + c],
                       j->p[3 * C + c], j->y + q * j->inner);
  }
}

/* Pixels [begin, end) of C channels each (channels-last, or inner == 1). */
static void bn_pixels(void *arg, size_t begin, size_t end) {
  const bn_job *j = (const bn_job *)arg;
  size_t C = j->C;
  for (size_t q = begin; q < end; q++)
    j->vm->chan_affine_v(C, j->x + q * C, j->p, j->p + C, j->p + 2 * C, j->p + 3 * C,
                         j->y + q * C);
}

bool pk_fast_batch_norm_f32(ptera_kernel_ctx *ctx, const ptera_tensor *in, const ptera_tensor *w,
                            const ptera_tensor *b, const ptera_tensor *rm, const ptera_tensor *rv,
                            double eps, ptera_tensor *out) {
  if (!pk_fast_f32_on() || in->dtype != PTERA_DTYPE_FLOAT || !bn_float(w) || !bn_float(b) ||
      !bn_float(rm) || !bn_float(rv))
    return false;
  size_t C = (size_t)in->sizes[1];
  if (in->numel == 0 || C == 0) return true;
  const bn_params *s = (const bn_params *)ptera_kernel_state(ctx);
  const float *p;
  if (s && s->C == C && s->eps == eps) {
    p = s->p;
  } else {
    float *t = (float *)ptera_kernel_temp(ctx, 4 * C * sizeof(float), 64);
    if (!t) return false;
    bn_fill(t, C, w, b, rm, rv, eps);
    p = t;
  }
  bn_job j = {(const float *)in->data, p, (float *)out->data, C, in->numel / C / (size_t)in->sizes[0],
              pk_vmath_f32()};
  if (pk_is_rowmajor(in) && j.inner > 1) {
    size_t grain = j.inner >= BN_GRAIN_ELEMS ? 1 : BN_GRAIN_ELEMS / j.inner;
    ptera_kernel_parallel_for(ctx, in->numel / j.inner, grain, bn_planes, &j);
  } else {
    size_t grain = C >= BN_GRAIN_ELEMS ? 1 : BN_GRAIN_ELEMS / C;
    ptera_kernel_parallel_for(ctx, in->numel / C, grain, bn_pixels, &j);
  }
  return true;
}
