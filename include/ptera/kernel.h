/* ptera — the kernel interface. A kernel implements one operator overload
 * ("aten::add.out") over the method's values. */
#ifndef PTERA_KERNEL_H
#define PTERA_KERNEL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "tensor.h"
#include "threadpool.h" /* ptera_task_fn */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ptera_kernel_ctx ptera_kernel_ctx;

/* args holds nargs value pointers in schema order followed by the return
 * slot (docs/EXECUTION.md §7.1). A kernel validates its arguments, resizes its
 * outputs, computes, and returns PTERA_OK or a status set with
 * ptera_kernel_fail. Kernels never allocate from the heap; scratch comes
 * from ptera_kernel_temp. */
typedef ptera_status (*ptera_kernel_fn)(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs);

/* Records a message for the user (the runtime prefixes the op, method and
 * instruction) and returns status. In a PTERA_STRIP_MESSAGES build it is a
 * macro that records the status only (the format is never compiled in). */
#if PTERA_STRIP_MESSAGES
PTERA_API ptera_status ptera_kernel_fail_status(ptera_kernel_ctx *ctx, ptera_status status);
#define ptera_kernel_fail(ctx, status, ...) \
  (PTERA_DISCARD_MESSAGE(__VA_ARGS__), ptera_kernel_fail_status((ctx), (status)))
#else
PTERA_API ptera_status ptera_kernel_fail(ptera_kernel_ctx *ctx, ptera_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
#endif

/* Scratch memory valid until the kernel returns; NULL when the method's temp
 * arena is exhausted (fail with MemoryAllocationFailed then). */
PTERA_API void *ptera_kernel_temp(ptera_kernel_ctx *ctx, size_t size, size_t align);

/* The operator name being run ("aten::add.out"). */
PTERA_API const char *ptera_kernel_op_name(const ptera_kernel_ctx *ctx);

/* Splits [0, n) into chunks of at least grain items (0 counts as 1) over the
 * method's thread pool (ptera_threadpool_parallel_for) and returns when all
 * are done; with no pool (or a NULL ctx) it calls fn(arg, 0, n) inline.
 * Kernels split work; micro-kernels never see threads. */
PTERA_API void ptera_kernel_parallel_for(ptera_kernel_ctx *ctx, size_t n, size_t grain,
                                         ptera_task_fn fn, void *arg);
/* Threads a parallel_for may use, the caller included (>= 1). */
PTERA_API size_t ptera_kernel_thread_count(const ptera_kernel_ctx *ctx);

/* ---- kernel lifecycle: an optional prepare step at method load ---- */

#define PTERA_KERNEL_ABI_VERSION 2u

typedef struct ptera_kernel_prepare_ctx ptera_kernel_prepare_ctx;

/* Runs once at method load, after values are materialised: args as for the
 * run function, with static shapes; constant tensors carry PTERA_TENSOR_CONST
 * and point at their data (other tensors may have no data yet). Returning
 * PTERA_OK without setting a state is fine: the run function then gets
 * ptera_kernel_state() == NULL and takes its unprepared (portable) path. A
 * failure fails method create; the runtime prefixes method, instruction and
 * op to the message. */
typedef ptera_status (*ptera_kernel_prepare_fn)(ptera_kernel_prepare_ctx *ctx, ptera_value **args,
                                                size_t nargs);

/* Method-owned memory (zeroed, freed at method destroy, counted as packed
 * bytes), align a power of two up to 4096; NULL when out of memory. */
PTERA_API void *ptera_kernel_prepare_alloc(ptera_kernel_prepare_ctx *ctx, size_t size, size_t align);
/* The state this instruction's run function sees through ptera_kernel_state. */
PTERA_API void ptera_kernel_prepare_set_state(ptera_kernel_prepare_ctx *ctx, void *state);
/* Scratch this instruction takes from ptera_kernel_temp at run, including
 * the alignment padding between its requests (the arena starts 64-byte
 * aligned). The method's temp arena is sized from the largest declaration. */
PTERA_API void ptera_kernel_prepare_workspace(ptera_kernel_prepare_ctx *ctx, size_t bytes);
/* Records a message for the user and returns st (a macro recording the
 * status only with PTERA_STRIP_MESSAGES, like ptera_kernel_fail). */
#if PTERA_STRIP_MESSAGES
PTERA_API ptera_status ptera_kernel_prepare_fail_status(ptera_kernel_prepare_ctx *ctx, ptera_status st);
#define ptera_kernel_prepare_fail(ctx, st, ...) \
  (PTERA_DISCARD_MESSAGE(__VA_ARGS__), ptera_kernel_prepare_fail_status((ctx), (st)))
#else
PTERA_API ptera_status ptera_kernel_prepare_fail(ptera_kernel_prepare_ctx *ctx, ptera_status st,
                                                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
#endif
/* Threads the run function's parallel_for will have (the method's pool, >= 1). */
PTERA_API size_t ptera_kernel_prepare_thread_count(const ptera_kernel_prepare_ctx *ctx);
/* The operator being prepared ("aten::convolution.out"). */
PTERA_API const char *ptera_kernel_prepare_op_name(const ptera_kernel_prepare_ctx *ctx);

/* The state prepare set for this instruction; NULL when unprepared. */
PTERA_API void *ptera_kernel_state(const ptera_kernel_ctx *ctx);

typedef struct ptera_kernel_def {
  uint32_t abi_version;            /* PTERA_KERNEL_ABI_VERSION */
  const char *name;                /* "ns::op.overload" or "ns::op" */
  ptera_kernel_fn run;
  ptera_kernel_prepare_fn prepare; /* may be NULL */
} ptera_kernel_def;

/* Like ptera_kernel_register, for kernels with a prepare step. A def with
 * another abi_version gives NotSupported. */
PTERA_API ptera_status ptera_kernel_register_defs(const ptera_kernel_def *defs, size_t count);

typedef struct ptera_kernel_entry {
  const char *name; /* "ns::op.overload" or "ns::op" */
  ptera_kernel_fn fn;
} ptera_kernel_entry;

/* Adds user kernels (for custom ops) ahead of the built-in table. The array
 * must outlive every method loaded afterwards. Not thread-safe: register
 * before loading programs (ptera/ptera.h). Duplicate names give
 * RegistrationAlreadyRegistered; a full registry gives
 * RegistrationExceedingMaxKernels. */
PTERA_API ptera_status ptera_kernel_register(const ptera_kernel_entry *entries, size_t count);

/* Looks a kernel up by its full name; NULL if none. */
PTERA_API ptera_kernel_fn ptera_kernel_find(const char *name, size_t name_len);

/* Built-in and user kernels, for listing (index 0..count-1). */
PTERA_API size_t ptera_kernel_count(void);
PTERA_API const char *ptera_kernel_name(size_t index);

/* The names before 0.2 (ptera_<object>_<verb> since), kept for one release. */
PTERA_API PTERA_DEPRECATED("use ptera_kernel_register") ptera_status
ptera_register_kernels(const ptera_kernel_entry *entries, size_t count);
PTERA_API PTERA_DEPRECATED("use ptera_kernel_register_defs") ptera_status
ptera_register_kernel_defs(const ptera_kernel_def *defs, size_t count);
PTERA_API PTERA_DEPRECATED("use ptera_kernel_find") ptera_kernel_fn
ptera_find_kernel(const char *name, size_t name_len);

#ifdef __cplusplus
}
#endif
#endif
