/* Negative ABI test of layoutc's DLPack entry points (docs/abi.md): every
 * malformed call must return a non-NULL status with code
 * LRT_STATUS_INVALID_ARGUMENT and a message that names the problem, and must
 * write nothing. A well-formed call returns NULL (LRT_OK) and the right
 * values. Built by bad_dltensor.py against the header and object layoutc
 * generates from the program in that script:
 *
 *   transpose_copy(x 4x6 f32) -> 6x4 f32            x.T.contiguous()
 *   two_outputs(x 4x6 f32) -> (6x4 f32, 4 f32)       x.T.contiguous(), x.sum(1)
 *   copy_into(dst 4x6 f32, src 6x4 f32)              dst.T.copy_(src)
 *
 * Prints one line per check and `N passed, M failed`; exits 1 on any
 * failure. */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bad_prog.h"

#define SENTINEL 0xA5

static int passed, failed;

static float x_data[24], src_data[24];
static float out_data[64], out2_data[64], dst_data[24];
static int64_t x_shape[2] = {4, 6}, x_strides[2] = {6, 1};
static int64_t out_shape[2] = {6, 4}, out_strides[2] = {4, 1};
static int64_t sum_shape[1] = {4}, sum_strides[1] = {1};
static int64_t src_shape[2] = {6, 4}, src_strides[2] = {4, 1};
static int64_t bad_shape3[3] = {4, 6, 1}, bad_strides3[3] = {6, 1, 1};
static DLTensor x, out, out2, dst, src;

static DLTensor make(void *data, int64_t *shape, int64_t *strides, int ndim) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCPU;
  t.device.device_id = 0;
  t.ndim = ndim;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  t.strides = strides;
  t.byte_offset = 0;
  return t;
}

/* Fresh, valid tensors; outputs and the written argument hold SENTINEL. */
static void reset(void) {
  for (int i = 0; i < 24; ++i) {
    x_data[i] = (float)(i * 3 - 20) / 4.0f;
    src_data[i] = (float)(100 + i);
  }
  memset(out_data, SENTINEL, sizeof out_data);
  memset(out2_data, SENTINEL, sizeof out2_data);
  memset(dst_data, SENTINEL, sizeof dst_data);
  x = make(x_data, x_shape, x_strides, 2);
  out = make(out_data, out_shape, out_strides, 2);
  out2 = make(out2_data, sum_shape, sum_strides, 1);
  dst = make(dst_data, x_shape, x_strides, 2);
  src = make(src_data, src_shape, src_strides, 2);
}

static bool untouched(const void *p, size_t bytes) {
  const unsigned char *b = p;
  for (size_t i = 0; i < bytes; ++i)
    if (b[i] != SENTINEL)
      return false;
  return true;
}

static bool inputs_intact(void) {
  for (int i = 0; i < 24; ++i)
    if (x_data[i] != (float)(i * 3 - 20) / 4.0f ||
        src_data[i] != (float)(100 + i))
      return false;
  return true;
}

/* Case-insensitive: does `message` contain one of the '|'-separated needles? */
static bool mentions(const char *message, const char *needles) {
  char lower[1024];
  size_t n = strlen(message);
  if (n >= sizeof lower)
    n = sizeof lower - 1;
  for (size_t i = 0; i < n; ++i)
    lower[i] = (char)tolower((unsigned char)message[i]);
  lower[n] = 0;
  const char *p = needles;
  while (*p) {
    const char *bar = strchr(p, '|');
    size_t len = bar ? (size_t)(bar - p) : strlen(p);
    char needle[64];
    if (len >= sizeof needle)
      len = sizeof needle - 1;
    memcpy(needle, p, len);
    needle[len] = 0;
    if (len && strstr(lower, needle))
      return true;
    p = bar ? bar + 1 : p + len;
  }
  return false;
}

static void report(const char *what, bool ok, const char *detail) {
  if (ok) {
    ++passed;
    printf("ok   %-44s %s\n", what, detail);
  } else {
    ++failed;
    printf("FAIL %-44s %s\n", what, detail);
  }
}

