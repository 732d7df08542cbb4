/* BatchMatrixMultiply, float: out[..., m, n] = sum_k a[..., m, k] b[..., k, n]
 * (flag TRANSPOSE_B: b is [..., n, k]); batch dims must match. Each batch
 * is one product on the shared GEMM (kernels/cpu/gemm.h); up to
 * PK_GEMM_F32_ROWS_MAX rows read B in place instead (pk_gemm_f32_rows),
 * batches over the pool. B is read through strides, so b may be a folded
 * transpose's output (xnn_fold_transpose.c): its input through the
 * permutation. */
#include <math.h>

#include "cpu/gemm.h"
#include "xnnpack/xnn.h"

/* Where B's elements are: b.data, or (a folded transpose) its input's, and
 * the stride of each of b's dims there. */
static const float *b_strides(const px_graph *g, const px_value *b, size_t *st) {
  const px_value *src = b->view ? &g->v[b->view_src] : b;
  size_t acc = 1, own[PF_XNN_MAX_DIMS];
  for (unsigned d = src->ndims; d-- > 0;) {
    own[d] = acc;
    acc *= src->dims[d];
  }
  for (unsigned d = 0; d < b->ndims; d++) st[d] = b->view ? own[b->view_perm[d]] : own[d];
  return src->data;
}

/* Batch 0's product (B through st, b_strides), the others at offsets. */
static pk_gemm_f32_args bmm_args(const px_graph *g, const pf_xnn_node *n, size_t *st) {
  const px_value *a = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  unsigned r = a->ndims;
  bool tb = n->flags & PF_XNN_FLAG_TRANSPOSE_WEIGHTS;
  const float *b = b_strides(g, &g->v[n->in[1]], st);
  pk_gemm_f32_args q;
  memset(&q, 0, sizeof q);
  q.M = a->dims[r - 2];
  q.K = a->dims[r - 1];
  q.N = o->dims[r - 1];
  q.a = (pk_f32_operand){a->data, q.K, 1, NULL};
  q.b = (pk_f32_operand){b, tb ? st[r - 1] : st[r - 2], tb ? st[r - 2] : st[r - 1], NULL};
  q.c = o->data;
  q.ldc = q.N;
  q.min = -INFINITY;
  q.max = INFINITY;
  return q;
}

/* Batch i's offset into B (row-major over the batch dims of b). */
static size_t b_offset(const px_value *b, const size_t *st, size_t i) {
  size_t off = 0;
  for (unsigned d = b->ndims - 2; d-- > 0;) {
    off += i % b->dims[d] * st[d];
    i /= b->dims[d];
  }
  return off;
}

/* The one stride between consecutive batches of B, or 0 when the batch
 * dims do not merge into one (a folded transpose that reorders them). */
static size_t b_batch_stride(const px_value *b, const size_t *st, size_t K, size_t N) {
  size_t stride = 0, span = 0; /* span: extent of the dims after the current one */
  for (unsigned d = b->ndims - 2; d-- > 0;) {
    if (b->dims[d] == 1) continue;
    if (!stride) {
      stride = st[d];
    } else if (st[d] != stride * span) {
      return 0;
    }
    span = span ? span * b->dims[d] : b->dims[d];
  }
  return stride ? stride : K * N; /* one batch: any stride */
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
  if (b->view) { /* a folded chain: b must still be a permutation of its start at these shapes */
    const px_value *src = &g->v[b->view_src];
    bool same = src->ndims == r;
    for (unsigned d = 0; same && d < r; d++) same = b->dims[d] == src->dims[b->view_perm[d]];
    if (!same)
      return px_fail(g, PTERA_NOT_SUPPORTED,
                     "input 2 was read through the transposes before it (folded at init), but at these shapes "
                     "it is no longer a permutation of value %u",
                     (unsigned)b->view_src);
  }
  size_t dims[PF_XNN_MAX_DIMS];
  memcpy(dims, a->dims, sizeof dims);
  dims[r - 1] = N;
  st = px_set_shape(g, o, dims, r);
  if (st != PTERA_OK) return st;
  size_t bst[PF_XNN_MAX_DIMS];
  pk_gemm_f32_args q = bmm_args(g, n, bst);
  return px_need_ws(g, pk_gemm_f32_workspace(&q, px_threads(g)));
}

void px_bmm_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *a = &g->v[n->in[0]], *b = &g->v[n->in[1]];
  size_t st[PF_XNN_MAX_DIMS];
  pk_gemm_f32_args q = bmm_args(g, n, st);
  size_t batch = 1;
  for (unsigned d = 0; d + 2 < a->ndims; d++) batch *= a->dims[d];
  size_t sa = q.M * q.K, sb = b_batch_stride(b, st, q.K, q.N), sc = q.M * q.N;
  const float *b0 = q.b.ptr;
  if (q.M <= PK_GEMM_F32_ROWS_MAX && q.K && q.N && sb) { /* a step's few rows per head, heads over the pool */
    pk_gemm_f32_rows(&q, batch, sa, sb, sc, px_kctx(g));
    return;
  }
  for (size_t i = 0; i < batch; i++, q.a.ptr += sa, q.c += sc) {
    q.b.ptr = b0 + b_offset(b, st, i);
    if (q.M <= PK_GEMM_F32_ROWS_MAX && q.K && q.N)
      pk_gemm_f32_rows(&q, 1, sa, 0, sc, NULL);
    else
      pk_gemm_f32_run(&q, px_ws(g), px_kctx(g));
  }
}
