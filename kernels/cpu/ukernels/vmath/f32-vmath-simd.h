/* The float32 vector-math algorithms, written once over a small vector
 * vocabulary that each ISA file defines before including this (one ISA per
 * translation unit, compiled with that ISA's flags):
 *   VF (W lanes of float), VM (a lane mask), DUP LD ST, ADD SUB MUL DIV
 *   FMA(a,b,c)=a*b+c (FMA_EXACT: fused, for exact products), MAX MIN (either result on NaN), SQRT, RNDN (to nearest),
 *   POW2(n) (2^n for integral n in [-126, 127]), AND OR XOR (bits),
 *   LT(a,b) ISNAN(a) (masks), MOR (mask or), MANY (any lane set),
 *   SEL(m,a,b) = m ? b : a, HSUM HMAX (horizontal; HMAX ignores NaN handling).
 * Tails shorter than W go through a W-lane stack buffer so every element
 * takes the same vector path. Prefix: VM_ for this file's statics. */
#include <math.h>
#include <string.h>

#include "cpu/vmath.h"

#define VM_LOG2E 1.44269504088896341f
#define VM_LN2_HI 0.693145751953125f
#define VM_LN2_LO 1.42860682030941723212e-6f

static inline VF vm_sign_bit(void) { return DUP(-0.0f); }

/* exp(x): x = n ln2 + r, |r| <= ln2/2, a degree-7 Taylor polynomial (truncation
 * < 6e-9 relative), then 2^n applied as two factors so results between the
 * overflow and underflow thresholds (denormals included) round once. */
static inline VF vm_exp(VF x) {
  VF xc = MIN(MAX(x, DUP(-104.0f)), DUP(89.0f));
  VF n = RNDN(MUL(xc, DUP(VM_LOG2E)));
  VF r = FMA(n, DUP(-VM_LN2_HI), xc);
  r = FMA(n, DUP(-VM_LN2_LO), r);
  VF p = DUP(1.0f / 5040.0f);
  p = FMA(p, r, DUP(1.0f / 720.0f));
  p = FMA(p, r, DUP(1.0f / 120.0f));
  p = FMA(p, r, DUP(1.0f / 24.0f));
  p = FMA(p, r, DUP(1.0f / 6.0f));
  p = FMA(p, r, DUP(0.5f));
  p = FMA(p, MUL(r, r), r); /* expm1(r) */
  p = ADD(p, DUP(1.0f));
  VF n1 = RNDN(MUL(n, DUP(0.5f)));
  VF n2 = SUB(n, n1);
  VF y = MUL(MUL(p, POW2(n1)), POW2(n2));
  return SEL(ISNAN(x), y, x);
}

/* expm1(x) for 0 <= x <= 20: 2^n * expm1(r) + (2^n - 1), no cancellation. */
static inline VF vm_expm1_pos(VF x) {
  VF n = RNDN(MUL(x, DUP(VM_LOG2E)));
  VF r = FMA(n, DUP(-VM_LN2_HI), x);
  r = FMA(n, DUP(-VM_LN2_LO), r);
  VF p = DUP(1.0f / 40320.0f);
  p = FMA(p, r, DUP(1.0f / 5040.0f));
  p = FMA(p, r, DUP(1.0f / 720.0f));
  p = FMA(p, r, DUP(1.0f / 120.0f));
  p = FMA(p, r, DUP(1.0f / 24.0f));
  p = FMA(p, r, DUP(1.0f / 6.0f));
  p = FMA(p, r, DUP(0.5f));
  p = FMA(p, MUL(r, r), r);
  VF s = POW2(n);
  return FMA(s, p, SUB(s, DUP(1.0f)));
}

/* tanh(|x|) = t / (t + 2) with t = expm1(2|x|); |x| >= 10 gives 1. */
static inline VF vm_tanh(VF x) {
  VF sgn = AND(x, vm_sign_bit());
  VF a = MIN(XOR(x, sgn), DUP(10.0f));
  VF t = vm_expm1_pos(ADD(a, a));
  VF y = OR(DIV(t, ADD(t, DUP(2.0f))), sgn);
  return SEL(ISNAN(x), y, x);
}

