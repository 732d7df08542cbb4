/* quantized_decomposed quantize/dequantize_per_tensor and the prim ops. */
#include "kernel_test_util.h"

static void test_quant(void) {
  float x[5] = {0.0f, 0.5f, -1.0f, 100.0f, 0.25f};
  int8_t q[5];
  ptera_value *out = KT_T(PTERA_DTYPE_CHAR, q, 5);
  /* scale 0.5 -> inv 2; zp -3: q = -3 + nearbyint(2x) */
  CHECK(KT_CALL("quantized_decomposed::quantize_per_tensor.out", KT_T(PTERA_DTYPE_FLOAT, x, 5), kt_dbl(0.5),
                kt_int(-3), kt_int(-128), kt_int(127), kt_int(PTERA_DTYPE_CHAR), out, out) == PTERA_OK);
  CHECK(q[0] == -3 && q[1] == -2 && q[2] == -5 && q[3] == 127 && q[4] == -3); /* 0.5 rounds to even 0 */
  CHECK(KT_CALL("quantized_decomposed::quantize_per_tensor.out", KT_T(PTERA_DTYPE_FLOAT, x, 5), kt_dbl(0.5),
                kt_int(0), kt_int(-128), kt_int(200), kt_int(PTERA_DTYPE_CHAR), out, out) == PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("quantized_decomposed::quantize_per_tensor.out", KT_T(PTERA_DTYPE_FLOAT, x, 5), kt_dbl(0.5),
                kt_int(0), kt_int(0), kt_int(255), kt_int(PTERA_DTYPE_BYTE), out, out) == PTERA_INVALID_ARGUMENT);
  float d[5];
  ptera_value *dout = KT_T(PTERA_DTYPE_FLOAT, d, 5);
  CHECK(KT_CALL("quantized_decomposed::dequantize_per_tensor.out", KT_T(PTERA_DTYPE_CHAR, q, 5), kt_dbl(0.5),
                kt_int(-3), kt_int(-128), kt_int(127), kt_int(PTERA_DTYPE_CHAR), kt_none(), dout, dout) == PTERA_OK);
  CHECK(kt_farr(d, (float[]){0, 0.5f, -1, 65, 0}, 5, 0));
  CHECK(KT_CALL("quantized_decomposed::dequantize_per_tensor.out", KT_T(PTERA_DTYPE_CHAR, q, 5), kt_dbl(0.5),
                kt_int(-3), kt_int(-128), kt_int(127), kt_int(PTERA_DTYPE_BYTE), kt_none(), dout, dout) ==
        PTERA_INVALID_ARGUMENT);
}

static void test_prim_scalar(void) {
  ptera_value *r = kt_int(0);
  CHECK(KT_CALL("executorch_prim::add.Scalar", kt_int(2), kt_int(3), r) == PTERA_OK && r->tag == PTERA_TAG_INT && r->u.i == 5);
  CHECK(KT_CALL("executorch_prim::mul.Scalar", kt_int(2), kt_dbl(1.5), r) == PTERA_OK && r->tag == PTERA_TAG_DOUBLE && r->u.d == 3.0);
  CHECK(KT_CALL("executorch_prim::sub.Scalar", kt_bool(true), kt_int(1), r) == PTERA_INVALID_TYPE);
  CHECK(KT_CALL("executorch_prim::floordiv.Scalar", kt_int(-7), kt_int(2), r) == PTERA_OK && r->u.i == -4);
  CHECK(KT_CALL("executorch_prim::floordiv.Scalar", kt_int(7), kt_int(-2), r) == PTERA_OK && r->u.i == -4);
  CHECK(KT_CALL("executorch_prim::floordiv.Scalar", kt_dbl(-7.0), kt_dbl(2.0), r) == PTERA_OK && r->u.d == -4.0);
  CHECK(KT_CALL("executorch_prim::floordiv.Scalar", kt_dbl(1.0), kt_dbl(0.0), r) == PTERA_OK && isinf(r->u.d) && r->u.d > 0);
  CHECK(KT_CALL("executorch_prim::floordiv.Scalar", kt_int(1), kt_int(0), r) == PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("executorch_prim::floordiv.int", kt_int(-7), kt_int(2), r) == PTERA_OK && r->u.i == -3);
  CHECK(KT_CALL("executorch_prim::mod.int", kt_int(-7), kt_int(2), r) == PTERA_OK && r->u.i == -1);
  CHECK(KT_CALL("executorch_prim::mod.Scalar", kt_int(7), kt_int(3), r) == PTERA_OK && r->u.i == 1);
  CHECK(KT_CALL("executorch_prim::mod.Scalar", kt_dbl(7), kt_int(3), r) == PTERA_INVALID_TYPE);
  CHECK(KT_CALL("executorch_prim::truediv.Scalar", kt_int(7), kt_int(2), r) == PTERA_OK && r->tag == PTERA_TAG_DOUBLE && r->u.d == 3.5);
  CHECK(KT_CALL("executorch_prim::sym_max.Scalar", kt_int(7), kt_int(9), r) == PTERA_OK && r->u.i == 9);
  CHECK(KT_CALL("executorch_prim::sym_min.Scalar", kt_int(7), kt_int(9), r) == PTERA_OK && r->u.i == 7);
  CHECK(KT_CALL("executorch_prim::neg.Scalar", kt_int(7), r) == PTERA_OK && r->u.i == -7);
  CHECK(KT_CALL("executorch_prim::sym_float.Scalar", kt_int(7), r) == PTERA_OK && r->tag == PTERA_TAG_DOUBLE && r->u.d == 7.0);
  CHECK(KT_CALL("executorch_prim::sym_int.Scalar", kt_dbl(-2.7), r) == PTERA_OK && r->tag == PTERA_TAG_INT && r->u.i == -2);
  CHECK(KT_CALL("executorch_prim::ceil.Scalar", kt_dbl(1.2), r) == PTERA_OK && r->u.i == 2);
  CHECK(KT_CALL("executorch_prim::round.Scalar", kt_dbl(2.5), r) == PTERA_OK && r->u.i == 2);
  CHECK(KT_CALL("executorch_prim::round.Scalar", kt_dbl(3.5), r) == PTERA_OK && r->u.i == 4);
  CHECK(KT_CALL("executorch_prim::round.Scalar", kt_dbl(-2.5), r) == PTERA_OK && r->u.i == -2);
  CHECK(KT_CALL("executorch_prim::trunc.Scalar", kt_dbl(-2.5), r) == PTERA_OK && r->u.i == -2);
  CHECK(KT_CALL("executorch_prim::ceil.Scalar", kt_int(2), r) == PTERA_INVALID_TYPE);
  CHECK(KT_CALL("executorch_prim::lt.Scalar", kt_int(2), kt_dbl(2.5), r) == PTERA_OK && r->tag == PTERA_TAG_BOOL && r->u.b);
  CHECK(KT_CALL("executorch_prim::eq.Scalar", kt_bool(true), kt_bool(true), r) == PTERA_OK && r->u.b);
  CHECK(KT_CALL("executorch_prim::ge.Scalar", kt_int(2), kt_int(3), r) == PTERA_OK && !r->u.b);
  CHECK(KT_CALL("executorch_prim::gt.Scalar", kt_int(4), kt_int(3), r) == PTERA_OK && r->u.b);
  CHECK(KT_CALL("executorch_prim::le.Scalar", kt_int(3), kt_int(3), r) == PTERA_OK && r->u.b);
  CHECK(KT_CALL("executorch_prim::sym_not.Scalar", kt_bool(true), r) == PTERA_OK && !r->u.b);
  CHECK(KT_CALL("executorch_prim::sym_ite.Scalar", kt_bool(false), kt_int(1), kt_int(2), r) == PTERA_OK && r->u.i == 2);
  CHECK(KT_CALL("executorch_prim::add.Scalar", kt_int(2), kt_int(3)) == PTERA_INVALID_PROGRAM);
}

