/* Shape / layout ops, creation ops, pooling, padding and linear algebra added on
 * branch k3. Expected values are hand-computed or were computed with torch 1.13
 * while writing the test and pasted as literals (noted per case). */
#include <stdlib.h>

#include "kernel_test_util.h"

#define F PTERA_DTYPE_FLOAT
#define L PTERA_DTYPE_LONG
#define I PTERA_DTYPE_INT

static ptera_value *kt_tlist(size_t n, ptera_value **items) {
  ptera_value *v = kt_val(PTERA_TAG_LIST_TENSOR);
  ptera_value **p = &kt_ptrs[kt_np];
  kt_np += n;
  for (size_t i = 0; i < n; i++) p[i] = items[i];
  v->u.list.items = p;
  v->u.list.len = n;
  return v;
}
#define KT_TL(...) kt_tlist(sizeof((ptera_value *[]){__VA_ARGS__}) / sizeof(ptera_value *), (ptera_value *[]){__VA_ARGS__})

static bool iarr(const int32_t *got, const int32_t *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      printf("  [%zu] got %d want %d\n", i, got[i], want[i]);
      return false;
    }
  return true;
}

static void test_as_strided(void) {
  float a[6] = {0, 1, 2, 3, 4, 5}, o[4];
  ptera_value *out = KT_T(F, o, 2, 2);
  /* torch.arange(6.).as_strided((2,2),(1,2),1) = [[1,3],[2,4]] */
  CHECK(KT_CALL("aten::as_strided_copy.out", KT_T(F, a, 6), KT_IL(2, 2), KT_IL(1, 2), kt_int(1), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1, 3, 2, 4}, 4, 0));
  CHECK(KT_CALL("aten::as_strided_copy.out", KT_T(F, a, 6), KT_IL(2, 2), KT_IL(1, 2), kt_none(), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){0, 2, 1, 3}, 4, 0));
  CHECK(KT_CALL("aten::as_strided_copy.out", KT_T(F, a, 6), KT_IL(2, 2), KT_IL(1, 2), kt_int(3), out, out) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("as_strided_copy"));
}

static void test_cat(void) {
  float a[4] = {1, 2, 3, 4}, b[2] = {5, 6}, o[6], e[1];
  ptera_value *out = KT_T(F, o, 2, 3);
  CHECK(KT_CALL("aten::cat.out", KT_TL(KT_T(F, a, 2, 2), KT_T(F, b, 2, 1)), kt_int(-1), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1, 2, 5, 3, 4, 6}, 6, 0));
  /* dim 0, with a legacy empty 1-D tensor skipped and an Int input promoted to out */
  int32_t c[2] = {7, 8};
  out = KT_T(F, o, 3, 2);
  CHECK(KT_CALL("aten::cat.out", KT_TL(KT_T(F, a, 2, 2), kt_tensor(F, e, 0, 1, (const int32_t[]){0}, NULL, 0), KT_T(I, c, 1, 2)),
                kt_int(0), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1, 2, 3, 4, 7, 8}, 6, 0));
  /* an empty [3, 0] tensor that does not match is skipped (ExecuTorch behaviour) */
  out = KT_T(F, o, 3, 2);
  CHECK(KT_CALL("aten::cat.out", KT_TL(kt_tensor(F, e, 0, 2, (const int32_t[]){3, 0}, NULL, 0), KT_T(F, a, 2, 2), KT_T(I, c, 1, 2)),
                kt_int(0), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1, 2, 3, 4, 7, 8}, 6, 0));
  CHECK(KT_CALL("aten::cat.out", KT_TL(KT_T(F, a, 2, 2), KT_T(F, b, 1, 2)), kt_int(1), out, out) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("'tensors'[1]"));
  int32_t io[6];
  ptera_value *iout = KT_T(I, io, 3, 2);
  CHECK(KT_CALL("aten::cat.out", KT_TL(KT_T(F, a, 2, 2), KT_T(I, c, 1, 2)), kt_int(0), iout, iout) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("aten::cat.out", kt_int(0), kt_int(0), iout, iout) == PTERA_INVALID_TYPE);
}

static void test_copy(void) {
  float self[4] = {0}, o[4];
  int64_t src[2] = {3, -4};
  ptera_value *out = KT_T(F, o, 2, 2);
  CHECK(KT_CALL("aten::copy.out", KT_T(F, self, 2, 2), KT_T(L, src, 2), kt_bool(false), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){3, -4, 3, -4}, 4, 0));
  ptera_value *s = KT_T(F, self, 2, 2);
  CHECK(KT_CALL("aten::copy_", s, KT_T(L, src, 2, 1), kt_bool(false), s) == PTERA_OK);
  CHECK(kt_farr(self, (float[]){3, 3, -4, -4}, 4, 0));
  CHECK(KT_CALL("aten::copy_", s, KT_T(L, src, 2, 1, 1), kt_bool(false), s) == PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("aten::copy.out", KT_T(F, self, 2, 2), KT_T(L, src, 2), kt_bool(false), KT_T(L, src, 2), out) ==
        PTERA_INVALID_ARGUMENT);
}

