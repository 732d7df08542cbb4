/* Kernels added on branch opsb: antialiased bilinear upsample, convolution
 * backward, 2/4-bit embeddings, mixed_mm / mixed_linear, 3-d convolution.
 * Expected values were printed by torch 1.13 (python3) unless a comment says
 * they are hand computed. */
#include "kernel_test_util.h"

static void test_upsample_aa(void) {
  const char *op = "aten::_upsample_bilinear2d_aa.out";
  float x[16] = {-3.0f, -1.5f, 0.0f, 1.5f, 3.0f, 4.5f, 7.25f, 7.5f,
                 9.0f, 10.5f, 12.0f, 13.5f, 15.0f, 16.5f, 18.0f, 19.5f};
  float o[15];
  ptera_value *out = KT_DYN(PTERA_DTYPE_FLOAT, o, 1, 1, 3, 5);
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 1, 4, 4), KT_IL(2, 2), kt_bool(false), kt_none(), kt_none(),
                out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){2.433673620223999f, 4.943877696990967f, 11.811224937438965f, 14.219388008117676f},
                4, 1e-6));
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 1, 4, 4), KT_IL(3, 5), kt_bool(false), kt_none(), kt_none(),
                out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){-1.1999998092651367f, -0.14999978244304657f, 1.2375000715255737f, 2.512500047683716f,
                             3.299999952316284f, 6.0f, 7.050000190734863f, 8.5625f, 9.887499809265137f, 10.5f,
                             13.200000762939453f, 14.25f, 15.450000762939453f, 16.649999618530273f,
                             17.700000762939453f},
                15, 1e-5));
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 1, 4, 4), KT_IL(2, 3), kt_bool(true), kt_none(), kt_none(),
                out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){5.062500476837158f, 7.427083969116211f, 8.828125f, 13.562500953674316f,
                             15.666667938232422f, 17.25f},
                6, 1e-5));
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 1, 4, 4), KT_IL(2, 2), kt_bool(false), kt_dbl(0.4), kt_dbl(0.6),
                out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){3.642857313156128f, 6.284090995788574f, 12.842857360839844f, 15.246295928955078f}, 4,
                1e-5));
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 1, 4, 4), KT_IL(1, 1), kt_bool(false), kt_none(), kt_none(),
                out, out) == PTERA_OK);
  CHECK(kt_close(o[0], 8.35633659362793, 1e-5));
  /* double, 6x6 -> 2x2 (3 taps each way) */
  double y[36], od[4];
  for (int i = 0; i < 36; i++) y[i] = i;
  ptera_value *outd = KT_T(PTERA_DTYPE_DOUBLE, od, 1, 1, 2, 2);
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_DOUBLE, y, 1, 1, 6, 6), KT_IL(2, 2), kt_bool(false), kt_none(), kt_none(),
                outd, outd) == PTERA_OK);
  CHECK(kt_close(od[0], 8.75, 1e-6) && kt_close(od[1], 11.25, 1e-6) && kt_close(od[2], 23.75, 1e-6) &&
        kt_close(od[3], 26.25, 1e-6)); /* weights are float */
  /* uint8 accumulates with truncation at every step (ExecuTorch); torch on the
   * float image gives 19.5 35.1 50.7 81.9 97.5 113.1 144.3 159.9 175.5 */
  uint8_t u[16], ou[9];
  for (int i = 0; i < 16; i++) u[i] = (uint8_t)(i * 13);
  ptera_value *outu = KT_T(PTERA_DTYPE_BYTE, ou, 1, 1, 3, 3);
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_BYTE, u, 1, 1, 4, 4), KT_IL(3, 3), kt_bool(false), kt_none(), kt_none(),
                outu, outu) == PTERA_OK);
  const double wu[9] = {19.5, 35.1, 50.7, 81.9, 97.5, 113.1, 144.3, 159.9, 175.5};
  bool ok = true;
  for (int i = 0; i < 9; i++) ok = ok && fabs((double)ou[i] - wu[i]) <= 3.0;
  CHECK(ok);
  /* channels-last input gives the same values */
  float xl[8] = {1, 10, 2, 20, 3, 30, 4, 40}, ol[2];
  ptera_value *inl = kt_tensor(PTERA_DTYPE_FLOAT, xl, sizeof xl, 4, (const int32_t[]){1, 2, 2, 2},
                               (const uint8_t[]){0, 2, 3, 1}, PTERA_SHAPE_STATIC);
  ptera_value *outl = KT_T(PTERA_DTYPE_FLOAT, ol, 1, 2, 1, 1);
  CHECK(KT_CALL(op, inl, KT_IL(1, 1), kt_bool(false), kt_none(), kt_none(), outl, outl) == PTERA_OK);
  CHECK(kt_close(ol[0], 2.5, 1e-6) && kt_close(ol[1], 25, 1e-6)); /* hand computed: mean of 4 */
  /* errors */
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 4, 4), KT_IL(2, 2), kt_bool(false), kt_none(), kt_none(), out,
                out) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("'self'"));
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 1, 4, 4), KT_IL(2, 0), kt_bool(false), kt_none(), kt_none(),
                out, out) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("output_size"));
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 1, 4, 4), KT_IL(2, 2), kt_bool(false), kt_none(), kt_none(),
                outd, outd) == PTERA_INVALID_ARGUMENT);
}

