/* Copy / shape ops: view, permute, expand, squeeze, unsqueeze, clone, alias,
 * _to_dim_order_copy, full_like, scalar_tensor. */
#include "kernel_test_util.h"

static void test_view_permute(void) {
  float a[6] = {0, 1, 2, 3, 4, 5}, o[6];
  ptera_value *out = KT_T(PTERA_DTYPE_FLOAT, o, 3, 2);
  CHECK(KT_CALL("aten::view_copy.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_IL(-1, 2), out, out) == PTERA_OK);
  CHECK(kt_farr(o, a, 6, 0));
  CHECK(KT_CALL("aten::view_copy.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_IL(4, 2), out, out) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("aten::view_copy.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_IL(-1, -1), out, out) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("aten::permute_copy.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_IL(1, 0), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){0, 3, 1, 4, 2, 5}, 6, 0));
  CHECK(KT_CALL("aten::permute_copy.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_IL(-1, 1), out, out) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("repeats"));
  /* view of a channels-last tensor reads in logical order */
  float cl[4] = {1, 10, 2, 20}, v[4];
  ptera_value *x = kt_tensor(PTERA_DTYPE_FLOAT, cl, sizeof cl, 4, (const int32_t[]){1, 2, 2, 1},
                             (const uint8_t[]){0, 2, 3, 1}, 0);
  out = KT_T(PTERA_DTYPE_FLOAT, v, 4);
  CHECK(KT_CALL("aten::view_copy.out", x, KT_IL(4), out, out) == PTERA_OK);
  CHECK(kt_farr(v, (float[]){1, 2, 10, 20}, 4, 0));
}

static void test_expand_squeeze(void) {
  int32_t a[3] = {1, 2, 3}, o[6];
  ptera_value *out = KT_T(PTERA_DTYPE_INT, o, 2, 3);
  CHECK(KT_CALL("aten::expand_copy.out", KT_T(PTERA_DTYPE_INT, a, 3), KT_IL(2, -1), kt_bool(false), out, out) == PTERA_OK);
  CHECK(o[0] == 1 && o[2] == 3 && o[3] == 1 && o[5] == 3);
  int32_t b[2] = {7, 8};
  out = KT_T(PTERA_DTYPE_INT, o, 2, 3);
  CHECK(KT_CALL("aten::expand_copy.out", KT_T(PTERA_DTYPE_INT, b, 2, 1), KT_IL(2, 3), kt_bool(false), out, out) == PTERA_OK);
  CHECK(o[0] == 7 && o[2] == 7 && o[3] == 8 && o[5] == 8);
  CHECK(KT_CALL("aten::expand_copy.out", KT_T(PTERA_DTYPE_INT, a, 3), KT_IL(2, 4), kt_bool(false), out, out) ==
        PTERA_INVALID_ARGUMENT);
  float one[1] = {5}, big[8];
  ptera_value *bo = KT_T(PTERA_DTYPE_FLOAT, big, 8);
  CHECK(KT_CALL("aten::expand_copy.out", KT_T(PTERA_DTYPE_FLOAT, one, 1), KT_IL(8), kt_bool(false), bo, bo) == PTERA_OK);
  CHECK(big[0] == 5 && big[7] == 5);
  float s[2] = {1, 2}, so[2];
  ptera_value *sout = KT_T(PTERA_DTYPE_FLOAT, so, 2);
  CHECK(KT_CALL("aten::squeeze_copy.dims_out", KT_T(PTERA_DTYPE_FLOAT, s, 1, 2, 1), KT_IL(0, -1, 1), sout, sout) == PTERA_OK);
  CHECK(so[0] == 1 && so[1] == 2);
  CHECK(KT_CALL("aten::squeeze_copy.dims_out", KT_T(PTERA_DTYPE_FLOAT, s, 1, 2, 1), KT_IL(3), sout, sout) ==
        PTERA_INVALID_ARGUMENT);
  int64_t l[1] = {4}, lo[1];
  ptera_value *lout = KT_T(PTERA_DTYPE_LONG, lo, 1, 1);
  CHECK(KT_CALL("aten::unsqueeze_copy.out", KT_T(PTERA_DTYPE_LONG, l, 1), kt_int(-1), lout, lout) == PTERA_OK);
  CHECK(lo[0] == 4);
  CHECK(KT_CALL("aten::unsqueeze_copy.out", KT_T(PTERA_DTYPE_LONG, l, 1), kt_int(1), lout, lout) == PTERA_OK);
  CHECK(KT_CALL("aten::unsqueeze_copy.out", KT_T(PTERA_DTYPE_LONG, l, 1), kt_int(2), lout, lout) ==
        PTERA_INVALID_ARGUMENT);
}

static void test_copies(void) {
  /* clone a channels-last tensor into a contiguous one */
  float cl[4] = {1, 10, 2, 20}, o[4];
  ptera_value *x = kt_tensor(PTERA_DTYPE_FLOAT, cl, sizeof cl, 4, (const int32_t[]){1, 2, 2, 1},
                             (const uint8_t[]){0, 2, 3, 1}, 0);
  ptera_value *out = KT_T(PTERA_DTYPE_FLOAT, o, 1, 2, 2, 1);
  CHECK(KT_CALL("aten::clone.out", x, kt_none(), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1, 2, 10, 20}, 4, 0));
  CHECK(KT_CALL("aten::alias_copy.out", x, out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1, 2, 10, 20}, 4, 0));
  /* _to_dim_order_copy: Long scalar -> Float scalar, dim_order [] */
  int64_t l[1] = {3};
  float f[1];
  ptera_value *fo = KT_SCALAR(PTERA_DTYPE_FLOAT, f);
  CHECK(KT_CALL("dim_order_ops::_to_dim_order_copy.out", KT_SCALAR(PTERA_DTYPE_LONG, l), kt_bool(false),
                KT_IL0(), fo, fo) == PTERA_OK);
  CHECK(f[0] == 3.0f);
  /* contiguous -> channels-last with dim_order given */
  float c[4] = {1, 2, 10, 20}, m[4];
  ptera_value *mo = kt_tensor(PTERA_DTYPE_FLOAT, m, sizeof m, 4, (const int32_t[]){1, 2, 2, 1},
                              (const uint8_t[]){0, 2, 3, 1}, 0);
  CHECK(KT_CALL("dim_order_ops::_to_dim_order_copy.out", KT_T(PTERA_DTYPE_FLOAT, c, 1, 2, 2, 1),
                kt_bool(false), KT_IL(0, 2, 3, 1), mo, mo) == PTERA_OK);
  CHECK(kt_farr(m, (float[]){1, 10, 2, 20}, 4, 0));
  CHECK(KT_CALL("dim_order_ops::_to_dim_order_copy.out", KT_T(PTERA_DTYPE_FLOAT, c, 1, 2, 2, 1),
                kt_bool(false), KT_IL(0, 1, 2, 3), mo, mo) == PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("dim_order_ops::_to_dim_order_copy.out", KT_T(PTERA_DTYPE_FLOAT, c, 1, 2, 2, 1),
                kt_bool(false), kt_none(), mo, mo) == PTERA_INVALID_ARGUMENT);
  /* float -> int truncates */
  float g[2] = {2.7f, -1.5f};
  int32_t gi[2];
  ptera_value *go = KT_T(PTERA_DTYPE_INT, gi, 2);
  CHECK(KT_CALL("dim_order_ops::_to_dim_order_copy.out", KT_T(PTERA_DTYPE_FLOAT, g, 2), kt_bool(false),
                kt_none(), go, go) == PTERA_OK);
  CHECK(gi[0] == 2 && gi[1] == -1);
}

static void test_fill(void) {
  float a[2];
  float o[2];
  ptera_value *out = KT_T(PTERA_DTYPE_FLOAT, o, 1, 2);
  CHECK(KT_CALL("aten::full_like.out", KT_T(PTERA_DTYPE_FLOAT, a, 1, 2), kt_int(1), kt_int(1), out, out) == PTERA_OK);
  CHECK(o[0] == 1.0f && o[1] == 1.0f);
  CHECK(KT_CALL("aten::full_like.out", KT_T(PTERA_DTYPE_FLOAT, a, 1, 2), kt_dbl(-0.5), kt_none(), out, out) == PTERA_OK);
  CHECK(o[0] == -0.5f && o[1] == -0.5f);
  CHECK(KT_CALL("aten::full_like.out", KT_T(PTERA_DTYPE_FLOAT, a, 1, 2), kt_dbl(-0.5), kt_int(9), out, out) ==
        PTERA_INVALID_ARGUMENT);
  int64_t s[1];
  ptera_value *so = KT_SCALAR(PTERA_DTYPE_LONG, s);
  CHECK(KT_CALL("aten::scalar_tensor.out", kt_int(0), so, so) == PTERA_OK);
  CHECK(s[0] == 0);
  CHECK(KT_CALL("aten::scalar_tensor.out", kt_bool(true), so, so) == PTERA_OK);
  CHECK(s[0] == 1);
  float f1[1];
  ptera_value *fo = KT_T(PTERA_DTYPE_FLOAT, f1, 1);
  CHECK(KT_CALL("aten::scalar_tensor.out", kt_dbl(2.5), fo, fo) == PTERA_INVALID_ARGUMENT);
}

int main(void) {
  test_view_permute();
  test_expand_squeeze();
  test_copies();
  test_fill();
  return check_summary("kernels_shape");
}
