/* One-graph XNNPACK-delegated programs, for test_xnn_program and
 * bench/xnn_speed_gen (linked into both, see CMakeLists.txt and
 * bench/bench.cmake): an fp32 value of an XNNGraph, and the .pte whose
 * forward is one DelegateCall of XnnpackBackend over a planned input x and
 * output y (arena 1: x at 0, y at the next 64-byte boundary). */
#ifndef PTERA_TEST_XNN_PROGRAM_H
#define PTERA_TEST_XNN_PROGRAM_H

#include "emit_pte.h"
#include "emit_xnn.h"

/* An fp32 value: flags PF_XNN_VALUE_INPUT / _OUTPUT (or 0), external id ext,
 * dims[ndims]; a constant of n floats when data is not NULL. */
pc_xnn_value_desc xp_f32_value(uint32_t flags, uint32_t ext, uint8_t ndims, const uint32_t *dims,
                               const float *data, size_t n);

/* A node of the given kind reading values 0 (input), 1 (weights) and 2
 * (bias) into value 3, with no output clamp (min -inf, max +inf). */
pc_xnn_node_desc xp_node(uint8_t kind);

/* pc_emit_pte of the program running blob on Float x (sizes xs) into Float y
 * (sizes ys), both of rank dim: the file in *file (free with pt_free(NULL, .)). */
ptera_status xp_delegated_pte(const uint8_t *blob, size_t bsize, uint8_t dim, const int32_t *xs,
                              const int32_t *ys, uint8_t **file, size_t *size, pt_err *err);

#endif
