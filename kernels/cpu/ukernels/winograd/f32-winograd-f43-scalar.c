/* Winograd F(4x4, 3x3) transforms, scalar (see winograd.h); the input and
 * output transforms are wino43_body.h compiled without vector flags. */
#include "cpu/ukernels/winograd/winograd.h"

/* G (winograd.h) times 24, so its entries are exact in double. */
static const double G24[6][3] = {{6, 0, 0}, {-4, -4, -4}, {-4, 4, -4}, {1, 2, 4}, {1, -2, 4}, {0, 0, 24}};

/* G g G^T in double (exact up to the last division), rounded once. */
void pk_f32_wino43_filter_scalar(const float *g, float *u, size_t a_stride) {
  double t[6][3]; /* 24 G g */
  for (int r = 0; r < 6; r++)
    for (int s = 0; s < 3; s++) t[r][s] = G24[r][0] * g[s] + G24[r][1] * g[3 + s] + G24[r][2] * g[6 + s];
  for (int r = 0; r < 6; r++) /* (24 G g)(24 G)^T / 576 */
    for (int c = 0; c < 6; c++)
      u[(size_t)(6 * r + c) * a_stride] =
          (float)((t[r][0] * G24[c][0] + t[r][1] * G24[c][1] + t[r][2] * G24[c][2]) / 576.0);
}

#define WINO_FN(name) name##_scalar
#include "cpu/ukernels/winograd/wino43_body.h"
