/* Reductions, softmax, argmax, gather, scatter. */
#include "kernel_test_util.h"

static void test_sum_mean(void) {
  /* [2,3] = [[1,2,3],[4,5,6]] */
  float a[6] = {1, 2, 3, 4, 5, 6}, o[6];
  ptera_value *out = KT_T(PTERA_DTYPE_FLOAT, o, 3);
  CHECK(KT_CALL("aten::sum.IntList_out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_IL(0), kt_bool(false),
                kt_none(), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){5, 7, 9}, 3, 0));
  out = KT_T(PTERA_DTYPE_FLOAT, o, 2, 1);
  CHECK(KT_CALL("aten::sum.IntList_out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_IL(-1), kt_bool(true),
                kt_none(), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){6, 15}, 2, 0));
  out = KT_SCALAR(PTERA_DTYPE_FLOAT, o);
  CHECK(KT_CALL("aten::sum.IntList_out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_IL0(), kt_bool(false),
                kt_none(), out, out) == PTERA_OK);
  CHECK(o[0] == 21);
  CHECK(KT_CALL("aten::sum.IntList_out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), kt_none(), kt_bool(false),
                kt_none(), out, out) == PTERA_OK);
  CHECK(o[0] == 21);
  /* bool -> long */
  uint8_t b[3] = {1, 0, 1};
  int64_t l[1];
  ptera_value *lo = KT_SCALAR(PTERA_DTYPE_LONG, l);
  CHECK(KT_CALL("aten::sum.IntList_out", KT_T(PTERA_DTYPE_BOOL, b, 3), KT_IL0(), kt_bool(false),
                kt_none(), lo, lo) == PTERA_OK);
  CHECK(l[0] == 2);
  CHECK(KT_CALL("aten::sum.IntList_out", KT_T(PTERA_DTYPE_BOOL, b, 3), KT_IL0(), kt_bool(false),
                kt_int(PTERA_DTYPE_INT), lo, lo) == PTERA_INVALID_ARGUMENT);
  /* sum over a channels-last tensor, dims (2,3) keepdim: per channel */
  float cl[4] = {1, 10, 2, 20}, s2[2];
  ptera_value *x = kt_tensor(PTERA_DTYPE_FLOAT, cl, sizeof cl, 4, (const int32_t[]){1, 2, 2, 1},
                             (const uint8_t[]){0, 2, 3, 1}, 0);
  out = KT_T(PTERA_DTYPE_FLOAT, s2, 1, 2, 1, 1);
  CHECK(KT_CALL("aten::sum.IntList_out", x, KT_IL(2, 3), kt_bool(true), kt_none(), out, out) == PTERA_OK);
  CHECK(s2[0] == 3 && s2[1] == 30);
  out = KT_T(PTERA_DTYPE_FLOAT, o, 2);
  CHECK(KT_CALL("aten::mean.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_IL(1), kt_bool(false), kt_none(),
                out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){2, 5}, 2, 1e-6));
  out = KT_SCALAR(PTERA_DTYPE_FLOAT, o);
  CHECK(KT_CALL("aten::mean.dtype_out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), kt_none(), out, out) == PTERA_OK);
  CHECK(kt_close(o[0], 3.5, 1e-6));
  int32_t ia[2] = {1, 2};
  CHECK(KT_CALL("aten::mean.dtype_out", KT_T(PTERA_DTYPE_INT, ia, 2), kt_none(), out, out) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("aten::mean.dtype_out", KT_T(PTERA_DTYPE_INT, ia, 2), kt_int(PTERA_DTYPE_FLOAT), out, out) ==
        PTERA_OK);
  CHECK(o[0] == 1.5f);
  CHECK(KT_CALL("aten::sum.IntList_out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_IL(0, -2), kt_bool(false),
                kt_none(), out, out) == PTERA_INVALID_ARGUMENT);
}

static void test_argmax_softmax(void) {
  float a[6] = {1, 5, 5, 7, NAN, 0};
  int64_t o[3];
  ptera_value *out = KT_T(PTERA_DTYPE_LONG, o, 2);
  CHECK(KT_CALL("aten::argmax.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), kt_int(1), kt_bool(false), out, out) == PTERA_OK);
  CHECK(o[0] == 1 && o[1] == 1); /* first max; NaN wins */
  out = KT_SCALAR(PTERA_DTYPE_LONG, o);
  CHECK(KT_CALL("aten::argmax.out", KT_T(PTERA_DTYPE_FLOAT, a, 6), kt_none(), kt_bool(false), out, out) == PTERA_OK);
  CHECK(o[0] == 4);
  float sm[4] = {0, 0, 1, 3}, so[4];
  ptera_value *sout = KT_T(PTERA_DTYPE_FLOAT, so, 2, 2);
  CHECK(KT_CALL("aten::_softmax.out", KT_T(PTERA_DTYPE_FLOAT, sm, 2, 2), kt_int(-1), kt_bool(false), sout, sout) == PTERA_OK);
  CHECK(kt_farr(so, (float[]){0.5f, 0.5f, 0.1192029220f, 0.8807970780f}, 4, 1e-6));
  CHECK(KT_CALL("aten::_softmax.out", KT_T(PTERA_DTYPE_FLOAT, sm, 2, 2), kt_int(0), kt_bool(false), sout, sout) == PTERA_OK);
  CHECK(kt_farr(so, (float[]){0.2689414214f, 0.0474258732f, 0.7310585786f, 0.9525741268f}, 4, 1e-6));
  CHECK(KT_CALL("aten::_log_softmax.out", KT_T(PTERA_DTYPE_FLOAT, sm, 2, 2), kt_int(1), kt_bool(false), sout, sout) == PTERA_OK);
  CHECK(kt_farr(so, (float[]){-0.6931471806f, -0.6931471806f, -2.1269280110f, -0.1269280110f}, 4, 1e-6));
  CHECK(KT_CALL("aten::_softmax.out", KT_T(PTERA_DTYPE_FLOAT, sm, 2, 2), kt_int(2), kt_bool(false), sout, sout) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("aten::_softmax.out", KT_T(PTERA_DTYPE_FLOAT, sm, 2, 2), kt_int(1), kt_bool(true), sout, sout) ==
        PTERA_INVALID_ARGUMENT);
}

static void test_gather_scatter(void) {
  float a[4] = {1, 2, 3, 4}; /* [[1,2],[3,4]] */
  int64_t idx[4] = {1, 0, 0, 0};
  float o[4];
  ptera_value *out = KT_T(PTERA_DTYPE_FLOAT, o, 2, 2);
  CHECK(KT_CALL("aten::gather.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 2), kt_int(1), KT_T(PTERA_DTYPE_LONG, idx, 2, 2),
                kt_bool(false), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){2, 1, 3, 3}, 4, 0));
  CHECK(KT_CALL("aten::gather.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 2), kt_int(0), KT_T(PTERA_DTYPE_LONG, idx, 2, 2),
                kt_bool(false), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){3, 2, 1, 2}, 4, 0));
  int64_t bad[4] = {2, 0, 0, 0};
  CHECK(KT_CALL("aten::gather.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 2), kt_int(1), KT_T(PTERA_DTYPE_LONG, bad, 2, 2),
                kt_bool(false), out, out) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("out of bounds"));
  int32_t i32[4] = {0};
  CHECK(KT_CALL("aten::gather.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 2), kt_int(1), KT_T(PTERA_DTYPE_INT, i32, 2, 2),
                kt_bool(false), out, out) == PTERA_INVALID_ARGUMENT);
  /* scatter value: [1,2] dim 1 index [[1]] value -1 */
  float s[2] = {5, 6}, so[2];
  int64_t si[1] = {1};
  ptera_value *sout = KT_T(PTERA_DTYPE_FLOAT, so, 1, 2);
  CHECK(KT_CALL("aten::scatter.value_out", KT_T(PTERA_DTYPE_FLOAT, s, 1, 2), kt_int(1), KT_T(PTERA_DTYPE_LONG, si, 1, 1),
                kt_dbl(-1.0), sout, sout) == PTERA_OK);
  CHECK(so[0] == 5 && so[1] == -1);
  int64_t sbad[1] = {-1};
  CHECK(KT_CALL("aten::scatter.value_out", KT_T(PTERA_DTYPE_FLOAT, s, 1, 2), kt_int(1), KT_T(PTERA_DTYPE_LONG, sbad, 1, 1),
                kt_dbl(-1.0), sout, sout) == PTERA_INVALID_ARGUMENT);
}

int main(void) {
  test_sum_mean();
  test_argmax_softmax();
  test_gather_scatter();
  return check_summary("kernels_reduce");
}