static void test_diagonal(void) {
  /* x = torch.arange(12.).reshape(3,4) */
  float a[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, o[3];
  ptera_value *out = KT_DYN(F, o, 3);
  CHECK(KT_CALL("aten::diagonal_copy.out", KT_T(F, a, 3, 4), kt_int(0), kt_int(0), kt_int(1), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){0, 5, 10}, 3, 0));
  CHECK(KT_CALL("aten::diagonal_copy.out", KT_T(F, a, 3, 4), kt_int(1), kt_int(0), kt_int(1), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1, 6, 11}, 3, 0));
  CHECK(KT_CALL("aten::diagonal_copy.out", KT_T(F, a, 3, 4), kt_int(-1), kt_int(0), kt_int(1), out, out) == PTERA_OK); /* torch: [4, 9] */
  CHECK(out->u.tensor->sizes[0] == 2 && kt_farr(o, (float[]){4, 9}, 2, 0));
  CHECK(KT_CALL("aten::diagonal_copy.out", KT_T(F, a, 3, 4), kt_int(5), kt_int(0), kt_int(1), out, out) == PTERA_OK);
  CHECK(out->u.tensor->sizes[0] == 0);
  CHECK(KT_CALL("aten::diagonal_copy.out", KT_T(F, a, 3, 4), kt_int(0), kt_int(1), kt_int(-1), out, out) ==
        PTERA_INVALID_ARGUMENT);
}

static void test_flip_narrow_select_slice(void) {
  int32_t a[6] = {0, 1, 2, 3, 4, 5}, o[6];
  ptera_value *out = KT_T(I, o, 2, 3);
  CHECK(KT_CALL("aten::flip.out", KT_T(I, a, 2, 3), KT_IL(-1), out, out) == PTERA_OK);
  CHECK(iarr(o, (int32_t[]){2, 1, 0, 5, 4, 3}, 6));
  CHECK(KT_CALL("aten::flip.out", KT_T(I, a, 2, 3), KT_IL(0, 1), out, out) == PTERA_OK);
  CHECK(iarr(o, (int32_t[]){5, 4, 3, 2, 1, 0}, 6));
  CHECK(KT_CALL("aten::flip.out", KT_T(I, a, 2, 3), KT_IL(0, -2), out, out) == PTERA_INVALID_ARGUMENT);
  out = KT_DYN(I, o, 2, 3);
  CHECK(KT_CALL("aten::narrow_copy.out", KT_T(I, a, 2, 3), kt_int(1), kt_int(-2), kt_int(2), out, out) == PTERA_OK);
  CHECK(out->u.tensor->sizes[1] == 2 && iarr(o, (int32_t[]){1, 2, 4, 5}, 4));
  CHECK(KT_CALL("aten::narrow_copy.out", KT_T(I, a, 2, 3), kt_int(1), kt_int(2), kt_int(2), out, out) ==
        PTERA_INVALID_ARGUMENT);
  int32_t so[3];
  ptera_value *sout = KT_T(I, so, 3);
  CHECK(KT_CALL("aten::select_copy.int_out", KT_T(I, a, 2, 3), kt_int(0), kt_int(-1), sout, sout) == PTERA_OK);
  CHECK(iarr(so, (int32_t[]){3, 4, 5}, 3));
  CHECK(KT_CALL("aten::select_copy.int_out", KT_T(I, a, 2, 3), kt_int(0), kt_int(2), sout, sout) ==
        PTERA_INVALID_ARGUMENT);
  /* x[:, -3::2] of arange(6).reshape(2,3) = [[0,2],[3,5]] */
  out = KT_DYN(I, o, 2, 3);
  CHECK(KT_CALL("aten::slice_copy.Tensor_out", KT_T(I, a, 2, 3), kt_int(1), kt_int(-3), kt_none(), kt_int(2), out, out) ==
        PTERA_OK);
  CHECK(out->u.tensor->sizes[1] == 2 && iarr(o, (int32_t[]){0, 2, 3, 5}, 4));
  CHECK(KT_CALL("aten::slice_copy.Tensor_out", KT_T(I, a, 2, 3), kt_int(0), kt_int(5), kt_int(100), kt_int(1), out, out) ==
        PTERA_OK);
  CHECK(out->u.tensor->sizes[0] == 0 && out->u.tensor->numel == 0);
  CHECK(KT_CALL("aten::slice_copy.Tensor_out", KT_T(I, a, 2, 3), kt_int(0), kt_none(), kt_none(), kt_int(0), out, out) ==
        PTERA_INVALID_ARGUMENT);
}

