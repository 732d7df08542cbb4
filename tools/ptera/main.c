/* ptera — command-line entry point. */
#include <stdarg.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: ptera <command> [options]\n"
    "\n"
    "Runs ExecuTorch programs (.pte) with the ptera runtime, and compiles them.\n"
    "\n"
    "commands:\n"
    "  run MODEL.pte      run a method and print or save its outputs\n"
    "  inspect MODEL.pte  describe a program: header, methods, operators, memory\n"
    "  verify FILE.bpte   run a bundled program's test cases and compare outputs\n"
    "  ops                list every registered operator (--used: those programs call)\n"
    "  compile IN.ptg OUT.pte  compile a captured graph into a program\n"
    "  bench MODEL.pte    time a method: latency statistics, per-operator profile\n"
    "  help [COMMAND]     show help for a command\n"
    "  version, --version print the version of the ptera library\n"
    "\n"
    "'ptera COMMAND --help' shows the options of each command.\n";

int cli_error(ptera_status st, const char *fmt, ...) {
  char msg[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cli_progress("%s", ""); /* the message replaces a progress line */
  fprintf(stderr, "ptera: %s: ", ptera_status_name(st));
  cli_put(stderr, msg, strlen(msg));
  fputc('\n', stderr);
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage, stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    if (argc >= 3 && strcmp(cmd, "help") == 0) {
      char *sub[] = {argv[2], "--help"};
      argv = sub;
      argc = 2;
      cmd = argv[0];
      if (strcmp(cmd, "run") == 0) return cli_run(argc, argv);
      if (strcmp(cmd, "inspect") == 0) return cli_inspect(argc, argv);
      if (strcmp(cmd, "verify") == 0) return cli_verify(argc, argv);
      if (strcmp(cmd, "ops") == 0) return cli_ops(argc, argv);
      if (strcmp(cmd, "compile") == 0) return cli_compile(argc, argv);
      if (strcmp(cmd, "bench") == 0) return cli_bench(argc, argv);
    }
    fputs(usage, stdout);
    return 0;
  }
  if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
    printf("ptera %s\n", ptera_version());
    return 0;
  }
  if (strcmp(cmd, "run") == 0) return cli_run(argc - 1, argv + 1);
  if (strcmp(cmd, "inspect") == 0) return cli_inspect(argc - 1, argv + 1);
  if (strcmp(cmd, "verify") == 0) return cli_verify(argc - 1, argv + 1);
  if (strcmp(cmd, "ops") == 0) return cli_ops(argc - 1, argv + 1);
  if (strcmp(cmd, "compile") == 0) return cli_compile(argc - 1, argv + 1);
  if (strcmp(cmd, "bench") == 0) return cli_bench(argc - 1, argv + 1);
  fprintf(stderr, "ptera: unknown command '%s'\n\n%s", cli_escz(cmd), usage);
  return 2;
}
