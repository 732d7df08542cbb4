/* Bundled program (.bpte, BP08) reader (BUNDLED.md). The whole structure is
 * verified and copied into arena memory; tensor data and the embedded
 * program stay in the file and are bounds-checked. */
#include "format/bpte.h"

#include "format/flatbuf.h"

/* BundledProgram: 0 version, 1 method_test_suites, 2 program. */
enum { BP_VERSION = 0, BP_SUITES = 1, BP_PROGRAM = 2 };
/* BundledMethodTestSuite: 0 method_name, 1 test_cases. */
enum { BS_NAME = 0, BS_CASES = 1 };
/* BundledMethodTestCase: 0 inputs, 1 expected_outputs. */
enum { BC_INPUTS = 0, BC_OUTPUTS = 1 };
/* Value: 0 val_type, 1 val. */
enum { BV_TYPE = 0 };
/* Tensor: 0 scalar_type, 1 sizes, 2 data, 3 dim_order. Int/Bool/Double: 0. */
enum { BT_SCALAR_TYPE = 0, BT_SIZES = 1, BT_DATA = 2, BT_DIM_ORDER = 3 };

typedef struct bpte_ctx {
  pf_fb fb;
  pt_arena *arena;
  pt_err *err;
  /* Where we are, for messages. */
  const char *method;
  uint32_t suite, tcase, index;
  const char *list; /* "input" / "expected output" */
} bpte_ctx;

static ptera_status bpte_where_fail(bpte_ctx *c, const char *fmt_what) {
  return pf_fb_error(&c->fb, c->err, PTERA_INVALID_PROGRAM,
                     "bpte: method '%.100s' test case %u %s %u: %s", c->method ? c->method : "?",
                     (unsigned)c->tcase, c->list, (unsigned)c->index, fmt_what);
}

static ptera_status bpte_sem_fail(bpte_ctx *c, const char *what, long long a, long long b) {
  return pt_fail(c->err, PTERA_INVALID_PROGRAM,
                 "bpte: method '%.100s' test case %u %s %u: %s (%lld, %lld)",
                 c->method ? c->method : "?", (unsigned)c->tcase, c->list, (unsigned)c->index,
                 what, a, b);
}

int pf_bpte_identify(const uint8_t *data, size_t size) {
  return pf_fb_has_ident(data, size, "BP08") ? 1 : 0;
}

static ptera_status bpte_tensor(bpte_ctx *c, const pf_fb_table *t, pf_bvalue *v) {
  uint8_t st;
  pf_fb_vec sizes, data, order;
  if (!pf_fb_u8(&c->fb, t, BT_SCALAR_TYPE, 0, &st)) return bpte_where_fail(c, "tensor scalar_type");
  if (!pf_fb_vec_field(&c->fb, t, BT_SIZES, 4, &sizes)) return bpte_where_fail(c, "tensor sizes");
  if (!pf_fb_vec_field(&c->fb, t, BT_DATA, 1, &data)) return bpte_where_fail(c, "tensor data");
  if (!pf_fb_vec_field(&c->fb, t, BT_DIM_ORDER, 1, &order))
    return bpte_where_fail(c, "tensor dim_order");
  if (st >= PTERA_DTYPE_COUNT) return bpte_sem_fail(c, "invalid scalar type", st, 0);
  if (!sizes.present) return bpte_sem_fail(c, "tensor has no sizes", 0, 0);
  if (sizes.count > PTERA_MAX_DIM)
    return bpte_sem_fail(c, "tensor rank exceeds the maximum", sizes.count, PTERA_MAX_DIM);
  /* dim_order absent (older writers): contiguous. Present: a permutation
   * of 0..rank-1. */
  if (order.present && order.count != sizes.count)
    return bpte_sem_fail(c, "dim_order length differs from the rank", order.count, sizes.count);
  v->scalar_type = st;
  v->dim = (uint8_t)sizes.count;
  uint64_t numel = 1;
  bool overflow = false;
  unsigned seen = 0;
  for (uint32_t i = 0; i < sizes.count; i++) {
    int32_t s = pf_fb_vec_i32(&c->fb, &sizes, i);
    if (s < 0) return bpte_sem_fail(c, "negative tensor size (dim, size)", i, s);
    v->sizes[i] = s;
    if (!pt_mul_u64(numel, (uint64_t)s, &numel)) overflow = true;
    uint8_t d = order.present ? pf_fb_vec_u8(&c->fb, &order, i) : (uint8_t)i;
    if (d >= sizes.count || (seen & (1u << d)))
      return bpte_sem_fail(c, "dim_order is not a permutation (position, entry)", i, d);
    seen |= 1u << d;
    v->dim_order[i] = d;
  }
  if (overflow || !pt_mul_u64(numel, ptera_dtype_size(st), &v->nbytes))
    return bpte_sem_fail(c, "tensor byte size overflows", 0, 0);
  uint64_t have = data.present ? data.count : 0;
  if (have < v->nbytes)
    return bpte_sem_fail(c, "tensor data is shorter than numel * element size (have, need)",
                         (long long)have, (long long)v->nbytes);
  v->data.ptr = data.present ? pf_fb_vec_data(&c->fb, &data) : NULL;
  v->data.len = have;
  return PTERA_OK;
}

