/* Reset for a bare Cortex-M (M4F, M55): the vector table, FPU access, .data
 * copied from its load address, .bss zeroed, then main. Symbols come from
 * the board's linker script (mps2_an386.ld, mps3_an547.ld). */
#include <stdint.h>
#include <string.h>

#include "semihost.h"

extern uint32_t _estack[], _sidata[], _sdata[], _edata[], _sbss[], _ebss[];
int main(void);

static void fault(void) {
  sh_puts("fault\n");
  sh_exit(1);
}

_Noreturn void reset_handler(void) {
  /* CPACR: full access to CP10 and CP11 (the FPU, and MVE on the M55). */
  *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
  memcpy(_sdata, _sidata, (size_t)((char *)_edata - (char *)_sdata));
  memset(_sbss, 0, (size_t)((char *)_ebss - (char *)_sbss));
  sh_exit(main() != 0);
}

/* Initial stack, reset, NMI, HardFault, MemManage, BusFault, UsageFault. */
__attribute__((section(".vectors"), used)) static void (*const vectors[])(void) = {
    (void (*)(void))_estack, (void (*)(void))reset_handler, fault, fault, fault, fault, fault,
};
