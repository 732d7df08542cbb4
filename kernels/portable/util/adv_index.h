/* Advanced (tensor) indexing shared by index.Tensor_out and index_put: a plan
 * maps each position of the indexed result to an element of self. */
#ifndef PK_ADV_INDEX_H
#define PK_ADV_INDEX_H

#include "portable/util/iter.h"

typedef struct pk_adv_group {
  const ptera_tensor *t; /* the index tensor (Long/Int values, or a Bool/Byte mask) */
  size_t first_dim;      /* first self dim it indexes */
  size_t ndims;          /* self dims it covers (mask rank; 1 for an integer index) */
  bool mask;
  const int64_t *coords; /* mask: count rows of ndims coordinates (scratch) */
  size_t count;          /* mask: number of true entries */
  int64_t bstride[PTERA_MAX_DIM]; /* per broadcast dim: element stride (or coords row stride) */
} pk_adv_group;

typedef struct pk_adv_plan {
  size_t ngroups;
  pk_adv_group g[PTERA_MAX_DIM];
  size_t bdim; /* the broadcast index shape */
  int32_t bsizes[PTERA_MAX_DIM];
  size_t rdim; /* the result shape */
  int32_t rsizes[PTERA_MAX_DIM];
  /* per result dim: a self dim (>= 0) or -1 - k for broadcast dim k */
  int rmap[PTERA_MAX_DIM];
} pk_adv_plan;

/* Validates indices (n entries, NULL = None) against self and builds the plan;
 * masks are expanded into scratch memory. */
PT_FUNC ptera_status pk_adv_plan_init(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *self,
                                      ptera_tensor *const *indices, size_t n, pk_adv_plan *p);
/* Element offset (in elements) into self of result position ridx[p->rdim];
 * InvalidArgument for an out-of-range index value. */
PT_FUNC ptera_status pk_adv_offset(ptera_kernel_ctx *ctx, const char *op, const pk_adv_plan *p,
                                   const ptera_tensor *self, const int64_t *ridx, ptrdiff_t *off);
/* Number of result positions of the plan; InvalidArgument when there are some but
 * self is empty, or when any index value is out of range (checks every position,
 * so callers may write afterwards without failing half way). */
PT_FUNC ptera_status pk_adv_validate(ptera_kernel_ctx *ctx, const char *op, const pk_adv_plan *p,
                                     const ptera_tensor *self, size_t *numel);
/* Logical multi-index of flat position n in sizes[dim]. */
PT_FUNC void pk_unflatten(size_t n, const int32_t *sizes, size_t dim, int64_t *idx);

#endif
