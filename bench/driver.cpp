// The C++ side of the benchmark: for every case of a spec file
// (cases.py --spec) and every thread count, times the copy or read limit,
// the naive loop nest, Halide and the layoutc kernels, verifies Halide's and
// layoutc's results (and the parallel naive one) against the serial naive
// result, and prints one tab-separated RESULT line per measurement:
//
//   RESULT id variant threads impl median_s min_s max_s runs bytes status
//
// impl: memcpy, stream (the copy limit is the better of the two), readsum
// (the read limit), naive, halide, layoutc, layoutc_dyn (the case compiled
// with every size dynamic, called with these sizes), layoutc_tuned (with
// --tuned: the case planned with a tuning file). bytes: what the metric
// counts (read + written for copies and limits, read for reductions). status:
// ok, MISMATCH: ..., n/a: ..., error: ....
//
//   driver SPEC [--threads 1,2] [--min-runs 5] [--no-layoutc REASON]
//          [--no-naive-timing] [--tuned]
//
// --no-naive-timing: the naive loop nest only computes the reference (the
// HPTT-style suite compares layoutc with the copy limit alone, and its large
// high-rank transposes are slow in a naive loop nest).
//
// Built by scripts/bench.sh with -DBENCH_HAVE_HALIDE / -DBENCH_HAVE_LAYOUTC
// when those peers are available.
#include "spec.h"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <sys/mman.h>

#ifdef BENCH_HAVE_HALIDE
#include "halide_table.h"
#endif
#ifdef BENCH_HAVE_LAYOUTC
#include "layoutc_table.h"
#endif

using bench::Spec;
using f16 = _Float16;

namespace {

// ---- memory and timing ----------------------------------------------------

struct FreeDeleter {
  void operator()(void *p) const { std::free(p); }
};
using Buf = std::unique_ptr<char, FreeDeleter>;

/// Buffers of 4 MiB or more get transparent huge pages, as NumPy's
/// allocator asks for them (madvise(MADV_HUGEPAGE) from 4 MiB; torch's
/// tensors in peers.py wrap NumPy arrays). Every column then reads the same
/// kind of memory: with 4 KiB pages a sequential read on this machine runs
/// at 16-20 GB/s, with huge pages at 26-29.
Buf alloc(int64_t bytes) {
  constexpr size_t kHuge = size_t(2) << 20;
  size_t n = static_cast<size_t>(std::max<int64_t>(bytes, 1));
  bool huge = n >= 2 * kHuge;
  size_t align = huge ? kHuge : 4096;
  n = (n + align - 1) / align * align;
  void *p = std::aligned_alloc(align, n);
  if (!p) {
    std::fprintf(stderr, "driver: out of memory (%zu bytes)\n", n);
    std::exit(1);
  }
#ifdef MADV_HUGEPAGE
  if (huge)
    madvise(p, n, MADV_HUGEPAGE); // advice only: failure leaves 4 KiB pages
#endif
  std::memset(p, 0, n); // fault the pages in now, not while timing
  return Buf(static_cast<char *>(p));
}

struct Stats {
  double median = 0, min = 0, max = 0;
  int runs = 0;
};

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int gMinRuns = 5;

// One warm-up call, then >= gMinRuns timed samples (odd, more for fast
// calls, up to ~0.4 s). A sample repeats a call that takes under 2 ms until
// it lasts 2 ms and reports the time per call.
Stats timeIt(const std::function<void()> &f) {
  f();
  double t0 = now();
  f();
  double t1 = std::max(now() - t0, 1e-7);
  int reps = t1 < 2e-3 ? static_cast<int>(std::ceil(2e-3 / t1)) : 1;
  int runs = gMinRuns;
  double sample = t1 * reps;
  if (sample * runs < 0.4)
    runs = std::min(21, std::max(runs, static_cast<int>(0.4 / sample)));
  if (runs % 2 == 0)
    ++runs;
  std::vector<double> v;
  for (int r = 0; r < runs; ++r) {
    double s = now();
    for (int k = 0; k < reps; ++k)
      f();
    v.push_back((now() - s) / reps);
  }
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back(), runs};
}

// ---- limits ---------------------------------------------------------------

// [begin, end) of thread t's contiguous chunk of n bytes, 64-byte aligned.
void chunk(int64_t n, int t, int T, int64_t *b, int64_t *e) {
  int64_t per = (n / T + 63) / 64 * 64;
  *b = std::min(n, per * t);
  *e = t == T - 1 ? n : std::min(n, per * (t + 1));
}

