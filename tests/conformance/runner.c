/* Conformance runner: reads the cases gen.py wrote (cases.txt + data.bin),
 * calls each kernel by name through ptera_kernel_find, and compares the
 * outputs with per-dtype tolerances. Prints per-op counts and a coverage
 * report over ops_list.txt (OPS.md sections 1-3).
 *
 * Usage: conformance_runner CASE_DIR OPS_LIST [--report-only] [--verbose] [--strict]
 * --strict: every op of OPS_LIST must be implemented and have passing cases, and a
 * case of an unimplemented op fails the run (the cortex_m suite uses it).
 *
 * cases.txt is line based:
 *   C op id expect(ok|err) known(0|1) rtol atol   start of a case (rtol/atol < 0: dtype default)
 *   A T dtype ndim sizes... offset                input tensor, data at offset in data.bin
 *   A O dtype ndim sizes... offset                out tensor; expected data at offset
 *   A I v | A D v | A B v | A N | A S text        Int, Double (strtod syntax), Bool, None, String
 *   A IL n v... | A DL n v... | A BL n v...       Int / Double / Bool lists
 *   A TL n | A OTL n | A OL n                     tensor list / optional tensor list / out list;
 *                                                 the next n lines are "T ...", "O ..." or "N"
 *   R O | R N | R I v | R D v | R B v             return slot: the out(s), None, or a scalar to check
 *   E                                             end of the case
 * Extensions (gen_misc.py; the functions under "Extensions" below):
 *   a tensor line may end in "DO d0 d1 ..."        its dim order (data.bin holds it in that memory order)
 *   A M want_offset dtype ndim sizes... offset     in/out tensor (mutated in place): input data at
 *                                                 offset, expected data afterwards at want_offset
 *   R X                                           no return slot (the op takes exactly its args)
 *   C op id prop 0 rtol atol                      property case: the outs are checked by
 *                                                 check_props (shape/dtype, ranges), not by value
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptera/kernel.h"
#include "runtime/kernel_ctx.h"

#define MAX_ARGS 64
#define MAX_OPS 512
#define MAX_OUTS 64
#define MAX_ALLOCS 4096

typedef struct op_stat {
  char name[96];
  int pass, fail, known_fail, known_pass, err_cases;
  uint32_t dtypes; /* bit per dtype code of the cases' first tensor */
} op_stat;

static op_stat g_ops[MAX_OPS];
static int g_nops;
static int g_verbose;
static int g_quiet; /* --report-only: no mismatch lines */
#define LOG(...) (g_quiet ? 0 : printf(__VA_ARGS__))

static op_stat *stat_for(const char *name) {
  for (int i = 0; i < g_nops; i++)
    if (strcmp(g_ops[i].name, name) == 0) return &g_ops[i];
  if (g_nops == MAX_OPS) {
    fprintf(stderr, "too many ops\n");
    exit(2);
  }
  op_stat *s = &g_ops[g_nops++];
  memset(s, 0, sizeof *s);
  snprintf(s->name, sizeof s->name, "%s", name);
  return s;
}

/* Per-case allocations, freed when the case ends. */
static void *g_allocs[MAX_ALLOCS];
static size_t g_nallocs;
static void *case_alloc(size_t n) {
  if (g_nallocs == MAX_ALLOCS) {
    fprintf(stderr, "too many allocations in one case\n");
    exit(2);
  }
  void *p = calloc(1, n ? n : 1);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  g_allocs[g_nallocs++] = p;
  return p;
}
static void muts_clear(void);
static void case_free(void) {
  muts_clear();
  for (size_t i = 0; i < g_nallocs; i++) free(g_allocs[i]);
  g_nallocs = 0;
}

static uint8_t *g_data;
static size_t g_data_size;

typedef struct out_ref {
  ptera_tensor *t;
  const uint8_t *want;
  ptera_tensor want_shape;
} out_ref;

