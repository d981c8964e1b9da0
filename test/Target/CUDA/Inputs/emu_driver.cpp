// Runs the launchers layoutc generates for Inputs/strategies.mlir under the
// host emulation of layout_rt/cuda.h and checks their outputs against values
// computed here independently (exact integers, hand-encoded f16 bits and a
// separate bf16 rounding), plus the launchers' argument errors. Prints one
// line per check and "FAILED" for any mismatch.
#include "strategies.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

static int failures = 0;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAILED %s:%d: ", __FILE__, __LINE__);                       \
      std::printf(__VA_ARGS__);                                                \
      std::printf("\n");                                                       \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/// A device buffer with a DLTensor over it.
template <typename T> struct Device {
  std::vector<int64_t> shape;
  T *data = nullptr;
  size_t count = 1;
  DLTensor t;
  Device(std::vector<int64_t> shapeIn, DLDataType dtype)
      : shape(std::move(shapeIn)) {
    for (int64_t s : shape)
      count *= s;
    cudaMalloc((void **)&data, count * sizeof(T) + 16);
    std::memset(&t, 0, sizeof(t));
    t.data = data;
    t.device = {kDLCUDA, 0};
    t.ndim = static_cast<int>(shape.size());
    t.dtype = dtype;
    t.shape = shape.data();
  }
  ~Device() { cudaFree(data); }
  void upload(const std::vector<T> &host) {
    cudaMemcpy(data, host.data(), host.size() * sizeof(T),
               cudaMemcpyHostToDevice);
  }
  std::vector<T> download() {
    std::vector<T> host(count);
    cudaDeviceSynchronize();
    cudaMemcpy(host.data(), data, count * sizeof(T), cudaMemcpyDeviceToHost);
    return host;
  }
};

constexpr DLDataType kF32 = {kDLFloat, 32, 1}, kF16 = {kDLFloat, 16, 1},
                     kBF16 = {kDLBfloat, 16, 1}, kI32 = {kDLInt, 32, 1},
                     kI64 = {kDLInt, 64, 1}, kBool = {LRT_DL_BOOL, 8, 1};

static bool ok(lrt_status_t status, const char *what) {
  if (!status)
    return true;
  std::printf("FAILED %s: %s\n", what, lrt_status_message(status));
  lrt_status_free(status);
  ++failures;
  return false;
}

static uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
/// bf16 of a finite float, round to nearest even (an independent oracle).
static uint16_t bf16Of(float f) {
  uint32_t u = bitsOf(f);
  return static_cast<uint16_t>((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}
/// f16 bits of a value that f16 represents exactly (a normal number).
static uint16_t f16Exact(double v) {
  if (v == 0)
    return std::signbit(v) ? 0x8000 : 0;
  uint16_t sign = v < 0 ? 0x8000 : 0;
  int e;
  double m = std::frexp(std::fabs(v), &e); // v = m * 2^e, m in [0.5, 1)
  return sign | static_cast<uint16_t>((e + 14) << 10) |
         static_cast<uint16_t>((m * 2 - 1) * 1024);
}

/// Runs `launch` on copies of `in` one float off 16-byte alignment (the
/// launcher's scalar kernels); whether it writes `expected`.
template <typename Launch>
static bool unalignedSame(const std::vector<float> &in,
                          const std::vector<float> &expected, Launch launch) {
  float *src = nullptr, *dst = nullptr;
  cudaMalloc((void **)&src, (in.size() + 1) * sizeof(float));
  cudaMalloc((void **)&dst, (expected.size() + 1) * sizeof(float));
  cudaMemcpy(src + 1, in.data(), in.size() * sizeof(float),
             cudaMemcpyHostToDevice);
  std::vector<float> got(expected.size(), -1.0f);
  bool same = ok(launch(src + 1, dst + 1), "unaligned launch");
  cudaDeviceSynchronize();
  cudaMemcpy(got.data(), dst + 1, got.size() * sizeof(float),
             cudaMemcpyDeviceToHost);
  same = same && got == expected;
  CHECK(same, "the misaligned launch wrote other values");
  cudaFree(src);
  cudaFree(dst);
  return same;
}

static void testTranspose() {
  Device<float> x({36, 40}, kF32), y({40, 36}, kF32);
  std::vector<float> in(x.count);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<float>(i);
  x.upload(in);
  if (!ok(transpose(&x.t, &y.t, 0), "transpose"))
    return;
  std::vector<float> out = y.download();
  for (int r = 0; r < 40; ++r)
    for (int c = 0; c < 36; ++c)
      CHECK(out[r * 36 + c] == in[c * 40 + r], "transpose[%d][%d] = %g", r, c,
            out[r * 36 + c]);
  std::printf("transpose: %g %g %g %g\n", out[0], out[1], out[2], out[36]);
  std::printf("transpose unaligned: %s\n",
              unalignedSame(in, out,
                            [](const float *src, float *dst) {
                              return transpose_raw(src, dst, 0);
                            })
                  ? "same"
                  : "differ");
}

static void testRows() {
  Device<float> x({4, 6, 8}, kF32), y({6, 4, 8}, kF32);
  std::vector<float> in(x.count);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<float>(i);
  x.upload(in);
  if (!ok(rows(&x.t, &y.t, 0), "rows"))
    return;
  std::vector<float> out = y.download();
  int bad = 0;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 8; ++k)
        bad += out[(i * 4 + j) * 8 + k] != in[(j * 6 + i) * 8 + k];
  CHECK(bad == 0, "rows: %d wrong elements", bad);
  std::printf("rows: %d wrong of %zu\n", bad, y.count);
  std::printf("rows unaligned: %s\n",
              unalignedSame(in, out,
                            [](const float *src, float *dst) {
                              return rows_raw(src, dst, 0);
                            })
                  ? "same"
                  : "differ");
}

static void testMemcpy() {
  // Aligned (uint4 path) and misaligned by 4 bytes (scalar path).
  for (int shift = 0; shift < 2; ++shift) {
    Device<float> x({1001}, kF32), y({1001}, kF32);
    std::vector<float> in(1001);
    for (int i = 0; i < 1001; ++i)
      in[i] = 0.5f * i - 7;
    x.t.data = x.data + shift;
    y.t.data = y.data + shift;
    cudaMemcpy(x.data + shift, in.data(), 4004, cudaMemcpyHostToDevice);
    if (!ok(memcpy_f32(&x.t, &y.t, 0), "memcpy_f32"))
      return;
    std::vector<float> out(1001);
    cudaDeviceSynchronize();
    cudaMemcpy(out.data(), y.data + shift, 4004, cudaMemcpyDeviceToHost);
    CHECK(out == in, "memcpy_f32 with shift %d", shift);
  }
  std::printf("memcpy: ok\n");
}

static void testToF16() {
  Device<float> x({3, 4}, kF32);
  Device<uint16_t> y({3, 4}, kF16);
  std::vector<float> in = {1.0f,  0.1f,      65504.0f, 70000.0f,
                           -0.0f, 5.96e-8f,  -2.5f,    1.0f / 3,
                           NAN,   -INFINITY, 1e-9f,    65519.0f};
  std::vector<uint16_t> want = {0x3c00, 0x2e66, 0x7bff, 0x7c00, 0x8000, 0x0001,
                                0xc100, 0x3555, 0,      0xfc00, 0x0000, 0x7bff};
  x.upload(in);
  if (!ok(to_f16(&x.t, &y.t, 0), "to_f16"))
    return;
  std::vector<uint16_t> out = y.download();
  for (int i = 0; i < 12; ++i) {
    if (i == 8)
      CHECK((out[i] & 0x7c00) == 0x7c00 && (out[i] & 0x3ff), "NaN -> %04x",
            out[i]);
    else
      CHECK(out[i] == want[i], "to_f16(%g) = %04x, want %04x", in[i], out[i],
            want[i]);
  }
  std::printf("to_f16: %04x %04x %04x %04x\n", out[0], out[1], out[2], out[3]);
}

static void testNHWC() {
  Device<float> x({2, 40, 5, 8}, kF32);
  Device<uint16_t> y({2, 5, 8, 40}, kBF16);
  std::vector<float> in(x.count);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<float>(i) * 1.001f;
  x.upload(in);
  if (!ok(nhwc(&x.t, &y.t, 0), "nhwc"))
    return;
  std::vector<uint16_t> out = y.download();
  int bad = 0;
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 40; ++c)
      for (int hw = 0; hw < 40; ++hw)
        bad +=
            out[(n * 40 + hw) * 40 + c] != bf16Of(in[(n * 40 + c) * 40 + hw]);
  CHECK(bad == 0, "nhwc: %d wrong elements", bad);
  std::printf("nhwc: %d wrong of %zu\n", bad, y.count);

  // C = 3, channels_last output strides (48, 1, 12, 3).
  Device<float> a({2, 3, 4, 4}, kF32), b({2, 3, 4, 4}, kF32);
  int64_t strides[] = {48, 1, 12, 3};
  b.t.strides = strides;
  std::vector<float> small(a.count);
  for (size_t i = 0; i < small.size(); ++i)
    small[i] = static_cast<float>(i);
  a.upload(small);
  if (!ok(nhwc3(&a.t, &b.t, 0), "nhwc3"))
    return;
  std::vector<float> got = b.download();
  bad = 0;
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 3; ++c)
      for (int hw = 0; hw < 16; ++hw)
        bad += got[n * 48 + hw * 3 + c] != small[(n * 3 + c) * 16 + hw];
  CHECK(bad == 0, "nhwc3: %d wrong elements", bad);
  std::printf("nhwc3: %d wrong of %zu\n", bad, b.count);
  std::printf("nhwc3 unaligned: %s\n",
              unalignedSame(small, got,
                            [](const float *src, float *dst) {
                              return nhwc3_raw(src, dst, 0);
                            })
                  ? "same"
                  : "differ");
}

