/* Cadence kernels: hand-computed cases for quantize / dequantize / conv2d,
 * argument validation, and the two corpus programs run instruction by
 * instruction (args built from the .pte's own values, weights from its
 * constant segment) against ExecuTorch's outputs, bit for bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cadence/cadence.h"
#include "check.h"
#include "format/npy.h"
#include "format/pte.h"
#include "runtime/kernel_ctx.h"

static const char *g_corpus;

/* ---- building values ------------------------------------------------------ */

static void mk_tensor(ptera_tensor *t, int dtype, size_t dim, const int32_t *sizes, void *data) {
  memset(t, 0, sizeof *t);
  if (dim > PTERA_MAX_DIM) dim = PTERA_MAX_DIM;
  t->dtype = (uint8_t)dtype;
  t->dim = (uint8_t)dim;
  size_t n = 1;
  for (size_t i = 0; i < dim; i++) {
    t->sizes[i] = sizes[i];
    t->dim_order[i] = (uint8_t)i;
    n *= (size_t)sizes[i];
  }
  t->numel = n;
  t->data = data;
  t->capacity = n * ptera_dtype_size(dtype);
  t->dynamism = PTERA_SHAPE_STATIC;
  ptera_tensor_update_strides(t);
}

/* A zeroed value with tag set; the constructors below fill its payload. */
static ptera_value vtag(int tag) {
  ptera_value v;
  memset(&v, 0, sizeof v);
  v.tag = (uint8_t)tag;
  return v;
}
static ptera_value vt(ptera_tensor *t) {
  ptera_value v = vtag(PTERA_TAG_TENSOR);
  v.u.tensor = t;
  return v;
}
static ptera_value vi(int64_t i) {
  ptera_value v = vtag(PTERA_TAG_INT);
  v.u.i = i;
  return v;
}
static ptera_value vd(double d) {
  ptera_value v = vtag(PTERA_TAG_DOUBLE);
  v.u.d = d;
  return v;
}
static ptera_value vb(bool b) {
  ptera_value v = vtag(PTERA_TAG_BOOL);
  v.u.b = b;
  return v;
}

/* An int list of two items (items point into store). */
typedef struct { ptera_value items[2]; ptera_value *ptrs[2]; ptera_value list; } int_list2;
static void mk_list2(int_list2 *l, int64_t a, int64_t b) {
  l->items[0] = vi(a);
  l->items[1] = vi(b);
  l->ptrs[0] = &l->items[0];
  l->ptrs[1] = &l->items[1];
  l->list = vtag(PTERA_TAG_LIST_INT);
  l->list.u.list.items = l->ptrs;
  l->list.u.list.len = 2;
}

static pt_err g_err;
static ptera_status call(ptera_kernel_fn fn, const char *op, ptera_value *vals, size_t n) {
  ptera_value *args[20];
  for (size_t i = 0; i < n; i++) args[i] = &vals[i];
  ptera_kernel_ctx ctx;
  pt_err_clear(&g_err);
  pr_kernel_ctx_init(&ctx, op, &g_err, NULL, 0);
  return fn(&ctx, args, n);
}

static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* ---- quantize ------------------------------------------------------------- */

static ptera_status quant(ptera_tensor *in, double scale, int64_t zp, ptera_tensor *out) {
  ptera_value v[8] = {vt(in), vd(scale), vi(zp), vi(-128), vi(127), vi(out->dtype), vt(out),
                      vt(out)};
  return call(pk_cadence_quantize_per_tensor_out, "cadence::quantize_per_tensor.out", v, 8);
}

