/* Workspace slots for the convolution paths' parallel loops: each task
 * claims a free slot of the workspace for its duration, so chunks can be
 * handed out one item at a time (a descheduled thread delays only the item
 * it holds) while the workspace stays one slot per thread. Internal to
 * conv2d*.c. */
#ifndef PK_CPU_CONV2D_SLOTS_H
#define PK_CPU_CONV2D_SLOTS_H

#include <stdatomic.h>
#include <stddef.h>

#define CONV_MAX_SLOTS 64u

/* Workspace slots: a task claims a free one for its duration (at most
 * CONV_MAX_SLOTS tasks run at once, see slot_grain). */
typedef struct slot_set {
  atomic_flag busy[CONV_MAX_SLOTS];
} slot_set;

static inline void slots_init(slot_set *s) {
  for (size_t i = 0; i < CONV_MAX_SLOTS; i++) atomic_flag_clear(&s->busy[i]);
}
static inline size_t slot_claim(slot_set *s) {
  for (size_t i = 0;; i = (i + 1) % CONV_MAX_SLOTS)
    if (!atomic_flag_test_and_set_explicit(&s->busy[i], memory_order_acquire)) return i;
}
static inline void slot_release(slot_set *s, size_t i) { atomic_flag_clear_explicit(&s->busy[i], memory_order_release); }
static inline size_t slot_count(size_t nthreads) {
  return nthreads == 0 ? 1 : nthreads < CONV_MAX_SLOTS ? nthreads : CONV_MAX_SLOTS;
}
/* Grain of a parallel_for over items whose tasks each hold a slot: one item
 * at a time (a descheduled thread delays only the item it holds) unless more
 * threads than slots could run at once. */
static inline size_t slot_grain(size_t items, size_t nthreads) {
  return nthreads <= CONV_MAX_SLOTS ? 1 : (items + CONV_MAX_SLOTS - 1) / CONV_MAX_SLOTS;
}

#endif
