/* aten::convolution.out's prepare step (op_convolution.c) in a real method:
 * y = conv2d(x [1, 5, 9, 11], w [7, 5, 3, 3], b [7]; stride 2, padding 1,
 * dilation 1), built with the emitter. With a constant weight, method
 * create packs the filters into method-owned memory (counted as packed
 * bytes) and sizes the temp arena for the workspace at the method's thread
 * count; with the weight an input, the arena also holds the filters packed
 * per call. Each result is checked against the convolution computed in
 * double here, without and with a 2-thread pool; execute makes no heap
 * allocation; allocation-failure injection over load + create + execute
 * fails cleanly, twice inside prepare (its state and its packed filters). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu/conv2d.h"
#include "emit_util.h"
#include "ptera/ptera.h"
#include "ptera/threadpool.h"

enum { CI = 5, H = 9, W = 11, CO = 7, KH = 3, KW = 3, S = 2, P = 1, OH = 5, OW = 6 };
enum { NX = CI * H * W, NW = CO * CI * KH * KW, NY = CO * OH * OW };

static float x[NX], w[NW], b[CO];

static uint32_t rng = 777u;
static float frand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (float)((rng >> 8) & 0xffff) / 32768.0f - 1.0f;
}

static pk_conv2d_geom geom(void) {
  pk_conv2d_geom g = {.n = 1, .c_in = CI, .h = H, .w = W, .c_out = CO, .groups = 1, .kh = KH, .kw = KW,
                      .stride = {S, S}, .pad = {P, P}, .dil = {1, 1}};
  char msg[160];
  CHECK(pk_conv2d_geom_init(&g, msg, sizeof msg) == PTERA_OK && g.oh == OH && g.ow == OW);
  return g;
}

/* y against the convolution in double. */
static bool matches(const float *y) {
  for (int oc = 0; oc < CO; oc++)
    for (int oy = 0; oy < OH; oy++)
      for (int ox = 0; ox < OW; ox++) {
        double acc = b[oc];
        for (int c = 0; c < CI; c++)
          for (int ky = 0; ky < KH; ky++)
            for (int kx = 0; kx < KW; kx++) {
              int iy = oy * S - P + ky, ix = ox * S - P + kx;
              if (iy >= 0 && iy < H && ix >= 0 && ix < W)
                acc += (double)x[(c * H + iy) * W + ix] * w[((oc * CI + c) * KH + ky) * KW + kx];
            }
        float got = y[(oc * OH + oy) * OW + ox];
        if (!(fabs(got - acc) <= 1e-5 * (1.0 + fabs(acc)))) {
          printf("  y[%d, %d, %d] = %.9g, want %.9g\n", oc, oy, ox, got, acc);
          return false;
        }
      }
  return true;
}

/* Values: 0 x, 1 w (const, or planned input 1), 2 b (const), 3 Int 2,
 * 4 [2, 2] stride, 5 Int 1, 6 [1, 1] padding and dilation (and groups = 1),
 * 7 Int 0, 8 [0, 0] output_padding, 9 false, 10 y. */
static uint8_t *emit(bool wconst, size_t *size) {
  static const int32_t xs[4] = {1, CI, H, W}, wsz[4] = {CO, CI, KH, KW}, bs[1] = {CO}, ys[4] = {1, CO, OH, OW};
  static const int32_t l4[2] = {3, 3}, l6[2] = {5, 5}, l8[2] = {7, 7};
  static const int32_t args[11] = {0, 1, 2, 4, 6, 6, 9, 8, 5, 10, 10}, out10[1] = {10};
  static const int32_t in_x[1] = {0}, in_xw[2] = {0, 1};
  static const pc_instr instrs[1] = {{0, args, 11, false}};
  static const int64_t bufs[1] = {(NX + NW + NY) * 4};
  static const pc_operator ops[1] = {{"aten::convolution", "out"}};
  static pc_value v[11];
  v[0] = eu_tensor_f(PC_STORAGE_PLANNED, 4, xs);
  v[0].u.tensor.memory_id = 1;
  v[1] = eu_tensor_f(wconst ? PC_STORAGE_CONST : PC_STORAGE_PLANNED, 4, wsz);
  if (wconst) {
    v[1].u.tensor.data = w;
    v[1].u.tensor.nbytes = sizeof w;
  } else {
    v[1].u.tensor.memory_id = 1;
    v[1].u.tensor.memory_offset = NX * 4;
  }
  v[2] = eu_tensor_f(PC_STORAGE_CONST, 1, bs);
  v[2].u.tensor.data = b;
  v[2].u.tensor.nbytes = sizeof b;
  v[3] = eu_int(2);
  v[5] = eu_int(1);
  v[7] = eu_int(0);
  v[4] = (pc_value){.kind = PC_VAL_INT_LIST, .u.list = {l4, 2}};
  v[6] = (pc_value){.kind = PC_VAL_INT_LIST, .u.list = {l6, 2}};
  v[8] = (pc_value){.kind = PC_VAL_INT_LIST, .u.list = {l8, 2}};
  v[9] = (pc_value){.kind = PC_VAL_BOOL, .u.b = false};
  v[10] = eu_tensor_f(PC_STORAGE_PLANNED, 4, ys);
  v[10].u.tensor.memory_id = 1;
  v[10].u.tensor.memory_offset = (NX + NW) * 4;
  pc_method method = {"forward", v, 11, wconst ? in_x : in_xw, wconst ? 1 : 2, out10, 1, instrs, 1, ops, 1,
                      bufs, 1, NULL, 0};
  pc_program prog = {&method, 1, NULL, 0};
  return eu_emit(&prog, NULL, size);
}