static void test_quantize(void) {
  const float inf = INFINITY;
  float x[10] = {0.0f, 0.26f, -0.26f, 0.25f, -0.25f, 100.0f, -100.0f, NAN, inf, -inf};
  int32_t sz[1] = {10};
  ptera_tensor in;
  mk_tensor(&in, PTERA_DTYPE_FLOAT, 1, sz, x);

  /* int8, scale 0.1 (inv = (float)10.0), zp 3; ties to even; clamp;
   * NaN/inf go to the minimum (x86-64 reference behaviour). */
  int8_t q8[10];
  ptera_tensor o8;
  mk_tensor(&o8, PTERA_DTYPE_CHAR, 1, sz, q8);
  CHECK(quant(&in, 0.1, 3, &o8) == PTERA_OK);
  const int8_t e8[10] = {3, 6, 0, 5, 1, 127, -128, -128, -128, -128};
  CHECK(memcmp(q8, e8, sizeof e8) == 0);

  /* uint8, zp 128 */
  uint8_t qu8[10];
  ptera_tensor ou8;
  mk_tensor(&ou8, PTERA_DTYPE_BYTE, 1, sz, qu8);
  CHECK(quant(&in, 0.1, 128, &ou8) == PTERA_OK);
  const uint8_t eu8[10] = {128, 131, 125, 130, 126, 255, 0, 0, 0, 0};
  CHECK(memcmp(qu8, eu8, sizeof eu8) == 0);

  /* int16, scale 0.001 (inv = (float)1000.0) */
  int16_t q16[10];
  ptera_tensor o16;
  mk_tensor(&o16, PTERA_DTYPE_SHORT, 1, sz, q16);
  CHECK(quant(&in, 0.001, -5, &o16) == PTERA_OK);
  const int16_t e16[10] = {-5, 255, -265, 245, -255, 32767, -32768, -32768, -32768, -32768};
  CHECK(memcmp(q16, e16, sizeof e16) == 0);

  /* uint16 and Bits16 */
  uint16_t qu16[10];
  ptera_tensor ou16;
  mk_tensor(&ou16, PTERA_DTYPE_UINT16, 1, sz, qu16);
  CHECK(quant(&in, 0.001, 1000, &ou16) == PTERA_OK);
  const uint16_t eu16[10] = {1000, 1260, 740, 1250, 750, 65535, 0, 0, 0, 0};
  CHECK(memcmp(qu16, eu16, sizeof eu16) == 0);
  mk_tensor(&ou16, PTERA_DTYPE_BITS16, 1, sz, qu16);
  memset(qu16, 0, sizeof qu16);
  CHECK(quant(&in, 0.001, 1000, &ou16) == PTERA_OK);
  CHECK(memcmp(qu16, eu16, sizeof eu16) == 0);

  /* int32: the sum zp + nearbyint is a float (1e9 + 0.26e9 rounds to a float) */
  int32_t q32[10];
  ptera_tensor o32;
  mk_tensor(&o32, PTERA_DTYPE_INT, 1, sz, q32);
  CHECK(quant(&in, 1e-9, 7, &o32) == PTERA_OK);
  CHECK(q32[0] == 7);
  CHECK(q32[1] == (int32_t)(7.0f + nearbyintf((float)(1.0 / 1e-9) * 0.26f)));
  CHECK(q32[5] == INT32_MAX && q32[6] == INT32_MIN && q32[7] == INT32_MIN);

  /* inv scale is (float)(1.0 / scale): 1/3 in double then rounded; 3 * 1.5 = 4.5 -> 4 */
  float y[1] = {1.5f};
  int32_t s1[1] = {1};
  ptera_tensor in1, o1;
  int8_t r1[1];
  mk_tensor(&in1, PTERA_DTYPE_FLOAT, 1, s1, y);
  mk_tensor(&o1, PTERA_DTYPE_CHAR, 1, s1, r1);
  CHECK(quant(&in1, 1.0 / 3.0, 0, &o1) == PTERA_OK);
  CHECK(r1[0] == (int8_t)nearbyintf((float)(1.0 / (1.0 / 3.0)) * 1.5f));

  /* errors */
  CHECK(quant(&o8, 0.1, 0, &o8) == PTERA_INVALID_ARGUMENT); /* input not Float */
  ptera_tensor of;
  float fo[10];
  mk_tensor(&of, PTERA_DTYPE_FLOAT, 1, sz, fo);
  CHECK(quant(&in, 0.1, 0, &of) == PTERA_INVALID_ARGUMENT); /* out Float */
  CHECK(strstr(g_err.msg, "cadence::quantize_per_tensor.out") != NULL);
  int32_t sz9[1] = {9};
  ptera_tensor o9;
  mk_tensor(&o9, PTERA_DTYPE_CHAR, 1, sz9, q8);
  CHECK(quant(&in, 0.1, 0, &o9) == PTERA_INVALID_ARGUMENT); /* static out, other shape */
  ptera_value v[8] = {vt(&in), vd(0.1), vi(0), vi(-128), vi(127), vi(1), vt(&o8), vt(&o8)};
  /* Argument count and kinds fail as in every kernel (EXECUTION.md §7.1). */
  CHECK(call(pk_cadence_quantize_per_tensor_out, "q", v, 7) == PTERA_INVALID_PROGRAM);
  v[1] = vb(true); /* scale must be a number */
  CHECK(call(pk_cadence_quantize_per_tensor_out, "q", v, 8) == PTERA_INVALID_TYPE);
  v[1] = vd(0.1);
  v[2] = vd(0.0); /* zero_point must be an Int */
  CHECK(call(pk_cadence_quantize_per_tensor_out, "q", v, 8) == PTERA_INVALID_TYPE);
  v[2] = vi(0);
  CHECK(call(pk_cadence_quantize_per_tensor_out, "q", v, 8) == PTERA_OK);
  ptera_value *nullargs[8] = {0};
  ptera_kernel_ctx ctx;
  pr_kernel_ctx_init(&ctx, "q", &g_err, NULL, 0);
  CHECK(pk_cadence_quantize_per_tensor_out(&ctx, nullargs, 8) == PTERA_INVALID_TYPE);

  /* dynamic out is resized to the input's shape */
  int32_t big[1] = {16};
  int8_t qd[16];
  ptera_tensor od;
  mk_tensor(&od, PTERA_DTYPE_CHAR, 1, big, qd);
  od.dynamism = PTERA_SHAPE_DYNAMIC_BOUND;
  CHECK(quant(&in, 0.1, 3, &od) == PTERA_OK);
  CHECK(od.numel == 10 && od.sizes[0] == 10 && memcmp(qd, e8, sizeof e8) == 0);
}

