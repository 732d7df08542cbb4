/* See fail_alloc.h. */
#include "fail_alloc.h"

#include <stdlib.h>

void *fa_alloc(void *ud, size_t size, size_t align) {
  fa_state *s = ud;
  if (s->count++ == s->fail_at) {
    s->failed = true;
    return NULL;
  }
  if (align < sizeof(void *)) align = sizeof(void *);
  void *p = NULL;
  if (posix_memalign(&p, align, size ? size : 1) != 0) return NULL;
  s->live++;
  return p;
}

void fa_free(void *ud, void *p) {
  fa_state *s = ud;
  if (!p) return;
  s->live--;
  free(p);
}