/* 1 / (1 + e) for x >= 0 and e / (1 + e) for x < 0, e = exp(-|x|). */
static inline VF vm_sigmoid(VF x) {
  VF e = vm_exp(OR(x, vm_sign_bit()));
  VF num = SEL(LT(x, DUP(0.0f)), DUP(1.0f), e);
  return DIV(num, ADD(e, DUP(1.0f)));
}

/* erfc(z) for 0.5 <= z <= 10.5: exp(-z^2) * P(1 / (1 + z/2)), P fitted (least squares
 * in double, rounded to float) to erfc(z) exp(z^2) on [0.5, 10.5], relative
 * error 1e-8; z^2 split exactly into hi + lo so exp(-z^2) = exp(-hi) (1 - lo). */
static inline VF vm_erfc_big(VF z) {
  static const float c[12] = {0.0623334274f, -0.326504022f, 0.684203982f, -0.679210782f,
                              0.296820879f,  -0.137370065f, 0.11749357f,  0.170671523f,
                              0.247404143f,  0.282067716f,  0.282094538f, 5.77242467e-08f};
  VF u = DIV(DUP(1.0f), FMA(z, DUP(0.5f), DUP(1.0f)));
  VF p = DUP(c[0]);
  for (int i = 1; i < 12; i++) p = FMA(p, u, DUP(c[i]));
  VF hi = MUL(z, z);
  VF lo = FMA_EXACT(z, z, XOR(hi, vm_sign_bit())); /* z*z - hi, exact */
  VF e = vm_exp(XOR(hi, vm_sign_bit()));
  return MUL(MUL(e, p), SUB(DUP(1.0f), lo));
}

/* erf(z) / z for |z| <= 0.5: a degree-4 polynomial in z^2 (least squares, 6e-8). */
static inline VF vm_erf_small(VF z) {
  VF w = MUL(z, z);
  VF p = DUP(0.00474460796f);
  p = FMA(p, w, DUP(-0.0267692562f));
  p = FMA(p, w, DUP(0.112829909f));
  p = FMA(p, w, DUP(-0.37612617f));
  p = FMA(p, w, DUP(1.12837911f));
  return MUL(p, z);
}

/* x * Phi(x), Phi(x) = (1 + erf(x/sqrt2)) / 2 near 0 and erfc(|x|/sqrt2)/2 (or one
 * minus it) beyond, so the tail of a negative x keeps its relative accuracy. */
static inline VF vm_gelu_erf(VF x) {
  VF z = MUL(x, DUP(0.707106781186547524f));
  VF sgn = AND(z, vm_sign_bit());
  VF az = XOR(z, sgn);
  VF small = FMA(vm_erf_small(z), DUP(0.5f), DUP(0.5f));
  VF half_erfc = MUL(vm_erfc_big(MIN(MAX(az, DUP(0.5f)), DUP(10.5f))), DUP(0.5f));
  VF big = SEL(LT(x, DUP(0.0f)), SUB(DUP(1.0f), half_erfc), half_erfc);
  VF phi = SEL(LT(az, DUP(0.5f)), big, small);
  VF y = MUL(x, phi);
  return SEL(ISNAN(x), y, x);
}

/* x/2 (1 + tanh(u)) = x * sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3). */
static inline VF vm_gelu_tanh(VF x) {
  VF x3 = MUL(MUL(x, x), x);
  VF u = MUL(DUP(0.797884560802865355f), FMA(x3, DUP(0.044715f), x));
  VF y = MUL(x, vm_sigmoid(ADD(u, u)));
  return SEL(ISNAN(x), y, x);
}

