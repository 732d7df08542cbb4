/* Minimal test helpers: CHECK records a failure and continues. */
#ifndef PTERA_TEST_CHECK_H
#define PTERA_TEST_CHECK_H

#include <stddef.h>
#include <stdint.h>

extern int check_failures;
extern int check_count;

#define CHECK(cond)                                                                       \
  do {                                                                                    \
    check_count++;                                                                        \
    if (!(cond)) {                                                                        \
      check_failures++;                                                                   \
      check_report(__FILE__, __LINE__, #cond);                                            \
    }                                                                                     \
  } while (0)

void check_report(const char *file, int line, const char *what);
/* Prints "N passed, M failed" and returns the process exit code. */
int check_summary(const char *suite);
/* Reads a whole file into malloc'd memory (16-aligned); NULL on error. */
uint8_t *check_read_file(const char *path, size_t *size);
/* Joins the corpus dir (argv[1]) with a relative path into a static buffer. */
const char *check_corpus_path(const char *corpus_dir, const char *rel);

#endif
