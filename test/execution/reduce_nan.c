// Drives reduce_nan.mlir: amax/amin over inputs of distinct finite values
// with NaNs planted in some outputs' sets (at the first, a middle and the
// last position of the set, and everywhere), at 1, 2 and 3 threads. An
// output whose set holds a NaN must be NaN (PyTorch propagates it); the
// others must equal the extreme value exactly.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce_nan.h"

typedef lrt_status_t (*reduce_fn)(const void *, void *,
                                  const lrt_exec_options_t *);

typedef struct {
  const char *name;
  reduce_fn fn;
  int64_t rows, cols; /* the input, row-major */
  int dims;           /* 0: reduce rows, 1: reduce columns, 2: all */
  int bytes;          /* f16, f32 or f64 */
  int isMax;
} Case;

static double get(const void *p, int bytes, int64_t i) {
  if (bytes == 2)
    return (double)((const _Float16 *)p)[i];
  if (bytes == 4)
    return (double)((const float *)p)[i];
  return ((const double *)p)[i];
}

static void set(void *p, int bytes, int64_t i, double v) {
  if (bytes == 2)
    ((_Float16 *)p)[i] = (_Float16)v;
  else if (bytes == 4)
    ((float *)p)[i] = (float)v;
  else
    ((double *)p)[i] = v;
}

/* Which output an input element joins, and its position in that set. */
static void place(const Case *c, int64_t r, int64_t k, int64_t *out,
                  int64_t *pos, int64_t *setSize) {
  if (c->dims == 0) {
    *out = k, *pos = r, *setSize = c->rows;
  } else if (c->dims == 1) {
    *out = r, *pos = k, *setSize = c->cols;
  } else {
    *out = 0, *pos = r * c->cols + k, *setSize = c->rows * c->cols;
  }
}

/* Output o's NaNs: none (o % 5 == 0), at the set's first (1), a middle
 * (2) or last (3) position, or everywhere (4). */
static int isNaNAt(int64_t o, int64_t pos, int64_t setSize) {
  switch (o % 5) {
  case 1:
    return pos == 0;
  case 2:
    return pos == setSize / 2 + 3 || pos == setSize / 2 + 3 - setSize;
  case 3:
    return pos == setSize - 1;
  case 4:
    return 1;
  }
  return 0;
}

static int run(const Case *c, int withNaN, int threads) {
  int64_t n = c->rows * c->cols;
  int64_t outs = c->dims == 0 ? c->cols : c->dims == 1 ? c->rows : 1;
  void *in = malloc((size_t)(n * c->bytes));
  void *out = malloc((size_t)(outs * c->bytes));
  double *want = malloc(sizeof(double) * (size_t)outs);
  int *hasNaN = calloc((size_t)outs, sizeof(int));
  for (int64_t o = 0; o < outs; ++o)
    want[o] = c->isMax ? -INFINITY : INFINITY;
  for (int64_t r = 0; r < c->rows; ++r)
    for (int64_t k = 0; k < c->cols; ++k) {
      int64_t i = r * c->cols + k, o, pos, setSize;
      place(c, r, k, &o, &pos, &setSize);
      /* Distinct values of both signs, exact in f16 (|v| < 2048). */
      double v = (double)((i * 7919) % 4001) - 2000.0;
      if (c->bytes == 2)
        v = (double)((i * 31) % 2001) - 1000.0;
      if (withNaN && isNaNAt(o, pos, setSize)) {
        v = NAN;
        hasNaN[o] = 1;
      }
      set(in, c->bytes, i, v);
      double got = get(in, c->bytes, i);
      if (!isnan(got) && (c->isMax ? got > want[o] : got < want[o]))
        want[o] = got;
    }
  lrt_exec_options_t opts = LRT_EXEC_OPTIONS_DEFAULT;
  opts.num_threads = threads;
  lrt_status_t st = c->fn(in, out, &opts);
  int bad = 0;
  if (st) {
    printf("FAIL %s: %s\n", c->name, lrt_status_message(st));
    bad = 1;
  }
  for (int64_t o = 0; !bad && o < outs; ++o) {
    double got = get(out, c->bytes, o);
    int ok = hasNaN[o] ? isnan(got) : got == want[o];
    if (!ok) {
      printf("FAIL %s nan=%d threads=%d: output %lld is %g, expected %s%g\n",
             c->name, withNaN, threads, (long long)o, got,
             hasNaN[o] ? "NaN, not " : "", hasNaN[o] ? got : want[o]);
      bad = 1;
    }
  }
  free(in);
  free(out);
  free(want);
  free(hasNaN);
  return bad;
}

int main(void) {
  const Case cases[] = {
      {"amax_outer", (reduce_fn)amax_outer_raw, 67, 40, 0, 4, 1},
      {"amin_outer", (reduce_fn)amin_outer_raw, 67, 40, 0, 4, 0},
      {"amax_split", (reduce_fn)amax_split_raw, 4096, 264, 0, 4, 1},
      {"amax_inner", (reduce_fn)amax_inner_raw, 40, 75, 1, 4, 1},
      {"amin_inner", (reduce_fn)amin_inner_raw, 40, 75, 1, 4, 0},
      {"amax_outer_f64", (reduce_fn)amax_outer_f64_raw, 67, 40, 0, 8, 1},
      {"amin_inner_f64", (reduce_fn)amin_inner_f64_raw, 40, 75, 1, 8, 0},
      {"amax_outer_f16", (reduce_fn)amax_outer_f16_raw, 67, 40, 0, 2, 1},
      {"amax_all", (reduce_fn)amax_all_raw, 1, 3000, 2, 4, 1},
  };
  int passed = 0, failed = 0;
  for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ++ci)
    for (int withNaN = 0; withNaN <= 1; ++withNaN)
      for (int threads = 1; threads <= 3; ++threads) {
        if (run(&cases[ci], withNaN, threads))
          ++failed;
        else
          ++passed;
      }
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
