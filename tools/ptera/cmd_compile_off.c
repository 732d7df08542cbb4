/* ptera compile in a build without the compiler (PTERA_BUILD_COMPILER=OFF). */
#include "cli.h"

int cli_compile(int argc, char **argv) {
  (void)argc, (void)argv;
  return cli_error(PTERA_NOT_SUPPORTED,
                   "this ptera was built without the compiler (PTERA_BUILD_COMPILER=OFF); "
                   "rebuild with -DPTERA_BUILD_COMPILER=ON to compile .ptg files");
}
