/* Bitwise, any and normalization kernels added on branch opsa. Expected values
 * are hand computed unless a comment says they were printed by torch 1.13. */
#include "kernel_test_util.h"

static void test_bitwise_binary(void) {
  /* torch 1.13: int32 [1,3] op int8 [2,1] -> int32 [2,3] */
  int32_t a[3] = {12, -7, 0}, o[6];
  int8_t b[2] = {10, 3};
  ptera_value *out = KT_DYN(PTERA_DTYPE_INT, o, 1, 1);
  CHECK(KT_CALL("aten::bitwise_and.Tensor_out", KT_T(PTERA_DTYPE_INT, a, 1, 3), KT_T(PTERA_DTYPE_CHAR, b, 2, 1),
                out, out) == PTERA_OK);
  CHECK(out->u.tensor->dim == 2 && out->u.tensor->sizes[0] == 2 && out->u.tensor->sizes[1] == 3);
  CHECK(o[0] == 8 && o[1] == 8 && o[2] == 0 && o[3] == 0 && o[4] == 1 && o[5] == 0);
  CHECK(KT_CALL("aten::bitwise_or.Tensor_out", KT_T(PTERA_DTYPE_INT, a, 1, 3), KT_T(PTERA_DTYPE_CHAR, b, 2, 1),
                out, out) == PTERA_OK);
  CHECK(o[0] == 14 && o[1] == -5 && o[2] == 10 && o[3] == 15 && o[4] == -5 && o[5] == 3);
  CHECK(KT_CALL("aten::bitwise_xor.Tensor_out", KT_T(PTERA_DTYPE_INT, a, 1, 3), KT_T(PTERA_DTYPE_CHAR, b, 2, 1),
                out, out) == PTERA_OK);
  CHECK(o[0] == 6 && o[1] == -13 && o[2] == 10 && o[3] == 15 && o[4] == -6 && o[5] == 3);

  /* Scalar overloads on int16: [12, -7] op 6 (torch 1.13) */
  int16_t s[2] = {12, -7}, so[2];
  ptera_value *sout = KT_T(PTERA_DTYPE_SHORT, so, 2);
  CHECK(KT_CALL("aten::bitwise_and.Scalar_out", KT_T(PTERA_DTYPE_SHORT, s, 2), kt_int(6), sout, sout) == PTERA_OK);
  CHECK(so[0] == 4 && so[1] == 0);
  CHECK(KT_CALL("aten::bitwise_or.Scalar_out", KT_T(PTERA_DTYPE_SHORT, s, 2), kt_int(6), sout, sout) == PTERA_OK);
  CHECK(so[0] == 14 && so[1] == -1);
  CHECK(KT_CALL("aten::bitwise_xor.Scalar_out", KT_T(PTERA_DTYPE_SHORT, s, 2), kt_int(6), sout, sout) == PTERA_OK);
  CHECK(so[0] == 10 && so[1] == -1);

  /* Bool: xor of Bool tensors stays Bool; Bool | 2 promotes to Long */
  uint8_t x[2] = {1, 0}, y[2] = {1, 1}, bo[2];
  ptera_value *bout = KT_T(PTERA_DTYPE_BOOL, bo, 2);
  CHECK(KT_CALL("aten::bitwise_xor.Tensor_out", KT_T(PTERA_DTYPE_BOOL, x, 2), KT_T(PTERA_DTYPE_BOOL, y, 2),
                bout, bout) == PTERA_OK);
  CHECK(bo[0] == 0 && bo[1] == 1);
  int64_t lo[2];
  ptera_value *lout = KT_T(PTERA_DTYPE_LONG, lo, 2);
  CHECK(KT_CALL("aten::bitwise_or.Scalar_out", KT_T(PTERA_DTYPE_BOOL, x, 2), kt_int(2), lout, lout) == PTERA_OK);
  CHECK(lo[0] == 3 && lo[1] == 2);
  /* Bool & True */
  CHECK(KT_CALL("aten::bitwise_and.Scalar_out", KT_T(PTERA_DTYPE_BOOL, x, 2), kt_bool(true), bout, bout) ==
        PTERA_OK);
  CHECK(bo[0] == 1 && bo[1] == 0);
  /* 0-d with 0-d, and an empty tensor */
  int64_t z1[1] = {6}, z2[1] = {3}, zo[1];
  ptera_value *zout = KT_SCALAR(PTERA_DTYPE_LONG, zo);
  CHECK(KT_CALL("aten::bitwise_and.Tensor_out", KT_SCALAR(PTERA_DTYPE_LONG, z1), KT_SCALAR(PTERA_DTYPE_LONG, z2),
                zout, zout) == PTERA_OK);
  CHECK(zo[0] == 2);
  ptera_value *eout = KT_DYN(PTERA_DTYPE_LONG, lo, 2);
  CHECK(KT_CALL("aten::bitwise_or.Tensor_out", kt_tensor(PTERA_DTYPE_LONG, NULL, 0, 1, (const int32_t[]){0}, NULL, 0),
                KT_SCALAR(PTERA_DTYPE_LONG, z1), eout, eout) == PTERA_OK);
  CHECK(eout->u.tensor->numel == 0);

  /* errors: a floating operand, a double scalar, an out that cannot hold the result */
  float f[2] = {1, 2};
  CHECK(KT_CALL("aten::bitwise_and.Tensor_out", KT_T(PTERA_DTYPE_FLOAT, f, 2), KT_T(PTERA_DTYPE_LONG, lo, 2),
                lout, lout) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("aten::bitwise_and.Tensor_out") && kt_msg_has("'self'"));
  CHECK(KT_CALL("aten::bitwise_or.Scalar_out", KT_T(PTERA_DTYPE_SHORT, s, 2), kt_dbl(1.5), sout, sout) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("aten::bitwise_or.Scalar_out"));
  CHECK(KT_CALL("aten::bitwise_xor.Tensor_out", KT_T(PTERA_DTYPE_INT, a, 1, 3), KT_T(PTERA_DTYPE_CHAR, b, 2, 1),
                bout, bout) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("out"));
  CHECK(KT_CALL("aten::bitwise_xor.Scalar_out", KT_T(PTERA_DTYPE_SHORT, s, 2), kt_none(), sout, sout) ==
        PTERA_INVALID_TYPE);
}

