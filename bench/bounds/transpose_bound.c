/* Hand-written bounds for a 2-D f32 transpose (P1: 4096 x 4096) on this
 * host, as ratios to a streaming-store copy of the same bytes timed in the
 * same run. Two families:
 *
 * - access patterns without the transpose: read R rows in bursts of RL
 *   lines, then write W destination rows in bursts of WL lines (streaming
 *   stores), rows 16 KiB apart as in P1. They bound every tile order whose
 *   bursts are that long;
 * - AVX2 transposes: 8x8 register squares in tiles of 16 x L source rows
 *   (L lines per destination row, streaming stores), and blocks of
 *   BI x BJ staged through a buffer so that each destination row is
 *   stored as one burst of BI floats.
 *
 * Build and run (bench/README.md, "Hand-written bounds"):
 *   cc -O2 -mavx2 -fopenmp bench/bounds/transpose_bound.c -o /tmp/tb
 *   OMP_NUM_THREADS=1 /tmp/tb; OMP_NUM_THREADS=2 /tmp/tb
 * Each variant is the best of 7 runs; the transposes are checked against
 * the source at 4096 random points and the program fails if one is wrong.
 * The tensors get transparent huge pages, as bench/driver.cpp's buffers do;
 * `/tmp/tb --4k-pages` leaves them on 4 KiB pages, to show what the TLB
 * costs each access pattern on this host.
 */
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

enum { N = 4096, RUNS = 7 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static float *src, *dst;
static volatile float sink;

/* N x N floats, 2 MiB-aligned with huge-page advice unless `small`. */
static float *allocTensor(int small) {
  size_t bytes = (size_t)N * N * sizeof(float);
  float *p = aligned_alloc(small ? 4096 : 2 << 20, bytes);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
#ifdef MADV_HUGEPAGE
  if (!small)
    madvise(p, bytes, MADV_HUGEPAGE); /* advice only */
#endif
  return p;
}

static void streamCopy(void) {
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < (size_t)N * N; i += 16) {
    _mm256_stream_ps(dst + i, _mm256_load_ps(src + i));
    _mm256_stream_ps(dst + i + 8, _mm256_load_ps(src + i + 8));
  }
  _mm_sfence();
}

/* Block b reads R rows x RL lines (row bands of the source in order), then
 * writes W rows x WL lines (column bands of the destination in order, as a
 * transpose's tiles do), or with W == 0 the block's bytes at the next
 * addresses. R * RL == W * WL. Threads take whole blocks. */
static void accessPattern(int r, int rl, int w, int wl) {
  long perRowR = N / (16 * rl), perRowW = w ? N / w : 1;
  long blocks = (long)N * N / (16L * r * rl);
  __m256 total = _mm256_setzero_ps();
#pragma omp parallel
  {
    __m256 acc = _mm256_setzero_ps();
#pragma omp for schedule(static)
    for (long b = 0; b < blocks; ++b) {
      long ri = b / perRowR * r, rj = b % perRowR * 16 * rl;
      for (int k = 0; k < r; ++k)
        for (int z = 0; z < 2 * rl; ++z)
          acc = _mm256_add_ps(
              acc, _mm256_load_ps(src + (size_t)(ri + k) * N + rj + z * 8));
      if (!w) {
        float *p = dst + (size_t)b * 16 * r * rl;
        for (int z = 0; z < 2 * r * rl; ++z)
          _mm256_stream_ps(p + z * 8, acc);
        continue;
      }
      long wi = b / perRowW * 16 * wl, wj = b % perRowW * w;
      for (int k = 0; k < w; ++k)
        for (int z = 0; z < 2 * wl; ++z)
          _mm256_stream_ps(dst + (size_t)(wj + k) * N + wi + z * 8, acc);
    }
#pragma omp critical
    total = _mm256_add_ps(total, acc);
  }
  _mm_sfence();
  sink = _mm256_cvtss_f32(total);
}

static void square(__m256 r[8]) {
  __m256 t[8], s[8];
  for (int k = 0; k < 8; k += 2) {
    t[k / 2] = _mm256_unpacklo_ps(r[k], r[k + 1]);
    t[k / 2 + 4] = _mm256_unpackhi_ps(r[k], r[k + 1]);
  }
  for (int k = 0; k < 2; ++k)
    for (int h = 0; h < 2; ++h) {
      __m256 a = t[4 * h + 2 * k], b = t[4 * h + 2 * k + 1];
      s[4 * k + 2 * h] = _mm256_shuffle_ps(a, b, 0x44);
      s[4 * k + 2 * h + 1] = _mm256_shuffle_ps(a, b, 0xEE);
    }
  for (int k = 0; k < 4; ++k) {
    r[k] = _mm256_permute2f128_ps(s[k], s[k + 4], 0x20);
    r[k + 4] = _mm256_permute2f128_ps(s[k], s[k + 4], 0x31);
  }
}

/* Tiles of 16 * lines source rows x 8 columns; panels of source rows. */
static void tiles(int lines) {
  int rows = 16 * lines;
#pragma omp parallel for schedule(static)
  for (int i0 = 0; i0 < N; i0 += rows)
    for (int j0 = 0; j0 < N; j0 += 8)
      for (int ib = i0; ib < i0 + rows; ib += 8) {
        __m256 r[8];
        for (int k = 0; k < 8; ++k)
          r[k] = _mm256_load_ps(src + (size_t)(ib + k) * N + j0);
        square(r);
        for (int k = 0; k < 8; ++k)
          _mm256_stream_ps(dst + (size_t)(j0 + k) * N + ib, r[k]);
      }
  _mm_sfence();
}

