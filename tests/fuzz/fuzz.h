/* Fuzz harness entry points and shared checking helpers (test code only).
 *
 * Each harness is a plain function, ptera_fuzz_<name>(data, size), that
 * returns 0 and aborts on a broken invariant. The libFuzzer build wraps it
 * in LLVMFuzzerTestOneInput (PTERA_LIBFUZZER); tests/fuzz/replay.c calls the
 * same function on every file under tests/fuzz/regressions/<name>/. */
#ifndef PTERA_FUZZ_H
#define PTERA_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptera/ptera.h"

int ptera_fuzz_pte(const uint8_t *data, size_t size);
int ptera_fuzz_ptd(const uint8_t *data, size_t size);
int ptera_fuzz_bpte(const uint8_t *data, size_t size);
int ptera_fuzz_npy(const uint8_t *data, size_t size);
int ptera_fuzz_load_execute(const uint8_t *data, size_t size);
int ptera_fuzz_ptg(const uint8_t *data, size_t size);
int ptera_fuzz_compile(const uint8_t *data, size_t size);
int ptera_fuzz_xnngraph(const uint8_t *data, size_t size);
int ptera_fuzz_xnn_delegate(const uint8_t *data, size_t size);

/* Fails the run: the library broke a promise its headers make. */
#define FZ_REQUIRE(cond)                                                               \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #cond);     \
      abort();                                                                         \
    }                                                                                  \
  } while (0)

static volatile uint8_t fz_sink;

/* Reads the first and last byte of [p, p+n) so ASan sees any bytes the
 * library claims are there but are not. */
static inline void fz_touch(const void *p, uint64_t n) {
  if (n == 0) return;
  FZ_REQUIRE(p != NULL);
  const volatile uint8_t *b = (const volatile uint8_t *)p;
  fz_sink ^= (uint8_t)(b[0] ^ b[n - 1]);
}

/* A checked string: NUL at len, no earlier NUL is fine (flatbuffer strings
 * may hold one) but the terminator must be there. */
static inline void fz_str(const char *p, uint64_t len) {
  if (!p) return;
  fz_touch(p, len + 1);
  FZ_REQUIRE(p[len] == '\0');
}

/* A 16-byte aligned copy of exactly size bytes (so ASan flags any read
 * past the end), as the runtime hands its readers. Free with free(). */
static inline uint8_t *fz_aligned_copy(const uint8_t *data, size_t size) {
  void *p = NULL;
  if (posix_memalign(&p, 16, size ? size : 1) != 0) return NULL;
  if (size) memcpy(p, data, size);
  return (uint8_t *)p;
}

/* Fills an input tensor's nbytes-byte buffer with values of dtype. */
typedef void (*fz_fill_fn)(uint8_t *buf, size_t nbytes, int dtype);

/* fuzz_program.c: reads every byte a value claims to hold (tensor data,
 * strings, double and bool lists; list items' tags). */
void fz_touch_value(const ptera_value *v);

/* fuzz_program.c: creates method `name` of p (64 KiB temp), binds tensor
 * inputs filled by `fill` and buffers for unplanned outputs (4 MiB cap
 * each, at most 64 of each), executes (twice for methods with at most
 * 64 KiB of bound I/O), touches the outputs and destroys it. Any failure
 * must leave an error message. */
void fz_run_method(ptera_program *p, const char *name, fz_fill_fn fill);

#ifdef PTERA_LIBFUZZER
#define PTERA_FUZZ_MAIN(name)                                                          \
  int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);                        \
  int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {                       \
    return ptera_fuzz_##name(data, size);                                              \
  }
#else
#define PTERA_FUZZ_MAIN(name)
#endif

#endif
