/* Fuzzes the PTG reader (pc_ptg_parse): a failure must leave an empty module
 * and a "line N: ..." message; a success must write back (pc_ptg_write),
 * parse again, and write the same bytes a second time. */
#include "fuzz.h"
#include "ptg.h"

static void check_module(const pc_module *m) {
  FZ_REQUIRE(m->nmethods > 0);
  for (uint32_t i = 0; i < m->nmethods; i++) {
    const pc_graph *g = m->methods[i];
    fz_str(g->name, strlen(g->name));
    for (uint32_t v = 0; v < g->nvalues; v++) {
      const pc_gvalue *x = &g->values[v];
      FZ_REQUIRE(pc_graph_alias_root(g, (int32_t)v) <= (int32_t)v);
      if (x->kind == PC_G_TENSOR) {
        FZ_REQUIRE(x->u.t.dim <= PTERA_MAX_DIM && x->u.t.dynamism <= 2);
        if (x->u.t.store != PC_T_ACTIVATION) {
          FZ_REQUIRE(x->u.t.nbytes == pc_gtensor_nbytes(&x->u.t));
          fz_touch(x->u.t.data, x->u.t.nbytes);
        }
      }
    }
    for (uint32_t k = 0; k < g->nnodes; k++)
      for (uint32_t a = 0; a < g->nodes[k].nargs; a++)
        FZ_REQUIRE(g->nodes[k].args[a] >= 0 && (uint32_t)g->nodes[k].args[a] < g->nvalues);
  }
}

int ptera_fuzz_ptg(const uint8_t *data, size_t size) {
  uint8_t *buf = fz_aligned_copy(data, size);
  if (!buf) return 0;
  pc_module m;
  pt_err err;
  ptera_status st = pc_ptg_parse(buf, size, NULL, &m, &err);
  free(buf);
  if (st != PTERA_OK) {
    FZ_REQUIRE(st == PTERA_INVALID_ARGUMENT || st == PTERA_MEMORY_ALLOCATION_FAILED);
    FZ_REQUIRE(strncmp(err.msg, "line ", 5) == 0);
    FZ_REQUIRE(m.nmethods == 0 && m.methods == NULL);
    return 0;
  }
  check_module(&m);
  uint8_t *w1 = NULL, *w2 = NULL;
  size_t n1 = 0, n2 = 0;
  FZ_REQUIRE(pc_ptg_write(&m, &w1, &n1, &err) == PTERA_OK);
  pc_module back;
  st = pc_ptg_parse(w1, n1, NULL, &back, &err);
  if (st != PTERA_OK) fprintf(stderr, "re-parse failed: %s\n", err.msg);
  FZ_REQUIRE(st == PTERA_OK);
  FZ_REQUIRE(back.nmethods == m.nmethods);
  for (uint32_t i = 0; i < m.nmethods; i++) {
    FZ_REQUIRE(back.methods[i]->nvalues == m.methods[i]->nvalues);
    FZ_REQUIRE(back.methods[i]->nnodes == m.methods[i]->nnodes);
  }
  FZ_REQUIRE(pc_ptg_write(&back, &w2, &n2, &err) == PTERA_OK);
  FZ_REQUIRE(n1 == n2 && memcmp(w1, w2, n1) == 0);
  pt_free(NULL, w1);
  pt_free(NULL, w2);
  pc_module_free(&back);
  pc_module_free(&m);
  return 0;
}

PTERA_FUZZ_MAIN(ptg)
