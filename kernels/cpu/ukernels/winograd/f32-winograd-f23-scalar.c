/* Winograd F(2x2, 3x3) transforms, scalar (see winograd.h); the input and
 * output transforms are wino23_body.h compiled without vector flags. */
#include "cpu/ukernels/winograd/winograd.h"

void pk_f32_wino23_filter_scalar(const float *g, float *u, size_t a_stride) {
  float t[4][3]; /* G g */
  for (int s = 0; s < 3; s++) {
    float g0 = g[s], g1 = g[3 + s], g2 = g[6 + s];
    t[0][s] = g0;
    t[1][s] = 0.5f * (g0 + g1 + g2);
    t[2][s] = 0.5f * (g0 - g1 + g2);
    t[3][s] = g2;
  }
  for (int r = 0; r < 4; r++) { /* (G g) G^T */
    float a = t[r][0], b = t[r][1], c = t[r][2];
    u[(size_t)(4 * r + 0) * a_stride] = a;
    u[(size_t)(4 * r + 1) * a_stride] = 0.5f * (a + b + c);
    u[(size_t)(4 * r + 2) * a_stride] = 0.5f * (a - b + c);
    u[(size_t)(4 * r + 3) * a_stride] = c;
  }
}

#define WINO_FN(name) name##_scalar
#include "cpu/ukernels/winograd/wino23_body.h"
