/* Internal state of the PTG reader, shared by ptg_read.c (lines, methods,
 * nodes) and ptg_value.c (value lines). */
#ifndef PTERA_COMPILER_PTG_READ_H
#define PTERA_COMPILER_PTG_READ_H

#include "ptg.h"
#include "ptg_lex.h"

/* Names are checked for duplicates pairwise; real programs have a few. */
#define PC_PTG_MAX_METHODS 10000

typedef struct pc_rd {
  const ptera_allocator *allocator;
  pt_err *err;
  pc_module *out;
  uint32_t methods_cap;
  size_t text_end;       /* end of the text lines (start of the data line) */
  const uint8_t *data;   /* the data section */
  size_t data_size;
  bool has_data;
  unsigned data_line;
  unsigned line;         /* 1-based line being parsed */
  pc_graph *g;           /* the method being parsed */
  bool have_inputs, have_outputs;
  uint32_t depth;        /* open begin regions */
  pc_tok *toks;          /* the tokens of the current line */
  size_t ntoks, toks_cap;
  void *scratch;         /* reused per line */
  size_t scratch_cap;
} pc_rd;

/* InvalidArgument with "line N: " and the message. */
PT_FUNC ptera_status pc_rd_fail(pc_rd *r, const char *fmt, ...) PT_PRINTF(2, 3);
/* The graph's own error, with the line prefixed. */
PT_FUNC ptera_status pc_rd_graph_fail(pc_rd *r);
PT_FUNC ptera_status pc_rd_oom(pc_rd *r);
/* Per-line scratch of count * elem bytes (16-aligned); NULL on OOM. */
PT_FUNC void *pc_rd_scratch(pc_rd *r, size_t count, size_t elem);
/* A declared value id; on failure sets the error and returns false. */
PT_FUNC bool pc_rd_id(pc_rd *r, pc_tok t, int32_t *out, const char *what);
/* A `value` line. */
PT_FUNC ptera_status pc_rd_value(pc_rd *r);

#endif
