/* The PTG writer (docs/PTG.md): methods as text lines, then the data of every
 * const and buffer tensor at 16-aligned offsets. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "ptg.h"
#include "ptg_lex.h"

typedef struct wbuf {
  const ptera_allocator *allocator;
  uint8_t *p;
  size_t n, cap;
  bool oom;
} wbuf;

static bool reserve(wbuf *b, size_t extra) {
  if (b->oom) return false;
  if (extra <= b->cap - b->n) return true;
  size_t cap = b->cap ? b->cap : 4096;
  while (cap - b->n < extra) {
    if (cap > SIZE_MAX / 2) return b->oom = true, false;
    cap *= 2;
  }
  uint8_t *p = pt_alloc(b->allocator, cap, 16);
  if (!p) return b->oom = true, false;
  if (b->n) memcpy(p, b->p, b->n);
  pt_free(b->allocator, b->p);
  b->p = p;
  b->cap = cap;
  return true;
}

static void put(wbuf *b, const void *s, size_t n) {
  if (n && reserve(b, n)) {
    memcpy(b->p + b->n, s, n);
    b->n += n;
  }
}

static void putf(wbuf *b, const char *fmt, ...) PT_PRINTF(2, 3);
static void putf(wbuf *b, const char *fmt, ...) {
  char tmp[64];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n > 0) put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void put_str(wbuf *b, const char *s) { put(b, s, strlen(s)); }

static void put_escaped(wbuf *b, const char *s) {
  size_t n = pc_escape(s, NULL);
  if (reserve(b, n)) b->n += pc_escape(s, (char *)b->p + b->n);
}

static void put_double(wbuf *b, double d) {
  if (isnan(d)) put_str(b, "nan");
  else if (isinf(d)) put_str(b, d < 0 ? "-inf" : "inf");
  else putf(b, "%.17g", d);
}

/* A name written raw as one token: printable ASCII, no spaces. */
static bool is_token(const char *s) {
  if (!s || !*s) return false;
  for (; *s; s++)
    if (*s < '!' || *s > '~') return false;
  return true;
}

static ptera_status put_tensor(wbuf *b, const pc_gtensor *t, uint64_t *offset, pt_err *err) {
  if (ptera_dtype_size(t->dtype) == 0 || t->dim > PTERA_MAX_DIM)
    return pt_fail(err, PTERA_INVALID_ARGUMENT, "tensor of dtype %d and rank %u", t->dtype, t->dim);
  put_str(b, ptera_dtype_name(t->dtype));
  put_str(b, " ");
  if (t->dim == 0) put_str(b, "-");
  for (uint32_t i = 0; i < t->dim; i++) putf(b, "%s%d", i ? "," : "", (int)t->sizes[i]);
  if (t->store != PC_T_ACTIVATION) {
    if (t->nbytes != pc_gtensor_nbytes(t) || (t->nbytes && !t->data))
      return pt_fail(err, PTERA_INVALID_ARGUMENT, "tensor '%s' has %zu bytes of data; its shape "
                     "needs %zu", t->fqn ? t->fqn : "?", t->nbytes, pc_gtensor_nbytes(t));
    putf(b, " %s=%llu:%zu", t->store == PC_T_CONST ? "const" : "buffer",
         (unsigned long long)*offset, t->nbytes);
    *offset += (t->nbytes + 15) & ~(uint64_t)15;
  }
  if (t->fqn && *t->fqn) {
    put_str(b, " fqn=");
    put_escaped(b, t->fqn);
  }
  bool contiguous = true;
  for (uint32_t i = 0; i < t->dim; i++) contiguous &= t->dim_order[i] == i;
  if (!contiguous) {
    put_str(b, " dim_order=");
    for (uint32_t i = 0; i < t->dim; i++) putf(b, "%s%u", i ? "," : "", (unsigned)t->dim_order[i]);
  }
  if (t->dynamism == 1) put_str(b, " dyn=bound");
  else if (t->dynamism == 2) put_str(b, " dyn=unbound");
  return PTERA_OK;
}

