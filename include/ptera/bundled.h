/* ptera — bundled programs (.bpte): a program with test inputs and expected
 * outputs per method (docs/BUNDLED.md). */
#ifndef PTERA_BUNDLED_H
#define PTERA_BUNDLED_H

#include <stddef.h>

#include "method.h"
#include "program.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ptera_bundled ptera_bundled;

/* Loads a .bpte and its embedded program. Like the program loaders, returns
 * a handle in *out even on failure (read ptera_bundled_errmsg, destroy it). */
PTERA_API ptera_status ptera_bundled_load_file(const char *path, const ptera_load_options *options,
                                     ptera_bundled **out);
PTERA_API void ptera_bundled_destroy(ptera_bundled *bundled);
PTERA_API const char *ptera_bundled_errmsg(const ptera_bundled *bundled);

/* The embedded program (owned by the bundle). */
PTERA_API ptera_program *ptera_bundled_program(ptera_bundled *bundled);

/* Test suites, one per tested method. */
PTERA_API size_t ptera_bundled_suite_count(const ptera_bundled *bundled);
PTERA_API const char *ptera_bundled_suite_method(const ptera_bundled *bundled, size_t suite);
PTERA_API size_t ptera_bundled_case_count(const ptera_bundled *bundled, size_t suite);

/* Binds test case inputs to a method created from the embedded program. */
PTERA_API ptera_status ptera_bundled_set_inputs(ptera_bundled *bundled, ptera_method *method, size_t suite,
                                      size_t test_case);

/* Compares the method's outputs (after execute) with the expected ones:
 * floating dtypes element-wise |e - o| <= atol + rtol*|o| (NaN equals NaN,
 * equal infinities are equal), other dtypes bit-exact. NotFound on a
 * mismatch, with a message naming the output, element and values. */
PTERA_API ptera_status ptera_bundled_verify(ptera_bundled *bundled, const ptera_method *method, size_t suite,
                                  size_t test_case, double rtol, double atol);

#define PTERA_BUNDLED_DEFAULT_RTOL 1e-5
#define PTERA_BUNDLED_DEFAULT_ATOL 1e-8

#ifdef __cplusplus
}
#endif
#endif
