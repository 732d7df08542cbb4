/* Compiler warnings (diag.h). */
#include <stdarg.h>
#include <stdio.h>

#include "diag.h"

void pc_diag_warn(pc_diag *d, const char *fmt, ...) {
  if (!d) return;
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  size_t len = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
  if (d->len + len + 2 > d->cap) {
    size_t cap = d->cap ? d->cap * 2 : 1024;
    while (cap < d->len + len + 2) cap *= 2;
    char *t = pt_alloc(d->allocator, cap, 1);
    if (!t) {
      d->dropped++;
      return;
    }
    if (d->len) memcpy(t, d->text, d->len);
    pt_free(d->allocator, d->text);
    d->text = t;
    d->cap = cap;
  }
  memcpy(d->text + d->len, line, len);
  d->len += len;
  d->text[d->len++] = '\n';
  d->text[d->len] = 0;
  d->count++;
}

void pc_diag_free(pc_diag *d) {
  if (!d) return;
  pt_free(d->allocator, d->text);
  d->text = NULL;
  d->len = d->cap = 0;
  d->count = d->dropped = 0;
}
