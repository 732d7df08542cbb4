/* Verifying reader of XNNPACK delegate blobs (docs/XNNPACK.md §2-§6): the XH00
 * header, the XNNGraph flatbuffer (identifier XN01 or XN00) and legacy bare
 * XN00 blobs with inline constant_buffer storage. Every byte is read through
 * flatbuf.h; the decoded graph lives in the caller's arena and points into
 * the blob only for constant bytes and key strings.
 *
 * After pf_xnn_parse succeeds, every node operand is an index < nvalues
 * (or PF_XNN_NONE where the operand is optional), every value's
 * constant_idx is < nconsts, every external value's external_id is
 * < num_externs and unique, ranks are <= PF_XNN_MAX_DIMS, datatype and
 * quantization codes are known. Semantic checks (shapes, datatype
 * combinations) are the backend's. Prefix pf_xnn_. */
#ifndef PTERA_FORMAT_XNNGRAPH_H
#define PTERA_FORMAT_XNNGRAPH_H

#include "core/core.h"
#include "format/pte.h"

#define PF_XNN_MAX_DIMS 6          /* XNN_MAX_TENSOR_DIMS */
#define PF_XNN_MAX_EXTERNS 4096u
#define PF_XNN_NONE 0xffffffffu    /* XNN_INVALID_VALUE_ID */
#define PF_XNN_HEADER_SIZE 30u

/* XNNDatatype codes as stored (§5). */
enum {
  PF_XNN_DT_INVALID = 0, PF_XNN_DT_FP32, PF_XNN_DT_FP16, PF_XNN_DT_QINT8, PF_XNN_DT_QUINT8,
  PF_XNN_DT_QINT32, PF_XNN_DT_QCINT8, PF_XNN_DT_QCINT32, PF_XNN_DT_QCINT4, PF_XNN_DT_QDINT8,
  PF_XNN_DT_QBINT4, PF_XNN_DT_QPINT8, PF_XNN_DT_INT32, PF_XNN_DT_PFP32, PF_XNN_DT_BF16,
  PF_XNN_DT_COUNT
};

/* XNNQuantParams codes (0 = not quantized). */
enum { PF_XNN_Q_NONE = 0, PF_XNN_Q_PER_CHANNEL, PF_XNN_Q_PER_TENSOR, PF_XNN_Q_PER_TOKEN,
       PF_XNN_Q_CHANNEL_GROUP };

/* XNodeUnion codes (§3.3). */
enum {
  PF_XNN_ADD = 1, PF_XNN_FULLY_CONNECTED, PF_XNN_SOFTMAX, PF_XNN_SIGMOID, PF_XNN_STATIC_TRANSPOSE,
  PF_XNN_CLAMP, PF_XNN_CONV2D, PF_XNN_DIV, PF_XNN_RESIZE_BILINEAR, PF_XNN_CONSTANT_PAD,
  PF_XNN_AVG_POOL, PF_XNN_MINIMUM, PF_XNN_DEPTHWISE_CONV2D, PF_XNN_MAX_POOL, PF_XNN_MULTIPLY,
  PF_XNN_SUBTRACT, PF_XNN_FLOOR, PF_XNN_CONVERT, PF_XNN_GLOBAL_AVG_POOL, PF_XNN_STATIC_RESHAPE,
  PF_XNN_ARGMAX_POOL, PF_XNN_SQRT, PF_XNN_CEILING, PF_XNN_HARDSWISH, PF_XNN_LEAKY_RELU,
  PF_XNN_MAXIMUM, PF_XNN_NEGATE, PF_XNN_SQUARE, PF_XNN_ELU, PF_XNN_ABS, PF_XNN_PRELU,
  PF_XNN_CONCAT2, PF_XNN_CONCAT3, PF_XNN_CONCAT4, PF_XNN_STATIC_SLICE, PF_XNN_SDPA, PF_XNN_BMM,
  PF_XNN_CONCAT5, PF_XNN_CONV_TRANSPOSE2D, PF_XNN_RSQRT, PF_XNN_LOG, PF_XNN_GELU, PF_XNN_TANH,
  PF_XNN_EXP, PF_XNN_SIN, PF_XNN_COPY, PF_XNN_COS,
  PF_XNN_NODE_MAX = PF_XNN_COS
};

/* Node flags used by the writer (§8). */
#define PF_XNN_FLAG_TRANSPOSE_WEIGHTS 0x1u
#define PF_XNN_FLAG_ALIGN_CORNERS 0x8u
#define PF_XNN_FLAG_KEEP_DIMS 0x40u

/* Value flags. */
#define PF_XNN_VALUE_INPUT 0x1u
#define PF_XNN_VALUE_OUTPUT 0x2u

