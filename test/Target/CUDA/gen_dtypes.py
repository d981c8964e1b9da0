#!/usr/bin/env python3
"""Writes a layout program covering every dtype pair of the language (layout.to
on a contiguous source: the memcpy strategy; layout.copy from a transposed view:
the transpose strategy) and every reduction on every dtype that accepts it
(inner and outer), plus a C++ driver that runs all of it on fixed inputs and
prints every output element's bits.

The driver compiles against the CPU backend's header (plain C++, host memory)
or, with -DLAYOUTC_CUDA, against the CUDA header (device memory from
cudaMalloc, under nvcc or the host emulation), so the two backends' outputs
can be diffed: copies, conversions and integer/amax/amin/arg reductions must
agree bit for bit; float sums, means and products do too here because the
inputs are small integers (every partial sum is exact).

usage: gen_dtypes.py OUT_DIR   (writes OUT_DIR/dtypes.mlir, OUT_DIR/driver.cpp)
"""
import os
import struct
import sys

import numpy as np

TYPES = "i1 i8 i16 i32 i64 ui8 f16 bf16 f32 f64".split()
KINDS = "sum mean prod amax amin argmax argmin".split()
DLTYPE = {"i1": "LRT_DL_BOOL, 8", "i8": "kDLInt, 8", "i16": "kDLInt, 16",
          "i32": "kDLInt, 32", "i64": "kDLInt, 64", "ui8": "kDLUInt, 8",
          "f16": "kDLFloat, 16", "bf16": "kDLBfloat, 16",
          "f32": "kDLFloat, 32", "f64": "kDLFloat, 64"}
BYTES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "ui8": 1, "f16": 2,
         "bf16": 2, "f32": 4, "f64": 8}

def is_float(t):
    return t in ("f16", "bf16", "f32", "f64")

# Conversion sources. Float -> int of NaN, infinities and values outside the
# intermediate int32/int64 is undefined in C and differs between x86 and
# GPUs, so those pairs get only in-range values.
FLOATS_ALL = [0.0, -0.0, 1.5, -2.5, 1e-8, 65504.0, 70000.0, 0.1, 255.5,
              -128.7, 300.0, 1.0 / 3, 3.0e38, float("nan"), float("inf"),
              -float("inf"), 65519.0, 2.0 ** -24, -1e-30, 4097.0]
FLOATS_INT_SAFE = [0.0, -0.0, 1.5, -2.5, 1e-8, 65504.0, 70000.0, 0.1, 255.5,
                   -128.7, 300.0, 1.0 / 3, -1e-30, 4097.0, 129.9, -300.2,
                   1e9, -2.0e9, 65535.9, 32768.5]
INTS = [0, 1, -1, 127, -128, 255, 300, -300, 70000, -70000, 2 ** 31 - 1,
        -2 ** 31, 2 ** 40 + 1, -2 ** 40 + 3, 2 ** 24 + 1, 2 ** 53 + 1, 3, 4,
        -5, 100]
SMALL = [-2.0, -1.0, 0.0, -0.0, 1.0, 2.0, 3.0]