/* One malformed call: the status, its code and message, and no writes. */
static void expect_invalid(const char *what, lrt_status_t status,
                           const char *needles) {
  char detail[1200];
  bool ok = true;
  const char *message = lrt_status_message(status);
  if (!status) {
    ok = false;
    snprintf(detail, sizeof detail, "returned NULL (LRT_OK)");
  } else if (lrt_status_code(status) != LRT_STATUS_INVALID_ARGUMENT) {
    ok = false;
    snprintf(detail, sizeof detail,
             "code %s, expected INVALID_ARGUMENT: \"%s\"",
             lrt_status_code_name(lrt_status_code(status)), message);
  } else if (!mentions(message, needles)) {
    ok = false;
    snprintf(detail, sizeof detail, "message \"%s\" mentions none of \"%s\"",
             message, needles);
  } else {
    snprintf(detail, sizeof detail, "\"%s\"", message);
  }
  if (!untouched(out_data, sizeof out_data) ||
      !untouched(out2_data, sizeof out2_data) ||
      !untouched(dst_data, sizeof dst_data) || !inputs_intact()) {
    ok = false;
    strncat(detail, " [but it wrote to a buffer]",
            sizeof detail - strlen(detail) - 1);
  }
  report(what, ok, detail);
  lrt_status_free(status);
}

