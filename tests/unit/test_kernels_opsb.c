/* Kernels added on branch opsb: antialiased bilinear upsample, convolution
 * backward, 2/4-bit embeddings, mixed_mm / mixed_linear, 3-d convolution.
 * Expected values were printed by torch 1.13 (python3) unless a comment says
 * they are hand computed. */
#include "kernel_test_util.h"

static void test_upsample_aa(void) {
  const char *op = "aten::_upsample_bilinear2d_aa.out";
  float x[16] = {-3.0f, -1.5f, 0.0f, 1.5f, 3.0f, 4.5f, 7.25f, 7.5f,
                 9.0f, 10.5f, 12.0f, 13.5f, 15.0f, 16.5f, 18.0f, 19.5f};
  float o[15];
  ptera_value *out = KT_DYN(PTERA_DTYPE_FLOAT, o, 1, 1, 3, 5);
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 1, 4, 4), KT_IL(2, 2), kt_bool(false), kt_none(), kt_none(),
                out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){2.433673620223999f, 4.943877696990967f, 11.811224937438965f, 14.219388008117676f},
                4, 1e-6));
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 1, 4, 4), KT_IL(3, 5), kt_bool(false), kt_none(), kt_none(),
                out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){-1.1999998092651367f, -0.14999978244304657f, 1.2375000715255737f, 2.512500047683716f,
                             3.299999952316284f, 6.0f, 7.050000190734863f, 8.5625f, 9.887499809265137f, 10.5f,
                             13.200000762939453f, 14.25f, 15.450000762939453f, 16.649999618530273f,
                             17.700000762939453f},
                15, 1e-5));
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 1, 4, 4), KT_IL(2, 3), kt_bool(true), kt_none(), kt_none(),
                out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){5.062500476837158f, 7.427083969116211f, 8.828125f, 13.562500953674316f,
                             15.666667938232422f, 17.25f},
                6, 1e-5));
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 1, 4, 4), KT_IL(2, 2), kt_bool(false), kt_dbl(0.4), kt_dbl(0.6),
                out, out) == PTERA_OK);
  CHECK(kt_farr(o, (float[]){3.642857313156128f, 6.284090995788574f, 12.842857360839844f, 15.246295928955078f}, 4,
                1e-5));
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 1, 4, 4), KT_IL(1, 1), kt_bool(false), kt_none(), kt_none(),
                out, out) == PTERA_OK);
  CHECK(kt_close(o[0], 8.35633659362793, 1e-5));
  /* double, 6x6 -> 2x2 (3 taps each way) */
  double y[36], od[4];
  for (int i = 0; i < 36; i++) y[i] = i;
  ptera_value *outd = KT_T(PTERA_DTYPE_DOUBLE, od, 1, 1, 2, 2);
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_DOUBLE, y, 1, 1, 6, 6), KT_IL(2, 2), kt_bool(false), kt_none(), kt_none(),
                outd, outd) == PTERA_OK);
  CHECK(kt_close(od[0], 8.75, 1e-6) && kt_close(od[1], 11.25, 1e-6) && kt_close(od[2], 23.75, 1e-6) &&
        kt_close(od[3], 26.25, 1e-6)); /* weights are float */
  /* uint8 accumulates with truncation at every step (ExecuTorch); torch on the
   * float image gives 19.5 35.1 50.7 81.9 97.5 113.1 144.3 159.9 175.5 */
  uint8_t u[16], ou[9];
  for (int i = 0; i < 16; i++) u[i] = (uint8_t)(i * 13);
  ptera_value *outu = KT_T(PTERA_DTYPE_BYTE, ou, 1, 1, 3, 3);
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_BYTE, u, 1, 1, 4, 4), KT_IL(3, 3), kt_bool(false), kt_none(), kt_none(),
                outu, outu) == PTERA_OK);
  const double wu[9] = {19.5, 35.1, 50.7, 81.9, 97.5, 113.1, 144.3, 159.9, 175.5};
  bool ok = true;
  for (int i = 0; i < 9; i++) ok = ok && fabs((double)ou[i] - wu[i]) <= 3.0;
  CHECK(ok);
  /* channels-last input gives the same values */
  float xl[8] = {1, 10, 2, 20, 3, 30, 4, 40}, ol[2];
  ptera_value *inl = kt_tensor(PTERA_DTYPE_FLOAT, xl, sizeof xl, 4, (const int32_t[]){1, 2, 2, 2},
                               (const uint8_t[]){0, 2, 3, 1}, PTERA_SHAPE_STATIC);
  ptera_value *outl = KT_T(PTERA_DTYPE_FLOAT, ol, 1, 2, 1, 1);
  CHECK(KT_CALL(op, inl, KT_IL(1, 1), kt_bool(false), kt_none(), kt_none(), outl, outl) == PTERA_OK);
  CHECK(kt_close(ol[0], 2.5, 1e-6) && kt_close(ol[1], 25, 1e-6)); /* hand computed: mean of 4 */
  /* errors */
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 4, 4), KT_IL(2, 2), kt_bool(false), kt_none(), kt_none(), out,
                out) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("'self'"));
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 1, 4, 4), KT_IL(2, 0), kt_bool(false), kt_none(), kt_none(),
                out, out) == PTERA_INVALID_ARGUMENT);
  CHECK(kt_msg_has("output_size"));
  CHECK(KT_CALL(op, KT_T(PTERA_DTYPE_FLOAT, x, 1, 1, 4, 4), KT_IL(2, 2), kt_bool(false), kt_none(), kt_none(),
                outd, outd) == PTERA_INVALID_ARGUMENT);
}

int main(void) {
  test_upsample_aa();
  return check_summary("kernels_opsb");
}
