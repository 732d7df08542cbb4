/* ptera — dtypes, tensors and values, as kernels, backends and callers see them. */
#ifndef PTERA_TENSOR_H
#define PTERA_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ExecuTorch / PyTorch ScalarType codes. */
typedef enum ptera_dtype {
  PTERA_DTYPE_BYTE = 0,   /* uint8 */
  PTERA_DTYPE_CHAR = 1,   /* int8 */
  PTERA_DTYPE_SHORT = 2,  /* int16 */
  PTERA_DTYPE_INT = 3,    /* int32 */
  PTERA_DTYPE_LONG = 4,   /* int64 */
  PTERA_DTYPE_HALF = 5,   /* IEEE binary16 */
  PTERA_DTYPE_FLOAT = 6,
  PTERA_DTYPE_DOUBLE = 7,
  PTERA_DTYPE_COMPLEX_HALF = 8,
  PTERA_DTYPE_COMPLEX_FLOAT = 9,
  PTERA_DTYPE_COMPLEX_DOUBLE = 10,
  PTERA_DTYPE_BOOL = 11,
  PTERA_DTYPE_QINT8 = 12,
  PTERA_DTYPE_QUINT8 = 13,
  PTERA_DTYPE_QINT32 = 14,
  PTERA_DTYPE_BFLOAT16 = 15,
  PTERA_DTYPE_QUINT4X2 = 16,
  PTERA_DTYPE_QUINT2X4 = 17,
  PTERA_DTYPE_BITS1X8 = 18,
  PTERA_DTYPE_BITS2X4 = 19,
  PTERA_DTYPE_BITS4X2 = 20,
  PTERA_DTYPE_BITS8 = 21,
  PTERA_DTYPE_BITS16 = 22,
  PTERA_DTYPE_FLOAT8_E5M2 = 23,
  PTERA_DTYPE_FLOAT8_E4M3FN = 24,
  PTERA_DTYPE_FLOAT8_E5M2FNUZ = 25,
  PTERA_DTYPE_FLOAT8_E4M3FNUZ = 26,
  PTERA_DTYPE_UINT16 = 27,
  PTERA_DTYPE_UINT32 = 28,
  PTERA_DTYPE_UINT64 = 29,
  PTERA_DTYPE_COUNT = 30
} ptera_dtype;

/* Element size in bytes; 0 for a code outside 0..29. */
PTERA_API size_t ptera_dtype_size(int dtype);
/* "Float", "Long", ... ; "Unknown" outside 0..29. */
PTERA_API const char *ptera_dtype_name(int dtype);

/* IEEE binary16 and bfloat16 bits to and from float, rounding to nearest
 * even (NaN stays NaN, overflow gives infinity). */
PTERA_API float ptera_half_to_float(uint16_t bits);
PTERA_API uint16_t ptera_float_to_half(float value);
PTERA_API float ptera_bfloat16_to_float(uint16_t bits);
PTERA_API uint16_t ptera_float_to_bfloat16(float value);

typedef enum ptera_dynamism {
  PTERA_SHAPE_STATIC = 0,
  PTERA_SHAPE_DYNAMIC_BOUND = 1,
  PTERA_SHAPE_DYNAMIC_UNBOUND = 2
} ptera_dynamism;

/* A dense tensor. sizes are logical (PyTorch order); dim_order is the memory
 * order of dims, outermost first; strides are in elements, derived from both. */
typedef struct ptera_tensor {
  void *data;
  size_t numel;
  size_t capacity;      /* bytes reserved behind data (the bound for dynamic tensors) */
  int32_t sizes[PTERA_MAX_DIM];
  int32_t strides[PTERA_MAX_DIM];
  uint8_t dim_order[PTERA_MAX_DIM];
  uint8_t dim;
  uint8_t dtype;        /* ptera_dtype */
  uint8_t dynamism;     /* ptera_dynamism */
  uint8_t flags;        /* PTERA_TENSOR_* */
} ptera_tensor;

#define PTERA_TENSOR_PLANNED 1u  /* data lives in a planned buffer */
#define PTERA_TENSOR_CONST 2u    /* data is read-only program or .ptd data */

/* Bytes of data (numel * element size). */
PTERA_API size_t ptera_tensor_nbytes(const ptera_tensor *t);
/* Recomputes strides from sizes and dim_order (docs/EXECUTION.md §4.2). */
PTERA_API void ptera_tensor_update_strides(ptera_tensor *t);
/* Out-variant resize: STATIC needs equal sizes, DYNAMIC_BOUND needs the same
 * rank and numel within capacity. Returns NotSupported otherwise. */
PTERA_API ptera_status ptera_tensor_resize(ptera_tensor *t, size_t dim, const int32_t *sizes);
/* True when dim_order is 0..dim-1. */
PTERA_API bool ptera_tensor_is_contiguous(const ptera_tensor *t);

/* Value tags (ExecuTorch runtime tags). */
typedef enum ptera_tag {
  PTERA_TAG_NONE = 0,
  PTERA_TAG_TENSOR = 1,
  PTERA_TAG_STRING = 2,
  PTERA_TAG_DOUBLE = 3,
  PTERA_TAG_INT = 4,
  PTERA_TAG_BOOL = 5,
  PTERA_TAG_LIST_BOOL = 6,
  PTERA_TAG_LIST_DOUBLE = 7,
  PTERA_TAG_LIST_INT = 8,
  PTERA_TAG_LIST_TENSOR = 9,
  PTERA_TAG_LIST_OPTIONAL_TENSOR = 11
} ptera_tag;

PTERA_API const char *ptera_tag_name(int tag);

typedef struct ptera_value ptera_value;

/* One method value. Int lists are boxed: each item points at an Int value
 * and is read when used. Tensor lists point at Tensor values; an optional
 * tensor list item is NULL (or a None value) for None. */
struct ptera_value {
  uint8_t tag; /* ptera_tag */
  union {
    int64_t i;
    double d;
    bool b;
    ptera_tensor *tensor;
    struct { const char *ptr; size_t len; } str;
    struct { const double *items; size_t len; } doubles;
    struct { const uint8_t *items; size_t len; } bools;
    struct { ptera_value *const *items; size_t len; } list; /* ints, tensors, optional tensors */
  } u;
};

#ifdef __cplusplus
}
#endif
#endif