/* Binds the inputs, executes (no heap allocation) and checks y. */
static void exec_check(ptera_method *m, bool wconst) {
  static const int32_t xs[4] = {1, CI, H, W}, wsz[4] = {CO, CI, KH, KW};
  CHECK(ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 4, xs, x, sizeof x) == PTERA_OK);
  if (!wconst) CHECK(ptera_method_set_input_tensor(m, 1, PTERA_DTYPE_FLOAT, 4, wsz, w, sizeof w) == PTERA_OK);
  size_t before = eu_calls;
  CHECK(ptera_method_execute(m) == PTERA_OK);
  CHECK(eu_calls == before);
  const ptera_value *y = ptera_method_output(m, 0);
  CHECK(y && y->tag == PTERA_TAG_TENSOR && y->u.tensor->numel == NY);
  if (y && y->tag == PTERA_TAG_TENSOR) CHECK(matches(y->u.tensor->data));
}

static void method_case(const uint8_t *file, size_t size, bool wconst, ptera_threadpool *pool) {
  ptera_load_options lo = PTERA_LOAD_OPTIONS_INIT;
  lo.allocator = &eu_tracking;
  eu_live = eu_calls = eu_fail_at = 0;
  ptera_program *p = NULL;
  CHECK(ptera_program_load_buffer(file, size, &lo, &p) == PTERA_OK);
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.threadpool = pool;
  ptera_method *m = NULL;
  CHECK(p && ptera_method_create(p, "forward", &mo, &m) == PTERA_OK);
  if (m) {
    pk_conv2d_geom g = geom();
    size_t pack = pk_conv2d_f32_pack_size(&g), ws = pk_conv2d_f32_workspace(&g, ptera_threadpool_size(pool));
    ptera_method_memory mem = PTERA_METHOD_MEMORY_INIT;
    CHECK(pack > 0 && ws > 0 && ptera_method_get_memory(m, &mem) == PTERA_OK);
    if (wconst) {
      CHECK(mem.packed_bytes >= pack); /* the filters were packed at create */
      CHECK(mem.temp_bytes >= ws);
    } else {
      CHECK(mem.packed_bytes < pack);
      CHECK(mem.temp_bytes >= ws + pack); /* room to pack per call */
    }
    for (int rep = 0; rep < 2; rep++) exec_check(m, wconst);
    ptera_method_destroy(m);
  }
  ptera_program_destroy(p);
  CHECK(eu_live == 0);
}

/* Fails allocation n = 1, 2, ... of load + create until both succeed, then
 * executes: every failure is MemoryAllocationFailed with a message and leaves
 * nothing live; the two inside prepare name the filters being packed. */
static void exec_once(ptera_method *m, void *user) { exec_check(m, true); }

static void alloc_failures(const uint8_t *file, size_t size) {
  int in_prepare;
  size_t failures =
      eu_load_failures(file, size, "out of memory packing 7 x 5 x 3 x 3 filters", &in_prepare, exec_once, NULL);
  CHECK(failures > 5 && in_prepare == 2);
}

int main(void) {
  for (size_t i = 0; i < NX; i++) x[i] = frand();
  for (size_t i = 0; i < NW; i++) w[i] = frand();
  for (size_t i = 0; i < CO; i++) b[i] = frand();
  ptera_threadpool *pool = NULL;
  CHECK(ptera_threadpool_create(2, NULL, &pool) == PTERA_OK);
  for (int wconst = 1; wconst >= 0; wconst--) {
    size_t size = 0;
    uint8_t *file = emit(wconst, &size);
    if (!file) continue;
    method_case(file, size, wconst, NULL);
    method_case(file, size, wconst, pool);
    if (wconst) alloc_failures(file, size);
    pt_free(NULL, file);
  }
  ptera_threadpool_destroy(pool);
  return check_summary("conv_prepare");
}
