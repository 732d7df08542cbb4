/* ptera_buffer_allocator: a bump allocator over caller memory (alloc.h),
 * and its measuring twin, which counts the same offsets while the blocks
 * come from another allocator (pt_measure_*, for the memory queries). */
#include "core.h"

#define PT_BUF_ALIGN 64u

/* In front of every block, at the same offset in both modes. */
typedef struct pt_buf_header {
  size_t start;   /* top before this block */
  void *older;    /* the block that was newest before this one */
  size_t freed;   /* freed while a newer block was live */
  void *backing;  /* measuring: what the backing allocator returned */
} pt_buf_header;

_Static_assert(sizeof(pt_buf_header) <= PTERA_BUFFER_BLOCK_HEADER, "buffer block header");

static pt_buf_header *header_of(void *p) {
  return (pt_buf_header *)((unsigned char *)p - PTERA_BUFFER_BLOCK_HEADER);
}

static size_t round_up(size_t v, size_t align) { return (v + align - 1) & ~(align - 1); }

static void *buf_alloc(void *ud, size_t size, size_t align) {
  ptera_buffer_allocator *b = ud;
  if (align < sizeof(void *)) align = sizeof(void *);
  if (align > PT_BUF_ALIGN || (align & (align - 1))) return NULL;
  size_t head = b->top + PTERA_BUFFER_BLOCK_HEADER;
  if (head < b->top || head > SIZE_MAX - align) return NULL;
  size_t at = round_up(head, align);
  if (size > SIZE_MAX - at) return NULL;
  size_t end = at + size;
  void *p, *backing = NULL;
  if (b->backing) {
    /* Room for the header in front, and p at the address a real buffer
     * would give modulo 64, so that what the caller aligns inside the block
     * (an arena's pieces) pads the same. */
    size_t lead = round_up(PTERA_BUFFER_BLOCK_HEADER, PT_BUF_ALIGN) + (at & (PT_BUF_ALIGN - 1));
    if (size > SIZE_MAX - lead) return NULL;
    backing = b->backing->alloc(b->backing->user_data, lead + size, PT_BUF_ALIGN);
    if (!backing) return NULL;
    p = (unsigned char *)backing + lead;
  } else {
    if (end > b->capacity) return NULL;
    p = b->base + at;
  }
  pt_buf_header *h = header_of(p);
  h->start = b->top;
  h->older = b->newest;
  h->freed = 0;
  h->backing = backing;
  b->newest = p;
  b->top = end;
  if (end > b->peak) b->peak = end;
  return p;
}

static void release(ptera_buffer_allocator *b, pt_buf_header *h) {
  if (b->backing) b->backing->free(b->backing->user_data, h->backing);
}

static void buf_free(void *ud, void *p) {
  ptera_buffer_allocator *b = ud;
  if (!p) return;
  pt_buf_header *h = header_of(p);
  if (p != b->newest) {
    h->freed = 1; /* reclaimed when the blocks above it go */
    return;
  }
  for (;;) {
    b->top = h->start;
    b->newest = h->older;
    release(b, h);
    if (!b->newest) break;
    h = header_of(b->newest);
    if (!h->freed) break;
  }
}

void ptera_buffer_allocator_init(ptera_buffer_allocator *b, void *memory, size_t size) {
  memset(b, 0, sizeof *b);
  b->allocator.alloc = buf_alloc;
  b->allocator.free = buf_free;
  b->allocator.user_data = b;
  if (!memory) return;
  size_t skip = (size_t)(-(uintptr_t)memory & (PT_BUF_ALIGN - 1));
  if (skip > size) return;
  b->base = (unsigned char *)memory + skip;
  b->capacity = size - skip;
}

void pt_measure_init(ptera_buffer_allocator *b, const ptera_allocator *backing) {
  ptera_buffer_allocator_init(b, NULL, 0);
  b->backing = backing ? backing : ptera_allocator_default();
  b->capacity = SIZE_MAX;
}
