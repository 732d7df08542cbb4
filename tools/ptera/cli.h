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

/* True when the file at path starts like a bundled program (BP08). */
bool cli_is_bundle(const char *path);

/* Prints "ptera: <Status>: message" to stderr and returns 1. */
int cli_error(ptera_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

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

/* Copies between logical order and a tensor's memory order (dim order). */
void cli_to_memory_order(const ptera_tensor *t, const void *logical, void *memory);
void cli_from_memory_order(const ptera_tensor *t, const void *memory, void *logical);

/* Reads one element as double, for printing and comparisons. */
double cli_element(int dtype, const void *data, size_t index);
/* Prints "dtype[shape]" into buf. */
void cli_format_shape(char *buf, size_t cap, int dtype, size_t dim, const int32_t *sizes);

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
