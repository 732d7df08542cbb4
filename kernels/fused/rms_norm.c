/* Fused RMSNorm chain (fused.h): one pass per row of x's last dim instead
 * of six kernels and five intermediates. Each row's squares go to its out
 * row, are summed there, then the row is overwritten with (x * r) * w; the
 * squares, sum, mean, + eps, rsqrt and products are the vector loops the
 * portable fast paths use (cpu/vmath.h), so a row rounds as the unfused
 * chain does on the same ISA. Rows are split over the method's threads.
 * out sharing x's or w's memory is staged in the kernel scratch. Anything
 * outside the checked shapes declines and runs as written. */
#include <string.h>

#include "cpu/vmath.h"
#include "fused/fused.h"
#include "fused/fused_util.h"

#define FR_GRAIN_ELEMS 16384u /* elements per task, at least */

typedef struct fr_state {
  size_t rows, D;
  float eps;
} fr_state;

typedef struct fr_job {
  const float *x, *w;
  float *y;
  size_t D;
  float eps;
  const pk_vmath_f32_table *vm;
} fr_job;

ptera_status pk_fused_rms_norm_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args,
                                       size_t nargs) {
  if (nargs != PK_FR_NARGS) return PTERA_OK;
  const ptera_tensor *x = pk_fused_tensor(args, PK_FR_X), *out = pk_fused_tensor(args, PK_FR_OUT);
  if (!pk_fused_f32(x) || x->dim < 1 || !pk_fused_f32(out) || out->dim != x->dim ||
      memcmp(out->sizes, x->sizes, x->dim * sizeof x->sizes[0]) != 0 ||
      x->sizes[x->dim - 1] < 1 || args[PK_FR_EPS]->tag != PTERA_TAG_DOUBLE)
    return PTERA_OK;
  size_t D = (size_t)x->sizes[x->dim - 1];
  if (args[PK_FR_W]->tag != PTERA_TAG_NONE) {
    const ptera_tensor *w = pk_fused_tensor(args, PK_FR_W);
    if (!pk_fused_f32(w) || w->dim != 1 || (size_t)w->sizes[0] != D) return PTERA_OK;
  }
  fr_state *s = ptera_kernel_prepare_alloc(ctx, sizeof *s, 16);
  if (!s)
    return ptera_kernel_prepare_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED, "%s: out of memory",
                                     ptera_kernel_prepare_op_name(ctx));
  s->rows = x->numel / D;
  s->D = D;
  s->eps = (float)args[PK_FR_EPS]->u.d;
  ptera_kernel_prepare_workspace(ctx, x->numel * sizeof(float) + 64);
  ptera_kernel_prepare_set_state(ctx, s);
  return PTERA_OK;
}

/* Rows [begin, end): pow, mean, add, rsqrt, mul, mul as the fast paths run
 * them (the mean's sum over the squares, then / D; x * r as x - 0 times r). */
static void fr_rows(void *arg, size_t begin, size_t end) {
  const fr_job *j = (const fr_job *)arg;
  const size_t D = j->D;
  for (size_t r = begin; r < end; r++) {
    const float *x = j->x + r * D;
    float *y = j->y + r * D;
    j->vm->binary[PK_VB_MUL][PK_VB_RUNS](D, x, x, y);
    float ms = j->vm->sum(D, y) / (float)D;
    ms = ms + j->eps;
    float rs;
    j->vm->unary[PK_VU_RSQRT](1, &ms, &rs);
    j->vm->norm_apply(D, x, 0.0f, rs, j->w, NULL, y);
  }
}

ptera_status pk_fused_rms_norm_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  const fr_state *s = ptera_kernel_state(ctx);
  if (!s || nargs != PK_FR_NARGS)
    return ptera_kernel_fail(ctx, PTERA_INTERNAL, "%s: not prepared", ptera_kernel_op_name(ctx));
  const float *x = args[PK_FR_X]->u.tensor->data;
  const float *w = args[PK_FR_W]->tag == PTERA_TAG_TENSOR ? args[PK_FR_W]->u.tensor->data : NULL;
  float *out = args[PK_FR_OUT]->u.tensor->data, *y = out;
  size_t bytes = s->rows * s->D * sizeof(float);
  /* The squares go to the out row before x's row is read again. */
  bool stage = pk_fused_overlap(out, bytes, x, bytes) || (w && pk_fused_overlap(out, bytes, w, s->D * sizeof(float)));
  if (stage && !(y = ptera_kernel_temp(ctx, bytes, 64)))
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                             "%s: no kernel scratch to stage %zu bytes (raise ptera_method_options.temp_size)",
                             ptera_kernel_op_name(ctx), bytes);
  fr_job j = {x, w, y, s->D, s->eps, pk_vmath_f32()};
  size_t grain = s->D >= FR_GRAIN_ELEMS ? 1 : FR_GRAIN_ELEMS / s->D;
  ptera_kernel_parallel_for(ctx, s->rows, grain, fr_rows, &j);
  if (stage) memcpy(out, y, bytes);
  return PTERA_OK;
}