static void test_transpose(void) {
  float a[6] = {0, 1, 2, 3, 4, 5}, o[6];
  ptera_value *out = KT_T(F, o, 3, 2);
  CHECK(KT_CALL("aten::t_copy.out", KT_T(F, a, 2, 3), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){0, 3, 1, 4, 2, 5}, 6, 0));
  CHECK(KT_CALL("aten::t_copy.out", KT_T(F, a, 1, 2, 3), out, out) == PTERA_INVALID_ARGUMENT);
  out = KT_T(F, o, 3, 2, 1);
  CHECK(KT_CALL("aten::transpose_copy.int_out", KT_T(F, a, 1, 2, 3), kt_int(0), kt_int(-1), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){0, 3, 1, 4, 2, 5}, 6, 0));
  CHECK(KT_CALL("aten::transpose_copy.int_out", KT_T(F, a, 2, 3), kt_int(0), kt_int(2), out, out) ==
        PTERA_INVALID_ARGUMENT);
  out = KT_T(F, o, 2, 3);
  CHECK(KT_CALL("aten::squeeze_copy.dim_out", KT_T(F, a, 2, 1, 3), kt_int(1), out, out) == PTERA_OK);
  CHECK(kt_farr(o, a, 6, 0));
  CHECK(KT_CALL("aten::squeeze_copy.dim_out", KT_T(F, a, 2, 1, 3), kt_int(0), out, out) == PTERA_INVALID_ARGUMENT);
}

/* expected values from torch 1.13 (pasted) */
static void test_repeat_roll_tril(void) {
  int64_t a[6] = {0, 1, 2, 3, 4, 5}, o[24];
  ptera_value *out = KT_T(L, o, 2, 2, 6);
  CHECK(KT_CALL("aten::repeat.out", KT_T(L, a, 2, 3), KT_IL(2, 1, 2), out, out) == PTERA_OK);
  static const int64_t rep[24] = {0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5};
  CHECK(memcmp(o, rep, sizeof rep) == 0);
  CHECK(KT_CALL("aten::repeat.out", KT_T(L, a, 2, 3), KT_IL(2), out, out) == PTERA_INVALID_ARGUMENT);
  int64_t r[3] = {1, 0, 2}, ro[3];
  ptera_value *rout = KT_DYN(L, ro, 3);
  CHECK(KT_CALL("aten::repeat_interleave.Tensor_out", KT_T(L, r, 3), kt_none(), rout, rout) == PTERA_OK);
  CHECK(ro[0] == 0 && ro[1] == 2 && ro[2] == 2);
  CHECK(KT_CALL("aten::repeat_interleave.Tensor_out", KT_T(L, r, 3), kt_int(4), rout, rout) == PTERA_INVALID_ARGUMENT);
  out = KT_T(L, o, 2, 3);
  CHECK(KT_CALL("aten::roll.out", KT_T(L, a, 2, 3), KT_IL(1), KT_IL0(), out, out) == PTERA_OK);
  CHECK(memcmp(o, (int64_t[]){5, 0, 1, 2, 3, 4}, 48) == 0);
  CHECK(KT_CALL("aten::roll.out", KT_T(L, a, 2, 3), KT_IL(1, -1), KT_IL(0, 1), out, out) == PTERA_OK);
  CHECK(memcmp(o, (int64_t[]){4, 5, 3, 1, 2, 0}, 48) == 0);
  CHECK(KT_CALL("aten::roll.out", KT_T(L, a, 2, 3), KT_IL(-1), KT_IL(-1), out, out) == PTERA_OK);
  CHECK(memcmp(o, (int64_t[]){1, 2, 0, 4, 5, 3}, 48) == 0);
  CHECK(KT_CALL("aten::roll.out", KT_T(L, a, 2, 3), KT_IL(1, 2), KT_IL0(), out, out) == PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("aten::tril.out", KT_T(L, a, 2, 3), kt_int(0), out, out) == PTERA_OK);
  CHECK(memcmp(o, (int64_t[]){0, 0, 0, 3, 4, 0}, 48) == 0);
  CHECK(KT_CALL("aten::tril.out", KT_T(L, a, 2, 3), kt_int(-1), out, out) == PTERA_OK);
  CHECK(memcmp(o, (int64_t[]){0, 0, 0, 3, 0, 0}, 48) == 0);
  CHECK(KT_CALL("aten::tril.out", KT_T(L, a, 6), kt_int(0), out, out) == PTERA_INVALID_ARGUMENT);
}

