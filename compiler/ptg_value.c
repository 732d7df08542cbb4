/* The PTG reader's `value` lines: scalars, strings, lists and tensors. */
#include "ptg_read.h"

#define SHOW(t) (int)((t).n > 40 ? 40 : (t).n), (t).p

/* Comma-separated items of t ("-" is the empty list). */
static uint32_t item_count(pc_tok t) {
  if (pc_tok_is(t, "-")) return 0;
  uint32_t n = 1;
  for (size_t i = 0; i < t.n; i++) n += t.p[i] == ',';
  return n;
}

/* The next item after *pos; false when empty. */
static bool next_item(pc_tok t, size_t *pos, pc_tok *item) {
  size_t s = *pos, e = s;
  while (e < t.n && t.p[e] != ',') e++;
  *item = (pc_tok){t.p + s, e - s};
  *pos = e + 1;
  return e > s;
}

static ptera_status bad_item(pc_rd *r, const char *what, pc_tok item) {
  return pc_rd_fail(r, "expected %s, got '%.*s'", what, SHOW(item));
}

static ptera_status list_value(pc_rd *r, pc_gkind kind, pc_tok t) {
  uint32_t n = item_count(t);
  void *buf = pc_rd_scratch(r, n, 8);
  if (!buf) return pc_rd_oom(r);
  size_t pos = 0;
  pc_tok item = {t.p, 0};
  for (uint32_t i = 0; i < n; i++) {
    bool ok = next_item(t, &pos, &item);
    switch (kind) {
      case PC_G_INTS:
        if (!ok || !pc_tok_i64(item, &((int64_t *)buf)[i]))
          return bad_item(r, "a comma-separated list of int64 or '-'", item);
        break;
      case PC_G_DOUBLES:
        if (!ok || !pc_tok_double(item, &((double *)buf)[i]))
          return bad_item(r, "a comma-separated list of doubles or '-'", item);
        break;
      case PC_G_BOOLS:
        if (!ok || !(pc_tok_is(item, "0") || pc_tok_is(item, "1")))
          return bad_item(r, "a comma-separated list of 0/1 or '-'", item);
        ((bool *)buf)[i] = item.p[0] == '1';
        break;
      default: {
        bool opt = kind == PC_G_OPT_TENSORS;
        int32_t *ids = buf;
        if (ok && opt && pc_tok_is(item, "-1")) {
          ids[i] = -1;
          break;
        }
        if (!ok) return bad_item(r, "a comma-separated list of tensor value ids or '-'", item);
        if (!pc_rd_id(r, item, &ids[i], "tensor list")) return r->err->status;
        if (r->g->values[ids[i]].kind != PC_G_TENSOR)
          return pc_rd_fail(r, "tensor list item %u is value %d, which is not a tensor",
                            (unsigned)i, (int)ids[i]);
      }
    }
  }
  int32_t id;
  switch (kind) {
    case PC_G_INTS: id = pc_graph_ints(r->g, buf, n); break;
    case PC_G_DOUBLES: id = pc_graph_doubles(r->g, buf, n); break;
    case PC_G_BOOLS: id = pc_graph_bools(r->g, buf, n); break;
    default: id = pc_graph_tensor_list(r->g, buf, n, kind == PC_G_OPT_TENSORS); break;
  }
  return id < 0 ? pc_rd_graph_fail(r) : PTERA_OK;
}

/* A decoded string token in scratch. */
static char *unescape(pc_rd *r, pc_tok t, const char *what) {
  char *s = pc_rd_scratch(r, t.n + 1, 1);
  if (!s) return pc_rd_oom(r), NULL;
  if (!pc_tok_unescape(t, s)) {
    pc_rd_fail(r, "%s '%.*s' has a bad escape (expected %%XX with two hex digits, not %%00)", what,
               SHOW(t));
    return NULL;
  }
  return s;
}

typedef struct tattr {
  pc_tstore store;
  uint64_t offset, nbytes;
  pc_tok fqn;
  bool has_fqn, has_order;
  uint8_t order[PTERA_MAX_DIM];
  uint8_t dyn;
} tattr;

static bool split_u64_pair(pc_tok v, uint64_t *a, uint64_t *b) {
  const char *c = memchr(v.p, ':', v.n);
  if (!c) return false;
  pc_tok x = {v.p, (size_t)(c - v.p)}, y = {c + 1, (size_t)(v.p + v.n - c - 1)};
  return pc_tok_u64(x, a) && pc_tok_u64(y, b);
}

