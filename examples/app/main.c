/* Calls the kernels layoutc generated from nchw_to_nhwc.mlir and
 * channel_sum.mlir through their DLPack entry points (docs/abi.md), checks
 * every value against a plain loop, and shows what a bad call returns.
 * Exits with 1 on any mismatch, 0 otherwise. */
#include "channel_sum.h"
#include "nchw_to_nhwc.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum {
  BATCH = 2,
  CHANNELS = 3,
  HEIGHT = 16,
  WIDTH = 16,
  NUMEL = BATCH * CHANNELS * HEIGHT * WIDTH
};

static DLTensor cpu_tensor(void *data, DLDataType dtype, int32_t ndim,
                           int64_t *shape, int64_t *strides) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCPU;
  t.device.device_id = 0;
  t.ndim = ndim;
  t.dtype = dtype;
  t.shape = shape;
  t.strides = strides; /* NULL: row-major */
  t.byte_offset = 0;
  return t;
}

/* Prints and frees an error status; returns 1 for LRT_OK. */
static int ok(const char *call, lrt_status_t status) {
  if (status == LRT_OK)
    return 1;
  fprintf(stderr, "%s failed: %s: %s\n", call,
          lrt_status_code_name(lrt_status_code(status)),
          lrt_status_message(status));
  lrt_status_free(status);
  return 0;
}

int main(void) {
  static float x[NUMEL], y[NUMEL];
  float sums[CHANNELS], sums_one_thread[CHANNELS];
  const DLDataType f32 = {kDLFloat, 32, 1};
  const DLDataType f16 = {kDLFloat, 16, 1};
  int mismatches = 0;

  /* Multiples of 1/4 in [-2.75, 2.75]: every partial sum is exact in f32,
   * so the kernel's summation order cannot change the result. */
  for (int i = 0; i < NUMEL; ++i)
    x[i] = (float)((i * 7) % 23 - 11) * 0.25f;

  int64_t shape[4] = {BATCH, CHANNELS, HEIGHT, WIDTH};
  /* channels_last: the result's strides as nchw_to_nhwc.h states them. */
  int64_t nhwc_strides[4] = {HEIGHT * WIDTH * CHANNELS, 1, WIDTH * CHANNELS,
                             CHANNELS};
  int64_t sums_shape[1] = {CHANNELS};
  DLTensor x_t = cpu_tensor(x, f32, 4, shape, NULL);
  DLTensor y_t = cpu_tensor(y, f32, 4, shape, nhwc_strides);
  DLTensor sums_t = cpu_tensor(sums, f32, 1, sums_shape, NULL);
  DLTensor sums_one_t = cpu_tensor(sums_one_thread, f32, 1, sums_shape, NULL);

  lrt_exec_options_t one_thread = LRT_EXEC_OPTIONS_DEFAULT;
  one_thread.num_threads = 1;
  if (!ok("nchw_to_nhwc", nchw_to_nhwc(&x_t, &y_t, NULL)) ||
      !ok("channel_sum", channel_sum(&x_t, &sums_t, NULL)) ||
      !ok("channel_sum (1 thread)",
          channel_sum(&x_t, &sums_one_t, &one_thread)))
    return 1;

  /* NCHW -> NHWC against a plain loop. */
  for (int n = 0; n < BATCH; ++n)
    for (int c = 0; c < CHANNELS; ++c)
      for (int h = 0; h < HEIGHT; ++h)
        for (int w = 0; w < WIDTH; ++w) {
          float want = x[((n * CHANNELS + c) * HEIGHT + h) * WIDTH + w];
          float got = y[((n * HEIGHT + h) * WIDTH + w) * CHANNELS + c];
          if (got != want) {
            if (++mismatches <= 5)
              fprintf(stderr, "nhwc[n=%d, c=%d, h=%d, w=%d] = %g, want %g\n", n,
                      c, h, w, got, want);
          }
        }
  printf("nchw_to_nhwc: %d x %d x %d x %d f32, %d mismatches\n", BATCH,
         CHANNELS, HEIGHT, WIDTH, mismatches);
  printf("  NCHW x[0, :, 0, 0:2] = [%g %g %g] [%g %g %g]\n", x[0],
         x[HEIGHT * WIDTH], x[2 * HEIGHT * WIDTH], x[1], x[HEIGHT * WIDTH + 1],
         x[2 * HEIGHT * WIDTH + 1]);
  printf("  NHWC memory y[0:6]    = [%g %g %g] [%g %g %g]\n", y[0], y[1], y[2],
         y[3], y[4], y[5]);

  /* Per-channel sums against a plain loop, and the same bits on one
   * thread. */
  printf("channel_sum:");
  for (int c = 0; c < CHANNELS; ++c) {
    float want = 0.0f;
    for (int n = 0; n < BATCH; ++n)
      for (int i = 0; i < HEIGHT * WIDTH; ++i)
        want += x[(n * CHANNELS + c) * HEIGHT * WIDTH + i];
    printf(" %g (want %g)", sums[c], want);
    if (sums[c] != want)
      ++mismatches;
  }
  printf("\n");
  if (memcmp(sums, sums_one_thread, sizeof sums) != 0) {
    fprintf(stderr, "channel_sum: 1-thread result differs\n");
    ++mismatches;
  }

  /* A bad call: the input claims to be f16. It must be rejected with
   * INVALID_ARGUMENT and leave the output untouched. */
  DLTensor bad = x_t;
  bad.dtype = f16;
  memset(y, 0xff, sizeof y);
  lrt_status_t status = nchw_to_nhwc(&bad, &y_t, NULL);
  if (status == LRT_OK) {
    fprintf(stderr, "nchw_to_nhwc accepted an f16 input\n");
    ++mismatches;
  } else {
    printf("bad call (f16 input): %s: %s\n",
           lrt_status_code_name(lrt_status_code(status)),
           lrt_status_message(status));
    if (lrt_status_code(status) != LRT_STATUS_INVALID_ARGUMENT)
      ++mismatches;
    lrt_status_free(status);
  }
  for (int i = 0; i < NUMEL; ++i) {
    uint32_t bits;
    memcpy(&bits, &y[i], sizeof bits);
    if (bits != 0xffffffffu) {
      fprintf(stderr, "the rejected call wrote y[%d]\n", i);
      ++mismatches;
      break;
    }
  }

  printf("%s\n", mismatches ? "FAILED" : "OK");
  return mismatches ? 1 : 0;
}