static ptera_value *kt_bools3(bool a, bool b, bool c) {
  static uint8_t items[16][3];
  static size_t k;
  uint8_t *it = items[k++ % 16];
  it[0] = a;
  it[1] = b;
  it[2] = c;
  ptera_value *v = kt_val(PTERA_TAG_LIST_BOOL);
  v->u.bools.items = it;
  v->u.bools.len = 3;
  return v;
}

static void test_convolution_backward(void) {
  const char *op = "aten::convolution_backward.out";
  float x[24] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0.5f, -1, 2, 0, 1, 1, -2, 3, 0, 2, 1, -1};
  float w[16] = {1, -1, 2, 0.5f, 0, 1, 1, 1, 0.25f, 0, -1, 2, 1, 0, 0, -1};
  float go[8] = {1, 2, 3, -1, 0.5f, 1, -2, 1};
  float gi[24], gw[16], gb[2];
  ptera_value *o0 = KT_DYN(PTERA_DTYPE_FLOAT, gi, 1, 1, 1, 1), *o1 = KT_DYN(PTERA_DTYPE_FLOAT, gw, 1, 1, 1, 1),
              *o2 = KT_DYN(PTERA_DTYPE_FLOAT, gb, 1);
  ptera_value *ret = kt_none();
  /* stride 2, padding (1, 0): out [1, 2, 2, 2] */
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, go, 1, 2, 2, 2), KT_T(PTERA_DTYPE_FLOAT, x, 1, 2, 3, 4),
                KT_T(PTERA_DTYPE_FLOAT, w, 2, 2, 2, 2), KT_IL(2), KT_IL(2, 2), KT_IL(1, 0), KT_IL(1, 1),
                kt_bool(false), KT_IL(0, 0), kt_int(1), kt_bools3(true, true, true), o0, o1, o2, ret) == PTERA_OK);
  CHECK(o0->u.tensor->dim == 4 && o0->u.tensor->sizes[3] == 4 && o2->u.tensor->sizes[0] == 2);
  CHECK(kt_farr(gi, (float[]){1.5f, 1.5f, 3.0f, 3.0f, 2.5f, -3.0f, -0.75f, 1.0f, 8.0f, -2.5f, -3.0f, 1.5f,
                              1.0f, 0.5f, 2.0f, 1.0f, -2.0f, 3.0f, 1.0f, -1.0f, 3.0f, 5.0f, -1.0f, -2.0f},
                24, 0));
  CHECK(kt_farr(gw, (float[]){8.0f, 10.0f, 23.0f, 28.0f, 5.0f, 0.0f, 3.5f, 6.0f, -3.0f, -4.0f, -3.5f, -3.0f,
                              -4.0f, 1.0f, 3.25f, -5.5f},
                16, 0));
  CHECK(kt_farr(gb, (float[]){5.0f, 0.5f}, 2, 0));
  /* 1-d, 2 groups, dilation 2, bias gradient not requested (out2 untouched) */
  float x1[10], w1[8] = {1, 2, -1, 0.5f, 3, 1, 0, -2}, go1[12];
  for (int i = 0; i < 10; i++) x1[i] = (float)i - 3;
  for (int i = 0; i < 12; i++) go1[i] = (float)i * 0.5f - 1;
  gb[0] = 42;
  ptera_value *p0 = KT_DYN(PTERA_DTYPE_FLOAT, gi, 1, 1, 1), *p1 = KT_DYN(PTERA_DTYPE_FLOAT, gw, 1, 1, 1);
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, go1, 1, 4, 3), KT_T(PTERA_DTYPE_FLOAT, x1, 1, 2, 5),
                KT_T(PTERA_DTYPE_FLOAT, w1, 4, 1, 2), kt_none(), KT_IL(1), KT_IL(0), KT_IL(2), kt_bool(false),
                KT_IL(0), kt_int(2), kt_bools3(true, true, false), p0, p1, kt_none(), ret) == PTERA_OK);
  CHECK(kt_farr(gi, (float[]){-1.5f, -1.5f, -3.25f, -0.5f, 0.75f, 6.0f, 7.5f, 4.0f, -5.5f, -6.0f}, 10, 0));
  CHECK(kt_farr(gw, (float[]){4.0f, 1.0f, -5.0f, 1.0f, 23.5f, 38.5f, 37.0f, 61.0f}, 8, 0));
  CHECK(gb[0] == 42);
  /* errors: transposed, grad_output of the wrong shape, integer dtype */
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, go, 1, 2, 2, 2), KT_T(PTERA_DTYPE_FLOAT, x, 1, 2, 3, 4),
                KT_T(PTERA_DTYPE_FLOAT, w, 2, 2, 2, 2), KT_IL(2), KT_IL(2, 2), KT_IL(1, 0), KT_IL(1, 1),
                kt_bool(true), KT_IL(0, 0), kt_int(1), kt_bools3(true, true, true), o0, o1, o2, ret) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("transposed"));
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, go, 1, 2, 2, 2), KT_T(PTERA_DTYPE_FLOAT, x, 1, 2, 3, 4),
                KT_T(PTERA_DTYPE_FLOAT, w, 2, 2, 2, 2), KT_IL(2), KT_IL(1, 1), KT_IL(1, 0), KT_IL(1, 1),
                kt_bool(false), KT_IL(0, 0), kt_int(1), kt_bools3(true, true, true), o0, o1, o2, ret) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("grad_output"));
  int32_t xi[24] = {0}, wi[16] = {0}, goi[8] = {0};
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_INT, goi, 1, 2, 2, 2), KT_T(PTERA_DTYPE_INT, xi, 1, 2, 3, 4),
                KT_T(PTERA_DTYPE_INT, wi, 2, 2, 2, 2), KT_IL(2), KT_IL(2, 2), KT_IL(1, 0), KT_IL(1, 1),
                kt_bool(false), KT_IL(0, 0), kt_int(1), kt_bools3(true, true, true), o0, o1, o2, ret) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("'input'"));
}

