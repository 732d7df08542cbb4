/* Util layer: promotion, casting, half/bf16, resize, broadcast, iteration order,
 * reduction plans, op table sanity. */
#include "kernel_test_util.h"
#include "portable/util/pk.h"

static void test_promotion(void) {
  CHECK(pk_promote_types(PTERA_DTYPE_INT, PTERA_DTYPE_FLOAT) == PTERA_DTYPE_FLOAT);
  CHECK(pk_promote_types(PTERA_DTYPE_BYTE, PTERA_DTYPE_CHAR) == PTERA_DTYPE_SHORT);
  CHECK(pk_promote_types(PTERA_DTYPE_BOOL, PTERA_DTYPE_CHAR) == PTERA_DTYPE_CHAR);
  CHECK(pk_promote_types(PTERA_DTYPE_HALF, PTERA_DTYPE_BFLOAT16) == PTERA_DTYPE_FLOAT);
  CHECK(pk_promote_types(PTERA_DTYPE_HALF, PTERA_DTYPE_DOUBLE) == PTERA_DTYPE_DOUBLE);
  CHECK(pk_promote_types(PTERA_DTYPE_LONG, PTERA_DTYPE_HALF) == PTERA_DTYPE_HALF);
  CHECK(pk_promote_types(PTERA_DTYPE_INT, PTERA_DTYPE_LONG) == PTERA_DTYPE_LONG);
  CHECK(pk_promote_types(PTERA_DTYPE_UINT16, PTERA_DTYPE_INT) == PTERA_DTYPE_INT);
  CHECK(pk_promote_types(PTERA_DTYPE_UINT64, PTERA_DTYPE_LONG) == -1);
  CHECK(pk_promote_types(PTERA_DTYPE_QINT8, PTERA_DTYPE_FLOAT) == -1);
  pk_scalar si = {PTERA_TAG_INT, 2, 0}, sd = {PTERA_TAG_DOUBLE, 0, 2.5}, sb = {PTERA_TAG_BOOL, 1, 0};
  CHECK(pk_promote_scalar(PTERA_DTYPE_INT, &sd) == PTERA_DTYPE_FLOAT);
  CHECK(pk_promote_scalar(PTERA_DTYPE_CHAR, &si) == PTERA_DTYPE_CHAR);
  CHECK(pk_promote_scalar(PTERA_DTYPE_BOOL, &si) == PTERA_DTYPE_LONG);
  CHECK(pk_promote_scalar(PTERA_DTYPE_BOOL, &sb) == PTERA_DTYPE_BOOL);
  CHECK(pk_promote_scalar(PTERA_DTYPE_HALF, &sd) == PTERA_DTYPE_HALF);
  CHECK(pk_can_cast(PTERA_DTYPE_INT, PTERA_DTYPE_FLOAT));
  CHECK(!pk_can_cast(PTERA_DTYPE_FLOAT, PTERA_DTYPE_LONG));
  CHECK(!pk_can_cast(PTERA_DTYPE_INT, PTERA_DTYPE_BOOL));
  CHECK(pk_can_cast(PTERA_DTYPE_BOOL, PTERA_DTYPE_LONG));
}