/* The same tiles, each line of a destination row stored by two stores back
 * to back: both squares of 16 source rows are transposed first. */
static void wholeLineTiles(int lines) {
  int rows = 16 * lines;
#pragma omp parallel for schedule(static)
  for (int i0 = 0; i0 < N; i0 += rows)
    for (int j0 = 0; j0 < N; j0 += 8)
      for (int ib = i0; ib < i0 + rows; ib += 16) {
        __m256 r[8], q[8];
        for (int k = 0; k < 8; ++k) {
          r[k] = _mm256_load_ps(src + (size_t)(ib + k) * N + j0);
          q[k] = _mm256_load_ps(src + (size_t)(ib + 8 + k) * N + j0);
        }
        square(r);
        square(q);
        for (int k = 0; k < 8; ++k) {
          _mm256_stream_ps(dst + (size_t)(j0 + k) * N + ib, r[k]);
          _mm256_stream_ps(dst + (size_t)(j0 + k) * N + ib + 8, q[k]);
        }
      }
  _mm_sfence();
}

/* Blocks of bi source rows x bj columns, transposed into a buffer, then
 * each of the bj destination rows streamed as one run of bi floats. */
static void stagedBlocks(int bi, int bj) {
#pragma omp parallel
  {
    float *buf = aligned_alloc(64, (size_t)bi * bj * sizeof(float));
#pragma omp for schedule(static)
    for (long b = 0; b < (long)(N / bi) * (N / bj); ++b) {
      int i0 = b / (N / bj) * bi, j0 = b % (N / bj) * bj;
      for (int ii = 0; ii < bi; ii += 8)
        for (int jj = 0; jj < bj; jj += 8) {
          __m256 r[8];
          for (int k = 0; k < 8; ++k)
            r[k] = _mm256_load_ps(src + (size_t)(i0 + ii + k) * N + j0 + jj);
          square(r);
          for (int k = 0; k < 8; ++k)
            _mm256_store_ps(buf + (size_t)(jj + k) * bi + ii, r[k]);
        }
      for (int r = 0; r < bj; ++r)
        for (int q = 0; q < bi; q += 8)
          _mm256_stream_ps(dst + (size_t)(j0 + r) * N + i0 + q,
                           _mm256_load_ps(buf + (size_t)r * bi + q));
    }
    free(buf);
  }
  _mm_sfence();
}

struct Variant {
  const char *name;
  int kind, a, b, c, d; /* 0 copy, 1 access pattern, 2-3 tiles, 4 staged */
};

static void runVariant(const struct Variant *v) {
  switch (v->kind) {
  case 0:
    streamCopy();
    break;
  case 1:
    accessPattern(v->a, v->b, v->c, v->d);
    break;
  case 2:
    tiles(v->a);
    break;
  case 3:
    wholeLineTiles(v->a);
    break;
  default:
    stagedBlocks(v->a, v->b);
    break;
  }
}

int main(int argc, char **argv) {
  int small = argc > 1 && !strcmp(argv[1], "--4k-pages");
  static const struct Variant variants[] = {
      {"streaming copy (the limit)", 0},
      {"read 16 x 1 line, write 16 x 1 line", 1, 16, 1, 16, 1},
      {"read 16 x 4 lines, write 16 x 4 lines", 1, 16, 4, 16, 4},
      {"read 16 x 16 lines, write 16 x 16 lines", 1, 16, 16, 16, 16},
      {"read 64 x 64 lines, write 64 x 64 lines", 1, 64, 64, 64, 64},
      {"read 16 x 4 lines, write sequentially", 1, 16, 4, 0, 0},
      {"tiles, 1 line per destination row", 2, 1},
      {"tiles, 2 lines per destination row", 2, 2},
      {"whole-line tiles, 1 line per row", 3, 1},
      {"whole-line tiles, 2 lines per row", 3, 2},
      {"staged 64 x 64 blocks", 4, 64, 64},
      {"staged 128 x 128 blocks", 4, 128, 128},
      {"staged 128 x 256 blocks", 4, 128, 256},
  };
  enum { NV = sizeof variants / sizeof variants[0] };
  src = allocTensor(small);
  dst = allocTensor(small);
  memset(dst, 0, (size_t)N * N * sizeof(float));
  for (size_t i = 0; i < (size_t)N * N; ++i)
    src[i] = (float)(i % 16777213);
  double best[NV];
  for (int k = 0; k < NV; ++k)
    best[k] = 1e30;
  srand(1);
  for (int run = 0; run < RUNS; ++run)
    for (int k = 0; k < NV; ++k) {
      double t = now();
      runVariant(&variants[k]);
      t = now() - t;
      if (t < best[k])
        best[k] = t;
      if (run || variants[k].kind < 2)
        continue;
      for (int q = 0; q < 4096; ++q) {
        int i = rand() % N, j = rand() % N;
        if (dst[(size_t)j * N + i] != src[(size_t)i * N + j]) {
          fprintf(stderr, "%s: wrong element (%d, %d)\n", variants[k].name, j,
                  i);
          return 1;
        }
      }
    }
  printf("%d threads, %s pages; GB/s (bytes read + written) and ratio to the "
         "limit\n",
         omp_get_max_threads(), small ? "4 KiB" : "huge");
  for (int k = 0; k < NV; ++k)
    printf("  %-42s %6.1f  %.2f\n", variants[k].name,
           2.0 * N * N * sizeof(float) / best[k] / 1e9, best[0] / best[k]);
  return 0;
}