static void put_ids(wbuf *b, const int32_t *ids, uint32_t n) {
  if (n == 0) put_str(b, "-");
  for (uint32_t i = 0; i < n; i++) putf(b, "%s%d", i ? "," : "", (int)ids[i]);
}

static ptera_status put_value(wbuf *b, const pc_gvalue *v, uint32_t id, uint64_t *offset,
                              pt_err *err) {
  static const char *const kinds[] = {"none",    "int",   "double",  "bool",
                                      "str",     "ints",  "doubles", "bools",
                                      "tensors", "opt_tensors", "tensor"};
  if ((unsigned)v->kind > PC_G_TENSOR)
    return pt_fail(err, PTERA_INVALID_ARGUMENT, "value %u has unknown kind %d", id, (int)v->kind);
  putf(b, "value %u %s", id, kinds[v->kind]);
  if (v->kind != PC_G_NONE && !(v->kind == PC_G_STRING && !*v->u.str)) put_str(b, " ");
  ptera_status st = PTERA_OK;
  switch (v->kind) {
    case PC_G_NONE: break;
    case PC_G_INT: putf(b, "%lld", (long long)v->u.i); break;
    case PC_G_DOUBLE: put_double(b, v->u.d); break;
    case PC_G_BOOL: put_str(b, v->u.b ? "1" : "0"); break;
    case PC_G_STRING: put_escaped(b, v->u.str); break;
    case PC_G_INTS:
      if (v->u.ints.len == 0) put_str(b, "-");
      for (uint32_t i = 0; i < v->u.ints.len; i++)
        putf(b, "%s%lld", i ? "," : "", (long long)v->u.ints.items[i]);
      break;
    case PC_G_DOUBLES:
      if (v->u.doubles.len == 0) put_str(b, "-");
      for (uint32_t i = 0; i < v->u.doubles.len; i++) {
        if (i) put_str(b, ",");
        put_double(b, v->u.doubles.items[i]);
      }
      break;
    case PC_G_BOOLS:
      if (v->u.bools.len == 0) put_str(b, "-");
      for (uint32_t i = 0; i < v->u.bools.len; i++)
        put_str(b, i ? (v->u.bools.items[i] ? ",1" : ",0") : (v->u.bools.items[i] ? "1" : "0"));
      break;
    case PC_G_TENSORS:
    case PC_G_OPT_TENSORS: put_ids(b, v->u.tensors.ids, v->u.tensors.len); break;
    case PC_G_TENSOR: st = put_tensor(b, &v->u.t, offset, err); break;
  }
  put_str(b, "\n");
  return st;
}

static bool in_range(const pc_graph *g, const int32_t *ids, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (ids[i] < 0 || (uint32_t)ids[i] >= g->nvalues) return false;
  return true;
}

