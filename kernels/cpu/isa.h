/* The instruction sets the fast paths choose between, found at run time.
 *
 * pk_isa_selected() detects the CPU once (cpuid/xgetbv on x86-64, HWCAP on
 * Linux AArch64) and returns the best variant this build has for it, unless
 * a variant was forced: by pk_isa_force() (tests) or, once at first use, by
 * the environment variable PTERA_ISA=scalar|avx2|avx512|neon. A forced
 * variant the CPU (or build) lacks falls back to the best one available, so
 * forcing never selects code that cannot run. Prefix pk_. */
#ifndef PK_CPU_ISA_H
#define PK_CPU_ISA_H

#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"

typedef enum pk_isa {
  PK_ISA_SCALAR = 0,
  PK_ISA_AVX2 = 1,   /* AVX2 + FMA (x86-64) */
  PK_ISA_AVX512 = 2, /* AVX-512 F, BW, DQ, VL (x86-64) */
  PK_ISA_NEON = 3,   /* AdvSIMD (AArch64) */
  PK_ISA_COUNT
} pk_isa;

/* Bytes of data a core's own caches are taken to hold (the L2 of the cores
 * targeted is 1 MiB or more): a kernel's share of more than this is read
 * from, or written to, memory. The convolution streams outputs past the
 * caches above it, and the max pool after one then splits by planes. */
#define PK_CORE_CACHE_BYTES ((size_t)1 << 20)

/* Whether this CPU can run variant isa and this build contains it. */
PT_FUNC bool pk_isa_available(pk_isa isa);
/* The variant in use (detected once; forcing overrides). */
PT_FUNC pk_isa pk_isa_selected(void);
/* Forces a variant (PK_ISA_COUNT restores detection); returns the one now
 * selected, which is the best available one if isa is not. Not thread-safe:
 * call before running kernels (tests do). */
PT_FUNC pk_isa pk_isa_force(pk_isa isa);
/* "scalar", "avx2", "avx512", "neon". */
PT_FUNC const char *pk_isa_name(pk_isa isa);

/* Extensions some micro-kernels use on top of a variant, detected the same
 * way. A kernel for one is chosen only when the selected variant is its base
 * and pk_isa_ext_available says yes; the environment variable
 * PTERA_ISA_EXT=none (read once) turns every extension off, so tests reach
 * the base kernels on any CPU. */
typedef enum pk_isa_ext {
  PK_EXT_AVX512VNNI = 0, /* AVX512-VNNI (vpdpbusd on zmm), base avx512 */
  PK_EXT_AVXVNNI = 1,    /* AVX-VNNI (VEX vpdpbusd on ymm), base avx2 or avx512 */
  PK_EXT_DOTPROD = 2,    /* Armv8.2 DotProd (sdot), base neon */
  PK_EXT_COUNT
} pk_isa_ext;
PT_FUNC bool pk_isa_ext_available(pk_isa_ext ext);

#endif