typedef struct case_state {
  char op[96];
  char id[96];
  int expect_err, known, prop;
  double rtol, atol;
  ptera_value *args[MAX_ARGS];
  size_t nargs;
  out_ref outs[MAX_OUTS];
  size_t nouts;
  int first_dtype;
  int ret_kind; /* 'O', 'N', 'I', 'D', 'B' */
  int64_t ret_i;
  double ret_d;
  int bad; /* parse problem */
} case_state;

static ptera_value *new_value(uint8_t tag) {
  ptera_value *v = case_alloc(sizeof *v);
  v->tag = tag;
  return v;
}

static char *next_tok(char **p) {
  char *s = *p;
  while (*s == ' ' || *s == '\t') s++;
  if (!*s || *s == '\n') return NULL;
  char *e = s;
  while (*e && *e != ' ' && *e != '\t' && *e != '\n') e++;
  if (*e) *e++ = 0;
  *p = e;
  return s;
}
static int64_t tok_i(char **p) {
  char *t = next_tok(p);
  return t ? strtoll(t, NULL, 10) : 0;
}
static double tok_d(char **p) {
  char *t = next_tok(p);
  return t ? strtod(t, NULL) : 0.0;
}

static void parse_dim_order(ptera_tensor *t, char **p);
static ptera_value *parse_mut_tensor(case_state *cs, char **p);
static int check_muts(const case_state *cs);
static int check_props(const case_state *cs);

/* Parses "dtype ndim sizes... offset" into a tensor; is_out allocates fresh
 * (garbage-filled) storage and records the expected data. */
static ptera_value *parse_tensor(case_state *cs, char **p, int is_out) {
  ptera_tensor *t = case_alloc(sizeof *t);
  int dtype = (int)tok_i(p);
  int ndim = (int)tok_i(p);
  if (ndim < 0 || ndim > PTERA_MAX_DIM || ptera_dtype_size(dtype) == 0) {
    cs->bad = 1;
    return new_value(PTERA_TAG_NONE);
  }
  t->dtype = (uint8_t)dtype;
  t->dim = (uint8_t)ndim;
  size_t n = 1;
  for (int i = 0; i < ndim; i++) {
    t->sizes[i] = (int32_t)tok_i(p);
    t->dim_order[i] = (uint8_t)i;
    n *= (size_t)t->sizes[i];
  }
  t->numel = n;
  size_t off = (size_t)tok_i(p);
  parse_dim_order(t, p);
  size_t nbytes = n * ptera_dtype_size(dtype);
  if (off + nbytes > g_data_size) {
    cs->bad = 1;
    return new_value(PTERA_TAG_NONE);
  }
  ptera_tensor_update_strides(t);
  t->capacity = nbytes;
  if (is_out) {
    t->dynamism = PTERA_SHAPE_DYNAMIC_BOUND;
    t->data = case_alloc(nbytes);
    memset(t->data, 0xA5, nbytes);
    if (cs->nouts < MAX_OUTS) {
      out_ref *o = &cs->outs[cs->nouts++];
      o->t = t;
      o->want = g_data + off;
      o->want_shape = *t;
    }
  } else {
    t->dynamism = PTERA_SHAPE_STATIC;
    t->data = case_alloc(nbytes);
    if (nbytes) memcpy(t->data, g_data + off, nbytes);
  }
  if (cs->first_dtype < 0) cs->first_dtype = dtype;
  ptera_value *v = new_value(PTERA_TAG_TENSOR);
  v->u.tensor = t;
  return v;
}

static ptera_value *parse_list_item(case_state *cs, FILE *f, int allow_none) {
  char line[65536];
  if (!fgets(line, sizeof line, f)) {
    cs->bad = 1;
    return new_value(PTERA_TAG_NONE);
  }
  char *p = line;
  char *k = next_tok(&p);
  if (k && strcmp(k, "T") == 0) return parse_tensor(cs, &p, 0);
  if (k && strcmp(k, "O") == 0) return parse_tensor(cs, &p, 1);
  if (k && strcmp(k, "N") == 0 && allow_none) return NULL;
  cs->bad = 1;
  return new_value(PTERA_TAG_NONE);
}

