/* quantized_decomposed::add.out(Tensor a, float a_scale, int a_zero_point,
 * int a_quant_min, int a_quant_max, Tensor b, float b_scale, int b_zero_point,
 * int b_quant_min, int b_quant_max, float out_scale, int out_zero_point,
 * int out_quant_min, int out_quant_max, *, Tensor(a!) out): dequantizes a and b
 * ((q - zp) * (float)scale), adds in float and quantizes the sum like
 * quantize_per_tensor. a and b (same integer dtype as out) broadcast together. */
#include "builtin.h"
#include "quantized/quant_util.h"

static float deq(const void *p, int dt, int32_t zp, float s) {
  int32_t q = (int32_t)pk_load_i64(p, dt);
  return (float)(int32_t)((uint32_t)q - (uint32_t)zp) * s;
}

ptera_status pk_quantized_add_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "quantized_decomposed::add.out";
  ptera_tensor *a, *b, *out;
  double as, bs, os;
  int64_t az, amin, amax, bz, bmin, bmax, oz, omin, omax;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 16));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "a", &a));
  PK_TRY(pk_get_double(ctx, op, args, 1, "a_scale", &as));
  PK_TRY(pk_get_int(ctx, op, args, 2, "a_zero_point", &az));
  PK_TRY(pk_get_int(ctx, op, args, 3, "a_quant_min", &amin));
  PK_TRY(pk_get_int(ctx, op, args, 4, "a_quant_max", &amax));
  PK_TRY(pk_get_tensor(ctx, op, args, 5, "b", &b));
  PK_TRY(pk_get_double(ctx, op, args, 6, "b_scale", &bs));
  PK_TRY(pk_get_int(ctx, op, args, 7, "b_zero_point", &bz));
  PK_TRY(pk_get_int(ctx, op, args, 8, "b_quant_min", &bmin));
  PK_TRY(pk_get_int(ctx, op, args, 9, "b_quant_max", &bmax));
  PK_TRY(pk_get_double(ctx, op, args, 10, "out_scale", &os));
  PK_TRY(pk_get_int(ctx, op, args, 11, "out_zero_point", &oz));
  PK_TRY(pk_get_int(ctx, op, args, 12, "out_quant_min", &omin));
  PK_TRY(pk_get_int(ctx, op, args, 13, "out_quant_max", &omax));
  PK_TRY(pk_get_tensor(ctx, op, args, 14, "out", &out));
  PK_TRY(pk_check_quant_range(ctx, op, a->dtype, amin, amax));
  PK_TRY(pk_check_quant_range(ctx, op, b->dtype, bmin, bmax));
  PK_TRY(pk_check_quant_range(ctx, op, out->dtype, omin, omax));
  PK_TRY(pk_check_same_dtype(ctx, op, "a", a, "b", b));
  PK_TRY(pk_check_same_dtype(ctx, op, "a", a, "out", out));
  const ptera_tensor *ins[2] = {a, b};
  static const char *const names[2] = {"a", "b"};
  int32_t sizes[PTERA_MAX_DIM];
  size_t dim;
  PK_TRY(pk_broadcast_shape(ctx, op, ins, names, 2, sizes, &dim));
  PK_TRY(pk_resize(ctx, op, "out", out, dim, sizes));
  float asf = (float)as, bsf = (float)bs, inv = 1.0f / (float)os, ozf = (float)(int32_t)oz;
  pk_iter it;
  pk_iter_init(&it, out, ins, 2);
  PK_ITER_FOR(it) {
    float v = deq(PK_PTR(a->data, it, 1), a->dtype, (int32_t)az, asf) +
              deq(PK_PTR(b->data, it, 2), b->dtype, (int32_t)bz, bsf);
    float q = ozf + nearbyintf(v * inv);
    int64_t r;
    if (q != q || q <= (float)omin)
      r = omin;
    else if (q >= (float)omax)
      r = omax;
    else
      r = (int64_t)q;
    pk_store_i64(PK_PTR(out->data, it, 0), out->dtype, r);
  }
  return PTERA_OK;
}