static void test_prim_tensor(void) {
  float a[6] = {1.5f, 2, 3, 4, 5, 6};
  ptera_value *r = kt_int(0);
  CHECK(KT_CALL("aten::sym_size.int", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), kt_int(-1), r) == PTERA_OK && r->u.i == 3);
  CHECK(KT_CALL("aten::sym_size.int", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), kt_int(2), r) == PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("aten::sym_numel", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), r) == PTERA_OK && r->u.i == 6);
  CHECK(KT_CALL("aten::_local_scalar_dense", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), r) == PTERA_OK &&
        r->tag == PTERA_TAG_DOUBLE && r->u.d == 1.5);
  int64_t l[1] = {9};
  CHECK(KT_CALL("aten::_local_scalar_dense", KT_T(PTERA_DTYPE_LONG, l, 1), r) == PTERA_OK && r->tag == PTERA_TAG_INT && r->u.i == 9);
  /* et_view aliases */
  float v[1];
  ptera_value *view = kt_tensor(PTERA_DTYPE_FLOAT, v, 24, 2, (const int32_t[]){1, 1}, NULL, 1);
  CHECK(KT_CALL("executorch_prim::et_view.default", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_IL(3, -1), view) == PTERA_OK);
  CHECK(view->u.tensor->data == (void *)a && view->u.tensor->sizes[0] == 3 && view->u.tensor->sizes[1] == 2);
  CHECK(KT_CALL("executorch_prim::et_view.default", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_IL(4, -1), view) ==
        PTERA_INVALID_ARGUMENT);
  /* A view of constant data carries the read-only flag; a view of ordinary
   * data drops it. */
  ptera_value *cself = KT_T(PTERA_DTYPE_FLOAT, a, 2, 3);
  cself->u.tensor->flags |= PTERA_TENSOR_CONST;
  CHECK(KT_CALL("executorch_prim::et_view.default", cself, KT_IL(2, 3), view) == PTERA_OK);
  CHECK((view->u.tensor->flags & PTERA_TENSOR_CONST) != 0);
  CHECK(KT_CALL("executorch_prim::et_view.default", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), KT_IL(2, 3), view) ==
        PTERA_OK);
  CHECK((view->u.tensor->flags & PTERA_TENSOR_CONST) == 0);
  /* et_copy_index: grow [0?]: to bound [3, 2], from [2] */
  float to[6] = {0}, from[2] = {7, 8};
  ptera_value *tov = KT_DYN(PTERA_DTYPE_FLOAT, to, 1, 2);
  CHECK(KT_CALL("executorch_prim::et_copy_index.tensor", tov, KT_T(PTERA_DTYPE_FLOAT, from, 2), kt_int(2)) == PTERA_OK);
  CHECK(tov->u.tensor->sizes[0] == 3 && to[4] == 7 && to[5] == 8);
  CHECK(KT_CALL("executorch_prim::et_copy_index.tensor", tov, KT_T(PTERA_DTYPE_FLOAT, from, 2), kt_int(3)) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("executorch_prim::et_copy_index.tensor", tov, KT_T(PTERA_DTYPE_FLOAT, from, 2), kt_int(-1)) ==
        PTERA_INVALID_ARGUMENT);
}

int main(void) {
  test_quant();
  test_prim_scalar();
  test_prim_tensor();
  return check_summary("kernels_quant_prim");
}
