/* The f32 pooling fast path (kernels/cpu/pool2d.c and the pool
 * micro-kernels) against the portable kernels run in double: max pool with
 * indices on randomized shapes across vector-tile edges (stride 1, 2 and 3,
 * padding, dilation, ceil mode, ties, NaN and -inf), every available ISA
 * forced in turn, then aten::max_pool2d_with_indices.out on f32 tensors;
 * average pool likewise, and through aten::avg_pool2d.out;
 * global average pool through aten::_adaptive_avg_pool2d.out (1 x 1) and
 * aten::mean.out over H and W. */
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "cpu/pool2d.h"
#include "kernel_test_util.h"
#include "portable/util/pool_util.h"

static uint32_t rng = 777u;
static uint32_t rnd(uint32_t n) {
  rng = rng * 1664525u + 1013904223u;
  return (rng >> 8) % n;
}

static size_t cases, runs;

/* Values from a small set (ties) with the odd NaN and -inf. */
static float pick_value(void) {
  uint32_t r = rnd(100);
  if (r == 0) return NAN;
  if (r < 3) return -INFINITY;
  if (r < 6) return -0.0f; /* beside +0: the first zero's sign wins */
  return (float)((int)rnd(9) - 4) * 0.25f;
}

static ptera_status run_maxpool(int dt, void *in, size_t es, int64_t N, int64_t C, int64_t H, int64_t W,
                                const int64_t *k, const int64_t *s, const int64_t *p, const int64_t *d, bool ceil,
                                void *out, int64_t *idx, int64_t OH, int64_t OW) {
  int32_t is[4] = {(int32_t)N, (int32_t)C, (int32_t)H, (int32_t)W};
  int32_t os[4] = {(int32_t)N, (int32_t)C, (int32_t)OH, (int32_t)OW};
  size_t nin = (size_t)(N * C * H * W), nout = (size_t)(N * C * OH * OW);
  ptera_value *vo = kt_tensor(dt, out, nout * es, 4, os, NULL, PTERA_SHAPE_STATIC);
  ptera_value *vx = kt_tensor(PTERA_DTYPE_LONG, idx, nout * 8, 4, os, NULL, PTERA_SHAPE_STATIC);
  ptera_status st = KT_CALL("aten::max_pool2d_with_indices.out", kt_tensor(dt, in, nin * es, 4, is, NULL, PTERA_SHAPE_STATIC),
                            KT_IL(k[0], k[1]), KT_IL(s[0], s[1]), KT_IL(p[0], p[1]), KT_IL(d[0], d[1]),
                            kt_bool(ceil), vo, vx, vo);
  kt_nt = kt_nv = kt_np = 0;
  return st;
}

static bool same_f(float a, double b) { return (isnan(a) && isnan(b)) || (double)a == b; }

/* A random case; square3: the CNN stem's 3x3 window (stride 1 or 2, padding
 * 0 or 1, dilation 1) on planes wide enough for whole vectors, the shape the
 * vector kernels keep in registers; tall: stride 2 on planes of up to 40
 * rows (the separable path keeps each input row's maxima for the next
 * output row). */
