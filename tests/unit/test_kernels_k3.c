/* Shape / layout ops, creation ops, pooling, padding and linear algebra added on
 * branch k3. Expected values are hand-computed or were computed with torch 1.13
 * while writing the test and pasted as literals (noted per case). */
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

int main(void) {
  test_as_strided();
  test_cat();
  test_copy();
  test_diagonal();
  test_flip_narrow_select_slice();
  test_transpose();
  return check_summary("kernels_k3");
}
