# The runtime layer (programs, methods, registries, thread pool): prefix pr_.
# threadpool_posix.c or threadpool_inline.c is chosen by PTERA_THREADS.
# Every .c file of this directory is listed here (paths relative to it);
# configuring fails on one that is not (cmake/layers.cmake).
set(SOURCES
  bundled.c
  bytes.c
  datafile.c
  delegate_alloc.c
  deprecated.c
  execute.c
  fuse.c
  fuse_add.c
  fuse_alias.c
  fuse_bmm.c
  fuse_conv.c
  fuse_inplace.c
  fuse_linear.c
  fuse_softmax.c
  fuse_match.c
  fuse_maxpool.c
  fuse_rms_norm.c
  fuse_safety.c
  fuse_view.c
  inspect.c
  kernel_ctx.c
  memory_needed.c
  method.c
  method_load.c
  method_meta.c
  method_prepare.c
  method_profile.c
  method_values.c
  program.c
  registry.c
  threadpool_inline.c
  threadpool_posix.c
)
