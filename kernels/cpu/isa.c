/* CPU detection for the fast paths (see isa.h). */
#include "cpu/isa.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#define PK_X86 1
#elif defined(__aarch64__)
#define PK_ARM64 1
#if defined(__linux__)
#include <sys/auxv.h>
#endif
#endif

static const char *const pk_isa_names[PK_ISA_COUNT] = {"scalar", "avx2", "avx512", "neon"};

const char *pk_isa_name(pk_isa isa) { return (unsigned)isa < PK_ISA_COUNT ? pk_isa_names[isa] : "?"; }

#ifdef PK_X86
/* XCR0: which register states the OS saves (SSE|AVX = 0x6; + opmask, ZMM = 0xe0). */
static unsigned long long read_xcr0(void) {
  unsigned int lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((unsigned long long)hi << 32) | lo;
}

static bool cpu_has(pk_isa isa) {
  unsigned int a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  bool osxsave = (c >> 27) & 1, fma = (c >> 12) & 1, avx = (c >> 28) & 1;
  if (!osxsave || !avx) return false;
  unsigned long long xcr0 = read_xcr0();
  if ((xcr0 & 0x6) != 0x6) return false;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  bool avx2 = (b >> 5) & 1;
  if (isa == PK_ISA_AVX2) return avx2 && fma;
  if (isa == PK_ISA_AVX512) {
    bool f = (b >> 16) & 1, dq = (b >> 17) & 1, bw = (b >> 30) & 1, vl = (b >> 31) & 1;
    return avx2 && fma && f && dq && bw && vl && (xcr0 & 0xe0) == 0xe0;
  }
  return false;
}

static bool cpu_has_ext(pk_isa_ext ext) {
  unsigned int a, b, c, d;
  if (ext == PK_EXT_AVX512VNNI)
    return cpu_has(PK_ISA_AVX512) && __get_cpuid_count(7, 0, &a, &b, &c, &d) && ((c >> 11) & 1);
  if (ext == PK_EXT_AVXVNNI)
    return cpu_has(PK_ISA_AVX2) && __get_cpuid_count(7, 1, &a, &b, &c, &d) && ((a >> 4) & 1);
  return false;
}
#elif defined(PK_ARM64)
static bool cpu_has(pk_isa isa) { return isa == PK_ISA_NEON; /* AdvSIMD is mandatory on AArch64 */ }

static bool cpu_has_ext(pk_isa_ext ext) {
#if defined(__linux__)
  return ext == PK_EXT_DOTPROD && (getauxval(AT_HWCAP) & (1ul << 20)); /* HWCAP_ASIMDDP */
#else
  (void)ext;
  return false;
#endif
}
#endif

/* Bit e set: extension e is usable; detected once (cpuid is slow, and traps
 * in virtual machines), PTERA_ISA_EXT=none read then too. Several threads
 * may detect at once: they store the same value. */
static _Atomic int ext_bits = -1;

bool pk_isa_ext_available(pk_isa_ext ext) {
  int bits = atomic_load_explicit(&ext_bits, memory_order_relaxed);
  if (bits < 0) {
    const char *e = getenv("PTERA_ISA_EXT");
    bits = 0;
    (void)e; /* no extension to detect on other targets (Cortex-M) */
#if defined(PK_X86) || defined(PK_ARM64)
    for (int i = 0; i < PK_EXT_COUNT && !(e && strcmp(e, "none") == 0); i++)
      if (cpu_has_ext((pk_isa_ext)i)) bits |= 1 << i;
#endif
    atomic_store_explicit(&ext_bits, bits, memory_order_relaxed);
  }
  return (unsigned)ext < PK_EXT_COUNT && ((bits >> ext) & 1);
}

bool pk_isa_available(pk_isa isa) {
  switch (isa) {
    case PK_ISA_SCALAR: return true;
#ifdef PK_X86
    case PK_ISA_AVX2:
    case PK_ISA_AVX512: return cpu_has(isa);
#endif
#ifdef PK_ARM64
    case PK_ISA_NEON: return cpu_has(isa);
#endif
    default: return false;
  }
}

static pk_isa best_available(void) {
  static const pk_isa order[] = {PK_ISA_AVX512, PK_ISA_AVX2, PK_ISA_NEON};
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
    if (pk_isa_available(order[i])) return order[i];
  return PK_ISA_SCALAR;
}

/* The best available variant at or below the wanted one (avx512 -> avx2 -> scalar). */
static pk_isa fit(pk_isa want) {
  if (pk_isa_available(want)) return want;
  if (want == PK_ISA_AVX512 && pk_isa_available(PK_ISA_AVX2)) return PK_ISA_AVX2;
  if (want == PK_ISA_NEON || want == PK_ISA_AVX2 || want == PK_ISA_AVX512) return PK_ISA_SCALAR;
  return best_available();
}

/* Chosen on first use, which may be on several threads at once (methods run
 * concurrently): they all compute the same value. */
static _Atomic int selected = -1;

static pk_isa from_env(void) {
  const char *e = getenv("PTERA_ISA");
  if (e)
    for (int i = 0; i < PK_ISA_COUNT; i++)
      if (strcmp(e, pk_isa_names[i]) == 0) return fit((pk_isa)i);
  return best_available();
}

pk_isa pk_isa_selected(void) {
  int s = atomic_load_explicit(&selected, memory_order_relaxed);
  if (s < 0) {
    s = (int)from_env();
    atomic_store_explicit(&selected, s, memory_order_relaxed);
  }
  return (pk_isa)s;
}

pk_isa pk_isa_force(pk_isa isa) {
  int s = (int)((unsigned)isa < PK_ISA_COUNT ? fit(isa) : best_available());
  atomic_store_explicit(&selected, s, memory_order_relaxed);
  return (pk_isa)s;
}
