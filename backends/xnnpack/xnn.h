/* XnnpackBackend internals: the runtime graph built at init from a decoded
 * XNNGraph (format/xnngraph.h), shape propagation and per-node compute on
 * ptera's own kernels (docs/XNNPACK.md §7-§9). Prefix px_.
 *
 * Each node family lives in its own file and provides a reshape function
 * (checks datatypes and input shapes, sets the output shapes and the
 * scratch its run takes; runs at init with the stored shapes and again at
 * every execute), a run function (computes, no allocation, scratch from the
 * exec ctx's temp, work split over its thread pool) and optionally a
 * prepare step (init: packs constant weights for the shared kernels of
 * kernels/cpu). fp16/bf16 operands of float nodes are widened to fp32
 * copies in the scratch around run and rounded back (px_widen). */
#ifndef PX_XNN_H
#define PX_XNN_H

#include "core/core.h"
#include "format/xnngraph.h"
#include "ptera/backend.h"
#include "runtime/kernel_ctx.h"

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
  bool nchw;                     /* fp32 held in NCHW order between NCHW-route convolutions (xnn_residency.c) */
  bool view;                     /* written by a link of a transpose chain folded into the BatchMatrixMultiply
                                    nodes that read its end (xnn_fold_transpose.c): never written */
  uint32_t view_src;             /* view: the value the chain starts from */
  uint8_t view_perm[PF_XNN_MAX_DIMS]; /* the chain's end: its dim d is view_src's dim view_perm[d] */
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
  void **state;                  /* per node: what its prepare step packed, or NULL */
  size_t *ws;                    /* per node: scratch bytes its run takes (set by reshape) */
  bool sizing;                   /* init's sizing pass: needs grow the bounds instead of failing */
  size_t temp_need;              /* bytes of scratch the largest node takes (widening included) */
  uint8_t *temp;                 /* execute: the exec ctx's scratch, temp_size bytes */
  size_t temp_size;
  size_t nthreads;               /* threads the workspaces are sized for */
  uint64_t packed_bytes;         /* what prepare steps allocated (weights packed at init) */
  bool nchw_pref;                /* some convolution runs the NCHW route: the others take it where they can */
  ptera_kernel_ctx kctx;         /* carries the thread pool to the shared kernels */
} px_graph;

typedef ptera_status (*px_reshape_fn)(px_graph *g, const pf_xnn_node *n);
typedef void (*px_run_fn)(px_graph *g, const pf_xnn_node *n);
/* Runs once at init after the sizing pass: packs constant operands. */
typedef ptera_status (*px_prepare_fn)(px_graph *g, const pf_xnn_node *n);

/* Fails with "XNNPACK node <i> (<kind>): <message>". */
#if PTERA_STRIP_MESSAGES
/* Status codes only: the message is the status name; the format and its
 * arguments are dropped at the call site. */
PT_FUNC ptera_status px_fail_status(px_graph *g, ptera_status st);
#define px_fail(g, st, ...) (PTERA_DISCARD_MESSAGE(__VA_ARGS__), px_fail_status((g), (st)))
#else
PT_FUNC ptera_status px_fail(px_graph *g, ptera_status st, const char *fmt, ...) PT_PRINTF(3, 4);
#endif

/* Bytes of a value of datatype dt with the given shape (4-bit types: packed
 * rows of ceil(last/2) bytes). False on overflow. */
PT_FUNC bool px_nbytes(uint8_t dt, const size_t *dims, unsigned ndims, size_t *out);
PT_FUNC size_t px_numel(const px_value *v);
/* Bits per element: 32, 16, 8 or 4. */
PT_FUNC unsigned px_elem_bits(uint8_t dt);
/* Fails unless v's datatype is dt. */
PT_FUNC ptera_status px_want_dt(px_graph *g, const px_value *v, uint8_t dt, const char *what);
/* Fails unless v is fp32, fp16 or bf16 (nodes compute in fp32; the run loop
 * widens fp16/bf16 operands around them, §5). */
