/* An allocator that fails on request, one state per use (the tests that
 * inject allocation failures: test_alloc_failures, test_memplan,
 * test_xnn_quant_init; linked into every unit test): call fail_at (0-based;
 * -1 = never) returns NULL, every other call gets posix_memalign memory, and
 * live counts the blocks not yet freed. Pass the state as user_data:
 *   fa_state s = {n, 0, 0, false};
 *   ptera_allocator a = {fa_alloc, fa_free, &s}; */
#ifndef PTERA_TEST_FAIL_ALLOC_H
#define PTERA_TEST_FAIL_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

typedef struct fa_state {
  long fail_at; /* index of the allocation to fail; -1: none */
  long count;   /* allocations attempted */
  long live;    /* blocks allocated and not freed */
  bool failed;  /* the injected failure happened */
} fa_state;

void *fa_alloc(void *ud, size_t size, size_t align);
void fa_free(void *ud, void *p);

#endif