/* ---- dequantize ----------------------------------------------------------- */

static ptera_status dequant(ptera_tensor *in, double scale, int64_t zp, ptera_tensor *out) {
  ptera_value v[8] = {vt(in), vd(scale), vi(zp), vi(-128), vi(127), vi(in->dtype), vt(out),
                      vt(out)};
  return call(pk_cadence_dequantize_per_tensor_out, "cadence::dequantize_per_tensor.out", v, 8);
}

static void test_dequantize(void) {
  int32_t sz[1] = {3};
  float y[3];
  ptera_tensor out;
  mk_tensor(&out, PTERA_DTYPE_FLOAT, 1, sz, y);

  int8_t q8[3] = {-128, 0, 127};
  ptera_tensor i8;
  mk_tensor(&i8, PTERA_DTYPE_CHAR, 1, sz, q8);
  CHECK(dequant(&i8, 0.5, -2, &out) == PTERA_OK);
  CHECK(y[0] == -63.0f && y[1] == 1.0f && y[2] == 64.5f);

  uint8_t qu8[3] = {0, 128, 255};
  ptera_tensor iu8;
  mk_tensor(&iu8, PTERA_DTYPE_BYTE, 1, sz, qu8);
  CHECK(dequant(&iu8, 0.25, 128, &out) == PTERA_OK);
  CHECK(y[0] == -32.0f && y[1] == 0.0f && y[2] == 31.75f);

  int16_t q16[3] = {-32768, 1, 32767};
  ptera_tensor i16;
  mk_tensor(&i16, PTERA_DTYPE_SHORT, 1, sz, q16);
  CHECK(dequant(&i16, 1.0, 1, &out) == PTERA_OK);
  CHECK(y[0] == -32769.0f && y[1] == 0.0f && y[2] == 32766.0f);

  uint16_t qu16[3] = {0, 1, 65535};
  ptera_tensor iu16;
  mk_tensor(&iu16, PTERA_DTYPE_UINT16, 1, sz, qu16);
  CHECK(dequant(&iu16, 2.0, 0, &out) == PTERA_OK);
  CHECK(y[0] == 0.0f && y[1] == 2.0f && y[2] == 131070.0f);
  mk_tensor(&iu16, PTERA_DTYPE_BITS16, 1, sz, qu16);
  CHECK(dequant(&iu16, 2.0, 0, &out) == PTERA_OK);
  CHECK(y[2] == 131070.0f);

  /* int32: the difference wraps in int32, then converts to float */
  int32_t q32[3] = {INT32_MIN, 16777217, 5};
  ptera_tensor i32;
  mk_tensor(&i32, PTERA_DTYPE_INT, 1, sz, q32);
  CHECK(dequant(&i32, 1.0, 1, &out) == PTERA_OK);
  CHECK(y[0] == 2147483648.0f); /* INT32_MIN - 1 wraps to INT32_MAX -> 2^31 as float */
  CHECK(y[1] == 16777216.0f && y[2] == 4.0f);

  /* scale is rounded to float before the multiply */
  CHECK(dequant(&i8, 0.1, 0, &out) == PTERA_OK);
  CHECK(fbits(y[2]) == fbits((float)0.1 * 127.0f));

  /* errors */
  CHECK(dequant(&out, 1.0, 0, &out) == PTERA_INVALID_ARGUMENT); /* float input */
  ptera_tensor o8;
  int8_t r8[3];
  mk_tensor(&o8, PTERA_DTYPE_CHAR, 1, sz, r8);
  CHECK(dequant(&i8, 1.0, 0, &o8) == PTERA_INVALID_ARGUMENT); /* out not Float */
  int64_t l64[3];
  ptera_tensor i64;
  mk_tensor(&i64, PTERA_DTYPE_LONG, 1, sz, l64);
  CHECK(dequant(&i64, 1.0, 0, &out) == PTERA_INVALID_ARGUMENT);
  ptera_value v[8] = {vt(&i8), vd(1.0), vi(0), vi(0), vi(0), vi(1), vt(&out), vt(&out)};
  CHECK(call(pk_cadence_dequantize_per_tensor_out, "d", v, 8) == PTERA_OK);
  CHECK(call(pk_cadence_dequantize_per_tensor_out, "d", v, 6) == PTERA_INVALID_PROGRAM);
  v[4] = vd(0.0);
  CHECK(call(pk_cadence_dequantize_per_tensor_out, "d", v, 8) == PTERA_INVALID_TYPE);
}

/* ---- conv ----------------------------------------------------------------- */

typedef struct conv_args {
  ptera_tensor *in, *w, *b, *out;
  int64_t s[2], p[2], d[2], groups, in_zp, w_zp, out_zp;
  double bias_scale, out_scale;
} conv_args;