int main(void) {
  lrt_exec_options_t one = LRT_EXEC_OPTIONS_DEFAULT;
  one.num_threads = 1;

  /* The well-formed calls first: NULL status and the right values. */
  reset();
  {
    lrt_status_t s = transpose_copy(&x, &out, &one);
    bool ok = s == LRT_OK;
    for (int i = 0; ok && i < 6; ++i)
      for (int j = 0; j < 4; ++j)
        ok = ok && out_data[i * 4 + j] == x_data[j * 6 + i];
    ok = ok && untouched(out_data + 24, sizeof out_data - 24 * sizeof(float));
    report("valid call", ok,
           s ? lrt_status_message(s) : "returned NULL, values right");
    lrt_status_free(s);
  }
  reset();
  {
    lrt_status_t s = transpose_copy(&x, &out, NULL);
    report("valid call, options NULL", s == LRT_OK && out_data[1] == x_data[6],
           s ? lrt_status_message(s) : "returned NULL");
    lrt_status_free(s);
  }
  reset();
  {
    x.strides = NULL; /* row-major */
    out.strides = NULL;
    lrt_status_t s = transpose_copy(&x, &out, &one);
    report("valid call, strides NULL", s == LRT_OK && out_data[1] == x_data[6],
           s ? lrt_status_message(s) : "returned NULL");
    lrt_status_free(s);
  }
  reset();
  {
    static float padded[26];
    memcpy(padded + 2, x_data, sizeof x_data);
    x.data = padded; /* the first element reached through byte_offset */
    x.byte_offset = 2 * sizeof(float);
    lrt_status_t s = transpose_copy(&x, &out, &one);
    report("valid call, byte_offset", s == LRT_OK && out_data[1] == x_data[6],
           s ? lrt_status_message(s) : "returned NULL");
    lrt_status_free(s);
  }
  reset();
  {
    lrt_status_t s = transpose_copy_raw(x_data, out_data, &one);
    report("valid raw call", s == LRT_OK && out_data[1] == x_data[6],
           s ? lrt_status_message(s) : "returned NULL");
    lrt_status_free(s);
  }
  reset();
  {
    lrt_status_t s = two_outputs(&x, &out, &out2, &one);
    float row0 = 0;
    for (int j = 0; j < 6; ++j)
      row0 += x_data[j];
    report("valid call, two outputs",
           s == LRT_OK && out_data[1] == x_data[6] && out2_data[0] == row0,
           s ? lrt_status_message(s) : "returned NULL");
    lrt_status_free(s);
  }
  reset();
  {
    lrt_status_t s = copy_into(&dst, &src, &one);
    report("valid call, written argument",
           s == LRT_OK && dst_data[1] == src_data[4],
           s ? lrt_status_message(s) : "returned NULL");
    lrt_status_free(s);
  }

  /* Malformed calls. */
  reset();
  x.dtype.bits = 16;
  expect_invalid("wrong dtype (f16 for f32)", transpose_copy(&x, &out, &one),
                 "dtype|f16");
  reset();
  x.dtype.code = kDLInt;
  expect_invalid("wrong dtype (i32 for f32)", transpose_copy(&x, &out, &one),
                 "dtype|i32");
  reset();
  out.dtype.code = kDLBfloat;
  out.dtype.bits = 16;
  expect_invalid("wrong output dtype (bf16)", transpose_copy(&x, &out, &one),
                 "dtype|bf16");
  reset();
  x.ndim = 3;
  x.shape = bad_shape3;
  x.strides = bad_strides3;
  expect_invalid("wrong rank", transpose_copy(&x, &out, &one), "rank");
  reset();
  {
    int64_t shape[2] = {4, 5};
    x.shape = shape;
    expect_invalid("wrong sizes", transpose_copy(&x, &out, &one), "size");
  }
  reset();
  {
    int64_t shape[2] = {4, 6};
    out.shape = shape; /* the output's sizes are 6x4 */
    int64_t strides[2] = {6, 1};
    out.strides = strides;
    expect_invalid("wrong output sizes", transpose_copy(&x, &out, &one),
                   "size");
  }
  reset();
  {
    int64_t strides[2] = {1, 4}; /* column-major 4x6 */
    x.strides = strides;
    expect_invalid("wrong strides", transpose_copy(&x, &out, &one), "stride");
  }
  reset();
  {
    int64_t strides[2] = {1, 6}; /* a transposed output */
    out.strides = strides;
    expect_invalid("wrong output strides", transpose_copy(&x, &out, &one),
                   "stride");
  }
  reset();
  x.device.device_type = kDLCUDA;
  expect_invalid("non-CPU device (kDLCUDA)", transpose_copy(&x, &out, &one),
                 "device|cuda");
  reset();
  out.device.device_type = kDLCUDA;
  expect_invalid("non-CPU output device", transpose_copy(&x, &out, &one),
                 "device|cuda");
  reset();
  expect_invalid("NULL tensor", transpose_copy(NULL, &out, &one), "null");
  reset();
  expect_invalid("NULL output tensor", transpose_copy(&x, NULL, &one), "null");
  reset();
  x.data = NULL;
  expect_invalid("NULL data", transpose_copy(&x, &out, &one), "data|null");
  reset();
  out.data = NULL;
  expect_invalid("NULL output data", transpose_copy(&x, &out, &one),
                 "data|null");
  reset();
  x.byte_offset = 2; /* not a multiple of 4 */
  expect_invalid("misaligned byte_offset", transpose_copy(&x, &out, &one),
                 "byte_offset|align|multiple");
  reset();
  x.data = (char *)x_data + 1;
  expect_invalid("misaligned data pointer", transpose_copy(&x, &out, &one),
                 "align|multiple");
  reset();
  {
    /* The output lies inside the input's bytes: give the input the output
     * buffer (its contents are checked for writes as the output's). */
    memcpy(out_data + 8, x_data, sizeof x_data);
    x.data = out_data + 8;
    lrt_status_t s = transpose_copy(&x, &out, &one);
    bool intact = memcmp(out_data + 8, x_data, sizeof x_data) == 0;
    memset(out_data + 8, SENTINEL, sizeof x_data);
    if (!intact)
      out_data[0] = 0.0f; /* make expect_invalid see the write */
    expect_invalid("output overlapping an input", s, "overlap");
  }
  reset();
  {
    int64_t strides[2] = {0, 1}; /* every row at the same address */
    out.strides = strides;
    expect_invalid("overlapping output (stride 0)",
                   transpose_copy(&x, &out, &one), "overlap|stride");
  }
  reset();
  out2.data = out_data; /* the second output on top of the first */
  expect_invalid("outputs overlapping each other",
                 two_outputs(&x, &out, &out2, &one), "overlap");
  reset();
  {
    src.data = dst_data; /* the written argument is also what is read */
    lrt_status_t s = copy_into(&dst, &src, &one);
    expect_invalid("written argument overlapping an input", s, "overlap");
  }
  reset();
  {
    lrt_exec_options_t bad = LRT_EXEC_OPTIONS_DEFAULT;
    bad.num_threads = -1;
    expect_invalid("negative num_threads", transpose_copy(&x, &out, &bad),
                   "num_threads|thread");
  }
  reset();
  {
    lrt_exec_options_t bad = LRT_EXEC_OPTIONS_DEFAULT;
    bad.num_threads = -3;
    expect_invalid("negative num_threads (raw)",
                   transpose_copy_raw(x_data, out_data, &bad),
                   "num_threads|thread");
  }
  reset();
  {
    /* Too short to hold num_threads: it reads as the default, not the -3
     * beyond the struct's end (parallel.h). */
    lrt_exec_options_t old = LRT_EXEC_OPTIONS_DEFAULT;
    old.struct_size = 1;
    old.num_threads = -3;
    lrt_status_t s = transpose_copy(&x, &out, &old);
    report("valid call, options shorter than num_threads",
           s == LRT_OK && out_data[1] == x_data[6],
           s ? lrt_status_message(s) : "OK");
    lrt_status_free(s);
  }

  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
