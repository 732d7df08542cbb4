/* Decoded .ptd (FlatTensor, FT01) data file (docs/PTD.md), both layouts: the
 * current one (segments + named_data[TensorLayout]) and the pre-June-2025
 * one (tensor_alignment + tensors[TensorMetadata]). */
#ifndef PTERA_FORMAT_PTD_H
#define PTERA_FORMAT_PTD_H

#include "format/pte.h"

typedef struct pf_layout {
  bool present;
  uint8_t scalar_type;
  uint8_t dim;
  int32_t sizes[PTERA_MAX_DIM];
  uint8_t dim_order[PTERA_MAX_DIM];
  uint64_t nbytes;
} pf_layout;

typedef struct pf_ptd_entry {
  pf_str key;
  pf_bytes data;    /* the blob, checked to lie inside the file */
  pf_layout layout; /* present when the file gives one */
} pf_ptd_entry;

typedef struct pf_ptd {
  const uint8_t *file;
  uint64_t file_size;
  bool legacy; /* pre-June-2025 layout */
  uint64_t flatbuffer_size;
  uint64_t segment_base;
  uint64_t segment_data_size;
  pf_ptd_entry *entries;
  uint32_t nentries;
} pf_ptd;

/* 1 when bytes 4..8 are FT01. */
PT_FUNC int pf_ptd_identify(const uint8_t *data, size_t size);

/* Parses and verifies a whole .ptd. Errors are InvalidExternalData with a
 * message naming the problem (and the key, for a bad entry). */
PT_FUNC ptera_status pf_ptd_parse(const uint8_t *data, uint64_t size, pt_arena *arena, pf_ptd *out,
                                  pt_err *err);

/* Entry by key, or NULL. */
PT_FUNC const pf_ptd_entry *pf_ptd_find(const pf_ptd *d, const char *key, size_t key_len);

#endif