static void parse_arg(case_state *cs, char *p, FILE *f) {
  char *k = next_tok(&p);
  ptera_value *v = NULL;
  if (!k) {
    cs->bad = 1;
    return;
  }
  if (strcmp(k, "T") == 0) {
    v = parse_tensor(cs, &p, 0);
  } else if (strcmp(k, "O") == 0) {
    v = parse_tensor(cs, &p, 1);
  } else if (strcmp(k, "M") == 0) {
    v = parse_mut_tensor(cs, &p);
  } else if (strcmp(k, "I") == 0) {
    v = new_value(PTERA_TAG_INT);
    v->u.i = tok_i(&p);
  } else if (strcmp(k, "D") == 0) {
    v = new_value(PTERA_TAG_DOUBLE);
    v->u.d = tok_d(&p);
  } else if (strcmp(k, "B") == 0) {
    v = new_value(PTERA_TAG_BOOL);
    v->u.b = tok_i(&p) != 0;
  } else if (strcmp(k, "N") == 0) {
    v = new_value(PTERA_TAG_NONE);
  } else if (strcmp(k, "S") == 0) {
    char *s = next_tok(&p);
    v = new_value(PTERA_TAG_STRING);
    size_t len = s ? strlen(s) : 0;
    char *c = case_alloc(len + 1);
    if (s) memcpy(c, s, len);
    v->u.str.ptr = c;
    v->u.str.len = len;
  } else if (strcmp(k, "IL") == 0) {
    size_t n = (size_t)tok_i(&p);
    ptera_value **items = case_alloc(n * sizeof *items);
    for (size_t i = 0; i < n; i++) {
      items[i] = new_value(PTERA_TAG_INT);
      items[i]->u.i = tok_i(&p);
    }
    v = new_value(PTERA_TAG_LIST_INT);
    v->u.list.items = items;
    v->u.list.len = n;
  } else if (strcmp(k, "DL") == 0) {
    size_t n = (size_t)tok_i(&p);
    double *items = case_alloc(n * sizeof *items);
    for (size_t i = 0; i < n; i++) items[i] = tok_d(&p);
    v = new_value(PTERA_TAG_LIST_DOUBLE);
    v->u.doubles.items = items;
    v->u.doubles.len = n;
  } else if (strcmp(k, "BL") == 0) {
    size_t n = (size_t)tok_i(&p);
    uint8_t *items = case_alloc(n);
    for (size_t i = 0; i < n; i++) items[i] = tok_i(&p) != 0;
    v = new_value(PTERA_TAG_LIST_BOOL);
    v->u.bools.items = items;
    v->u.bools.len = n;
  } else if (strcmp(k, "TL") == 0 || strcmp(k, "OTL") == 0 || strcmp(k, "OL") == 0) {
    int opt = strcmp(k, "OTL") == 0;
    size_t n = (size_t)tok_i(&p);
    ptera_value **items = case_alloc(n * sizeof *items);
    for (size_t i = 0; i < n; i++) items[i] = parse_list_item(cs, f, opt);
    v = new_value(opt ? PTERA_TAG_LIST_OPTIONAL_TENSOR : PTERA_TAG_LIST_TENSOR);
    v->u.list.items = items;
    v->u.list.len = n;
  } else {
    cs->bad = 1;
    return;
  }
  if (cs->nargs < MAX_ARGS)
    cs->args[cs->nargs++] = v;
  else
    cs->bad = 1;
}

/* Reads element i of a tensor's data as double (integers exactly up to 2^53;
 * int64 compared separately). */
