/* ptera ops — every registered operator, one per line. */
#include <string.h>

#include "cli.h"

int cli_ops(int argc, char **argv) {
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    puts("usage: ptera ops\n\nPrints every registered operator name (ns::name.overload), one per line.");
    return 0;
  }
  if (argc > 1) return cli_usage("ops", "unexpected argument '%s'", argv[1]);
  size_t n = ptera_kernel_count();
  for (size_t i = 0; i < n; i++) {
    cli_put(stdout, ptera_kernel_name(i), strlen(ptera_kernel_name(i)));
    putchar('\n');
  }
  return 0;
}