static void test_load_store(void) {
  uint8_t buf[8];
  pk_store_f64(buf, PTERA_DTYPE_HALF, 1.5);
  CHECK(*(uint16_t *)buf == 0x3e00);
  CHECK(pk_load_f64(buf, PTERA_DTYPE_HALF) == 1.5);
  pk_store_f32(buf, PTERA_DTYPE_HALF, 65504.0f);
  CHECK(*(uint16_t *)buf == 0x7bff);
  pk_store_f32(buf, PTERA_DTYPE_HALF, 70000.0f);
  CHECK(*(uint16_t *)buf == 0x7c00);
  pk_store_f32(buf, PTERA_DTYPE_HALF, 5.9604644775390625e-8f); /* smallest subnormal */
  CHECK(*(uint16_t *)buf == 0x0001);
  CHECK(pt_half_to_float(0x0001) == 5.9604644775390625e-8f);
  pk_store_f32(buf, PTERA_DTYPE_BFLOAT16, 1.0f + 1.0f / 256.0f); /* tie -> even */
  CHECK(*(uint16_t *)buf == 0x3f80);
  CHECK(pk_load_f32(buf, PTERA_DTYPE_BFLOAT16) == 1.0f);
  pk_store_f64(buf, PTERA_DTYPE_CHAR, -3.9);
  CHECK(*(int8_t *)buf == -3);
  pk_store_f64(buf, PTERA_DTYPE_LONG, 1e30);
  CHECK(*(int64_t *)buf == INT64_MAX);
  pk_store_f64(buf, PTERA_DTYPE_INT, NAN);
  CHECK(*(int32_t *)buf == 0);
  pk_store_i64(buf, PTERA_DTYPE_BOOL, 7);
  CHECK(buf[0] == 1);
  pk_store_i64(buf, PTERA_DTYPE_UINT16, 65537);
  CHECK(*(uint16_t *)buf == 1);
  CHECK(pk_wrap_to(300, PTERA_DTYPE_BYTE) == 44);
}

static void test_resize(void) {
  float d[6];
  ptera_tensor *s = KT_T(PTERA_DTYPE_FLOAT, d, 2, 3)->u.tensor;
  CHECK(ptera_tensor_resize(s, 2, (const int32_t[]){2, 3}) == PTERA_OK);
  CHECK(ptera_tensor_resize(s, 2, (const int32_t[]){3, 2}) == PTERA_NOT_SUPPORTED);
  ptera_tensor *dy = KT_DYN(PTERA_DTYPE_FLOAT, d, 2, 3)->u.tensor;
  CHECK(ptera_tensor_resize(dy, 2, (const int32_t[]){6, 1}) == PTERA_OK);
  CHECK(dy->numel == 6 && dy->strides[0] == 1 && dy->strides[1] == 1);
  CHECK(ptera_tensor_resize(dy, 2, (const int32_t[]){7, 1}) == PTERA_NOT_SUPPORTED);
  CHECK(ptera_tensor_resize(dy, 1, (const int32_t[]){6}) == PTERA_NOT_SUPPORTED);
  CHECK(ptera_tensor_resize(dy, 2, (const int32_t[]){0, 3}) == PTERA_OK);
  CHECK(dy->numel == 0 && dy->strides[0] == 3 && dy->strides[1] == 1);
  ptera_tensor *z = KT_SCALAR(PTERA_DTYPE_FLOAT, d)->u.tensor;
  CHECK(ptera_tensor_resize(z, 0, NULL) == PTERA_OK);
  /* size-0 stride rule */
  ptera_tensor *e = kt_tensor(PTERA_DTYPE_FLOAT, d, 0, 3, (const int32_t[]){2, 0, 3}, NULL, 0)->u.tensor;
  CHECK(e->strides[0] == 3 && e->strides[1] == 3 && e->strides[2] == 1);
  /* channels last */
  ptera_tensor *cl = kt_tensor(PTERA_DTYPE_FLOAT, d, sizeof d, 4, (const int32_t[]){1, 3, 2, 1},
                               (const uint8_t[]){0, 2, 3, 1}, 0)->u.tensor;
  CHECK(cl->strides[1] == 1 && cl->strides[3] == 3 && cl->strides[2] == 3 && cl->strides[0] == 6);
  CHECK(!ptera_tensor_is_contiguous(cl));
  CHECK(ptera_tensor_nbytes(cl) == 24);
  CHECK(strcmp(ptera_dtype_name(PTERA_DTYPE_BFLOAT16), "BFloat16") == 0);
  CHECK(ptera_dtype_size(PTERA_DTYPE_UINT64) == 8 && ptera_dtype_size(99) == 0);
  CHECK(strcmp(ptera_tag_name(PTERA_TAG_LIST_OPTIONAL_TENSOR), "ListOptionalTensor") == 0);
}

