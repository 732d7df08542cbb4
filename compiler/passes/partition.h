/* Partitioning for a backend (prefix pc_): which calls of a method a
 * delegate takes, grouped into partitions, and the order the method then
 * runs its partitions and CPU calls in. The lowering to a backend
 * (to_backend) builds one delegate blob per partition from this.
 *
 * partition.c groups calls. A caller-given support check says, per call,
 * whether the backend can run it (op, dtypes, shapes, attributes); a call it
 * rejects stays on the CPU alone, and nothing else changes because of it.
 * Calls that write mutable state (a method input, a BUFFER, a CONST) or
 * write a value they did not produce (an in-place update) always stay on
 * the CPU: a delegate only produces fresh values.
 *
 * No cycles, in linear time. Every call gets a level: the level of a call
 * is the largest over its dependencies d of level(d), plus one when d is a
 * CPU call and the call itself is supported. Along any path the level never
 * falls, and it rises past every CPU call. Supported calls joined by a
 * dependency at equal level form one partition (union-find). A path out of
 * a partition that comes back to it would cross a CPU call and so arrive at
 * a higher level, which no member has: no two partitions depend on each
 * other through the CPU. Before grouping, a supported call sinks to the
 * level of the supported call it feeds, where no dependency forbids it, so
 * a constant-only branch joins the partition that consumes it.
 *
 *      x ──► conv ──► relu ──► [cpu: argsort] ──► add ──► out
 *                       └───────────────────────────┘
 *      level   0        0            0             1
 *      partitions: {conv, relu}   {add}      (add reads the CPU call)
 *
 * Dependencies are read-after-write, write-after-read and write-after-write
 * on alias classes (a view and its base are one storage), so in-place CPU
 * calls keep their place relative to the partitions around them.
 *
 * Node groups (optional, groups[node] = group id or -1): the members of a
 * group go into one partition together (a dequantize → op → quantize
 * pattern), or all stay on the CPU when any member is rejected. A group is
 * given one level (its members' largest), which can only raise levels after
 * it, so groups never create cycles that their own members do not imply.
 *
 * A partition that reads no runtime value (only constants) is not a
 * delegate: its calls stay on the CPU (constant propagation folds them).
 *
 * partition_schedule.c orders the result: every partition becomes one unit
 * placed where a topological order allows, taking the unit whose earliest
 * call comes first whenever there is a choice, so the CPU calls keep their
 * original relative order and a method's last call stays last. */
#ifndef PTERA_COMPILER_PARTITION_H
#define PTERA_COMPILER_PARTITION_H

#include "graph.h"

/* Whether the backend can run live CALL node `node` of g. */
typedef bool (*pc_support_fn)(void *ctx, const pc_graph *g, uint32_t node);

typedef struct pc_part {
  uint32_t *nodes; /* ascending node indices */
  uint32_t nnodes;
  /* Runtime values the partition reads that something outside it wrote, or
   * that are method inputs or mutable state (not constants), each once, in
   * the order the partition first reads them: the delegate's inputs. */
  int32_t *inputs;
  uint32_t ninputs;
  /* Values the partition writes that a call outside it reads or that are
   * method outputs, each once, in the order they are written: the
   * delegate's outputs. */
  int32_t *outputs;
  uint32_t noutputs;
} pc_part;

/* A schedule unit: a CPU call (node index >= 0) or a partition (-1 - p). */
typedef int32_t pc_unit;

typedef struct pc_partitioning {
  int32_t *part; /* per node: partition index, or -1 (CPU, a marker, removed) */
  pc_part *parts;
  uint32_t nparts;
  pc_unit *order; /* every live CALL not in a partition, and every partition */
  uint32_t norder;
  void *blocks[3]; /* the storage behind parts[].nodes, .inputs, .outputs */
} pc_partitioning;

/* Partitions g's live calls (groups may be NULL) and schedules the result.
 * On failure (out of memory) returns the status with a message in g->err
 * and leaves *out empty. */
PT_FUNC ptera_status pc_partition(pc_graph *g, pc_support_fn supported, void *ctx,
                                  const int32_t *groups, pc_partitioning *out);
PT_FUNC void pc_partitioning_free(pc_graph *g, pc_partitioning *p);

/* partition_schedule.c: fills p->order from p->part and the dependency
 * lists of every node k: pred[pred_start[k] .. pred_start[k + 1]) and
 * succ[succ_start[k] .. succ_start[k + 1]). */
PT_FUNC ptera_status pc_partition_schedule(pc_graph *g, const uint32_t *pred_start,
                                           const uint32_t *pred, const uint32_t *succ_start,
                                           const uint32_t *succ, pc_partitioning *p);

#endif
