/* One CALL node run with the runtime's kernels; see eval.h. */
#include <string.h>

#include "eval.h"
#include "runtime/kernel_ctx.h"

typedef struct eval_ctx {
  pc_graph *g;
  pt_arena *scratch;
  uint8_t *const *bufs; /* caller storage by value id, or NULL */
  ptera_value **vmap;  /* value id -> built value, for this node */
  int32_t *touched;    /* ids set in vmap */
  uint32_t ntouched, touched_cap;
  ptera_tensor **outs; /* written tensors, parallel to out_ids */
  int32_t *out_ids;
  uint32_t nouts, outs_cap;
  size_t io_bytes;
} eval_ctx;

static ptera_value *new_pvalue(eval_ctx *e, uint8_t tag) {
  ptera_value *v = pt_arena_alloc(e->scratch, sizeof *v, _Alignof(ptera_value));
  if (v) v->tag = tag;
  return v;
}

static bool remember(eval_ctx *e, int32_t id, ptera_value *v) {
  if (e->ntouched == e->touched_cap) {
    uint32_t ncap = e->touched_cap ? e->touched_cap * 2 : 32;
    int32_t *n = pt_arena_array(e->scratch, ncap, sizeof *n, 4);
    if (!n) return false;
    if (e->touched) memcpy(n, e->touched, e->ntouched * sizeof *n);
    e->touched = n;
    e->touched_cap = ncap;
  }
  e->touched[e->ntouched++] = id;
  e->vmap[id] = v;
  return true;
}

static bool add_out(eval_ctx *e, int32_t id, ptera_tensor *t) {
  if (e->nouts == e->outs_cap) {
    uint32_t ncap = e->outs_cap ? e->outs_cap * 2 : 8;
    ptera_tensor **no = pt_arena_array(e->scratch, ncap, sizeof *no, _Alignof(ptera_tensor *));
    int32_t *ni = pt_arena_array(e->scratch, ncap, sizeof *ni, 4);
    if (!no || !ni) return false;
    if (e->outs) {
      memcpy(no, e->outs, e->nouts * sizeof *no);
      memcpy(ni, e->out_ids, e->nouts * sizeof *ni);
    }
    e->outs = no;
    e->out_ids = ni;
    e->outs_cap = ncap;
  }
  e->outs[e->nouts] = t;
  e->out_ids[e->nouts++] = id;
  return true;
}

static ptera_value *build_tensor(eval_ctx *e, int32_t id, bool written) {
  if (e->vmap[id]) return e->vmap[id];
  const pc_gtensor *gt = &e->g->values[id].u.t;
  ptera_tensor *t = pt_arena_alloc(e->scratch, sizeof *t, _Alignof(ptera_tensor));
  ptera_value *v = new_pvalue(e, PTERA_TAG_TENSOR);
  if (!t || !v) return NULL;
  size_t nbytes = pc_gtensor_nbytes(gt);
  if (nbytes == SIZE_MAX) return NULL;
  t->dim = gt->dim;
  t->dtype = gt->dtype;
  size_t numel = 1;
  for (uint32_t i = 0; i < gt->dim; i++) {
    t->sizes[i] = gt->sizes[i];
    t->dim_order[i] = gt->dim_order[i];
    numel *= (size_t)gt->sizes[i];
  }
  t->numel = numel;
  t->capacity = nbytes;
  uint8_t *own = e->bufs ? e->bufs[id] : NULL;
  if (written) {
    /* Fresh storage; a dynamic output may shrink within its declared bound. */
    t->data = own ? own : pt_arena_alloc(e->scratch, nbytes ? nbytes : 1, 16);
    if (!t->data) return NULL;
    t->dynamism = gt->dynamism == PTERA_SHAPE_STATIC ? PTERA_SHAPE_STATIC
                                                     : PTERA_SHAPE_DYNAMIC_BOUND;
    if (!add_out(e, id, t)) return NULL;
  } else if (own) {
    t->data = own;
    t->dynamism = PTERA_SHAPE_STATIC;
  } else {
    t->data = (void *)(uintptr_t)gt->data;
    t->dynamism = PTERA_SHAPE_STATIC;
    t->flags = PTERA_TENSOR_CONST;
  }
  e->io_bytes += nbytes;
  ptera_tensor_update_strides(t);
  v->u.tensor = t;
  return remember(e, id, v) ? v : NULL;
}

