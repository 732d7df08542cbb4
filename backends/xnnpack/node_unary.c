/* Elementwise unary nodes on fp32 (docs/XNNPACK.md §8): Clamp, Sigmoid, Tanh,
 * Exp, Log, Sin, Cos, Floor, Ceiling, SquareRoot, ReciprocalSquareRoot,
 * Negate, Square, Abs, Hardswish, Gelu (exact erf form), ELU, LeakyReLU;
 * split over the thread pool; Clamp, Sigmoid, Tanh, Exp, Gelu, rsqrt and
 * Negate on the vector math of the selected ISA (cpu/vmath.h). */
#include <math.h>

#include "cpu/vmath.h"
#include "xnnpack/xnn.h"

ptera_status px_unary_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_float(g, x, "input");
  if (st == PTERA_OK) st = px_want_float(g, o, "output");
  if (st != PTERA_OK) return st;
  return px_same_shape(g, o, x);
}

static float apply(const pf_xnn_node *n, float x) {
  switch (n->kind) {
    case PF_XNN_CLAMP: return px_clampf(x, n->out_min, n->out_max);
    case PF_XNN_SIGMOID: return 1.0f / (1.0f + expf(-x));
    case PF_XNN_TANH: return tanhf(x);
    case PF_XNN_EXP: return expf(x);
    case PF_XNN_LOG: return logf(x);
    case PF_XNN_SIN: return sinf(x);
    case PF_XNN_COS: return cosf(x);
    case PF_XNN_FLOOR: return floorf(x);
    case PF_XNN_CEILING: return ceilf(x);
    case PF_XNN_SQRT: return sqrtf(x);
    case PF_XNN_RSQRT: return 1.0f / sqrtf(x);
    case PF_XNN_NEGATE: return -x;
    case PF_XNN_SQUARE: return x * x;
    case PF_XNN_ABS: return fabsf(x);
    case PF_XNN_HARDSWISH: return x * px_clampf(x + 3.0f, 0.0f, 6.0f) / 6.0f;
    case PF_XNN_GELU: return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
    case PF_XNN_ELU: return x > 0.0f ? x : n->f * expm1f(x);
    default: return x > 0.0f ? x : x * n->f; /* LeakyReLU */
  }
}

typedef struct unary_job {
  const pf_xnn_node *n;
  const float *x;
  float *y;
} unary_job;

/* The vector-math routine that computes kind (cpu/vmath.h, within its
 * documented ulps of libm), or -1. */
static int vmath_op(unsigned kind) {
  switch (kind) {
    case PF_XNN_SIGMOID: return PK_VU_SIGMOID;
    case PF_XNN_TANH: return PK_VU_TANH;
    case PF_XNN_EXP: return PK_VU_EXP;
    case PF_XNN_GELU: return PK_VU_GELU_ERF;
    case PF_XNN_RSQRT: return PK_VU_RSQRT;
    case PF_XNN_NEGATE: return PK_VU_NEG;
    default: return -1;
  }
}

static void unary_task(void *arg, size_t begin, size_t end) {
  const unary_job *j = arg;
  const pk_vmath_f32_table *vm = pk_vmath_f32();
  int op = vmath_op(j->n->kind);
  if (j->n->kind == PF_XNN_CLAMP) {
    vm->clamp(end - begin, j->x + begin, j->n->out_min, j->n->out_max, j->y + begin);
  } else if (op >= 0) {
    vm->unary[op](end - begin, j->x + begin, j->y + begin);
  } else {
    for (size_t i = begin; i < end; i++) j->y[i] = apply(j->n, j->x[i]);
  }
}

void px_unary_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *xv = &g->v[n->in[0]];
  unary_job j = {n, xv->data, g->v[n->out[0]].data};
  ptera_kernel_parallel_for(px_kctx(g), px_numel(xv), PX_ELEM_GRAIN, unary_task, &j);
}
