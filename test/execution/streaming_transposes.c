/* Runs the transposes of Inputs/streaming_transposes.mlir, whose traffic
 * exceeds the 32 MiB the planner streams beyond (but for the last few, in
 * cache, with power-of-two row strides), at 1, 2 and 3 threads, into
 * a line-aligned destination and one shifted by one element, and checks
 * every element against the permutation (bit patterns; the conversion
 * against C's f32 -> f16 on values exact in both). A sentinel around the
 * output catches stores outside it and elements never written. */
#include "streaming_transposes.h"

#include "streaming_check.h"

typedef struct {
  const char *name;
  copy_fn fn;
  int rank;
  int64_t sizes[6]; /* of the input */
  int perm[6];      /* output dim i is input dim perm[i] */
  int64_t bytes;    /* element size of the input and the output */
  int convert;      /* f32 in, f16 out */
  int flip0;        /* the input's dim 0 is reversed first (layout.flip) */
} Case;

static uint64_t pattern(int64_t i) {
  uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull;
  return x ^ (x >> 29);
}

static void fill(const Case *c, unsigned char *in, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if (c->convert) {
      float v = (float)(i % 2047) - 1023.0f;
      memcpy(in + i * 4, &v, 4);
    } else {
      uint64_t v = pattern(i);
      memcpy(in + i * c->bytes, &v, (size_t)c->bytes);
    }
  }
}

