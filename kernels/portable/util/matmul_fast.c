#include "portable/util/matmul_fast.h"

#include <math.h>
#include <string.h>

#include "ptera/kernel.h"

static bool f32_strides_ok(const ptera_tensor *t) {
  if (t->dtype != PTERA_DTYPE_FLOAT) return false;
  for (size_t d = 0; d < t->dim; d++)
    if (t->strides[d] < 0) return false;
  return true;
}

bool pk_mm_view_rows(const ptera_tensor *t, pk_mm_view *v) {
  if (t->dim < 1 || !f32_strides_ok(t)) return false;
  size_t n = t->dim, rows = 1;
  int64_t s_r = n >= 2 ? t->strides[n - 2] : 0;
  int64_t expect = n >= 2 ? s_r * t->sizes[n - 2] : 0;
  for (size_t d = n - 1; d-- > 0;) {
    rows *= (size_t)t->sizes[d];
    if (d + 2 < n) {
      if (t->sizes[d] != 1 && t->strides[d] != expect) return false;
      expect *= t->sizes[d];
    }
  }
  v->ptr = (float *)t->data;
  v->rows = rows;
  v->cols = (size_t)t->sizes[n - 1];
  v->s_r = (size_t)s_r;
  v->s_c = (size_t)t->strides[n - 1];
  return true;
}

bool pk_mm_view_t(const ptera_tensor *t, pk_mm_view *v) {
  if (t->dim != 2 || !f32_strides_ok(t)) return false;
  v->ptr = (float *)t->data;
  v->rows = (size_t)t->sizes[1];
  v->cols = (size_t)t->sizes[0];
  v->s_r = (size_t)t->strides[1];
  v->s_c = (size_t)t->strides[0];
  return true;
}

const ptera_tensor *pk_mm_arg(ptera_value **args, size_t nargs, size_t i) {
  return i < nargs && args[i] && args[i]->tag == PTERA_TAG_TENSOR ? args[i]->u.tensor : NULL;
}

bool pk_mm_const(const ptera_tensor *t) {
  return (t->flags & PTERA_TENSOR_CONST) && t->dynamism == PTERA_SHAPE_STATIC && t->data;
}

const float *pk_mm_bias_n(const ptera_tensor *t, size_t n) {
  if (!t || t->dtype != PTERA_DTYPE_FLOAT || !t->data || t->dim < 1 || t->dim > 2) return NULL;
  if (t->dim == 2 && t->sizes[0] != 1) return NULL;
  size_t last = t->dim - 1u;
  if ((size_t)t->sizes[last] != n || (n > 1 && t->strides[last] != 1)) return NULL;
  return (const float *)t->data;
}

static pk_gemm_f32_args gemm_args(const pk_mm_view *a, const pk_mm_view *b, const float *bias_n,
                                  const pk_mm_view *c) {
  pk_gemm_f32_args g;
  memset(&g, 0, sizeof g);
  g.M = a->rows;
  g.N = b->cols;
  g.K = a->cols;
  g.a = (pk_f32_operand){a->ptr, a->s_r, a->s_c, NULL};
  g.b = (pk_f32_operand){b->ptr, b->s_r, b->s_c, NULL};
  g.bias_n = bias_n;
  g.c = c ? c->ptr : NULL;
  g.ldc = c ? c->s_r : b->cols;
  g.min = -INFINITY;
  g.max = INFINITY;
  return g;
}

ptera_status pk_mm_prepare(ptera_kernel_prepare_ctx *ctx, size_t M, const pk_mm_view *b,
                           bool b_const) {
  pk_mm_view a = {NULL, M, b->rows, b->rows, 1};
  pk_gemm_f32_args g = gemm_args(&a, b, NULL, NULL);
  if (b_const && b->rows && b->cols) {
    pk_mm_state *s = ptera_kernel_prepare_alloc(ctx, sizeof *s, 16);
    void *p = s ? ptera_kernel_prepare_alloc(ctx, pk_gemm_f32_pack_b_size(b->rows, b->cols), 64)
                : NULL;
    if (!p)
      return ptera_kernel_prepare_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                                       "out of memory packing a %zux%zu weight", b->rows,
                                       b->cols);
    pk_gemm_f32_pack_b(b->rows, b->cols, b->ptr, b->s_r, b->s_c, p);
    *s = (pk_mm_state){p, b->ptr, b->rows, b->cols};
    g.b.packed = p;
    ptera_kernel_prepare_set_state(ctx, s);
  }
  ptera_kernel_prepare_workspace(ctx, pk_gemm_f32_workspace(&g, ptera_kernel_prepare_thread_count(ctx)));
  return PTERA_OK;
}

bool pk_mm_run(ptera_kernel_ctx *ctx, const pk_mm_view *a, const pk_mm_view *b,
               const float *bias_n, const pk_mm_view *c, void **ws) {
  if (!c->ptr || (c->s_c != 1 && c->cols > 1)) return false;
  pk_gemm_f32_args g = gemm_args(a, b, bias_n, c);
  const pk_mm_state *s = ptera_kernel_state(ctx);
  if (s && s->src == b->ptr && s->K == g.K && s->N == g.N) g.b.packed = s->packed;
  size_t bytes = pk_gemm_f32_workspace(&g, ptera_kernel_thread_count(ctx));
  if (bytes && !*ws && !(*ws = ptera_kernel_temp(ctx, bytes, 1))) return false;
  pk_gemm_f32_run(&g, *ws, ctx);
  return true;
}