static void test_stack_split(void) {
  float a[2] = {1, 2}, b[2] = {3, 4}, o[4];
  ptera_value *out = KT_T(F, o, 2, 2);
  CHECK(KT_CALL("aten::stack.out", KT_TL(KT_T(F, a, 2), KT_T(F, b, 2)), kt_int(-1), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1, 3, 2, 4}, 4, 0));
  CHECK(KT_CALL("aten::stack.out", KT_TL(KT_T(F, a, 2), KT_T(F, b, 2)), kt_int(0), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1, 2, 3, 4}, 4, 0));
  CHECK(KT_CALL("aten::stack.out", KT_TL(KT_T(F, a, 2), KT_T(F, b, 1, 2)), kt_int(0), out, out) == PTERA_INVALID_ARGUMENT);
  float x[5] = {0, 1, 2, 3, 4}, p[2], q[2], r[1];
  ptera_value *po = KT_T(F, p, 2), *qo = KT_T(F, q, 2), *ro = KT_T(F, r, 1);
  ptera_value *outs = KT_TL(po, qo, ro);
  CHECK(KT_CALL("aten::split_copy.Tensor_out", KT_T(F, x, 5), kt_int(2), kt_int(0), outs, kt_none()) == PTERA_OK);
  CHECK(p[0] == 0 && p[1] == 1 && q[0] == 2 && q[1] == 3 && r[0] == 4);
  CHECK(KT_CALL("aten::split_copy.Tensor_out", KT_T(F, x, 5), kt_int(3), kt_int(0), outs, kt_none()) == PTERA_INVALID_ARGUMENT);
  float s1[1], s4[4];
  ptera_value *o1 = KT_T(F, s1, 1), *o4 = KT_T(F, s4, 4);
  CHECK(KT_CALL("aten::split_with_sizes_copy.out", KT_T(F, x, 5), KT_IL(1, 4), kt_int(-1), KT_TL(o1, o4), kt_none()) == PTERA_OK);
  CHECK(s1[0] == 0 && kt_farr(s4, (float[]){1, 2, 3, 4}, 4, 0));
  CHECK(KT_CALL("aten::split_with_sizes_copy.out", KT_T(F, x, 5), KT_IL(1, 3), kt_int(0), KT_TL(o1, o4), kt_none()) ==
        PTERA_INVALID_ARGUMENT);
  float m[6] = {0, 1, 2, 3, 4, 5}, u0[2], u1[2], u2[2];
  ptera_value *uo = KT_TL(KT_T(F, u0, 2), KT_T(F, u1, 2), KT_T(F, u2, 2));
  CHECK(KT_CALL("aten::unbind_copy.int_out", KT_T(F, m, 2, 3), kt_int(1), uo, kt_none()) == PTERA_OK);
  CHECK(u0[0] == 0 && u0[1] == 3 && u1[0] == 1 && u2[1] == 5);
  CHECK(KT_CALL("aten::unbind_copy.int_out", KT_T(F, m, 2, 3), kt_int(0), uo, kt_none()) == PTERA_INVALID_ARGUMENT);
}

static void test_unfold_view_as_real(void) {
  float a[7] = {0, 1, 2, 3, 4, 5, 6}, o[9];
  ptera_value *out = KT_T(F, o, 3, 3);
  CHECK(KT_CALL("aten::unfold_copy.out", KT_T(F, a, 7), kt_int(0), kt_int(3), kt_int(2), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){0, 1, 2, 2, 3, 4, 4, 5, 6}, 9, 0));
  CHECK(KT_CALL("aten::unfold_copy.out", KT_T(F, a, 7), kt_int(0), kt_int(8), kt_int(2), out, out) == PTERA_INVALID_ARGUMENT);
  float c[4] = {1, 2, 3, -4}, r[4];
  ptera_value *ro = KT_T(F, r, 2, 2);
  CHECK(KT_CALL("aten::view_as_real_copy.out", kt_tensor(PTERA_DTYPE_COMPLEX_FLOAT, c, sizeof c, 1, (const int32_t[]){2}, NULL, 0),
                ro, ro) == PTERA_OK);
  CHECK(kt_farr(r, (float[]){1, 2, 3, -4}, 4, 0));
  CHECK(KT_CALL("aten::view_as_real_copy.out", KT_T(F, c, 4), ro, ro) == PTERA_INVALID_ARGUMENT);
}

