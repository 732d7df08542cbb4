/* Decoded bundled program (.bpte, BP08; BUNDLED.md). */
#ifndef PTERA_FORMAT_BPTE_H
#define PTERA_FORMAT_BPTE_H

#include "format/pte.h"

enum { PF_BVAL_TENSOR = 1, PF_BVAL_INT, PF_BVAL_BOOL, PF_BVAL_DOUBLE };

typedef struct pf_bvalue {
  uint8_t type; /* PF_BVAL_* */
  int64_t i;
  bool b;
  double d;
  /* TENSOR: */
  uint8_t scalar_type;
  uint8_t dim;
  int32_t sizes[PTERA_MAX_DIM];
  uint8_t dim_order[PTERA_MAX_DIM];
  pf_bytes data; /* length checked >= numel * element size */
  uint64_t nbytes;
} pf_bvalue;

typedef struct pf_bcase {
  pf_bvalue *inputs;
  uint32_t ninputs;
  pf_bvalue *outputs;
  uint32_t noutputs;
} pf_bcase;

typedef struct pf_bsuite {
  pf_str method;
  pf_bcase *cases;
  uint32_t ncases;
} pf_bsuite;

typedef struct pf_bpte {
  uint32_t version;
  pf_bytes program; /* the embedded .pte */
  pf_bsuite *suites;
  uint32_t nsuites;
} pf_bpte;

/* 1 when bytes 4..8 are BP08. */
PT_FUNC int pf_bpte_identify(const uint8_t *data, size_t size);
PT_FUNC ptera_status pf_bpte_parse(const uint8_t *data, uint64_t size, pt_arena *arena,
                                   pf_bpte *out, pt_err *err);

#endif