static ptera_status bpte_value(bpte_ctx *c, const pf_fb_table *t, pf_bvalue *v) {
  uint8_t type;
  pf_fb_table val;
  if (!pf_fb_union_field(&c->fb, t, BV_TYPE, PF_BVAL_DOUBLE, &type, &val))
    return bpte_where_fail(c, "value");
  if (type == 0) return bpte_sem_fail(c, "value has no type", 0, 0);
  if (!val.present) return bpte_sem_fail(c, "value has a type but no value (type)", type, 0);
  v->type = type;
  switch (type) {
    case PF_BVAL_TENSOR: return bpte_tensor(c, &val, v);
    case PF_BVAL_INT:
      if (!pf_fb_i64(&c->fb, &val, 0, 0, &v->i)) return bpte_where_fail(c, "int value");
      return PTERA_OK;
    case PF_BVAL_BOOL:
      if (!pf_fb_bool(&c->fb, &val, 0, false, &v->b)) return bpte_where_fail(c, "bool value");
      return PTERA_OK;
    default:
      if (!pf_fb_f64(&c->fb, &val, 0, 0.0, &v->d)) return bpte_where_fail(c, "double value");
      return PTERA_OK;
  }
}

static ptera_status bpte_values(bpte_ctx *c, const pf_fb_table *tc, unsigned field,
                                const char *list, pf_bvalue **out, uint32_t *n) {
  pf_fb_vec vec;
  c->list = list;
  c->index = 0;
  if (!pf_fb_vec_field(&c->fb, tc, field, 4, &vec)) return bpte_where_fail(c, "list");
  *n = 0;
  *out = NULL;
  if (!vec.count) return PTERA_OK;
  *out = pt_arena_array(c->arena, vec.count, sizeof(pf_bvalue), 8);
  if (!*out)
    return pt_fail(c->err, PTERA_MEMORY_ALLOCATION_FAILED, "bpte: out of memory for %u values",
                   (unsigned)vec.count);
  for (uint32_t i = 0; i < vec.count; i++) {
    pf_fb_table t;
    c->index = i;
    if (!pf_fb_vec_table(&c->fb, &vec, i, &t)) return bpte_where_fail(c, "value table");
    ptera_status st = bpte_value(c, &t, &(*out)[i]);
    if (st != PTERA_OK) return st;
  }
  *n = vec.count;
  return PTERA_OK;
}