static void test_creation(void) {
  float o[6];
  ptera_value *out = KT_DYN(F, o, 1, 1); /* dynamic bound: same rank, numel within capacity */
  CHECK(KT_CALL("aten::zeros.out", KT_IL(2, 3), out, out) == PTERA_OK);
  CHECK(out->u.tensor->dim == 2 && o[0] == 0 && o[5] == 0);
  CHECK(KT_CALL("aten::ones.out", KT_IL(2, 3), out, out) == PTERA_OK);
  CHECK(o[0] == 1 && o[5] == 1);
  CHECK(KT_CALL("aten::full.out", KT_IL(3, 2), kt_dbl(-1.5), out, out) == PTERA_OK);
  CHECK(o[0] == -1.5f && o[5] == -1.5f && out->u.tensor->sizes[0] == 3);
  CHECK(KT_CALL("aten::empty.out", KT_IL(1, 6), kt_none(), out, out) == PTERA_OK);
  CHECK(out->u.tensor->sizes[1] == 6);
  CHECK(KT_CALL("aten::zeros.out", KT_IL(2, -3), out, out) == PTERA_INVALID_ARGUMENT);
  int32_t io[2];
  ptera_value *iout = KT_T(I, io, 2);
  CHECK(KT_CALL("aten::full.out", KT_IL(2), kt_dbl(1.5), iout, iout) == PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("aten::full.out", KT_IL(2), kt_int(7), iout, iout) == PTERA_OK);
  CHECK(io[0] == 7 && io[1] == 7);
  CHECK(KT_CALL("aten::fill.Scalar_out", KT_T(I, io, 2), kt_int(-2), iout, iout) == PTERA_OK);
  CHECK(io[0] == -2 && io[1] == -2);
  double v[1] = {3.75};
  CHECK(KT_CALL("aten::fill.Tensor_out", KT_T(I, io, 2), KT_SCALAR(PTERA_DTYPE_DOUBLE, v), iout, iout) == PTERA_OK);
  CHECK(io[0] == 3 && io[1] == 3);
  CHECK(KT_CALL("aten::fill.Tensor_out", KT_T(I, io, 2), KT_T(PTERA_DTYPE_DOUBLE, v, 1), iout, iout) ==
        PTERA_INVALID_ARGUMENT);
  /* arange: torch.arange(1, 2.5, 0.5) = [1, 1.5, 2]; torch.arange(5, 0, -2) = [5, 3, 1] */
  out = KT_DYN(F, o, 6);
  CHECK(KT_CALL("aten::arange.start_out", kt_int(1), kt_dbl(2.5), kt_dbl(0.5), out, out) == PTERA_OK);
  CHECK(out->u.tensor->numel == 3 && kt_farr(o, (float[]){1, 1.5f, 2}, 3, 0));
  int64_t lo[6];
  ptera_value *lout = KT_DYN(L, lo, 6);
  CHECK(KT_CALL("aten::arange.start_out", kt_int(5), kt_int(0), kt_int(-2), lout, lout) == PTERA_OK);
  CHECK(lout->u.tensor->numel == 3 && lo[0] == 5 && lo[1] == 3 && lo[2] == 1);
  CHECK(KT_CALL("aten::arange.out", kt_int(4), lout, lout) == PTERA_OK);
  CHECK(lout->u.tensor->numel == 4 && lo[3] == 3);
  CHECK(KT_CALL("aten::arange.start_out", kt_int(0), kt_int(3), kt_int(-1), lout, lout) == PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("aten::arange.out", kt_int(7), lout, lout) == PTERA_INVALID_ARGUMENT);
}

static void test_copies_k3(void) {
  int32_t a[4] = {1, -2, 3, 4};
  float o[4];
  ptera_value *out = KT_T(F, o, 2, 2);
  CHECK(KT_CALL("aten::_to_copy.out", KT_T(I, a, 2, 2), kt_bool(false), kt_none(), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1, -2, 3, 4}, 4, 0));
  CHECK(KT_CALL("aten::_to_copy.out", KT_T(I, a, 4), kt_bool(false), kt_none(), out, out) == PTERA_INVALID_ARGUMENT);
  int32_t io[4];
  ptera_value *iout = KT_T(I, io, 2, 2);
  CHECK(KT_CALL("aten::detach_copy.out", KT_T(I, a, 2, 2), iout, iout) == PTERA_OK);
  CHECK(iarr(io, a, 4));
  CHECK(KT_CALL("aten::lift_fresh_copy.out", KT_T(I, a, 2, 2), iout, iout) == PTERA_OK);
  CHECK(iarr(io, a, 4));
  CHECK(KT_CALL("aten::detach_copy.out", KT_T(I, a, 2, 2), out, out) == PTERA_INVALID_ARGUMENT);
}

