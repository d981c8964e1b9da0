/* The placement loop shared by the streaming execution tests: runs a copy
 * at 1, 2 and 3 threads into a destination at each of the given element
 * shifts from a line boundary, with 64 sentinel bytes on either side, and
 * counts the runs whose output is wrong or that wrote outside it. */
#ifndef LAYOUT_TEST_STREAMING_CHECK_H
#define LAYOUT_TEST_STREAMING_CHECK_H

#include "layout_rt/layout_rt.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef lrt_status_t (*copy_fn)(const void *, void *,
                                const lrt_exec_options_t *);

#define FN(f) ((copy_fn)(void (*)(void))(f))

/* Returns the number of wrong elements of `out` (n elements); prints the
 * first. */
typedef int64_t (*check_fn)(const void *c, const unsigned char *in,
                            const unsigned char *out, int64_t n);

static const unsigned char kSentinel = 0xA5;

/* The element count of `rank` sizes. */
static int64_t elements(const int64_t *sizes, int rank) {
  int64_t n = 1;
  for (int d = 0; d < rank; ++d)
    n *= sizes[d];
  return n;
}

/* `bytes` rounded up to whole lines, line-aligned (aligned_alloc wants a
 * multiple of the alignment). */
static unsigned char *alloc_lines(size_t bytes) {
  return aligned_alloc(64, (bytes + 63) / 64 * 64);
}

/* Adds each run to *passed or *failed; returns 0 when out of memory. */
static int run_placements(const char *name, const void *c, copy_fn fn,
                          check_fn check, const unsigned char *in, int64_t n,
                          int64_t outBytes, const int *shifts, int nShifts,
                          int *passed, int *failed) {
  int maxShift = 0;
  for (int si = 0; si < nShifts; ++si)
    maxShift = shifts[si] > maxShift ? shifts[si] : maxShift;
  size_t span = (size_t)(n * outBytes + maxShift * outBytes + 2 * 64);
  unsigned char *buf = alloc_lines(span);
  if (!buf)
    return 0;
  for (int threads = 1; threads <= 3; ++threads) {
    for (int si = 0; si < nShifts; ++si) {
      int shift = shifts[si];
      memset(buf, kSentinel, span);
      unsigned char *out = buf + 64 + shift * outBytes;
      lrt_exec_options_t o = LRT_EXEC_OPTIONS_DEFAULT;
      o.num_threads = threads;
      lrt_status_t st = fn(in, out, &o);
      if (st) {
        printf("FAIL %s threads=%d shift=%d: %s\n", name, threads, shift,
               lrt_status_message(st));
        ++*failed;
        continue;
      }
      int64_t wrong = check(c, in, out, n), outside = 0;
      for (unsigned char *p = buf; p < out; ++p)
        outside += *p != kSentinel;
      for (unsigned char *p = out + n * outBytes; p < buf + span; ++p)
        outside += *p != kSentinel;
      if (wrong || outside) {
        printf("FAIL %s threads=%d shift=%d: %" PRId64
               " wrong elements, %" PRId64 " bytes written outside\n",
               name, threads, shift, wrong, outside);
        ++*failed;
      } else {
        ++*passed;
      }
    }
  }
  free(buf);
  return 1;
}

#endif
