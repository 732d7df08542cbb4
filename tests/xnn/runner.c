/* XNNPACK node conformance runner: reads the cases gen.py wrote (PyTorch
 * references for float nodes, numpy spec formulas for quantized ones),
 * builds each graph as an XH00 blob with compiler/emit_xnn.c, runs it
 * through the built-in XnnpackBackend and compares, once on the calling
 * thread and once on a 2-thread pool. Prints a node x datatype table of
 * cases and failures; exit status 1 on any failure. fp16/bf16 outputs
 * (TOL > 0) are compared as floats like fp32 ones.
 *
 * Usage: xnn_runner CASES.txt DATA.bin [SEED_DIR]
 * With SEED_DIR, the blob of the first case of each node x datatype row is
 * also written there (seed_<node>_<dtype>; scripts/fuzz.sh seeds the XNNPACK
 * harnesses with them).
 * cases.txt, one record per line (numbers in decimal, floats as %.9g):
 *   c NAME NODE DTYPE                                   start of a case
 *   v DT FLAGS EXT NDIMS D.. COFF CBYTES Q SCALE ZP CHDIM NSCALES SOFF NNBD GS DQ   a value
 *                                                       (COFF -1: not constant; Q 0: plain;
 *                                                       Q 4 blockwise: NSCALES bf16 scales at
 *                                                       SOFF, group size GS; DQ: legacy
 *                                                       dq_datatype, 0 = none)
 *   n KIND IN0..IN4 OUT0 OUT1 FLAGS HASMM MIN MAX P0..P14 F N0 V0.. N1 V1..   a node
 *   i EXT ETDTYPE NDIMS D.. OFF NBYTES                   an input tensor
 *   o EXT ETDTYPE NDIMS D.. OFF NBYTES TOL               an expected output (TOL 0: bit-exact;
 *                                                        TOL < 0: within -TOL of its largest |value|)
 *   x STATUS NEXTS TEXT..                               init of the graph (NEXTS externals) must fail
 *                                                       with this status (e.g. InvalidProgram) and a
 *                                                       message naming the node and holding TEXT;
 *                                                       when the case gives inputs, init succeeds
 *                                                       and its execution must fail so
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
  char name[128], node[64], dtype[32], expect[32], expect_msg[128];
  pc_xnn_value_desc v[MAXV];
  pc_xnn_node_desc n[8];
  uint32_t vbuf[8][2][PF_XNN_MAX_DIMS];
  int nv, nn, ni, no, xnexts;
  io in[MAXIO], out[MAXIO];
} kase;

typedef struct row {
  char node[64], dtype[32];
  int cases, failures;
} row;

static const uint8_t *g_data;
static ptera_threadpool *g_pool; /* the pool the current run uses, or NULL */
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

/* IEEE binary16 and bfloat16 bit patterns as floats (the runner's own). */
static float half_value(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024), e - 25);
  return (h & 0x8000) ? -v : v;
}

static float bf16_value(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float v;
  memcpy(&v, &u, 4);
  return v;
}

/* Element i of an fp32, fp16 or bf16 output. */
static double element(const io *o, const uint8_t *p, long i) {
  if (o->dtype != PTERA_DTYPE_HALF && o->dtype != PTERA_DTYPE_BFLOAT16) {
    float f;
    memcpy(&f, p + 4 * i, 4);
    return f;
  }
  uint16_t h;
  memcpy(&h, p + 2 * i, 2);
  return o->dtype == PTERA_DTYPE_HALF ? half_value(h) : bf16_value(h);
}

static bool close_enough(const io *o, const uint8_t *got, char *why, size_t why_size) {
  const uint8_t *want = at(o->off, o->nbytes);
  if (!want) return snprintf(why, why_size, "reference out of range"), false;
  if (o->tol == 0) {
    for (long i = 0; i < o->nbytes; i++)
      if (got[i] != want[i]) return snprintf(why, why_size, "byte %ld: %u != %u", i, got[i], want[i]), false;
    return true;
  }
  size_t es = o->dtype == PTERA_DTYPE_HALF || o->dtype == PTERA_DTYPE_BFLOAT16 ? 2 : 4;
  long n = o->nbytes / (long)es;
  double scale = 0; /* TOL < 0: the largest |expected value| */
  for (long i = 0; o->tol < 0 && i < n; i++) {
    double b = fabs(element(o, want, i));
    if (b > scale) scale = b;
  }
  for (long i = 0; i < n; i++) {
    double a = element(o, got, i), b = element(o, want, i);
    if (isnan(a) && isnan(b)) continue;
    double bound = o->tol < 0 ? -o->tol * scale : o->tol + o->tol * fabs(b);
    if (!(fabs(a - b) <= bound)) return snprintf(why, why_size, "element %ld: %.9g != %.9g", i, a, b), false;
  }
  return true;
}