static uint16_t rd16(const uint8_t *d, size_t i) {
  uint16_t x;
  memcpy(&x, d + 2 * i, 2);
  return x;
}
static double half_to_f64(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double s = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 0) return s * ldexp((double)m, -24);
  if (e == 31) return m ? NAN : s * INFINITY;
  return s * ldexp((double)(m | 0x400), e - 25);
}
static double bf16_to_f64(uint16_t b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static double elem_f(int dtype, const uint8_t *d, size_t i) {
  switch (dtype) {
    case PTERA_DTYPE_HALF: return half_to_f64(rd16(d, i));
    case PTERA_DTYPE_BFLOAT16: return bf16_to_f64(rd16(d, i));
    case PTERA_DTYPE_FLOAT: {
      float f;
      memcpy(&f, d + 4 * i, 4);
      return f;
    }
    case PTERA_DTYPE_DOUBLE: {
      double x;
      memcpy(&x, d + 8 * i, 8);
      return x;
    }
    default: return 0.0;
  }
}
static int is_float_dtype(int dt) {
  return dt == PTERA_DTYPE_HALF || dt == PTERA_DTYPE_BFLOAT16 || dt == PTERA_DTYPE_FLOAT ||
         dt == PTERA_DTYPE_DOUBLE;
}
static void default_tol(int dt, double *rtol, double *atol) {
  switch (dt) {
    case PTERA_DTYPE_HALF: *rtol = 1e-2; *atol = 1e-3; break;
    case PTERA_DTYPE_BFLOAT16: *rtol = 1.6e-2; *atol = 1e-2; break;
    case PTERA_DTYPE_FLOAT: *rtol = 1e-5; *atol = 1e-6; break;
    case PTERA_DTYPE_DOUBLE: *rtol = 1e-10; *atol = 1e-12; break;
    default: *rtol = 0; *atol = 0; break;
  }
}

static int fp_close(double g, double w, double rtol, double atol) {
  if (isnan(w) || isnan(g)) return isnan(w) && isnan(g);
  if (isinf(w) || isinf(g)) return g == w;
  return fabs(g - w) <= atol + rtol * fabs(w);
}

/* Compares one out; prints the first mismatch. */
static int check_out(const case_state *cs, size_t k, const out_ref *o) {
  const ptera_tensor *t = o->t;
  const ptera_tensor *w = &o->want_shape;
  if (t->dtype != w->dtype || t->dim != w->dim) {
    LOG("MISMATCH %s %s out%zu: dtype/rank %d/%d, expected %d/%d\n", cs->op, cs->id, k, t->dtype,
           t->dim, w->dtype, w->dim);
    return 0;
  }
  for (int i = 0; i < t->dim; i++)
    if (t->sizes[i] != w->sizes[i]) {
      LOG("MISMATCH %s %s out%zu: size[%d] %d, expected %d\n", cs->op, cs->id, k, i, t->sizes[i],
             w->sizes[i]);
      return 0;
    }
  int dt = t->dtype;
  const uint8_t *g = t->data;
  if (is_float_dtype(dt)) {
    double rtol, atol;
    default_tol(dt, &rtol, &atol);
    if (cs->rtol >= 0) rtol = cs->rtol;
    if (cs->atol >= 0) atol = cs->atol;
    for (size_t i = 0; i < t->numel; i++) {
      double a = elem_f(dt, g, i), b = elem_f(dt, o->want, i);
      if (!fp_close(a, b, rtol, atol)) {
        LOG("MISMATCH %s %s out%zu [%zu]: got %.17g expected %.17g (rtol %g atol %g)\n", cs->op,
               cs->id, k, i, a, b, rtol, atol);
        return 0;
      }
    }
    return 1;
  }
  size_t es = ptera_dtype_size(dt);
  for (size_t i = 0; i < t->numel; i++) {
    if (dt == PTERA_DTYPE_BOOL) {
      if ((g[i] != 0) != (o->want[i] != 0)) {
        LOG("MISMATCH %s %s out%zu [%zu]: got %d expected %d\n", cs->op, cs->id, k, i, g[i] != 0,
               o->want[i] != 0);
        return 0;
      }
    } else if (memcmp(g + i * es, o->want + i * es, es) != 0) {
      int64_t a = 0, b = 0;
      memcpy(&a, g + i * es, es < 8 ? es : 8);
      memcpy(&b, o->want + i * es, es < 8 ? es : 8);
      LOG("MISMATCH %s %s out%zu [%zu]: got bits 0x%" PRIx64 " expected 0x%" PRIx64 "\n", cs->op,
             cs->id, k, i, (uint64_t)a, (uint64_t)b);
      return 0;
    }
  }
  return 1;
}

static pt_err g_err;
static _Alignas(64) uint8_t g_temp[1 << 22];

/* Runs a parsed case; returns 1 when it passes. */
static int run_case(case_state *cs) {
  if (cs->bad) {
    LOG("MISMATCH %s %s: malformed case\n", cs->op, cs->id);
    return 0;
  }
  ptera_kernel_fn fn = ptera_kernel_find(cs->op, strlen(cs->op));
  if (!fn) return 0;
  /* The return slot. */
  ptera_value *ret;
  if (cs->ret_kind == 'O' && cs->nouts == 1) {
    ret = NULL;
    for (size_t i = 0; i < cs->nargs; i++)
      if (cs->args[i]->tag == PTERA_TAG_TENSOR && cs->args[i]->u.tensor == cs->outs[0].t) ret = cs->args[i];
    if (!ret) ret = new_value(PTERA_TAG_NONE);
  } else if (cs->ret_kind == 'O') {
    ptera_value **items = case_alloc(cs->nouts * sizeof *items);
    for (size_t i = 0; i < cs->nouts; i++) {
      items[i] = new_value(PTERA_TAG_TENSOR);
      items[i]->u.tensor = cs->outs[i].t;
    }
    ret = new_value(PTERA_TAG_LIST_TENSOR);
    ret->u.list.items = items;
    ret->u.list.len = cs->nouts;
  } else {
    ret = new_value(PTERA_TAG_NONE);
  }
  cs->args[cs->nargs] = ret;
  ptera_kernel_ctx ctx;
  pt_err_clear(&g_err);
  pr_kernel_ctx_init(&ctx, cs->op, &g_err, g_temp, sizeof g_temp);
  ptera_status st = fn(&ctx, cs->args, cs->nargs + (cs->ret_kind != 'X')); /* R X: no return slot */
  if (cs->expect_err) {
    if (st == PTERA_OK) {
      LOG("MISMATCH %s %s: expected an error status, got OK\n", cs->op, cs->id);
      return 0;
    }
    if (g_verbose) printf("  error as expected: %s\n", g_err.msg);
    return 1;
  }
  if (st != PTERA_OK) {
    LOG("MISMATCH %s %s: status %d (%s)\n", cs->op, cs->id, (int)st, g_err.msg);
    return 0;
  }
  if (cs->prop) return check_props(cs);
  for (size_t i = 0; i < cs->nouts; i++)
    if (!check_out(cs, i, &cs->outs[i])) return 0;
  if (!check_muts(cs)) return 0;
  switch (cs->ret_kind) {
    case 'I':
      if (ret->tag != PTERA_TAG_INT || ret->u.i != cs->ret_i) {
        LOG("MISMATCH %s %s: return tag %d value %" PRId64 ", expected Int %" PRId64 "\n", cs->op,
               cs->id, ret->tag, ret->tag == PTERA_TAG_INT ? ret->u.i : 0, cs->ret_i);
        return 0;
      }
      break;
    case 'B':
      if (ret->tag != PTERA_TAG_BOOL || (int64_t)ret->u.b != cs->ret_i) {
        LOG("MISMATCH %s %s: return tag %d, expected Bool %" PRId64 "\n", cs->op, cs->id, ret->tag,
               cs->ret_i);
        return 0;
      }
      break;
    case 'D':
      if (ret->tag != PTERA_TAG_DOUBLE || !fp_close(ret->u.d, cs->ret_d, 1e-12, 0)) {
        LOG("MISMATCH %s %s: return tag %d value %.17g, expected Double %.17g\n", cs->op, cs->id,
               ret->tag, ret->tag == PTERA_TAG_DOUBLE ? ret->u.d : 0.0, cs->ret_d);
        return 0;
      }
      break;
    default: break;
  }
  return 1;
}

/* ---------------------------------------------------------------- Extensions
 * (gen_misc.py): dim orders on tensor lines, in/out (mutated) tensors, and
 * property checks for ops whose outputs are random or uninitialised. */

/* An optional "DO d0 d1 ..." after a tensor line's offset. */
static void parse_dim_order(ptera_tensor *t, char **p) {
  char *save = *p;
  char *k = next_tok(p);
  if (!k || strcmp(k, "DO") != 0) {
    *p = save;
    return;
  }
  for (int i = 0; i < t->dim; i++) t->dim_order[i] = (uint8_t)tok_i(p);
}

static out_ref g_muts[MAX_OUTS];
static size_t g_nmuts;
static void muts_clear(void) { g_nmuts = 0; }

/* "want_offset dtype ndim sizes... offset": an input tensor whose data the op
 * updates in place; compared with want_offset's data after the call. */
static ptera_value *parse_mut_tensor(case_state *cs, char **p) {
  size_t want = (size_t)tok_i(p);
  ptera_value *v = parse_tensor(cs, p, 0);
  if (v->tag != PTERA_TAG_TENSOR) return v;
  ptera_tensor *t = v->u.tensor;
  if (want + t->capacity > g_data_size || g_nmuts == MAX_OUTS) {
    cs->bad = 1;
    return v;
  }
  t->dynamism = PTERA_SHAPE_DYNAMIC_BOUND;
  out_ref *o = &g_muts[g_nmuts++];
  o->t = t;
  o->want = g_data + want;
  o->want_shape = *t;
  return v;
}

static int check_muts(const case_state *cs) {
  for (size_t i = 0; i < g_nmuts; i++)
    if (!check_out(cs, MAX_OUTS + i, &g_muts[i])) return 0;
  return 1;
}

/* Shape, dtype and dim order of out k against the case's. */
static int check_shape(const case_state *cs, size_t k) {
  const ptera_tensor *t = cs->outs[k].t, *w = &cs->outs[k].want_shape;
  int ok = t->dtype == w->dtype && t->dim == w->dim;
  for (int i = 0; ok && i < t->dim; i++) ok = t->sizes[i] == w->sizes[i] && t->dim_order[i] == w->dim_order[i];
  if (!ok) LOG("MISMATCH %s %s out%zu: shape/dtype/dim order differ from the expected\n", cs->op, cs->id, k);
  return ok;
}

static int check_props(const case_state *cs) {
  for (size_t k = 0; k < cs->nouts; k++)
    if (!check_shape(cs, k)) return 0;
  const ptera_tensor *o = cs->nouts ? cs->outs[0].t : NULL;
  if (strcmp(cs->op, "aten::rand.out") == 0) {
    for (size_t i = 0; i < o->numel; i++) {
      double x = elem_f(o->dtype, o->data, i);
      if (!(x >= 0.0 && x < 1.0)) {
        LOG("MISMATCH %s %s [%zu]: %.17g outside [0, 1)\n", cs->op, cs->id, i, x);
        return 0;
      }
    }
  } else if (strcmp(cs->op, "aten::randn.out") == 0) {
    double s = 0, s2 = 0;
    for (size_t i = 0; i < o->numel; i++) {
      double x = elem_f(o->dtype, o->data, i);
      if (!isfinite(x)) {
        LOG("MISMATCH %s %s [%zu]: %g is not finite\n", cs->op, cs->id, i, x);
        return 0;
      }
      s += x;
      s2 += x * x;
    }
    if (o->numel >= 10000) {
      double m = s / (double)o->numel, sd = sqrt(s2 / (double)o->numel - m * m);
      if (fabs(m) > 0.05 || fabs(sd - 1.0) > 0.05) {
        LOG("MISMATCH %s %s: mean %g std %g, expected about 0 and 1\n", cs->op, cs->id, m, sd);
        return 0;
      }
    }
  } else if (strcmp(cs->op, "aten::native_dropout.out") == 0) {
    /* args: input, p, train; outs: out0, mask */
    const ptera_tensor *in = cs->args[0]->u.tensor, *mask = cs->outs[1].t;
    double p = cs->args[1]->u.d;
    int train = !(cs->args[2]->tag == PTERA_TAG_BOOL && !cs->args[2]->u.b);
    double rtol, atol;
    default_tol(o->dtype, &rtol, &atol);
    size_t kept = 0;
    for (size_t i = 0; i < o->numel; i++) {
      int m = ((const uint8_t *)mask->data)[i] != 0;
      double x = elem_f(in->dtype, in->data, i), y = elem_f(o->dtype, o->data, i);
      double want = !train ? x : m ? x / (1.0 - p) : 0.0;
      int bad = !fp_close(y, want, rtol, atol) || (!train && !m) || (train && p == 0.0 && !m) ||
                (train && p == 1.0 && m);
      if (bad) {
        LOG("MISMATCH %s %s [%zu]: x %.17g out %.17g mask %d (p %g train %d)\n", cs->op, cs->id, i, x, y, m,
            p, train);
        return 0;
      }
      kept += (size_t)m;
    }
    if (train && o->numel >= 2000 && fabs((double)kept / (double)o->numel - (1.0 - p)) > 0.05) {
      LOG("MISMATCH %s %s: kept %zu of %zu with p %g\n", cs->op, cs->id, kept, o->numel, p);
      return 0;
    }
  }
  /* aten::empty.out, dim_order_ops::_empty_dim_order.out: shape and dtype only */
  return 1;
}

static uint8_t *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *d = malloc(n > 0 ? (size_t)n : 1);
  if (!d || (n > 0 && fread(d, 1, (size_t)n, f) != (size_t)n)) {
    fclose(f);
    free(d);
    return NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return d;
}

static void dtype_list(uint32_t mask, char *buf, size_t cap) {
  buf[0] = 0;
  size_t used = 0;
  for (int d = 0; d < 30; d++)
    if (mask & (1u << d)) {
      int n = snprintf(buf + used, cap - used, "%s%s", used ? "," : "", ptera_dtype_name(d));
      if (n < 0 || (size_t)n >= cap - used) break;
      used += (size_t)n;
    }
  if (!used) snprintf(buf, cap, "-");
}

/* The coverage report over ops_list.txt; returns how many listed ops exist. */
static void report(const char *ops_list, int *total, int *implemented, int *covered) {
  FILE *f = fopen(ops_list, "r");
  *total = *implemented = *covered = 0;
  printf("\n==== conformance coverage (OPS.md sections 1-3) ====\n");
  printf("%-58s %-5s %-7s %-7s %-6s %-28s\n", "op", "impl", "passed", "failed", "known", "dtypes");
  if (!f) {
    printf("cannot open %s\n", ops_list);
    return;
  }
  char line[512];
  while (fgets(line, sizeof line, f)) {
    char *p = line;
    char *name = next_tok(&p);
    if (!name || name[0] == '#') continue;
    if (name[0] == '[') {
      printf("%s\n", name);
      continue;
    }
    (*total)++;
    int impl = ptera_kernel_find(name, strlen(name)) != NULL;
    *implemented += impl;
    op_stat *s = NULL;
    for (int i = 0; i < g_nops; i++)
      if (strcmp(g_ops[i].name, name) == 0) s = &g_ops[i];
    char dts[256];
    dtype_list(s ? s->dtypes : 0, dts, sizeof dts);
    if (s && s->pass + s->fail + s->known_fail + s->known_pass > 0) (*covered)++;
    printf("%-58s %-5s %-7d %-7d %-6d %s\n", name, impl ? "yes" : "NO", s ? s->pass : 0, s ? s->fail : 0,
           s ? s->known_fail + s->known_pass : 0, dts);
  }
  fclose(f);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s CASE_DIR OPS_LIST [--report-only] [--verbose] [--strict]\n", argv[0]);
    return 2;
  }
  int report_only = 0, strict = 0;
  for (int i = 3; i < argc; i++) {
    if (strcmp(argv[i], "--strict") == 0) strict = 1;
    if (strcmp(argv[i], "--report-only") == 0) report_only = 1;
    if (strcmp(argv[i], "--verbose") == 0) g_verbose = 1;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/data.bin", argv[1]);
  g_data = read_file(path, &g_data_size);
  if (!g_data) {
    fprintf(stderr, "cannot read %s\n", path);
    return 2;
  }
  snprintf(path, sizeof path, "%s/cases.txt", argv[1]);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "cannot read %s\n", path);
    return 2;
  }
  g_quiet = report_only;
  static char line[1 << 20];
  static case_state cs;
  int in_case = 0, ncases = 0, nfail = 0, nknown = 0, nmissing = 0;
  while (fgets(line, sizeof line, f)) {
    char *p = line;
    char *k = next_tok(&p);
    if (!k) continue;
    if (strcmp(k, "C") == 0) {
      memset(&cs, 0, sizeof cs);
      cs.first_dtype = -1;
      cs.ret_kind = 'N';
      snprintf(cs.op, sizeof cs.op, "%s", next_tok(&p));
      snprintf(cs.id, sizeof cs.id, "%s", next_tok(&p));
      char *e = next_tok(&p);
      cs.expect_err = e && strcmp(e, "err") == 0;
      cs.prop = e && strcmp(e, "prop") == 0;
      cs.known = (int)tok_i(&p);
      cs.rtol = tok_d(&p);
      cs.atol = tok_d(&p);
      in_case = 1;
    } else if (!in_case) {
      continue;
    } else if (strcmp(k, "A") == 0) {
      parse_arg(&cs, p, f);
    } else if (strcmp(k, "R") == 0) {
      char *r = next_tok(&p);
      cs.ret_kind = r ? r[0] : 'N';
      if (cs.ret_kind == 'I' || cs.ret_kind == 'B') cs.ret_i = tok_i(&p);
      if (cs.ret_kind == 'D') cs.ret_d = tok_d(&p);
    } else if (strcmp(k, "E") == 0) {
      in_case = 0;
      ncases++;
      op_stat *s = stat_for(cs.op);
      if (cs.first_dtype >= 0) s->dtypes |= 1u << cs.first_dtype;
      if (cs.expect_err) s->err_cases++;
      if (!ptera_kernel_find(cs.op, strlen(cs.op))) {
        nmissing++;
        case_free();
        continue;
      }
      int ok = run_case(&cs);
      if (cs.known) {
        if (ok) s->known_pass++; else s->known_fail++;
        nknown++;
      } else if (ok) {
        s->pass++;
      } else {
        s->fail++;
        nfail++;
      }
      if (g_verbose) printf("%s %s %s\n", ok ? "PASS" : "FAIL", cs.op, cs.id);
      case_free();
    }
  }
  fclose(f);
  if (!report_only) {
    printf("\n==== conformance per-op results ====\n");
    for (int i = 0; i < g_nops; i++) {
      op_stat *s = &g_ops[i];
      int impl = ptera_kernel_find(s->name, strlen(s->name)) != NULL;
      printf("%-58s %s pass %d fail %d known-fail %d%s\n", s->name, impl ? "   " : "(not implemented)",
             s->pass, s->fail, s->known_fail,
             s->known_pass ? " (known-fail cases that now pass: update gen.py)" : "");
    }
  }
  int total, implemented, covered;
  report(argv[2], &total, &implemented, &covered);
  printf("\nops listed: %d, implemented: %d, with conformance cases: %d\n", total, implemented, covered);
  printf("cases: %d, failed: %d, known-fail: %d, skipped (op not implemented): %d\n", ncases, nfail,
         nknown, nmissing);
  free(g_data);
  if (ncases == 0) {
    printf("FAIL: no cases\n");
    return 1;
  }
  if (strict && (nmissing || implemented != total || covered != total)) {
    printf("FAIL (--strict): every listed op needs a kernel and cases\n");
    return 1;
  }
  return nfail ? 1 : 0;
}