static ptera_status dim_order(pc_rd *r, pc_tok v, uint32_t dim, tattr *a) {
  uint32_t n = item_count(v);
  if (n != dim) return pc_rd_fail(r, "dim_order has %u entries; the tensor has %u dims", n, dim);
  bool seen[PTERA_MAX_DIM] = {false};
  size_t pos = 0;
  pc_tok item;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t d;
    if (!next_item(v, &pos, &item) || !pc_tok_u64(item, &d) || d >= dim || seen[d])
      return pc_rd_fail(r, "dim_order must be a permutation of 0..%u", dim ? dim - 1 : 0);
    seen[d] = true;
    a->order[i] = (uint8_t)d;
  }
  a->has_order = true;
  return PTERA_OK;
}

static ptera_status attribute(pc_rd *r, pc_tok t, uint32_t dim, tattr *a, unsigned *seen) {
  static const char *const names[] = {"const", "buffer", "fqn", "dim_order", "dyn"};
  const char *eq = memchr(t.p, '=', t.n);
  pc_tok key = {t.p, eq ? (size_t)(eq - t.p) : t.n};
  pc_tok v = {eq ? eq + 1 : t.p, eq ? (size_t)(t.p + t.n - eq - 1) : 0};
  unsigned k = 0;
  while (k < 5 && !pc_tok_is(key, names[k])) k++;
  if (!eq || k == 5)
    return pc_rd_fail(r, "unknown tensor attribute '%.*s' (expected const=, buffer=, fqn=, "
                         "dim_order= or dyn=)", SHOW(t));
  if (*seen & (1u << k)) return pc_rd_fail(r, "tensor attribute '%s' given twice", names[k]);
  *seen |= 1u << k;
  switch (k) {
    case 0:
    case 1:
      if (a->store != PC_T_ACTIVATION)
        return pc_rd_fail(r, "a tensor is either const= or buffer=, not both");
      if (!split_u64_pair(v, &a->offset, &a->nbytes))
        return pc_rd_fail(r, "expected %s=<offset>:<nbytes>", names[k]);
      a->store = k == 0 ? PC_T_CONST : PC_T_BUFFER;
      return PTERA_OK;
    case 2:
      if (v.n == 0) return pc_rd_fail(r, "fqn= needs a name");
      a->fqn = v;
      a->has_fqn = true;
      return PTERA_OK;
    case 3: return dim_order(r, v, dim, a);
    default:
      if (pc_tok_is(v, "bound")) a->dyn = 1;
      else if (pc_tok_is(v, "unbound")) a->dyn = 2;
      else return pc_rd_fail(r, "expected dyn=bound or dyn=unbound");
      return PTERA_OK;
  }
}

static ptera_status check_data(pc_rd *r, const tattr *a, uint64_t need) {
  const char *what = a->store == PC_T_CONST ? "const" : "buffer";
  if (!r->has_data)
    return pc_rd_fail(r, "%s tensor but the file has no 'data <nbytes>' line", what);
  if (a->offset % 16)
    return pc_rd_fail(r, "%s offset %llu is not a multiple of 16", what,
                      (unsigned long long)a->offset);
  uint64_t end;
  if (!pt_add_u64(a->offset, a->nbytes, &end) || end > r->data_size)
    return pc_rd_fail(r, "%s=%llu:%llu lies outside the %zu-byte data section", what,
                      (unsigned long long)a->offset, (unsigned long long)a->nbytes, r->data_size);
  if (a->nbytes != need)
    return pc_rd_fail(r, "%s has %llu bytes; its dtype and sizes need %llu", what,
                      (unsigned long long)a->nbytes, (unsigned long long)need);
  return PTERA_OK;
}