static void test_bitwise_not(void) {
  /* torch 1.13: ~int8 [0, 5, -128] = [-1, -6, 127]; ~uint8 [7, 250] = [248, 5] */
  int8_t a[3] = {0, 5, -128}, o[3];
  ptera_value *out = KT_T(PTERA_DTYPE_CHAR, o, 3);
  CHECK(KT_CALL("aten::bitwise_not.out", KT_T(PTERA_DTYPE_CHAR, a, 3), out, out) == PTERA_OK);
  CHECK(o[0] == -1 && o[1] == -6 && o[2] == 127);
  uint8_t u[2] = {7, 250}, uo[2];
  ptera_value *uout = KT_T(PTERA_DTYPE_BYTE, uo, 2);
  CHECK(KT_CALL("aten::bitwise_not.out", KT_T(PTERA_DTYPE_BYTE, u, 2), uout, uout) == PTERA_OK);
  CHECK(uo[0] == 248 && uo[1] == 5);
  uint8_t bb[2] = {1, 0}, bo[2];
  ptera_value *bout = KT_T(PTERA_DTYPE_BOOL, bo, 2);
  CHECK(KT_CALL("aten::bitwise_not.out", KT_T(PTERA_DTYPE_BOOL, bb, 2), bout, bout) == PTERA_OK);
  CHECK(bo[0] == 0 && bo[1] == 1);
  /* Long out from an int8 self */
  int64_t lo[3];
  ptera_value *lout = KT_T(PTERA_DTYPE_LONG, lo, 3);
  CHECK(KT_CALL("aten::bitwise_not.out", KT_T(PTERA_DTYPE_CHAR, a, 3), lout, lout) == PTERA_OK);
  CHECK(lo[0] == -1 && lo[1] == -6 && lo[2] == 127);
  float f[2] = {1, 2}, fo[2];
  ptera_value *fout = KT_T(PTERA_DTYPE_FLOAT, fo, 2);
  CHECK(KT_CALL("aten::bitwise_not.out", KT_T(PTERA_DTYPE_FLOAT, f, 2), fout, fout) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("aten::bitwise_not.out") && kt_msg_has("'self'"));
  ptera_value *wrong = KT_T(PTERA_DTYPE_CHAR, o, 2);
  CHECK(KT_CALL("aten::bitwise_not.out", KT_T(PTERA_DTYPE_CHAR, a, 3), wrong, wrong) == PTERA_INVALID_ARGUMENT);
}