void memcpyMT(char *dst, const char *src, int64_t n, int T) {
  if (T == 1) {
    std::memcpy(dst, src, n);
    return;
  }
#pragma omp parallel num_threads(T)
  {
    int64_t b, e;
    chunk(n, omp_get_thread_num(), T, &b, &e);
    std::memcpy(dst + b, src + b, e - b);
  }
}

void streamCopy(char *dst, const char *src, int64_t n) {
  // dst and src are 64-byte aligned (chunk boundaries and allocations).
  int64_t i = 0;
  for (; i + 128 <= n; i += 128) {
    __m256 a = _mm256_load_ps(reinterpret_cast<const float *>(src + i));
    __m256 b = _mm256_load_ps(reinterpret_cast<const float *>(src + i + 32));
    __m256 c = _mm256_load_ps(reinterpret_cast<const float *>(src + i + 64));
    __m256 d = _mm256_load_ps(reinterpret_cast<const float *>(src + i + 96));
    _mm256_stream_ps(reinterpret_cast<float *>(dst + i), a);
    _mm256_stream_ps(reinterpret_cast<float *>(dst + i + 32), b);
    _mm256_stream_ps(reinterpret_cast<float *>(dst + i + 64), c);
    _mm256_stream_ps(reinterpret_cast<float *>(dst + i + 96), d);
  }
  std::memcpy(dst + i, src + i, n - i);
  _mm_sfence();
}

void streamMT(char *dst, const char *src, int64_t n, int T) {
  if (T == 1) {
    streamCopy(dst, src, n);
    return;
  }
#pragma omp parallel num_threads(T)
  {
    int64_t b, e;
    chunk(n, omp_get_thread_num(), T, &b, &e);
    streamCopy(dst + b, src + b, e - b);
  }
}