static void maxpool_case(bool square3, bool tall) {
  int64_t N = 1 + rnd(2), C = 1 + rnd(3), H = 1 + rnd(12), W = 1 + rnd(45), k[2], s[2], p[2], d[2];
  for (int i = 0; i < 2; i++) {
    k[i] = 1 + rnd(4);
    s[i] = 1 + rnd(3);
    p[i] = rnd((uint32_t)(k[i] / 2 + 1));
    d[i] = 1 + rnd(2);
  }
  if (rnd(2)) s[1] = s[0]; /* mostly square strides, which the vector kernels take */
  if (square3) {
    H = 3 + rnd(10), W = 20 + rnd(60);
    k[0] = k[1] = 3, d[0] = d[1] = 1, s[0] = s[1] = 1 + rnd(2), p[0] = p[1] = rnd(2);
    if (tall) H = 13 + rnd(28), W = 36 + rnd(70), s[0] = s[1] = 2;
  }
  bool ceil = rnd(3) == 0;
  int64_t OH = pk_pool_out_size(H, k[0], s[0], p[0], d[0], ceil), OW = pk_pool_out_size(W, k[1], s[1], p[1], d[1], ceil);
  if (OH <= 0 || OW <= 0) return;
  size_t nin = (size_t)(N * C * H * W), nout = (size_t)(N * C * OH * OW);
  float *in = malloc(nin * sizeof *in), *out = malloc(nout * sizeof *out);
  double *din = malloc(nin * sizeof *din), *ref = malloc(nout * sizeof *ref);
  int64_t *idx = malloc(nout * 8), *ridx = malloc(nout * 8);
  for (size_t i = 0; i < nin; i++) din[i] = in[i] = pick_value();
  cases++;
  CHECK(run_maxpool(PTERA_DTYPE_DOUBLE, din, 8, N, C, H, W, k, s, p, d, ceil, ref, ridx, OH, OW) == PTERA_OK);
  pk_maxpool2d_params mp = {(size_t)H, (size_t)W, (size_t)OH, (size_t)OW, (size_t)k[0], (size_t)k[1], (size_t)s[0],
                            (size_t)s[1], (size_t)d[0], (size_t)d[1], (size_t)p[0], (size_t)p[1]};
  bool ok = true;
  for (int isa = 0; isa <= PK_ISA_COUNT; isa++) { /* PK_ISA_COUNT: through the op, detected ISA */
    if (isa < PK_ISA_COUNT && !pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)(isa < PK_ISA_COUNT ? isa : PK_ISA_COUNT));
    for (size_t i = 0; i < nout; i++) out[i] = 99.0f, idx[i] = -7;
    if (isa < PK_ISA_COUNT)
      pk_maxpool2d_f32(&mp, (size_t)(N * C), in, out, idx, NULL);
    else
      CHECK(run_maxpool(PTERA_DTYPE_FLOAT, in, 4, N, C, H, W, k, s, p, d, ceil, out, idx, OH, OW) == PTERA_OK);
    runs++;
    for (size_t i = 0; i < nout && ok; i++)
      if (!same_f(out[i], ref[i]) || idx[i] != ridx[i]) {
        printf("  %s [%zu]: got %g @%lld want %g @%lld (in %lldx%lld k %lldx%lld s %lld,%lld p %lld,%lld d %lld,%lld%s)\n",
               isa < PK_ISA_COUNT ? pk_isa_name((pk_isa)isa) : "op", i, out[i], (long long)idx[i], ref[i],
               (long long)ridx[i], (long long)H, (long long)W, (long long)k[0], (long long)k[1], (long long)s[0],
               (long long)s[1], (long long)p[0], (long long)p[1], (long long)d[0], (long long)d[1],
               ceil ? " ceil" : "");
        ok = false;
      }
  }
  /* without indices: the same values, bit for bit (NaN payloads, -0) */
  float *vals = malloc(nout * sizeof *vals);
  for (int isa = 0; isa < PK_ISA_COUNT && ok; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    pk_maxpool2d_f32(&mp, (size_t)(N * C), in, out, idx, NULL);
    for (size_t i = 0; i < nout; i++) vals[i] = 99.0f;
    pk_maxpool2d_f32(&mp, (size_t)(N * C), in, vals, NULL, NULL);
    runs++;
    if (memcmp(vals, out, nout * sizeof *vals) != 0) {
      printf("  %s: values without indices differ\n", pk_isa_name((pk_isa)isa));
      ok = false;
    }
  }
  pk_isa_force(PK_ISA_COUNT);
  CHECK(ok);
  free(vals);
  free(in), free(out), free(din), free(ref), free(idx), free(ridx);
}

/* Global average pool: the op wrappers (f32, fast) against the portable
 * adaptive average pool in double, every ISA forced. */
