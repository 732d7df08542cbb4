/* BatchMatrixMultiply, float: out[..., m, n] = sum_k a[..., m, k] b[..., k, n]
 * (flag TRANSPOSE_B: b is [..., n, k]); batch dims must match. Each batch
 * is one product on the shared GEMM (kernels/cpu/gemm.h); up to
 * PK_GEMM_F32_ROWS_MAX rows read B in place instead (pk_gemm_f32_rows),
 * batches over the pool. */
#include <math.h>

#include "cpu/gemm.h"
#include "xnnpack/xnn.h"

/* Batch 0's product; the others are the same at offsets. */
static pk_gemm_f32_args bmm_args(const px_graph *g, const pf_xnn_node *n) {
  const px_value *a = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  unsigned r = a->ndims;
  bool tb = n->flags & PF_XNN_FLAG_TRANSPOSE_WEIGHTS;
  pk_gemm_f32_args q;
  memset(&q, 0, sizeof q);
  q.M = a->dims[r - 2];
  q.K = a->dims[r - 1];
  q.N = o->dims[r - 1];
  q.a = (pk_f32_operand){a->data, q.K, 1, NULL};
  q.b = (pk_f32_operand){g->v[n->in[1]].data, tb ? 1 : q.N, tb ? q.K : 1, NULL};
  q.c = o->data;
  q.ldc = q.N;
  q.min = -INFINITY;
  q.max = INFINITY;
  return q;
}

ptera_status px_bmm_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *a = &g->v[n->in[0]], *b = &g->v[n->in[1]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_float(g, a, "input 1");
  if (st == PTERA_OK) st = px_want_float(g, b, "input 2");
  if (st == PTERA_OK) st = px_want_float(g, o, "output");
  if (st != PTERA_OK) return st;
  unsigned r = a->ndims;
  if (r < 2 || b->ndims != r) return px_fail(g, PTERA_INVALID_ARGUMENT, "inputs must have the same rank >= 2");
  for (unsigned d = 0; d + 2 < r; d++)
    if (a->dims[d] != b->dims[d]) return px_fail(g, PTERA_INVALID_ARGUMENT, "batch dim %u differs", d);
  bool tb = n->flags & PF_XNN_FLAG_TRANSPOSE_WEIGHTS;
  size_t K = a->dims[r - 1], kb = tb ? b->dims[r - 1] : b->dims[r - 2], N = tb ? b->dims[r - 2] : b->dims[r - 1];
  if (K != kb) return px_fail(g, PTERA_INVALID_ARGUMENT, "inner dims %zu and %zu differ", K, kb);
  size_t dims[PF_XNN_MAX_DIMS];
  memcpy(dims, a->dims, sizeof dims);
  dims[r - 1] = N;
  st = px_set_shape(g, o, dims, r);
  if (st != PTERA_OK) return st;
  pk_gemm_f32_args q = bmm_args(g, n);
  return px_need_ws(g, pk_gemm_f32_workspace(&q, px_threads(g)));
}

void px_bmm_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *a = &g->v[n->in[0]];
  pk_gemm_f32_args q = bmm_args(g, n);
  size_t batch = 1;
  for (unsigned d = 0; d + 2 < a->ndims; d++) batch *= a->dims[d];
  size_t sa = q.M * q.K, sb = q.K * q.N, sc = q.M * q.N;
  if (q.M <= PK_GEMM_F32_ROWS_MAX && q.K && q.N) { /* a step's few rows per head, heads over the pool */
    pk_gemm_f32_rows(&q, batch, sa, sb, sc, px_kctx(g));
    return;
  }
  for (size_t i = 0; i < batch; i++, q.a.ptr += sa, q.b.ptr += sb, q.c += sc)
    pk_gemm_f32_run(&q, px_ws(g), px_kctx(g));
}