float readSum(const char *p, int64_t n) {
  const float *f = reinterpret_cast<const float *>(p);
  int64_t m = n / 4, i = 0;
  __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0,
         a6 = a0, a7 = a0;
  for (; i + 64 <= m; i += 64) {
    a0 = _mm256_add_ps(a0, _mm256_load_ps(f + i));
    a1 = _mm256_add_ps(a1, _mm256_load_ps(f + i + 8));
    a2 = _mm256_add_ps(a2, _mm256_load_ps(f + i + 16));
    a3 = _mm256_add_ps(a3, _mm256_load_ps(f + i + 24));
    a4 = _mm256_add_ps(a4, _mm256_load_ps(f + i + 32));
    a5 = _mm256_add_ps(a5, _mm256_load_ps(f + i + 40));
    a6 = _mm256_add_ps(a6, _mm256_load_ps(f + i + 48));
    a7 = _mm256_add_ps(a7, _mm256_load_ps(f + i + 56));
  }
  __m256 s = _mm256_add_ps(
      _mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
      _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
  float lanes[8];
  _mm256_storeu_ps(lanes, s);
  float r = 0;
  for (float l : lanes)
    r += l;
  for (; i < m; ++i)
    r += f[i];
  return r;
}

volatile float gSink;

void readSumMT(const char *p, int64_t n, int T) {
  if (T == 1) {
    gSink = readSum(p, n);
    return;
  }
  float part[64] = {};
#pragma omp parallel num_threads(T)
  {
    int64_t b, e;
    int t = omp_get_thread_num();
    chunk(n, t, T, &b, &e);
    part[t] = readSum(p + b, e - b);
  }
  float r = 0;
  for (int t = 0; t < T; ++t)
    r += part[t];
  gSink = r;
}

void emit(const Spec &s, int T, const char *impl, const Stats &st,
          int64_t bytes, const std::string &status) {
  std::printf("RESULT\t%s\t%s\t%d\t%s\t%.9g\t%.9g\t%.9g\t%d\t%lld\t%s\n",
              s.id.c_str(), s.variant.c_str(), T, impl, st.median, st.min,
              st.max, st.runs, static_cast<long long>(bytes), status.c_str());
  std::fflush(stdout);
}

// Measured again for every case, just before its kernels, so that a limit
// and the kernels it divides see the same machine state.
void measureLimits(const Spec &s, int T) {
  if (s.isCopy()) {
    // A copy of the same total traffic: (read + written) / 2 bytes each way.
    int64_t n = (s.metricBytes() / 2 + 63) / 64 * 64;
    Buf src = alloc(n), dst = alloc(n);
    std::memset(src.get(), 1, n);
    emit(s, T, "memcpy", timeIt([&] { memcpyMT(dst.get(), src.get(), n, T); }),
         2 * n, "ok");
    emit(s, T, "stream", timeIt([&] { streamMT(dst.get(), src.get(), n, T); }),
         2 * n, "ok");
  } else {
    int64_t n = (s.bytesRead + 63) / 64 * 64;
    Buf src = alloc(n);
    float *f = reinterpret_cast<float *>(src.get());
    for (int64_t i = 0; i < n / 4; ++i)
      f[i] = 1.0f;
    emit(s, T, "readsum", timeIt([&] { readSumMT(src.get(), n, T); }), n, "ok");
  }
}

// ---- naive loop nests -------------------------------------------------------

// Nest<D>::run walks D loops (sizes n, strides a into x and b into the
// result) and calls f(offset_a, offset_b) innermost: after inlining, the
// plain nested loops a newcomer writes.
template <int D> struct Nest {
  template <class F>
  static inline void run(const int64_t *n, const int64_t *a, const int64_t *b,
                         int64_t ia, int64_t ib, F &f) {
    for (int64_t i = 0; i < n[0]; ++i)
      Nest<D - 1>::run(n + 1, a + 1, b + 1, ia + i * a[0], ib + i * b[0], f);
  }
};
template <> struct Nest<0> {
  template <class F>
  static inline void run(const int64_t *, const int64_t *, const int64_t *,
                         int64_t ia, int64_t ib, F &f) {
    f(ia, ib);
  }
};

// The outermost loop, `#pragma omp parallel for` when T > 1.
template <int R, class F>
void outerLoop(const int64_t *n, const int64_t *a, const int64_t *b, F &f,
               int T) {
  if (T > 1) {
#pragma omp parallel for num_threads(T) schedule(static)
    for (int64_t i = 0; i < n[0]; ++i)
      Nest<R - 1>::run(n + 1, a + 1, b + 1, i * a[0], i * b[0], f);
  } else {
    for (int64_t i = 0; i < n[0]; ++i)
      Nest<R - 1>::run(n + 1, a + 1, b + 1, i * a[0], i * b[0], f);
  }
}

template <class TI, class TO>
void naiveCopy(const void *xp, void *op, const Spec &s, int T) {
  const TI *x = static_cast<const TI *>(xp);
  TO *out = static_cast<TO *>(op);
  std::vector<int64_t> ost = bench::rowMajor(s.vsizes);
  const int64_t *n = s.vsizes.data(), *a = s.vstrides.data(), *b = ost.data();
  auto f = [x, out](int64_t ia, int64_t ib) {
    out[ib] = static_cast<TO>(x[ia]);
  };
  switch (s.vsizes.size()) {
  case 1:
    return outerLoop<1>(n, a, b, f, T);
  case 2:
    return outerLoop<2>(n, a, b, f, T);
  case 3:
    return outerLoop<3>(n, a, b, f, T);
  case 4:
    return outerLoop<4>(n, a, b, f, T);
  case 5:
    return outerLoop<5>(n, a, b, f, T);
  case 6:
    return outerLoop<6>(n, a, b, f, T);
  }
  std::fprintf(stderr, "driver: rank %zu unsupported\n", s.vsizes.size());
  std::exit(2);
}

// For each result element (kept dims, row-major), loop over the reduced
// dims: the definition of the reduction, written out.
template <int NK, int NR, class TI, class ACC, class TO, bool MAX>
void naiveReduceImpl(const TI *x, TO *out, const int64_t *kn, const int64_t *ka,
                     const int64_t *kb, const int64_t *rn, const int64_t *ra,
                     int T) {
  static const int64_t zero[8] = {};
  const ACC init = MAX ? -INFINITY : ACC(0);
  auto one = [=](int64_t ia, int64_t ib) {
    ACC acc = init;
    auto g = [x, &acc](int64_t ja, int64_t) {
      if constexpr (MAX)
        acc = std::max(acc, static_cast<ACC>(x[ja]));
      else
        acc += static_cast<ACC>(x[ja]);
    };
    Nest<NR>::run(rn, ra, zero, ia, 0, g);
    out[ib] = static_cast<TO>(acc);
  };
  if constexpr (NK == 0) {
    ACC acc = init;
    auto g = [x, &acc](int64_t ja, int64_t) {
      if constexpr (MAX)
        acc = std::max(acc, static_cast<ACC>(x[ja]));
      else
        acc += static_cast<ACC>(x[ja]);
    };
    bool par = T > 1;
    if constexpr (MAX)
      par = false; // not needed by the suite
    if (par) {
#pragma omp parallel for num_threads(T) schedule(static) reduction(+ : acc)
      for (int64_t i = 0; i < rn[0]; ++i) {
        ACC part = 0;
        auto h = [x, &part](int64_t ja, int64_t) {
          part += static_cast<ACC>(x[ja]);
        };
        Nest<NR - 1>::run(rn + 1, ra + 1, zero, i * ra[0], 0, h);
        acc += part;
      }
    } else {
      Nest<NR>::run(rn, ra, zero, 0, 0, g);
    }
    out[0] = static_cast<TO>(acc);
  } else {
    outerLoop<NK>(kn, ka, kb, one, T);
  }
}

template <class TI, class ACC, class TO, bool MAX>
void naiveReduce(const void *xp, void *op, const Spec &s, int T) {
  std::vector<int64_t> kn, ka, rn, ra;
  for (size_t k = 0; k < s.vsizes.size(); ++k) {
    (s.reduced[k] ? rn : kn).push_back(s.vsizes[k]);
    (s.reduced[k] ? ra : ka).push_back(s.vstrides[k]);
  }
  std::vector<int64_t> kb = bench::rowMajor(kn);
  const TI *x = static_cast<const TI *>(xp);
  TO *out = static_cast<TO *>(op);
  int key = static_cast<int>(kn.size()) * 10 + static_cast<int>(rn.size());
#define NAIVE_REDUCE_CASE(NK, NR)                                              \
  case NK * 10 + NR:                                                           \
    return naiveReduceImpl<NK, NR, TI, ACC, TO, MAX>(                          \
        x, out, kn.data(), ka.data(), kb.data(), rn.data(), ra.data(), T);
  switch (key) {
    NAIVE_REDUCE_CASE(0, 1)
    NAIVE_REDUCE_CASE(0, 2)
    NAIVE_REDUCE_CASE(0, 3)
    NAIVE_REDUCE_CASE(1, 1)
    NAIVE_REDUCE_CASE(1, 2)
    NAIVE_REDUCE_CASE(2, 1)
    NAIVE_REDUCE_CASE(2, 2)
    NAIVE_REDUCE_CASE(3, 1)
  }
#undef NAIVE_REDUCE_CASE
  std::fprintf(stderr, "driver: %s: reduction shape unsupported\n",
               s.id.c_str());
  std::exit(2);
}

using NaiveFn = void (*)(const void *, void *, const Spec &, int);

NaiveFn naiveFor(const Spec &s) {
  if (s.isCopy()) {
    if (s.din == "f32" && s.dout == "f32")
      return naiveCopy<float, float>;
    if (s.din == "f16" && s.dout == "f16")
      return naiveCopy<uint16_t, uint16_t>;
    if (s.din == "i8" && s.dout == "i8")
      return naiveCopy<int8_t, int8_t>;
    if (s.din == "f32" && s.dout == "f16")
      return naiveCopy<float, f16>;
  } else if (s.action == "sum") {
    if (s.din == "f32")
      return naiveReduce<float, float, float, false>;
    if (s.din == "f16")
      return naiveReduce<f16, float, f16, false>;
  } else if (s.action == "amax" && s.din == "f32") {
    return naiveReduce<float, float, float, true>;
  }
  std::fprintf(stderr, "driver: %s: no naive version\n", s.id.c_str());
  std::exit(2);
}

// ---- data and verification --------------------------------------------------

uint64_t gRng = 0x9E3779B97F4A7C15ull;
inline uint64_t next() {
  gRng ^= gRng << 13;
  gRng ^= gRng >> 7;
  gRng ^= gRng << 17;
  return gRng;
}
inline float uniform() { // [-1, 1)
  return static_cast<float>(static_cast<int64_t>(next() >> 40) - (1 << 23)) /
         static_cast<float>(1 << 23);
}

void fill(char *p, const Spec &s) {
  int64_t n = s.inElems;
  if (s.din == "f32") {
    float *f = reinterpret_cast<float *>(p);
    for (int64_t i = 0; i < n; ++i)
      f[i] = uniform();
  } else if (s.din == "f16") {
    f16 *h = reinterpret_cast<f16 *>(p);
    for (int64_t i = 0; i < n; ++i)
      h[i] = static_cast<f16>(uniform());
  } else {
    for (int64_t i = 0; i < n; ++i)
      p[i] = static_cast<char>(next() >> 56);
  }
}

float outValue(const char *p, const Spec &s, int64_t i) {
  if (s.dout == "f16")
    return static_cast<float>(reinterpret_cast<const f16 *>(p)[i]);
  return reinterpret_cast<const float *>(p)[i];
}

// Copies: bit-exact. Sums: |got - ref| <= 1e-5 * sum|x| (~0.5 per element
// for uniform [-1, 1) data) + one rounding of the result type. amax: exact.
std::string verify(const Spec &s, const char *ref, const char *got) {
  char msg[256];
  if (s.isCopy()) {
    int64_t n = s.bytesWritten;
    if (std::memcmp(ref, got, n) == 0)
      return "ok";
    int eb = bench::dtypeBytes(s.dout);
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < s.outElems; ++i)
      if (std::memcmp(ref + i * eb, got + i * eb, eb) != 0) {
        bad++;
        if (first < 0)
          first = i;
      }
    std::snprintf(msg, sizeof msg,
                  "MISMATCH: %lld of %lld elements differ, first at %lld",
                  static_cast<long long>(bad),
                  static_cast<long long>(s.outElems),
                  static_cast<long long>(first));
    return msg;
  }
  int64_t nred = s.inElems / std::max<int64_t>(s.outElems, 1);
  double rel = s.dout == "f16" ? 1.0 / 1024 : 1e-6;
  int64_t bad = 0, first = -1;
  double worst = 0;
  for (int64_t i = 0; i < s.outElems; ++i) {
    double r = outValue(ref, s, i), g = outValue(got, s, i);
    double tol = s.action == "sum" ? 1e-5 * 0.5 * nred + rel * std::fabs(r) : 0;
    double err = std::fabs(r - g);
    if (!(err <= tol)) {
      bad++;
      if (first < 0) {
        first = i;
        worst = err;
      }
    }
  }
  if (!bad)
    return "ok";
  std::snprintf(msg, sizeof msg,
                "MISMATCH: %lld of %lld results off, first at %lld (error %g)",
                static_cast<long long>(bad), static_cast<long long>(s.outElems),
                static_cast<long long>(first), worst);
  return msg;
}

