# The platform layer: the one place the library touches the operating system
# for files (posix_fs.c: open/mmap), or its stand-in for builds without a file
# system (no_fs.c, PTERA_NO_FS); cmake/layers.cmake builds one of the two.
# Every .c file of this directory is listed here (paths relative to it);
# configuring fails on one that is not (cmake/layers.cmake).
set(SOURCES
  no_fs.c
  posix_fs.c
)
