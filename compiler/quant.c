/* Linear layers and the weight quantization formulas (quant.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "quant.h"

static bool is_one(const pc_graph *g, int32_t v) {
  const pc_gvalue *x = &g->values[v];
  return (x->kind == PC_G_INT && x->u.i == 1) || (x->kind == PC_G_DOUBLE && x->u.d == 1.0);
}

static bool tensor_rank(const pc_graph *g, int32_t v, uint32_t dim) {
  return v >= 0 && g->values[v].kind == PC_G_TENSOR && g->values[v].u.t.dim == dim;
}

bool pc_linear_of(const pc_graph *g, const pc_gnode *n, pc_linear *l) {
  if (n->kind != PC_N_CALL || n->removed || n->delegate) return false;
  memset(l, 0, sizeof *l);
  if (strcmp(n->op, "aten::linear.out") == 0 && n->nargs == 4) {
    *l = (pc_linear){n->args[0], n->args[1], n->args[2], false, 0, 0};
  } else if (strcmp(n->op, "aten::mm.out") == 0 && n->nargs == 3) {
    *l = (pc_linear){n->args[0], n->args[1], -1, true, 0, 0};
  } else if (strcmp(n->op, "aten::addmm.out") == 0 && n->nargs == 6 && is_one(g, n->args[3]) &&
             is_one(g, n->args[4])) {
    *l = (pc_linear){n->args[1], n->args[2], n->args[0], true, 0, 0};
  } else {
    return false;
  }
  if (!tensor_rank(g, l->w, 2) || g->values[l->x].kind != PC_G_TENSOR) return false;
  const int32_t *s = g->values[l->w].u.t.sizes;
  l->ic = (uint32_t)s[l->transposed ? 0 : 1];
  l->oc = (uint32_t)s[l->transposed ? 1 : 0];
  return true;
}

bool pc_q_weight_fixed(const pc_graph *g, int32_t w) {
  if (w < 0 || g->values[w].kind != PC_G_TENSOR) return false;
  const pc_gtensor *t = &g->values[w].u.t;
  if (t->store != PC_T_CONST || !t->data ||
      t->nbytes != pc_gtensor_nbytes(t))
    return false;
  int32_t root = pc_graph_alias_root(g, w);
  for (uint32_t k = 0; k < g->nnodes; k++) {
    const pc_gnode *n = &g->nodes[k];
    if (n->kind != PC_N_CALL || n->removed) continue;
    for (uint32_t a = 0; a < n->nargs; a++)
      if (n->writes[a] && pc_graph_alias_root(g, n->args[a]) == root) return false;
  }
  return true;
}

const char *pc_q_tensor_name(const pc_graph *g, int32_t v, char *buf, size_t cap) {
  const pc_gtensor *t = &g->values[v].u.t;
  if (t->fqn) return t->fqn;
  if (t->source) return t->source;
  snprintf(buf, cap, "value %d", (int)v);
  return buf;
}

static bool is_bf16(const pc_graph *g, int32_t v) {
  return v >= 0 && g->values[v].kind == PC_G_TENSOR && g->values[v].u.t.dtype == PTERA_DTYPE_BFLOAT16;
}

/* The constant that a live transpose call turns into v, or -1. */
static int32_t transposed_const(const pc_graph *g, int32_t v) {
  for (uint32_t k = 0; k < g->nnodes; k++) {
    const pc_gnode *n = &g->nodes[k];
    if (n->kind != PC_N_CALL || n->removed || n->nargs < 2 || n->args[n->nargs - 1] != v) continue;
    bool tr = strcmp(n->op, "aten::permute_copy.out") == 0 || strcmp(n->op, "aten::t_copy.out") == 0 ||
              strcmp(n->op, "aten::transpose_copy.int_out") == 0;
    int32_t w = n->args[0];
    return tr && g->values[w].kind == PC_G_TENSOR && g->values[w].u.t.store == PC_T_CONST ? w : -1;
  }
  return -1;
}

ptera_status pc_q_layer_check(pc_graph *g, uint32_t k, const pc_linear *l, bool *quantize) {
  const pc_gnode *n = &g->nodes[k];
  char buf[32];
  *quantize = false;
  int32_t bf = is_bf16(g, l->w) ? l->w : is_bf16(g, l->x) ? l->x : is_bf16(g, l->b) ? l->b : -1;
  if (bf >= 0) {
    pc_diag_warn(g->diag, "method '%s': node %u (%s): bfloat16 %s '%s' left unquantized", g->name, k,
                 n->op, bf == l->w ? "weight" : bf == l->x ? "input" : "bias",
                 pc_q_tensor_name(g, bf, buf, sizeof buf));
    return PTERA_OK;
  }
  if (!pc_q_weight_fixed(g, l->w)) {
    if (strcmp(n->op, "aten::linear.out") != 0) {
      int32_t src = g->named_consts_replaceable ? transposed_const(g, l->w) : -1;
      if (src >= 0)
        pc_diag_warn(g->diag, "method '%s': node %u (%s) left unquantized: its weight is '%s' "
                     "transposed at run time, a weight the .ptd may replace by name (--weight-keys hash "
                     "fixes its bytes and lets it be quantized)", g->name, k,
                     n->op, pc_q_tensor_name(g, src, buf, sizeof buf));
      return PTERA_OK; /* a product of run-time values */
    }
    return pt_fail(&g->err, PTERA_NOT_SUPPORTED,
                   "node %u (%s) cannot be quantized: its weight (%s) is not a constant that no call "
                   "writes, so its integer values and scales cannot be computed when compiling",
                   k, n->op, pc_q_tensor_name(g, l->w, buf, sizeof buf));
  }
  *quantize = g->values[l->w].u.t.dtype == PTERA_DTYPE_FLOAT;
  return PTERA_OK;
}

static float at(const float *w, bool transposed, uint32_t oc, uint32_t ic, uint32_t o, uint32_t k) {
  return w[transposed ? (size_t)k * oc + o : (size_t)o * ic + k];
}

/* Quantizes W[o][k0 .. k0+n) with one scale: max(amax / div, FLT_EPSILON). */
static float span(const float *w, bool transposed, uint32_t oc, uint32_t ic, uint32_t o, uint32_t k0,
                  uint32_t n, float div, float lo, float hi, int8_t *q) {
  float amax = 0;
  for (uint32_t k = k0; k < k0 + n; k++) {
    float v = fabsf(at(w, transposed, oc, ic, o, k));
    if (v > amax) amax = v;
  }
  float s = amax / div;
  if (!(s > FLT_EPSILON)) s = FLT_EPSILON;
  for (uint32_t k = k0; k < k0 + n; k++) {
    float r = rintf(at(w, transposed, oc, ic, o, k) / s);
    q[(size_t)o * ic + k] = (int8_t)(r > hi ? hi : r < lo ? lo : r);
  }
  return s;
}

void pc_q8_channel(const float *w, bool transposed, uint32_t oc, uint32_t ic, int8_t *q,
                   float *scales) {
  for (uint32_t o = 0; o < oc; o++)
    scales[o] = span(w, transposed, oc, ic, o, 0, ic, 127.0f, -127.0f, 127.0f, q);
}

void pc_q4_group(const float *w, bool transposed, uint32_t oc, uint32_t ic, uint32_t gs, int8_t *q,
                 float *scales) {
  uint32_t ng = ic / gs;
  for (uint32_t o = 0; o < oc; o++)
    for (uint32_t j = 0; j < ng; j++)
      scales[(size_t)o * ng + j] = span(w, transposed, oc, ic, o, j * gs, gs, 7.5f, -8.0f, 7.0f, q);
}
