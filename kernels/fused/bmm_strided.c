/* Fused layout copies -> bmm (fused.h): each batch's product with B read
 * through strides from the tensor the copies started from, so a KV cache is
 * never transposed into a copy: a few rows straight from B
 * (pk_gemm_f32_rows), more through the GEMM (which packs B on the fly). Anything outside the checked shapes
 * declines and runs as written. */
#include <math.h>
#include <string.h>

#include "cpu/gemm.h"
#include "fused/fused.h"

typedef struct fb_state {
  pk_gemm_f32_args g; /* a.ptr, b.ptr and c set per batch */
  size_t batches, sb, ws, out_bytes;
} fb_state;

static const ptera_tensor *tensor(ptera_value **args, size_t i) {
  return args[i]->tag == PTERA_TAG_TENSOR ? args[i]->u.tensor : NULL;
}

static bool f32_dense(const ptera_tensor *t, uint32_t dim) {
  return t && t->dtype == PTERA_DTYPE_FLOAT && ptera_tensor_is_contiguous(t) &&
         t->dynamism == PTERA_SHAPE_STATIC && (dim == 0 || t->dim == dim);
}

static bool stride(ptera_value **args, size_t i, size_t *out) {
  if (args[i]->tag != PTERA_TAG_INT || args[i]->u.i < 0 || args[i]->u.i > INT32_MAX) return false;
  *out = (size_t)args[i]->u.i;
  return true;
}

typedef struct fb_job {
  const fb_state *s;
  const float *a, *b;
  float *c;
} fb_job;

#define FB_GRAIN 16384u /* multiply-adds per task, at least */

/* Batch i's product. */
static pk_gemm_f32_args batch(const fb_job *j, size_t i) {
  pk_gemm_f32_args g = j->s->g;
  g.a.ptr = j->a + i * g.M * g.K;
  g.b.ptr = j->b + i * j->s->sb;
  g.c = j->c + i * g.M * g.N;
  return g;
}

static void direct_batches(void *arg, size_t begin, size_t end) {
  const fb_job *j = arg;
  for (size_t i = begin; i < end; i++) {
    pk_gemm_f32_args g = batch(j, i);
    pk_gemm_f32_rows(&g);
  }
}

ptera_status pk_fused_bmm_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t nargs) {
  if (nargs != PK_FB_NARGS) return PTERA_OK;
  const ptera_tensor *a = tensor(args, PK_FB_A), *src = tensor(args, PK_FB_SRC);
  const ptera_tensor *out = tensor(args, PK_FB_OUT);
  size_t sb, sk, sn;
  if (!f32_dense(a, 3) || !f32_dense(src, 0) || !f32_dense(out, 3) || !stride(args, PK_FB_SB, &sb) ||
      !stride(args, PK_FB_SK, &sk) || !stride(args, PK_FB_SN, &sn) ||
      a->sizes[0] != out->sizes[0] || a->sizes[1] != out->sizes[1] || a->sizes[0] < 1 ||
      a->sizes[1] < 1 || a->sizes[2] < 1 || out->sizes[2] < 1)
    return PTERA_OK;
  size_t batches = (size_t)a->sizes[0], M = (size_t)a->sizes[1], K = (size_t)a->sizes[2];
  size_t N = (size_t)out->sizes[2];
  /* The last element read, in int64 (strides and sizes are int32-bounded). */
  uint64_t last = (uint64_t)(batches - 1) * sb + (uint64_t)(K - 1) * sk + (uint64_t)(N - 1) * sn;
  if (last >= src->numel) return PTERA_OK;
  fb_state s;
  memset(&s, 0, sizeof s);
  s.g.M = M;
  s.g.N = N;
  s.g.K = K;
  s.g.a.s_r = K;
  s.g.a.s_c = 1;
  s.g.b.s_r = sk;
  s.g.b.s_c = sn;
  s.g.ldc = N;
  s.g.min = -INFINITY;
  s.g.max = INFINITY;
  s.batches = batches;
  s.sb = sb;
  s.out_bytes = out->numel * sizeof(float);
  s.ws = M <= PK_GEMM_F32_ROWS_MAX ? 0 : pk_gemm_f32_workspace(&s.g, ptera_kernel_prepare_thread_count(ctx));
  fb_state *st = ptera_kernel_prepare_alloc(ctx, sizeof *st, 16);
  if (!st)
    return ptera_kernel_prepare_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED, "%s: out of memory",
                                     ptera_kernel_prepare_op_name(ctx));
  *st = s;
  ptera_kernel_prepare_workspace(ctx, s.ws + 64 + s.out_bytes + 64);
  ptera_kernel_prepare_set_state(ctx, st);
  return PTERA_OK;
}

static bool overlaps(const void *x, size_t nx, const void *y, size_t ny) {
  uintptr_t a = (uintptr_t)x, b = (uintptr_t)y;
  return a < b + ny && b < a + nx;
}

ptera_status pk_fused_bmm_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  const fb_state *s = ptera_kernel_state(ctx);
  if (!s || nargs != PK_FB_NARGS)
    return ptera_kernel_fail(ctx, PTERA_INTERNAL, "%s: not prepared", ptera_kernel_op_name(ctx));
  const ptera_tensor *a = args[PK_FB_A]->u.tensor, *src = args[PK_FB_SRC]->u.tensor;
  float *out = args[PK_FB_OUT]->u.tensor->data;
  void *ws = s->ws ? ptera_kernel_temp(ctx, s->ws, 64) : NULL;
  if (s->ws && !ws)
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                             "%s: needs %zu bytes of kernel scratch (raise ptera_method_options.temp_size)",
                             ptera_kernel_op_name(ctx), s->ws);
  /* The copies' source may have died at the first copy and out taken its memory. */
  bool stage = overlaps(out, s->out_bytes, src->data, src->numel * sizeof(float)) ||
               overlaps(out, s->out_bytes, a->data, a->numel * sizeof(float));
  float *c = stage ? ptera_kernel_temp(ctx, s->out_bytes, 64) : out;
  if (!c)
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                             "%s: no kernel scratch to stage %zu bytes (raise ptera_method_options.temp_size)",
                             ptera_kernel_op_name(ctx), s->out_bytes);
  fb_job j = {s, a->data, src->data, c};
  if (s->g.M <= PK_GEMM_F32_ROWS_MAX) {
    /* the batches (a step's heads) over the pool */
    size_t per = s->g.M * s->g.K * s->g.N;
    ptera_kernel_parallel_for(ctx, s->batches, per >= FB_GRAIN ? 1 : FB_GRAIN / per, direct_batches, &j);
  } else {
    for (size_t i = 0; i < s->batches; i++) {
      pk_gemm_f32_args g = batch(&j, i);
      pk_gemm_f32_run(&g, ws, ctx);
    }
  }
  if (stage) memcpy(out, c, s->out_bytes);
  return PTERA_OK;
}
