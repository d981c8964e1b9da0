/* Per-call overhead of layoutc's entry points on tiny tensors (run.py builds
 * and runs it). For each program and each way of calling it, prints
 *   RESULT <program> <call> <median ns per call> <min ns per call>
 * over `repeats` samples of `iterations` calls each (iterations calibrated to
 * about 50 ms per sample unless given). Calls: raw_null = f_raw(..., NULL),
 * dlpack_null = f(..., NULL), dlpack_nt1 = f(..., &{.num_threads = 1}). */
#define _POSIX_C_SOURCE 200809L
#include "prog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static float in[16] __attribute__((aligned(64)));
static float out[16] __attribute__((aligned(64)));
static float big_in[8 * 3 * 32 * 32] __attribute__((aligned(64)));
static float big_out[8 * 3 * 32 * 32] __attribute__((aligned(64)));
static int64_t shape4[4] = {8, 3, 32, 32};
static DLTensor x4, y4;
static int64_t shape2[2] = {4, 4};
static int64_t shape1[1] = {16};
static DLTensor x2, y2, x1, y1;
static const lrt_exec_options_t one_thread = {sizeof(lrt_exec_options_t), 1};

static void check(lrt_status_t status) {
  if (status) {
    fprintf(stderr, "error: %s\n", lrt_status_message(status));
    exit(1);
  }
}

static DLTensor tensor(float *data, int32_t ndim, int64_t *shape) {
  DLTensor t;
  memset(&t, 0, sizeof(t));
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = ndim;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  return t;
}

/* One function per (program, call): the loop calls the entry point
 * directly, so the figure holds no indirect call. */
#define BODY(name, call)                                                       \
  static void name(long n) {                                                   \
    for (long i = 0; i < n; ++i)                                               \
      check(call);                                                             \
  }
BODY(t_raw_null, transpose4x4_raw(in, out, NULL))
BODY(t_dlpack_null, transpose4x4(&x2, &y2, NULL))
BODY(t_dlpack_nt1, transpose4x4(&x2, &y2, &one_thread))
BODY(c_raw_null, copy16_raw(in, out, NULL))
BODY(c_dlpack_null, copy16(&x1, &y1, NULL))
BODY(c_dlpack_nt1, copy16(&x1, &y1, &one_thread))
BODY(n_raw_null, nhwc_raw(big_in, big_out, NULL))
BODY(n_dlpack_null, nhwc(&x4, &y4, NULL))
BODY(n_dlpack_nt1, nhwc(&x4, &y4, &one_thread))

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void measure(const char *program, const char *call, void (*body)(long),
                    long iterations, int repeats) {
  body(1000); /* warm-up: caches, branch predictors, the runtime's once-init */
  if (iterations <= 0) {
    long n = 1000;
    double t;
    while ((t = seconds(), body(n), t = seconds() - t) < 0.01)
      n *= 2;
    iterations = (long)(n * 0.05 / t) + 1;
  }
  double samples[64];
  if (repeats > 64)
    repeats = 64;
  for (int r = 0; r < repeats; ++r) {
    double t = seconds();
    body(iterations);
    samples[r] = (seconds() - t) * 1e9 / (double)iterations;
  }
  qsort(samples, (size_t)repeats, sizeof(double), by_value);
  printf("RESULT %s %s %.1f %.1f\n", program, call, samples[repeats / 2],
         samples[0]);
  fflush(stdout);
}

int main(int argc, char **argv) {
  long iterations = argc > 1 ? atol(argv[1]) : 0;
  int repeats = argc > 2 ? atoi(argv[2]) : 7;
  for (int i = 0; i < 16; ++i)
    in[i] = (float)i;
  x2 = tensor(in, 2, shape2);
  y2 = tensor(out, 2, shape2);
  x1 = tensor(in, 1, shape1);
  y1 = tensor(out, 1, shape1);
  x4 = tensor(big_in, 4, shape4);
  y4 = tensor(big_out, 4, shape4);
  static int64_t nhwc_strides[4] = {3072, 1, 96, 3};
  y4.strides = nhwc_strides;
  /* Sanity: the kernels compute what they should. */
  check(transpose4x4(&x2, &y2, NULL));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      if (out[i * 4 + j] != in[j * 4 + i]) {
        fprintf(stderr, "error: transpose4x4 gave a wrong result\n");
        return 1;
      }
  measure("transpose4x4", "raw_null", t_raw_null, iterations, repeats);
  measure("transpose4x4", "dlpack_null", t_dlpack_null, iterations, repeats);
  measure("transpose4x4", "dlpack_nt1", t_dlpack_nt1, iterations, repeats);
  measure("copy16", "raw_null", c_raw_null, iterations, repeats);
  measure("copy16", "dlpack_null", c_dlpack_null, iterations, repeats);
  measure("copy16", "dlpack_nt1", c_dlpack_nt1, iterations, repeats);
  measure("nhwc", "raw_null", n_raw_null, iterations, repeats);
  measure("nhwc", "dlpack_null", n_dlpack_null, iterations, repeats);
  measure("nhwc", "dlpack_nt1", n_dlpack_nt1, iterations, repeats);
  return 0;
}