static void gavg_case(void) {
  int64_t N = 1 + rnd(2), C = 1 + rnd(5), H = 1 + rnd(9), W = 1 + rnd(40);
  size_t nin = (size_t)(N * C * H * W), nout = (size_t)(N * C);
  float *in = malloc(nin * sizeof *in), *out = malloc(nout * sizeof *out);
  double *din = malloc(nin * sizeof *din), *ref = malloc(nout * sizeof *ref);
  for (size_t i = 0; i < nin; i++) din[i] = in[i] = (float)((int)rnd(2001) - 1000) / 1000.0f;
  int32_t is[4] = {(int32_t)N, (int32_t)C, (int32_t)H, (int32_t)W}, os[4] = {(int32_t)N, (int32_t)C, 1, 1};
  cases++;
  CHECK(KT_CALL("aten::_adaptive_avg_pool2d.out", kt_tensor(PTERA_DTYPE_DOUBLE, din, nin * 8, 4, is, NULL, 0),
                KT_IL(1, 1), kt_tensor(PTERA_DTYPE_DOUBLE, ref, nout * 8, 4, os, NULL, 0), kt_none()) == PTERA_OK);
  kt_nt = kt_nv = kt_np = 0;
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    for (int via = 0; via < 2; via++) {
      for (size_t i = 0; i < nout; i++) out[i] = NAN;
      ptera_value *vi = kt_tensor(PTERA_DTYPE_FLOAT, in, nin * 4, 4, is, NULL, 0);
      ptera_status st;
      if (via == 0) {
        ptera_value *vo = kt_tensor(PTERA_DTYPE_FLOAT, out, nout * 4, 4, os, NULL, 0);
        st = KT_CALL("aten::_adaptive_avg_pool2d.out", vi, KT_IL(1, 1), vo, vo);
      } else { /* mean over [-1, -2], keepdim false: out [N, C] */
        ptera_value *vo = kt_tensor(PTERA_DTYPE_FLOAT, out, nout * 4, 2, os, NULL, 0);
        st = KT_CALL("aten::mean.out", vi, KT_IL(-1, -2), kt_bool(false), kt_none(), vo, vo);
      }
      kt_nt = kt_nv = kt_np = 0;
      CHECK(st == PTERA_OK);
      runs++;
      for (size_t i = 0; i < nout; i++)
        if (!(fabs(out[i] - ref[i]) <= 1e-6 * (1.0 + fabs(ref[i])))) {
          printf("  gavg %s via %d [%zu]: got %.9g want %.9g\n", pk_isa_name((pk_isa)isa), via, i, out[i], ref[i]);
          CHECK(false);
          break;
        }
    }
  }
  pk_isa_force(PK_ISA_COUNT);
  free(in), free(out), free(din), free(ref);
}

static ptera_status run_avgpool(int dt, void *in, size_t es, const int64_t *shape, const int64_t *k, const int64_t *s,
                                const int64_t *p, bool ceil, bool include_pad, int64_t div, void *out, int64_t OH,
                                int64_t OW) {
  int32_t is[4] = {(int32_t)shape[0], (int32_t)shape[1], (int32_t)shape[2], (int32_t)shape[3]};
  int32_t os[4] = {is[0], is[1], (int32_t)OH, (int32_t)OW};
  size_t nin = (size_t)(shape[0] * shape[1] * shape[2] * shape[3]), nout = (size_t)(shape[0] * shape[1] * OH * OW);
  ptera_value *vo = kt_tensor(dt, out, nout * es, 4, os, NULL, PTERA_SHAPE_STATIC);
  ptera_status st = KT_CALL("aten::avg_pool2d.out", kt_tensor(dt, in, nin * es, 4, is, NULL, PTERA_SHAPE_STATIC),
                            KT_IL(k[0], k[1]), KT_IL(s[0], s[1]), KT_IL(p[0], p[1]), kt_bool(ceil),
                            kt_bool(include_pad), div ? kt_int(div) : kt_none(), vo, vo);
  kt_nt = kt_nv = kt_np = 0;
  return st;
}

/* Average pool: the micro-kernels (each ISA) and aten::avg_pool2d.out on
 * f32 against the portable kernel in double; padding, ceil mode, with and
 * without the padding counted, a divisor override; wide rows past the
 * column buffer (256 floats) and a window wider than it. */
