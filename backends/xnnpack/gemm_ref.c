/* The one matrix-product entry point FullyConnected uses. A plain loop until
 * kernels/cpu/gemm.h (pk_gemm_f32_run, helper `gemm`) lands on main; then
 * this body becomes a call to it with w packed at init. */
#include "xnnpack/xnn.h"

void px_gemm_f32(size_t M, size_t N, size_t K, const float *x, const float *w, size_t ws_o, size_t ws_k,
                 const float *bias, float *y, float lo, float hi) {
  for (size_t m = 0; m < M; m++) {
    const float *xr = x + m * K;
    for (size_t o = 0; o < N; o++) {
      const float *wo = w + o * ws_o;
      float acc = bias ? bias[o] : 0.0f;
      for (size_t k = 0; k < K; k++) acc += xr[k] * wo[k * ws_k];
      y[m * N + o] = px_clampf(acc, lo, hi);
    }
  }
}
