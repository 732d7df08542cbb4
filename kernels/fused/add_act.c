/* Fused add -> relu | hardtanh | clamp (fused.h): one pass instead of two.
 * f32, contiguous, static, all three of one shape (a broadcast declines and
 * runs as written). Element i reads self[i] and other[i] before writing
 * out[i], so out may be either input; an out that overlaps an input at
 * another offset is staged in the kernel scratch. Large tensors are split
 * over the threads; with 3 or more dims, by rows of the last two (every
 * plane's rows [r0, r1) to one task), as the convolutions that write and
 * read them split theirs, so each thread reads what its own core wrote. */
#include <string.h>

#include "fused/fused.h"
#include "fused/fused_util.h"
#include "portable/util/pk.h"

typedef struct fa_state {
  float alpha, min, max;
  size_t bytes;
  size_t planes, rows, row; /* 3+ dims: the planes, their rows and a row's floats (else 0) */
} fa_state;

static bool like(const ptera_tensor *t, const ptera_tensor *ref) {
  return t && t->dtype == PTERA_DTYPE_FLOAT && ptera_tensor_is_contiguous(t) &&
         t->dynamism == PTERA_SHAPE_STATIC && t->dim == ref->dim &&
         memcmp(t->sizes, ref->sizes, t->dim * sizeof t->sizes[0]) == 0;
}

ptera_status pk_fused_add_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t nargs) {
  if (nargs != PK_FA_NARGS) return PTERA_OK;
  const ptera_tensor *a = pk_fused_tensor(args, PK_FA_SELF);
  const ptera_value *al = args[PK_FA_ALPHA];
  if (!a || !like(a, a) || !like(pk_fused_tensor(args, PK_FA_OTHER), a) || !like(pk_fused_tensor(args, PK_FA_OUT), a) ||
      (al->tag != PTERA_TAG_INT && al->tag != PTERA_TAG_DOUBLE) ||
      args[PK_FA_MIN]->tag != PTERA_TAG_DOUBLE || args[PK_FA_MAX]->tag != PTERA_TAG_DOUBLE)
    return PTERA_OK;
  fa_state *s = ptera_kernel_prepare_alloc(ctx, sizeof *s, 16);
  if (!s)
    return ptera_kernel_prepare_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED, "%s: out of memory",
                                     ptera_kernel_prepare_op_name(ctx));
  s->alpha = (float)(al->tag == PTERA_TAG_INT ? (double)al->u.i : al->u.d);
  s->min = (float)args[PK_FA_MIN]->u.d;
  s->max = (float)args[PK_FA_MAX]->u.d;
  s->bytes = a->numel * sizeof(float);
  s->planes = s->rows = s->row = 0;
  if (a->dim >= 3 && a->numel > 0) {
    s->rows = (size_t)a->sizes[a->dim - 2];
    s->row = (size_t)a->sizes[a->dim - 1];
    s->planes = a->numel / (s->rows * s->row);
  }
  ptera_kernel_prepare_workspace(ctx, s->bytes + 64);
  ptera_kernel_prepare_set_state(ctx, s);
  return PTERA_OK;
}

#define FA_GRAIN ((size_t)1 << 15) /* elements a task takes, at least */
#define FA_PARTS 4u                /* row parts a thread */

typedef struct fa_job {
  const float *a, *b;
  float *dst;
  float alpha, min, max;
  size_t planes, rows, row, parts;
} fa_job;

/* Elements [begin, end): element i reads a[i] and b[i] before writing dst[i]. */
static void fa_run(const fa_job *j, size_t begin, size_t end) {
  float alpha = j->alpha, lo = j->min, hi = j->max;
  for (size_t i = begin; i < end; i++) {
    float v = alpha == 1.0f ? j->a[i] + j->b[i] : j->a[i] + alpha * j->b[i];
    if (v < lo) v = lo; /* NaN compares false both ways: kept */
    if (v > hi) v = hi;
    j->dst[i] = v;
  }
}

static void fa_task(void *arg, size_t begin, size_t end) { fa_run(arg, begin, end); }

/* Row parts [begin, end) of every plane. */
static void fa_rows_task(void *arg, size_t begin, size_t end) {
  const fa_job *j = arg;
  size_t r0 = j->rows * begin / j->parts, r1 = j->rows * end / j->parts, plane = j->rows * j->row;
  for (size_t p = 0; p < j->planes; p++) fa_run(j, p * plane + r0 * j->row, p * plane + r1 * j->row);
}

/* out shares memory with t, not element for element. */
static bool skewed(const void *out, const void *t, size_t n) {
  return out != t && pk_fused_overlap(out, n, t, n);
}

ptera_status pk_fused_add_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  const fa_state *s = ptera_kernel_state(ctx);
  if (!s || nargs != PK_FA_NARGS)
    return ptera_kernel_fail(ctx, PTERA_INTERNAL, "%s: not prepared", ptera_kernel_op_name(ctx));
  const float *a = args[PK_FA_SELF]->u.tensor->data, *b = args[PK_FA_OTHER]->u.tensor->data;
  float *out = args[PK_FA_OUT]->u.tensor->data, *dst = out;
  size_t n = s->bytes / sizeof(float);
  bool stage = skewed(out, a, s->bytes) || skewed(out, b, s->bytes);
  if (stage && !(dst = ptera_kernel_temp(ctx, s->bytes, 64)))
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                             "%s: no kernel scratch to stage %zu bytes (raise ptera_method_options.temp_size)",
                             ptera_kernel_op_name(ctx), s->bytes);
  size_t nt = ptera_kernel_thread_count(ctx);
  fa_job j = {a, b, dst, s->alpha, s->min, s->max, s->planes, s->rows, s->row, FA_PARTS * nt};
  if (nt > 1 && n >= 2 * FA_GRAIN && s->rows >= j.parts) {
    ptera_kernel_parallel_for(ctx, j.parts, 1, fa_rows_task, &j);
  } else {
    ptera_kernel_parallel_for(ctx, n, FA_GRAIN, fa_task, &j);
  }
  if (stage) memcpy(out, dst, s->bytes);
  return PTERA_OK;
}
