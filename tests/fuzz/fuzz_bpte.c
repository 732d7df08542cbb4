/* Fuzzes the bundled program (.bpte) reader: pf_bpte_parse, every test
 * value it returns, then a load of the embedded program through the public
 * API (as ptera_bundled_load_file does). */
#include "format/bpte.h"
#include "fuzz.h"
#include "ptera/ptera.h"

static void check_bvalue(const pf_bvalue *v) {
  FZ_REQUIRE(v->type >= PF_BVAL_TENSOR && v->type <= PF_BVAL_DOUBLE);
  if (v->type != PF_BVAL_TENSOR) return;
  FZ_REQUIRE(v->dim <= PTERA_MAX_DIM);
  FZ_REQUIRE(v->scalar_type < PTERA_DTYPE_COUNT);
  for (unsigned d = 0; d < v->dim; d++) FZ_REQUIRE(v->sizes[d] >= 0);
  FZ_REQUIRE(v->data.len >= v->nbytes);
  fz_touch(v->data.ptr, v->data.len);
}

int ptera_fuzz_bpte(const uint8_t *data, size_t size) {
  uint8_t *buf = fz_aligned_copy(data, size);
  if (!buf) return 0;
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_bpte b;
  pt_err err;
  pt_err_clear(&err);
  ptera_status st = pf_bpte_parse(buf, size, &arena, &b, &err);
  if (st != PTERA_OK) {
    FZ_REQUIRE(err.msg[0] != '\0');
  } else {
    fz_touch(b.program.ptr, b.program.len);
    for (uint32_t s = 0; s < b.nsuites; s++) {
      const pf_bsuite *su = &b.suites[s];
      fz_str(su->method.ptr, su->method.len);
      for (uint32_t c = 0; c < su->ncases; c++) {
        for (uint32_t i = 0; i < su->cases[c].ninputs; i++) check_bvalue(&su->cases[c].inputs[i]);
        for (uint32_t i = 0; i < su->cases[c].noutputs; i++) check_bvalue(&su->cases[c].outputs[i]);
      }
    }
    if (b.program.len) {
      ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
      o.max_planned_bytes = 16u << 20;
      ptera_program *p = NULL;
      st = ptera_program_load_buffer(b.program.ptr, (size_t)b.program.len, &o, &p);
      FZ_REQUIRE(p != NULL);
      FZ_REQUIRE(st == PTERA_OK || ptera_program_errmsg(p)[0] != '\0');
      ptera_program_destroy(p);
    }
  }
  pt_arena_release(&arena);
  free(buf);
  return 0;
}

PTERA_FUZZ_MAIN(bpte)
