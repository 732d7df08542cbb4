/* p-norm distances shared by _cdist_forward and _pdist_forward. */
#ifndef PK_DIST_H
#define PK_DIST_H

#include <math.h>

#include "portable/util/dtype_util.h"

/* || a - b ||_p over m elements (strides in bytes), in float for half/bfloat16/float
 * (pow through double) and double for double. p == 0 counts differing elements,
 * p == inf takes the largest difference. Stored into o (dtype dt). */
static inline void pk_pnorm_dist(char *o, const char *a, ptrdiff_t as, const char *b,
                                 ptrdiff_t bs, int64_t m, double p, int dt) {
  if (pk_compute_type(dt) == PK_CT_F32) {
    float acc = 0.0f;
    for (int64_t i = 0; i < m; i++) {
      float d = fabsf(pk_load_f32(a + i * as, dt) - pk_load_f32(b + i * bs, dt));
      if (p == 0.0) acc += d != 0.0f ? 1.0f : 0.0f;
      else if (p == 1.0) acc += d;
      else if (p == 2.0) acc += d * d;
      else if (isinf(p)) acc = d > acc || d != d ? d : acc;
      else acc += (float)pow((double)d, p);
    }
    if (p == 2.0) acc = sqrtf(acc);
    else if (p != 0.0 && p != 1.0 && !isinf(p)) acc = (float)pow((double)acc, 1.0 / p);
    pk_store_f32(o, dt, acc);
  } else {
    double acc = 0.0;
    for (int64_t i = 0; i < m; i++) {
      double d = fabs(pk_load_f64(a + i * as, dt) - pk_load_f64(b + i * bs, dt));
      if (p == 0.0) acc += d != 0.0 ? 1.0 : 0.0;
      else if (p == 1.0) acc += d;
      else if (p == 2.0) acc += d * d;
      else if (isinf(p)) acc = d > acc || d != d ? d : acc;
      else acc += pow(d, p);
    }
    if (p == 2.0) acc = sqrt(acc);
    else if (p != 0.0 && p != 1.0 && !isinf(p)) acc = pow(acc, 1.0 / p);
    pk_store_f64(o, dt, acc);
  }
}

#endif