/* Returns the number of wrong elements; prints the first. */
static int64_t check(const void *cv, const unsigned char *in,
                     const unsigned char *out, int64_t n) {
  const Case *c = cv;
  int64_t inStrides[6], outSizes[6];
  inStrides[c->rank - 1] = 1;
  for (int d = c->rank - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * c->sizes[d + 1];
  for (int d = 0; d < c->rank; ++d)
    outSizes[d] = c->sizes[c->perm[d]];
  int64_t outBytes = c->convert ? 2 : c->bytes, wrong = 0;
  int64_t idx[6] = {0, 0, 0, 0, 0, 0};
  for (int64_t o = 0; o < n; ++o) {
    int64_t src = 0;
    for (int d = 0; d < c->rank; ++d) {
      int64_t i = idx[d];
      if (c->flip0 && c->perm[d] == 0)
        i = c->sizes[0] - 1 - i;
      src += i * inStrides[c->perm[d]];
    }
    unsigned char want[8];
    if (c->convert) {
      float v;
      memcpy(&v, in + src * 4, 4);
      _Float16 h = (_Float16)v;
      memcpy(want, &h, 2);
    } else {
      memcpy(want, in + src * c->bytes, (size_t)c->bytes);
    }
    if (memcmp(want, out + o * outBytes, (size_t)outBytes) != 0 && wrong++ == 0)
      printf("  %s: first wrong element at output %" PRId64 " (input %" PRId64
             ")\n",
             c->name, o, src);
    for (int d = c->rank - 1; d >= 0; --d) {
      if (++idx[d] < outSizes[d])
        break;
      idx[d] = 0;
    }
  }
  return wrong;
}

int main(void) {
  const Case cases[] = {
      {"lines", FN(lines_raw), 2, {2112, 2048}, {1, 0}, 4, 0},
      {"pairs", FN(pairs_raw), 2, {2096, 2080}, {1, 0}, 4, 0},
      {"pairs_inside",
       FN(pairs_inside_raw),
       3,
       {272, 128, 256},
       {2, 1, 0},
       4,
       0},
      {"pairs_f64", FN(pairs_f64_raw), 2, {1048, 2056}, {1, 0}, 8, 0},
      {"pairs_convert",
       FN(pairs_convert_raw),
       3,
       {2, 96, 45056},
       {0, 2, 1},
       4,
       1},
      {"rows_of_a_line",
       FN(rows_of_a_line_raw),
       6,
       {16, 12, 16, 10, 16, 18},
       {5, 3, 1, 0, 2, 4},
       4,
       0},
      {"odd", FN(odd_raw), 2, {2049, 2051}, {1, 0}, 4, 0},
      {"batched", FN(batched_raw), 3, {6, 1025, 2049}, {0, 2, 1}, 4, 0},
      {"batched_short_rows",
       FN(batched_short_rows_raw),
       3,
       {63, 511, 513},
       {0, 2, 1},
       4,
       0},
      {"inside", FN(inside_raw), 3, {1025, 5, 1031}, {2, 1, 0}, 4, 0},
      {"narrow", FN(narrow_raw), 3, {255, 257, 255}, {2, 1, 0}, 4, 0},
      {"reverse4", FN(reverse4_raw), 4, {33, 65, 63, 65}, {3, 2, 1, 0}, 4, 0},
      {"reverse4_f64",
       FN(reverse4_f64_raw),
       4,
       {33, 65, 31, 67},
       {3, 2, 1, 0},
       8,
       0},
      {"f16", FN(f16_raw), 2, {4097, 4095}, {1, 0}, 2, 0},
      {"f16lines", FN(f16lines_raw), 2, {4128, 4104}, {1, 0}, 2, 0},
      {"i8", FN(i8_raw), 2, {8191, 4097}, {1, 0}, 1, 0},
      {"f64", FN(f64_raw), 2, {1449, 1451}, {1, 0}, 8, 0},
      {"convert", FN(convert_raw), 2, {2897, 2899}, {1, 0}, 4, 1},
      {"flipped", FN(flipped_raw), 2, {2049, 2051}, {1, 0}, 4, 0, 1},
      {"flipped_lines",
       FN(flipped_lines_raw),
       2,
       {2112, 2048},
       {1, 0},
       4,
       0,
       1},
      /* N, H x W, C: the same memory as the program's 4-D NHWC input. */
      {"nhwc", FN(nhwc_raw), 3, {8, 12544, 64}, {0, 2, 1}, 4, 0},
      {"nhwc44", FN(nhwc44_raw), 3, {10, 12544, 44}, {0, 2, 1}, 4, 0},
      {"nhwc63", FN(nhwc63_raw), 3, {6, 63, 12543}, {0, 2, 1}, 4, 0},
      {"hwc24", FN(hwc24_raw), 2, {24, 350003}, {1, 0}, 4, 0},
      {"nhwc20d", FN(nhwc20d_raw), 3, {2, 20, 120003}, {0, 2, 1}, 8, 0},
      {"nhwc24h", FN(nhwc24h_raw), 3, {4, 24, 200003}, {0, 2, 1}, 2, 0},
      {"hwc63small", FN(hwc63small_raw), 2, {63, 9001}, {1, 0}, 4, 0},
      {"nhwc63h", FN(nhwc63h_raw), 3, {3, 63, 12543}, {0, 2, 1}, 4, 1},
      /* N, C, H x W with C = 3 -> N, H x W, C. */
      {"nchw3", FN(nchw3_raw), 3, {6, 3, 1055744}, {0, 2, 1}, 1, 0},
      {"nchw3f", FN(nchw3f_raw), 3, {2, 3, 1055744}, {0, 2, 1}, 4, 0},
      {"nchw3h", FN(nchw3h_raw), 3, {3, 3, 1055744}, {0, 2, 1}, 4, 1},
      /* In cache, source rows 4 KiB apart. */
      {"pow2h", FN(pow2h_raw), 2, {61, 2048}, {1, 0}, 2, 0},
      {"pow2b", FN(pow2b_raw), 2, {64, 4096}, {1, 0}, 1, 0},
      {"pow2c", FN(pow2c_raw), 2, {64, 1024}, {1, 0}, 4, 1},
      {"pow2f", FN(pow2f_raw), 2, {37, 1024}, {1, 0}, 4, 0},
      /* In cache, destination rows 2 KiB apart. */
      {"pow2d", FN(pow2d_raw), 2, {512, 61}, {1, 0}, 4, 0},
      {"pow2dh", FN(pow2dh_raw), 2, {1024, 40}, {1, 0}, 2, 0},
      {"pow2ds", FN(pow2ds_raw), 2, {1024, 125}, {1, 0}, 4, 0},
      {"pow2db", FN(pow2db_raw), 3, {6, 128, 125}, {0, 2, 1}, 4, 0},
  };
  const int shifts[] = {0, 1};
  int failed = 0, passed = 0;
  for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ++ci) {
    const Case *c = &cases[ci];
    int64_t n = elements(c->sizes, c->rank);
    int64_t outBytes = c->convert ? 2 : c->bytes;
    unsigned char *in = alloc_lines((size_t)(n * c->bytes));
    if (!in) {
      printf("FAIL %s: out of memory\n", c->name);
      return 1;
    }
    fill(c, in, n);
    if (!run_placements(c->name, c, c->fn, check, in, n, outBytes, shifts, 2,
                        &passed, &failed)) {
      printf("FAIL %s: out of memory\n", c->name);
      return 1;
    }
    free(in);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
