/* Add, Subtract, Multiply, Div (then clamp), Minimum, Maximum, PReLU:
 * elementwise with NumPy broadcasting, right-aligned (XNNPACK.md §8). fp32. */
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

void px_binary_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *a = &g->v[n->in[0]], *b = &g->v[n->in[1]];
  const px_value *o = &g->v[n->out[0]];
  unsigned r = o->ndims;
  size_t od[PF_XNN_MAX_DIMS], sa[PF_XNN_MAX_DIMS], sb[PF_XNN_MAX_DIMS];
  size_t ea = 1, eb = 1;
  for (unsigned i = r; i-- > 0;) {
    od[i] = o->dims[i];
    size_t da = i + a->ndims >= r ? a->dims[i + a->ndims - r] : 1;
    size_t db = i + b->ndims >= r ? b->dims[i + b->ndims - r] : 1;
    sa[i] = da == 1 ? 0 : ea;
    sb[i] = db == 1 ? 0 : eb;
    ea *= da;
    eb *= db;
  }
  const float *x = a->data, *y = b->data;
  float *z = o->data;
  size_t total = px_numel(o);
  if (total == 0) return;
  bool clamp = n->kind == PF_XNN_ADD || n->kind == PF_XNN_SUBTRACT || n->kind == PF_XNN_MULTIPLY ||
               n->kind == PF_XNN_DIV;
  float lo = n->out_min, hi = n->out_max;
  size_t inner = r ? od[r - 1] : 1, isa = r ? sa[r - 1] : 0, isb = r ? sb[r - 1] : 0;
  size_t idx[PF_XNN_MAX_DIMS] = {0};
  size_t offa = 0, offb = 0;
  for (size_t done = 0; done < total; done += inner) {
    for (size_t k = 0; k < inner; k++) {
      float v = apply(n->kind, x[offa + k * isa], y[offb + k * isb]);
      *z++ = clamp ? px_clampf(v, lo, hi) : v;
    }
    for (unsigned d = r ? r - 1 : 0; d-- > 0;) { /* advance the outer index */
      offa += sa[d];
      offb += sb[d];
      if (++idx[d] < od[d]) break;
      offa -= sa[d] * od[d];
      offb -= sb[d] * od[d];
      idx[d] = 0;
    }
  }
}
