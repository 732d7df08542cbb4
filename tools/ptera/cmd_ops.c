/* ptera ops — every registered operator, one per line. */
#include <string.h>

#include "cli.h"

int cli_ops(int argc, char **argv) {
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    puts("usage: ptera ops\n\nPrints every registered operator name (ns::name.overload), one per line.");
    return 0;
  }
  if (argc > 1) {
    fprintf(stderr, "ptera ops: unexpected argument '%s'\n", argv[1]);
    return 2;
  }
  size_t n = ptera_kernel_count();
  for (size_t i = 0; i < n; i++) puts(ptera_kernel_name(i));
  return 0;
}
