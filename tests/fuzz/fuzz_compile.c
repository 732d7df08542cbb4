/* Fuzzes the ahead-of-time compiler end to end: parse the input as a .ptg
 * (pc_ptg_parse); if it parses, compile it (pc_compile: the passes, lowering,
 * memory planning, the .pte and .ptd emitters); if it compiles, load the
 * program (and its .ptd) through the public API under tight limits, create
 * every method, bind inputs of ones, execute (twice for small methods) and
 * destroy. A compiled program must load: the compiler promises a file the
 * runtime accepts (methods may still fail to create, e.g. over the planned
 * memory limit or for an operator no kernel implements).
 *
 * Input: a .ptg, optionally preceded by one options byte (any first byte
 * other than 'p', the start of "ptg 1"):
 *   bit 0 no_fuse, 1 no_constprop, 2 no_dedup, 3 no_dce,
 *   bit 4 external weights (.ptd), 5 weight keys by hash (else fqn).
 * A bare .ptg compiles with the defaults (every pass, weights in the .pte). */
#include "compile.h"
#include "fuzz.h"
#include "ptera/ptera.h"

/* Ones in the tensor's dtype (any byte pattern for the odd ones). */
static void fzc_fill_ones(uint8_t *buf, size_t nbytes, int dtype) {
  size_t es = ptera_dtype_size(dtype);
  if (!es) return;
  for (size_t off = 0; off + es <= nbytes; off += es) {
    uint8_t *p = buf + off;
    memset(p, 0, es);
    switch (dtype) {
      case PTERA_DTYPE_FLOAT: { float f = 1.0f; memcpy(p, &f, 4); break; }
      case PTERA_DTYPE_DOUBLE: { double d = 1.0; memcpy(p, &d, 8); break; }
      case PTERA_DTYPE_HALF: p[1] = 0x3c; break;     /* 0x3c00 */
      case PTERA_DTYPE_BFLOAT16: p[1] = 0x3f; p[0] = 0x80; break; /* 0x3f80 */
      default: p[0] = 1; break;                      /* ints, bool, bytes */
    }
  }
}

static void fzc_run(const pc_compile_result *r) {
  /* Exact-size aligned copies, so ASan sees reads past the end. */
  uint8_t *pbuf = fz_aligned_copy(r->pte, r->pte_size);
  uint8_t *dbuf = r->ptd ? fz_aligned_copy(r->ptd, r->ptd_size) : NULL;
  if (!pbuf || (r->ptd && !dbuf)) {
    free(pbuf);
    free(dbuf);
    return;
  }
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  o.max_planned_bytes = 16u << 20;
  o.max_values = 1u << 20;
  o.max_instructions = 1u << 20;
  ptera_program *p = NULL;
  ptera_status st = ptera_program_load_buffer(pbuf, r->pte_size, &o, &p);
  FZ_REQUIRE(p != NULL);
  if (st != PTERA_OK) fprintf(stderr, "compiled program does not load: %s\n", ptera_program_errmsg(p));
  FZ_REQUIRE(st == PTERA_OK);
  if (dbuf) {
    st = ptera_program_attach_data_buffer(p, dbuf, r->ptd_size);
    if (st != PTERA_OK) fprintf(stderr, "emitted .ptd does not attach: %s\n", ptera_program_errmsg(p));
    FZ_REQUIRE(st == PTERA_OK);
  }
  size_t nm = ptera_program_method_count(p);
  for (size_t i = 0; i < nm; i++) {
    const char *name = ptera_program_method_name(p, i);
    FZ_REQUIRE(name != NULL);
    fz_run_method(p, name, fzc_fill_ones);
  }
  ptera_program_destroy(p);
  free(pbuf);
  free(dbuf);
}

int ptera_fuzz_compile(const uint8_t *data, size_t size) {
  uint8_t opts = 0;
  if (size > 0 && data[0] != 'p') {
    opts = data[0];
    data++;
    size--;
  }
  uint8_t *buf = fz_aligned_copy(data, size);
  if (!buf) return 0;
  pc_module mod;
  pt_err err;
  pt_err_clear(&err);
  ptera_status st = pc_ptg_parse(buf, size, NULL, &mod, &err);
  free(buf);
  if (st != PTERA_OK) return 0; /* fuzz_ptg checks the reader's failures */

  pc_compile_options co;
  memset(&co, 0, sizeof co);
  co.no_fuse = opts & 1;
  co.no_constprop = (opts >> 1) & 1;
  co.no_dedup = (opts >> 2) & 1;
  co.no_dce = (opts >> 3) & 1;
  co.external_weights = (opts >> 4) & 1;
  co.weight_keys = (opts & 32) ? PC_WEIGHT_KEYS_HASH : PC_WEIGHT_KEYS_FQN;
  pc_compile_result r;
  pt_err_clear(&err);
  st = pc_compile(&mod, &co, &r, &err);
  if (st != PTERA_OK) {
    FZ_REQUIRE(err.msg[0] != '\0');
    FZ_REQUIRE(r.pte == NULL && r.ptd == NULL && r.methods == NULL);
  } else {
    FZ_REQUIRE(r.pte != NULL && r.pte_size > 0);
    FZ_REQUIRE(co.external_weights == (r.ptd != NULL));
    fz_touch(r.pte, r.pte_size);
    fz_touch(r.ptd, r.ptd_size);
    fzc_run(&r);
  }
  pc_compile_result_free(&r);
  pc_module_free(&mod);
  return 0;
}

PTERA_FUZZ_MAIN(compile)