static ptera_status conv(const conv_args *a) {
  int_list2 s, p, d;
  mk_list2(&s, a->s[0], a->s[1]);
  mk_list2(&p, a->p[0], a->p[1]);
  mk_list2(&d, a->d[0], a->d[1]);
  ptera_value v[16] = {vt(a->in),  vt(a->w),       vt(a->b),       s.list,
                       p.list,     d.list,         vi(a->groups),  vi(a->in_zp),
                       vi(a->w_zp), vd(a->bias_scale), vd(a->out_scale), vi(a->out_zp),
                       vi(0),      vi(0),          vt(a->out),     vt(a->out)};
  return call(pk_cadence_quantized_conv2d_nchw_per_tensor_out,
              "cadence::quantized_conv2d_nchw.per_tensor_out", v, 16);
}

static void test_conv(void) {
  /* input 1..9 (3x3), in_zp 1 -> lhs 0..8; weight {1,2,3,4} (2x2); bias 10 */
  int8_t x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  int8_t w[4] = {1, 2, 3, 4};
  int32_t bias[1] = {10};
  int32_t sin[4] = {1, 1, 3, 3}, sw[4] = {1, 1, 2, 2}, sb[1] = {1}, so[4] = {1, 1, 2, 2};
  ptera_tensor tin, tw, tb, to;
  int8_t y[4];
  mk_tensor(&tin, PTERA_DTYPE_CHAR, 4, sin, x);
  mk_tensor(&tw, PTERA_DTYPE_CHAR, 4, sw, w);
  mk_tensor(&tb, PTERA_DTYPE_INT, 1, sb, bias);
  mk_tensor(&to, PTERA_DTYPE_CHAR, 4, so, y);
  conv_args a = {&tin, &tw, &tb, &to, {1, 1}, {0, 0}, {1, 1}, 1, 1, 0, 0, 1.0, 1.0};

  /* sums 37, 47, 67, 77 */
  CHECK(conv(&a) == PTERA_OK);
  CHECK(y[0] == 37 && y[1] == 47 && y[2] == 67 && y[3] == 77);

  /* out_scale 2 -> x0.5: 18.5, 23.5, 33.5, 38.5 round to even; out_zp -1 */
  a.out_scale = 2.0;
  a.out_zp = -1;
  CHECK(conv(&a) == PTERA_OK);
  CHECK(y[0] == 17 && y[1] == 23 && y[2] == 33 && y[3] == 37);

  /* bias_scale 4 clamps to 127; weight zero point 1 -> weights {0,1,2,3}:
   * sums 10 + {2+6+12, 1*1+2*4+3*5, ...} */
  a.out_scale = 1.0;
  a.out_zp = 0;
  a.bias_scale = 4.0;
  CHECK(conv(&a) == PTERA_OK);
  CHECK(y[0] == 127 && y[3] == 127);
  a.bias_scale = 1.0;
  a.w_zp = 1;
  CHECK(conv(&a) == PTERA_OK);
  CHECK(y[0] == 10 + 0 * 0 + 1 * 1 + 3 * 2 + 4 * 3);
  CHECK(y[3] == 10 + 4 * 0 + 5 * 1 + 7 * 2 + 8 * 3);
  a.w_zp = 0;

  /* padding 1, stride 2: out 2x2 = {10, 21, 40, 77} */
  a.s[0] = a.s[1] = 2;
  a.p[0] = a.p[1] = 1;
  CHECK(conv(&a) == PTERA_OK);
  CHECK(y[0] == 10 && y[1] == 21 && y[2] == 40 && y[3] == 77);

  /* dilation 2, no padding: a 2x2 kernel spans 3x3 -> 1x1 output:
   * 10 + 0*1 + 2*2 + 6*3 + 8*4 = 64 */
  int32_t so1[4] = {1, 1, 1, 1};
  ptera_tensor to1;
  mk_tensor(&to1, PTERA_DTYPE_CHAR, 4, so1, y);
  conv_args ad = {&tin, &tw, &tb, &to1, {1, 1}, {0, 0}, {2, 2}, 1, 1, 0, 0, 1.0, 1.0};
  CHECK(conv(&ad) == PTERA_OK);
  CHECK(y[0] == 64);

  /* wrong static out shape */
  a.s[0] = a.s[1] = 1;
  a.p[0] = a.p[1] = 0;
  a.out = &to1;
  CHECK(conv(&a) == PTERA_INVALID_ARGUMENT);
  a.out = &to;

  /* groups 2: input [1,2,1,2], weight [2,1,1,1] = {2, 3}, bias {0, 1} */
  int8_t gx[4] = {1, 2, 3, 4};
  int8_t gw[2] = {2, 3};
  int32_t gb[2] = {0, 1};
  int32_t gsin[4] = {1, 2, 1, 2}, gsw[4] = {2, 1, 1, 1}, gsb[1] = {2};
  int8_t gy[4];
  ptera_tensor gin, gwt, gbt, gout;
  mk_tensor(&gin, PTERA_DTYPE_CHAR, 4, gsin, gx);
  mk_tensor(&gwt, PTERA_DTYPE_CHAR, 4, gsw, gw);
  mk_tensor(&gbt, PTERA_DTYPE_INT, 1, gsb, gb);
  mk_tensor(&gout, PTERA_DTYPE_CHAR, 4, gsin, gy);
  conv_args g = {&gin, &gwt, &gbt, &gout, {1, 1}, {0, 0}, {1, 1}, 2, 0, 0, 0, 1.0, 1.0};
  CHECK(conv(&g) == PTERA_OK);
  CHECK(gy[0] == 2 && gy[1] == 4 && gy[2] == 10 && gy[3] == 13);
  g.groups = 1; /* weight has 1 input channel, input has 2 */
  CHECK(conv(&g) == PTERA_INVALID_ARGUMENT);
  g.groups = 3;
  CHECK(conv(&g) == PTERA_INVALID_ARGUMENT);
  g.groups = 2;

  /* uint8: in_zp 128, w_zp 100 (uint8 weights), out_zp 128 */
  uint8_t ux[4] = {128, 130, 120, 255};
  uint8_t uw[1] = {102};
  int32_t ub[1] = {-3};
  int32_t usin[4] = {1, 1, 2, 2}, usw[4] = {1, 1, 1, 1}, usb[1] = {1};
  uint8_t uy[4];
  ptera_tensor uin, uwt, ubt, uout;
  mk_tensor(&uin, PTERA_DTYPE_BYTE, 4, usin, ux);
  mk_tensor(&uwt, PTERA_DTYPE_BYTE, 4, usw, uw);
  mk_tensor(&ubt, PTERA_DTYPE_INT, 1, usb, ub);
  mk_tensor(&uout, PTERA_DTYPE_BYTE, 4, usin, uy);
  conv_args u = {&uin, &uwt, &ubt, &uout, {1, 1}, {0, 0}, {1, 1}, 1, 128, 100, 128, 1.0, 1.0};
  CHECK(conv(&u) == PTERA_OK);
  /* 128 + (-3 + 2*(x-128)): 125, 129, 109, 255 (clamped from 375) */
  CHECK(uy[0] == 125 && uy[1] == 129 && uy[2] == 109 && uy[3] == 255);
  u.w_zp = 128; /* the reference only takes weight zero points in [-128, 127] */
  CHECK(conv(&u) == PTERA_INVALID_ARGUMENT);
  CHECK(strstr(g_err.msg, "weight_zero_point") != NULL);

  /* int16 activations with int8 weights (W8A16), and all-int16 */
  int16_t sx[4] = {1000, -1000, 30000, 5};
  int8_t sw8[1] = {-3};
  int16_t sw16[1] = {-3};
  int16_t sy[4];
  ptera_tensor sin16, swt8, swt16, sout;
  mk_tensor(&sin16, PTERA_DTYPE_SHORT, 4, usin, sx);
  mk_tensor(&swt8, PTERA_DTYPE_CHAR, 4, usw, sw8);
  mk_tensor(&swt16, PTERA_DTYPE_SHORT, 4, usw, sw16);
  mk_tensor(&sout, PTERA_DTYPE_SHORT, 4, usin, sy);
  int32_t sb0[1] = {0};
  ptera_tensor sbt;
  mk_tensor(&sbt, PTERA_DTYPE_INT, 1, usb, sb0);
  conv_args s16 = {&sin16, &swt8, &sbt, &sout, {1, 1}, {0, 0}, {1, 1}, 1, 0, -1, 7, 1.0, 1.0};
  CHECK(conv(&s16) == PTERA_OK);
  /* weight - zp = -2: -2000+7, 2000+7, -60000 -> clamp, -10+7 */
  CHECK(sy[0] == -1993 && sy[1] == 2007 && sy[2] == -32768 && sy[3] == -3);
  s16.w = &swt16;
  memset(sy, 0, sizeof sy);
  CHECK(conv(&s16) == PTERA_OK);
  CHECK(sy[0] == -1993 && sy[1] == 2007 && sy[2] == -32768 && sy[3] == -3);

  /* mixed dtypes that the reference does not take */
  s16.w = &tw; /* Short input, Char weight, Byte out */
  s16.out = &uout;
  CHECK(conv(&s16) == PTERA_INVALID_ARGUMENT);
  s16.out = &sout;
  s16.w = &swt8;
  ptera_tensor fb;
  float fbias[1] = {0};
  mk_tensor(&fb, PTERA_DTYPE_FLOAT, 1, usb, fbias);
  s16.b = &fb;
  CHECK(conv(&s16) == PTERA_INVALID_ARGUMENT);
  s16.b = &sbt;

  /* conv1d: input [1,1,4], weight [1,1,2], stride (1,2): out [1,1,2] */
  int8_t cx[4] = {1, 2, 3, 4};
  int8_t cw[2] = {1, -1};
  int32_t cb[1] = {0};
  int32_t csin[3] = {1, 1, 4}, csw[3] = {1, 1, 2}, cso[3] = {1, 1, 2};
  int8_t cy[2];
  ptera_tensor cin, cwt, cbt, cout;
  mk_tensor(&cin, PTERA_DTYPE_CHAR, 3, csin, cx);
  mk_tensor(&cwt, PTERA_DTYPE_CHAR, 3, csw, cw);
  mk_tensor(&cbt, PTERA_DTYPE_INT, 1, sb, cb);
  mk_tensor(&cout, PTERA_DTYPE_CHAR, 3, cso, cy);
  conv_args c1 = {&cin, &cwt, &cbt, &cout, {1, 2}, {0, 0}, {1, 1}, 1, 0, 0, 0, 1.0, 1.0};
  CHECK(conv(&c1) == PTERA_OK);
  CHECK(cy[0] == -1 && cy[1] == -1);

  /* argument validation */
  a.s[0] = 0;
  CHECK(conv(&a) == PTERA_INVALID_ARGUMENT);
  a.s[0] = 1;
  a.p[1] = -1;
  CHECK(conv(&a) == PTERA_INVALID_ARGUMENT);
  a.p[1] = 0;
  a.d[0] = 0;
  CHECK(conv(&a) == PTERA_INVALID_ARGUMENT);
  a.d[0] = 1;
  a.groups = 0;
  CHECK(conv(&a) == PTERA_INVALID_ARGUMENT);
  a.groups = 1;
  CHECK(conv(&a) == PTERA_OK);
  int32_t big[4] = {1, 1, 5, 5};
  ptera_tensor tw5;
  int8_t w25[25] = {0};
  mk_tensor(&tw5, PTERA_DTYPE_CHAR, 4, big, w25);
  a.w = &tw5; /* kernel larger than the input */
  CHECK(conv(&a) == PTERA_INVALID_ARGUMENT);
  a.w = &tw;
  int32_t b2s[1] = {2};
  int32_t b2[2] = {0, 0};
  ptera_tensor tb2;
  mk_tensor(&tb2, PTERA_DTYPE_INT, 1, b2s, b2);
  a.b = &tb2; /* bias length != out channels */
  CHECK(conv(&a) == PTERA_INVALID_ARGUMENT);
  a.b = &tb;
  /* a one-item stride list, and too few args */
  int_list2 s, p, d;
  mk_list2(&s, 1, 1);
  mk_list2(&p, 0, 0);
  mk_list2(&d, 1, 1);
  ptera_value v[16] = {vt(&tin), vt(&tw), vt(&tb), s.list, p.list, d.list, vi(1),  vi(1),
                       vi(0),    vd(1.0), vd(1.0), vi(0),  vi(0),  vi(0),  vt(&to), vt(&to)};
  v[3].u.list.len = 1;
  CHECK(call(pk_cadence_quantized_conv2d_nchw_per_tensor_out, "c", v, 16) ==
        PTERA_INVALID_ARGUMENT);
  v[3].u.list.len = 2;
  CHECK(call(pk_cadence_quantized_conv2d_nchw_per_tensor_out, "c", v, 16) == PTERA_OK);
  CHECK(call(pk_cadence_quantized_conv2d_nchw_per_tensor_out, "c", v, 15) ==
        PTERA_INVALID_PROGRAM);
  v[9] = vb(true); /* bias_scale must be a number */
  CHECK(call(pk_cadence_quantized_conv2d_nchw_per_tensor_out, "c", v, 16) ==
        PTERA_INVALID_TYPE);
  v[9] = vd(1.0);
  s.items[1].tag = PTERA_TAG_DOUBLE;
  CHECK(call(pk_cadence_quantized_conv2d_nchw_per_tensor_out, "c", v, 16) ==
        PTERA_INVALID_TYPE);
  /* non-contiguous input */
  tin.dim_order[2] = 3;
  tin.dim_order[3] = 2;
  s.items[1].tag = PTERA_TAG_INT;
  CHECK(call(pk_cadence_quantized_conv2d_nchw_per_tensor_out, "c", v, 16) ==
        PTERA_INVALID_ARGUMENT);
  tin.dim_order[2] = 2;
  tin.dim_order[3] = 3;
}

