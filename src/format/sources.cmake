# The format layer (.pte, .ptd, .bpte, XNNGraph, .npy readers): prefix pf_.
# Every .c file of this directory is listed here (paths relative to it);
# configuring fails on one that is not (cmake/layers.cmake).
set(SOURCES
  bpte.c
  flatbuf.c
  npy.c
  npy_api.c
  ptd.c
  pte.c
  xnngraph.c
  xnngraph_describe.c
)
