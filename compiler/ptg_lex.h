/* Token-level helpers shared by the PTG reader and writer (docs/PTG.md):
 * number parsing over (pointer, length) tokens and %XX escaping. */
#ifndef PTERA_COMPILER_PTG_LEX_H
#define PTERA_COMPILER_PTG_LEX_H

#include "core/core.h"

typedef struct pc_tok {
  const char *p;
  size_t n;
} pc_tok;

/* True when t spells the NUL-free C string s. */
PT_FUNC bool pc_tok_is(pc_tok t, const char *s);
/* A decimal int64 ("-" sign allowed, no "+", no leading spaces). */
PT_FUNC bool pc_tok_i64(pc_tok t, int64_t *out);
/* A decimal uint64 without sign. */
PT_FUNC bool pc_tok_u64(pc_tok t, uint64_t *out);
/* A finite decimal double, or inf, -inf, nan. */
PT_FUNC bool pc_tok_double(pc_tok t, double *out);
/* Decodes %XX escapes into a NUL-terminated string of at most t.n bytes
 * (dst has room for t.n + 1). False on a bad escape or an escaped NUL. */
PT_FUNC bool pc_tok_unescape(pc_tok t, char *dst);
/* Bytes outside '!'..'~' and '%' are written %XX; returns the encoded
 * length. dst (when non-NULL) has room for 3 * strlen(s) bytes. */
PT_FUNC size_t pc_escape(const char *s, char *dst);
/* The ptera_dtype named by t (as ptera_dtype_name spells it), or -1. */
PT_FUNC int pc_tok_dtype(pc_tok t);

#endif
