/* Fused scale -> [add mask] -> softmax over the last dim (fused.h): each row
 * y = softmax(x / s + mask) (or x * s) in one pass over the row, the
 * intermediates never written. The steps are the vector math the unfused
 * fast paths run (a float division or product by the scalar as float, an
 * add, the row softmax), so the results are theirs bit for bit. f32,
 * contiguous, static; the mask is one row broadcast to every row or a tensor
 * of the input's shape. Rows go to the thread pool; an out that overlaps the
 * input at another offset, or the mask at all, is staged in the scratch. */
#include <string.h>

#include "cpu/vmath.h"
#include "fused/fused.h"
#include "fused/fused_util.h"

typedef struct fs_state {
  float scale;
  bool divide, mask_rows; /* mask_rows: the mask has a row per row */
  size_t rows, n;
} fs_state;

typedef struct fs_job {
  const fs_state *s;
  const float *x, *mask;
  float *y;
  const pk_vmath_f32_table *vm;
} fs_job;

static bool same_shape(const ptera_tensor *a, const ptera_tensor *b) {
  return a->dim == b->dim && memcmp(a->sizes, b->sizes, a->dim * sizeof a->sizes[0]) == 0;
}

/* Every size 1 but the last, which is n (a row broadcast to every row). */
static bool one_row(const ptera_tensor *t, int64_t n) {
  if (t->dim < 1 || t->sizes[t->dim - 1] != n) return false;
  for (uint32_t d = 0; d + 1 < t->dim; d++)
    if (t->sizes[d] != 1) return false;
  return true;
}

ptera_status pk_fused_softmax_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args,
                                      size_t nargs) {
  if (nargs != PK_FS_NARGS) return PTERA_OK;
  const ptera_tensor *x = pk_fused_tensor(args, PK_FS_IN), *out = pk_fused_tensor(args, PK_FS_OUT);
  const ptera_tensor *mask = pk_fused_tensor(args, PK_FS_MASK);
  if (!pk_fused_f32(x) || !pk_fused_f32(out) || x->dim < 1 || !same_shape(x, out) || x->numel == 0 ||
      args[PK_FS_SCALE]->tag != PTERA_TAG_DOUBLE || args[PK_FS_DIVIDE]->tag != PTERA_TAG_BOOL ||
      (args[PK_FS_MASK]->tag != PTERA_TAG_NONE && !mask))
    return PTERA_OK;
  int64_t n = x->sizes[x->dim - 1];
  bool mask_rows = false;
  if (mask) {
    if (!pk_fused_f32(mask) || mask->dim > x->dim) return PTERA_OK;
    mask_rows = same_shape(mask, x);
    if (!mask_rows && !one_row(mask, n)) return PTERA_OK;
  }
  fs_state *s = ptera_kernel_prepare_alloc(ctx, sizeof *s, 16);
  if (!s)
    return ptera_kernel_prepare_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED, "%s: out of memory",
                                     ptera_kernel_prepare_op_name(ctx));
  s->scale = (float)args[PK_FS_SCALE]->u.d;
  s->divide = args[PK_FS_DIVIDE]->u.b;
  s->mask_rows = mask_rows;
  s->n = (size_t)n;
  s->rows = x->numel / s->n;
  ptera_kernel_prepare_workspace(ctx, x->numel * sizeof(float) + 64);
  ptera_kernel_prepare_set_state(ctx, s);
  return PTERA_OK;
}

static void rows(void *arg, size_t begin, size_t end) {
  const fs_job *j = arg;
  const fs_state *s = j->s;
  pk_vbinary_f32 scale = j->vm->binary[s->divide ? PK_VB_DIV : PK_VB_MUL][PK_VB_SCALAR_B];
  pk_vbinary_f32 add = j->vm->binary[PK_VB_ADD][PK_VB_RUNS];
  for (size_t r = begin; r < end; r++) {
    float *y = j->y + r * s->n;
    scale(s->n, j->x + r * s->n, &s->scale, y);
    if (j->mask) add(s->n, y, j->mask + (s->mask_rows ? r * s->n : 0), y);
    j->vm->softmax(s->n, y, y);
  }
}

ptera_status pk_fused_softmax_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  const fs_state *s = ptera_kernel_state(ctx);
  if (!s || nargs != PK_FS_NARGS)
    return ptera_kernel_fail(ctx, PTERA_INTERNAL, "%s: not prepared", ptera_kernel_op_name(ctx));
  const ptera_tensor *mt = args[PK_FS_MASK]->tag == PTERA_TAG_TENSOR ? args[PK_FS_MASK]->u.tensor : NULL;
  fs_job j = {s, args[PK_FS_IN]->u.tensor->data, mt ? mt->data : NULL,
              args[PK_FS_OUT]->u.tensor->data, pk_vmath_f32()};
  float *out = j.y;
  size_t bytes = s->rows * s->n * sizeof(float);
  bool stage = (out != j.x && pk_fused_overlap(out, bytes, j.x, bytes)) ||
               (mt && pk_fused_overlap(out, bytes, j.mask, mt->numel * sizeof(float)));
  if (stage && !(j.y = ptera_kernel_temp(ctx, bytes, 64)))
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                             "%s: no kernel scratch to stage %zu bytes (raise ptera_method_options.temp_size)",
                             ptera_kernel_op_name(ctx), bytes);
  size_t grain = s->n >= 4096 ? 1 : 4096 / s->n;
  ptera_kernel_parallel_for(ctx, s->rows, grain, rows, &j);
  if (stage) memcpy(out, j.y, bytes);
  return PTERA_OK;
}