static inline VF vm_rsqrt(VF x) { return DIV(DUP(1.0f), SQRT(x)); }
/* x > 0 ? x : +0, NaN kept (the portable relu; -0.0 gives +0). */
static inline VF vm_relu(VF x) { return SEL(ISNAN(x), SEL(LT(DUP(0.0f), x), DUP(0.0f), x), x); }
static inline VF vm_neg(VF x) { return XOR(x, vm_sign_bit()); }

/* Applies F to n floats, the tail through a padded buffer. */
#define VM_UNARY(name, F)                                                    \
  static void name(size_t n, const float *x, float *y) {                    \
    size_t i = 0;                                                            \
    for (; i + W <= n; i += W) ST(y + i, F(LD(x + i)));                      \
    if (i < n) {                                                             \
      float buf[W];                                                          \
      memset(buf, 0, sizeof buf);                                            \
      memcpy(buf, x + i, (n - i) * sizeof(float));                           \
      ST(buf, F(LD(buf)));                                                   \
      memcpy(y + i, buf, (n - i) * sizeof(float));                           \
    }                                                                        \
  }
VM_UNARY(vm_exp_run, vm_exp)
VM_UNARY(vm_tanh_run, vm_tanh)
VM_UNARY(vm_sigmoid_run, vm_sigmoid)
VM_UNARY(vm_gelu_erf_run, vm_gelu_erf)
VM_UNARY(vm_gelu_tanh_run, vm_gelu_tanh)
VM_UNARY(vm_rsqrt_run, vm_rsqrt)
VM_UNARY(vm_relu_run, vm_relu)
VM_UNARY(vm_neg_run, vm_neg)

static void vm_clamp_run(size_t n, const float *x, float lo, float hi, float *y) {
  VF l = DUP(lo), h = DUP(hi);
  size_t i = 0;
  for (; i < n; i += W) {
    size_t k = n - i < W ? n - i : W;
    float buf[W];
    const float *src = x + i;
    if (k < W) {
      memset(buf, 0, sizeof buf);
      memcpy(buf, src, k * sizeof(float));
      src = buf;
    }
    VF v = LD(src);
    v = SEL(LT(v, l), v, l); /* NaN fails both tests and stays */
    v = SEL(LT(h, v), v, h);
    if (k < W) {
      ST(buf, v);
      memcpy(y + i, buf, k * sizeof(float));
    } else {
      ST(y + i, v);
    }
  }
}

/* Binary runs: a vector op per mode, the tail through padded buffers. */
#define VM_BINARY(name, OPV)                                                      \
  static void name##_rr(size_t n, const float *a, const float *b, float *y) {     \
    size_t i = 0;                                                                 \
    for (; i + W <= n; i += W) ST(y + i, OPV(LD(a + i), LD(b + i)));              \
    if (i < n) {                                                                  \
      float ba[W], bb[W];                                                         \
      memset(ba, 0, sizeof ba);                                                   \
      memset(bb, 0, sizeof bb);                                                   \
      memcpy(ba, a + i, (n - i) * sizeof(float));                                 \
      memcpy(bb, b + i, (n - i) * sizeof(float));                                 \
      ST(ba, OPV(LD(ba), LD(bb)));                                                \
      memcpy(y + i, ba, (n - i) * sizeof(float));                                 \
    }                                                                             \
  }                                                                               \
  static void name##_rs(size_t n, const float *a, const float *b, float *y) {     \
    VF s = DUP(*b);                                                               \
    size_t i = 0;                                                                 \
    for (; i + W <= n; i += W) ST(y + i, OPV(LD(a + i), s));                      \
    if (i < n) {                                                                  \
      float ba[W];                                                                \
      memset(ba, 0, sizeof ba);                                                   \
      memcpy(ba, a + i, (n - i) * sizeof(float));                                 \
      ST(ba, OPV(LD(ba), s));                                                     \
      memcpy(y + i, ba, (n - i) * sizeof(float));                                 \
    }                                                                             \
  }                                                                               \
  static void name##_sr(size_t n, const float *a, const float *b, float *y) {     \
    VF s = DUP(*a);                                                               \
    size_t i = 0;                                                                 \
    for (; i + W <= n; i += W) ST(y + i, OPV(s, LD(b + i)));                      \
    if (i < n) {                                                                  \
      float bb[W];                                                                \
      memset(bb, 0, sizeof bb);                                                   \
      memcpy(bb, b + i, (n - i) * sizeof(float));                                 \
      ST(bb, OPV(s, LD(bb)));                                                     \
      memcpy(y + i, bb, (n - i) * sizeof(float));                                 \
    }                                                                             \
  }
