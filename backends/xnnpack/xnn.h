/* XnnpackBackend internals: the runtime graph built at init from a decoded
 * XNNGraph (format/xnngraph.h), shape propagation and per-node compute on
 * ptera's own kernels (XNNPACK.md §7-§9). Prefix px_.
 *
 * Each node family lives in its own file and provides a reshape function
 * (checks datatypes and input shapes, sets the output shapes; runs at init
 * with the stored shapes and again at every execute) and a run function
 * (computes, no allocation). */
#ifndef PX_XNN_H
#define PX_XNN_H

#include "core/core.h"
#include "format/xnngraph.h"
#include "ptera/backend.h"

typedef struct px_value {
  const pf_xnn_value *def;
  uint8_t dt;                    /* PF_XNN_DT_* */
  uint8_t ndims;
  size_t dims[PF_XNN_MAX_DIMS];  /* current shape, memory order */
  void *data;                    /* constant, internal buffer, or bound I/O tensor data */
  size_t cap;                    /* bytes available at data (internal values) */
  bool is_const;
  const float *scales;           /* per-channel scales (constant data or inline), nscales */
  uint32_t nscales;
  const uint16_t *bscales;       /* blockwise (qbint4) bf16 scales [oc][ic / group_size], nbscales */
  uint32_t nbscales;
} px_value;

typedef struct px_graph {
  pt_arena arena;                /* everything, including this struct */
  pf_xnn_graph g;
  px_value *v;                   /* one per graph value */
  uint32_t *inputs, *outputs;    /* value indices of the externals, sorted by external id */
  uint32_t ninputs, noutputs;
  uint32_t cur;                  /* node being reshaped/run (messages) */
  char *msg;                     /* where failures are described */
  size_t msg_size;
} px_graph;

typedef ptera_status (*px_reshape_fn)(px_graph *g, const pf_xnn_node *n);
typedef void (*px_run_fn)(px_graph *g, const pf_xnn_node *n);

/* Fails with "XNNPACK node <i> (<kind>): <message>". */
PT_FUNC ptera_status px_fail(px_graph *g, ptera_status st, const char *fmt, ...) PT_PRINTF(3, 4);

/* Bytes of a value of datatype dt with the given shape (4-bit types: packed
 * rows of ceil(last/2) bytes). False on overflow. */
PT_FUNC bool px_nbytes(uint8_t dt, const size_t *dims, unsigned ndims, size_t *out);
PT_FUNC size_t px_numel(const px_value *v);
/* Bits per element: 32, 16, 8 or 4. */
PT_FUNC unsigned px_elem_bits(uint8_t dt);
/* Fails unless v's datatype is dt. */
PT_FUNC ptera_status px_want_dt(px_graph *g, const px_value *v, uint8_t dt, const char *what);
/* Sets out's shape; fails if it would exceed an internal value's buffer. */
PT_FUNC ptera_status px_set_shape(px_graph *g, px_value *out, const size_t *dims, unsigned ndims);
PT_FUNC ptera_status px_same_shape(px_graph *g, px_value *out, const px_value *in);

static inline float px_clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* The node table: reshape and run of each node kind (NULL = unsupported). */
typedef struct px_node_impl {
  px_reshape_fn reshape;
  px_run_fn run;
} px_node_impl;
PT_FUNC const px_node_impl *px_node_impl_for(unsigned kind);

/* Node families (one file each). */
PT_FUNC ptera_status px_binary_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_binary_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_unary_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_unary_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_transpose_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_transpose_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_reshape_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_copy_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_slice_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_slice_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_pad_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_pad_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_concat_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_concat_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_softmax_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_softmax_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_conv2d_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_conv2d_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_deconv2d_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_deconv2d_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_fc_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_fc_run(px_graph *g, const pf_xnn_node *n);
/* Statically quantized FullyConnected (node_fc_quant.c), called by node_fc.c. */
PT_FUNC ptera_status px_fc_quant_check(px_graph *g, const pf_xnn_node *n, size_t oc);
PT_FUNC void px_fc_quant_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_bmm_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_bmm_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_pool_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_pool_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_gap_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_gap_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_resize_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_resize_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_convert_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_convert_run(px_graph *g, const pf_xnn_node *n);

/* Compute entry points FullyConnected and Conv2d use (one call site each),
 * to be replaced by kernels/cpu/gemm.h and conv_geom.h once those land.
 * y[m, o] = clamp(sum_k x[m, k] * w(o, k) + bias[o]); w(o, k) = w[o*ws_o + k*ws_k]. */
PT_FUNC void px_gemm_f32(size_t M, size_t N, size_t K, const float *x, const float *w, size_t ws_o,
                         size_t ws_k, const float *bias, float *y, float lo, float hi);

#endif