def bf16_bits(values):
    f = np.array(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    r = ((f + 0x7FFF + ((f >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(np.array(values, dtype=np.float32))
    r[nan] = 0x7FC0
    return r

def encode(t, values):
    """Bytes of `values` stored as dtype t, as a C initializer list."""
    if t == "i1":
        arr = np.array([1 if v else 0 for v in values], dtype=np.uint8)
    elif t == "f16":
        with np.errstate(over="ignore"):
            arr = np.array(values, dtype=np.float16).view(np.uint16)
    elif t == "bf16":
        arr = bf16_bits(values)
    elif t == "f32":
        with np.errstate(over="ignore"):
            arr = np.array(values, dtype=np.float32).view(np.uint32)
    elif t == "f64":
        arr = np.array(values, dtype=np.float64).view(np.uint64)
    else:
        bits = BYTES[t] * 8
        mask = (1 << bits) - 1
        arr = [int(v) & mask for v in values]
        return [str(v) for v in arr]
    return [str(int(v)) for v in arr]

def values_for(src, dst, n):
    if src == "i1":
        base = [0, 1, 1, 0, 1]
    elif is_float(src):
        base = FLOATS_INT_SAFE if not is_float(dst) and dst != "i1" else FLOATS_ALL
        if src == "f16" and base is FLOATS_INT_SAFE:
            base = [v for v in base if abs(v) < 65504]
    else:
        base = INTS
    return [base[i % len(base)] for i in range(n)]

def reduce_values(t, n, kind):
    if t == "i1":
        return [(i * 7 + 3) % 5 == 0 for i in range(n)]
    vals = []
    for i in range(n):
        v = SMALL[(i * 5 + 2) % len(SMALL)]
        if is_float(t) and i % 97 == 11 and kind not in ("sum", "mean", "prod"):
            v = float("nan")
        if is_float(t) and i % 31 == 7:
            v = float("inf") if kind != "prod" else v
        vals.append(v if is_float(t) else int(v) * (1 + i % 3))
    return vals

class Module:
    def __init__(self):
        self.mlir = []
        self.calls = []

    def add(self, name, text, params, results):
        """params: (role, dtype, shape, init) in ABI order; results: their
        indices in params to print."""
        self.mlir.append(text)
        self.calls.append((name, params, results))

def build():
    m = Module()
    for a in TYPES:
        for b in TYPES:
            if a == b:
                continue
            name = f"to_{a}_{b}"
            text = (
                f"func.func @{name}(%x: !layout.tensor<5x7x{a}>, "
                f"%y: !layout.tensor<7x5x{b}>) -> !layout.tensor<5x7x{b}> {{\n"
                f"  %c = layout.to %x {b} : !layout.tensor<5x7x{a}>\n"
                f"  %t = layout.transpose %x 0, 1 : !layout.tensor<5x7x{a}>\n"
                f"  layout.copy %t, %y : !layout.tensor<7x5x{a}, "
                f"strided<[1, 7]>>, !layout.tensor<7x5x{b}>\n"
                f"  return %c : !layout.tensor<5x7x{b}>\n}}\n")
            params = [("in", a, [5, 7], encode(a, values_for(a, b, 35))),
                      ("out", b, [7, 5], None), ("out", b, [5, 7], None)]
            m.add(name, text, params, [1, 2])
    for a in TYPES:
        for k in KINDS:
            if k == "mean" and not is_float(a):
                continue
            rt = a
            if k.startswith("arg") or (k in ("sum", "mean", "prod") and
                                       not is_float(a)):
                rt = "i64"
            shapes = [("inner", [5, 37], "[1]", [5]),
                      ("outer", [37, 5], "[0]", [5]), ("all", [4, 9], "[]", [])]
            # Long reductions of few outputs: split into partials that a
            # second kernel combines.
            if a in ("f32", "i32", "bf16") and k in ("sum", "amax", "argmax",
                                                     "argmin"):
                shapes += [("long_inner", [3, 70001], "[1]", [3]),
                           ("long_outer", [70001, 3], "[0]", [3])]
            for tag, shape, dims, out in shapes:
                name = f"{k}_{a}_{tag}"
                sh = "x".join(map(str, shape))
                osh = "x".join(map(str, out)) + ("x" if out else "")
                text = (
                    f"func.func @{name}(%x: !layout.tensor<{sh}x{a}>) -> "
                    f"!layout.tensor<{osh}{rt}> {{\n"
                    f"  %r = layout.reduce {k} %x dims {dims} : "
                    f"!layout.tensor<{sh}x{a}>\n"
                    f"  return %r : !layout.tensor<{osh}{rt}>\n}}\n")
                n = shape[0] * shape[1]
                params = [("in", a, shape,
                           encode(a, reduce_values(a, n, k))),
                          ("out", rt, out, None)]
                m.add(name, text, params, [1])
    add_edges(m)
    return m

def add_edges(m):
    """Rank 0, size-0 dims, broadcasts, steps, a one-element reduction."""
    def t(shape, dtype):
        return "!layout.tensor<" + "".join(f"{d}x" for d in shape) + dtype + ">"
    m.add("empty_copy",
          "func.func @empty_copy(%x: " + t([0, 5], "f32") + ") -> " +
          t([0, 5], "f16") + " {\n  %c = layout.to %x f16 : " +
          t([0, 5], "f32") + "\n  return %c : " + t([0, 5], "f16") + "\n}\n",
          [("in", "f32", [0, 5], None), ("out", "f16", [0, 5], None)], [1])
    m.add("empty_reduce",
          "func.func @empty_reduce(%x: " + t([3, 0], "f32") + ") -> (" +
          ", ".join([t([3], "f32")] * 3) + ") {\n"
          "  %s = layout.reduce sum %x dims [1] : " + t([3, 0], "f32") + "\n"
          "  %p = layout.reduce prod %x dims [1] : " + t([3, 0], "f32") + "\n"
          "  %m = layout.reduce mean %x dims [1] : " + t([3, 0], "f32") + "\n"
          "  return %s, %p, %m : " + ", ".join([t([3], "f32")] * 3) +
          "\n}\n",
          [("in", "f32", [3, 0], None), ("out", "f32", [3], None),
           ("out", "f32", [3], None), ("out", "f32", [3], None)],
          [1, 2, 3])
    m.add("empty_out",
          "func.func @empty_out(%x: " + t([0, 4], "i32") + ") -> " +
          t([0], "i64") + " {\n  %s = layout.reduce sum %x dims [1] : " +
          t([0, 4], "i32") + "\n  return %s : " + t([0], "i64") + "\n}\n",
          [("in", "i32", [0, 4], None), ("out", "i64", [0], None)], [1])
    m.add("scalar",
          "func.func @scalar(%x: " + t([], "f64") + ") -> " + t([], "f16") +
          " {\n  %c = layout.to %x f16 : " + t([], "f64") +
          "\n  return %c : " + t([], "f16") + "\n}\n",
          [("in", "f64", [], encode("f64", [0.1])), ("out", "f16", [], None)],
          [1])
    m.add("bcast",
          "func.func @bcast(%x: " + t([1, 5], "f16") + ") -> " +
          t([4, 5], "f32") + " {\n  %e = layout.expand %x [4, 5] : " +
          t([1, 5], "f16") + "\n  %c = layout.to %e f32 : "
          "!layout.tensor<4x5xf16, strided<[0, 1]>>\n  return %c : " +
          t([4, 5], "f32") + "\n}\n",
          [("in", "f16", [1, 5], encode("f16", [0.5, -1, 65504, 3, 1e-7])),
           ("out", "f32", [4, 5], None)], [1])
    m.add("step",
          "func.func @step(%x: " + t([4, 9], "i8") + ") -> " + t([4, 5], "i8") +
          " {\n  %s = layout.slice %x dim 1 [0 : 9 : 2] : " + t([4, 9], "i8") +
          "\n  %c = layout.contiguous %s : "
          "!layout.tensor<4x5xi8, strided<[9, 2]>>\n  return %c : " +
          t([4, 5], "i8") + "\n}\n",
          [("in", "i8", [4, 9], encode("i8", list(range(-18, 18)))),
           ("out", "i8", [4, 5], None)], [1])
    # An intermediate tensor in scratch: a reduction broadcast into a
    # conversion.
    m.add("chain",
          "func.func @chain(%x: " + t([6, 5], "f32") + ") -> " +
          t([6, 5], "f16") + " {\n"
          "  %r = layout.reduce amax %x dims [0] keepdim : " +
          t([6, 5], "f32") + "\n"
          "  %e = layout.expand %r [6, 5] : " + t([1, 5], "f32") + "\n"
          "  %h = layout.to %e f16 : "
          "!layout.tensor<6x5xf32, strided<[0, 1]>>\n"
          "  return %h : " + t([6, 5], "f16") + "\n}\n",
          [("in", "f32", [6, 5],
            encode("f32", [((i * 7) % 30) * 0.5 - 4 for i in range(30)])),
           ("out", "f16", [6, 5], None)], [1])
    m.add("one",
          "func.func @one(%x: " + t([1, 1], "f32") + ") -> " + t([], "f32") +
          " {\n  %s = layout.reduce amax %x dims [] : " + t([1, 1], "f32") +
          "\n  return %s : " + t([], "f32") + "\n}\n",
          [("in", "f32", [1, 1], encode("f32", [-7.5])),
           ("out", "f32", [], None)], [1])

DRIVER_HEAD = r'''// Generated by test/Target/CUDA/gen_dtypes.py: runs every function of dtypes.mlir
// on fixed inputs and prints each output element's bits (any NaN as "nan").
#include "dtypes.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#ifdef LAYOUTC_CUDA
static void *alloc(size_t bytes) {
  void *p = nullptr;
  if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess) std::abort();
  cudaMemset(p, 0, bytes ? bytes : 1);
  return p;
}
static void release(void *p) { cudaFree(p); }
static void upload(void *d, const void *h, size_t n) {
  cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
}
static void download(void *h, const void *d, size_t n) {
  cudaDeviceSynchronize();
  cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost);
}
static const DLDevice kDevice = {kDLCUDA, 0};
#else
static void *alloc(size_t bytes) { return std::calloc(bytes ? bytes : 1, 1); }
static void release(void *p) { std::free(p); }
// Empty tensors have no buffer: memcpy of 0 bytes still wants non-null.
static void upload(void *d, const void *h, size_t n) {
  if (n)
    std::memcpy(d, h, n);
}
static void download(void *h, const void *d, size_t n) {
  if (n)
    std::memcpy(h, d, n);
}
static const DLDevice kDevice = {kDLCPU, 0};
// The CPU backend's bf16 argmax/argmin round through libgcc's __truncsfbf2,
// which GCC 12 lacks: the same rounding (nearest even, NaN stays NaN),
// returned in the low half of xmm0 as GCC 13 does.
extern "C" __attribute__((weak)) _Float16 __truncsfbf2(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  uint16_t b = (u & 0x7fffffffu) > 0x7f800000u
                   ? (uint16_t)((u >> 16) | 0x40)
                   : (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return h;
}
#endif

struct Tensor {
  std::vector<int64_t> shape;
  size_t bytes;
  void *data;
  DLTensor t;
  Tensor(std::vector<int64_t> s, DLDataType dtype, int elementBytes)
      : shape(std::move(s)) {
    size_t n = 1;
    for (int64_t d : shape) n *= d;
    bytes = n * elementBytes;
    data = alloc(bytes);
    std::memset(&t, 0, sizeof(t));
    t.data = data;
    t.device = kDevice;
    t.ndim = (int)shape.size();
    t.dtype = dtype;
    t.shape = shape.data();
  }
  ~Tensor() { release(data); }
};

static void print(const char *fn, int index, const Tensor &t, int kind) {
  std::vector<unsigned char> h(t.bytes);
  download(h.data(), t.data, t.bytes);
  std::printf("%s result %d:", fn, index);
  int eb = t.t.dtype.bits / 8;
  for (size_t i = 0; i < t.bytes; i += eb) {
    uint64_t v = 0;
    std::memcpy(&v, &h[i], eb);
    bool nan = false;
    if (kind == 1) nan = (v & 0x7c00) == 0x7c00 && (v & 0x3ff);          // f16
    if (kind == 2) nan = (v & 0x7f80) == 0x7f80 && (v & 0x7f);           // bf16
    if (kind == 3) nan = (v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffff);
    if (kind == 4)
      nan = (v & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
            (v & 0xfffffffffffffull);
    if (nan) std::printf(" nan");
    else std::printf(" %llx", (unsigned long long)v);
  }
  std::printf("\n");
}

static int failures = 0;
static void check(const char *fn, lrt_status_t s) {
  if (!s) return;
  std::printf("%s FAILED: %s\n", fn, lrt_status_message(s));
  lrt_status_free(s);
  ++failures;
}
'''

FLOAT_KIND = {"f16": 1, "bf16": 2, "f32": 3, "f64": 4}

def driver(m):
    out = [DRIVER_HEAD]
    for name, params, results in m.calls:
        out.append(f"static void run_{name}() {{")
        names = []
        for i, (role, t, shape, init) in enumerate(params):
            shp = ", ".join(map(str, shape))
            out.append(f"  Tensor p{i}({{{shp}}}, DLDataType{{{DLTYPE[t]}, 1}}, "
                       f"{BYTES[t]});")
            if init is not None:
                # Raw bits, as the unsigned type of the element's width.
                ut = {1: "uint8_t", 2: "uint16_t", 4: "uint32_t",
                      8: "uint64_t"}[BYTES[t]]
                out.append(f"  static const {ut} init{i}[] = "
                           f"{{{', '.join(v + 'ull' for v in init)}}};"
                           .replace("ull", "ull" if BYTES[t] == 8 else "u"))
                out.append(f"  upload(p{i}.data, init{i}, sizeof(init{i}));")
            names.append(f"&p{i}.t")
        out.append(f"  check(\"{name}\", {name}({', '.join(names)}, 0));")
        for r in results:
            t = params[r][1]
            out.append(f"  print(\"{name}\", {r}, p{r}, {FLOAT_KIND.get(t, 0)});")
        out.append("}")
    out.append("int main() {")
    for name, _, _ in m.calls:
        out.append(f"  run_{name}();")
    out.append('  std::printf("%d launcher failure(s)\\n", failures);')
    out.append("  return failures != 0;")
    out.append("}")
    return "\n".join(out) + "\n"

def main():
    outdir = sys.argv[1]
    m = build()
    with open(os.path.join(outdir, "dtypes.mlir"), "w") as f:
        f.write("".join(m.mlir))
    text = driver(m)
    with open(os.path.join(outdir, "driver.cpp"), "w") as f:
        f.write(text)

if __name__ == "__main__":
    main()