#ifdef BENCH_HAVE_HALIDE
halide_type_t halideType(const std::string &d) {
  if (d == "f32")
    return halide_type_t(halide_type_float, 32);
  if (d == "f16")
    return halide_type_t(halide_type_float, 16);
  return halide_type_t(halide_type_int, 8);
}

// A dense row-major buffer; Halide's dim 0 is the innermost.
struct HalideBuf {
  std::vector<halide_dimension_t> dims;
  halide_buffer_t b{};
  HalideBuf(void *p, const std::vector<int64_t> &sizes, const std::string &d) {
    std::vector<int64_t> st = bench::rowMajor(sizes);
    int r = static_cast<int>(sizes.size());
    for (int j = 0; j < r; ++j)
      dims.push_back(halide_dimension_t(0,
                                        static_cast<int32_t>(sizes[r - 1 - j]),
                                        static_cast<int32_t>(st[r - 1 - j])));
    b.host = static_cast<uint8_t *>(p);
    b.type = halideType(d);
    b.dimensions = r;
    b.dim = dims.data();
  }
};
#endif

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: driver SPEC [--threads 1,2] [--min-runs N] "
                         "[--no-layoutc REASON] [--no-naive-timing] "
                         "[--tuned]\n");
    return 2;
  }
  std::vector<int64_t> threads = {1, 2};
  std::string noLayoutc;
  bool naiveTiming = true;
  bool tuned = false;
