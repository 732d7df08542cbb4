#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int check_failures = 0;
int check_count = 0;

void check_report(const char *file, int line, const char *what) {
  fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
}

int check_summary(const char *suite) {
  printf("%s: %d passed, %d failed\n", suite, check_count - check_failures, check_failures);
  return check_failures ? 1 : 0;
}

uint8_t *check_read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) != 0) { fclose(f); return NULL; }
  long n = ftell(f);
  if (n < 0) { fclose(f); return NULL; }
  rewind(f);
  size_t cap = ((size_t)n + 16) & ~(size_t)15;
  uint8_t *buf = aligned_alloc(16, cap ? cap : 16);
  if (!buf) { fclose(f); return NULL; }
  if (fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); fclose(f); return NULL; }
  fclose(f);
  *size = (size_t)n;
  return buf;
}

const char *check_corpus_path(const char *corpus_dir, const char *rel) {
  static char buf[4096];
  snprintf(buf, sizeof buf, "%s/%s", corpus_dir, rel);
  return buf;
}
