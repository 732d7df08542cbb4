/* ptera run's top-k helper (tools/ptera/cli_topk.c) on hand-made values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"

static void test_select(void) {
  size_t idx[8];
  const double a[5] = {0.1, 0.9, 0.5, 0.9, -1.0};
  CHECK(cli_topk(a, 5, 3, idx) == 3);
  CHECK(idx[0] == 1 && idx[1] == 3 && idx[2] == 2); /* tie 0.9: lower index first */
  CHECK(cli_topk(a, 5, 8, idx) == 5); /* k > n: everything, sorted */
  CHECK(idx[0] == 1 && idx[1] == 3 && idx[2] == 2 && idx[3] == 0 && idx[4] == 4);
  CHECK(cli_topk(a, 5, 0, idx) == 0);
  const double b[4] = {NAN, 1.0, 2.0, NAN};
  CHECK(cli_topk(b, 4, 4, idx) == 4);
  CHECK(idx[0] == 2 && idx[1] == 1 && idx[2] == 0 && idx[3] == 3);
  const double c[3] = {-INFINITY, INFINITY, 0.0};
  CHECK(cli_topk(c, 3, 3, idx) == 3 && idx[0] == 1 && idx[1] == 2 && idx[2] == 0);
  const double d[2] = {-0.5, -0.25};
  CHECK(cli_topk(d, 2, 1, idx) == 1 && idx[0] == 1);
  /* 100000 classes: three planted maxima among a decreasing ramp. */
  size_t n = 100000;
  double *big = malloc(n * sizeof *big);
  for (size_t i = 0; i < n; i++) big[i] = -(double)i;
  big[77777] = 5.0;
  big[12345] = 5.0;
  big[99999] = 4.0;
  CHECK(cli_topk(big, n, 4, idx) == 4);
  CHECK(idx[0] == 12345 && idx[1] == 77777 && idx[2] == 99999 && idx[3] == 0);
  free(big);
}

static void test_applies(void) {
  int32_t s10[2] = {10, 0}, s1_10[2] = {1, 10}, s2_10[2] = {2, 10}, s1[1] = {1};
  int32_t s1e5[1] = {100000}, s1e5p[1] = {100001}, s115[3] = {1, 1, 5}, s2[1] = {2};
  CHECK(cli_topk_applies(PTERA_DTYPE_FLOAT, 1, s10));
  CHECK(cli_topk_applies(PTERA_DTYPE_FLOAT, 2, s1_10));
  CHECK(cli_topk_applies(PTERA_DTYPE_HALF, 2, s1_10));
  CHECK(cli_topk_applies(PTERA_DTYPE_BFLOAT16, 1, s2));
  CHECK(cli_topk_applies(PTERA_DTYPE_DOUBLE, 1, s1e5));
  CHECK(!cli_topk_applies(PTERA_DTYPE_FLOAT, 2, s2_10));
  CHECK(!cli_topk_applies(PTERA_DTYPE_FLOAT, 1, s1));
  CHECK(!cli_topk_applies(PTERA_DTYPE_FLOAT, 1, s1e5p));
  CHECK(!cli_topk_applies(PTERA_DTYPE_FLOAT, 0, s10));
  CHECK(!cli_topk_applies(PTERA_DTYPE_FLOAT, 3, s115));
  CHECK(!cli_topk_applies(PTERA_DTYPE_LONG, 1, s10));
  CHECK(!cli_topk_applies(PTERA_DTYPE_INT, 2, s1_10));
}

static void line_is(size_t out, const double *v, size_t n, size_t k, const char *want) {
  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (!f) return;
  CHECK(cli_topk_line(f, out, v, n, k) == 0);
  char got[256] = {0};
  rewind(f);
  size_t r = fread(got, 1, sizeof got - 1, f);
  got[r] = '\0';
  fclose(f);
  CHECK(strcmp(got, want) == 0);
  if (strcmp(got, want) != 0) printf("  got '%s'\n  want '%s'\n", got, want);
}

static void test_line(void) {
  const double v[4] = {0.25, -1.5, 3.14159, 0.25};
  line_is(2, v, 4, 3, "output 2: top-3: 2 (3.1416), 0 (0.2500), 3 (0.2500)\n");
  line_is(0, v, 4, 1, "output 0: top-1: 2 (3.1416)\n");
  line_is(1, v, 4, 9, "output 1: top-4: 2 (3.1416), 0 (0.2500), 3 (0.2500), 1 (-1.5000)\n");
  line_is(0, v, 4, 0, "");
  const double w[2] = {-0.00004, 12345.678};
  line_is(7, w, 2, 3, "output 7: top-2: 1 (12345.6780), 0 (-0.0000)\n");
}

int main(void) {
  test_select();
  test_applies();
  test_line();
  return check_summary("cli_topk");
}