VM_BINARY(vm_add, ADD)
VM_BINARY(vm_sub, SUB)
VM_BINARY(vm_mul, MUL)
VM_BINARY(vm_div, DIV)

/* Loads lanes [i, i + W) of x, the missing ones (past n) as fill. */
static inline VF vm_load_fill(const float *x, size_t i, size_t n, float fill) {
  if (i + W <= n) return LD(x + i);
  float buf[W];
  for (size_t k = 0; k < W; k++) buf[k] = i + k < n ? x[i + k] : fill;
  return LD(buf);
}

static float vm_sum(size_t n, const float *x) {
  VF s0 = DUP(0.0f), s1 = DUP(0.0f);
  size_t i = 0;
  for (; i + 2 * W <= n; i += 2 * W) {
    s0 = ADD(s0, LD(x + i));
    s1 = ADD(s1, LD(x + i + W));
  }
  for (; i < n; i += W) s0 = ADD(s0, vm_load_fill(x, i, n, 0.0f));
  return HSUM(ADD(s0, s1));
}

static float vm_dot(size_t n, const float *x, const float *y) {
  VF s0 = DUP(0.0f), s1 = DUP(0.0f);
  size_t i = 0;
  for (; i + 2 * W <= n; i += 2 * W) {
    s0 = ADD(s0, MUL(LD(x + i), LD(y + i)));
    s1 = ADD(s1, MUL(LD(x + i + W), LD(y + i + W)));
  }
  for (; i < n; i += W) s0 = ADD(s0, MUL(vm_load_fill(x, i, n, 0.0f), vm_load_fill(y, i, n, 0.0f)));
  return HSUM(ADD(s0, s1));
}

static void vm_axpy(size_t n, float a, const float *x, float *y) {
  VF va = DUP(a);
  size_t i = 0;
  for (; i + W <= n; i += W) ST(y + i, ADD(LD(y + i), MUL(va, LD(x + i))));
  for (; i < n; i++) {
    float p = a * x[i];
    y[i] = y[i] + p;
  }
}

static float vm_max(size_t n, const float *x) {
  VF m = DUP(-INFINITY);
  VM nan = LT(m, m); /* all clear */
  for (size_t i = 0; i < n; i += W) {
    VF v = vm_load_fill(x, i, n, -INFINITY);
    nan = MOR(nan, ISNAN(v));
    m = MAX(v, m);
  }
  return MANY(nan) ? NAN : HMAX(m);
}

/* Writes exp(x - mx) to y and returns the sum. Padding lanes hold -inf
 * (exp 0) unless mx is -inf, when the row is NaN anyway. */
static float vm_exp_shift_sum(size_t n, const float *x, float mx, float *y) {
  VF m = DUP(mx), s = DUP(0.0f);
  size_t i = 0;
  for (; i + W <= n; i += W) {
    VF e = vm_exp(SUB(LD(x + i), m));
    ST(y + i, e);
    s = ADD(s, e);
  }
  if (i < n) {
    float buf[W];
    VF e = vm_exp(SUB(vm_load_fill(x, i, n, -INFINITY), m));
    ST(buf, e);
    memcpy(y + i, buf, (n - i) * sizeof(float));
    s = ADD(s, e);
  }
  return HSUM(s);
}

