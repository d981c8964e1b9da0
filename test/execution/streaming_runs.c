/* Runs the copies of Inputs/streaming_runs.mlir, whose traffic exceeds the
 * 32 MiB the planner streams beyond and whose contiguous runs do not start
 * on line boundaries, at 1, 2 and 3 threads, into a line-aligned
 * destination and ones shifted by one and by three elements, and checks
 * every element against the view it copies (bit patterns). A sentinel
 * around the output catches stores outside it and elements never
 * written. */
#include "streaming_runs.h"

#include "streaming_check.h"

typedef struct {
  const char *name;
  copy_fn fn;
  int64_t inElements;
  int rank;
  int64_t sizes[4];   /* of the output */
  int64_t strides[4]; /* of the view, in input elements */
  int64_t offset;
  int64_t bytes;
} Case;

static void fill(const Case *c, unsigned char *in) {
  for (int64_t i = 0; i < c->inElements; ++i) {
    uint64_t v = (uint64_t)i * 0x9E3779B97F4A7C15ull;
    v ^= v >> 29;
    memcpy(in + i * c->bytes, &v, (size_t)c->bytes);
  }
}

/* Returns the number of wrong elements; prints the first. */
static int64_t check(const void *cv, const unsigned char *in,
                     const unsigned char *out, int64_t n) {
  const Case *c = cv;
  int64_t idx[4] = {0, 0, 0, 0}, wrong = 0;
  for (int64_t o = 0; o < n; ++o) {
    int64_t src = c->offset;
    for (int d = 0; d < c->rank; ++d)
      src += idx[d] * c->strides[d];
    if (memcmp(in + src * c->bytes, out + o * c->bytes, (size_t)c->bytes) &&
        wrong++ == 0)
      printf("  %s: first wrong element at output %" PRId64 " (input %" PRId64
             ")\n",
             c->name, o, src);
    for (int d = c->rank - 1; d >= 0; --d) {
      if (++idx[d] < c->sizes[d])
        break;
      idx[d] = 0;
    }
  }
  return wrong;
}

int main(void) {
  const Case cases[] = {
      {"kept",
       FN(kept_raw),
       511 * 255 * 129,
       3,
       {255, 511, 129},
       {129, 32895, 1},
       0,
       4},
      {"reversed",
       FN(reversed_raw),
       41 * 37 * 29 * 97,
       4,
       {29, 37, 41, 97},
       {97, 2813, 104081, 1},
       0,
       4},
      {"sliced", FN(sliced_raw), 16400 * 515, 2, {16400, 513}, {515, 1}, 1, 4},
      {"runs17", FN(runs17_raw), 500000 * 19, 2, {500000, 17}, {19, 1}, 2, 4},
      {"f64",
       FN(f64_raw),
       255 * 257 * 65,
       3,
       {257, 255, 65},
       {65, 16705, 1},
       0,
       8},
      {"flipped",
       FN(flipped_raw),
       16400 * 520,
       2,
       {16400, 520},
       {-520, 1},
       16399 * 520,
       4},
      {"broadcast", FN(broadcast_raw), 300, 2, {16384, 300}, {0, 1}, 0, 4},
      {"every2", FN(every2_raw), 1100 * 8203, 2, {1100, 4102}, {8203, 2}, 0, 4},
      {"every2_flat",
       FN(every2_flat_raw),
       2048 * 8192,
       2,
       {2048, 4096},
       {8192, 2},
       0,
       4},
      {"every3",
       FN(every3_raw),
       1100 * 12301,
       2,
       {1100, 4101},
       {12301, 3},
       0,
       4},
      {"every2_f64",
       FN(every2_f64_raw),
       1100 * 4099,
       2,
       {1100, 2050},
       {4099, 2},
       0,
       8},
  };
  const int shifts[] = {0, 1, 3};
  int failed = 0, passed = 0;
  for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ++ci) {
    const Case *c = &cases[ci];
    int64_t n = elements(c->sizes, c->rank);
    unsigned char *in = alloc_lines((size_t)(c->inElements * c->bytes));
    if (!in) {
      printf("FAIL %s: out of memory\n", c->name);
      return 1;
    }
    fill(c, in);
    if (!run_placements(c->name, c, c->fn, check, in, n, c->bytes, shifts,
                        (int)(sizeof(shifts) / sizeof(shifts[0])), &passed,
                        &failed)) {
      printf("FAIL %s: out of memory\n", c->name);
      return 1;
    }
    free(in);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
