/* Semihosting calls: r0 = operation, r1 = argument, then BKPT 0xAB
 * (the M-profile trap, Arm semihosting specification section 2). */
#include "semihost.h"

#define SYS_WRITE0 0x04
#define SYS_EXIT 0x18
#define ADP_STOPPED_APPLICATION_EXIT 0x20026
#define ADP_STOPPED_RUNTIME_ERROR_UNKNOWN 0x20023

static uint32_t semihost(uint32_t op, const void *arg) {
  register uint32_t r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void sh_puts(const char *s) { semihost(SYS_WRITE0, s); }

void sh_put_dec(int64_t v) {
  char buf[24];
  int i = (int)sizeof buf - 1;
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  buf[i] = '\0';
  do {
    buf[--i] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0) buf[--i] = '-';
  sh_puts(buf + i);
}

void sh_put_hex32(uint32_t v) {
  char buf[9];
  for (int i = 7; i >= 0; i--, v >>= 4) buf[i] = "0123456789abcdef"[v & 15];
  buf[8] = '\0';
  sh_puts(buf);
}

_Noreturn void sh_exit(int failed) {
  /* On AArch32 the argument is the reason code itself. */
  semihost(SYS_EXIT, (const void *)(uintptr_t)(failed ? ADP_STOPPED_RUNTIME_ERROR_UNKNOWN
                                                      : ADP_STOPPED_APPLICATION_EXIT));
  for (;;) {
  }
}