static void test_random(void) {
  static float r[4096];
  ptera_value *out = KT_T(F, r, 4096);
  CHECK(KT_CALL("aten::rand.out", KT_IL(4096), out, out) == PTERA_OK);
  double sum = 0, sq = 0;
  bool in01 = true;
  for (int i = 0; i < 4096; i++) {
    in01 = in01 && r[i] >= 0 && r[i] < 1;
    sum += r[i];
  }
  CHECK(in01 && fabs(sum / 4096 - 0.5) < 0.03);
  CHECK(KT_CALL("aten::randn.out", KT_IL(4096), out, out) == PTERA_OK);
  sum = 0;
  for (int i = 0; i < 4096; i++) {
    sum += r[i];
    sq += (double)r[i] * r[i];
  }
  CHECK(fabs(sum / 4096) < 0.06 && fabs(sq / 4096 - 1.0) < 0.1);
  int64_t lo[2];
  CHECK(KT_CALL("aten::rand.out", KT_IL(2), KT_T(L, lo, 2), KT_T(L, lo, 2)) == PTERA_INVALID_ARGUMENT);
  /* dropout: kept elements are scaled by 1/(1-p), dropped are 0, mask matches */
  static float x[4096], y[4096];
  static uint8_t m[4096];
  for (int i = 0; i < 4096; i++) x[i] = 1.0f + (float)(i % 7);
  ptera_value *yo = KT_T(F, y, 4096), *mo = KT_T(PTERA_DTYPE_BOOL, m, 4096);
  CHECK(KT_CALL("aten::native_dropout.out", KT_T(F, x, 4096), kt_dbl(0.25), kt_bool(true), yo, mo, kt_none()) == PTERA_OK);
  int kept = 0;
  bool consistent = true;
  for (int i = 0; i < 4096; i++) {
    kept += m[i];
    consistent = consistent && (m[i] ? y[i] == x[i] * (float)(1.0 / 0.75) : y[i] == 0.0f);
  }
  CHECK(consistent && abs(kept - 3072) < 150);
  CHECK(KT_CALL("aten::native_dropout.out", KT_T(F, x, 4096), kt_dbl(0.25), kt_bool(false), yo, mo, kt_none()) == PTERA_OK);
  CHECK(y[5] == x[5] && m[5] == 1);
  CHECK(KT_CALL("aten::native_dropout.out", KT_T(F, x, 4096), kt_dbl(1.5), kt_none(), yo, mo, kt_none()) ==
        PTERA_INVALID_ARGUMENT);
}

/* expected values from torch 1.13 (F.avg_pool2d / F.adaptive_avg_pool2d on arange(1., 26.).reshape(1, 5, 5)) */
static void test_pooling(void) {
  float x[25], o[9];
  for (int i = 0; i < 25; i++) x[i] = (float)(i + 1);
  ptera_value *out = KT_T(F, o, 1, 3, 3);
  CHECK(KT_CALL("aten::avg_pool2d.out", KT_T(F, x, 1, 5, 5), KT_IL(3), KT_IL(2), KT_IL(1), kt_bool(false), kt_bool(true),
                kt_none(), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1.7777777910232544f, 3.6666667461395264f, 3.1111111640930176f, 7.666666507720947f, 13.0f,
                             9.666666984558105f, 8.44444465637207f, 13.666666984558105f, 9.777777671813965f}, 9, 1e-6));
  CHECK(KT_CALL("aten::avg_pool2d.out", KT_T(F, x, 1, 5, 5), KT_IL(3), KT_IL(2), KT_IL(1), kt_bool(false), kt_bool(false),
                kt_none(), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){4, 5.5f, 7, 11.5f, 13, 14.5f, 19, 20.5f, 22}, 9, 1e-6));
  CHECK(KT_CALL("aten::avg_pool2d.out", KT_T(F, x, 1, 5, 5), KT_IL(2, 2), KT_IL0(), KT_IL(0), kt_bool(true), kt_bool(true),
                kt_none(), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){4, 6, 7.5f, 14, 16, 17.5f, 21.5f, 23.5f, 25}, 9, 1e-6));
  CHECK(KT_CALL("aten::avg_pool2d.out", KT_T(F, x, 1, 5, 5), KT_IL(3), KT_IL(2), KT_IL(1), kt_bool(false), kt_bool(true),
                kt_int(2), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){8, 16.5f, 14, 34.5f, 58.5f, 43.5f, 38, 61.5f, 44}, 9, 1e-6));
  CHECK(KT_CALL("aten::avg_pool2d.out", KT_T(F, x, 1, 5, 5), KT_IL(3), KT_IL(2), KT_IL(2), kt_bool(false), kt_bool(true),
                kt_none(), out, out) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("padding"));
  ptera_value *aout = KT_T(F, o, 1, 3, 2);
  CHECK(KT_CALL("aten::_adaptive_avg_pool2d.out", KT_T(F, x, 1, 5, 5), KT_IL(3, 2), aout, aout) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){4.5f, 6.5f, 12, 14, 19.5f, 21.5f}, 6, 1e-6));
  CHECK(KT_CALL("aten::_adaptive_avg_pool2d.out", KT_T(F, x, 25), KT_IL(3, 2), aout, aout) == PTERA_INVALID_ARGUMENT);
}

