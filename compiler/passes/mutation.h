/* The analysis the graph passes share (prefix pc_): who produces each value,
 * which values are mutated, and which alias classes hold mutable state.
 *
 * Definitions (graph.h), over the live (not removed) CALL nodes:
 *  - producer[v]: the index of the first live CALL that writes v, or -1;
 *  - mutated[v]: a live CALL other than the producer writes v, or any live
 *    CALL writes v while v is a method input, a CONST or a BUFFER. Mutation
 *    spreads to every member of v's alias class, from a tensor list to its
 *    items and from an item to every list holding it, until nothing changes;
 *  - written[v]: some live CALL writes v (directly or through a written list);
 *  - state_root[r]: alias class r holds a method input, a CONST or a BUFFER;
 *  - class_size[r]: how many values alias class r holds;
 *  - is_input[v] / is_output[v]: v, or a tensor list holding v, is a method
 *    input / output.
 * Arrays are indexed by value id (state_root and class_size by alias root). */
#ifndef PTERA_COMPILER_MUTATION_H
#define PTERA_COMPILER_MUTATION_H

#include "graph.h"

typedef struct pc_mutation {
  int32_t *producer;
  uint8_t *mutated;
  uint8_t *written;
  uint8_t *is_input;
  uint8_t *is_output;
  uint8_t *state_root;
  uint32_t *class_size;
} pc_mutation;

/* Fills m (allocated with g's allocator); on OOM returns the status with a
 * message in g->err and leaves m empty. */
PT_FUNC ptera_status pc_mutation_analyze(pc_graph *g, pc_mutation *m);
PT_FUNC void pc_mutation_free(pc_graph *g, pc_mutation *m);

#endif