static ptera_status tensor_value(pc_rd *r) {
  if (r->ntoks < 5) return pc_rd_fail(r, "expected 'value <id> tensor <dtype> <sizes> [attributes]'");
  int dtype = pc_tok_dtype(r->toks[3]);
  if (dtype < 0) return pc_rd_fail(r, "unknown dtype '%.*s'", SHOW(r->toks[3]));
  pc_tok st = r->toks[4];
  uint32_t dim = item_count(st);
  if (dim > PTERA_MAX_DIM)
    return pc_rd_fail(r, "tensor has %u dims; at most %d are supported", dim, PTERA_MAX_DIM);
  int32_t sizes[PTERA_MAX_DIM];
  size_t pos = 0;
  pc_tok item;
  for (uint32_t i = 0; i < dim; i++) {
    int64_t s;
    if (!next_item(st, &pos, &item) || !pc_tok_i64(item, &s) || s < 0 || s > INT32_MAX)
      return pc_rd_fail(r, "expected sizes as comma-separated non-negative int32 or '-', got '%.*s'",
                        SHOW(st));
    sizes[i] = (int32_t)s;
  }
  uint64_t need;
  if (!pt_numel(sizes, dim, &need) || !pt_mul_u64(need, ptera_dtype_size(dtype), &need) ||
      need > SIZE_MAX)
    return pc_rd_fail(r, "tensor byte size overflows");
  tattr a;
  memset(&a, 0, sizeof a);
  unsigned seen = 0;
  for (size_t i = 5; i < r->ntoks; i++) {
    ptera_status s = attribute(r, r->toks[i], dim, &a, &seen);
    if (s) return s;
  }
  const void *data = NULL;
  if (a.store != PC_T_ACTIVATION) {
    ptera_status s = check_data(r, &a, need);
    if (s) return s;
    data = r->data + a.offset;
  }
  const char *fqn = NULL;
  if (a.has_fqn && !(fqn = unescape(r, a.fqn, "fqn"))) return r->err->status;
  int32_t id = pc_graph_tensor(r->g, dtype, dim, sizes, a.store, data, (size_t)a.nbytes, fqn);
  if (id < 0) return pc_rd_graph_fail(r);
  pc_gtensor *t = &r->g->values[id].u.t;
  if (a.has_order) memcpy(t->dim_order, a.order, dim);
  t->dynamism = a.dyn;
  return PTERA_OK;
}

ptera_status pc_rd_value(pc_rd *r) {
  if (r->ntoks < 3) return pc_rd_fail(r, "expected 'value <id> <kind> <payload>'");
  uint64_t id;
  if (!pc_tok_u64(r->toks[1], &id) || id != r->g->nvalues)
    return pc_rd_fail(r, "expected value id %u (ids count up from 0 in each method), got '%.*s'",
                      (unsigned)r->g->nvalues, SHOW(r->toks[1]));
  static const char *const kinds[] = {"none",    "int",   "double",  "bool",
                                      "str",     "ints",  "doubles", "bools",
                                      "tensors", "opt_tensors", "tensor"};
  pc_tok kt = r->toks[2];
  unsigned k = 0;
  while (k < 11 && !pc_tok_is(kt, kinds[k])) k++;
  if (k == 11)
    return pc_rd_fail(r, "unknown value kind '%.*s' (expected none, int, double, bool, str, ints, "
                         "doubles, bools, tensors, opt_tensors or tensor)", SHOW(kt));
  pc_gkind kind = (pc_gkind)k;
  if (kind == PC_G_TENSOR) return tensor_value(r);
  size_t want = kind == PC_G_NONE ? 3 : 4;
  if (kind == PC_G_STRING && r->ntoks == 3) want = 3; /* the empty string */
  if (r->ntoks != want)
    return pc_rd_fail(r, "value kind '%s' takes %s", kinds[k],
                      want == 3 ? "no payload" : "exactly one payload token");
  pc_tok p = r->toks[want - 1];
  int32_t v = -1;
  switch (kind) {
    case PC_G_NONE: v = pc_graph_none(r->g); break;
    case PC_G_INT: {
      int64_t x;
      if (!pc_tok_i64(p, &x)) return bad_item(r, "a decimal int64", p);
      v = pc_graph_int(r->g, x);
      break;
    }
    case PC_G_DOUBLE: {
      double x;
      if (!pc_tok_double(p, &x)) return bad_item(r, "a double (decimal, inf, -inf or nan)", p);
      v = pc_graph_double(r->g, x);
      break;
    }
    case PC_G_BOOL:
      if (!pc_tok_is(p, "0") && !pc_tok_is(p, "1")) return bad_item(r, "a bool, 0 or 1", p);
      v = pc_graph_bool(r->g, p.p[0] == '1');
      break;
    case PC_G_STRING: {
      const char *s = want == 3 ? "" : unescape(r, p, "string");
      if (!s) return r->err->status;
      v = pc_graph_string(r->g, s);
      break;
    }
    default: return list_value(r, kind, p);
  }
  return v < 0 ? pc_rd_graph_fail(r) : PTERA_OK;
}
