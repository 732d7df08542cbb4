/* Add, Subtract, Multiply, Div (then clamp), Minimum, Maximum, PReLU:
 * elementwise with NumPy broadcasting, right-aligned (docs/XNNPACK.md §8), in
 * fp32; rows of the output split over the thread pool. Dims that both
 * operands walk the same way are merged first, so a row is as long as the
 * broadcast allows; Add, Subtract, Multiply and Div rows whose operands are
 * contiguous or one repeated element run on the vector math (cpu/vmath.h,
 * bit for bit the scalar results), the clamp too. */
#include <math.h>

#include "cpu/vmath.h"
#include "xnnpack/xnn.h"

ptera_status px_binary_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *a = &g->v[n->in[0]], *b = &g->v[n->in[1]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_float(g, a, "input 1");
  if (st == PTERA_OK) st = px_want_float(g, b, "input 2");
  if (st == PTERA_OK) st = px_want_float(g, o, "output");
  if (st != PTERA_OK) return st;
  unsigned r = a->ndims > b->ndims ? a->ndims : b->ndims;
  size_t dims[PF_XNN_MAX_DIMS];
  for (unsigned i = 0; i < r; i++) {
    size_t da = i + a->ndims >= r ? a->dims[i + a->ndims - r] : 1;
    size_t db = i + b->ndims >= r ? b->dims[i + b->ndims - r] : 1;
    if (da != db && da != 1 && db != 1)
      return px_fail(g, PTERA_INVALID_ARGUMENT, "shapes do not broadcast: dim %u is %zu and %zu", i, da, db);
    dims[i] = da == 1 ? db : da;
  }
  if (n->kind == PF_XNN_PRELU && (b->ndims > 1 || r != a->ndims))
    return px_fail(g, PTERA_INVALID_ARGUMENT, "slope must be [C] or [1] and no wider than the input");
  return px_set_shape(g, o, dims, r);
}

/* The vector-math operation of kind, or -1. */
static int vmath_op(unsigned kind) {
  switch (kind) {
    case PF_XNN_ADD: return PK_VB_ADD;
    case PF_XNN_SUBTRACT: return PK_VB_SUB;
    case PF_XNN_MULTIPLY: return PK_VB_MUL;
    case PF_XNN_DIV: return PK_VB_DIV;
    default: return -1;
  }
}

static float apply(unsigned kind, float x, float y) {
  switch (kind) {
    case PF_XNN_ADD: return x + y;
    case PF_XNN_SUBTRACT: return x - y;
    case PF_XNN_MULTIPLY: return x * y;
    case PF_XNN_DIV: return x / y;
    case PF_XNN_MINIMUM: return x < y ? x : (y < x ? y : (x != x ? x : y));
    case PF_XNN_MAXIMUM: return x > y ? x : (y > x ? y : (x != x ? x : y));
    default: return x > 0.0f ? x : x * y; /* PReLU */
  }
}

typedef struct binary_job {
  const pf_xnn_node *n;
  unsigned r;
  size_t od[PF_XNN_MAX_DIMS], sa[PF_XNN_MAX_DIMS], sb[PF_XNN_MAX_DIMS]; /* 0 stride: broadcast */
  const float *x, *y;
  float *z;
} binary_job;

/* Output rows [begin, end) (a row: the innermost dim). */
static void binary_task(void *arg, size_t begin, size_t end) {
  const binary_job *j = arg;
  unsigned r = j->r, kind = j->n->kind;
  bool clamp = kind == PF_XNN_ADD || kind == PF_XNN_SUBTRACT || kind == PF_XNN_MULTIPLY || kind == PF_XNN_DIV;
  float lo = j->n->out_min, hi = j->n->out_max;
  size_t inner = r ? j->od[r - 1] : 1, isa = r ? j->sa[r - 1] : 0, isb = r ? j->sb[r - 1] : 0;
  size_t idx[PF_XNN_MAX_DIMS] = {0}, offa = 0, offb = 0;
  for (size_t d = r ? r - 1 : 0, row = begin; d-- > 0;) { /* the outer index of row begin */
    idx[d] = row % j->od[d];
    row /= j->od[d];
    offa += idx[d] * j->sa[d];
    offb += idx[d] * j->sb[d];
  }
  float *z = j->z + begin * inner;
  const pk_vmath_f32_table *vm = pk_vmath_f32();
  int op = vmath_op(kind);
  pk_vbinary_f32 vf = NULL; /* the row's vector routine, when its operands allow one */
  if (op >= 0 && isa <= 1 && isb <= 1 && (isa || isb))
    vf = vm->binary[op][isa && isb ? PK_VB_RUNS : isa ? PK_VB_SCALAR_B : PK_VB_SCALAR_A];
  bool vclamp = clamp && (lo > -INFINITY || hi < INFINITY);
  for (size_t row = begin; row < end; row++) {
    if (vf) {
      vf(inner, j->x + offa, j->y + offb, z);
      if (vclamp) vm->clamp(inner, z, lo, hi, z);
      z += inner;
    } else {
      for (size_t k = 0; k < inner; k++) {
        float v = apply(kind, j->x[offa + k * isa], j->y[offb + k * isb]);
        *z++ = clamp ? px_clampf(v, lo, hi) : v;
      }
    }
    for (unsigned d = r ? r - 1 : 0; d-- > 0;) { /* advance the outer index */
      offa += j->sa[d];
      offb += j->sb[d];
      if (++idx[d] < j->od[d]) break;
      offa -= j->sa[d] * j->od[d];
      offb -= j->sb[d] * j->od[d];
      idx[d] = 0;
    }
  }
}

void px_binary_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *a = &g->v[n->in[0]], *b = &g->v[n->in[1]];
  const px_value *o = &g->v[n->out[0]];
  binary_job j;
  j.n = n;
  j.r = o->ndims;
  size_t ea = 1, eb = 1;
  for (unsigned i = j.r; i-- > 0;) {
    j.od[i] = o->dims[i];
    size_t da = i + a->ndims >= j.r ? a->dims[i + a->ndims - j.r] : 1;
    size_t db = i + b->ndims >= j.r ? b->dims[i + b->ndims - j.r] : 1;
    j.sa[i] = da == 1 ? 0 : ea;
    j.sb[i] = db == 1 ? 0 : eb;
    ea *= da;
    eb *= db;
  }
  unsigned kept = 0; /* output dims of extent 1 dropped: they step nowhere */
  for (unsigned i = 0; i < j.r; i++)
    if (j.od[i] != 1) j.od[kept] = j.od[i], j.sa[kept] = j.sa[i], j.sb[kept] = j.sb[i], kept++;
  j.r = kept;
  /* merge dim i - 1 into i where both operands step over the two as one run */
  for (unsigned i = j.r; i-- > 1;) {
    unsigned d = i - 1;
    if (j.sa[d] != j.sa[i] * j.od[i] || j.sb[d] != j.sb[i] * j.od[i]) continue;
    j.od[i] *= j.od[d];
    for (unsigned k = d; k + 1 < j.r; k++) j.od[k] = j.od[k + 1], j.sa[k] = j.sa[k + 1], j.sb[k] = j.sb[k + 1];
    j.r--;
  }
  j.x = a->data;
  j.y = b->data;
  j.z = o->data;
  size_t total = px_numel(o), inner = j.r ? j.od[j.r - 1] : 1;
  if (total == 0) return;
  size_t rows = total / inner, grain = PX_ELEM_GRAIN / inner;
  ptera_kernel_parallel_for(px_kctx(g), rows, grain ? grain : 1, binary_task, &j);
}