/* Writes blob to DIR/seed_<node>_<dtype> (non-alphanumerics as '_'). */
static void write_seed(const char *dir, const kase *k, const uint8_t *blob, size_t size) {
  char path[512];
  int n = snprintf(path, sizeof path, "%s/seed_%s_%s", dir, k->node, k->dtype);
  if (n < 0 || (size_t)n >= sizeof path) return;
  for (char *c = path + strlen(dir) + 1; *c; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9'))) *c = '_';
  FILE *f = fopen(path, "wb");
  if (!f) return;
  fwrite(blob, 1, size, f);
  fclose(f);
}

/* Whether step (init or execute) refused case k as it expects. */
static bool rejected(const kase *k, ptera_status st, const char *msg, const char *step, char *why, size_t why_size) {
  bool ok = st != PTERA_OK && !strcmp(ptera_status_name(st), k->expect) && strstr(msg, "XNNPACK node") != NULL &&
            strstr(msg, k->expect_msg) != NULL;
  if (!ok)
    snprintf(why, why_size, "%s: %s (%s), expected %s (%s)", step, ptera_status_name(st), st == PTERA_OK ? "" : msg,
             k->expect, k->expect_msg);
  return ok;
}

static bool run_case(kase *k, const char *seed_dir, char *why, size_t why_size) {
  uint32_t nexts = (uint32_t)(k->expect[0] ? k->xnexts : k->ni + k->no);
  uint8_t *blob;
  size_t size;
  ptera_status st = pc_xnn_emit(k->v, (uint32_t)k->nv, k->n, (uint32_t)k->nn, nexts, NULL, &blob, &size);
  if (st != PTERA_OK) return snprintf(why, why_size, "emit: %s", ptera_status_name(st)), false;
  if (seed_dir) write_seed(seed_dir, k, blob, size);
  const ptera_backend *b = ptera_backend_find("XnnpackBackend", 14);
  char msg[512] = "";
  ptera_backend_init_ctx ictx = {"forward", NULL, NULL, msg, sizeof msg, g_pool, 0, 0, NULL, 0};
  void *h = NULL;
  bool ok = false;
  void *temp = NULL;
  st = b->init(&ictx, blob, size, NULL, 0, &h);
  ptera_tensor tens[MAXIO * 2];
  ptera_value vals[MAXIO * 2], *args[MAXIO * 2];
  void *bufs[MAXIO * 2] = {0};
  if (k->expect[0] && (st != PTERA_OK || !k->ni)) { /* a rejection case: at init, or at execute given inputs */
    ok = rejected(k, st, msg, "init", why, why_size);
    goto done;
  }
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
  size_t tsz = (ictx.temp_bytes + 63) & ~(size_t)63;
  temp = tsz ? aligned_alloc(64, tsz) : NULL;
  ptera_backend_exec_ctx ectx = {"forward", msg, sizeof msg, temp, tsz, g_pool};
  for (int rep = 0; rep < 2; rep++) { /* twice: the second run re-propagates shapes */
    st = b->execute(&ectx, h, args, nexts);
    if (k->expect[0]) {
      ok = rejected(k, st, msg, "execute", why, why_size);
      goto done;
    }
    if (st != PTERA_OK) {
      snprintf(why, why_size, "execute: %s: %s", ptera_status_name(st), msg);
      goto done;
    }
  }
  ok = true;
  for (int j = 0; j < k->no && ok; j++) ok = close_enough(&k->out[j], bufs[k->out[j].ext], why, why_size);
done:
  if (h && b->destroy) b->destroy(h);
  free(temp);
  for (int j = 0; j < MAXIO * 2; j++) free(bufs[j]);
  free(blob);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) return fprintf(stderr, "usage: xnn_runner CASES.txt DATA.bin [SEED_DIR]\n"), 2;
  const char *seed_dir = argc == 4 ? argv[3] : NULL;
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
  ptera_threadpool *pool = NULL;
  if (ptera_threadpool_create(2, NULL, &pool) != PTERA_OK) return fprintf(stderr, "no thread pool\n"), 2;
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
      if (v->quant == PF_XNN_Q_CHANNEL_GROUP) v->scales_bf16 = v->nscales ? at(soff, 2L * v->nscales) : NULL;
      else v->scales = v->nscales ? at(soff, 4L * v->nscales) : NULL;
      v->num_nonbatch_dims = (int32_t)num(&s);
      v->group_size = (int32_t)num(&s);
      v->dq_datatype = (uint8_t)num(&s);
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
    } else if (!strcmp(tag, "x")) {
      snprintf(k.expect, sizeof k.expect, "%s", strtok_r(NULL, " \n", &s));
      k.xnexts = (int)num(&s);
      const char *text = strtok_r(NULL, "\n", &s);
      snprintf(k.expect_msg, sizeof k.expect_msg, "%s", text ? text : "");
    } else if (!strcmp(tag, "e")) {
      char why[700] = "";
      row *r = row_for(k.node, k.dtype);
      g_pool = NULL;
      bool ok = run_case(&k, r->cases ? NULL : seed_dir, why, sizeof why);
      g_pool = pool;
      if (ok && !run_case(&k, NULL, why, sizeof why)) {
        size_t len = strlen(why);
        snprintf(why + len, sizeof why - len, " (2 threads)");
        ok = false;
      }
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
  printf("%-30s %-22s %6s %8s\n", "node", "dtype", "cases", "failures");
  for (int i = 0; i < g_nrows; i++)
    printf("%-30s %-22s %6d %8d\n", g_rows[i].node, g_rows[i].dtype, g_rows[i].cases, g_rows[i].failures);
  printf("xnn nodes: %d cases, %d failed\n", total, failed);
  ptera_threadpool_destroy(pool);
  free(data);
  return failed || total == 0 ? 1 : 0;
}