static ptera_value *build_value(eval_ctx *e, int32_t id, bool written) {
  if (e->vmap[id]) return e->vmap[id];
  const pc_gvalue *x = &e->g->values[id];
  ptera_value *v;
  switch (x->kind) {
    case PC_G_TENSOR: return build_tensor(e, id, written);
    case PC_G_NONE: v = new_pvalue(e, PTERA_TAG_NONE); break;
    case PC_G_INT:
      if ((v = new_pvalue(e, PTERA_TAG_INT))) v->u.i = x->u.i;
      break;
    case PC_G_DOUBLE:
      if ((v = new_pvalue(e, PTERA_TAG_DOUBLE))) v->u.d = x->u.d;
      break;
    case PC_G_BOOL:
      if ((v = new_pvalue(e, PTERA_TAG_BOOL))) v->u.b = x->u.b;
      break;
    case PC_G_STRING:
      if ((v = new_pvalue(e, PTERA_TAG_STRING))) {
        v->u.str.ptr = x->u.str;
        v->u.str.len = strlen(x->u.str);
      }
      break;
    case PC_G_DOUBLES:
      if ((v = new_pvalue(e, PTERA_TAG_LIST_DOUBLE))) {
        v->u.doubles.items = x->u.doubles.items;
        v->u.doubles.len = x->u.doubles.len;
      }
      break;
    case PC_G_BOOLS: {
      uint8_t *b = pt_arena_alloc(e->scratch, x->u.bools.len ? x->u.bools.len : 1, 1);
      if (!b || !(v = new_pvalue(e, PTERA_TAG_LIST_BOOL))) return NULL;
      for (uint32_t i = 0; i < x->u.bools.len; i++) b[i] = x->u.bools.items[i] ? 1 : 0;
      v->u.bools.items = b;
      v->u.bools.len = x->u.bools.len;
      break;
    }
    case PC_G_INTS: {
      uint32_t len = x->u.ints.len;
      ptera_value **items = pt_arena_array(e->scratch, len ? len : 1, sizeof *items,
                                           _Alignof(ptera_value *));
      if (!items || !(v = new_pvalue(e, PTERA_TAG_LIST_INT))) return NULL;
      for (uint32_t i = 0; i < len; i++) {
        if (!(items[i] = new_pvalue(e, PTERA_TAG_INT))) return NULL;
        items[i]->u.i = x->u.ints.items[i];
      }
      v->u.list.items = items;
      v->u.list.len = len;
      break;
    }
    case PC_G_TENSORS:
    case PC_G_OPT_TENSORS: {
      uint32_t len = x->u.tensors.len;
      bool opt = x->kind == PC_G_OPT_TENSORS;
      ptera_value **items = pt_arena_array(e->scratch, len ? len : 1, sizeof *items,
                                           _Alignof(ptera_value *));
      if (!items ||
          !(v = new_pvalue(e, opt ? PTERA_TAG_LIST_OPTIONAL_TENSOR : PTERA_TAG_LIST_TENSOR)))
        return NULL;
      for (uint32_t i = 0; i < len; i++) {
        int32_t t = x->u.tensors.ids[i];
        if (t < 0) continue; /* None */
        if (!(items[i] = build_tensor(e, t, written))) return NULL;
      }
      v->u.list.items = items;
      v->u.list.len = len;
      break;
    }
    default: return NULL;
  }
  if (!v) return NULL;
  return remember(e, id, v) ? v : NULL;
}

/* The return slot: the one written argument, or a list of the written
 * tensors. */
static ptera_value *return_slot(eval_ctx *e, const pc_gnode *n, ptera_value **args) {
  uint32_t nw = 0, last = 0;
  for (uint32_t i = 0; i < n->nargs; i++)
    if (n->writes[i]) nw++, last = i;
  if (nw == 1) return args[last];
  ptera_value **items = pt_arena_array(e->scratch, e->nouts ? e->nouts : 1, sizeof *items,
                                       _Alignof(ptera_value *));
  ptera_value *v = new_pvalue(e, PTERA_TAG_LIST_TENSOR);
  if (!items || !v) return NULL;
  for (uint32_t i = 0; i < e->nouts; i++) items[i] = e->vmap[e->out_ids[i]];
  v->u.list.items = items;
  v->u.list.len = e->nouts;
  return v;
}

ptera_status pc_eval_call(pc_graph *g, int32_t k, ptera_value **vmap, uint8_t *const *bufs,
                          pc_eval *r) {
  const pc_gnode *n = &g->nodes[k];
  memset(r, 0, sizeof *r);
  pt_arena_init(&r->scratch, g->allocator);
  pt_err_clear(&r->kerr);
  eval_ctx e;
  memset(&e, 0, sizeof e);
  e.g = g;
  e.scratch = &r->scratch;
  e.bufs = bufs;
  e.vmap = vmap;
  ptera_status st = PTERA_OK;
  ptera_value **args = pt_arena_array(&r->scratch, (size_t)n->nargs + 1, sizeof *args,
                                      _Alignof(ptera_value *));
  bool built = args != NULL;
  for (uint32_t i = 0; built && i < n->nargs; i++)
    built = (args[i] = build_value(&e, n->args[i], n->writes[i] != 0)) != NULL;
  if (built) built = (args[n->nargs] = return_slot(&e, n, args)) != NULL;
  size_t temp_size = 0;
  void *temp = NULL;
  if (built) {
    /* Scratch for the kernel: generous, proportional to the data it sees. */
    temp_size = ((size_t)1 << 20) + 2 * e.io_bytes;
    temp = pt_arena_alloc(&r->scratch, temp_size, 16);
    built = temp != NULL;
  }
  if (!built) {
    st = pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED,
                 "out of memory evaluating '%s' (node %d) at compile time", n->op, (int)k);
  } else {
    ptera_kernel_fn fn = ptera_kernel_find(n->op, strlen(n->op));
    ptera_kernel_ctx kctx;
    pr_kernel_ctx_init(&kctx, n->op, &r->kerr, temp, temp_size);
    if (!fn) pt_fail(&r->kerr, PTERA_OPERATOR_MISSING, "no kernel registers '%s'", n->op);
    else r->ran = fn(&kctx, args, (size_t)n->nargs + 1) == PTERA_OK;
    r->outs = e.outs;
    r->out_ids = e.out_ids;
    r->nouts = e.nouts;
  }
  for (uint32_t i = 0; i < e.ntouched; i++) vmap[e.touched[i]] = NULL;
  return st;
}

void pc_eval_release(pc_eval *r) { pt_arena_release(&r->scratch); }