static ptera_status bpte_suite(bpte_ctx *c, const pf_fb_table *t, pf_bsuite *s) {
  pf_fb_str name;
  pf_fb_vec cases;
  if (!pf_fb_str_field(&c->fb, t, BS_NAME, &name))
    return pf_fb_error(&c->fb, c->err, PTERA_INVALID_PROGRAM, "bpte: test suite %u method_name",
                       (unsigned)c->suite);
  if (!name.ptr)
    return pt_fail(c->err, PTERA_INVALID_PROGRAM, "bpte: test suite %u has no method_name",
                   (unsigned)c->suite);
  s->method.ptr = name.ptr;
  s->method.len = name.len;
  c->method = name.ptr;
  if (!pf_fb_vec_field(&c->fb, t, BS_CASES, 4, &cases))
    return pf_fb_error(&c->fb, c->err, PTERA_INVALID_PROGRAM, "bpte: method '%.100s' test_cases",
                       name.ptr);
  if (!cases.count) return PTERA_OK;
  s->cases = pt_arena_array(c->arena, cases.count, sizeof(pf_bcase), 8);
  if (!s->cases)
    return pt_fail(c->err, PTERA_MEMORY_ALLOCATION_FAILED, "bpte: out of memory for %u cases",
                   (unsigned)cases.count);
  for (uint32_t i = 0; i < cases.count; i++) {
    pf_fb_table tc;
    c->tcase = i;
    if (!pf_fb_vec_table(&c->fb, &cases, i, &tc))
      return pf_fb_error(&c->fb, c->err, PTERA_INVALID_PROGRAM,
                         "bpte: method '%.100s' test case %u", name.ptr, (unsigned)i);
    pf_bcase *bc = &s->cases[i];
    ptera_status st = bpte_values(c, &tc, BC_INPUTS, "input", &bc->inputs, &bc->ninputs);
    if (st != PTERA_OK) return st;
    st = bpte_values(c, &tc, BC_OUTPUTS, "expected output", &bc->outputs, &bc->noutputs);
    if (st != PTERA_OK) return st;
  }
  s->ncases = cases.count;
  return PTERA_OK;
}

ptera_status pf_bpte_parse(const uint8_t *data, uint64_t size, pt_arena *arena, pf_bpte *out,
                           pt_err *err) {
  if (!out || !arena) return pt_fail(err, PTERA_INVALID_ARGUMENT, "bpte: missing arena or output");
  memset(out, 0, sizeof *out);
  if (!data || size < 8)
    return pt_fail(err, PTERA_INVALID_PROGRAM, "bpte: file too small (%llu bytes)",
                   (unsigned long long)size);
  if (!pf_bpte_identify(data, (size_t)size))
    return pt_fail(err, PTERA_INVALID_PROGRAM,
                   "bpte: file identifier is not BP08 (found bytes %02x %02x %02x %02x)", data[4],
                   data[5], data[6], data[7]);
  bpte_ctx c;
  memset(&c, 0, sizeof c);
  c.arena = arena;
  c.err = err;
  pf_fb_table root;
  if (!pf_fb_init(&c.fb, data, size) || !pf_fb_root(&c.fb, &root))
    return pf_fb_error(&c.fb, err, PTERA_INVALID_PROGRAM, "bpte: BundledProgram root");
  pf_fb_vec prog, suites;
  if (!pf_fb_u32(&c.fb, &root, BP_VERSION, 0, &out->version))
    return pf_fb_error(&c.fb, err, PTERA_INVALID_PROGRAM, "bpte: version");
  if (!pf_fb_vec_field(&c.fb, &root, BP_PROGRAM, 1, &prog))
    return pf_fb_error(&c.fb, err, PTERA_INVALID_PROGRAM, "bpte: program");
  if (!prog.present || prog.count == 0)
    return pt_fail(err, PTERA_INVALID_PROGRAM, "bpte: no embedded program");
  out->program.ptr = pf_fb_vec_data(&c.fb, &prog);
  out->program.len = prog.count;
  if (!pf_fb_vec_field(&c.fb, &root, BP_SUITES, 4, &suites))
    return pf_fb_error(&c.fb, err, PTERA_INVALID_PROGRAM, "bpte: method_test_suites");
  if (suites.count) {
    out->suites = pt_arena_array(arena, suites.count, sizeof(pf_bsuite), 8);
    if (!out->suites)
      return pt_fail(err, PTERA_MEMORY_ALLOCATION_FAILED, "bpte: out of memory for %u suites",
                     (unsigned)suites.count);
  }
  for (uint32_t i = 0; i < suites.count; i++) {
    pf_fb_table t;
    c.suite = i;
    c.method = NULL;
    if (!pf_fb_vec_table(&c.fb, &suites, i, &t))
      return pf_fb_error(&c.fb, err, PTERA_INVALID_PROGRAM, "bpte: test suite %u", (unsigned)i);
    ptera_status st = bpte_suite(&c, &t, &out->suites[i]);
    if (st != PTERA_OK) return st;
  }
  out->nsuites = suites.count;
  return PTERA_OK;
}
