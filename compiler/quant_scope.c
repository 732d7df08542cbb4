/* The scope of a quantization by module (quant_scope.h). */
#include "quant.h"
#include "quant_scope.h"

static bool under(const char *entry, const pc_gnode *n) {
  bool type = strncmp(entry, "type:", 5) == 0;
  size_t len = strlen(entry);
  for (uint32_t i = 0; i < n->nscope; i++) {
    const pc_gscope *m = &n->scope[i];
    if (type ? strcmp(m->type, entry + 5) == 0
             : strncmp(m->path, entry, len) == 0 && (m->path[len] == '\0' || m->path[len] == '.'))
      return true;
  }
  return false;
}

static bool under_any(const char *const *entries, uint32_t n, const pc_gnode *node) {
  for (uint32_t i = 0; i < n; i++)
    if (under(entries[i], node)) return true;
  return false;
}

bool pc_qscope_any(const pc_qscope *s) { return s && (s->nonly || s->nskip); }

bool pc_qscope_in(const pc_qscope *s, const pc_gnode *n) {
  if (!pc_qscope_any(s)) return true;
  return (s->nonly == 0 || under_any(s->only, s->nonly, n)) && !under_any(s->skip, s->nskip, n);
}

static bool covers(const char *entry, pc_graph *const *methods, uint32_t n, bool *recorded) {
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t k = 0; methods[i] && k < methods[i]->nnodes; k++) {
      const pc_gnode *node = &methods[i]->nodes[k];
      *recorded |= node->nscope > 0;
      if (node->kind == PC_N_CALL && under(entry, node)) return true;
    }
  return false;
}

ptera_status pc_qscope_check(const pc_qscope *s, pc_graph *const *methods, uint32_t n, pt_err *e) {
  for (int list = 0; s && list < 2; list++) {
    const char *const *entries = list ? s->skip : s->only;
    for (uint32_t i = 0; i < (list ? s->nskip : s->nonly); i++) {
      bool recorded = false;
      const char *what = list ? "quantization skip list" : "quantization scope";
      bool type = strncmp(entries[i], "type:", 5) == 0;
      if (entries[i][type ? 5 : 0] == '\0')
        return pt_fail(e, PTERA_INVALID_ARGUMENT, "%s: an empty module %s", what,
                       type ? "type after 'type:'" : "name");
      if (covers(entries[i], methods, n, &recorded)) continue;
      if (!recorded)
        return pt_fail(e, PTERA_INVALID_ARGUMENT,
                       "%s: '%s' names no module: the graph records no module for any call "
                       "(export it again with a front end that writes each call's module)",
                       what, entries[i]);
      return pt_fail(e, PTERA_INVALID_ARGUMENT,
                     "%s: '%s' names no module: no call was made from %s '%s' (module names are "
                     "fully qualified, as named_modules() gives them: 'layers.0.attn'; a type "
                     "is 'type:' and the class name: 'type:Linear')",
                     what, entries[i], type ? "a module of type" : "a module named",
                     entries[i] + (type ? 5 : 0));
    }
  }
  return PTERA_OK;
}

bool pc_qscope_anchor(const pc_graph *g, const pc_gnode *n) {
  pc_linear l;
  return strcmp(n->op, "aten::convolution.out") == 0 || pc_linear_of(g, n, &l);
}

typedef struct fscan {
  uint8_t *foreign;
  bool any;
} fscan;

static void read_foreign(void *ctx, int32_t v, bool written) {
  fscan *f = ctx;
  if (!written && f->foreign[v]) f->any = true;
}

static void mark(void *ctx, int32_t v, bool written) {
  fscan *f = ctx;
  if (written) f->foreign[v] = 1;
}

void pc_qscope_foreign(const pc_graph *g, uint8_t *foreign) {
  memset(foreign, 0, g->nvalues);
  if (!pc_qscope_any(g->qscope)) return;
  for (uint32_t k = 0; k < g->nnodes; k++) {
    const pc_gnode *n = &g->nodes[k];
    if (n->kind != PC_N_CALL || n->removed) continue;
    fscan f = {foreign, false};
    if (!pc_qscope_anchor(g, n)) pc_graph_visit_args(g, n, read_foreign, &f);
    if (f.any || !pc_qscope_in(g->qscope, n)) pc_graph_visit_args(g, n, mark, &f);
  }
}
