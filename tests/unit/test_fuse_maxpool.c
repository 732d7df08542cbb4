/* Load-time fusion of max_pool2d_with_indices.out whose indices nothing
 * reads (fuse_maxpool.c, kernels/fused/max_pool.c) on hand-built programs,
 *
 *      x [N, C, H, W] -> max_pool2d_with_indices (k, s, p, d, ceil) -> y, idx
 *
 * with y the method's only output (fused: the values without indices) or
 * y and idx both outputs (runs as written), each run fused and with
 * PTERA_METHOD_NO_FUSION, with and without a pool, every available ISA
 * forced in turn: y bit for bit the unfused run's (values from a small set
 * with ties, -0, NaN and -inf; on the pool, planes of 8 or more output
 * rows run as row parts, some with windows of the second part in the top
 * padding, and an input over a core's caches a thread by whole planes),
 * and the unfused y against a plain loop here
 * (the first maximum of each window, NaN winning). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu/isa.h"
#include "emit_util.h"
#include "portable/util/pool_util.h"
#include "ptera/threadpool.h"

static uint32_t rng = 8191u;

enum { X, K0, K1, K, S0, S1, S, P0, P1, P, D0, D1, D, CEIL, Y, IDX, RET, NV };

static const pc_operator ops[] = {{"aten::max_pool2d_with_indices", "out"}};

static int fused_events;
static void hook(void *user, const ptera_instr_event *ev) {
  (void)user;
  if (!ev->end && strcmp(ev->name, "fused:max_pool2d") == 0) fused_events++;
}

static float *run(ptera_program *p, uint32_t flags, ptera_threadpool *pool, const float *x, const int32_t *xs,
                  size_t nx, size_t ny) {
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.flags = flags;
  mo.threadpool = pool;
  ptera_method *m = NULL;
  float *out = NULL;
  bool ok = ptera_method_create(p, "forward", &mo, &m) == PTERA_OK;
  if (ok) {
    ptera_method_set_instr_hook(m, hook, NULL);
    ok = ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 4, xs, x, nx * 4) == PTERA_OK &&
         ptera_method_execute(m) == PTERA_OK;
  }
  CHECK(ok);
  if (!ok) fprintf(stderr, "%s\n", m ? ptera_method_errmsg(m) : "no method");
  if (ok) {
    const ptera_tensor *t = ptera_method_output(m, 0)->u.tensor;
    CHECK(t->numel == ny);
    out = malloc(ny * 4 + 1);
    memcpy(out, t->data, ny * 4);
  }
  ptera_method_destroy(m);
  return out;
}

static float pick(void) {
  int r = eu_irand(&rng, 0, 99);
  if (r == 0) return NAN;
  if (r < 3) return -INFINITY;
  if (r < 8) return -0.0f;
  return (float)(eu_irand(&rng, 0, 8) - 4) * 0.25f;
}

/* The first maximum of each window (NaN wins), as the portable kernel. */
static float window_max(const float *plane, int64_t H, int64_t W, int64_t oy, int64_t ox, const int64_t *k,
                        const int64_t *s, const int64_t *p, const int64_t *d) {
  float best = -INFINITY;
  for (int64_t i = 0; i < k[0]; i++)
    for (int64_t j = 0; j < k[1]; j++) {
      int64_t y = oy * s[0] - p[0] + i * d[0], x = ox * s[1] - p[1] + j * d[1];
      if (y < 0 || y >= H || x < 0 || x >= W) continue;
      float v = plane[y * W + x];
      if ((v > best || v != v) && best == best) best = v;
    }
  return best;
}

/* tall_pad: rows k 4, stride 1, padding 2 on 9..20 rows, so on the pool
 * the second row part's first window still reaches the padding above.
 * big (with square3): a stem's pool on 64 planes of 96 x 96, 1.2 MB of
 * input a thread on the pool, over a core's caches: whole planes a thread
 * instead of row parts. */
