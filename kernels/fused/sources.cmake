# Fused kernels: one kernel in place of an instruction group the runtime
# recognised at method load (src/runtime/fuse*.c); fused.h is their calling
# convention, the one kernel header the runtime sees.
# Every .c file of this directory is listed here (paths relative to it);
# configuring fails on one that is not (cmake/layers.cmake).
set(SOURCES
  add_act.c
  bmm_strided.c
  conv_bn_act.c
  linear_act.c
  max_pool.c
  rms_norm.c
  scale_softmax.c
)