typedef struct pf_xnn_value {
  uint32_t id_out;
  uint8_t datatype;      /* PF_XNN_DT_*, never INVALID */
  uint8_t dq_datatype;   /* legacy dynamic-quant marker: 0 or PF_XNN_DT_QINT8 */
  uint8_t ndims;         /* <= PF_XNN_MAX_DIMS */
  uint32_t dims[PF_XNN_MAX_DIMS];
  uint32_t constant_idx; /* 0 = none; else < graph nconsts */
  uint32_t external_id;  /* < num_externs when flags != 0 */
  uint32_t flags;        /* PF_XNN_VALUE_INPUT or _OUTPUT or 0 */
  uint8_t quant;         /* PF_XNN_Q_* */
  float scale;           /* per tensor */
  int32_t zero_point;    /* per tensor */
  const float *scales;   /* inline per-channel / group scales (arena copy), nscales entries */
  uint32_t nscales;
  const uint16_t *scales_bf16; /* legacy inline bf16 group scales (arena copy), nscales_bf16 */
  uint32_t nscales_bf16;
  int32_t channel_dim;
  uint32_t scale_buffer_idx; /* 0 = inline scales; else < graph nconsts */
  uint32_t num_scales;
  int32_t group_size;
  int32_t num_nonbatch_dims;
} pf_xnn_value;

#define PF_XNN_MAX_NODE_IN 5
#define PF_XNN_MAX_NODE_PARAMS 15

typedef struct pf_xnn_node {
  uint8_t kind;          /* PF_XNN_ADD .. PF_XNN_COS */
  uint32_t debug_handle;
  bool has_min_max;
  float out_min, out_max; /* (-inf, inf) when the table is absent */
  uint8_t nin, nout;
  uint32_t in[PF_XNN_MAX_NODE_IN]; /* value indices; PF_XNN_NONE for an absent bias/mask */
  uint32_t out[2];
  uint32_t flags;
  /* Leading uint fields of the node table, in schema order (conv: padding
   * top,right,bottom,left, kernel h,w, subsampling h,w, dilation h,w,
   * group in/out channels, groups, adjustment h,w; pooling: padding t,r,b,l,
   * pooling h,w, stride h,w, dilation h,w; transpose/reshape/slice:
   * num_dims; resize: new h,w; cat: axis). */
  uint32_t p[PF_XNN_MAX_NODE_PARAMS];
  float f;               /* ELU alpha, LeakyReLU slope, pad value */
  const uint32_t *v0, *v1; /* perm/new_shape/offsets/pre, sizes/post (arena copies) */
  uint32_t n0, n1;
} pf_xnn_node;

typedef struct pf_xnn_const {
  bool named;            /* look up key in the named data */
  pf_str key;
  const uint8_t *data;   /* when !named: into the blob (may be unaligned) */
  uint64_t size;
} pf_xnn_const;

typedef struct pf_xnn_graph {
  bool has_header;       /* XH00 blob (else legacy bare flatbuffer) */
  char ident[5];         /* "XN01" or "XN00" */
  uint32_t num_externs;
  pf_xnn_value *values;
  uint32_t nvalues;
  pf_xnn_node *nodes;
  uint32_t nnodes;
  pf_xnn_const *consts;  /* header: constant_data; legacy: constant_buffer */
  uint32_t nconsts;
} pf_xnn_graph;

/* Field layout of a node table (§3.3): nparam leading uint fields (ids
 * 0..nparam-1), a float field, up to two [uint] vectors, the operand fields
 * and the flags field. Shared by the reader and the test-side writer
 * (compiler/emit_xnn.c). */
typedef struct pf_xnn_layout {
  uint8_t nparam;
  int8_t f32;       /* field id or -1 */
  int8_t vec[2];    /* field ids or -1 */
  uint8_t nin;
  uint8_t in[PF_XNN_MAX_NODE_IN];
  uint8_t opt_mask; /* bit i: input i may be PF_XNN_NONE */
  uint8_t nout;
  uint8_t out[2];
  uint8_t flags;
} pf_xnn_layout;

/* NULL for ScaledDotProductAttention and unknown kinds. */
PT_FUNC const pf_xnn_layout *pf_xnn_node_layout(unsigned kind);

/* Decodes blob[0..size). Errors: InvalidArgument (header bounds),
 * DelegateInvalidCompatibility (identifier, flatbuffer structure),
 * InvalidProgram (graph contents), NotImplemented (unsupported node kind,
 * named), MemoryAllocationFailed. Messages name the node index and kind or
 * the value index. */
PT_FUNC ptera_status pf_xnn_parse(const uint8_t *blob, size_t size, pt_arena *arena,
                                  pf_xnn_graph *out, pt_err *err);

/* "XNNConv2d", ...; "unknown" outside 1..PF_XNN_NODE_MAX. */
PT_FUNC const char *pf_xnn_node_name(unsigned kind);
/* "fp32", "qint8", ...; "invalid" outside the table. */
PT_FUNC const char *pf_xnn_dtype_name(unsigned dt);

#endif