/* ---- the corpus programs -------------------------------------------------- */

typedef struct corpus_run {
  pf_pte pte;
  pt_arena arena;
  uint8_t *file;
  ptera_value *vals;
  ptera_tensor *tens;
  ptera_value ***lists; /* per value: item pointer arrays for int lists */
  void **bufs;
  uint32_t nvalues;
} corpus_run;

static bool load_program(corpus_run *r, const char *name) {
  char rel[512];
  snprintf(rel, sizeof rel, "pte/%s.pte", name);
  size_t size = 0;
  memset(r, 0, sizeof *r);
  r->file = check_read_file(check_corpus_path(g_corpus, rel), &size);
  CHECK(r->file != NULL);
  if (!r->file) return false;
  pt_err err;
  pt_err_clear(&err);
  pt_arena_init(&r->arena, NULL);
  ptera_status st = pf_pte_parse(r->file, size, &r->arena, &r->pte, &err);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) {
    fprintf(stderr, "%s: %s\n", name, err.msg);
    return false;
  }
  const pf_plan *plan = &r->pte.plans[0];
  uint32_t n = plan->nvalues;
  r->nvalues = n;
  r->vals = calloc(n, sizeof *r->vals);
  r->tens = calloc(n, sizeof *r->tens);
  r->lists = calloc(n, sizeof *r->lists);
  r->bufs = calloc(n, sizeof *r->bufs);
  for (uint32_t i = 0; i < n; i++) {
    const pf_value *pv = &plan->values[i];
    ptera_value *v = &r->vals[i];
    switch (pv->type) {
      case PF_VAL_INT: *v = vi(pv->u.i); break;
      case PF_VAL_DOUBLE: *v = vd(pv->u.d); break;
      case PF_VAL_BOOL: v->tag = PTERA_TAG_BOOL; v->u.b = pv->u.b; break;
      case PF_VAL_INT_LIST: {
        uint32_t len = pv->u.idx.len;
        r->lists[i] = calloc(len ? len : 1, sizeof(ptera_value *));
        for (uint32_t k = 0; k < len; k++) r->lists[i][k] = &r->vals[pv->u.idx.items[k]];
        v->tag = PTERA_TAG_LIST_INT;
        v->u.list.items = r->lists[i];
        v->u.list.len = len;
        break;
      }
      case PF_VAL_TENSOR: {
        const pf_tensor *pt = pv->u.tensor;
        void *data = NULL;
        if (pt->data_buffer_idx > 0 && !pt->has_allocation) {
          const uint8_t *c = NULL;
          pt_err_clear(&err);
          CHECK(pf_pte_constant(&r->pte, pt->data_buffer_idx, pt->nbytes, &c, &err) == PTERA_OK);
          data = (void *)(uintptr_t)c;
        } else {
          r->bufs[i] = calloc(1, pt->nbytes ? pt->nbytes : 1);
          data = r->bufs[i];
        }
        mk_tensor(&r->tens[i], pt->scalar_type, pt->dim, pt->sizes, data);
        *v = vt(&r->tens[i]);
        break;
      }
      default: v->tag = PTERA_TAG_NONE; break;
    }
  }
  return true;
}

