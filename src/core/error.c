#include <stdarg.h>
#include <stdio.h>

#include "core.h"

ptera_status pt_fail(pt_err *e, ptera_status status, const char *fmt, ...) {
  if (e) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->status = status;
  }
  return status;
}

void pt_err_clear(pt_err *e) {
  e->status = PTERA_OK;
  e->msg[0] = '\0';
}

void pt_err_prefix(pt_err *e, const char *fmt, ...) {
  char prefix[PT_ERRMSG_SIZE];
  char old[PT_ERRMSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  memcpy(old, e->msg, sizeof old);
  snprintf(e->msg, sizeof e->msg, "%s: %s", prefix, old);
}
