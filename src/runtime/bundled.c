/* Bundled programs: load, bind test inputs, verify outputs (BUNDLED.md §3). */
#include <math.h>

#include "format/bpte.h"
#include "ptera/bundled.h"
#include "runtime/runtime.h"

struct ptera_bundled {
  const ptera_allocator *allocator;
  pt_err err;
  pt_arena arena;
  pr_bytes bytes;
  pf_bpte bpte;
  ptera_program *program;
};

ptera_status ptera_bundled_load_file(const char *path, const ptera_load_options *options,
                                     ptera_bundled **out) {
  if (!out) return PTERA_INVALID_ARGUMENT;
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  pt_err err = {PTERA_OK, ""};
  ptera_status st = options ? pt_struct_in(&o, sizeof o, options, PR_LOAD_OPTIONS_V1_SIZE,
                                           "ptera_load_options", &err)
                            : PTERA_OK;
  const ptera_allocator *a = o.allocator;
  ptera_bundled *b = pt_calloc(a, 1, sizeof *b, 16);
  *out = b;
  if (!b) return PTERA_MEMORY_ALLOCATION_FAILED;
  b->allocator = a;
  b->err = err;
  pt_arena_init(&b->arena, a);
  if (st != PTERA_OK) return st;
  uint64_t max = o.max_file_size ? o.max_file_size : PTERA_DEFAULT_MAX_FILE_SIZE;
  if (!path) return pt_fail(&b->err, PTERA_INVALID_ARGUMENT, "no path given");
  st = pr_bytes_map_file(&b->bytes, path, max, a, &b->err);
  if (st != PTERA_OK) return st;
  st = pf_bpte_parse(b->bytes.data, b->bytes.size, &b->arena, &b->bpte, &b->err);
  if (st != PTERA_OK) return st;
  st = ptera_program_load_buffer(b->bpte.program.ptr, (size_t)b->bpte.program.len, options,
                                 &b->program);
  if (st != PTERA_OK)
    return pt_fail(&b->err, st, "embedded program: %s", ptera_program_errmsg(b->program));
  return PTERA_OK;
}

void ptera_bundled_destroy(ptera_bundled *b) {
  if (!b) return;
  ptera_program_destroy(b->program);
  pr_bytes_release(&b->bytes);
  pt_arena_release(&b->arena);
  pt_free(b->allocator, b);
}

const char *ptera_bundled_errmsg(const ptera_bundled *b) { return b ? b->err.msg : "out of memory"; }

ptera_program *ptera_bundled_program(ptera_bundled *b) { return b ? b->program : NULL; }

size_t ptera_bundled_suite_count(const ptera_bundled *b) {
  return b && b->program ? b->bpte.nsuites : 0;
}

const char *ptera_bundled_suite_method(const ptera_bundled *b, size_t suite) {
  return suite < ptera_bundled_suite_count(b) ? b->bpte.suites[suite].method.ptr : NULL;
}

size_t ptera_bundled_case_count(const ptera_bundled *b, size_t suite) {
  return suite < ptera_bundled_suite_count(b) ? b->bpte.suites[suite].ncases : 0;
}

static const pf_bcase *find_case(ptera_bundled *b, const ptera_method *m, size_t suite,
                                 size_t test_case) {
  if (suite >= ptera_bundled_suite_count(b) || test_case >= b->bpte.suites[suite].ncases) {
    pt_fail(&b->err, PTERA_INVALID_ARGUMENT, "no test case %zu in suite %zu", test_case, suite);
    return NULL;
  }
  const pf_bsuite *s = &b->bpte.suites[suite];
  if (!m || !m->initialized || strcmp(m->plan->name.ptr, s->method.ptr) != 0) {
    pt_fail(&b->err, PTERA_INVALID_ARGUMENT, "suite %zu tests method '%s'; give a method of that name",
            suite, s->method.ptr);
    return NULL;
  }
  return &s->cases[test_case];
}

ptera_status ptera_bundled_set_inputs(ptera_bundled *b, ptera_method *m, size_t suite,
                                      size_t test_case) {
  if (!b) return PTERA_INVALID_ARGUMENT;
  const pf_bcase *c = find_case(b, m, suite, test_case);
  if (!c) return b->err.status;
  if (c->ninputs != m->plan->ninputs)
    return pt_fail(&b->err, PTERA_INVALID_ARGUMENT, "test case has %u inputs, the method takes %u",
                   c->ninputs, m->plan->ninputs);
  for (uint32_t i = 0; i < c->ninputs; i++) {
    const pf_bvalue *v = &c->inputs[i];
    ptera_status st;
    switch (v->type) {
      case PF_BVAL_TENSOR:
        st = ptera_method_set_input_tensor(m, i, (ptera_dtype)v->scalar_type, v->dim, v->sizes,
                                           v->data.ptr, (size_t)v->nbytes);
        break;
      case PF_BVAL_INT: st = ptera_method_set_input_int(m, i, v->i); break;
      case PF_BVAL_BOOL: st = ptera_method_set_input_bool(m, i, v->b); break;
      case PF_BVAL_DOUBLE: st = ptera_method_set_input_double(m, i, v->d); break;
      default: st = PTERA_NOT_SUPPORTED;
    }
    if (st != PTERA_OK)
      return pt_fail(&b->err, st, "test case %zu input %u: %s", test_case, i,
                     ptera_method_errmsg(m));
  }
  return PTERA_OK;
}