static void free_program(corpus_run *r) {
  for (uint32_t i = 0; i < r->nvalues; i++) {
    free(r->lists ? r->lists[i] : NULL);
    free(r->bufs ? r->bufs[i] : NULL);
  }
  free(r->vals);
  free(r->tens);
  free(r->lists);
  free(r->bufs);
  pt_arena_release(&r->arena);
  free(r->file);
}

static ptera_kernel_fn find_fn(const pf_operator *op) {
  char name[128];
  snprintf(name, sizeof name, "%.*s.%.*s", (int)op->name.len, op->name.ptr, (int)op->overload.len,
           op->overload.ptr);
  if (!strcmp(name, "cadence::quantize_per_tensor.out")) return pk_cadence_quantize_per_tensor_out;
  if (!strcmp(name, "cadence::dequantize_per_tensor.out"))
    return pk_cadence_dequantize_per_tensor_out;
  if (!strcmp(name, "cadence::quantized_conv2d_nchw.per_tensor_out"))
    return pk_cadence_quantized_conv2d_nchw_per_tensor_out;
  return NULL;
}

static bool is_bad(float f) { return !(fabsf(f) < 1e30f); } /* NaN, inf or huge */

/* Runs one case; returns false when the case directory does not exist. */
static bool run_case(const char *name, int case_no) {
  char rel[600];
  snprintf(rel, sizeof rel, "expected/%s/forward/case%d/input_0.npy", name, case_no);
  size_t isize = 0, osize = 0;
  uint8_t *ibuf = check_read_file(check_corpus_path(g_corpus, rel), &isize);
  if (!ibuf) return false;
  snprintf(rel, sizeof rel, "expected/%s/forward/case%d/output_0.npy", name, case_no);
  uint8_t *obuf = check_read_file(check_corpus_path(g_corpus, rel), &osize);
  CHECK(obuf != NULL);
  corpus_run r;
  pf_npy inpy, onpy;
  pt_err err;
  if (!obuf || !load_program(&r, name)) {
    free(ibuf);
    free(obuf);
    return true;
  }
  pt_err_clear(&err);
  CHECK(pf_npy_parse(ibuf, isize, &inpy, &err) == PTERA_OK);
  CHECK(pf_npy_parse(obuf, osize, &onpy, &err) == PTERA_OK);
  const pf_plan *plan = &r.pte.plans[0];
  ptera_tensor *tin = &r.tens[plan->inputs[0]];
  ptera_tensor *tout = &r.tens[plan->outputs[0]];
  CHECK(strcmp(inpy.descr, "<f4") == 0 && inpy.numel == tin->numel);
  CHECK(strcmp(onpy.descr, "<f4") == 0 && onpy.numel == tout->numel);
  if (inpy.numel != tin->numel || onpy.numel != tout->numel) goto done;
  memcpy(tin->data, inpy.data, tin->numel * 4);

  /* run the chain */
  const int32_t *conv_args_idx = NULL;
  const pf_chain *chain = &plan->chains[0];
  for (uint32_t k = 0; k < chain->ninstrs; k++) {
    const pf_instr *ins = &chain->instrs[k];
    CHECK(ins->type == PF_INSTR_KERNEL);
    if (ins->type != PF_INSTR_KERNEL) goto done;
    ptera_kernel_fn fn = find_fn(&plan->ops[ins->a]);
    CHECK(fn != NULL);
    if (!fn) goto done;
    if (fn == pk_cadence_quantized_conv2d_nchw_per_tensor_out) conv_args_idx = ins->args;
    ptera_value *args[32];
    CHECK(ins->nargs <= 32);
    if (ins->nargs > 32) goto done;
    for (uint32_t j = 0; j < ins->nargs; j++) args[j] = &r.vals[ins->args[j]];
    ptera_kernel_ctx ctx;
    pt_err_clear(&err);
    pr_kernel_ctx_init(&ctx, "corpus", &err, NULL, 0);
    ptera_status st = fn(&ctx, args, ins->nargs);
    CHECK(st == PTERA_OK);
    if (st != PTERA_OK) {
      fprintf(stderr, "%s case%d instr %u: %s\n", name, case_no, k, err.msg);
      goto done;
    }
  }

  /* Which outputs read a NaN/inf/huge input (through the conv's receptive field)? */
  CHECK(conv_args_idx != NULL);
  if (!conv_args_idx) goto done;
  const float *xin = (const float *)tin->data;
  const ptera_tensor *cin = &r.tens[conv_args_idx[0]];
  const ptera_tensor *cw = &r.tens[conv_args_idx[1]];
  const ptera_value *sl = &r.vals[conv_args_idx[3]], *pl = &r.vals[conv_args_idx[4]],
                    *dl = &r.vals[conv_args_idx[5]];
  int64_t s0 = sl->u.list.items[0]->u.i, s1 = sl->u.list.items[1]->u.i;
  int64_t p0 = pl->u.list.items[0]->u.i, p1 = pl->u.list.items[1]->u.i;
  int64_t d0 = dl->u.list.items[0]->u.i, d1 = dl->u.list.items[1]->u.i;
  int64_t C = cin->sizes[1], H = cin->sizes[2], W = cin->sizes[3];
  int64_t OC = tout->sizes[1], OH = tout->sizes[2], OW = tout->sizes[3];
  int64_t KH = cw->sizes[2], KW = cw->sizes[3];
  size_t nbad_in = 0;
  for (size_t i = 0; i < tin->numel; i++) nbad_in += is_bad(xin[i]);

  const uint32_t *got = (const uint32_t *)tout->data;
  size_t total = tout->numel, exact = 0, tainted = 0, exact_clean = 0;
  for (int64_t o = 0; o < OC; o++)
    for (int64_t y = 0; y < OH; y++)
      for (int64_t x = 0; x < OW; x++) {
        bool bad = false;
        if (nbad_in)
          for (int64_t c = 0; c < C && !bad; c++)
            for (int64_t ky = 0; ky < KH && !bad; ky++)
              for (int64_t kx = 0; kx < KW && !bad; kx++) {
                int64_t iy = y * s0 + ky * d0 - p0, ix = x * s1 + kx * d1 - p1;
                if (iy >= 0 && iy < H && ix >= 0 && ix < W)
                  bad = is_bad(xin[(c * H + iy) * W + ix]);
              }
        size_t idx = (size_t)((o * OH + y) * OW + x);
        uint32_t want;
        memcpy(&want, onpy.data + idx * 4, 4);
        bool same = got[idx] == want;
        exact += same;
        tainted += bad;
        if (!bad) exact_clean += same;
      }
  printf("%s case%d: %zu/%zu elements bit-exact; %zu non-finite/huge inputs, %zu outputs read "
         "them, %zu/%zu of the others bit-exact\n",
         name, case_no, exact, total, nbad_in, tainted, exact_clean, total - tainted);
  CHECK(exact_clean == total - tainted);
  /* With the x86-64 float->int behaviour reproduced, the tainted ones match too. */
  CHECK(exact == total);

done:
  free_program(&r);
  free(ibuf);
  free(obuf);
  return true;
}

static void test_corpus(void) {
  static const char *const names[] = {
      "pytorch+executorch__operator_and_model_testing_conv2d_pte1_conv2d_quantized",
      "pytorch+executorch__operator_and_model_testing_conv2d_pte_conv2d_layer4_conv4a_1",
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    int ncases = 0;
    while (run_case(names[i], ncases)) ncases++;
    CHECK(ncases >= 2);
  }
}

int main(int argc, char **argv) {
  g_corpus = argc > 1 ? argv[1] : "../shared/corpus";
  test_quantize();
  test_dequantize();
  test_conv();
  test_corpus();
  return check_summary("kernels_cadence");
}
