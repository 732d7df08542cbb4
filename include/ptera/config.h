/* ptera — build configuration: every fixed limit of the library and the
 * build switches, in one place (in the manner of Lua's luaconf.h).
 *
 * Each limit may be overridden by defining it before this header is seen,
 * e.g. -DPTERA_ERRMSG_SIZE=128 on the compiler command line. Limits that
 * shape a public struct (PTERA_MAX_DIM, PTERA_ERRMSG_SIZE) must be the same
 * for the library and every program that uses its headers, so set them for
 * the whole build (CMAKE_C_FLAGS), not per file.
 *
 * The build switches come from CMake options, written into
 * ptera/config_build.h when the library is configured:
 *   PTERA_NO_FS=ON          no file system: no mmap, open or stdio in the
 *                           library; programs load from a buffer or a read
 *                           callback, and the *_file functions return
 *                           PTERA_NOT_SUPPORTED.
 *   PTERA_NO_HEAP=ON        no malloc: every byte comes from the allocator in
 *                           ptera_load_options / ptera_method_options (a
 *                           ptera_buffer_allocator over caller memory, alloc.h);
 *                           ptera_program_memory_needed and
 *                           ptera_method_memory_needed say exactly how much.
 *   PTERA_STRIP_MESSAGES=ON status codes only: no format strings are linked,
 *                           and the *_errmsg functions return the status name.
 *   PTERA_THREADS=OFF       no threads: the thread pool API runs loops inline.
 */
#ifndef PTERA_CONFIG_H
#define PTERA_CONFIG_H

#include "ptera/config_build.h"

/* ---- build switches (0 or 1; config_build.h sets them from CMake) ---- */
#ifndef PTERA_NO_FS
#define PTERA_NO_FS 0
#endif
#ifndef PTERA_NO_HEAP
#define PTERA_NO_HEAP 0
#endif
#ifndef PTERA_STRIP_MESSAGES
#define PTERA_STRIP_MESSAGES 0
#endif

/* With PTERA_STRIP_MESSAGES, the message functions are macros that keep
 * only the status: PTERA_DISCARD_MESSAGE names the format and its arguments
 * inside sizeof, so they are neither evaluated nor linked, yet variables
 * that only feed messages still count as used. ptera_discarded_message_ is
 * declared, never defined. */
#if PTERA_STRIP_MESSAGES
int ptera_discarded_message_(const char *fmt, ...);
#define PTERA_DISCARD_MESSAGE(...) ((void)sizeof(ptera_discarded_message_(__VA_ARGS__)))
#endif

/* ---- tensors ---- */
/* Largest tensor rank (ExecuTorch's kTensorDimensionLimit is 16). Sizes,
 * strides and dim order are stored inline in every tensor. */
#ifndef PTERA_MAX_DIM
#define PTERA_MAX_DIM 16
#endif

/* ---- messages ---- */
/* Bytes of the error message a program, a method and a backend call keep
 * (including the NUL); longer messages are truncated. With
 * PTERA_STRIP_MESSAGES the message is the status name, which fits in 32. */
#ifndef PTERA_ERRMSG_SIZE
#if PTERA_STRIP_MESSAGES
#define PTERA_ERRMSG_SIZE 32
#else
#define PTERA_ERRMSG_SIZE 512
#endif
#endif

/* ---- registries ---- */
/* Kernel tables ptera_register_kernels / ptera_register_kernel_defs accept. */
#ifndef PTERA_MAX_KERNEL_TABLES
#define PTERA_MAX_KERNEL_TABLES 16
#endif
/* Backends ptera_register_backend accepts (besides the built-in ones). */
#ifndef PTERA_MAX_BACKENDS
#define PTERA_MAX_BACKENDS 16
#endif

/* ---- loading: defaults of ptera_load_options (zero fields take these) ---- */
#ifndef PTERA_DEFAULT_MAX_FILE_SIZE
#define PTERA_DEFAULT_MAX_FILE_SIZE (4ull << 30)
#endif
#ifndef PTERA_DEFAULT_MAX_PLANNED_BYTES /* per method */
#define PTERA_DEFAULT_MAX_PLANNED_BYTES (8ull << 30)
#endif
#ifndef PTERA_DEFAULT_MAX_VALUES /* per method */
#define PTERA_DEFAULT_MAX_VALUES (16u << 20)
#endif
#ifndef PTERA_DEFAULT_MAX_INSTRUCTIONS /* per method */
#define PTERA_DEFAULT_MAX_INSTRUCTIONS (16u << 20)
#endif
/* FlatBuffer verification: the deepest table nesting, and the work budget
 * (tables visited, plus 8 per byte of the buffer) before a file counts as
 * too complex. */
#ifndef PTERA_FLATBUF_MAX_DEPTH
#define PTERA_FLATBUF_MAX_DEPTH 64
#endif
#ifndef PTERA_FLATBUF_MAX_TABLES
#define PTERA_FLATBUF_MAX_TABLES 1000000u
#endif
/* Smallest block the library's bump arenas take from the allocator (program
 * and method metadata are many small pieces). */
#ifndef PTERA_ARENA_BLOCK_MIN
#define PTERA_ARENA_BLOCK_MIN 4096u
#endif

/* ---- execution ---- */
/* Instructions one ptera_method_execute may run before it stops with
 * InvalidProgram (a jump loop that never ends). */
#ifndef PTERA_MAX_EXECUTED_INSTRUCTIONS
#define PTERA_MAX_EXECUTED_INSTRUCTIONS 10000000u
#endif
/* The kernel scratch (temp) arena when ptera_method_options.temp_size is 0:
 * the larger of the largest workspace a prepare step declared and a bound on
 * what the portable kernels take (method.c), plus PTERA_TEMP_SLACK, within
 * [PTERA_TEMP_MIN, PTERA_TEMP_PORTABLE_MAX] for the portable part. */
#ifndef PTERA_TEMP_MIN
#define PTERA_TEMP_MIN ((size_t)4 << 10)
#endif
#ifndef PTERA_TEMP_SLACK
#define PTERA_TEMP_SLACK ((size_t)1 << 10)
#endif
#ifndef PTERA_TEMP_PORTABLE_MAX
#define PTERA_TEMP_PORTABLE_MAX ((size_t)1 << 20)
#endif
/* Worker threads one ptera_threadpool may start. */
#ifndef PTERA_MAX_THREADS
#define PTERA_MAX_THREADS 256u
#endif

#endif
