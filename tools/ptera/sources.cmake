# The ptera CLI. cmd_compile.c or, with PTERA_BUILD_COMPILER=OFF,
# cmd_compile_off.c is built.
# Every .c file of this directory is listed here (paths relative to it);
# configuring fails on one that is not (cmake/layers.cmake).
set(SOURCES
  cli_args.c
  cli_calibration.c
  cli_escape.c
  cli_npy.c
  cli_progress.c
  cli_session.c
  cli_tensor.c
  cli_topk.c
  cmd_bench.c
  cmd_compile.c
  cmd_compile_off.c
  cmd_inspect.c
  cmd_ops.c
  cmd_run.c
  cmd_verify.c
  main.c
)
