# The primitive ops (executorch_prim::*, scalar arithmetic).
# Every .c file of this directory is listed here (paths relative to it);
# configuring fails on one that is not (cmake/layers.cmake).
set(SOURCES
  prim_compare.c
  prim_et_copy_index.c
  prim_et_view.c
  prim_scalar_arith.c
  prim_sym_size.c
  prim_util.c
)