/* expected values from torch 1.13 (F.pad / torch.constant_pad_nd on arange(6.).reshape(1, 2, 3)) */
static void test_padding(void) {
  float x[6] = {0, 1, 2, 3, 4, 5}, o[16];
  ptera_value *out = KT_T(F, o, 1, 2, 6);
  CHECK(KT_CALL("aten::reflection_pad1d.out", KT_T(F, x, 1, 2, 3), KT_IL(2, 1), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){2, 1, 0, 1, 2, 1, 5, 4, 3, 4, 5, 4}, 12, 0));
  CHECK(KT_CALL("aten::reflection_pad1d.out", KT_T(F, x, 1, 2, 3), KT_IL(3, 0), out, out) == PTERA_INVALID_ARGUMENT);
  out = KT_T(F, o, 1, 3, 5);
  CHECK(KT_CALL("aten::replication_pad2d.out", KT_T(F, x, 1, 2, 3), KT_IL(1, 1, 1, 0), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){0, 0, 1, 2, 2, 0, 0, 1, 2, 2, 3, 3, 4, 5, 5}, 15, 0));
  CHECK(KT_CALL("aten::replication_pad2d.out", KT_T(F, x, 6), KT_IL(1, 1, 1, 0), out, out) == PTERA_INVALID_ARGUMENT);
  out = KT_T(F, o, 1, 1, 4, 4);
  CHECK(KT_CALL("aten::reflection_pad3d.out", KT_T(F, x, 1, 1, 2, 3), KT_IL(1, 0, 1, 1, 0, 0), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){4, 3, 4, 5, 1, 0, 1, 2, 4, 3, 4, 5, 1, 0, 1, 2}, 16, 0));
  out = KT_T(F, o, 1, 2, 3, 2);
  CHECK(KT_CALL("aten::reflection_pad2d.out", KT_T(F, x, 1, 2, 3), KT_IL(0, 0, 1, 0), KT_T(F, o, 1, 3, 3), KT_T(F, o, 1, 3, 3)) ==
        PTERA_OK);
  CHECK(kt_farr(o, (float[]){3, 4, 5, 0, 1, 2, 3, 4, 5}, 9, 0));
  CHECK(KT_CALL("aten::replication_pad1d.out", KT_T(F, x, 1, 2, 3), KT_IL(0, 2), KT_T(F, o, 1, 2, 5), KT_T(F, o, 1, 2, 5)) ==
        PTERA_OK);
  CHECK(kt_farr(o, (float[]){0, 1, 2, 2, 2, 3, 4, 5, 5, 5}, 10, 0));
  CHECK(KT_CALL("aten::replication_pad3d.out", KT_T(F, x, 1, 1, 2, 3), KT_IL(0, 0, 0, 0, 1, 0), KT_T(F, o, 1, 2, 2, 3),
                KT_T(F, o, 1, 2, 2, 3)) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}, 12, 0));
  out = KT_T(F, o, 1, 3, 3);
  CHECK(KT_CALL("aten::constant_pad_nd.out", KT_T(F, x, 1, 2, 3), KT_IL(1, -1, 0, 1), kt_dbl(7), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){7, 0, 1, 7, 3, 4, 7, 7, 7}, 9, 0));
  CHECK(KT_CALL("aten::constant_pad_nd.out", KT_T(F, x, 1, 2, 3), KT_IL(1), kt_dbl(7), out, out) == PTERA_INVALID_ARGUMENT);
}

static void test_bmm_linear(void) {
  /* hand-computed: batch 0 = [[1,2],[3,4]] @ [[1,0],[0,1]], batch 1 = [[1,1]] rows ... */
  float a[8] = {1, 2, 3, 4, 1, 1, 2, 2}, b[8] = {1, 0, 0, 1, 1, 2, 3, 4}, o[8];
  ptera_value *out = KT_T(F, o, 2, 2, 2);
  CHECK(KT_CALL("aten::bmm.out", KT_T(F, a, 2, 2, 2), KT_T(F, b, 2, 2, 2), out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){1, 2, 3, 4, 4, 6, 8, 12}, 8, 0));
  CHECK(KT_CALL("aten::bmm.out", KT_T(F, a, 2, 2, 2), KT_T(F, b, 1, 2, 4), out, out) == PTERA_INVALID_ARGUMENT);
  /* linear: x [2,1,3] . W [2,3]^T + bias */
  float x[6] = {1, 2, 3, 4, 5, 6}, w[6] = {1, 0, -1, 0.5f, 0.5f, 0.5f}, bias[2] = {10, 20}, y[4];
  ptera_value *yo = KT_T(F, y, 2, 1, 2);
  CHECK(KT_CALL("aten::linear.out", KT_T(F, x, 2, 1, 3), KT_T(F, w, 2, 3), KT_T(F, bias, 2), yo, yo) == PTERA_OK);
  CHECK(kt_farr(y, (float[]){8, 23, 8, 27.5f}, 4, 0));
  CHECK(KT_CALL("aten::linear.out", KT_T(F, x, 2, 1, 3), KT_T(F, w, 2, 3), kt_none(), yo, yo) == PTERA_OK);
  CHECK(kt_farr(y, (float[]){-2, 3, -2, 7.5f}, 4, 0));
  CHECK(KT_CALL("aten::linear.out", KT_T(F, x, 3, 2), KT_T(F, w, 2, 3), kt_none(), yo, yo) == PTERA_INVALID_ARGUMENT);
}