static ptera_status put_method(wbuf *b, const pc_graph *g, uint64_t *offset, pt_err *err) {
  if (!is_token(g->name))
    return pt_fail(err, PTERA_INVALID_ARGUMENT,
                   "method name must be non-empty printable ASCII without spaces");
  putf(b, "method ");
  put_str(b, g->name);
  put_str(b, "\n");
  for (uint32_t i = 0; i < g->nvalues; i++) {
    ptera_status st = put_value(b, &g->values[i], i, offset, err);
    if (st) {
      char msg[PT_ERRMSG_SIZE];
      memcpy(msg, err->msg, sizeof msg);
      return pt_fail(err, st, "method '%s': %s", g->name, msg);
    }
  }
  if (!in_range(g, g->inputs, g->ninputs) || !in_range(g, g->outputs, g->noutputs))
    return pt_fail(err, PTERA_INVALID_ARGUMENT, "method '%s': input/output id out of range",
                   g->name);
  put_str(b, "inputs");
  for (uint32_t i = 0; i < g->ninputs; i++) putf(b, " %d", (int)g->inputs[i]);
  put_str(b, "\noutputs");
  for (uint32_t i = 0; i < g->noutputs; i++) putf(b, " %d", (int)g->outputs[i]);
  put_str(b, "\n");
  /* Each value joins its class's root: the classes (not the union-find
   * links) are what a reader rebuilds, and the same text comes back. */
  for (uint32_t i = 0; i < g->nvalues; i++) {
    int32_t root = pc_graph_alias_root(g, (int32_t)i);
    if (root != (int32_t)i) putf(b, "alias %d %u\n", (int)root, i);
  }
  for (uint32_t k = 0; k < g->nnodes; k++) {
    const pc_gnode *n = &g->nodes[k];
    if (n->kind == PC_N_REGION_END) {
      put_str(b, "end\n");
      continue;
    }
    if (!is_token(n->op) || (n->kind == PC_N_CALL && !in_range(g, n->args, n->nargs)))
      return pt_fail(err, PTERA_INVALID_ARGUMENT,
                     "method '%s' node %u: bad operator name, region kind or argument", g->name, k);
    put_str(b, n->kind == PC_N_CALL ? "node " : "begin ");
    put_str(b, n->op);
    if (n->kind == PC_N_CALL)
      for (uint32_t i = 0; i < n->nargs; i++)
        putf(b, " %s%d", n->writes[i] ? "!" : "", (int)n->args[i]);
    for (uint32_t i = 0; n->kind == PC_N_CALL && i < n->nscope; i++) {
      put_str(b, " scope=");
      put_escaped(b, n->scope[i].path);
      put_str(b, ":");
      put_escaped(b, n->scope[i].type);
    }
    put_str(b, "\n");
  }
  return PTERA_OK;
}

static bool has_data(const pc_gtensor *t, const pc_gvalue *v) {
  return v->kind == PC_G_TENSOR && t->store != PC_T_ACTIVATION;
}

ptera_status pc_ptg_write(const pc_module *m, uint8_t **out, size_t *out_size, pt_err *err) {
  pt_err local;
  if (!err) err = &local;
  pt_err_clear(err);
  if (!m || !out || !out_size) return pt_fail(err, PTERA_INVALID_ARGUMENT, "pc_ptg_write: NULL");
  *out = NULL;
  *out_size = 0;
  if (m->nmethods == 0) return pt_fail(err, PTERA_INVALID_ARGUMENT, "the module has no method");
  wbuf b = {m->allocator, NULL, 0, 0, false};
  put_str(&b, "ptg 1\n");
  uint64_t offset = 0;
  bool any = false;
  for (uint32_t i = 0; i < m->nmethods; i++) {
    ptera_status st = put_method(&b, m->methods[i], &offset, err);
    if (st) {
      pt_free(b.allocator, b.p);
      return st;
    }
    for (uint32_t k = 0; k < m->methods[i]->nvalues; k++)
      any |= has_data(&m->methods[i]->values[k].u.t, &m->methods[i]->values[k]);
  }
  if (any && offset <= SIZE_MAX) {
    putf(&b, "data %llu\n", (unsigned long long)offset);
    if (reserve(&b, (size_t)offset)) {
      uint8_t *base = b.p + b.n;
      memset(base, 0, (size_t)offset);
      size_t at = 0;
      for (uint32_t i = 0; i < m->nmethods; i++)
        for (uint32_t k = 0; k < m->methods[i]->nvalues; k++) {
          const pc_gvalue *v = &m->methods[i]->values[k];
          if (!has_data(&v->u.t, v)) continue;
          if (v->u.t.nbytes && v->u.t.data) memcpy(base + at, v->u.t.data, v->u.t.nbytes);
          at += (v->u.t.nbytes + 15) & ~(size_t)15;
        }
      b.n += (size_t)offset;
    }
  }
  if (b.oom || offset > SIZE_MAX) {
    pt_free(b.allocator, b.p);
    return pt_fail(err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory writing the .ptg");
  }
  *out = b.p;
  *out_size = b.n;
  return PTERA_OK;
}

void pc_module_free(pc_module *m) {
  if (!m) return;
  for (uint32_t i = 0; i < m->nmethods; i++) pc_graph_free(m->methods[i]);
  pt_free(m->allocator, m->methods);
  memset(m, 0, sizeof m[0]);
}