PT_FUNC ptera_status px_want_float(px_graph *g, const px_value *v, const char *what);
static inline bool px_is_half(uint8_t dt) { return dt == PF_XNN_DT_FP16 || dt == PF_XNN_DT_BF16; }
/* Declares that the current node's run takes bytes of scratch (px_ws); the
 * reshape pass checks it fits the execute's scratch (init: sizes it). */
PT_FUNC ptera_status px_need_ws(px_graph *g, size_t bytes);
/* The current node's scratch (64-byte aligned; px_need_ws bytes). */
static inline void *px_ws(px_graph *g) { return g->temp; }
/* Memory for a prepare step: 64-byte aligned, zeroed, owned by the handle,
 * counted as packed bytes. NULL (with the message set) when out of memory. */
PT_FUNC void *px_packed_alloc(px_graph *g, size_t bytes);
/* A constant's values as fp32: its data when fp32, else a converted copy
 * the caller releases with px_f32_release. NULL when out of memory. */
PT_FUNC const float *px_const_f32(px_graph *g, const px_value *v);
PT_FUNC void px_f32_release(px_graph *g, const px_value *v, const float *p);
/* The first n elements of constant v as fp32, copied into packed memory the
 * delegate owns (a bias kept for the node's run); NULL when out of memory. */
PT_FUNC float *px_const_f32_copy(px_graph *g, const px_value *v, size_t n);
/* Threads the kernels split work over, the caller included. */
static inline size_t px_threads(const px_graph *g) { return g->nthreads; }
static inline ptera_kernel_ctx *px_kctx(px_graph *g) { return &g->kctx; }
/* Elements per task below which elementwise nodes stay on one thread. */
#define PX_ELEM_GRAIN ((size_t)16384)
/* Bytes of an fp32 [a, b, c, d] array, rounded up to 64; false on overflow. */
PT_FUNC bool px_f32_bytes4(size_t a, size_t b, size_t c, size_t d, size_t *out);
/* Float layout copies (xnn_layout.c). to_nchw and nhwc_pad pad each image
 * with zeros (pad t, b, l, r); to_nhwc keeps the first oh x ow of each plane.
 * The NHWC <-> NCHW copies split rows over ctx's threads. */
PT_FUNC void px_nhwc_to_nchw(const float *in, size_t n, size_t h, size_t w, size_t c, const size_t pad[4],
                             float *out, ptera_kernel_ctx *ctx);
PT_FUNC void px_nchw_to_nhwc(const float *in, size_t n, size_t c, size_t h, size_t w, size_t oh, size_t ow,
                             float *out, ptera_kernel_ctx *ctx);
PT_FUNC void px_nhwc_pad(const float *in, size_t n, size_t h, size_t w, size_t c, const size_t pad[4], float *out);
/* Sets out's shape; fails if it would exceed an internal value's buffer. */
PT_FUNC ptera_status px_set_shape(px_graph *g, px_value *out, const size_t *dims, unsigned ndims);
PT_FUNC ptera_status px_same_shape(px_graph *g, px_value *out, const px_value *in);

/* The taps [k0, k1) of a k-tap window at output o (stride s, dilation d)
 * that land inside an n-long input padded by pad in front. */
static inline void px_pool_taps(size_t o, size_t s, size_t d, size_t pad, size_t n, size_t k, size_t *k0,
                                size_t *k1) {
  size_t base = o * s;
  size_t lo = base >= pad ? 0 : (pad - base + d - 1) / d;
  size_t hi = base >= pad + n ? 0 : (pad + n - base + d - 1) / d;
  *k1 = hi < k ? hi : k;
  *k0 = lo < *k1 ? lo : *k1;
}
static inline float px_clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* The node table: reshape, run, prepare and widening of each node kind
 * (NULL = unsupported). */
