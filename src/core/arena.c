#include "core.h"

struct pt_arena_block {
  pt_arena_block *next;
  size_t capacity;
  /* data follows, 16-aligned */
};

#define PT_BLOCK_HEADER 16u
#define PT_BLOCK_MIN PTERA_ARENA_BLOCK_MIN

void pt_arena_init(pt_arena *arena, const ptera_allocator *allocator) {
  memset(arena, 0, sizeof *arena);
  arena->allocator = allocator;
}

/* Padding that brings address p up to a multiple of align (a power of two). */
static size_t pad_to(uintptr_t p, size_t align) { return (size_t)(-p & (uintptr_t)(align - 1)); }

void *pt_arena_alloc(pt_arena *arena, size_t size, size_t align) {
  if (align < 1) align = 1;
  if (align > 4096 || (align & (align - 1))) return NULL;
  if (arena->head) {
    /* Align the address, not the offset: blocks are only 16-byte aligned. */
    uint8_t *base = (uint8_t *)arena->head + PT_BLOCK_HEADER;
    size_t room = arena->capacity - arena->used;
    size_t pad = pad_to((uintptr_t)(base + arena->used), align);
    if (pad <= room && size <= room - pad) {
      uint8_t *p = base + arena->used + pad;
      arena->used += pad + size;
      memset(p, 0, size);
      return p;
    }
  }
  if (size > SIZE_MAX / 2 - align - PT_BLOCK_HEADER) return NULL;
  size_t cap = size + align;
  size_t grow = arena->total / 2;
  if (cap < PT_BLOCK_MIN) cap = PT_BLOCK_MIN;
  if (cap < grow && grow < ((size_t)1 << 24)) cap = grow;
  pt_arena_block *b = pt_alloc(arena->allocator, PT_BLOCK_HEADER + cap, 16);
  if (!b) return NULL;
  b->next = arena->head;
  b->capacity = cap;
  arena->head = b;
  arena->capacity = cap;
  arena->total += cap;
  uint8_t *base = (uint8_t *)b + PT_BLOCK_HEADER;
  size_t start = pad_to((uintptr_t)base, align); /* < align: cap has room */
  arena->used = start + size;
  memset(base + start, 0, size);
  return base + start;
}

void *pt_arena_array(pt_arena *arena, size_t count, size_t size, size_t align) {
  uint64_t total;
  if (!pt_mul_u64(count, size, &total) || total > SIZE_MAX / 2) return NULL;
  return pt_arena_alloc(arena, (size_t)total, align);
}

void pt_arena_release(pt_arena *arena) {
  pt_arena_block *b = arena->head;
  while (b) {
    pt_arena_block *next = b->next;
    pt_free(arena->allocator, b);
    b = next;
  }
  pt_arena_init(arena, arena->allocator);
}