static void check_case(bool idx_out, bool square3, bool tall_pad, bool big, ptera_threadpool *pool) {
  int64_t k[2], s[2], p[2], d[2];
  int32_t N = eu_irand(&rng, 1, 2), C = eu_irand(&rng, 1, 4), H = eu_irand(&rng, 3, 40), W = eu_irand(&rng, 3, 60);
  if (big) N = 1, C = 64, H = W = 96;
  for (int i = 0; i < 2; i++) {
    k[i] = square3 ? 3 : eu_irand(&rng, 1, 4);
    s[i] = square3 ? 2 : eu_irand(&rng, 1, 3);
    p[i] = square3 ? 1 : eu_irand(&rng, 0, (int)(k[i] / 2));
    d[i] = square3 ? 1 : eu_irand(&rng, 1, 2);
  }
  if (tall_pad) {
    k[0] = 4, s[0] = 1, p[0] = 2, d[0] = 1;
    H = eu_irand(&rng, 9, 20);
  }
  bool ceil = !square3 && eu_irand(&rng, 0, 2) == 0;
  int64_t OH = pk_pool_out_size(H, k[0], s[0], p[0], d[0], ceil), OW = pk_pool_out_size(W, k[1], s[1], p[1], d[1], ceil);
  if (OH <= 0 || OW <= 0) return;
  int32_t xs[4] = {N, C, H, W}, ys[4] = {N, C, (int32_t)OH, (int32_t)OW};
  size_t nx = (size_t)N * C * H * W, ny = (size_t)N * C * (size_t)(OH * OW);
  float *x = malloc(nx * 4);
  for (size_t i = 0; i < nx; i++) x[i] = pick();
  size_t oy = eu_up64(nx * 4), oi = oy + eu_up64(ny * 4);
  int64_t bufsize = (int64_t)(oi + eu_up64(ny * 8));
  pc_value v[NV];
  memset(v, 0, sizeof v);
  v[X] = eu_planned_f(4, xs, 0);
  const int64_t *lists[4] = {k, s, p, d};
  int32_t items[4][2];
  for (int l = 0; l < 4; l++) {
    int base = K0 + 3 * l;
    v[base] = eu_int(lists[l][0]);
    v[base + 1] = eu_int(lists[l][1]);
    items[l][0] = base;
    items[l][1] = base + 1;
    v[base + 2] = (pc_value){.kind = PC_VAL_INT_LIST, .u.list = {items[l], 2}};
  }
  v[CEIL] = (pc_value){.kind = PC_VAL_BOOL, .u.b = ceil};
  v[Y] = eu_planned_f(4, ys, oy);
  v[IDX] = eu_planned_f(4, ys, oi);
  v[IDX].u.tensor.scalar_type = PTERA_DTYPE_LONG;
  int32_t ret[2] = {Y, IDX};
  v[RET] = (pc_value){.kind = PC_VAL_TENSOR_LIST, .u.list = {ret, 2}};
  int32_t args[9] = {X, K, S, P, D, CEIL, Y, IDX, RET};
  pc_instr instr = {0, args, 9, false};
  int32_t ins[1] = {X}, outs[2] = {Y, IDX};
  pc_method method = {"forward", v, NV, ins, 1, outs, idx_out ? 2u : 1u, &instr, 1, ops, 1, &bufsize, 1, NULL, 0};
  pc_program pr = {&method, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&pr, NULL, &size);
  ptera_program *prog = file ? eu_load(file, size) : NULL;
  fused_events = 0;
  float *fa = prog ? run(prog, 0, pool, x, xs, nx, ny) : NULL;
  int fused = fused_events;
  float *fb = prog ? run(prog, PTERA_METHOD_NO_FUSION, pool, x, xs, nx, ny) : NULL;
  CHECK(fused_events == fused);
  CHECK(fused == (idx_out ? 0 : 1));
  CHECK(fa && fb);
  if (fa && fb) CHECK(memcmp(fa, fb, ny * 4) == 0);
  for (size_t i = 0; fb && i < ny; i++) {
    size_t plane = i / (size_t)(OH * OW), at = i % (size_t)(OH * OW);
    float want = window_max(x + plane * (size_t)(H * W), H, W, (int64_t)at / OW, (int64_t)at % OW, k, s, p, d);
    if (memcmp(&want, &fb[i], 4) != 0 && !(isnan(want) && isnan(fb[i]))) {
      fprintf(stderr, "at %zu: %a, want %a\n", i, (double)fb[i], (double)want);
      CHECK(false);
      break;
    }
  }
  free(fa);
  free(fb);
  ptera_program_destroy(prog);
  pt_free(NULL, file);
  free(x);
}

int main(void) {
  ptera_threadpool *pool = NULL;
  CHECK(ptera_threadpool_create(2, NULL, &pool) == PTERA_OK);
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    for (int i = 0; i < 40; i++) check_case(i % 4 == 3, i % 3 == 0, false, false, i % 2 ? pool : NULL);
    for (int i = 0; i < 4; i++) check_case(false, false, true, false, pool);
    check_case(false, true, false, true, pool);
  }
  pk_isa_force(PK_ISA_COUNT);
  ptera_threadpool_destroy(pool);
  return check_summary("fuse_maxpool");
}