static void test_shifts(void) {
  /* torch 1.13: int8 [-8, 5, 127, -128] <</>> [1, 2, 3, 7] */
  int8_t a[4] = {-8, 5, 127, -128}, b[4] = {1, 2, 3, 7}, o[4];
  ptera_value *out = KT_T(PTERA_DTYPE_CHAR, o, 4);
  CHECK(KT_CALL("aten::bitwise_left_shift.Tensor_out", KT_T(PTERA_DTYPE_CHAR, a, 4), KT_T(PTERA_DTYPE_CHAR, b, 4),
                out, out) == PTERA_OK);
  CHECK(o[0] == -16 && o[1] == 20 && o[2] == -8 && o[3] == 0);
  CHECK(KT_CALL("aten::bitwise_right_shift.Tensor_out", KT_T(PTERA_DTYPE_CHAR, a, 4),
                KT_T(PTERA_DTYPE_CHAR, b, 4), out, out) == PTERA_OK);
  CHECK(o[0] == -4 && o[1] == 1 && o[2] == 15 && o[3] == -1);
  /* Scalar count on int64: [1, -16] << 3 = [8, -128]; >> 3 = [0, -2] */
  int64_t l[2] = {1, -16}, lo[2];
  ptera_value *lout = KT_T(PTERA_DTYPE_LONG, lo, 2);
  CHECK(KT_CALL("aten::bitwise_left_shift.Tensor_Scalar_out", KT_T(PTERA_DTYPE_LONG, l, 2), kt_int(3), lout,
                lout) == PTERA_OK);
  CHECK(lo[0] == 8 && lo[1] == -128);
  CHECK(KT_CALL("aten::bitwise_right_shift.Tensor_Scalar_out", KT_T(PTERA_DTYPE_LONG, l, 2), kt_int(3), lout,
                lout) == PTERA_OK);
  CHECK(lo[0] == 0 && lo[1] == -2);
  /* Out-of-range counts (PyTorch 2.x rule): left gives 0, right the sign fill */
  int64_t c[2] = {64, -1};
  CHECK(KT_CALL("aten::bitwise_left_shift.Tensor_out", KT_T(PTERA_DTYPE_LONG, l, 2), KT_T(PTERA_DTYPE_LONG, c, 2),
                lout, lout) == PTERA_OK);
  CHECK(lo[0] == 0 && lo[1] == 0);
  CHECK(KT_CALL("aten::bitwise_right_shift.Tensor_out", KT_T(PTERA_DTYPE_LONG, l, 2),
                KT_T(PTERA_DTYPE_LONG, c, 2), lout, lout) == PTERA_OK);
  CHECK(lo[0] == 0 && lo[1] == -1);
  /* uint8: 200 >> 3 = 25; 200 >> 9 = 0 (unsigned fill); 200 << 1 wraps to 144 */
  uint8_t u[1] = {200}, uo[1];
  ptera_value *uout = KT_T(PTERA_DTYPE_BYTE, uo, 1);
  CHECK(KT_CALL("aten::bitwise_right_shift.Tensor_Scalar_out", KT_T(PTERA_DTYPE_BYTE, u, 1), kt_int(3), uout,
                uout) == PTERA_OK);
  CHECK(uo[0] == 25);
  uint8_t nine[1] = {9};
  CHECK(KT_CALL("aten::bitwise_right_shift.Tensor_out", KT_T(PTERA_DTYPE_BYTE, u, 1),
                KT_T(PTERA_DTYPE_BYTE, nine, 1), uout, uout) == PTERA_OK);
  CHECK(uo[0] == 0);
  CHECK(KT_CALL("aten::bitwise_left_shift.Tensor_Scalar_out", KT_T(PTERA_DTYPE_BYTE, u, 1), kt_int(1), uout,
                uout) == PTERA_OK);
  CHECK(uo[0] == 144);
  /* errors: Bool shifts, floating operands */
  uint8_t bb[2] = {1, 0}, bo[2];
  ptera_value *bout = KT_T(PTERA_DTYPE_BOOL, bo, 2);
  CHECK(KT_CALL("aten::bitwise_left_shift.Tensor_out", KT_T(PTERA_DTYPE_BOOL, bb, 2), KT_T(PTERA_DTYPE_BOOL, bb, 2),
                bout, bout) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("aten::bitwise_left_shift.Tensor_out") && kt_msg_has("Bool"));
  float f[2] = {1, 2};
  CHECK(KT_CALL("aten::bitwise_right_shift.Tensor_Scalar_out", KT_T(PTERA_DTYPE_FLOAT, f, 2), kt_int(1), lout,
                lout) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("aten::bitwise_right_shift.Tensor_Scalar_out"));
}

