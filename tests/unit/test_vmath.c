/* The float32 vector math (kernels/cpu/vmath.h) against libm in double, for
 * every ISA this CPU has (forced in turn): the worst error in ulps over a
 * dense sweep of [-120, 120], random bit patterns and the edge values (NaN,
 * +-inf, -0.0, denormals, the overflow and underflow thresholds), each within
 * the bound vmath.h documents; the exact ops bit for bit. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cpu/isa.h"
#include "cpu/vmath.h"

static double ref_exp(double x) { return exp(x); }
static double ref_tanh(double x) { return tanh(x); }
static double ref_sigmoid(double x) { return x >= 0 ? 1.0 / (1.0 + exp(-x)) : exp(x) / (1.0 + exp(x)); }
static double ref_gelu_erf(double x) { return x * 0.5 * erfc(-x * 0.70710678118654752440); }
static double ref_gelu_tanh(double x) {
  double u = 0.79788456080286535588 * (x + 0.044715 * x * x * x);
  return x * ref_sigmoid(2.0 * u);
}
static double ref_rsqrt(double x) { return 1.0 / sqrt(x); }

/* Error of got in units of the float ulp at the reference (denormal spacing
 * below FLT_MIN); infinite when NaN-ness, infinity or sign of zero disagree. */
static double ulps(float got, double want) {
  if (isnan(want)) return isnan(got) ? 0.0 : INFINITY;
  if (isnan(got)) return INFINITY;
  float wf = (float)want;
  if (isinf(wf) || isinf(got)) return wf == got ? 0.0 : INFINITY;
  if (want == 0.0 && got == 0.0) return !signbit(want) == !signbit(got) ? 0.0 : INFINITY;
  double a = fabs(want) < FLT_MIN ? FLT_MIN : fabs((double)wf);
  int e;
  frexp(a, &e);
  double ulp = ldexp(1.0, e - 24);
  return fabs((double)got - want) / ulp;
}

static uint32_t rng = 12345u;
static uint32_t next_u32(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

#define NX 6000
static float xs[NX], ys[NX];
static size_t nx;

static void fill_inputs(double lo, double hi) {
  static const float edge[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-45f, -1e-45f, 1e-40f,
                               -1e-40f, FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX, 88.72f, 88.73f,
                               -87.33f, -103.0f, -103.97f, -104.5f, 10.0f, -10.0f, 9.0f, 0.5f,
                               -0.5f, 0.7071f, -0.7071f, 0.70710677f, -0.70710677f, 1e-8f, -1e-8f};
  nx = 0;
  for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) xs[nx++] = edge[i];
  size_t dense = 4000;
  for (size_t i = 0; i < dense; i++) xs[nx++] = (float)(lo + (hi - lo) * (double)i / (double)(dense - 1));
  while (nx < NX) {
    uint32_t u = next_u32();
    float f;
    memcpy(&f, &u, sizeof f);
    xs[nx++] = f;
  }
}

/* The worst ulp error for x >= tail; below tail (where rounding the argument
 * alone costs ~x^2 ulps, for libm in float as well) the relative error must
 * stay under 2e-5 (+1e-37 where it underflows; the conformance suite's tolerance for transcendental ops). */
static double worst(pk_vunary_f32 fn, double (*ref)(double), const char *name, const char *isa,
                    double bound, double tail) {
  /* unaligned start and odd lengths exercise the tails */
  fn(nx - 3, xs + 3, ys + 3);
  fn(3, xs, ys);
  double w = 0.0;
  float at = 0.0f;
  for (size_t i = 0; i < nx; i++) {
    double want = ref((double)xs[i]);
    if (xs[i] < tail) {
      if (!(fabs(ys[i] - want) <= 2e-5 * fabs(want) + 1e-37) && !(isnan(want) && isnan(ys[i]))) {
        if (w < INFINITY) printf("  %s %s tail: x = %.9g got %.9g want %.9g\n", isa, name, xs[i], ys[i], want);
        w = INFINITY;
      }
      continue;
    }
    double u = ulps(ys[i], want);
    if (u > w) {
      w = u;
      at = xs[i];
    }
  }
  printf("  %-7s %-10s max %.2f ulp (at %.9g)\n", isa, name, w, at);
  if (!(w <= bound)) printf("  %s %s exceeds %.1f ulp at x = %.9g\n", isa, name, bound, at);
  return w;
}