/* Hand computed from the packing (4-bit: even index = high nibble, minus 8;
 * 2-bit: index % 4 = k -> bits 2k..2k+1, minus 2). */
static void test_embedding_xbit(void) {
  uint8_t w4[4] = {0x9F, 0x08, 0x01, 0xA5};
  float sc[4] = {0.5f, 2, 1, 0.25f}, zp[4] = {1, 0, 0, -2}, o[8];
  int64_t ix[2] = {1, 0};
  ptera_value *out = KT_DYN(PTERA_DTYPE_FLOAT, o, 1, 1);
  CHECK(KT_CALL("quantized_decomposed::embedding_4bit.out", KT_T(PTERA_DTYPE_BYTE, w4, 2, 2),
                KT_T(PTERA_DTYPE_FLOAT, sc, 2, 2), KT_T(PTERA_DTYPE_FLOAT, zp, 2, 2), kt_int(-8), kt_int(7),
                KT_T(PTERA_DTYPE_LONG, ix, 2), out, out) == PTERA_OK);
  CHECK(out->u.tensor->sizes[0] == 2 && out->u.tensor->sizes[1] == 4);
  CHECK(kt_farr(o, (float[]){-8, -7, 1, -0.25f, 0, 3, -16, 0}, 8, 0));
  /* per-row scales, no zero points, dtype given */
  float sr[2] = {1, -0.5f};
  int32_t i1[1] = {1};
  ptera_value *o1 = KT_DYN(PTERA_DTYPE_FLOAT, o, 1, 1);
  CHECK(KT_CALL("quantized_decomposed::embedding_4bit.dtype_out", KT_T(PTERA_DTYPE_BYTE, w4, 2, 2),
                KT_T(PTERA_DTYPE_FLOAT, sr, 2), kt_none(), kt_int(-8), kt_int(7), KT_T(PTERA_DTYPE_INT, i1, 1),
                kt_int(PTERA_DTYPE_FLOAT), o1, o1) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){4, 3.5f, -1, 1.5f}, 4, 0));
  uint8_t w2[2] = {0xE4, 0x1B};
  float s2[2] = {3, 1};
  int64_t i2[2] = {0, 1};
  ptera_value *o2 = KT_DYN(PTERA_DTYPE_FLOAT, o, 1, 1);
  CHECK(KT_CALL("quantized_decomposed::embedding_2bit.out", KT_T(PTERA_DTYPE_BYTE, w2, 2, 1),
                KT_T(PTERA_DTYPE_FLOAT, s2, 2), kt_none(), kt_int(-2), kt_int(1), KT_T(PTERA_DTYPE_LONG, i2, 2), o2,
                o2) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){-6, -3, 0, 3, 1, 0, -1, -2}, 8, 0));
  ptera_value *o3 = KT_DYN(PTERA_DTYPE_FLOAT, o, 1, 1);
  CHECK(KT_CALL("quantized_decomposed::embedding_2bit.dtype_out", KT_T(PTERA_DTYPE_BYTE, w2, 2, 1),
                KT_T(PTERA_DTYPE_FLOAT, s2, 2), kt_none(), kt_int(-2), kt_int(1), KT_T(PTERA_DTYPE_LONG, i2, 1),
                kt_none(), o3, o3) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){-6, -3, 0, 3}, 4, 0));
  /* errors: index out of range, dtype that is not out's, Char weight, groups not dividing */
  int64_t bad[1] = {2};
  CHECK(KT_CALL("quantized_decomposed::embedding_2bit.out", KT_T(PTERA_DTYPE_BYTE, w2, 2, 1),
                KT_T(PTERA_DTYPE_FLOAT, s2, 2), kt_none(), kt_int(-2), kt_int(1), KT_T(PTERA_DTYPE_LONG, bad, 1), o2,
                o2) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("indices"));
  CHECK(KT_CALL("quantized_decomposed::embedding_2bit.dtype_out", KT_T(PTERA_DTYPE_BYTE, w2, 2, 1),
                KT_T(PTERA_DTYPE_FLOAT, s2, 2), kt_none(), kt_int(-2), kt_int(1), KT_T(PTERA_DTYPE_LONG, i2, 1),
                kt_int(PTERA_DTYPE_HALF), o3, o3) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("'out'"));
  CHECK(KT_CALL("quantized_decomposed::embedding_4bit.out", KT_T(PTERA_DTYPE_CHAR, w4, 2, 2),
                KT_T(PTERA_DTYPE_FLOAT, sr, 2), kt_none(), kt_int(-8), kt_int(7), KT_T(PTERA_DTYPE_LONG, ix, 2), out,
                out) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("'weight'"));
  float s3[6] = {1, 1, 1, 1, 1, 1};
  CHECK(KT_CALL("quantized_decomposed::embedding_4bit.out", KT_T(PTERA_DTYPE_BYTE, w4, 2, 2),
                KT_T(PTERA_DTYPE_FLOAT, s3, 2, 3), kt_none(), kt_int(-8), kt_int(7), KT_T(PTERA_DTYPE_LONG, ix, 2),
                out, out) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("weight_scales"));
}

