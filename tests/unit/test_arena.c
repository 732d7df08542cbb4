/* The bump arena (src/core/arena.c): every allocation honours its alignment
 * as an address (blocks come 16-byte aligned but, from this test's
 * allocator, never 64-byte aligned), is zeroed, does not overlap another,
 * and release returns every block. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/core.h"

static long live;

/* 16-byte aligned blocks whose address is 16 mod 64 (4096-aligned + 16). */
static void *odd_alloc(void *ud, size_t size, size_t align) {
  (void)ud;
  if (align > 16) return NULL; /* the arena asks for 16 only */
  uint8_t *raw = NULL;
  if (posix_memalign((void **)&raw, 4096, 4096 + 16 + size) != 0) return NULL;
  live++;
  void *orig = raw; /* kept in front of the block, for odd_free */
  memcpy(raw, &orig, sizeof orig);
  memset(raw + 4096 + 16, 0xCD, size); /* the arena must zero what it hands out */
  return raw + 4096 + 16;
}
static void odd_free(void *ud, void *p) {
  (void)ud;
  if (!p) return;
  void *orig;
  memcpy(&orig, (uint8_t *)p - 4096 - 16, sizeof orig);
  live--;
  free(orig);
}
static const ptera_allocator odd = {odd_alloc, odd_free, NULL};

#define NALLOC 600
static uint8_t *ptrs[NALLOC];
static size_t lens[NALLOC];

static void test_alignment(void) {
  pt_arena a;
  pt_arena_init(&a, &odd);
  /* Odd sizes between aligned requests: every alignment up to 4096 on both
   * the fast path (room left in the block) and a new block. */
  for (int i = 0; i < NALLOC; i++) {
    size_t align = (size_t)1 << (i % 13);
    size_t size = (size_t)(i * 37 % 301) + (i % 5 == 0 ? 5000 : 0);
    uint8_t *p = pt_arena_alloc(&a, size, align);
    CHECK(p != NULL);
    if (!p) break;
    CHECK(((uintptr_t)p & (align - 1)) == 0);
    bool zero = true;
    for (size_t k = 0; k < size; k++) zero &= p[k] == 0;
    CHECK(zero);
    memset(p, i & 0xFF, size);
    ptrs[i] = p;
    lens[i] = size;
  }
  /* Nothing overwrote an earlier allocation. */
  for (int i = 0; i < NALLOC; i++) {
    bool kept = true;
    for (size_t k = 0; k < lens[i]; k++) kept &= ptrs[i][k] == (uint8_t)(i & 0xFF);
    CHECK(kept);
  }
  CHECK(pt_arena_alloc(&a, 8, 3) == NULL && pt_arena_alloc(&a, 8, 8192) == NULL);
  uint8_t *arr = pt_arena_array(&a, 10, 24, 64);
  CHECK(arr && ((uintptr_t)arr & 63) == 0);
  CHECK(pt_arena_array(&a, SIZE_MAX / 4, 8, 8) == NULL);
  CHECK(live > 1);
  pt_arena_release(&a);
  CHECK(live == 0);
}

/* The old bug: a 64-aligned request right after a small one in a block at
 * 16 mod 64 came back at 16 mod 64. */
static void test_fast_path_64(void) {
  pt_arena a;
  pt_arena_init(&a, &odd);
  uint8_t *first = pt_arena_alloc(&a, 1, 1);
  uint8_t *p = pt_arena_alloc(&a, 100, 64);
  CHECK(first && p && ((uintptr_t)p & 63) == 0 && p > first);
  uint8_t *q = pt_arena_alloc(&a, 1, 4096);
  CHECK(q && ((uintptr_t)q & 4095) == 0 && q >= p + 100);
  pt_arena_release(&a);
  CHECK(live == 0);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  test_fast_path_64();
  test_alignment();
  return check_summary("arena");
}