static double element(int dtype, const uint8_t *p, size_t i) {
  if (dtype == PTERA_DTYPE_FLOAT) {
    float f;
    memcpy(&f, p + 4 * i, 4);
    return f;
  }
  if (dtype == PTERA_DTYPE_DOUBLE) {
    double d;
    memcpy(&d, p + 8 * i, 8);
    return d;
  }
  uint16_t h;
  memcpy(&h, p + 2 * i, 2);
  return dtype == PTERA_DTYPE_HALF ? pt_half_to_float(h) : pt_bf16_to_float(h);
}

static bool close_enough(double e, double o, double rtol, double atol) {
  if (isnan(e) || isnan(o)) return isnan(e) && isnan(o);
  if (isinf(e) || isinf(o)) return e == o;
  if (rtol == 0 && atol == 0) return e == o;
  double diff = fabs(e - o);
  return isfinite(diff) && diff <= atol + rtol * fabs(o);
}

static ptera_status compare(ptera_bundled *b, uint32_t k, const pf_bvalue *e, const ptera_tensor *t,
                            double rtol, double atol) {
  if (e->scalar_type != t->dtype || e->dim != t->dim ||
      memcmp(e->sizes, t->sizes, sizeof(int32_t) * t->dim) != 0)
    return pt_fail(&b->err, PTERA_NOT_FOUND, "output %u: expected %s of rank %u, got %s of rank %u",
                   k, ptera_dtype_name(e->scalar_type), e->dim, ptera_dtype_name(t->dtype), t->dim);
  for (uint8_t d = 0; d < t->dim; d++)
    if (e->dim_order[d] != t->dim_order[d])
      return pt_fail(&b->err, PTERA_NOT_SUPPORTED, "output %u: expected data is in another dim order", k);
  size_t n = ptera_tensor_nbytes(t);
  if (n == 0) return PTERA_OK;
  const uint8_t *o = t->data;
  /* A program can free its own output (a FREE instruction) or leave an
   * unplanned one unbound. */
  if (!o)
    return pt_fail(&b->err, PTERA_INVALID_STATE, "output %u has no data to compare", k);
  bool floating = t->dtype == PTERA_DTYPE_FLOAT || t->dtype == PTERA_DTYPE_DOUBLE ||
                  t->dtype == PTERA_DTYPE_HALF || t->dtype == PTERA_DTYPE_BFLOAT16;
  if (!floating) {
    if (memcmp(e->data.ptr, o, n) != 0)
      return pt_fail(&b->err, PTERA_NOT_FOUND, "output %u differs from the expected bytes", k);
    return PTERA_OK;
  }
  for (size_t i = 0; i < t->numel; i++) {
    double x = element(t->dtype, e->data.ptr, i), y = element(t->dtype, o, i);
    if (!close_enough(x, y, rtol, atol))
      return pt_fail(&b->err, PTERA_NOT_FOUND, "output %u element %zu: expected %.9g, got %.9g", k,
                     i, x, y);
  }
  return PTERA_OK;
}

ptera_status ptera_bundled_verify(ptera_bundled *b, const ptera_method *m, size_t suite,
                                  size_t test_case, double rtol, double atol) {
  if (!b) return PTERA_INVALID_ARGUMENT;
  const pf_bcase *c = find_case(b, m, suite, test_case);
  if (!c) return b->err.status;
  if (c->noutputs == 0)
    return pt_fail(&b->err, PTERA_NOT_SUPPORTED, "test case %zu has no expected outputs", test_case);
  if (c->noutputs != m->plan->noutputs)
    return pt_fail(&b->err, PTERA_NOT_FOUND, "test case has %u expected outputs, the method has %u",
                   c->noutputs, m->plan->noutputs);
  for (uint32_t k = 0; k < c->noutputs; k++) {
    const ptera_value *v = &m->values[m->plan->outputs[k]];
    if (c->outputs[k].type != PF_BVAL_TENSOR || v->tag != PTERA_TAG_TENSOR)
      return pt_fail(&b->err, PTERA_NOT_SUPPORTED, "output %u: only tensor outputs can be verified", k);
    ptera_status st = compare(b, k, &c->outputs[k], v->u.tensor, rtol, atol);
    if (st != PTERA_OK) return st;
  }
  return PTERA_OK;
}