/* Hand computed. */
static void test_mixed_mm_linear(void) {
  float x[4] = {1, 2, -1, 0.5f}, s[2] = {0.5f, 2}, o[6];
  int8_t w[6] = {2, -4, 6, 1, 0, -3}; /* [2, 3] */
  ptera_value *out = KT_DYN(PTERA_DTYPE_FLOAT, o, 1, 1);
  CHECK(KT_CALL("quantized_decomposed::mixed_mm.out", KT_T(PTERA_DTYPE_FLOAT, x, 2, 2), KT_T(PTERA_DTYPE_CHAR, w, 2, 3),
                KT_T(PTERA_DTYPE_FLOAT, s, 2), kt_none(), out, out) == PTERA_OK);
  /* row0: 1*[1,-2,3] + 2*[2,0,-6]; row1: -1*[1,-2,3] + 0.5*[2,0,-6] */
  CHECK(out->u.tensor->sizes[0] == 2 && out->u.tensor->sizes[1] == 3);
  CHECK(kt_farr(o, (float[]){5, -2, -9, 0, 2, -6}, 6, 0));
  CHECK(KT_CALL("quantized_decomposed::mixed_mm.out", KT_T(PTERA_DTYPE_FLOAT, x, 2, 2), KT_T(PTERA_DTYPE_CHAR, w, 2, 3),
                KT_T(PTERA_DTYPE_FLOAT, s, 2), KT_T(PTERA_DTYPE_FLOAT, s, 2), out, out) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("weight_zero_points"));
  /* mixed_linear: input [1, 3], weight [2, 3], per-row scales */
  float xl[3] = {1, 2, 3}, sl[2] = {0.5f, -1};
  ptera_value *ol = KT_DYN(PTERA_DTYPE_FLOAT, o, 1, 1);
  CHECK(KT_CALL("quantized_decomposed::mixed_linear.out", KT_T(PTERA_DTYPE_FLOAT, xl, 1, 3),
                KT_T(PTERA_DTYPE_CHAR, w, 2, 3), KT_T(PTERA_DTYPE_FLOAT, sl, 2), kt_none(), kt_none(), ol, ol) ==
        PTERA_OK);
  CHECK(kt_farr(o, (float[]){6, 8}, 2, 0)); /* (2-8+18)*0.5, (1+0-9)*-1 */
  /* groups: scales [2, 2] -> group size 2: k in {0,1} and {2} */
  float sg[4] = {1, 0.5f, 2, 1};
  ptera_value *og = KT_DYN(PTERA_DTYPE_FLOAT, o, 1, 1);
  CHECK(KT_CALL("quantized_decomposed::mixed_linear.out", KT_T(PTERA_DTYPE_FLOAT, xl, 1, 3),
                KT_T(PTERA_DTYPE_CHAR, w, 2, 3), KT_T(PTERA_DTYPE_FLOAT, sg, 2, 2), kt_none(),
                kt_int(PTERA_DTYPE_FLOAT), og, og) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){3, -7}, 2, 0)); /* (2-8)*1 + 18*0.5, (1+0)*2 + (-9)*1 */
  CHECK(KT_CALL("quantized_decomposed::mixed_linear.out", KT_T(PTERA_DTYPE_FLOAT, xl, 3, 1),
                KT_T(PTERA_DTYPE_CHAR, w, 2, 3), KT_T(PTERA_DTYPE_FLOAT, sl, 2), kt_none(), kt_none(), ol, ol) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("'input'"));
}

int main(void) {
  test_upsample_aa();
  test_convolution_backward();
  test_embedding_xbit();
  test_mixed_mm_linear();
  return check_summary("kernels_opsb");
}
