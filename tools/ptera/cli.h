/* Shared pieces of the ptera command-line tool. */
#ifndef PTERA_CLI_H
#define PTERA_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ptera/ptera.h"

/* A subcommand: argv[0] is the subcommand name. Returns the exit status. */
int cli_run(int argc, char **argv);
int cli_inspect(int argc, char **argv);
int cli_verify(int argc, char **argv);
int cli_ops(int argc, char **argv);
int cli_compile(int argc, char **argv);
int cli_bench(int argc, char **argv);

/* True when the file at path starts like a bundled program (BP08). */
bool cli_is_bundle(const char *path);

/* Prints "ptera: <Status>: message" to stderr, the message escaped as by
 * cli_escape, and returns 1. Pass strings from files and users raw. */
int cli_error(ptera_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A status line on stderr, rewritten in place, when stderr is a terminal
 * (nothing otherwise); an empty text clears it, as cli_error does. The text
 * is escaped. */
void cli_progress(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Escaping (cli_escape.c). Every string from a file or the user goes through
 * these before it is printed: printable ASCII and well-formed UTF-8 as is, a
 * backslash doubled, and each byte of a control character (C0, DEL, C1), of
 * a bidirectional or line-separator control, or one that is not well-formed
 * UTF-8 as \xNN. */
/* Writes the escaped form of s[0..n) into buf (NUL-terminated, truncated to
 * cap) and returns its full length. */
size_t cli_escape(char *buf, size_t cap, const char *s, size_t n);
void cli_put(FILE *f, const char *s, size_t n);
/* A JSON string literal holding the escaped form (always valid JSON). */
void cli_put_json(FILE *f, const char *s, size_t n);
/* The escaped form in one of 8 rotating static buffers, for printf's %s
 * (cut with "[...]" past 2 KB). NULL prints as "". */
const char *cli_esc(const char *s, size_t n);
const char *cli_escz(const char *s);
/* Prints "ptera <cmd>: message" (escaped) to stderr and returns 2, the exit
 * status of a usage error. */
int cli_usage(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Option values (cli_args.c): each prints a usage error and returns 2 when v
 * is not a value of its kind, else stores it and returns 0. */
/* A decimal count 0..max (no sign, no spaces, no trailing text). */
int cli_parse_count(const char *cmd, const char *opt, const char *v, uint64_t max, uint64_t *out);
/* An argument that matched no option: the model path when it is the first,
 * else a usage error (an unknown option also prints help). Returns -1 to go
 * on, or 2, the exit status. */
int cli_positional(const char *cmd, const char *a, const char *help, const char **model);
/* A finite number >= 0. */
int cli_parse_nonneg(const char *cmd, const char *opt, const char *v, double *out);

/* A tensor held by the tool in logical (row-major) order. */
typedef struct cli_array {
  int dtype;       /* ptera_dtype, or -1 for a byte string */
  size_t dim;
  int32_t sizes[PTERA_MAX_DIM];
  void *data;      /* malloc'd */
  size_t nbytes;
} cli_array;

/* Reads an .npy file. expect_dtype picks between dtypes sharing a numpy
 * descr (BFloat16 vs UInt16); pass -1 when unknown. */
int cli_npy_load(const char *path, int expect_dtype, cli_array *out, char *msg, size_t msg_size);
/* Writes an .npy file from logical-order data. */
int cli_npy_save(const char *path, const cli_array *a, char *msg, size_t msg_size);

/* Calibration samples for `ptera compile --calibration DIR`: DIR holds one
 * subdirectory per sample (taken in name order), each holding input0.npy,
 * input1.npy, ... — the method's inputs, float32, in order. */
/* The samples as pc_calibration (compiler/calibrate.h) takes them. */
typedef struct cli_calibration {
  uint32_t nsamples, ninputs;
  cli_array *arrays;
  const float **data;
  size_t *numel;
} cli_calibration;

/* Returns 0, or 1 after reporting what is wrong with DIR. */
int cli_calibration_load(const char *dir, cli_calibration *out);
void cli_calibration_free(cli_calibration *c);

/* Copies between logical order and a tensor's memory order (dim order). */
void cli_to_memory_order(const ptera_tensor *t, const void *logical, void *memory);
void cli_from_memory_order(const ptera_tensor *t, const void *memory, void *logical);

/* Reads one element as double, for printing and comparisons. */
double cli_element(int dtype, const void *data, size_t index);
/* Prints "dtype[shape]" into buf. */
void cli_format_shape(char *buf, size_t cap, int dtype, size_t dim, const int32_t *sizes);

/* A loaded method with its inputs bound (cli_session.c), for run and bench. */
typedef struct cli_session {
  ptera_bundled *bundled; /* when the model is a .bpte: its embedded program runs */
  ptera_program *program;
  ptera_method *method;
  ptera_threadpool *pool; /* NULL: single-threaded */
  void **buffers; /* input data and output buffers the method points at */
  size_t nbuffers, cap;
  size_t noutput_buffers; /* buffers[0 .. noutput_buffers): kept for every execution */
} cli_session;

/* Loads model (.pte or .bpte), attaches the .ptd files, creates the method
 * on a pool of threads (0: all cores; 1: none) and gives unplanned outputs
 * memory. Errors are printed; returns 0 or an exit status. Call
 * cli_session_close afterwards in every case. */
int cli_session_open(cli_session *s, const char *model, const char *const *data, size_t ndata,
                     const char *method, size_t threads, uint32_t method_flags);
/* ptera_method_options.flags for --no-fuse (no_fuse), or when the
 * environment sets PTERA_NO_FUSE to anything but "" or "0" (for running a
 * test suite both ways). */
uint32_t cli_method_flags(bool no_fuse);
/* Threads the method runs on, the caller included. */
size_t cli_session_threads(const cli_session *s);
/* Binds every input: from files (one per input, in order) or, when files is
 * NULL, ones or (random) values seeded by seed. */
int cli_session_bind_inputs(cli_session *s, const char *const *files, bool random, uint64_t seed);
/* Frees the buffers of the last bound inputs. */
void cli_session_drop_inputs(cli_session *s);
void cli_session_close(cli_session *s);

/* Top-k (cli_topk.c). Writes the indices of the min(k, n) largest values
 * into idx, largest first; equal values keep the lower index first and NaN
 * ranks below every number. Returns the count, or -1 when out of memory. */
long cli_topk(const double *values, size_t n, size_t k, size_t *idx);
/* True for a floating-point output of shape [N] or [1, N], 2 <= N <= 100000. */
bool cli_topk_applies(int dtype, size_t dim, const int32_t *sizes);
/* Prints "output <i>: top-<k>: <idx> (<value %.4f>), ..." (nothing when
 * k or n is 0). Returns 0, or -1 when out of memory. */
int cli_topk_line(FILE *f, size_t output, const double *values, size_t n, size_t k);

#endif