static void test_any(void) {
  /* [[0, 0, 0], [0, NaN, 0]] as float; any over all / dim 0 / dim 1 */
  float a[6] = {0, 0, 0, 0, NAN, 0};
  uint8_t o[6];
  ptera_value *all = KT_DYN(PTERA_DTYPE_BOOL, o, 1);
  all->u.tensor->dim = 0; /* a 0-d out */
  all->u.tensor->numel = 1;
  CHECK(KT_CALL("aten::any.all_out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), all, all) == PTERA_OK);
  CHECK(o[0] == 1);
  int32_t zi[4] = {0, 0, 0, 0};
  CHECK(KT_CALL("aten::any.all_out", KT_T(PTERA_DTYPE_INT, zi, 4), all, all) == PTERA_OK);
  CHECK(o[0] == 0);
  /* empty self: False */
  CHECK(KT_CALL("aten::any.all_out", kt_tensor(PTERA_DTYPE_INT, NULL, 0, 1, (const int32_t[]){0}, NULL, 0), all,
                all) == PTERA_OK);
  CHECK(o[0] == 0);

  ptera_value *od = KT_DYN(PTERA_DTYPE_BOOL, o, 3);
  CHECK(KT_CALL("aten::any.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), kt_int(0), kt_bool(false), od, od) == PTERA_OK);
  CHECK(od->u.tensor->sizes[0] == 3 && o[0] == 0 && o[1] == 1 && o[2] == 0);
  ptera_value *ok = KT_DYN(PTERA_DTYPE_BYTE, o, 2, 1);
  CHECK(KT_CALL("aten::any.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), kt_int(-1), kt_bool(true), ok, ok) == PTERA_OK);
  CHECK(ok->u.tensor->sizes[0] == 2 && ok->u.tensor->sizes[1] == 1 && o[0] == 0 && o[1] == 1);

  /* dims_out: [0, 1] -> 0-d; None -> all; [] -> elementwise truth values */
  uint8_t b[6] = {0, 1, 0, 0, 0, 0};
  ptera_value *o0 = KT_DYN(PTERA_DTYPE_BOOL, o, 1);
  o0->u.tensor->dim = 0;
  o0->u.tensor->numel = 1;
  CHECK(KT_CALL("aten::any.dims_out", KT_T(PTERA_DTYPE_BOOL, b, 2, 3), KT_IL(0, 1), kt_bool(false), o0, o0) ==
        PTERA_OK);
  CHECK(o[0] == 1);
  ptera_value *ok2 = KT_DYN(PTERA_DTYPE_BOOL, o, 2, 2);
  CHECK(KT_CALL("aten::any.dims_out", KT_T(PTERA_DTYPE_BOOL, b, 2, 3), kt_none(), kt_bool(true), ok2, ok2) ==
        PTERA_OK);
  CHECK(ok2->u.tensor->sizes[0] == 1 && ok2->u.tensor->sizes[1] == 1 && o[0] == 1);
  int64_t l[6] = {0, 5, 0, -1, 0, 0};
  ptera_value *oe = KT_DYN(PTERA_DTYPE_BOOL, o, 2, 3);
  CHECK(KT_CALL("aten::any.dims_out", KT_T(PTERA_DTYPE_LONG, l, 2, 3), KT_IL0(), kt_bool(false), oe, oe) ==
        PTERA_OK);
  CHECK(o[0] == 0 && o[1] == 1 && o[2] == 0 && o[3] == 1 && o[4] == 0 && o[5] == 0);
  ptera_value *od1 = KT_DYN(PTERA_DTYPE_BOOL, o, 3);
  CHECK(KT_CALL("aten::any.dims_out", KT_T(PTERA_DTYPE_LONG, l, 2, 3), KT_IL(-2), kt_bool(false), od1, od1) ==
        PTERA_OK);
  CHECK(o[0] == 1 && o[1] == 1 && o[2] == 0);

  /* errors: bad dim, out dtype, repeated dim */
  CHECK(KT_CALL("aten::any.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), kt_int(2), kt_bool(false), od, od) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("aten::any.out") && kt_msg_has("dim"));
  float fo[3];
  ptera_value *fout = KT_DYN(PTERA_DTYPE_FLOAT, fo, 3);
  CHECK(KT_CALL("aten::any.out", KT_T(PTERA_DTYPE_FLOAT, a, 2, 3), kt_int(0), kt_bool(false), fout, fout) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("'out'"));
  CHECK(KT_CALL("aten::any.dims_out", KT_T(PTERA_DTYPE_LONG, l, 2, 3), KT_IL(1, -1), kt_bool(false), od1, od1) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("aten::any.dims_out"));
  CHECK(KT_CALL("aten::any.all_out", KT_T(PTERA_DTYPE_LONG, l, 2, 3), fout, fout) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("aten::any.all_out"));
}

/* x [2, 2, 2] = [[[1, 2], [3, 4]], [[5, -1], [0.5, 2]]], weight [2, 0.5], bias [0.1, -1] */
static float bn_x[8] = {1, 2, 3, 4, 5, -1, 0.5f, 2};
static float bn_w[2] = {2, 0.5f}, bn_b[2] = {0.1f, -1};

static void test_batch_norm(void) {
  float rm[2] = {1, 2}, rv[2] = {4, 0.25f}, o[8], m[2], r[2];
  ptera_value *out = KT_DYN(PTERA_DTYPE_FLOAT, o, 2, 2, 2), *mo = KT_DYN(PTERA_DTYPE_FLOAT, m, 2),
              *ro = KT_DYN(PTERA_DTYPE_FLOAT, r, 2);
  ptera_value *ret = kt_none(); /* the TensorList return slot is not read */
  /* no_training (torch 1.13 native_batch_norm, training=False) */
  CHECK(KT_CALL("aten::_native_batch_norm_legit_no_training.out", KT_T(PTERA_DTYPE_FLOAT, bn_x, 2, 2, 2),
                KT_T(PTERA_DTYPE_FLOAT, bn_w, 2), KT_T(PTERA_DTYPE_FLOAT, bn_b, 2), KT_T(PTERA_DTYPE_FLOAT, rm, 2),
                KT_T(PTERA_DTYPE_FLOAT, rv, 2), kt_dbl(0.1), kt_dbl(1e-5), out, mo, ro, ret) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1.00000024e-01f, 1.09999883f, -2.00271606e-05f, 9.99959946e-01f, 4.09999514f,
                             -1.89999759f, -2.49996996f, -1.0f}, 8, 1e-6));
  CHECK(mo->u.tensor->numel == 0 && ro->u.tensor->numel == 0);
  /* legit.out with training=False: same */
  mo = KT_DYN(PTERA_DTYPE_FLOAT, m, 2);
  ro = KT_DYN(PTERA_DTYPE_FLOAT, r, 2);
  CHECK(KT_CALL("aten::_native_batch_norm_legit.out", KT_T(PTERA_DTYPE_FLOAT, bn_x, 2, 2, 2),
                KT_T(PTERA_DTYPE_FLOAT, bn_w, 2), KT_T(PTERA_DTYPE_FLOAT, bn_b, 2), KT_T(PTERA_DTYPE_FLOAT, rm, 2),
                KT_T(PTERA_DTYPE_FLOAT, rv, 2), kt_bool(false), kt_dbl(0.1), kt_dbl(1e-5), out, mo, ro,
                ret) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1.00000024e-01f, 1.09999883f}, 2, 1e-6));
  /* legit.out with training=True: batch statistics, running stats updated (torch 1.13) */
  mo = KT_DYN(PTERA_DTYPE_FLOAT, m, 2);
  ro = KT_DYN(PTERA_DTYPE_FLOAT, r, 2);
  CHECK(KT_CALL("aten::_native_batch_norm_legit.out", KT_T(PTERA_DTYPE_FLOAT, bn_x, 2, 2, 2),
                KT_T(PTERA_DTYPE_FLOAT, bn_w, 2), KT_T(PTERA_DTYPE_FLOAT, bn_b, 2), KT_T(PTERA_DTYPE_FLOAT, rm, 2),
                KT_T(PTERA_DTYPE_FLOAT, rv, 2), kt_bool(true), kt_dbl(0.1), kt_dbl(1e-5), out, mo, ro,
                ret) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){-0.59281957f, 0.33093989f, -0.75831664f, -0.37162316f, 3.10221815f, -2.44033861f,
                             -1.72505021f, -1.14500999f}, 8, 1e-5));
  CHECK(mo->u.tensor->numel == 2 && kt_farr(m, (float[]){1.75f, 2.375f}, 2, 1e-6));
  CHECK(kt_farr(r, (float[]){0.46187973f, 0.77338690f}, 2, 1e-5));
  CHECK(kt_farr(rm, (float[]){1.07499993f, 2.03749990f}, 2, 1e-6));
  CHECK(kt_farr(rv, (float[]){4.22499990f, 0.44791669f}, 2, 1e-6));
  /* no_stats, no weight/bias (torch 1.13, training=True without running stats) */
  mo = KT_DYN(PTERA_DTYPE_FLOAT, m, 2);
  ro = KT_DYN(PTERA_DTYPE_FLOAT, r, 2);
  CHECK(KT_CALL("aten::_native_batch_norm_legit.no_stats_out", KT_T(PTERA_DTYPE_FLOAT, bn_x, 2, 2, 2), kt_none(),
                kt_none(), kt_bool(true), kt_dbl(0.1), kt_dbl(1e-5), out, mo, ro, ret) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){-0.34640980f, 0.11546993f, 0.48336679f, 1.25675368f, 1.50110912f, -1.27016926f,
                             -1.45010042f, -0.29002011f}, 8, 1e-5));
  CHECK(kt_farr(m, (float[]){1.75f, 2.375f}, 2, 1e-6) && kt_farr(r, (float[]){0.46187973f, 0.77338690f}, 2, 1e-5));
  /* double input */
  double xd[4] = {1, 3, 2, 2}, od[4], md[1], rd[1], rmd[1] = {1}, rvd[1] = {3};
  ptera_value *outd = KT_T(PTERA_DTYPE_DOUBLE, od, 2, 1, 2), *mod = KT_DYN(PTERA_DTYPE_DOUBLE, md, 1),
              *rod = KT_DYN(PTERA_DTYPE_DOUBLE, rd, 1);
  CHECK(KT_CALL("aten::_native_batch_norm_legit_no_training.out", KT_T(PTERA_DTYPE_DOUBLE, xd, 2, 1, 2), kt_none(),
                kt_none(), KT_T(PTERA_DTYPE_DOUBLE, rmd, 1), KT_T(PTERA_DTYPE_DOUBLE, rvd, 1), kt_dbl(0.1),
                kt_dbl(1.0), outd, mod, rod, ret) == PTERA_OK);
  CHECK(od[0] == 0.0 && od[1] == 1.0 && od[2] == 0.5 && od[3] == 0.5);
  /* errors: wrong weight size, integer input, training without running stats is fine but
   * no_training needs matching dtypes */
  float w3[3] = {1, 1, 1};
  CHECK(KT_CALL("aten::_native_batch_norm_legit_no_training.out", KT_T(PTERA_DTYPE_FLOAT, bn_x, 2, 2, 2),
                KT_T(PTERA_DTYPE_FLOAT, w3, 3), kt_none(), KT_T(PTERA_DTYPE_FLOAT, rm, 2),
                KT_T(PTERA_DTYPE_FLOAT, rv, 2), kt_dbl(0.1), kt_dbl(1e-5), out, mo, ro, ret) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("_native_batch_norm_legit_no_training.out") && kt_msg_has("'weight'"));
  int32_t xi[8] = {0};
  CHECK(KT_CALL("aten::_native_batch_norm_legit.out", KT_T(PTERA_DTYPE_INT, xi, 2, 2, 2), kt_none(), kt_none(),
                KT_T(PTERA_DTYPE_FLOAT, rm, 2), KT_T(PTERA_DTYPE_FLOAT, rv, 2), kt_bool(false), kt_dbl(0.1),
                kt_dbl(1e-5), out, mo, ro, ret) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("'input'"));
  CHECK(KT_CALL("aten::_native_batch_norm_legit.no_stats_out", KT_T(PTERA_DTYPE_FLOAT, bn_x, 8), kt_none(),
                kt_none(), kt_bool(true), kt_dbl(0.1), kt_dbl(1e-5), out, mo, ro, ret) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("no_stats_out"));
}

