/* ptera_xnnpack_graph_describe (ptera/inspect.h): an XNNGraph blob parsed
 * and verified by pf_xnn_parse, then counted. */
#include "format/xnngraph.h"
#include "ptera/inspect.h"

static ptera_status describe(const void *blob, size_t size, const ptera_allocator *allocator,
                             ptera_xnnpack_graph_info *out, pt_err *err) {
  if (!out) return pt_fail(err, PTERA_INVALID_ARGUMENT, "no ptera_xnnpack_graph_info to fill");
  if (!blob) return pt_fail(err, PTERA_INVALID_ARGUMENT, "no blob given");
  pt_arena arena;
  pt_arena_init(&arena, allocator);
  pf_xnn_graph g;
  ptera_status st = pf_xnn_parse(blob, size, &arena, &g, err);
  if (st == PTERA_OK) {
    ptera_xnnpack_graph_info info = PTERA_XNNPACK_GRAPH_INFO_INIT;
    memcpy(info.identifier, g.ident, sizeof info.identifier);
    info.has_header = g.has_header;
    info.num_nodes = g.nnodes;
    info.num_values = g.nvalues;
    info.num_constants = g.nconsts;
    for (uint32_t i = 0; i < g.nvalues; i++) {
      info.num_inputs += (g.values[i].flags & PF_XNN_VALUE_INPUT) != 0;
      info.num_outputs += (g.values[i].flags & PF_XNN_VALUE_OUTPUT) != 0;
    }
    if (pt_struct_out(out, &info, sizeof info, sizeof info) != PTERA_OK)
      st = pt_fail(err, PTERA_INVALID_ARGUMENT,
                   "ptera_xnnpack_graph_info.struct_size is %zu; initialise it with PTERA_XNNPACK_GRAPH_INFO_INIT",
                   out->struct_size);
  }
  pt_arena_release(&arena);
  return st;
}

ptera_status ptera_xnnpack_graph_describe(const void *blob, size_t size, const ptera_allocator *allocator,
                                          ptera_xnnpack_graph_info *out, char *message, size_t message_size) {
  pt_err err;
  pt_err_clear(&err);
  ptera_status st = describe(blob, size, allocator, out, &err);
  pt_err_copy(&err, message, message_size);
  return st;
}