#ifndef BENCH_HAVE_LAYOUTC
  noLayoutc = "backend missing";
#endif
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--threads" && i + 1 < argc)
      threads = bench::parseList(argv[++i]);
    else if (a == "--min-runs" && i + 1 < argc)
      gMinRuns = std::max(5, std::atoi(argv[++i]));
    else if (a == "--no-layoutc" && i + 1 < argc)
      noLayoutc = argv[++i];
    else if (a == "--no-naive-timing")
      naiveTiming = false;
    else if (a == "--tuned")
      tuned = true;
    else {
      std::fprintf(stderr, "driver: unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  std::vector<Spec> specs = bench::readSpecs(argv[1]);
  for (const Spec &s : specs) {
    std::fprintf(stderr, "driver: %s %s\n", s.id.c_str(), s.variant.c_str());
    Buf x = alloc(s.inElems * bench::dtypeBytes(s.din));
    fill(x.get(), s);
    int64_t outBytes = s.outElems * bench::dtypeBytes(s.dout);
    Buf ref = alloc(outBytes), got = alloc(outBytes);
    NaiveFn naive = naiveFor(s);
    naive(x.get(), ref.get(), s, 1);
    auto check = [&](const std::function<void()> &run) {
      std::memset(got.get(), 0xA5, outBytes);
      run();
      return verify(s, ref.get(), got.get());
    };
#ifdef BENCH_HAVE_HALIDE
    const HalideEntry *hl = nullptr;
    for (const HalideEntry *e = kHalideEntries; e->id; ++e)
      if (s.id == e->id)
        hl = e;
#endif
#ifdef BENCH_HAVE_LAYOUTC
    const LayoutcEntry *lc = nullptr, *lcDyn = nullptr, *lcTuned = nullptr;
    for (const LayoutcEntry *e = kLayoutcEntries; e->name; ++e) {
      if (s.fn == e->name)
        lc = e;
      if (s.fn + "@dyn" == e->name)
        lcDyn = e;
      if (s.fn + "@tuned" == e->name)
        lcTuned = e;
    }
#endif
    int64_t bytes = s.metricBytes();
    for (int64_t T64 : threads) {
      int T = static_cast<int>(T64);
      measureLimits(s, T);

      // naive
      if (naiveTiming) {
        std::string status = "ok";
        if (T > 1)
          status = check([&] { naive(x.get(), got.get(), s, T); });
        Stats st = timeIt([&] { naive(x.get(), got.get(), s, T); });
        emit(s, T, "naive", st, bytes, status);
      }

      // Halide
#ifdef BENCH_HAVE_HALIDE
      if (hl) {
        HalideBuf in(x.get(), s.shape, s.din);
        HalideBuf out(got.get(), s.osizes, s.dout);
        auto fn = T == 1 ? hl->serial : hl->parallel;
        halide_set_num_threads(T);
        int rc = 0;
        std::string status = check([&] { rc = fn(&in.b, &out.b); });
        if (rc != 0) {
          emit(s, T, "halide", Stats{}, bytes,
               "error: pipeline returned " + std::to_string(rc));
        } else {
          Stats st = timeIt([&] { fn(&in.b, &out.b); });
          emit(s, T, "halide", st, bytes, status);
        }
      } else {
        emit(s, T, "halide", Stats{}, bytes, "n/a: not generated");
      }
#else
      emit(s, T, "halide", Stats{}, bytes, "n/a: Halide missing");
#endif

      // layoutc, static and dynamic (every size of x a run-time value)
#ifdef BENCH_HAVE_LAYOUTC
      auto layoutc = [&](const char *impl, const LayoutcEntry *entry) {
        if (!noLayoutc.empty())
          return emit(s, T, impl, Stats{}, bytes, "n/a: " + noLayoutc);
        if (!entry)
          return emit(s, T, impl, Stats{}, bytes, "n/a: function not compiled");
        lrt_exec_options_t opts = {sizeof(lrt_exec_options_t), T};
        lrt_status_t err = LRT_OK;
        std::string status =
            check([&] { err = entry->fn(x.get(), got.get(), &opts); });
        if (err != LRT_OK) {
          std::string m = lrt_status_message(err);
          lrt_status_free(err);
          for (char &c : m)
            if (c == '\t' || c == '\n')
              c = ' ';
          return emit(s, T, impl, Stats{}, bytes, "error: " + m);
        }
        Stats st = timeIt([&] { entry->fn(x.get(), got.get(), &opts); });
        emit(s, T, impl, st, bytes, status);
      };
      layoutc("layoutc", lc);
      layoutc("layoutc_dyn", lcDyn);
      if (tuned)
        layoutc("layoutc_tuned", lcTuned);
#else
      emit(s, T, "layoutc", Stats{}, bytes, "n/a: " + noLayoutc);
      emit(s, T, "layoutc_dyn", Stats{}, bytes, "n/a: " + noLayoutc);
      if (tuned)
        emit(s, T, "layoutc_tuned", Stats{}, bytes, "n/a: " + noLayoutc);
#endif
    }
  }
  return 0;
}