static void check_table(const pk_vmath_f32_table *t, const char *isa) {
  fill_inputs(-120.0, 120.0);
  CHECK(worst(t->unary[PK_VU_EXP], ref_exp, "exp", isa, 1.0, -INFINITY) <= 1.0);
  CHECK(worst(t->unary[PK_VU_TANH], ref_tanh, "tanh", isa, 2.0, -INFINITY) <= 2.0);
  CHECK(worst(t->unary[PK_VU_SIGMOID], ref_sigmoid, "sigmoid", isa, 2.0, -INFINITY) <= 2.0);
  CHECK(worst(t->unary[PK_VU_GELU_TANH], ref_gelu_tanh, "gelu_tanh", isa, 12.0, -3.0) <= 12.0);
  CHECK(worst(t->unary[PK_VU_GELU_ERF], ref_gelu_erf, "gelu_erf", isa, 10.0, -3.0) <= 10.0);
  CHECK(worst(t->unary[PK_VU_RSQRT], ref_rsqrt, "rsqrt", isa, 1.5, -INFINITY) <= 1.5);
  fill_inputs(-6.0, 6.0); /* where the activations bend */
  CHECK(worst(t->unary[PK_VU_GELU_ERF], ref_gelu_erf, "gelu_erf", isa, 10.0, -3.0) <= 10.0);
  CHECK(worst(t->unary[PK_VU_GELU_TANH], ref_gelu_tanh, "gelu_tanh", isa, 12.0, -3.0) <= 12.0);
  CHECK(worst(t->unary[PK_VU_TANH], ref_tanh, "tanh", isa, 2.0, -INFINITY) <= 2.0);

  /* exact ops, bit for bit against C */
  fill_inputs(-3.0, 3.0);
  static float a[NX], b[NX], y[NX];
  for (size_t i = 0; i < nx; i++) {
    a[i] = xs[nx - 1 - i];
    b[i] = xs[i];
  }
  int bad = 0;
  for (int op = 0; op < PK_VB_COUNT; op++)
    for (int mode = 0; mode < PK_VB_MODES; mode++) {
      t->binary[op][mode](nx - 1, a + 1, b + 1, y + 1);
      for (size_t i = 1; i < nx; i++) {
        float x0 = mode == PK_VB_SCALAR_A ? a[1] : a[i], x1 = mode == PK_VB_SCALAR_B ? b[1] : b[i];
        float want = op == PK_VB_ADD ? x0 + x1 : op == PK_VB_SUB ? x0 - x1 : op == PK_VB_MUL ? x0 * x1 : x0 / x1;
        if (memcmp(&want, &y[i], 4) != 0 && !(isnan(want) && isnan(y[i]))) bad++;
      }
    }
  t->unary[PK_VU_RELU](nx, xs, y);
  for (size_t i = 0; i < nx; i++) {
    float want = (xs[i] > 0.0f || xs[i] != xs[i]) ? xs[i] : 0.0f;
    if (memcmp(&want, &y[i], 4) != 0 && !(isnan(want) && isnan(y[i]))) bad++;
  }
  t->unary[PK_VU_NEG](nx, xs, y);
  for (size_t i = 0; i < nx; i++) {
    float want = -xs[i];
    if (memcmp(&want, &y[i], 4) != 0) bad++;
  }
  t->clamp(nx - 5, xs + 5, -1.5f, 2.0f, y + 5);
  for (size_t i = 5; i < nx; i++) {
    float want = xs[i];
    if (want < -1.5f) want = -1.5f;
    if (want > 2.0f) want = 2.0f;
    if (memcmp(&want, &y[i], 4) != 0 && !(isnan(want) && isnan(y[i]))) bad++;
  }
  CHECK(bad == 0);
  if (bad) printf("  %s: %d exact-op mismatches\n", isa, bad);

  /* reductions: max (NaN propagates), sum and dot (reordered, relative to the magnitudes) */
  for (size_t n = 0; n < 70; n++) {
    float mx = -INFINITY;
    double s = 0.0, sa = 0.0;
    for (size_t i = 0; i < n; i++) {
      a[i] = (float)((double)((next_u32() % 2001u)) / 100.0 - 10.0);
      if (a[i] > mx) mx = a[i];
      s += a[i];
      sa += fabs(a[i]);
    }
    CHECK(t->max(n, a) == mx);
    CHECK(fabs(t->sum(n, a) - s) <= 1e-6 * sa + 1e-30);
    /* dot against double, relative to the products' magnitudes; axpy bit for
     * bit a product then an add */
    double d = 0.0, da = 0.0;
    for (size_t i = 0; i < n; i++) {
      b[i] = (float)((double)((next_u32() % 2001u)) / 300.0 - 3.0);
      d += (double)a[i] * b[i];
      da += fabs((double)a[i] * b[i]);
      y[i] = (float)((double)((next_u32() % 2001u)) / 50.0 - 20.0);
    }
    CHECK(fabs(t->dot(n, a, b) - d) <= 1e-6 * da + 1e-30);
    float want[70], alpha = (float)((double)(next_u32() % 2001u) / 700.0 - 1.5);
    for (size_t i = 0; i < n; i++) {
      float p = alpha * b[i];
      want[i] = y[i] + p;
    }
    t->axpy(n, alpha, b, y);
    CHECK(n == 0 || memcmp(want, y, n * sizeof(float)) == 0);
    if (n > 0) {
      a[n / 2] = NAN;
      CHECK(isnan(t->max(n, a)));
      CHECK(isnan(t->dot(n, a, b)));
      a[n / 2] = INFINITY;
      b[n / 2] = -1.0f;
      CHECK(t->dot(n, a, b) == -INFINITY);
    }
  }
  /* softmax rows against double; NaN or +inf anywhere makes the row NaN; all -inf is NaN */
  for (size_t n = 1; n < 40; n += 3) {
    double mx = -INFINITY, s = 0.0;
    for (size_t i = 0; i < n; i++) {
      a[i] = (float)((double)(next_u32() % 4001u) / 100.0 - 20.0);
      if (a[i] > mx) mx = a[i];
    }
    for (size_t i = 0; i < n; i++) s += exp(a[i] - mx);
    t->softmax(n, a, y);
    double e1 = 0.0, e2 = 0.0;
    for (size_t i = 0; i < n; i++) e1 = fmax(e1, fabs(y[i] - exp(a[i] - mx) / s) / (exp(a[i] - mx) / s));
    t->log_softmax(n, a, y);
    for (size_t i = 0; i < n; i++) e2 = fmax(e2, fabs(y[i] - (a[i] - mx - log(s))) / (1.0 + fabs(a[i] - mx - log(s))));
    if (e1 >= 1e-5 || e2 >= 2e-6) printf("  %s softmax n=%zu: %g %g\n", isa, n, e1, e2);
    CHECK(e1 < 1e-5);
    CHECK(e2 < 2e-6);
    a[n - 1] = NAN;
    t->softmax(n, a, y);
    CHECK(isnan(y[0]));
    for (size_t i = 0; i < n; i++) a[i] = -INFINITY;
    t->softmax(n, a, y);
    CHECK(isnan(y[n - 1]));
  }
}

int main(void) {
  for (int i = 0; i < PK_ISA_COUNT; i++) {
    if (!pk_isa_available((pk_isa)i)) continue;
    pk_isa_force((pk_isa)i);
    check_table(pk_vmath_f32(), pk_isa_name((pk_isa)i));
  }
  pk_isa_force(PK_ISA_COUNT);
  return check_summary("vmath");
}
