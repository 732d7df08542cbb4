/* index_put's whole-row path (one integer index on dim 0, values of the
 * indexed shape) and the general path it falls back to, against the rows
 * put or accumulated here element by element: random shapes, float and
 * int64, repeated and negative indices, NaN / +-inf / -0.0 values, .out
 * and in place; broadcast values and two index tensors take the general
 * path; an index out of range fails and leaves out as it was. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernel_test_util.h"

static uint32_t rng = 77u;
static uint32_t next_u32(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}
static int irand(int lo, int hi) { return lo + (int)(next_u32() % (uint32_t)(hi - lo + 1)); }

static ptera_value *otlist(size_t n, ptera_value **items) {
  ptera_value *v = kt_val(PTERA_TAG_LIST_OPTIONAL_TENSOR);
  ptera_value **p = &kt_ptrs[kt_np];
  kt_np += n;
  for (size_t i = 0; i < n; i++) p[i] = items[i];
  v->u.list.items = p;
  v->u.list.len = n;
  return v;
}

static ptera_value *tensor(int dt, void *data, size_t dim, const int32_t *sizes) {
  size_t n = 1;
  for (size_t d = 0; d < dim; d++) n *= (size_t)sizes[d];
  return kt_tensor(dt, data, n * ptera_dtype_size(dt) + 1, dim, sizes, NULL, PTERA_SHAPE_STATIC);
}

static bool same(const void *a, const void *b, size_t n, int dt) {
  if (dt != PTERA_DTYPE_FLOAT) return memcmp(a, b, n * 8) == 0;
  const float *x = a, *y = b;
  for (size_t i = 0; i < n; i++)
    if (memcmp(&x[i], &y[i], 4) != 0 && !(isnan(x[i]) && isnan(y[i]))) {
      printf("  [%zu] got %g want %g\n", i, (double)x[i], (double)y[i]);
      return false;
    }
  return true;
}

/* One case: self [R, rest...], index of L entries, values [L or 1, rest...]. */
static void check_case(int dt, bool acc, bool in_place, bool broadcast, bool two_index) {
  int R = irand(1, 9), L = irand(0, 6), dim = irand(1, 3);
  int32_t ss[3] = {R, irand(1, 7), irand(1, 5)}, vs[3], xs[1] = {L};
  if (two_index && dim == 1) dim = 2, ss[1] = 3;
  size_t row = 1;
  for (int d = 1; d < dim; d++) row *= (size_t)ss[d];
  /* two indices pick (i, j) pairs: values [L, self.sizes[2:]...] */
  size_t inner = two_index ? row / (size_t)ss[1] : row;
  int vdim = two_index ? dim - 1 : dim;
  vs[0] = broadcast ? 1 : L;
  for (int d = 1; d < vdim; d++) vs[d] = ss[two_index ? d + 1 : d];
  size_t es = ptera_dtype_size(dt), n = (size_t)R * row, nv = (size_t)vs[0] * inner;
  uint8_t *self = malloc(n * es + 8), *out = malloc(n * es + 8), *want = malloc(n * es + 8),
          *vals = malloc(nv * es + 8);
  int64_t idx[8], idx2[8];
  static const float edges[4] = {NAN, INFINITY, -INFINITY, -0.0f};
  for (size_t i = 0; i < n; i++) {
    if (dt == PTERA_DTYPE_FLOAT) ((float *)self)[i] = (float)irand(-50, 50) / 8.0f;
    else ((int64_t *)self)[i] = irand(-1000, 1000);
  }
  for (size_t i = 0; i < nv; i++) {
    if (dt == PTERA_DTYPE_FLOAT) ((float *)vals)[i] = i % 5 == 2 ? edges[i % 4] : (float)irand(-50, 50) / 4.0f;
    else ((int64_t *)vals)[i] = irand(-1000, 1000);
  }
  for (int i = 0; i < L; i++) idx[i] = irand(-R, R - 1), idx2[i] = irand(0, two_index ? ss[1] - 1 : 0);
  /* The reference, element by element in index order. */
  memcpy(want, self, n * es);
  for (int i = 0; i < L; i++) {
    int64_t r = idx[i] < 0 ? idx[i] + R : idx[i];
    size_t base = (size_t)r * row + (two_index ? (size_t)idx2[i] * inner : 0);
    size_t vbase = broadcast ? 0 : (size_t)i * inner;
    for (size_t e = 0; e < inner; e++) {
      if (dt == PTERA_DTYPE_FLOAT) {
        float *w = (float *)want + base + e, v = ((float *)vals)[vbase + e];
        *w = acc ? *w + v : v;
      } else {
        int64_t *w = (int64_t *)want + base + e, v = ((int64_t *)vals)[vbase + e];
        *w = acc ? *w + v : v;
      }
    }
  }
  memcpy(out, self, n * es);
  ptera_value *list = two_index ? otlist(2, (ptera_value *[]){tensor(PTERA_DTYPE_LONG, idx, 1, xs),
                                                               tensor(PTERA_DTYPE_LONG, idx2, 1, xs)})
                                : otlist(1, (ptera_value *[]){tensor(PTERA_DTYPE_LONG, idx, 1, xs)});
  ptera_value *vv = tensor(dt, vals, (size_t)vdim, vs);
  ptera_status st;
  if (in_place) {
    ptera_value *o = tensor(dt, out, (size_t)dim, ss);
    st = KT_CALL("aten::index_put_", o, list, vv, kt_bool(acc), o);
  } else {
    ptera_value *o = tensor(dt, out, (size_t)dim, ss);
    st = KT_CALL("aten::index_put.out", tensor(dt, self, (size_t)dim, ss), list, vv, kt_bool(acc), o, o);
  }
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) printf("  %s\n", kt_err.msg);
  CHECK(same(out, want, n, dt));
  free(self);
  free(out);
  free(want);
  free(vals);
}

static void out_of_range(void) {
  float self[6] = {1, 2, 3, 4, 5, 6}, out[6] = {9, 9, 9, 9, 9, 9}, v[4] = {7, 7, 7, 7};
  int64_t idx[2] = {0, 3};
  ptera_value *o = KT_T(PTERA_DTYPE_FLOAT, out, 3, 2);
  CHECK(KT_CALL("aten::index_put.out", KT_T(PTERA_DTYPE_FLOAT, self, 3, 2),
                otlist(1, (ptera_value *[]){KT_T(PTERA_DTYPE_LONG, idx, 2)}), KT_T(PTERA_DTYPE_FLOAT, v, 2, 2),
                kt_bool(false), o, o) == PTERA_INVALID_ARGUMENT);
  for (int i = 0; i < 6; i++) CHECK(out[i] == 9.0f);
}

int main(void) {
  for (int i = 0; i < 200; i++) {
    int dt = i % 3 == 2 ? PTERA_DTYPE_LONG : PTERA_DTYPE_FLOAT;
    check_case(dt, irand(0, 2) == 0, irand(0, 1) != 0, irand(0, 5) == 0, false);
  }
  for (int i = 0; i < 40; i++) check_case(PTERA_DTYPE_FLOAT, irand(0, 1) != 0, irand(0, 1) != 0, false, true);
  out_of_range();
  return check_summary("index_put_rows");
}
