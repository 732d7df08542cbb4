/* Fused linear -> [view] -> relu | hardtanh | clamp (fused.h): the GEMM's
 * clamp epilogue is the activation; the constant weight is packed once as
 * B = weight^T; when out shares the input's memory the product is staged
 * in the kernel scratch. f32, contiguous, static shapes; anything else declines and
 * runs as written. */
#include <string.h>

#include "cpu/gemm.h"
#include "fused/fused.h"
#include "fused/fused_util.h"

typedef struct fl_state {
  pk_gemm_f32_args g; /* a.ptr and c set per call */
  size_t ws;
} fl_state;

ptera_status pk_fused_linear_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t nargs) {
  if (nargs != PK_FL_NARGS) return PTERA_OK;
  const ptera_tensor *in = pk_fused_tensor(args, PK_FL_IN), *w = pk_fused_tensor(args, PK_FL_W), *b = NULL;
  const ptera_tensor *out = pk_fused_tensor(args, PK_FL_OUT);
  if (!pk_fused_f32(in) || in->dim < 1 || !pk_fused_f32(w) || w->dim != 2 || !(w->flags & PTERA_TENSOR_CONST) ||
      !w->data || w->sizes[1] != in->sizes[in->dim - 1] || w->sizes[0] < 1 || w->sizes[1] < 1)
    return PTERA_OK;
  int32_t n = w->sizes[0];
  if (args[PK_FL_B]->tag != PTERA_TAG_NONE) {
    b = pk_fused_tensor(args, PK_FL_B);
    if (!pk_fused_f32(b) || !(b->flags & PTERA_TENSOR_CONST) || !b->data || b->dim != 1 ||
        b->sizes[0] != n)
      return PTERA_OK;
  }
  /* out may be a reshape of linear's output (same elements, contiguous). */
  if (!pk_fused_f32(out) || out->dim < 1 || !in->numel || out->numel != in->numel / (size_t)w->sizes[1] * (size_t)n ||
      args[PK_FL_MIN]->tag != PTERA_TAG_DOUBLE ||
      args[PK_FL_MAX]->tag != PTERA_TAG_DOUBLE)
    return PTERA_OK;
  fl_state s;
  memset(&s, 0, sizeof s);
  s.g.K = (size_t)w->sizes[1];
  s.g.N = (size_t)n;
  s.g.M = in->numel / s.g.K;
  s.g.a.s_r = s.g.K;
  s.g.a.s_c = 1;
  s.g.bias_n = b ? b->data : NULL;
  s.g.ldc = s.g.N;
  s.g.min = (float)args[PK_FL_MIN]->u.d;
  s.g.max = (float)args[PK_FL_MAX]->u.d;
  fl_state *st = ptera_kernel_prepare_alloc(ctx, sizeof *st, 16);
  void *packed = ptera_kernel_prepare_alloc(ctx, pk_gemm_f32_pack_b_size(s.g.K, s.g.N), 64);
  if (!st || !packed)
    return ptera_kernel_prepare_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                                     "%s: out of memory for the packed weight",
                                     ptera_kernel_prepare_op_name(ctx));
  /* B (k, n) = weight[n, k]. */
  pk_gemm_f32_pack_b(s.g.K, s.g.N, w->data, 1, s.g.K, packed);
  s.g.b.packed = packed;
  s.ws = pk_gemm_f32_workspace(&s.g, ptera_kernel_prepare_thread_count(ctx));
  *st = s;
  /* The GEMM's workspace, then room to stage out (64-byte aligned each). */
  ptera_kernel_prepare_workspace(ctx, s.ws + 64 + out->numel * sizeof(float) + 64);
  ptera_kernel_prepare_set_state(ctx, st);
  return PTERA_OK;
}

ptera_status pk_fused_linear_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  const fl_state *s = ptera_kernel_state(ctx);
  if (!s || nargs != PK_FL_NARGS)
    return ptera_kernel_fail(ctx, PTERA_INTERNAL, "%s: not prepared", ptera_kernel_op_name(ctx));
  const ptera_tensor *in = args[PK_FL_IN]->u.tensor;
  ptera_tensor *out = args[PK_FL_OUT]->u.tensor;
  void *ws = s->ws ? ptera_kernel_temp(ctx, s->ws, 64) : NULL;
  if (s->ws && !ws)
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                             "%s: needs %zu bytes of kernel scratch (raise ptera_method_options.temp_size)",
                             ptera_kernel_op_name(ctx), s->ws);
  size_t nin = in->numel * sizeof(float), nout = out->numel * sizeof(float);
  uintptr_t x = (uintptr_t)in->data, y = (uintptr_t)out->data;
  bool stage = x < y + nout && y < x + nin; /* out took the input's memory */
  pk_gemm_f32_args g = s->g;
  g.a.ptr = in->data;
  g.c = stage ? ptera_kernel_temp(ctx, nout, 64) : out->data;
  if (!g.c)
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                             "%s: no kernel scratch to stage %zu bytes (raise ptera_method_options.temp_size)",
                             ptera_kernel_op_name(ctx), nout);
  pk_gemm_f32_run(&g, ws, ctx);
  if (stage) memmove(out->data, g.c, nout);
  return PTERA_OK;
}