static void testFlipAndBool() {
  Device<int32_t> x({2, 10}, kI32), y({2, 10}, kI32);
  std::vector<int32_t> in(20);
  for (int i = 0; i < 20; ++i)
    in[i] = i * i - 50;
  x.upload(in);
  if (ok(flip(&x.t, &y.t, 0), "flip")) {
    std::vector<int32_t> out = y.download();
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 10; ++c)
        CHECK(out[r * 10 + c] == in[r * 10 + 9 - c], "flip[%d][%d]", r, c);
    std::printf("flip: %d %d\n", out[0], out[10]);
  }
  Device<float> f({3}, kF32);
  Device<uint8_t> b({2, 3}, kBool);
  f.upload({NAN, -0.0f, 0.25f});
  if (ok(to_bool(&f.t, &b.t, 0), "to_bool")) {
    std::vector<uint8_t> out = b.download();
    std::vector<uint8_t> want = {1, 0, 1, 1, 0, 1};
    CHECK(out == want, "to_bool: %d %d %d", out[0], out[1], out[2]);
    std::printf("to_bool: %d %d %d %d %d %d\n", out[0], out[1], out[2], out[3],
                out[4], out[5]);
  }
}

static void testSums() {
  Device<uint16_t> x({2, 3, 4}, kF16), s({2, 4}, kF16), m({3}, kF16);
  std::vector<uint16_t> in(24);
  for (int i = 0; i < 24; ++i)
    in[i] = f16Exact(i);
  x.upload(in);
  if (!ok(sums(&x.t, &s.t, &m.t, 0), "sums"))
    return;
  std::vector<uint16_t> sum = s.download(), mean = m.download();
  for (int a = 0; a < 2; ++a)
    for (int c = 0; c < 4; ++c)
      CHECK(sum[a * 4 + c] == f16Exact(36 * a + 12 + 3 * c), "sum[%d][%d]", a,
            c);
  for (int b = 0; b < 3; ++b)
    CHECK(mean[b] == f16Exact(7.5 + 4 * b), "mean[%d] = %04x", b, mean[b]);
  std::printf("sums: %04x %04x mean: %04x %04x %04x\n", sum[0], sum[7], mean[0],
              mean[1], mean[2]);
}

static void testArgs() {
  Device<int64_t> x({2, 3}, kI64), a({3}, kI64), m({}, kI64);
  // Columns (5, 5): a tie, first index wins; (-1, 7); (9, 2).
  x.upload({5, -1, 9, 5, 7, 2});
  if (!ok(args(&x.t, &a.t, &m.t, 0), "args"))
    return;
  std::vector<int64_t> am = a.download(), mn = m.download();
  CHECK(am == std::vector<int64_t>({0, 1, 0}), "argmax %lld %lld %lld",
        (long long)am[0], (long long)am[1], (long long)am[2]);
  CHECK(mn[0] == -1, "amin %lld", (long long)mn[0]);
  std::printf("args: argmax %lld %lld %lld amin %lld\n", (long long)am[0],
              (long long)am[1], (long long)am[2], (long long)mn[0]);
}

