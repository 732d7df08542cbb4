# The core layer (errors, allocation, arenas, dtypes, version): prefix pt_.
# Every .c file of this directory is listed here (paths relative to it);
# configuring fails on one that is not (cmake/layers.cmake).
set(SOURCES
  alloc.c
  arena.c
  buffer_alloc.c
  dtype.c
  error.c
  memplan.c
  sized.c
  status.c
  tensor.c
  version.c
)