static void test_layer_group_norm(void) {
  float o[16], m[4], r[4];
  ptera_value *ret = kt_none();
  /* layer norm over [2, 2] of bn_x, no affine (torch 1.13) */
  ptera_value *out = KT_DYN(PTERA_DTYPE_FLOAT, o, 2, 2, 2), *mo = KT_DYN(PTERA_DTYPE_FLOAT, m, 2, 1, 1),
              *ro = KT_DYN(PTERA_DTYPE_FLOAT, r, 2, 1, 1);
  CHECK(KT_CALL("aten::native_layer_norm.out", KT_T(PTERA_DTYPE_FLOAT, bn_x, 2, 2, 2), KT_IL(2, 2), kt_none(),
                kt_none(), kt_dbl(1e-5), out, mo, ro, ret) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){-1.34163547f, -0.44721186f, 0.44721180f, 1.34163547f, 1.52127624f, -1.18321490f,
                             -0.50709212f, 0.16903067f}, 8, 1e-5));
  CHECK(mo->u.tensor->dim == 3 && mo->u.tensor->sizes[0] == 2 && mo->u.tensor->sizes[2] == 1);
  CHECK(kt_farr(m, (float[]){2.5f, 1.625f}, 2, 1e-6) && kt_farr(r, (float[]){0.89442366f, 0.45074850f}, 2, 1e-5));
  /* over the last dim with weight and bias (torch 1.13) */
  mo = KT_DYN(PTERA_DTYPE_FLOAT, m, 2, 2, 1);
  ro = KT_DYN(PTERA_DTYPE_FLOAT, r, 2, 2, 1);
  CHECK(KT_CALL("aten::native_layer_norm.out", KT_T(PTERA_DTYPE_FLOAT, bn_x, 2, 2, 2), KT_IL(2),
                KT_T(PTERA_DTYPE_FLOAT, bn_w, 2), KT_T(PTERA_DTYPE_FLOAT, bn_b, 2), kt_dbl(1e-5), out, mo, ro,
                ret) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){-1.89995992f, -0.50001001f, -1.89995992f, -0.50001001f, 2.09999871f, -1.49999976f,
                             -1.89998221f, -0.50000447f}, 8, 1e-5));
  CHECK(kt_farr(m, (float[]){1.5f, 3.5f, 2.0f, 1.25f}, 4, 1e-6));
  CHECK(kt_farr(r, (float[]){1.99995995f, 1.99995995f, 0.33333313f, 1.33332145f}, 4, 1e-5));
  /* errors: normalized_shape not matching the trailing dims */
  CHECK(KT_CALL("aten::native_layer_norm.out", KT_T(PTERA_DTYPE_FLOAT, bn_x, 2, 2, 2), KT_IL(3), kt_none(),
                kt_none(), kt_dbl(1e-5), out, mo, ro, ret) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("aten::native_layer_norm.out") && kt_msg_has("'normalized_shape'"));

  /* group norm: x [2, 4, 2] = 0, -1, 2, -3, ... 14, -15; 2 groups (torch 1.13) */
  float x[16], w4[4] = {1, 2, 3, 4}, b4[4] = {0, 1, 0, -1};
  for (int i = 0; i < 16; i++) x[i] = (float)(i % 2 ? -i : i);
  ptera_value *go = KT_DYN(PTERA_DTYPE_FLOAT, o, 2, 4, 2), *gm = KT_DYN(PTERA_DTYPE_FLOAT, m, 2, 2),
              *gr = KT_DYN(PTERA_DTYPE_FLOAT, r, 2, 2);
  CHECK(KT_CALL("aten::native_group_norm.out", KT_T(PTERA_DTYPE_FLOAT, x, 2, 4, 2), KT_T(PTERA_DTYPE_FLOAT, w4, 4),
                KT_T(PTERA_DTYPE_FLOAT, b4, 4), kt_int(2), kt_int(4), kt_int(2), kt_int(2), kt_dbl(1e-5), go, gm,
                gr, ret) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){0.27734968f, -0.27734968f, 3.77349687f, -1.77349675f, 2.41495323f, -2.41495323f,
                             3.65102077f, -5.65102100f, 0.88982064f, -0.88982064f, 3.19838047f, -1.19838023f,
                             2.77018809f, -2.77018809f, 3.28455734f, -5.28455734f}, 16, 1e-5));
  CHECK(kt_farr(m, (float[]){-0.5f, -0.5f, -0.5f, -0.5f}, 4, 1e-6));
  CHECK(kt_farr(r, (float[]){0.55469936f, 0.17888542f, 0.10468478f, 0.07387168f}, 4, 1e-5));
  /* errors: group not dividing C, HxW mismatch */
  CHECK(KT_CALL("aten::native_group_norm.out", KT_T(PTERA_DTYPE_FLOAT, x, 2, 4, 2), kt_none(), kt_none(),
                kt_int(2), kt_int(4), kt_int(2), kt_int(3), kt_dbl(1e-5), go, gm, gr, ret) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("aten::native_group_norm.out") && kt_msg_has("'group'"));
  CHECK(KT_CALL("aten::native_group_norm.out", KT_T(PTERA_DTYPE_FLOAT, x, 2, 4, 2), kt_none(), kt_none(),
                kt_int(2), kt_int(4), kt_int(3), kt_int(2), kt_dbl(1e-5), go, gm, gr, ret) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("'HxW'"));
}

int main(void) {
  test_bitwise_binary();
  test_bitwise_not();
  test_shifts();
  test_any();
  test_batch_norm();
  test_layer_group_norm();
  return check_summary("kernels_opsa");
}