/* expected values from torch 1.13 (torch.ops.aten._cdist_forward / _pdist_forward) */
static void test_dist(void) {
  float a[6] = {0, 0, 3, 4, 1, -1}, b[4] = {1, 1, -2, 0.5f}, o[6];
  ptera_value *out = KT_T(F, o, 3, 2);
  static const struct { double p; float want[6]; } cases[] = {
      {2.0, {1.4142135381698608f, 2.0615527629852295f, 3.605551242828369f, 6.103277683258057f, 2.0f, 3.3541018962860107f}},
      {1.0, {2, 2.5f, 5, 8.5f, 2, 4.5f}},
      {0.0, {2, 2, 2, 2, 1, 2}},
      {INFINITY, {1, 2, 3, 5, 2, 3}},
      {3.0, {1.2599210739135742f, 2.0103628635406494f, 3.271066427230835f, 5.5164794921875f, 2.0f, 3.1201257705688477f}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    CHECK(KT_CALL("aten::_cdist_forward.out", KT_T(F, a, 3, 2), KT_T(F, b, 2, 2), kt_dbl(cases[i].p), kt_none(), out, out) ==
          PTERA_OK);
    CHECK(kt_farr(o, cases[i].want, 6, 1e-6));
  }
  /* broadcast batch: x1 [1,3,2] with x2 [2,2,2] (x2's second batch = first) */
  float b2[8] = {1, 1, -2, 0.5f, 1, 1, -2, 0.5f}, o2[12];
  ptera_value *out2 = KT_T(F, o2, 2, 3, 2);
  CHECK(KT_CALL("aten::_cdist_forward.out", KT_T(F, a, 1, 3, 2), KT_T(F, b2, 2, 2, 2), kt_dbl(1.0), kt_int(0), out2, out2) ==
        PTERA_OK);
  CHECK(kt_farr(o2, (float[]){2, 2.5f, 5, 8.5f, 2, 4.5f}, 6, 0) && kt_farr(o2 + 6, (float[]){2, 2.5f, 5, 8.5f, 2, 4.5f}, 6, 0));
  CHECK(KT_CALL("aten::_cdist_forward.out", KT_T(F, a, 2, 3), KT_T(F, b, 2, 2), kt_dbl(2), kt_none(), out, out) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(KT_CALL("aten::_cdist_forward.out", KT_T(F, a, 3, 2), KT_T(F, b, 2, 2), kt_dbl(-1), kt_none(), out, out) ==
        PTERA_INVALID_ARGUMENT);
  float pd[3];
  ptera_value *po = KT_T(F, pd, 3);
  CHECK(KT_CALL("aten::_pdist_forward.out", KT_T(F, a, 3, 2), kt_dbl(2), po, po) == PTERA_OK);
  CHECK(kt_farr(pd, (float[]){5.0f, 1.4142135381698608f, 5.385164737701416f}, 3, 1e-6));
  CHECK(KT_CALL("aten::_pdist_forward.out", KT_T(F, a, 3, 2), kt_dbl(1.5), po, po) == PTERA_OK);
  CHECK(kt_farr(pd, (float[]){5.584249973297119f, 1.587401032447815f, 5.811210632324219f}, 3, 1e-6));
  CHECK(KT_CALL("aten::_pdist_forward.out", KT_T(F, a, 6), kt_dbl(2), po, po) == PTERA_INVALID_ARGUMENT);
}

int main(void) {
  test_as_strided();
  test_cat();
  test_copy();
  test_diagonal();
  test_flip_narrow_select_slice();
  test_transpose();
  test_repeat_roll_tril();
  test_stack_split();
  test_unfold_view_as_real();
  test_creation();
  test_copies_k3();
  test_random();
  test_pooling();
  test_padding();
  test_bmm_linear();
  test_dist();
  return check_summary("kernels_k3");
}
