# The ahead-of-time compiler (.ptg -> .pte/.ptd; prefix pc_), passes in passes/.
# Every .c file of this directory is listed here (paths relative to it);
# configuring fails on one that is not (cmake/layers.cmake).
set(SOURCES
  calibrate.c
  compile.c
  emit_ptd.c
  emit_pte.c
  emit_xnn.c
  eval.c
  fbb.c
  graph.c
  lower.c
  lower_plan.c
  memplan.c
  opset.c
  ptg_lex.c
  ptg_read.c
  ptg_value.c
  ptg_write.c
  sha256.c
  to_cortex_m.c
  to_cortex_m_ops.c
  to_xnnpack.c
  xnn_build.c
  xnn_support.c
  passes/constprop.c
  passes/dce.c
  passes/dedup.c
  passes/fold_bn.c
  passes/fuse_linear.c
  passes/mutation.c
  passes/partition.c
  passes/partition_schedule.c
  passes/view_elide.c
)
