/* Helpers shared by the emitter tests (test_emit_pte.c, test_emit_ptd.c,
 * test_emit_named.c and the others CMakeLists.txt links it into): value
 * descriptions, an allocator that fails on request, emitting and parsing a
 * .pte, and running "forward" of a float[3] program through the public API.
 * Each helper says how many CHECKs it makes when everything succeeds. */
#ifndef PTERA_TEST_EMIT_UTIL_H
#define PTERA_TEST_EMIT_UTIL_H

#include <stdbool.h>

#include "emit_pte.h"
#include "format/pte.h"
#include "ptera/ptera.h"

/* ---- an allocator that counts live blocks and fails call number
 * eu_fail_at (1-based; 0 = never) ---- */

extern size_t eu_live, eu_calls, eu_fail_at;
extern const ptera_allocator eu_tracking;

/* pc_emit_pte(desc) with eu_tracking failing allocation n, for n = 1, 2, ...
 * until it succeeds: each failure must be a clean MEMORY_ALLOCATION_FAILED
 * (no file, size 0, nothing live), the success must leave exactly the file
 * live, and at least min_failures allocations must have been tried.
 * 1 CHECK per failure, 3 in all when it succeeds. */
void eu_alloc_failures(const pc_program *desc, size_t min_failures);

/* Fails allocation n = 1, 2, ... (eu_tracking) of loading file and creating
 * "forward" until both succeed: each failure must be MemoryAllocationFailed,
 * leave a message in the method's handle when there is one, and leave
 * nothing live. The method that finally loads goes to run(m, user) with no
 * injection, then is destroyed, and nothing may stay live. Returns the
 * failures; *in_message counts the failed creates whose message holds
 * needle. 2 or 3 CHECKs per failure, 1 after the success, plus run's. */
size_t eu_load_failures(const uint8_t *file, size_t size, const char *needle, int *in_message,
                        void (*run)(ptera_method *m, void *user), void *user);

/* ---- values ---- */

pc_value eu_int(int64_t i);
/* A Float tensor of the given shape and storage, nothing else set. */
pc_value eu_tensor_f(pc_storage storage, uint8_t dim, const int32_t *sizes);
/* n rounded up to a multiple of 64 (offsets of planned tensors). */
size_t eu_up64(size_t n);
/* A planned fp32 tensor in memory buffer 1 at byte offset. */
pc_value eu_planned_f(int dim, const int32_t *sizes, uint64_t offset);
/* A Float [3] tensor: CONST holds data (12 bytes); PLANNED sits in arena 1 at
 * offset, with data (when not NULL) as its initial value; NONE: unplanned. */
pc_value eu_f3(pc_storage storage, const float *data, uint64_t offset);

/* ---- emit, parse, run (messages go to stderr on failure) ---- */

/* pc_emit_pte(desc, opt): the file (free with pt_free(NULL, .)) or NULL. 1 CHECK. */
uint8_t *eu_emit(const pc_program *desc, const pc_emit_options *opt, size_t *size);
/* pf_pte_parse into *pte, in an arena the caller set up and releases. 1 CHECK. */
bool eu_parse(const uint8_t *file, size_t size, pt_arena *arena, pf_pte *pte);
/* ptera_program_load_buffer: the program or NULL. 1 CHECK. */
ptera_program *eu_load(const uint8_t *file, size_t size);
/* ptera_method_create(prog, "forward"): the method or NULL. 1 CHECK. */
ptera_method *eu_open_forward(ptera_program *prog);
/* v is a Float tensor {a, b, c}. 2 CHECKs. */
void eu_check_f3(const ptera_value *v, float a, float b, float c);
/* Binds input 0 to x (Float [3]), executes once and checks output 0 is
 * {a, b, c}. 4 CHECKs. */
void eu_exec_x(ptera_method *m, const float *x, float a, float b, float c);
/* eu_open_forward, then eu_exec_x. 5 CHECKs. */
void eu_run_x(ptera_program *prog, const float *x, float a, float b, float c);

/* The tests' pseudo-random numbers (an LCG; *state is the test's seed, so
 * each test keeps its own repeatable sequence): 24 bits, a float in
 * [lo, hi) on a 1/65536 grid, an int in [lo, hi]. */
uint32_t eu_rand_u32(uint32_t *state);
float eu_frand(uint32_t *state, float lo, float hi);
int eu_irand(uint32_t *state, int lo, int hi);

#endif
