/* The .ptd writer (prefix pc_): named tensors into a FlatTensor file in the
 * current layout (docs/PTD.md §1-4: FH01 header, flat_tensor.fbs root, one
 * aligned segment per entry, named_data with TensorLayout). */
#ifndef PTERA_COMPILER_EMIT_PTD_H
#define PTERA_COMPILER_EMIT_PTD_H

#include "emit_pte.h"

typedef struct pc_ptd_entry {
  const char *key;  /* unique, non-empty */
  const void *data; /* nbytes, dense in dim order */
  size_t nbytes;    /* numel * element size */
  uint8_t scalar_type;
  uint8_t dim;
  const int32_t *sizes;     /* dim entries */
  const uint8_t *dim_order; /* dim entries, or NULL for contiguous */
} pc_ptd_entry;

/* Writes n entries as a .ptd into *out (options' allocator, 16-aligned; free
 * with pt_free). options may be NULL. The segment base and every segment
 * offset are multiples of max(segment_alignment (0 = 16), constant_alignment
 * (0 = 16), the tensor blob alignment); entries with identical bytes share
 * one segment. The root is the current FlatTensor (version 0, segments,
 * named_data; no legacy tensor_alignment field, docs/PTD.md §8). Duplicate or
 * empty keys, or a size that does not match the layout, give
 * InvalidArgument. */
PT_FUNC ptera_status pc_emit_ptd(const pc_ptd_entry *entries, uint32_t n,
                                 const pc_emit_options *options, uint8_t **out, size_t *out_size,
                                 pt_err *err);

#endif