static void avgpool_case(int64_t H, int64_t W, int64_t kh, int64_t kw) {
  int64_t N = 1 + rnd(2), C = 1 + rnd(3), k[2] = {kh, kw}, s[2], p[2];
  for (int i = 0; i < 2; i++) {
    s[i] = 1 + rnd(3);
    p[i] = rnd((uint32_t)(k[i] / 2 + 1));
  }
  bool ceil = rnd(3) == 0, include_pad = rnd(2) == 0;
  int64_t div = rnd(4) == 0 ? (int64_t)rnd(7) - 3 : 0;
  int64_t OH = pk_pool_out_size(H, k[0], s[0], p[0], 1, ceil), OW = pk_pool_out_size(W, k[1], s[1], p[1], 1, ceil);
  if (OH <= 0 || OW <= 0) return;
  int64_t shape[4] = {N, C, H, W};
  size_t nin = (size_t)(N * C * H * W), nout = (size_t)(N * C * OH * OW);
  float *in = malloc(nin * sizeof *in), *out = malloc(nout * sizeof *out);
  double *din = malloc(nin * sizeof *din), *ref = malloc(nout * sizeof *ref);
  for (size_t i = 0; i < nin; i++) din[i] = in[i] = (float)((int)rnd(2001) - 1000) / 1000.0f;
  cases++;
  CHECK(run_avgpool(PTERA_DTYPE_DOUBLE, din, 8, shape, k, s, p, ceil, include_pad, div, ref, OH, OW) == PTERA_OK);
  pk_avgpool2d_params ap = {(size_t)H, (size_t)W, (size_t)OH, (size_t)OW, (size_t)k[0], (size_t)k[1], (size_t)s[0],
                            (size_t)s[1], (size_t)p[0], (size_t)p[1], div, include_pad};
  bool ok = true;
  for (int isa = 0; isa <= PK_ISA_COUNT; isa++) { /* PK_ISA_COUNT: through the op, detected ISA */
    if (isa < PK_ISA_COUNT && !pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)(isa < PK_ISA_COUNT ? isa : PK_ISA_COUNT));
    for (size_t i = 0; i < nout; i++) out[i] = 99.0f;
    if (isa < PK_ISA_COUNT)
      pk_avgpool2d_f32(&ap, (size_t)(N * C), in, out, NULL);
    else
      CHECK(run_avgpool(PTERA_DTYPE_FLOAT, in, 4, shape, k, s, p, ceil, include_pad, div, out, OH, OW) == PTERA_OK);
    runs++;
    for (size_t i = 0; i < nout && ok; i++)
      if (!(fabs(out[i] - ref[i]) <= 1e-5 * (1.0 + fabs(ref[i])))) {
        printf("  avgpool %s [%zu]: got %.9g want %.9g (in %lldx%lld k %lldx%lld s %lld,%lld p %lld,%lld%s%s div %lld)\n",
               isa < PK_ISA_COUNT ? pk_isa_name((pk_isa)isa) : "op", i, out[i], ref[i], (long long)H, (long long)W,
               (long long)k[0], (long long)k[1], (long long)s[0], (long long)s[1], (long long)p[0], (long long)p[1],
               ceil ? " ceil" : "", include_pad ? " include_pad" : "", (long long)div);
        ok = false;
      }
  }
  pk_isa_force(PK_ISA_COUNT);
  CHECK(ok);
  free(in), free(out), free(din), free(ref);
}

int main(void) {
  for (int i = 0; i < 300; i++) maxpool_case(false, false);
  for (int i = 0; i < 40; i++) maxpool_case(true, false);
  for (int i = 0; i < 30; i++) maxpool_case(true, true);
  for (int i = 0; i < 200; i++) avgpool_case(1 + rnd(12), 1 + rnd(45), 1 + rnd(4), 1 + rnd(4));
  avgpool_case(3, 1500, 3, 3);
  avgpool_case(2, 2100, 2, 7);
  avgpool_case(2, 1100, 1, 1030);
  for (int i = 0; i < 60; i++) gavg_case();
  printf("pool_fast: %zu cases, %zu fast-path runs\n", cases, runs);
  return check_summary("pool_fast");
}