static void testTotalAndColumns() {
  Device<float> x({1048576}, kF32), t({}, kF32);
  std::vector<float> in(x.count);
  double want = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    in[i] = static_cast<float>(i % 7);
    want += in[i];
  }
  x.upload(in);
  if (ok(total(&x.t, &t.t, 0), "total")) {
    float got = t.download()[0];
    CHECK(got == want, "total = %.1f, want %.1f", got, want);
    std::printf("total: %.1f\n", got);
  }

  // Order-sensitive values: the 16-byte loads (aligned run) and the scalar
  // fallback (run one float off) must combine in the same order.
  {
    std::vector<float> frac(x.count);
    double exact = 0;
    for (size_t i = 0; i < frac.size(); ++i) {
      frac[i] = 1.0f / static_cast<float>(i % 13 + 1);
      exact += frac[i];
    }
    float *buffer = nullptr, *sum = nullptr;
    cudaMalloc((void **)&buffer, (frac.size() + 1) * sizeof(float));
    cudaMalloc((void **)&sum, 2 * sizeof(float));
    cudaMemcpy(buffer, frac.data(), frac.size() * sizeof(float),
               cudaMemcpyHostToDevice);
    bool launched = ok(total_raw(buffer, sum, 0), "total_raw aligned");
    cudaMemcpy(buffer + 1, frac.data(), frac.size() * sizeof(float),
               cudaMemcpyHostToDevice);
    launched &= ok(total_raw(buffer + 1, sum + 1, 0), "total_raw unaligned");
    float got[2] = {0, 0};
    cudaDeviceSynchronize();
    cudaMemcpy(got, sum, sizeof(got), cudaMemcpyDeviceToHost);
    if (launched) {
      CHECK(bitsOf(got[0]) == bitsOf(got[1]),
            "aligned sum %08x, unaligned %08x", bitsOf(got[0]), bitsOf(got[1]));
      CHECK(std::fabs(got[0] - exact) <= 1e-5 * exact, "sum %.9g, exact %.9g",
            got[0], exact);
      std::printf("total alignment: %s\n",
                  bitsOf(got[0]) == bitsOf(got[1]) ? "same bits" : "differ");
    }
    cudaFree(buffer);
    cudaFree(sum);
  }

  Device<float> c({65536, 4}, kF32), r({4}, kF32);
  std::vector<float> col(c.count);
  for (size_t i = 0; i < 65536; ++i) {
    col[i * 4 + 0] = static_cast<float>((i * 37) % 65536) - 1000;
    col[i * 4 + 1] = -static_cast<float>(i) - 1;
    col[i * 4 + 2] = i == 40000 ? NAN : 1.0f;
    col[i * 4 + 3] = i == 12345 ? 0.0f : -0.0f;
  }
  c.upload(col);
  if (ok(columns(&c.t, &r.t, 0), "columns")) {
    std::vector<float> got = r.download();
    CHECK(got[0] == 64535.0f, "amax col 0 = %g", got[0]);
    CHECK(got[1] == -1.0f, "amax col 1 = %g", got[1]);
    CHECK(std::isnan(got[2]), "amax col 2 = %g (NaN propagates)", got[2]);
    CHECK(bitsOf(got[3]) == 0, "amax col 3 = %08x (+0 above -0)",
          bitsOf(got[3]));
    std::printf("columns: %g %g %g %g\n", got[0], got[1], got[2], got[3]);
  }
}

static void testArgminRows() {
  Device<uint16_t> x({4, 100}, kBF16);
  Device<int64_t> a({4}, kI64);
  std::vector<uint16_t> in(400);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 100; ++c)
      in[r * 100 + c] = bf16Of(static_cast<float>((c * 13 + r) % 50));
  // Row 1: a later equal minimum must not win; row 2: -0 and +0 tie;
  // row 3: the first NaN wins over every number.
  in[1 * 100 + 70] = bf16Of(-3.0f);
  in[1 * 100 + 90] = bf16Of(-3.0f);
  for (int c = 0; c < 100; ++c)
    in[2 * 100 + c] = bf16Of(1.0f);
  in[2 * 100 + 60] = 0x8000;
  in[2 * 100 + 61] = 0x0000;
  in[3 * 100 + 80] = 0x7fc0;
  in[3 * 100 + 95] = 0x7fc0;
  x.upload(in);
  if (!ok(argmin_rows(&x.t, &a.t, 0), "argmin_rows"))
    return;
  std::vector<int64_t> got = a.download();
  std::vector<int64_t> want = {0, 70, 60, 80};
  // Row 0: (c * 13) % 50 == 0 first at c = 0.
  CHECK(got == want, "argmin %lld %lld %lld %lld", (long long)got[0],
        (long long)got[1], (long long)got[2], (long long)got[3]);
  std::printf("argmin_rows: %lld %lld %lld %lld\n", (long long)got[0],
              (long long)got[1], (long long)got[2], (long long)got[3]);
}

static void testErrors() {
  // Host memory in a kDLCUDA tensor.
  std::vector<float> host(36 * 40);
  Device<float> y({40, 36}, kF32);
  Device<float> x({36, 40}, kF32);
  x.t.data = host.data();
  lrt_status_t status = transpose(&x.t, &y.t, 0);
  std::printf("host pointer: %d %s\n", (int)lrt_status_code(status),
              status ? lrt_status_message(status) : "OK");
  lrt_status_free(status);
  // A CPU tensor.
  x.t.data = x.data;
  x.t.device = {kDLCPU, 0};
  status = transpose(&x.t, &y.t, 0);
  std::printf("cpu tensor: %d %s\n", (int)lrt_status_code(status),
              status ? lrt_status_message(status) : "OK");
  lrt_status_free(status);
  // A view result: nothing to launch, still validated.
  Device<float> v({4, 6}, kF32);
  ok(views(&v.t, 0), "views");
}

int main() {
  testTranspose();
  testRows();
  testMemcpy();
  testToF16();
  testNHWC();
  testFlipAndBool();
  testSums();
  testArgs();
  testTotalAndColumns();
  testArgminRows();
  testErrors();
  std::printf("%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