typedef enum px_widen {
  PX_WIDEN_NONE = 0,   /* handles every datatype itself (shape ops, Convert) */
  PX_WIDEN_ALL = 1,    /* fp32 compute: fp16/bf16 operands widened around run */
  PX_WIDEN_ACTS = 2    /* as ALL but inputs 1 and 2 (filter, bias): prepare widens those */
} px_widen;
typedef struct px_node_impl {
  px_reshape_fn reshape;
  px_run_fn run;
  px_prepare_fn prepare; /* may be NULL */
  px_widen widen;
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
PT_FUNC ptera_status px_conv2d_prepare(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_conv2d_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_dwconv2d_prepare(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_dwconv2d_run(px_graph *g, const pf_xnn_node *n);
/* The scratch DepthwiseConv2d takes at the current shapes (called by px_conv2d_reshape). */
PT_FUNC ptera_status px_dwconv2d_need_ws(px_graph *g, const pf_xnn_node *n);
/* Whether Conv2d n at the current shapes runs faster through the NCHW route
 * of node_dwconv2d.c (the px_dwconv2d_* functions take Conv2d nodes too). */
PT_FUNC bool px_conv_nchw_wins(const px_graph *g, const pf_xnn_node *n);
/* Whether the NCHW route takes node n at the current shapes. */
PT_FUNC bool px_conv_nchw_ok(const px_graph *g, const pf_xnn_node *n);
/* Whether convolution node i (prepared) runs the NCHW route. */
PT_FUNC bool px_conv_runs_nchw(const px_graph *g, uint32_t i);
/* Init, before sizing: Clamps folded into the FullyConnected or
 * convolution before them (xnn_fold_clamp.c). */
PT_FUNC void px_fold_clamps(px_graph *g);
/* Init, before sizing: a chain of StaticTransposes (and reshapes that
 * keep the dims) whose end only BatchMatrixMultiply nodes read, as their
 * second input, is folded into them: they read the chain's start through
 * the composed permutation (xnn_fold_transpose.c). */
PT_FUNC void px_fold_transposes(px_graph *g);
/* Init, before the prepare steps: g->nchw_pref (xnn_residency.c). */
PT_FUNC void px_plan_routes(px_graph *g);
/* Whether n is a StaticTranspose from NCHW to NHWC of fp32 (perm 0, 2, 3,
 * 1), whose output may be NCHW-resident: then its input's bytes. */
PT_FUNC bool px_to_nhwc_transpose(const px_graph *g, const pf_xnn_node *n);
/* Init, after the prepare steps: marks the NCHW-resident values. */
PT_FUNC void px_plan_residency(px_graph *g);
/* Init, last: places the internal values in one block, sharing bytes
 * between values whose lifetimes do not overlap (xnn_buffers.c). Fails
 * when reserved bytes plus the block exceed limit (0: no limit). */
PT_FUNC ptera_status px_plan_buffers(px_graph *g, uint64_t reserved, uint64_t limit);
/* Execute, after node n's reshape: an elementwise node on NCHW-resident
 * values was planned for operands of one shape; a run whose shapes make
 * it broadcast is refused (the layouts would no longer line up). */
PT_FUNC ptera_status px_check_residency(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_deconv2d_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_deconv2d_prepare(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_deconv2d_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_fc_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_fc_prepare(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_fc_run(px_graph *g, const pf_xnn_node *n);
/* Statically quantized FullyConnected (node_fc_quant.c), called by node_fc.c. */
PT_FUNC ptera_status px_fc_quant_check(px_graph *g, const pf_xnn_node *n, size_t oc);
PT_FUNC void px_fc_quant_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_bmm_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_bmm_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_pool_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_pool_run(px_graph *g, const pf_xnn_node *n);
/* GlobalAvgPooling2d's output shape from its input (either datatype):
 * H and W pooled away, or kept as 1 with the keep-dims flag. */
PT_FUNC ptera_status px_gap_set_shape(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_gap_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_gap_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_resize_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_resize_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_convert_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_convert_run(px_graph *g, const pf_xnn_node *n);


#endif
