/* Fused layout copies -> bmm (fused.h): each batch's product with B read
 * through strides from the tensor the copies started from, so a KV cache is
 * never transposed into a copy: a few rows straight from B
 * (pk_gemm_f32_rows), more through the GEMM (which packs B on the fly).
 * Anything outside the checked shapes declines and runs as written. */
#include <math.h>
#include <string.h>

#include "cpu/gemm.h"
#include "fused/fused.h"
#include "fused/fused_util.h"

typedef struct fb_state {
  pk_gemm_f32_args g; /* a.ptr, b.ptr and c set per batch */
  size_t batches, sb, ws, out_bytes;
} fb_state;

static bool stride(ptera_value **args, size_t i, size_t *out) {
  if (args[i]->tag != PTERA_TAG_INT || args[i]->u.i < 0 || args[i]->u.i > INT32_MAX) return false;
  *out = (size_t)args[i]->u.i;
  return true;
}

ptera_status pk_fused_bmm_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t nargs) {
  if (nargs != PK_FB_NARGS) return PTERA_OK;
  const ptera_tensor *a = pk_fused_tensor(args, PK_FB_A), *src = pk_fused_tensor(args, PK_FB_SRC);
  const ptera_tensor *out = pk_fused_tensor(args, PK_FB_OUT);
  size_t sb, sk, sn;
  if (!pk_fused_f32(a) || a->dim != 3 || !pk_fused_f32(src) || !pk_fused_f32(out) || out->dim != 3 || !stride(args, PK_FB_SB, &sb) ||
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
  bool stage = pk_fused_overlap(out, s->out_bytes, src->data, src->numel * sizeof(float)) ||
               pk_fused_overlap(out, s->out_bytes, a->data, a->numel * sizeof(float));
  float *c = stage ? ptera_kernel_temp(ctx, s->out_bytes, 64) : out;
  if (!c)
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                             "%s: no kernel scratch to stage %zu bytes (raise ptera_method_options.temp_size)",
                             ptera_kernel_op_name(ctx), s->out_bytes);
  pk_gemm_f32_args g = s->g;
  g.a.ptr = a->data;
  g.b.ptr = src->data;
  g.c = c;
  size_t sa = g.M * g.K, sc = g.M * g.N;
  if (g.M <= PK_GEMM_F32_ROWS_MAX) {
    pk_gemm_f32_rows(&g, s->batches, sa, s->sb, sc, ctx); /* the batches (a step's heads) over the pool */
  } else {
    for (size_t i = 0; i < s->batches; i++, g.a.ptr += sa, g.b.ptr += s->sb, g.c += sc)
      pk_gemm_f32_run(&g, ws, ctx);
  }
  if (stage) memcpy(out, c, s->out_bytes);
  return PTERA_OK;
}
