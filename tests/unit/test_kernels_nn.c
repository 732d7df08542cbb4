/* mm, addmm, convolution, max_pool2d_with_indices. */
#include "kernel_test_util.h"

static void test_mm(void) {
  float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, o[4];
  ptera_value *out = KT_T(PTERA_DTYPE_FLOAT, o, 2, 2);
  CHECK(KT_CALL("aten::mm.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 2), KT_T(PTERA_DTYPE_FLOAT, b, 2, 2), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){19, 22, 43, 50}, 4, 0));
  float bias[2] = {10, 20};
  CHECK(KT_CALL("aten::addmm.out", KT_T(PTERA_DTYPE_FLOAT, bias, 2), KT_T(PTERA_DTYPE_FLOAT, a, 2, 2),
                KT_T(PTERA_DTYPE_FLOAT, b, 2, 2), kt_int(2), kt_int(1), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){39, 62, 63, 90}, 4, 0));
  /* transposed mat2 through a permuted dim order: b^T stored column-major */
  float bt[4] = {5, 7, 6, 8};
  ptera_value *btv = kt_tensor(PTERA_DTYPE_FLOAT, bt, sizeof bt, 2, (const int32_t[]){2, 2},
                               (const uint8_t[]){1, 0}, 0);
  CHECK(KT_CALL("aten::mm.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 2), btv, out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){19, 22, 43, 50}, 4, 0));
  int64_t ia[2] = {2, 3}, ib[2] = {4, 5}, io[1];
  ptera_value *iout = KT_T(PTERA_DTYPE_LONG, io, 1, 1);
  CHECK(KT_CALL("aten::mm.out", KT_T(PTERA_DTYPE_LONG, ia, 1, 2), KT_T(PTERA_DTYPE_LONG, ib, 2, 1), iout, iout) == PTERA_OK);
  CHECK(io[0] == 23);
  CHECK(KT_CALL("aten::mm.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 2), KT_T(PTERA_DTYPE_FLOAT, b, 4), out, out) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("aten::mm.out"));
  CHECK(KT_CALL("aten::mm.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 2), KT_T(PTERA_DTYPE_LONG, ib, 2, 1), out, out) ==
        PTERA_INVALID_ARGUMENT);
  float bad[3] = {1, 2, 3};
  CHECK(KT_CALL("aten::addmm.out", KT_T(PTERA_DTYPE_FLOAT, bad, 3), KT_T(PTERA_DTYPE_FLOAT, a, 2, 2),
                KT_T(PTERA_DTYPE_FLOAT, b, 2, 2), kt_int(1), kt_int(1), out, out) == PTERA_INVALID_ARGUMENT);
}

static ptera_status conv(ptera_value *in, ptera_value *w, ptera_value *b, ptera_value *stride,
                         ptera_value *pad, ptera_value *dil, bool transposed, ptera_value *opad,
                         int64_t groups, ptera_value *out) {
  return KT_CALL("aten::convolution.out", in, w, b, stride, pad, dil, kt_bool(transposed), opad,
                 kt_int(groups), out, out);
}

static void test_conv(void) {
  float in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, w[4] = {1, 1, 1, 1}, b[1] = {0.5f}, o[4];
  ptera_value *out = KT_T(PTERA_DTYPE_FLOAT, o, 1, 1, 2, 2);
  CHECK(conv(KT_T(PTERA_DTYPE_FLOAT, in, 1, 1, 3, 3), KT_T(PTERA_DTYPE_FLOAT, w, 1, 1, 2, 2),
             KT_T(PTERA_DTYPE_FLOAT, b, 1), KT_IL(1, 1), KT_IL(0, 0), KT_IL(1, 1), false, KT_IL(0, 0), 1,
             out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){12.5f, 16.5f, 24.5f, 28.5f}, 4, 0));
  CHECK(conv(KT_T(PTERA_DTYPE_FLOAT, in, 1, 1, 3, 3), KT_T(PTERA_DTYPE_FLOAT, w, 1, 1, 2, 2), kt_none(),
             KT_IL(2), KT_IL(1), KT_IL(1), false, KT_IL(0), 1, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1, 5, 11, 28}, 4, 0));
  /* 1-d */
  float x1[4] = {1, 2, 3, 4}, w1[2] = {1, -1}, o1[3];
  ptera_value *out1 = KT_T(PTERA_DTYPE_FLOAT, o1, 1, 1, 3);
  CHECK(conv(KT_T(PTERA_DTYPE_FLOAT, x1, 1, 1, 4), KT_T(PTERA_DTYPE_FLOAT, w1, 1, 1, 2), kt_none(), KT_IL(1),
             KT_IL(0), KT_IL(1), false, KT_IL(0), 1, out1) == PTERA_OK);
  CHECK(kt_farr(o1, (float[]){-1, -1, -1}, 3, 0));
  /* groups */
  float xg[2] = {3, 5}, wg[2] = {2, 10}, og[2];
  ptera_value *outg = KT_T(PTERA_DTYPE_FLOAT, og, 1, 2, 1, 1);
  CHECK(conv(KT_T(PTERA_DTYPE_FLOAT, xg, 1, 2, 1, 1), KT_T(PTERA_DTYPE_FLOAT, wg, 2, 1, 1, 1), kt_none(),
             KT_IL(1), KT_IL(0), KT_IL(1), false, KT_IL(0), 2, outg) == PTERA_OK);
  CHECK(og[0] == 6 && og[1] == 50);
  CHECK(conv(KT_T(PTERA_DTYPE_FLOAT, xg, 1, 2, 1, 1), KT_T(PTERA_DTYPE_FLOAT, wg, 2, 1, 1, 1), kt_none(),
             KT_IL(1), KT_IL(0), KT_IL(1), false, KT_IL(0), 3, outg) == PTERA_INVALID_ARGUMENT);
  /* transposed 1-d */
  float xt[2] = {1, 2}, wt[2] = {1, 1}, ot[3];
  ptera_value *outt = KT_T(PTERA_DTYPE_FLOAT, ot, 1, 1, 3);
  CHECK(conv(KT_T(PTERA_DTYPE_FLOAT, xt, 1, 1, 2), KT_T(PTERA_DTYPE_FLOAT, wt, 1, 1, 2), kt_none(), KT_IL(1),
             KT_IL(0), KT_IL(1), true, KT_IL(0), 1, outt) == PTERA_OK);
  CHECK(kt_farr(ot, (float[]){1, 3, 2}, 3, 0));
  /* channels-last input [1,2,1,2] */
  float xc[4] = {1, 10, 2, 20}, wc[2] = {1, 1}, oc[2];
  ptera_value *xcv = kt_tensor(PTERA_DTYPE_FLOAT, xc, sizeof xc, 4, (const int32_t[]){1, 2, 1, 2},
                               (const uint8_t[]){0, 2, 3, 1}, 0);
  ptera_value *outc = KT_T(PTERA_DTYPE_FLOAT, oc, 1, 1, 1, 2);
  CHECK(conv(xcv, KT_T(PTERA_DTYPE_FLOAT, wc, 1, 2, 1, 1), kt_none(), KT_IL(1, 1), KT_IL(0, 0), KT_IL(1, 1),
             false, KT_IL(0, 0), 1, outc) == PTERA_OK);
  CHECK(oc[0] == 11 && oc[1] == 22);
  /* kernel larger than input */
  CHECK(conv(KT_T(PTERA_DTYPE_FLOAT, x1, 1, 1, 4), KT_T(PTERA_DTYPE_FLOAT, in, 1, 1, 9), kt_none(), KT_IL(1),
             KT_IL(0), KT_IL(1), false, KT_IL(0), 1, out1) == PTERA_INVALID_ARGUMENT);
}

static void test_maxpool(void) {
  float in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, o[4];
  int64_t ix[4];
  ptera_value *out = KT_T(PTERA_DTYPE_FLOAT, o, 1, 1, 2, 2), *idx = KT_T(PTERA_DTYPE_LONG, ix, 1, 1, 2, 2);
  ptera_value *ret = kt_val(PTERA_TAG_LIST_TENSOR);
  CHECK(KT_CALL("aten::max_pool2d_with_indices.out", KT_T(PTERA_DTYPE_FLOAT, in, 1, 1, 3, 3), KT_IL(2, 2),
                KT_IL(1, 1), KT_IL(0, 0), KT_IL(1, 1), kt_bool(false), out, idx, ret) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){5, 6, 8, 9}, 4, 0));
  CHECK(ix[0] == 4 && ix[1] == 5 && ix[2] == 7 && ix[3] == 8);
  /* ceil mode, stride 2: 2x2 output */
  CHECK(KT_CALL("aten::max_pool2d_with_indices.out", KT_T(PTERA_DTYPE_FLOAT, in, 1, 3, 3), KT_IL(2),
                KT_IL0(), KT_IL(0), KT_IL(1), kt_bool(true), KT_T(PTERA_DTYPE_FLOAT, o, 1, 2, 2),
                KT_T(PTERA_DTYPE_LONG, ix, 1, 2, 2), ret) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){5, 6, 8, 9}, 4, 0));
  /* floor mode, stride 2: 1x1 */
  float o1[1];
  int64_t i1[1];
  CHECK(KT_CALL("aten::max_pool2d_with_indices.out", KT_T(PTERA_DTYPE_FLOAT, in, 1, 3, 3), KT_IL(2),
                KT_IL0(), KT_IL(0), KT_IL(1), kt_bool(false), KT_T(PTERA_DTYPE_FLOAT, o1, 1, 1, 1),
                KT_T(PTERA_DTYPE_LONG, i1, 1, 1, 1), ret) == PTERA_OK);
  CHECK(o1[0] == 5 && i1[0] == 4);
  /* padding 1 with a kernel of 3 */
  CHECK(KT_CALL("aten::max_pool2d_with_indices.out", KT_T(PTERA_DTYPE_FLOAT, in, 1, 3, 3), KT_IL(3),
                KT_IL(2), KT_IL(1), KT_IL(1), kt_bool(false), KT_T(PTERA_DTYPE_FLOAT, o, 1, 2, 2),
                KT_T(PTERA_DTYPE_LONG, ix, 1, 2, 2), ret) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){5, 6, 8, 9}, 4, 0));
  CHECK(ix[0] == 4 && ix[3] == 8);
  CHECK(KT_CALL("aten::max_pool2d_with_indices.out", KT_T(PTERA_DTYPE_FLOAT, in, 1, 3, 3), KT_IL(2),
                KT_IL(2), KT_IL(2), KT_IL(1), kt_bool(false), KT_T(PTERA_DTYPE_FLOAT, o, 1, 2, 2),
                KT_T(PTERA_DTYPE_LONG, ix, 1, 2, 2), ret) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("padding"));
}

int main(void) {
  test_mm();
  test_conv();
  test_maxpool();
  return check_summary("kernels_nn");
}
