/* See emit_util.h. */
#include "emit_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

size_t eu_live, eu_calls, eu_fail_at;

static void *eu_alloc(void *ud, size_t size, size_t align) {
  (void)ud;
  eu_calls++;
  if (eu_fail_at && eu_calls == eu_fail_at) return NULL;
  if (align < 16) align = 16;
  void *p = aligned_alloc(align, (size + align - 1) & ~(align - 1));
  if (p) eu_live++;
  return p;
}

static void eu_free(void *ud, void *p) {
  (void)ud;
  if (p) eu_live--;
  free(p);
}

const ptera_allocator eu_tracking = {eu_alloc, eu_free, NULL};

void eu_alloc_failures(const pc_program *desc, size_t min_failures) {
  pc_emit_options opt = {&eu_tracking, 0, 0};
  size_t failures = 0;
  for (size_t n = 1; n < 1000; n++) {
    eu_live = eu_calls = 0;
    eu_fail_at = n;
    uint8_t *file = NULL;
    size_t size = 0;
    pt_err err;
    ptera_status st = pc_emit_pte(desc, &opt, &file, &size, &err);
    if (st == PTERA_OK) {
      CHECK(file != NULL && eu_live == 1);
      pt_free(&eu_tracking, file);
      CHECK(eu_live == 0);
      break;
    }
    failures++;
    CHECK(st == PTERA_MEMORY_ALLOCATION_FAILED && err.status == st && file == NULL && size == 0 &&
          eu_live == 0);
  }
  CHECK(failures >= min_failures);
  eu_fail_at = 0;
}

size_t eu_load_failures(const uint8_t *file, size_t size, const char *needle, int *in_message,
                        void (*run)(ptera_method *m, void *user), void *user) {
  ptera_load_options lo = PTERA_LOAD_OPTIONS_INIT;
  lo.allocator = &eu_tracking;
  size_t failures = 0;
  *in_message = 0;
  for (size_t n = 1; n < 10000; n++) {
    eu_live = eu_calls = 0;
    eu_fail_at = n;
    ptera_program *p = NULL;
    ptera_method *m = NULL;
    ptera_status st = ptera_program_load_buffer(file, size, &lo, &p);
    if (st == PTERA_OK) {
      st = ptera_method_create(p, "forward", NULL, &m);
      if (st != PTERA_OK && m && strstr(ptera_method_errmsg(m), needle)) ++*in_message;
      if (st != PTERA_OK) CHECK(m == NULL || ptera_method_errmsg(m)[0]);
    }
    bool done = st == PTERA_OK;
    if (done) {
      eu_fail_at = 0;
      run(m, user);
    } else {
      failures++;
      CHECK(st == PTERA_MEMORY_ALLOCATION_FAILED);
    }
    ptera_method_destroy(m);
    ptera_program_destroy(p);
    CHECK(eu_live == 0);
    if (done) break;
  }
  eu_fail_at = 0;
  return failures;
}

pc_value eu_int(int64_t i) {
  pc_value v;
  memset(&v, 0, sizeof v);
  v.kind = PC_VAL_INT;
  v.u.i = i;
  return v;
}

pc_value eu_tensor_f(pc_storage storage, uint8_t dim, const int32_t *sizes) {
  pc_value v;
  memset(&v, 0, sizeof v);
  v.kind = PC_VAL_TENSOR;
  v.u.tensor.scalar_type = PTERA_DTYPE_FLOAT;
  v.u.tensor.dim = dim;
  for (uint8_t d = 0; d < dim; d++) v.u.tensor.sizes[d] = sizes[d];
  v.u.tensor.storage = storage;
  return v;
}

pc_value eu_f3(pc_storage storage, const float *data, uint64_t offset) {
  static const int32_t s3[1] = {3};
  pc_value v = eu_tensor_f(storage, 1, s3);
  if (storage == PC_STORAGE_CONST) {
    v.u.tensor.data = data;
    v.u.tensor.nbytes = 12;
  } else if (storage == PC_STORAGE_PLANNED) {
    v.u.tensor.memory_id = 1;
    v.u.tensor.memory_offset = offset;
    if (data) {
      v.u.tensor.initial = data;
      v.u.tensor.initial_nbytes = 12;
    }
  }
  return v;
}

uint8_t *eu_emit(const pc_program *desc, const pc_emit_options *opt, size_t *size) {
  uint8_t *file = NULL;
  pt_err err;
  pt_err_clear(&err);
  ptera_status st = pc_emit_pte(desc, opt, &file, size, &err);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) {
    fprintf(stderr, "emit: %s\n", err.msg);
    return NULL;
  }
  return file;
}

bool eu_parse(const uint8_t *file, size_t size, pt_arena *arena, pf_pte *pte) {
  pt_err err;
  pt_err_clear(&err);
  ptera_status st = pf_pte_parse(file, size, arena, pte, &err);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) fprintf(stderr, "parse: %s\n", err.msg);
  return st == PTERA_OK;
}

ptera_program *eu_load(const uint8_t *file, size_t size) {
  ptera_program *prog = NULL;
  ptera_status st = ptera_program_load_buffer(file, size, NULL, &prog);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) {
    if (prog) fprintf(stderr, "load: %s\n", ptera_program_errmsg(prog));
    ptera_program_destroy(prog);
    return NULL;
  }
  return prog;
}

ptera_method *eu_open_forward(ptera_program *prog) {
  ptera_method *m = NULL;
  ptera_status st = ptera_method_create(prog, "forward", NULL, &m);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) {
    if (m) fprintf(stderr, "method: %s\n", ptera_method_errmsg(m));
    ptera_method_destroy(m);
    return NULL;
  }
  return m;
}

void eu_check_f3(const ptera_value *v, float a, float b, float c) {
  CHECK(v && v->tag == PTERA_TAG_TENSOR && v->u.tensor->numel == 3);
  if (v && v->tag == PTERA_TAG_TENSOR && v->u.tensor->numel == 3) {
    const float *d = v->u.tensor->data;
    CHECK(d[0] == a && d[1] == b && d[2] == c);
    if (!(d[0] == a && d[1] == b && d[2] == c))
      fprintf(stderr, "got {%g, %g, %g}, want {%g, %g, %g}\n", d[0], d[1], d[2], a, b, c);
  }
}

void eu_exec_x(ptera_method *m, const float *x, float a, float b, float c) {
  const int32_t sizes[1] = {3};
  CHECK(ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 1, sizes, x, 12) == PTERA_OK);
  CHECK(ptera_method_execute(m) == PTERA_OK);
  eu_check_f3(ptera_method_output(m, 0), a, b, c);
}

void eu_run_x(ptera_program *prog, const float *x, float a, float b, float c) {
  ptera_method *m = eu_open_forward(prog);
  if (!m) return;
  eu_exec_x(m, x, a, b, c);
  ptera_method_destroy(m);
}

size_t eu_up64(size_t n) { return (n + 63) & ~(size_t)63; }

pc_value eu_planned_f(int dim, const int32_t *sizes, uint64_t offset) {
  pc_value v = eu_tensor_f(PC_STORAGE_PLANNED, (uint8_t)dim, sizes);
  v.u.tensor.memory_id = 1;
  v.u.tensor.memory_offset = offset;
  return v;
}

uint32_t eu_rand_u32(uint32_t *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

float eu_frand(uint32_t *state, float lo, float hi) {
  return lo + (hi - lo) * (float)(eu_rand_u32(state) & 0xffff) / 65536.0f;
}

int eu_irand(uint32_t *state, int lo, int hi) { return lo + (int)(eu_rand_u32(state) % (uint32_t)(hi - lo + 1)); }