static void test_broadcast_iter(void) {
  float a[6], b[3];
  const ptera_tensor *ts[2] = {KT_T(PTERA_DTYPE_FLOAT, a, 2, 1, 3)->u.tensor,
                               KT_T(PTERA_DTYPE_FLOAT, b, 4, 1)->u.tensor};
  const char *names[2] = {"self", "other"};
  int32_t sizes[PTERA_MAX_DIM];
  size_t dim;
  ptera_kernel_ctx ctx;
  pr_kernel_ctx_init(&ctx, "t", &kt_err, NULL, 0);
  CHECK(pk_broadcast_shape(&ctx, "t", ts, names, 2, sizes, &dim) == PTERA_OK);
  CHECK(dim == 3 && sizes[0] == 2 && sizes[1] == 4 && sizes[2] == 3);
  const ptera_tensor *bad[2] = {ts[0], KT_T(PTERA_DTYPE_FLOAT, b, 2)->u.tensor};
  CHECK(pk_broadcast_shape(&ctx, "t", bad, names, 2, sizes, &dim) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("not broadcastable"));

  /* iterate a channels-last out: offsets must visit memory sequentially */
  float o[6];
  ptera_tensor *cl = kt_tensor(PTERA_DTYPE_FLOAT, o, sizeof o, 4, (const int32_t[]){1, 3, 2, 1},
                               (const uint8_t[]){0, 2, 3, 1}, 0)->u.tensor;
  pk_iter it;
  pk_iter_init(&it, cl, NULL, 0);
  bool seq = true;
  ptrdiff_t expect = 0;
  PK_ITER_FOR(it) {
    seq = seq && it.off[0] == expect;
    expect += 4;
  }
  CHECK(seq && expect == 24);

  /* reduction plan: dims [-1, 0] of [2,3,4], keepdim */
  ptera_tensor *r = kt_tensor(PTERA_DTYPE_FLOAT, NULL, 0, 3, (const int32_t[]){2, 3, 4}, NULL, 0)->u.tensor;
  pk_reduce_plan p;
  CHECK(pk_reduce_plan_init(&ctx, "t", r, (const int64_t[]){-1, 0}, 2, true, true, &p) == PTERA_OK);
  CHECK(p.out_dim == 3 && p.out_sizes[0] == 1 && p.out_sizes[1] == 3 && p.out_sizes[2] == 1);
  CHECK(p.reduced_numel == 8);
  CHECK(pk_reduce_plan_init(&ctx, "t", r, (const int64_t[]){1, -2}, 2, true, false, &p) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(pk_reduce_plan_init(&ctx, "t", r, (const int64_t[]){3}, 1, true, false, &p) ==
        PTERA_INVALID_ARGUMENT);
  CHECK(pk_reduce_plan_init(&ctx, "t", r, NULL, 0, true, false, &p) == PTERA_OK);
  CHECK(p.out_dim == 0 && p.reduced_numel == 24);
}

static void test_table(void) {
  CHECK(pk_builtin_kernel_count >= 60);
  bool dup = false;
  for (size_t i = 0; i < pk_builtin_kernel_count; i++)
    for (size_t j = i + 1; j < pk_builtin_kernel_count; j++)
      if (strcmp(pk_builtin_kernels[i].name, pk_builtin_kernels[j].name) == 0) dup = true;
  CHECK(!dup);
  CHECK(kt_find("aten::add.out") != NULL);
  CHECK(kt_find("executorch_prim::et_view.default") != NULL);
  CHECK(kt_find("aten::add.Tensor") == NULL);
}

int main(void) {
  test_promotion();
  test_load_store();
  test_resize();
  test_broadcast_iter();
  test_table();
  return check_summary("kernels_util");
}
