/* Progress of a long command on a terminal: one status line on stderr,
 * rewritten in place, shown only when stderr is a terminal (never in pipes,
 * logs or tests). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int shown = -1; /* -1: not yet asked isatty */

void cli_progress(const char *fmt, ...) {
  if (shown < 0) shown = isatty(STDERR_FILENO) ? 1 : 0;
  if (!shown) return;
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fputs("\r\033[K", stderr);
  if (line[0]) cli_put(stderr, line, strlen(line));
  fflush(stderr);
}
