/* XNNPACK node conformance runner: reads the cases gen.py wrote (PyTorch
 * references for float nodes, numpy spec formulas for quantized ones),
 * builds each graph as an XH00 blob with compiler/emit_xnn.c, runs it
 * through the built-in XnnpackBackend and compares. Prints a node x
 * datatype table of cases and failures; exit status 1 on any failure.
 *
 * Usage: xnn_runner CASES.txt DATA.bin
 * cases.txt, one record per line (numbers in decimal, floats as %.9g):
 *   c NAME NODE DTYPE                                   start of a case
 *   v DT FLAGS EXT NDIMS D.. COFF CBYTES Q SCALE ZP CHDIM NSCALES SOFF NNBD   a value
 *                                                       (COFF -1: not constant; Q 0: plain)
 *   n KIND IN0..IN4 OUT0 OUT1 FLAGS HASMM MIN MAX P0..P14 F N0 V0.. N1 V1..   a node
 *   i EXT ETDTYPE NDIMS D.. OFF NBYTES                   an input tensor
 *   o EXT ETDTYPE NDIMS D.. OFF NBYTES TOL               an expected output (TOL 0: bit-exact)
 *   e                                                   end of case: run it */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_xnn.h"
#include "ptera/ptera.h"

#define MAXV 64
#define MAXIO 16

typedef struct io {
  uint32_t ext;
  int dtype, ndims;
  int32_t dims[PTERA_MAX_DIM];
  long off, nbytes;
  double tol;
} io;

typedef struct kase {
  char name[128], node[64], dtype[32];
  pc_xnn_value_desc v[MAXV];
  pc_xnn_node_desc n[8];
  uint32_t vbuf[8][2][PF_XNN_MAX_DIMS];
  int nv, nn, ni, no;
  io in[MAXIO], out[MAXIO];
} kase;

typedef struct row {
  char node[64], dtype[32];
  int cases, failures;
} row;

static const uint8_t *g_data;
static long g_size;
static row g_rows[256];
static int g_nrows;

static row *row_for(const char *node, const char *dtype) {
  for (int i = 0; i < g_nrows; i++)
    if (!strcmp(g_rows[i].node, node) && !strcmp(g_rows[i].dtype, dtype)) return &g_rows[i];
  if (g_nrows == 256) return &g_rows[255];
  row *r = &g_rows[g_nrows++];
  snprintf(r->node, sizeof r->node, "%s", node);
  snprintf(r->dtype, sizeof r->dtype, "%s", dtype);
  return r;
}

static const void *at(long off, long n) { return off >= 0 && n >= 0 && off + n <= g_size ? g_data + off : NULL; }

static double num(char **s) { return strtod(strtok_r(NULL, " \n", s), NULL); }

static void parse_io(char **s, io *x, int with_tol) {
  x->ext = (uint32_t)num(s);
  x->dtype = (int)num(s);
  x->ndims = (int)num(s);
  for (int k = 0; k < x->ndims; k++) x->dims[k] = (int32_t)num(s);
  x->off = (long)num(s);
  x->nbytes = (long)num(s);
  x->tol = with_tol ? num(s) : 0;
}

static bool close_enough(const io *o, const uint8_t *got, char *why, size_t why_size) {
  const uint8_t *want = at(o->off, o->nbytes);
  if (!want) return snprintf(why, why_size, "reference out of range"), false;
  if (o->tol == 0) {
    for (long i = 0; i < o->nbytes; i++)
      if (got[i] != want[i]) return snprintf(why, why_size, "byte %ld: %u != %u", i, got[i], want[i]), false;
    return true;
  }
  for (long i = 0; i < o->nbytes / 4; i++) {
    float a, b;
    memcpy(&a, got + 4 * i, 4);
    memcpy(&b, want + 4 * i, 4);
    if (isnan(a) && isnan(b)) continue;
    if (!(fabs((double)a - b) <= o->tol + o->tol * fabs((double)b)))
      return snprintf(why, why_size, "element %ld: %.9g != %.9g", i, (double)a, (double)b), false;
  }
  return true;
}

