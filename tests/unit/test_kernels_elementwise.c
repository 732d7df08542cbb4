/* Elementwise ops: broadcasting, dtypes, alpha, channels-last, error cases. */
#include "kernel_test_util.h"

static void test_add(void) {
  float a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {10, 20, 30}, o[6];
  ptera_value *out = KT_T(PTERA_DTYPE_FLOAT, o, 2, 3);
  CHECK(KT_CALL("aten::add.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_T(PTERA_DTYPE_FLOAT, b, 3),
                kt_int(2), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){21, 42, 63, 24, 45, 66}, 6, 0));
  /* float32 must be computed in float: 0.1f + 0.2f rounds in float */
  float x[1] = {0.1f}, y[1] = {0.2f}, z[1];
  out = KT_T(PTERA_DTYPE_FLOAT, z, 1);
  CHECK(KT_CALL("aten::add.out", KT_T(PTERA_DTYPE_FLOAT, x, 1), KT_T(PTERA_DTYPE_FLOAT, y, 1),
                kt_int(1), out, out) == PTERA_OK);
  CHECK(z[0] == 0.1f + 0.2f);
  /* int32 + int64 scalar tensor -> int64, [2,1] + [3] broadcast to [2,3] */
  int32_t ia[2] = {1, 2};
  int64_t ib[3] = {100, 200, 300}, io[6];
  out = KT_DYN(PTERA_DTYPE_LONG, io, 1, 1);
  CHECK(KT_CALL("aten::add.out", KT_T(PTERA_DTYPE_INT, ia, 2, 1), KT_T(PTERA_DTYPE_LONG, ib, 3),
                kt_int(-1), kt_tensor(PTERA_DTYPE_LONG, io, 8, 2, (const int32_t[]){1, 1},
                                      (const uint8_t[]){0, 0}, 1),
                out) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("not a permutation"));
  CHECK(KT_CALL("aten::add.out", KT_T(PTERA_DTYPE_INT, ia, 2, 1), KT_T(PTERA_DTYPE_LONG, ib, 3),
                kt_int(-1), out, out) == PTERA_OK);
  CHECK(out->u.tensor->sizes[0] == 2 && out->u.tensor->sizes[1] == 3);
  CHECK(io[0] == -99 && io[2] == -299 && io[3] == -98 && io[4] == -198 && io[5] == -298);
  /* int32 wraps */
  int32_t w1[1] = {INT32_MAX}, w2[1] = {1}, wo[1];
  out = KT_T(PTERA_DTYPE_INT, wo, 1);
  CHECK(KT_CALL("aten::add.out", KT_T(PTERA_DTYPE_INT, w1, 1), KT_T(PTERA_DTYPE_INT, w2, 1),
                kt_int(1), out, out) == PTERA_OK);
  CHECK(wo[0] == INT32_MIN);
  /* errors */
  out = KT_T(PTERA_DTYPE_INT, wo, 1);
  CHECK(KT_CALL("aten::add.out", KT_T(PTERA_DTYPE_INT, w1, 1), KT_T(PTERA_DTYPE_INT, w2, 1),
                kt_dbl(1.5), out, out) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("aten::add.out") && kt_msg_has("alpha"));
  CHECK(KT_CALL("aten::add.out", KT_T(PTERA_DTYPE_FLOAT, x, 1), KT_T(PTERA_DTYPE_INT, w2, 1),
                kt_int(1), out, out) == PTERA_INVALID_ARGUMENT); /* float into int out */
  CHECK(KT_CALL("aten::add.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_T(PTERA_DTYPE_FLOAT, a, 3, 2),
                kt_int(1), out, out) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("not broadcastable"));
  CHECK(KT_CALL("aten::add.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), kt_int(3), kt_int(1), out, out) ==
        PTERA_INVALID_TYPE);
  CHECK(kt_msg_has("'other' must be a Tensor, got Int"));
  CHECK(KT_CALL("aten::add.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), out, out) == PTERA_INVALID_PROGRAM);
  /* static out of the wrong shape */
  float small[2];
  out = KT_T(PTERA_DTYPE_FLOAT, small, 2);
  CHECK(KT_CALL("aten::add.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_T(PTERA_DTYPE_FLOAT, b, 3),
                kt_int(1), out, out) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("cannot resize 'out' from [2] to [2, 3]"));
}

static void test_channels_last(void) {
  /* logical [1,2,2,1] NCHW; a is channels-last in memory, b contiguous; out contiguous */
  float a_mem[4] = {1, 10, 2, 20}; /* (h0: c0 c1), (h1: c0 c1) */
  float b[4] = {100, 200, 300, 400}, o[4];
  ptera_value *a = kt_tensor(PTERA_DTYPE_FLOAT, a_mem, sizeof a_mem, 4, (const int32_t[]){1, 2, 2, 1},
                             (const uint8_t[]){0, 2, 3, 1}, 0);
  ptera_value *out = KT_T(PTERA_DTYPE_FLOAT, o, 1, 2, 2, 1);
  CHECK(KT_CALL("aten::sub.out", KT_T(PTERA_DTYPE_FLOAT, b, 1, 2, 2, 1), a, kt_int(1), out, out) ==
        PTERA_OK);
  /* logical a = [c0: 1, 2], [c1: 10, 20] */
  CHECK(kt_farr(o, (float[]){99, 198, 290, 380}, 4, 0));
  /* channels-last out */
  float o2[4];
  ptera_value *out2 = kt_tensor(PTERA_DTYPE_FLOAT, o2, sizeof o2, 4, (const int32_t[]){1, 2, 2, 1},
                                (const uint8_t[]){0, 2, 3, 1}, 0);
  CHECK(KT_CALL("aten::mul.out", KT_T(PTERA_DTYPE_FLOAT, b, 1, 2, 2, 1), a, out2, out2) == PTERA_OK);
  /* memory order: (h0,c0)=100*1 (h0,c1)=300*10 (h1,c0)=200*2 (h1,c1)=400*20 */
  CHECK(kt_farr(o2, (float[]){100, 3000, 400, 8000}, 4, 0));
}

static void test_sub_mul_div_neg(void) {
  uint8_t bb[2] = {1, 0}, bo[2];
  ptera_value *out = KT_T(PTERA_DTYPE_BOOL, bo, 2);
  CHECK(KT_CALL("aten::sub.out", KT_T(PTERA_DTYPE_BOOL, bb, 2), KT_T(PTERA_DTYPE_BOOL, bb, 2),
                kt_int(1), out, out) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("Bool"));
  CHECK(KT_CALL("aten::mul.out", KT_T(PTERA_DTYPE_BOOL, bb, 2), KT_T(PTERA_DTYPE_BOOL, bb, 2), out,
                out) == PTERA_OK);
  CHECK(bo[0] == 1 && bo[1] == 0);
  float f[3] = {1.5f, -2, 4}, fo[3];
  out = KT_T(PTERA_DTYPE_FLOAT, fo, 3);
  CHECK(KT_CALL("aten::mul.Scalar_out", KT_T(PTERA_DTYPE_FLOAT, f, 3), kt_dbl(2.0), out, out) == PTERA_OK);
  CHECK(kt_farr(fo, (float[]){3, -4, 8}, 3, 0));
  int64_t l[3] = {7, -7, 8}, l2[3] = {2, 2, 0};
  CHECK(KT_CALL("aten::div.out", KT_T(PTERA_DTYPE_LONG, l, 3), KT_T(PTERA_DTYPE_LONG, l2, 3), out,
                out) == PTERA_OK);
  CHECK(fo[0] == 3.5f && fo[1] == -3.5f && isinf(fo[2]));
  int64_t lo[3];
  ptera_value *lout = KT_T(PTERA_DTYPE_LONG, lo, 3);
  CHECK(KT_CALL("aten::div.out", KT_T(PTERA_DTYPE_LONG, l, 3), KT_T(PTERA_DTYPE_LONG, l2, 3), lout,
                lout) == PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("aten::mul.Scalar_out", KT_T(PTERA_DTYPE_LONG, l, 3), kt_int(-3), lout, lout) == PTERA_OK);
  CHECK(lo[0] == -21 && lo[1] == 21 && lo[2] == -24);
  CHECK(KT_CALL("aten::neg.out", KT_T(PTERA_DTYPE_LONG, l, 3), lout, lout) == PTERA_OK);
  CHECK(lo[0] == -7 && lo[1] == 7);
  CHECK(KT_CALL("aten::neg.out", KT_T(PTERA_DTYPE_BOOL, bb, 2), out, out) == PTERA_INVALID_ARGUMENT);
  /* half: 1 + 2^-11 rounds back to 1 in half */
  uint16_t h[2] = {0x3c00, 0x3c00}, hh[2] = {0x1000, 0x3c00}, ho[2];
  ptera_value *hout = KT_T(PTERA_DTYPE_HALF, ho, 2);
  CHECK(KT_CALL("aten::add.out", KT_T(PTERA_DTYPE_HALF, h, 2), KT_T(PTERA_DTYPE_HALF, hh, 2),
                kt_int(1), hout, hout) == PTERA_OK);
  CHECK(ho[0] == 0x3c00 && ho[1] == 0x4000);
}

static void test_unary(void) {
  float x[4] = {0, 1, -1, NAN}, o[4];
  ptera_value *out = KT_T(PTERA_DTYPE_FLOAT, o, 4);
  CHECK(KT_CALL("aten::tanh.out", KT_T(PTERA_DTYPE_FLOAT, x, 4), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){0, 0.7615941559f, -0.7615941559f, NAN}, 4, 1e-6));
  CHECK(KT_CALL("aten::sigmoid.out", KT_T(PTERA_DTYPE_FLOAT, x, 4), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){0.5f, 0.7310585786f, 0.2689414214f, NAN}, 4, 1e-6));
  int32_t ix[4] = {0, 1, 2, -1};
  CHECK(KT_CALL("aten::exp.out", KT_T(PTERA_DTYPE_INT, ix, 4), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1, 2.718281828f, 7.389056099f, 0.3678794412f}, 4, 1e-6));
  int32_t io[4];
  ptera_value *iout = KT_T(PTERA_DTYPE_INT, io, 4);
  CHECK(KT_CALL("aten::exp.out", KT_T(PTERA_DTYPE_INT, ix, 4), iout, iout) == PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("aten::relu.out", KT_T(PTERA_DTYPE_INT, ix, 4), iout, iout) == PTERA_OK);
  CHECK(io[0] == 0 && io[1] == 1 && io[2] == 2 && io[3] == 0);
  CHECK(KT_CALL("aten::relu.out", KT_T(PTERA_DTYPE_FLOAT, x, 4), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){0, 1, 0, NAN}, 4, 0));
  float p[3] = {2, -3, 0.5f};
  out = KT_T(PTERA_DTYPE_FLOAT, o, 3);
  CHECK(KT_CALL("aten::pow.Tensor_Scalar_out", KT_T(PTERA_DTYPE_FLOAT, p, 3), kt_int(2), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){4, 9, 0.25f}, 3, 1e-6));
  int64_t ip[3] = {2, -3, 5}, ipo[3];
  ptera_value *lout = KT_T(PTERA_DTYPE_LONG, ipo, 3);
  CHECK(KT_CALL("aten::pow.Tensor_Scalar_out", KT_T(PTERA_DTYPE_LONG, ip, 3), kt_int(3), lout, lout) == PTERA_OK);
  CHECK(ipo[0] == 8 && ipo[1] == -27 && ipo[2] == 125);
  CHECK(KT_CALL("aten::pow.Tensor_Scalar_out", KT_T(PTERA_DTYPE_LONG, ip, 3), kt_int(-1), lout, lout) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("aten::pow.Tensor_Scalar_out", KT_T(PTERA_DTYPE_LONG, ip, 3), kt_dbl(0.5), lout, lout) ==
        PTERA_INVALID_ARGUMENT); /* Float result into Long */
}

