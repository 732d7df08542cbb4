/* `ptera run`'s top-k line: the largest values of a class-score vector. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct ranked {
  double v;
  size_t i;
} ranked;

/* Descending value, NaN after every number, ties by lower index. */
static int cmp_ranked(const void *pa, const void *pb) {
  const ranked *a = pa, *b = pb;
  bool na = isnan(a->v), nb = isnan(b->v);
  if (na != nb) return na ? 1 : -1;
  if (!na && a->v != b->v) return a->v > b->v ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}

long cli_topk(const double *values, size_t n, size_t k, size_t *idx) {
  if (k > n) k = n;
  if (k == 0) return 0;
  ranked *r = malloc(n * sizeof *r);
  if (!r) return -1;
  for (size_t i = 0; i < n; i++) r[i] = (ranked){values[i], i};
  qsort(r, n, sizeof *r, cmp_ranked);
  for (size_t j = 0; j < k; j++) idx[j] = r[j].i;
  free(r);
  return (long)k;
}

bool cli_topk_applies(int dtype, size_t dim, const int32_t *sizes) {
  bool fp = dtype == PTERA_DTYPE_FLOAT || dtype == PTERA_DTYPE_DOUBLE ||
            dtype == PTERA_DTYPE_HALF || dtype == PTERA_DTYPE_BFLOAT16;
  int64_t n = dim == 1 ? sizes[0] : dim == 2 && sizes[0] == 1 ? sizes[1] : -1;
  return fp && n >= 2 && n <= 100000;
}

int cli_topk_line(FILE *f, size_t output, const double *values, size_t n, size_t k) {
  if (k > n) k = n;
  if (k == 0) return 0;
  size_t *idx = malloc(k * sizeof *idx);
  if (!idx) return -1;
  if (cli_topk(values, n, k, idx) < 0) {
    free(idx);
    return -1;
  }
  fprintf(f, "output %zu: top-%zu:", output, k);
  for (size_t j = 0; j < k; j++) fprintf(f, "%s %zu (%.4f)", j ? "," : "", idx[j], values[idx[j]]);
  fputc('\n', f);
  free(idx);
  return 0;
}
