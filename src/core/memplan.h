/* Memory planner (prefix pt_): the compiler plans a program's buffers with
 * it, the XNNPACK delegate its internal values at init.
 *
 * Works over an abstract problem so it does not depend on any IR:
 * an array of buffers, each with a size and a lifetime in instruction
 * indices [first_use, last_use] (inclusive). A buffer may be a view of
 * another (alias_of): it shares the base's storage and offset, and extends
 * the lifetime of the whole alias group. Pinned buffers (graph inputs and
 * outputs) never share memory with any buffer outside their alias group.
 *
 * The result is what the .pte AllocationDetails need (docs/PTE.md §5.7, §9):
 * a 1-based memory_id and a byte offset per buffer, and the arena sizes in
 * non_const_buffer_sizes layout (entry 0 reserved and 0).
 *
 * Algorithm: alias groups are formed (the root is the buffer that is not a
 * view); a group's lifetime is the union of its members' lifetimes and its
 * extent is the largest member size, rounded up to the alignment. Groups
 * are placed greedily, largest first (ties: earlier first use, then lower
 * index), each at the start of the smallest gap between already placed,
 * lifetime-conflicting groups that fits it (best fit; ties: lowest offset),
 * or else right after the highest of them. Zero-size groups get offset 0
 * and occupy nothing. */
#ifndef PTERA_CORE_MEMPLAN_H
#define PTERA_CORE_MEMPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

#define PT_MEMPLAN_DEFAULT_ALIGNMENT 16

typedef struct pt_membuf {
  size_t nbytes;
  uint32_t first_use, last_use; /* instruction indices, inclusive */
  int32_t alias_of;             /* -1, or the index of the buffer this one views */
  bool pinned;                  /* must not share memory (graph inputs/outputs) */
} pt_membuf;

typedef struct pt_memloc {
  uint32_t memory_id; /* 1-based arena id */
  uint64_t offset;    /* byte offset within the arena */
} pt_memloc;

typedef struct pt_memplan {
  size_t count;          /* number of buffers planned */
  pt_memloc *locs;       /* count entries (NULL when count == 0) */
  uint32_t num_arenas;   /* arenas used (memory ids 1..num_arenas) */
  uint64_t *arena_sizes; /* num_arenas + 1 entries; [0] reserved (0) */
  size_t alignment;
  uint64_t no_reuse_bytes; /* sum of aligned group extents */
  uint64_t max_live_bytes; /* lower bound: most aligned bytes live at one time */
  const ptera_allocator *allocator;
} pt_memplan;

typedef struct pt_memplan_summary {
  uint64_t peak_bytes;     /* total planned arena bytes */
  uint64_t no_reuse_bytes; /* what the plan would need without any reuse */
  uint64_t max_live_bytes; /* lower bound for any plan of this problem */
  uint32_t num_arenas;
} pt_memplan_summary;

/* Plans n buffers. alignment: a power of two, or 0 for the default (16).
 * allocator: NULL for the default. On failure *out is left empty (safe to
 * pass to pt_memplan_free) and e says why: InvalidArgument for a bad
 * problem (bad alias index or cycle, first_use > last_use, bad alignment,
 * sizes that overflow), MemoryAllocationFailed when an allocation fails. */
PT_FUNC ptera_status pt_memplan_compute(const pt_membuf *bufs, size_t n, size_t alignment,
                                        const ptera_allocator *allocator, pt_memplan *out,
                                        pt_err *e);

/* Releases what pt_memplan_compute allocated; plan may be empty. */
PT_FUNC void pt_memplan_free(pt_memplan *plan);

/* Summary numbers of a computed plan. */
PT_FUNC void pt_memplan_stats(const pt_memplan *plan, pt_memplan_summary *out);

/* Checks that plan is a valid plan for bufs: same count; memory ids in
 * range; every offset aligned to plan->alignment; every buffer inside its
 * arena; views at their root's location; no two buffers of different alias
 * groups that are live at the same time (or either pinned) overlap in
 * memory. Returns PTERA_OK or InvalidArgument (bad problem) /
 * InvalidProgram (bad plan) / MemoryAllocationFailed with a message. */
PT_FUNC ptera_status pt_memplan_verify(const pt_membuf *bufs, size_t n, const pt_memplan *plan,
                                       const ptera_allocator *allocator, pt_err *e);

#endif
