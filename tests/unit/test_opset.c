/* The target op sets (compiler/opset.h) against kernels/opsets.def and
 * OPS.md: names, membership of known operators in each set, and every
 * opsets.def entry being a registered kernel. */
#include <stdio.h>

#include "opset.h"
#include "runtime/tables.h"

#include "builtin.h"
#include "check.h"

static const char *const opsets_names[] = {
#define PTERA_OPSET(name, lib) name,
#include "opsets.def"
#undef PTERA_OPSET
};

static void test_names(void) {
  pc_opset s;
  const char *names[] = {"executorch-portable", "executorch-optimized", "ptera"};
  for (int i = 0; i < 3; i++) {
    CHECK(pc_opset_parse(names[i], &s) && (int)s == i);
    CHECK(strcmp(pc_opset_name(s), names[i]) == 0);
  }
  CHECK(!pc_opset_parse("portable", &s) && !pc_opset_parse("", &s) && !pc_opset_parse(NULL, &s));
}

/* OPS.md: addmm (section 1), a prim op (2), a quantized op (3) are portable;
 * linear.out is ExecuTorch's optimized library only; cadence:: is ptera's. */
static void test_membership(void) {
  const struct { const char *op; bool portable, optimized, ptera; } cases[] = {
      {"aten::addmm.out", true, true, true},
      {"aten::permute_copy.out", true, true, true},
      {"executorch_prim::add.Scalar", true, true, true},
      {"quantized_decomposed::quantize_per_tensor.out", true, true, true},
      {"aten::linear.out", false, true, true},
      {"cadence::quantize_per_tensor.out", false, false, true},
      {"aten::linear", false, false, false},
      {"custom::nothing.out", false, false, false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    CHECK(pc_opset_contains(PC_OPSET_EXECUTORCH_PORTABLE, cases[i].op) == cases[i].portable);
    CHECK(pc_opset_contains(PC_OPSET_EXECUTORCH_OPTIMIZED, cases[i].op) == cases[i].optimized);
    CHECK(pc_opset_contains(PC_OPSET_PTERA, cases[i].op) == cases[i].ptera);
  }
  CHECK(!pc_opset_contains(PC_OPSET_PTERA, NULL));
}

/* Each entry is registered (a typo would silently narrow a set), and the sets
 * nest: portable in optimized in ptera. */
static void test_table(void) {
  size_t n = sizeof opsets_names / sizeof *opsets_names, portable = 0;
  CHECK(n > 250);
  for (size_t i = 0; i < n; i++) {
    bool found = false;
    for (size_t k = 0; k < pk_builtin_kernel_count && !found; k++)
      found = strcmp(pk_builtin_kernels[k].name, opsets_names[i]) == 0;
    if (!found) fprintf(stderr, "opsets.def: '%s' is not in ops.def\n", opsets_names[i]);
    CHECK(found);
    CHECK(pc_opset_contains(PC_OPSET_EXECUTORCH_OPTIMIZED, opsets_names[i]));
    portable += pc_opset_contains(PC_OPSET_EXECUTORCH_PORTABLE, opsets_names[i]);
  }
  CHECK(portable == n - 1); /* all but linear.out */
  for (size_t k = 0; k < pk_builtin_kernel_count; k++) {
    const char *op = pk_builtin_kernels[k].name;
    CHECK(pc_opset_contains(PC_OPSET_PTERA, op));
    CHECK(!pc_opset_contains(PC_OPSET_EXECUTORCH_PORTABLE, op) ||
          pc_opset_contains(PC_OPSET_EXECUTORCH_OPTIMIZED, op));
  }
}

int main(void) {
  test_names();
  test_membership();
  test_table();
  return check_summary("opset");
}
