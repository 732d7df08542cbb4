/* Helpers shared by the tests that compile a hand-built graph and run the
 * program (test_to_xnnpack, test_fold_bn, test_view_elide, test_constprop,
 * test_fuse_linear; linked into those, see CMakeLists.txt): Float tensors of
 * a graph, compiling a one-method module, then loading it and running
 * "forward" on one Float input through the public API. Each helper says how
 * many CHECKs it makes; messages go to stderr on failure. */
#ifndef PTERA_TEST_COMPILE_UTIL_H
#define PTERA_TEST_COMPILE_UTIL_H

#include <stdbool.h>

#include "compile.h"
#include "ptera/ptera.h"

/* A Float constant of sizes[dim] holding data[n]; a Float activation. */
int32_t cu_fconst(pc_graph *g, uint32_t dim, const int32_t *sizes, const float *data, size_t n);
int32_t cu_fact(pc_graph *g, uint32_t dim, const int32_t *sizes);

/* Compile options with every field zero but the backend. */
pc_compile_options cu_options(pc_backend backend);

/* pc_compile of the module {g} (method "forward") under o into *r; free r
 * with pc_compile_result_free when this returns true. 1 CHECK. */
bool cu_compile(pc_graph *g, const pc_compile_options *o, pc_compile_result *r);

/* Loads r's program, creates "forward", binds input 0 to the Float tensor x
 * of sizes[dim] and executes. Returns output 0 when it is a tensor of numel
 * elements, else NULL. *prog and *m are what was loaded: destroy both
 * when done (also after a failure). 2 CHECKs: the run, then output 0. */
const ptera_tensor *cu_run_forward(const pc_compile_result *r, const float *x, uint8_t dim,
                                   const int32_t *sizes, size_t numel, ptera_program **prog,
                                   ptera_method **m);

#endif