static void test_ne_where(void) {
  int64_t l[3] = {-100, 3, -100};
  uint8_t m[3];
  ptera_value *out = KT_T(PTERA_DTYPE_BOOL, m, 3);
  CHECK(KT_CALL("aten::ne.Scalar_out", KT_T(PTERA_DTYPE_LONG, l, 3), kt_int(-100), out, out) == PTERA_OK);
  CHECK(m[0] == 0 && m[1] == 1 && m[2] == 0);
  float f[2] = {0.1f, 0.5f};
  uint8_t m2[2];
  out = KT_T(PTERA_DTYPE_BOOL, m2, 2);
  CHECK(KT_CALL("aten::ne.Scalar_out", KT_T(PTERA_DTYPE_FLOAT, f, 2), kt_dbl(0.1), out, out) == PTERA_OK);
  CHECK(m2[0] == 0 && m2[1] == 1); /* 0.1 is compared as float */
  uint8_t c[2] = {1, 0};
  int64_t a[2] = {1, 2}, z[1] = {0}, o[2];
  ptera_value *lo = KT_T(PTERA_DTYPE_LONG, o, 2);
  CHECK(KT_CALL("aten::where.self_out", KT_T(PTERA_DTYPE_BOOL, c, 2), KT_T(PTERA_DTYPE_LONG, a, 2),
                KT_SCALAR(PTERA_DTYPE_LONG, z), lo, lo) == PTERA_OK);
  CHECK(o[0] == 1 && o[1] == 0);
  float fo[2];
  ptera_value *fout = KT_T(PTERA_DTYPE_FLOAT, fo, 2);
  CHECK(KT_CALL("aten::where.self_out", KT_T(PTERA_DTYPE_BOOL, c, 2), KT_T(PTERA_DTYPE_LONG, a, 2),
                KT_T(PTERA_DTYPE_FLOAT, f, 2), fout, fout) == PTERA_OK);
  CHECK(fo[0] == 1.0f && fo[1] == 0.5f);
  CHECK(KT_CALL("aten::where.self_out", KT_T(PTERA_DTYPE_LONG, a, 2), KT_T(PTERA_DTYPE_LONG, a, 2),
                KT_T(PTERA_DTYPE_LONG, a, 2), lo, lo) == PTERA_INVALID_ARGUMENT);
}

int main(void) {
  test_add();
  test_channels_last();
  test_sub_mul_div_neg();
  test_unary();
  test_ne_where();
  return check_summary("kernels_elementwise");
}
