/* Console and exit over Arm semihosting (QEMU: -semihosting-config
 * enable=on), with no C library stdio: text, decimal and hex only. */
#ifndef PTERA_EMBEDDED_SEMIHOST_H
#define PTERA_EMBEDDED_SEMIHOST_H

#include <stdint.h>

void sh_puts(const char *s);          /* no newline added */
void sh_put_dec(int64_t v);
void sh_put_hex32(uint32_t v);        /* 8 digits, no prefix */
_Noreturn void sh_exit(int failed);   /* 0: application exit (QEMU status 0) */

#endif