/* The row's max without NaN handling: a NaN element makes its exp and so the
 * sum NaN, which turns the whole row NaN as the portable kernel does. */
static float vm_row_max(size_t n, const float *x) {
  VF m = DUP(-INFINITY);
  for (size_t i = 0; i < n; i += W) m = MAX(vm_load_fill(x, i, n, -INFINITY), m);
  return HMAX(m);
}

static void vm_softmax(size_t n, const float *x, float *y) {
  float sum = vm_exp_shift_sum(n, x, vm_row_max(n, x), y);
  VF s = DUP(sum);
  size_t i = 0;
  for (; i + W <= n; i += W) ST(y + i, DIV(LD(y + i), s));
  for (; i < n; i++) y[i] = y[i] / sum;
}

static void vm_log_softmax(size_t n, const float *x, float *y) {
  float mx = vm_row_max(n, x);
  float ls = logf(vm_exp_shift_sum(n, x, mx, y));
  VF sh = DUP(mx), l = DUP(ls);
  size_t i = 0;
  for (; i + W <= n; i += W) ST(y + i, SUB(SUB(LD(x + i), sh), l));
  for (; i < n; i++) y[i] = (x[i] - mx) - ls;
}

static void vm_norm_apply(size_t n, const float *x, float mean, float rstd, const float *w,
                          const float *b, float *y) {
  VF m = DUP(mean), r = DUP(rstd);
  size_t i = 0;
  for (; i + W <= n; i += W) {
    VF t = MUL(SUB(LD(x + i), m), r);
    if (w) t = MUL(t, LD(w + i));
    if (b) t = ADD(t, LD(b + i));
    ST(y + i, t);
  }
  for (; i < n; i++) {
    float t = (x[i] - mean) * rstd;
    if (w) t = t * w[i];
    if (b) t = t + b[i];
    y[i] = t;
  }
}

/* Batch norm of one channel: y = ((x - m) * r) * w + b with scalar parameters. */
static void vm_chan_affine(size_t n, const float *x, float m, float r, float w, float b,
                           float *y) {
  VF vm = DUP(m), vr = DUP(r), vw = DUP(w), vb = DUP(b);
  size_t i = 0;
  for (; i + W <= n; i += W) ST(y + i, ADD(MUL(MUL(SUB(LD(x + i), vm), vr), vw), vb));
  for (; i < n; i++) {
    float t = (x[i] - m) * r;
    t = t * w;
    y[i] = t + b;
  }
}

/* Batch norm of one channels-last pixel: the same with per-element parameters. */
static void vm_chan_affine_v(size_t n, const float *x, const float *m, const float *r,
                             const float *w, const float *b, float *y) {
  size_t i = 0;
  for (; i + W <= n; i += W)
    ST(y + i, ADD(MUL(MUL(SUB(LD(x + i), LD(m + i)), LD(r + i)), LD(w + i)), LD(b + i)));
  for (; i < n; i++) {
    float t = (x[i] - m[i]) * r[i];
    t = t * w[i];
    y[i] = t + b[i];
  }
}

#define VM_TABLE(tname)                                                            \
  const pk_vmath_f32_table tname = {                                               \
      {vm_exp_run, vm_tanh_run, vm_sigmoid_run, vm_gelu_erf_run, vm_gelu_tanh_run, \
       vm_rsqrt_run, vm_relu_run, vm_neg_run},                                     \
      vm_clamp_run,                                                                \
      {{vm_add_rr, vm_add_rs, vm_add_sr},                                          \
       {vm_sub_rr, vm_sub_rs, vm_sub_sr},                                          \
       {vm_mul_rr, vm_mul_rs, vm_mul_sr},                                          \
       {vm_div_rr, vm_div_rs, vm_div_sr}},                                         \
      vm_sum,      vm_dot,      vm_axpy,     vm_max,      vm_softmax,     vm_log_softmax,  vm_norm_apply,  \
      vm_chan_affine, vm_chan_affine_v};