static bool run_case(kase *k, char *why, size_t why_size) {
  uint32_t nexts = (uint32_t)(k->ni + k->no);
  uint8_t *blob;
  size_t size;
  ptera_status st = pc_xnn_emit(k->v, (uint32_t)k->nv, k->n, (uint32_t)k->nn, nexts, NULL, &blob, &size);
  if (st != PTERA_OK) return snprintf(why, why_size, "emit: %s", ptera_status_name(st)), false;
  const ptera_backend *b = ptera_backend_find("XnnpackBackend", 14);
  char msg[512] = "";
  ptera_backend_init_ctx ictx = {"forward", NULL, NULL, msg, sizeof msg, NULL, 0, 0};
  void *h = NULL;
  bool ok = false;
  st = b->init(&ictx, blob, size, NULL, 0, &h);
  ptera_tensor tens[MAXIO * 2];
  ptera_value vals[MAXIO * 2], *args[MAXIO * 2];
  void *bufs[MAXIO * 2] = {0};
  if (st != PTERA_OK) {
    snprintf(why, why_size, "init: %s: %s", ptera_status_name(st), msg);
    goto done;
  }
  memset(tens, 0, sizeof tens);
  for (int j = 0; j < k->ni + k->no; j++) {
    const io *x = j < k->ni ? &k->in[j] : &k->out[j - k->ni];
    ptera_tensor *t = &tens[x->ext];
    t->dim = (uint8_t)x->ndims;
    t->dtype = (uint8_t)x->dtype;
    t->numel = 1;
    for (int d = 0; d < x->ndims; d++) {
      t->sizes[d] = x->dims[d];
      t->dim_order[d] = (uint8_t)d;
      t->numel *= (size_t)x->dims[d];
    }
    ptera_tensor_update_strides(t);
    t->capacity = (size_t)x->nbytes;
    bufs[x->ext] = calloc(1, (size_t)x->nbytes + 16);
    if (j < k->ni && at(x->off, x->nbytes)) memcpy(bufs[x->ext], at(x->off, x->nbytes), (size_t)x->nbytes);
    t->data = bufs[x->ext];
    vals[x->ext].tag = PTERA_TAG_TENSOR;
    vals[x->ext].u.tensor = t;
    args[x->ext] = &vals[x->ext];
  }
  ptera_backend_exec_ctx ectx = {"forward", msg, sizeof msg, NULL, 0, NULL};
  for (int rep = 0; rep < 2; rep++) { /* twice: the second run re-propagates shapes */
    st = b->execute(&ectx, h, args, nexts);
    if (st != PTERA_OK) {
      snprintf(why, why_size, "execute: %s: %s", ptera_status_name(st), msg);
      goto done;
    }
  }
  ok = true;
  for (int j = 0; j < k->no && ok; j++) ok = close_enough(&k->out[j], bufs[k->out[j].ext], why, why_size);
done:
  if (h && b->destroy) b->destroy(h);
  for (int j = 0; j < MAXIO * 2; j++) free(bufs[j]);
  free(blob);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 3) return fprintf(stderr, "usage: xnn_runner CASES.txt DATA.bin\n"), 2;
  FILE *f = fopen(argv[2], "rb");
  if (!f) return fprintf(stderr, "cannot open %s\n", argv[2]), 2;
  fseek(f, 0, SEEK_END);
  g_size = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *data = malloc((size_t)g_size + 1);
  if (!data || fread(data, 1, (size_t)g_size, f) != (size_t)g_size) return fprintf(stderr, "read failed\n"), 2;
  fclose(f);
  g_data = data;
  FILE *c = fopen(argv[1], "r");
  if (!c) return fprintf(stderr, "cannot open %s\n", argv[1]), 2;
  static char line[1 << 16];
  static kase k;
  int total = 0, failed = 0;
  while (fgets(line, sizeof line, c)) {
    char *s, *tag = strtok_r(line, " \n", &s);
    if (!tag) continue;
    if (!strcmp(tag, "c")) {
      memset(&k, 0, sizeof k);
      snprintf(k.name, sizeof k.name, "%s", strtok_r(NULL, " \n", &s));
      snprintf(k.node, sizeof k.node, "%s", strtok_r(NULL, " \n", &s));
      snprintf(k.dtype, sizeof k.dtype, "%s", strtok_r(NULL, " \n", &s));
    } else if (!strcmp(tag, "v") && k.nv < MAXV) {
      pc_xnn_value_desc *v = &k.v[k.nv++];
      v->datatype = (uint8_t)num(&s);
      v->flags = (uint32_t)num(&s);
      v->external_id = (uint32_t)num(&s);
      v->ndims = (uint8_t)num(&s);
      for (int d = 0; d < v->ndims; d++) v->dims[d] = (uint32_t)num(&s);
      long coff = (long)num(&s), cbytes = (long)num(&s);
      if (coff >= 0) {
        v->data = at(coff, cbytes);
        v->nbytes = (size_t)cbytes;
      }
      v->quant = (uint8_t)num(&s);
      v->scale = (float)num(&s);
      v->zero_point = (int32_t)num(&s);
      v->channel_dim = (int32_t)num(&s);
      v->nscales = (uint32_t)num(&s);
      long soff = (long)num(&s);
      v->scales = v->nscales ? at(soff, 4L * v->nscales) : NULL;
      v->num_nonbatch_dims = (int32_t)num(&s);
    } else if (!strcmp(tag, "n") && k.nn < 8) {
      pc_xnn_node_desc *n = &k.n[k.nn];
      n->kind = (uint8_t)num(&s);
      for (int i = 0; i < PF_XNN_MAX_NODE_IN; i++) n->in[i] = (uint32_t)num(&s);
      n->out[0] = (uint32_t)num(&s);
      n->out[1] = (uint32_t)num(&s);
      n->flags = (uint32_t)num(&s);
      n->has_min_max = num(&s) != 0;
      n->out_min = (float)num(&s);
      n->out_max = (float)num(&s);
      for (int i = 0; i < PF_XNN_MAX_NODE_PARAMS; i++) n->p[i] = (uint32_t)num(&s);
      n->f = (float)num(&s);
      n->n0 = (uint32_t)num(&s);
      for (uint32_t i = 0; i < n->n0 && i < PF_XNN_MAX_DIMS; i++) k.vbuf[k.nn][0][i] = (uint32_t)num(&s);
      n->n1 = (uint32_t)num(&s);
      for (uint32_t i = 0; i < n->n1 && i < PF_XNN_MAX_DIMS; i++) k.vbuf[k.nn][1][i] = (uint32_t)num(&s);
      n->v0 = k.vbuf[k.nn][0];
      n->v1 = k.vbuf[k.nn][1];
      k.nn++;
    } else if (!strcmp(tag, "i") && k.ni < MAXIO) {
      parse_io(&s, &k.in[k.ni++], 0);
    } else if (!strcmp(tag, "o") && k.no < MAXIO) {
      parse_io(&s, &k.out[k.no++], 1);
    } else if (!strcmp(tag, "e")) {
      char why[700] = "";
      bool ok = run_case(&k, why, sizeof why);
      row *r = row_for(k.node, k.dtype);
      r->cases++;
      total++;
      if (!ok) {
        r->failures++;
        failed++;
        printf("FAIL %s (%s %s): %s\n", k.name, k.node, k.dtype, why);
      }
    }
  }
  fclose(c);
  printf("%-30s %-14s %6s %8s\n", "node", "dtype", "cases", "failures");
  for (int i = 0; i < g_nrows; i++)
    printf("%-30s %-14s %6d %8d\n", g_rows[i].node, g_rows[i].dtype, g_rows[i].cases, g_rows[i].failures);
  printf("xnn nodes: %d cases, %d failed\n", total, failed);
  free(data);
  return failed || total == 0 ? 1 : 0;
}
