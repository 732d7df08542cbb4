/* The POSIX platform layer: program and data files mapped read-only
 * (open, fstat, mmap). The only file-system code of the library; a
 * PTERA_NO_FS build compiles src/platform/no_fs.c instead. The thread pool's
 * pthreads stay in src/runtime/threadpool_posix.c, their only user. */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/runtime.h"

ptera_status pr_bytes_map_file(pr_bytes *b, const char *path, uint64_t max_size,
                               const ptera_allocator *a, pt_err *err) {
  memset(b, 0, sizeof *b);
  b->allocator = a;
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return pt_fail(err, PTERA_ACCESS_FAILED, "cannot open '%s': %s", path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return pt_fail(err, PTERA_ACCESS_FAILED, "'%s' is not a regular file", path);
  }
  if (st.st_size == 0) {
    close(fd);
    return pt_fail(err, PTERA_INVALID_PROGRAM, "'%s' is empty", path);
  }
  if ((uint64_t)st.st_size > max_size || (uint64_t)st.st_size > SIZE_MAX) {
    close(fd);
    return pt_fail(err, PTERA_OUT_OF_RESOURCES,
                   "'%s' is %lld bytes, over the %llu-byte file size limit", path,
                   (long long)st.st_size, (unsigned long long)max_size);
  }
  void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (p == MAP_FAILED)
    return pt_fail(err, PTERA_ACCESS_FAILED, "cannot map '%s': %s", path, strerror(errno));
  b->map = p;
  b->data = p;
  b->size = (uint64_t)st.st_size;
  return PTERA_OK;
}

void pr_bytes_unmap(void *map, uint64_t size) { munmap(map, (size_t)size); }
