//===- CUDAKernels.cpp - Kernel plans as CUDA kernels ---------------------===//
//
// Prints the __global__ kernels of one kernel plan. Every kernel reads
// through a pointer to its source view's first element and writes through
// one to its destination view's first element; element offsets come from the
// plan's coalesced loops, decoded from a flat index by div/mod with constant
// divisors (multiplications on the GPU).
//
// Grids are capped at kMaxBlocks blocks and every kernel loops grid-stride,
// so any size runs with the same launch shape on every device. Reductions
// split their reduced range into a number of partials that depends only on
// the plan's sizes, and a second kernel folds the partials in a fixed order:
// the same bits every run, on every GPU and under host emulation.
//
//===----------------------------------------------------------------------===//

#include "CUDAKernels.h"

#include "layout/Dialect/Layout/IR/LayoutTypes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <tuple>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cuda;

// A tuning knob for measuring other lane shapes (bench/gpu/RESULTS.md); 0
// is vectorTranspose's choice.
static llvm::cl::opt<int> clTransposeLoadLanes(
    "cuda-transpose-load-lanes",
    llvm::cl::desc("Lanes of a warp along the source rows in CUDA vector "
                   "transposes (1, 2, 4, 8, 16 or 32; the rest go along the "
                   "destination rows; 0: chosen per transpose)"),
    llvm::cl::init(0), llvm::cl::Hidden);

std::optional<CElem> cuda::celemOf(Type t) {
  auto i = dyn_cast<IntegerType>(t);
  bool supported =
      t.isF16() || t.isBF16() || t.isF32() || t.isF64() ||
      (i && llvm::is_contained({1u, 8u, 16u, 32u, 64u}, i.getWidth()));
  if (!supported)
    return std::nullopt;
  CElem e;
  e.name = elementName(t);
  e.bytes = elementBytes(t);
  e.isFloat = isa<FloatType>(t);
  e.isHalf = t.isF16() || t.isBF16();
  e.isBF16 = t.isBF16();
  e.isBool = t.isInteger(1);
  e.isUnsigned = (i && i.isUnsigned()) || e.isBool;
  // The raw ABI's types, but i1 as its byte: a bool holding any byte then
  // copies and converts as the CPU backend's i8 does.
  e.c = e.isBool ? "uint8_t" : rawElementCType(t);
  return e;
}

/// Register types reductions accumulate and shuffle in (the types
/// __shfl_*_sync takes).
static CElem computeElem(StringRef kind) {
  CElem e;
  e.name = kind.str();
  if (kind == "float" || kind == "double") {
    e.c = kind.str();
    e.isFloat = true;
    e.bytes = kind == "float" ? 4 : 8;
  } else if (kind == "int") {
    e.c = "int";
  } else if (kind == "unsigned") {
    e.c = "unsigned";
    e.isUnsigned = true;
  } else {
    e.c = "long long";
    e.bytes = 8;
  }
  return e;
}

/// `x` of type `from` as a value of type `to`, with the CPU backend's
/// (PyTorch's) rules: through f32 for f16/bf16, float -> int truncation
/// through a 32- or 64-bit integer, x != 0 for bool.
static std::string convertExpr(const CElem &from, const CElem &to,
                               const std::string &x) {
  if (from.name == to.name)
    return x;
  if (from.isHalf) {
    std::string f =
        std::string(from.isBF16 ? "lrt_bf16_to_f32(" : "lrt_f16_to_f32(") + x +
        ")";
    return convertExpr(computeElem("float"), to, f);
  }
  if (to.isBool)
    return "(uint8_t)((" + x + ") != 0)";
  if (to.isHalf) {
    std::string f = from.c == "float" ? x : "(float)(" + x + ")";
    return std::string(to.isBF16 ? "lrt_f32_to_bf16(" : "lrt_f32_to_f16(") + f +
           ")";
  }
  if (from.isFloat && !to.isFloat)
    return "(" + to.c + ")(" + (to.bytes == 8 ? "int64_t" : "int32_t") + ")(" +
           x + ")";
  return "(" + to.c + ")(" + x + ")";
}

/// Both non-negative, d > 0.
static int64_t ceilDiv(int64_t n, int64_t d) { return n / d + (n % d != 0); }

std::string cuda::lit(int64_t v, StringRef type) {
  if (v < 0)
    return "(" + type.str() + ")(" + std::to_string(v) + ")";
  return "(" + type.str() + ")" + std::to_string(v);
}

int64_t cuda::product(ArrayRef<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

static int64_t blocksFor(int64_t work, int64_t perBlock) {
  return std::clamp<int64_t>(ceilDiv(work, perBlock), 1, kMaxBlocks);
}

namespace {

/// One loop of a kernel: size and the element stride of each side.
struct Loop {
  int64_t size;
  int64_t srcStride;
  int64_t dstStride;
};

/// How a reduction runs on the GPU.
struct ReduceSpec {
  /// Output loops, then reduced loops, outermost first.
  std::vector<Loop> kept, reduced;
  int64_t outputs = 0, count = 0;
  /// A warp per output (the reduced run is contiguous) rather than a
  /// thread per output.
  bool warpPerOutput = false;
  /// Partials per output; > 1 adds a combining kernel.
  int64_t parts = 1;
  int64_t chunk = 0;
  /// Elements a lane of a warp-per-output reduction loads at once (a
  /// 16-byte vector) when the reduced run is one loop of stride 1; else 1.
  int64_t vectorWidth = 1;
};

/// A copy that moves whole 16-byte (or narrower) vectors: each vector is
/// `width` elements along a unit-stride loop, starting at a multiple of
/// `width` elements from the view's first element on both sides, so the
/// launcher's alignment check of the first elements aligns every vector.
struct VectorSpec {
  int64_t width = 1;
  /// Bytes of one loaded (source) and one stored (destination) vector.
  int64_t loadBytes = 0, storeBytes = 0;
  /// Transposes: lanes of a warp along a and along b (lanesA * lanesB =
  /// 32); each lane moves a width x width block.
  int64_t lanesA = 0, lanesB = 0;
  /// Interleaves (a transpose whose destination-side loop b is too short to
  /// tile, as NCHW -> NHWC with 3 channels): a thread loads one vector of
  /// each of b's `rows` source rows and stores them interleaved, `rows`
  /// contiguous vectors.
  bool interleave = false;
  int64_t rows = 0;
  int64_t grid = 1;
};

/// The unsigned type of `bytes` bytes that vectors travel as, or "".
static std::string vectorType(int64_t bytes) {
  switch (bytes) {
  case 4:
    return "unsigned";
  case 8:
    return "uint2";
  case 16:
    return "uint4";
  default:
    return "";
  }
}

/// Prints the kernels of one Kernel of an ABI and the launch code the raw
/// launcher runs for it.
class PlanKernelPrinter : public KernelPrinter {
public:
  PlanKernelPrinter(const Kernel &k, std::string name, CElem src, CElem dst)
      : k(k), name(std::move(name)), src(std::move(src)), dst(std::move(dst)) {
    I = k.plan.index32 ? "int32_t" : "int64_t";
    U = k.plan.index32 ? "uint32_t" : "uint64_t";
  }

  /// Decides what to print; fails with a diagnostic on what it cannot.
  LogicalResult prepare() override {
    for (const KernelLoop &l : k.plan.loops)
      if (l.size < 0)
        return emitError(k.loc, "CUDA code generation: negative loop size");
    srcElements = product(k.src.sizes);
    dstElements = product(k.dst.sizes);
    if (k.kind == KernelKind::Copy) {
      int lanes = clTransposeLoadLanes;
      if (lanes != 0 &&
          (lanes < 1 || lanes > 32 || !llvm::isPowerOf2_32(lanes)))
        return emitError(k.loc, "--cuda-transpose-load-lanes must be 0 or a "
                                "power of two from 1 to 32, got ")
               << lanes;
      if (dstElements != 0 && !isContiguousRun()) {
        if (isTiled())
          vec = vectorTranspose();
        else if (!(vec = vectorInterleave()))
          vec = vectorElementwise();
      }
      return success();
    }
    return prepareReduction();
  }

  bool launchesKernels() const override { return dstElements != 0; }

  /// Bytes of scratch the kernel needs for partials (aligned to 256).
  int64_t scratchBytes() const override {
    if (k.kind != KernelKind::Reduce || spec.parts <= 1)
      return 0;
    int64_t n = spec.outputs * spec.parts;
    int64_t bytes = llvm::alignTo(n * acc.bytes, 256);
    if (isArg())
      bytes += llvm::alignTo(n * 8, 256);
    return bytes;
  }

  void printKernels(Printer &p) override {
    p.line("// " + name + ": " + std::string(describe()));
    if (k.kind == KernelKind::Copy) {
      if (dstElements == 0)
        return void(p.line("// (no elements: nothing to launch)").line());
      if (isContiguousRun()) {
        if (!k.plan.convert && src.c == dst.c)
          printVectorMemcpy(p);
        printElementwise(p, name + "_scalar");
      } else if (isTiled()) {
        if (vec)
          printVectorTranspose(p);
        printTranspose(p);
      } else {
        if (vec && vec->interleave)
          printVectorInterleave(p);
        else if (vec)
          printVectorElementwise(p);
        printElementwise(p, name + "_elementwise");
      }
      return;
    }
    if (dstElements == 0)
      return void(p.line("// (no outputs: nothing to launch)").line());
    // The kernels first, then the helpers they call above them: an
    // unreferenced static function is an nvcc warning.
    std::string body;
    llvm::raw_string_ostream bodyStream(body);
    Printer bodyPrinter(bodyStream);
    if (srcElements == 0) {
      printFill(bodyPrinter);
    } else {
      if (spec.warpPerOutput)
        printReduceWarp(bodyPrinter);
      else
        printReduceThread(bodyPrinter);
      if (spec.parts > 1)
        printCombine(bodyPrinter);
    }
    printReduceHelpers(p, body);
    p.os << body;
  }

  /// Statements of the raw launcher; `srcView`/`dstView` are expressions for
  /// the views' first elements, `scratch` the kernel's partials (or null).
  void printLaunch(Printer &p, const std::string &srcView,
                   const std::string &dstView,
                   const std::string &scratch) override {
    auto launch = [&](const std::string &kernel, const std::string &grid,
                      const std::string &block, const std::string &args) {
      p.line("LRT_LAUNCH(" + kernel + ", " + grid + ", " + block +
             ", stream, " + args + ");");
      p.line("if ((err = cudaGetLastError()) != cudaSuccess) { fail(\"" +
             kernelLabel(kernel) + "\", err); break; }");
    };
    std::string args = srcView + ", " + dstView;
    std::string grid1 = "dim3(" + std::to_string(gridSize) + ")";
    std::string block1 = "dim3(" + std::to_string(kBlock) + ")";
    if (k.kind == KernelKind::Copy) {
      if (dstElements == 0)
        return;
      if (isContiguousRun()) {
        if (!k.plan.convert && src.c == dst.c) {
          p.line("if ((((uintptr_t)(" + srcView + ") | (uintptr_t)(" + dstView +
                 ")) & 15) == 0) {");
          launch(name + "_uint4", grid1, block1, args);
          p.line("} else {");
          launch(name + "_scalar", grid1, block1, args);
          p.line("}");
        } else {
          launch(name + "_scalar", grid1, block1, args);
        }
        return;
      }
      // Vector kernels need their views' first elements aligned to the
      // vectors they load and store; other pointers take the scalar kernel.
      if (vec) {
        p.line("if ((((uintptr_t)(" + srcView + ") & " +
               std::to_string(vec->loadBytes - 1) + ") | ((uintptr_t)(" +
               dstView + ") & " + std::to_string(vec->storeBytes - 1) +
               ")) == 0) {");
        launch(name + (isTiled()         ? "_vtranspose"
                       : vec->interleave ? "_vinterleave"
                                         : "_velementwise"),
               "dim3(" + std::to_string(vec->grid) + ")", block1, args);
        p.line("} else {");
      }
      if (isTiled())
        launch(name + "_transpose", grid1,
               "dim3(" + std::to_string(kTile) + ", " +
                   std::to_string(kTileRows) + ")",
               args);
      else
        launch(name + "_elementwise", grid1, block1, args);
      if (vec)
        p.line("}");
      return;
    }
    if (dstElements == 0)
      return;
    if (srcElements == 0)
      return launch(name + "_fill", grid1, block1, dstView);
    std::string partials = "(" + acc.c + " *)(" + scratch + ")";
    std::string indices =
        isArg() ? "(long long *)((char *)(" + scratch + ") + " +
                      std::to_string(llvm::alignTo(
                          spec.outputs * spec.parts * acc.bytes, 256)) +
                      ")"
                : std::string("nullptr");
    std::string reduceArgs = srcView + ", " + dstView + ", " +
                             (spec.parts > 1 ? partials : "nullptr") + ", " +
                             (spec.parts > 1 ? indices : "nullptr");
    if (spec.warpPerOutput)
      launch(name + "_reduce_warp", grid1, block1, reduceArgs);
    else
      launch(name + "_reduce_thread",
             "dim3(" + std::to_string(gridSize) + ", " +
                 std::to_string(spec.parts) + ")",
             block1, reduceArgs);
    if (spec.parts > 1)
      launch(name + "_fold",
             "dim3(" +
                 std::to_string(foldPerBlock()
                                    ? std::min(spec.outputs, kMaxBlocks)
                                    : blocksFor(spec.outputs, kBlock)) +
                 ")",
             block1, dstView + ", " + partials + ", " + indices);
  }

  std::string describe() const override {
    std::string s = stringifyKernelStrategy(k.plan.strategy).str();
    if (k.kind == KernelKind::Reduce)
      s += " " + reductionName();
    s += ", " + src.name + " -> " + dst.name;
    s += k.plan.index32 ? ", 32-bit indices" : ", 64-bit indices";
    if (k.kind == KernelKind::Reduce && dstElements && srcElements) {
      s += spec.warpPerOutput ? ", a warp per output" : ", a thread per output";
      if (spec.vectorWidth > 1)
        s += ", 16-byte loads";
      if (spec.parts > 1)
        s += ", " + std::to_string(spec.parts) + " partials per output";
    }
    return s;
  }

private:
  bool isArg() const {
    return k.kind == KernelKind::Reduce &&
           (k.reduction == ReductionKind::Argmax ||
            k.reduction == ReductionKind::Argmin);
  }

  std::string reductionName() const {
    switch (k.reduction) {
    case ReductionKind::Sum:
      return "sum";
    case ReductionKind::Mean:
      return "mean";
    case ReductionKind::Prod:
      return "prod";
    case ReductionKind::Amax:
      return "amax";
    case ReductionKind::Amin:
      return "amin";
    case ReductionKind::Argmax:
      return "argmax";
    case ReductionKind::Argmin:
      return "argmin";
    }
    return "?";
  }

  std::string kernelLabel(const std::string &kernel) const {
    return kernel + " (" + stringifyKernelStrategy(k.plan.strategy).str() + ")";
  }

  /// One loop, unit stride on both sides.
  bool isContiguousRun() const {
    return k.plan.loops.size() == 1 && k.plan.loops[0].srcStride == 1 &&
           k.plan.loops[0].dstStride == 1;
  }

  /// A transpose whose plan names two distinct loops a and b to tile.
  bool hasTiledLoops() const {
    if (k.plan.strategy != KernelStrategy::Transpose || !k.plan.tiledLoops)
      return false;
    auto [a, b] = *k.plan.tiledLoops;
    int64_t n = k.plan.loops.size();
    return a >= 0 && b >= 0 && a < n && b < n && a != b;
  }

  bool isTiled() const {
    if (!hasTiledLoops())
      return false;
    auto [a, b] = *k.plan.tiledLoops;
    // A tile with a short side (NCHW -> NHWC with C = 3) would leave most
    // of its threads idle; one thread per element still writes whole
    // destination lines and reads a few runs per warp.
    return std::min(k.plan.loops[a].size, k.plan.loops[b].size) >= kMinTileSide;
  }

  //===--------------------------------------------------------------------===//
  // Index decoding
  //===--------------------------------------------------------------------===//

  /// Adds to `srcOff` (and `dstOff` when non-empty) the offsets of flat
  /// index `flat` (type U, not modified) over `loops`, innermost fastest.
  void printDecode(Printer &p, ArrayRef<Loop> loops, const std::string &flat,
                   const std::string &srcOff, const std::string &dstOff) {
    // Loops whose index moves neither offset (stride 0, or an offset not
    // asked for) only divide the flat index: an unused index variable is an
    // nvcc warning.
    auto moves = [&](const Loop &l) {
      return (!srcOff.empty() && l.srcStride != 0) ||
             (!dstOff.empty() && l.dstStride != 0);
    };
    std::vector<size_t> live;
    for (size_t i = 0; i < loops.size(); ++i)
      if (loops[i].size != 1)
        live.push_back(i);
    size_t first = 0;
    while (first < live.size() && !moves(loops[live[first]]))
      ++first;
    if (first == live.size())
      return;
    if (live.size() == 1) {
      const Loop &l = loops[live[0]];
      addTerm(p, "(" + I + ")" + flat, l, srcOff, dstOff);
      return;
    }
    std::string q = flat + "_q";
    p.line(U + " " + q + " = " + flat + ";");
    for (size_t j = live.size(); j-- > first;) {
      const Loop &l = loops[live[j]];
      std::string idx = flat + "_i" + std::to_string(j);
      if (j == 0) {
        p.line("const " + I + " " + idx + " = (" + I + ")" + q + ";");
      } else {
        if (moves(l))
          p.line("const " + I + " " + idx + " = (" + I + ")(" + q + " % " +
                 lit(l.size, U) + ");");
        if (j > first)
          p.line(q + " /= " + lit(l.size, U) + ";");
      }
      if (moves(l))
        addTerm(p, idx, l, srcOff, dstOff);
    }
  }

  void addTerm(Printer &p, const std::string &idx, const Loop &l,
               const std::string &srcOff, const std::string &dstOff) {
    if (!srcOff.empty() && l.srcStride != 0)
      p.line(srcOff + " += " + mulExpr(idx, l.srcStride) + ";");
    if (!dstOff.empty() && l.dstStride != 0)
      p.line(dstOff + " += " + mulExpr(idx, l.dstStride) + ";");
  }

  std::string mulExpr(const std::string &idx, int64_t stride) {
    if (stride == 1)
      return idx;
    return idx + " * " + lit(stride, I);
  }

  std::vector<Loop> planLoops() const {
    std::vector<Loop> loops;
    for (const KernelLoop &l : k.plan.loops)
      loops.push_back({l.size, l.srcStride, l.dstStride});
    return loops;
  }

  std::string load(const std::string &ptr, const std::string &off) {
    return ptr + "[" + off + "]";
  }

  //===--------------------------------------------------------------------===//
  // Copies
  //===--------------------------------------------------------------------===//

  std::string signature(const std::string &kernel) {
    return "static __global__ void __launch_bounds__(" +
           std::to_string(kernel.find("_transpose") != std::string::npos
                              ? kTile * kTileRows
                              : kBlock) +
           ") " + kernel + "(const " + src.c + " *__restrict__ src, " + dst.c +
           " *__restrict__ dst) {";
  }

  /// Both views are one contiguous run of the same type: 16-byte vectors
  /// when both pointers are 16-byte aligned (the launcher checks), the
  /// remaining elements one by one.
  void printVectorMemcpy(Printer &p) {
    int64_t bytes = dstElements * dst.bytes;
    int64_t vectors = bytes / 16;
    gridSize = blocksFor(std::max<int64_t>(vectors, 1), kBlock);
    p.line(signature(name + "_uint4"));
    p.line("const " + U + " step = (" + U + ")gridDim.x * blockDim.x;");
    p.line("const " + U + " first = (" + U + ")blockIdx.x * blockDim.x + " +
           "threadIdx.x;");
    if (vectors > 0) {
      p.line("const uint4 *__restrict__ s = (const uint4 *)src;");
      p.line("uint4 *__restrict__ d = (uint4 *)dst;");
      p.line("for (" + U + " i = first; i < " + lit(vectors, U) +
             "; i += step)");
      p.line("  d[i] = __ldg(s + i);");
    }
    int64_t tail = vectors * 16 / dst.bytes;
    if (tail < dstElements) {
      p.line("// The last " + std::to_string(dstElements - tail) +
             " element(s) do not fill a vector.");
      p.line("for (" + U + " i = " + lit(tail, U) + " + first; i < " +
             lit(dstElements, U) + "; i += step)");
      p.line("  dst[i] = src[i];");
    }
    p.line("}").line();
  }

  /// One thread per destination element, grid-stride; consecutive threads
  /// take consecutive iterations of the innermost loop, which walks the
  /// destination's memory order, so stores coalesce.
  void printElementwise(Printer &p, const std::string &kernel) {
    gridSize = blocksFor(dstElements, kBlock);
    std::vector<Loop> loops = planLoops();
    p.line(signature(kernel));
    p.line("const " + U + " step = (" + U + ")gridDim.x * blockDim.x;");
    p.line("for (" + U + " i = (" + U + ")blockIdx.x * blockDim.x + " +
           "threadIdx.x; i < " + lit(dstElements, U) + "; i += step) {");
    p.line(I + " s = 0, d = 0;");
    printDecode(p, loops, "i", "s", "d");
    p.line("dst[d] = " + convertExpr(src, dst, load("src", "s")) + ";");
    p.line("}");
    p.line("}").line();
  }

  /// A transpose's tiled loops a and b and the others, outermost first.
  std::tuple<Loop, Loop, std::vector<Loop>> splitTiled() const {
    auto [ia, ib] = *k.plan.tiledLoops;
    std::vector<Loop> loops = planLoops(), outer;
    for (size_t i = 0; i < loops.size(); ++i)
      if (static_cast<int64_t>(i) != ia && static_cast<int64_t>(i) != ib)
        outer.push_back(loops[i]);
    return {loops[ia], loops[ib], outer};
  }

  /// The vectors both sides allow: 16 bytes of the wider element, or
  /// nullopt when a vector would be under 4 bytes on either side.
  std::optional<VectorSpec> vectorSpec() const {
    VectorSpec v;
    v.width = 16 / std::max(src.bytes, dst.bytes);
    v.loadBytes = v.width * src.bytes;
    v.storeBytes = v.width * dst.bytes;
    if (v.width < 2 || vectorType(v.loadBytes).empty() ||
        vectorType(v.storeBytes).empty())
      return std::nullopt;
    return v;
  }

  /// Every vector starts `width` elements apart on both sides when every
  /// stride but those of the vectors' own loops (`skipSrc` on the source
  /// side, `skipDst` on the destination's) is a multiple of the width.
  static bool stridesAligned(ArrayRef<Loop> loops, int64_t width,
                             ArrayRef<int64_t> skipSrc,
                             ArrayRef<int64_t> skipDst) {
    for (auto [i, l] : llvm::enumerate(loops)) {
      if (l.size == 1)
        continue;
      int64_t at = static_cast<int64_t>(i);
      if (!llvm::is_contained(skipSrc, at) && l.srcStride % width != 0)
        return false;
      if (!llvm::is_contained(skipDst, at) && l.dstStride % width != 0)
        return false;
    }
    return true;
  }

  /// Elementwise copies whose innermost loop is unit-stride on both sides
  /// move one vector per thread.
  std::optional<VectorSpec> vectorElementwise() const {
    std::vector<Loop> loops = planLoops();
    std::optional<VectorSpec> v = vectorSpec();
    if (!v || loops.empty())
      return std::nullopt;
    int64_t width = v->width, inner = loops.size() - 1;
    if (loops[inner].srcStride != 1 || loops[inner].dstStride != 1 ||
        loops[inner].size % width != 0 ||
        !stridesAligned(loops, width, inner, inner))
      return std::nullopt;
    v->grid =
        blocksFor(ceilDiv(dstElements / width, kVectorsPerThread), kBlock);
    return v;
  }

  /// Transposes too narrow to tile whose short loop b is the destination's
  /// unit-stride loop and whose a (the source's) steps the destination by
  /// b's extent: every `width` consecutive values of a and all of b are one
  /// contiguous destination run of b.size vectors.
  std::optional<VectorSpec> vectorInterleave() const {
    std::optional<VectorSpec> v = vectorSpec();
    if (!v || !hasTiledLoops())
      return std::nullopt;
    auto [ia, ib] = *k.plan.tiledLoops;
    std::vector<Loop> loops = planLoops();
    int64_t width = v->width;
    const Loop &la = loops[ia], &lb = loops[ib];
    // a's vectors start `width` source elements and width * b.size
    // destination elements apart (a's destination stride is b.size); b's
    // rows and the other loops must keep that.
    if (la.srcStride != 1 || lb.dstStride != 1 || la.dstStride != lb.size ||
        lb.size >= kMinTileSide || la.size % width != 0 ||
        !stridesAligned(loops, width, ia, {ia, ib}))
      return std::nullopt;
    v->interleave = true;
    v->rows = lb.size;
    v->grid = blocksFor(dstElements / (width * lb.size), kBlock);
    return v;
  }

  /// Transposes whose tiled loops are unit-stride on their sides (a in the
  /// source, b in the destination) and whose extents are whole vectors: a
  /// lane loads a width x width block as `width` vectors along a,
  /// transposes it in registers, and stores `width` vectors along b.
  std::optional<VectorSpec> vectorTranspose() const {
    std::optional<VectorSpec> spec = vectorSpec();
    if (!spec)
      return std::nullopt;
    VectorSpec v = *spec;
    auto [ia, ib] = *k.plan.tiledLoops;
    std::vector<Loop> loops = planLoops();
    int64_t width = v.width;
    const Loop &la = loops[ia], &lb = loops[ib];
    if (la.srcStride != 1 || lb.dstStride != 1 || la.size % width != 0 ||
        lb.size % width != 0 || !stridesAligned(loops, width, ia, ib))
      return std::nullopt;
    // A warp's loads cover lanesA lanes' vectors of each source row, its
    // stores lanesB lanes' of each destination row. Rows on both sides far
    // apart (a DRAM page or more): 2 x 16, each store a run of 16 vectors
    // (256 bytes) and each load one sector of 16 rows; else 8 x 4, each
    // load a whole line. Short extents give their lanes to the other side.
    int64_t groupsA = la.size / width, groupsB = lb.size / width;
    bool farRows = std::abs(lb.srcStride) * src.bytes >= kFarRowBytes &&
                   std::abs(la.dstStride) * dst.bytes >= kFarRowBytes;
    v.lanesA = clTransposeLoadLanes ? int64_t(clTransposeLoadLanes)
               : farRows            ? 2
                                    : 8;
    v.lanesB = 32 / v.lanesA;
    if (groupsB < v.lanesB) {
      v.lanesB = int64_t(llvm::PowerOf2Ceil(groupsB));
      v.lanesA = 32 / v.lanesB;
    } else if (groupsA < v.lanesA) {
      v.lanesA = int64_t(llvm::PowerOf2Ceil(groupsA));
      v.lanesB = 32 / v.lanesA;
    }
    // Both short (a 16 x 16 tile of floats): the warp takes several tiles,
    // consecutive ones (the next loop outside) in consecutive lane groups.
    v.lanesA = std::min(v.lanesA, int64_t(llvm::PowerOf2Ceil(groupsA)));
    v.grid = blocksFor(ceilDiv(warpTiles(v), tilesPerWarp(v)), kBlock / 32);
    return v;
  }

  static int64_t tilesPerWarp(const VectorSpec &v) {
    return 32 / (v.lanesA * v.lanesB);
  }

  /// Warp tiles of a vector transpose: (lanesA x lanesB) blocks of
  /// width x width elements, times the other loops.
  int64_t warpTiles(const VectorSpec &v) const {
    auto [ia, ib] = *k.plan.tiledLoops;
    int64_t tiles = 1;
    for (auto [i, l] : llvm::enumerate(k.plan.loops)) {
      if (static_cast<int64_t>(i) == ia)
        tiles *= ceilDiv(l.size, v.lanesA * v.width);
      else if (static_cast<int64_t>(i) == ib)
        tiles *= ceilDiv(l.size, v.lanesB * v.width);
      else
        tiles *= l.size;
    }
    return tiles;
  }

  /// The first storeBytes bytes of `from` (an array of dst.c) stored as one
  /// vector at dst + `off`.
  void printVectorStore(Printer &p, const std::string &from,
                        const std::string &off) {
    std::string T = vectorType(vec->storeBytes);
    p.line(T + " bits;");
    p.line("memcpy(&bits, " + from + ", " + std::to_string(vec->storeBytes) +
           ");");
    p.line("*(" + T + " *)(dst + " + off + ") = bits;");
  }

  /// `width` source elements at src + `off` into the array `into`.
  void printVectorLoad(Printer &p, const std::string &into,
                       const std::string &off) {
    std::string T = vectorType(vec->loadBytes);
    p.line("const " + T + " bits = __ldg((const " + T + " *)(src + " + off +
           "));");
    p.line("memcpy(" + into + ", &bits, " + std::to_string(vec->loadBytes) +
           ");");
  }

  /// One thread per destination vector, kVectorsPerThread of them loaded
  /// before any is stored (grid-stride), so that each thread has that many
  /// loads in flight.
  void printVectorElementwise(Printer &p) {
    int64_t w = vec->width;
    std::string W = std::to_string(w);
    std::vector<Loop> loops = planLoops();
    loops.back() = {loops.back().size / w, w, w};
    int64_t vectors = dstElements / w;
    p.line(signature(name + "_velementwise"));
    p.line("const " + U + " step = (" + U + ")gridDim.x * blockDim.x;");
    p.line("for (" + U + " i0 = (" + U + ")blockIdx.x * blockDim.x + " +
           "threadIdx.x; i0 < " + lit(vectors, U) +
           "; i0 += " + std::to_string(kVectorsPerThread) + " * step) {");
    p.line(src.c + " x[" + std::to_string(kVectorsPerThread) + "][" + W + "];");
    std::string K = std::to_string(kVectorsPerThread);
    p.line(I + " d[" + K + "] = {0};");
    p.line("bool live[" + K + "] = {false};");
    for (int64_t u = 0; u < kVectorsPerThread; ++u) {
      std::string i = "i" + std::to_string(u), U1 = std::to_string(u);
      if (u > 0)
        p.line("const " + U + " " + i + " = i0 + " + U1 + " * step;");
      p.line(std::string(u > 0 ? "if (" + i + " < " + lit(vectors, U) + ") "
                               : "") +
             "{");
      p.line("live[" + U1 + "] = true;");
      p.line(I + " s = 0;");
      printDecode(p, loops, i, "s", "d[" + U1 + "]");
      printVectorLoad(p, "x[" + U1 + "]", "s");
      p.line("}");
    }
    for (int64_t u = 0; u < kVectorsPerThread; ++u) {
      std::string U1 = std::to_string(u);
      p.line("if (live[" + U1 + "]) {");
      p.line(dst.c + " y[" + W + "];");
      p.line("for (int j = 0; j < " + W + "; ++j)");
      p.line("  y[j] = " + convertExpr(src, dst, "x[" + U1 + "][j]") + ";");
      printVectorStore(p, "y", "d[" + U1 + "]");
      p.line("}");
    }
    p.line("}");
    p.line("}").line();
  }

  /// A thread per `width` consecutive values of a (with all other loops
  /// but b): one vector load from each of b's rows, an interleave in
  /// registers, b.size contiguous vector stores. Consecutive threads take
  /// consecutive vectors of each source row and of the destination run.
  void printVectorInterleave(Printer &p) {
    auto [ia, ib] = *k.plan.tiledLoops;
    std::vector<Loop> loops = planLoops();
    const Loop la = loops[ia], lb = loops[ib];
    int64_t w = vec->width, c = vec->rows;
    std::string W = std::to_string(w), C = std::to_string(c);
    // The thread's loops: a in vectors, the others as they are, b dropped.
    std::vector<Loop> outer;
    for (size_t i = 0; i < loops.size(); ++i) {
      if (static_cast<int64_t>(i) == ib)
        continue;
      if (static_cast<int64_t>(i) == ia)
        outer.push_back({la.size / w, w, la.dstStride * w});
      else
        outer.push_back(loops[i]);
    }
    int64_t threads = dstElements / (w * c);
    p.line(signature(name + "_vinterleave"));
    p.line("const " + U + " step = (" + U + ")gridDim.x * blockDim.x;");
    p.line("for (" + U + " i = (" + U + ")blockIdx.x * blockDim.x + " +
           "threadIdx.x; i < " + lit(threads, U) + "; i += step) {");
    p.line(I + " s = 0, d = 0;");
    printDecode(p, outer, "i", "s", "d");
    p.line("// in[j][x]: row j of b, element a + x.");
    p.line(src.c + " in[" + C + "][" + W + "];");
    p.line("for (int j = 0; j < " + C + "; ++j) {");
    printVectorLoad(p, "in[j]", "s + (" + I + ")j * " + lit(lb.srcStride, I));
    p.line("}");
    p.line("// out[x * " + C + " + j]: the destination run from d.");
    p.line(dst.c + " out[" + C + " * " + W + "];");
    p.line("for (int x = 0; x < " + W + "; ++x)");
    p.line("  for (int j = 0; j < " + C + "; ++j)");
    p.line("    out[x * " + C + " + j] = " + convertExpr(src, dst, "in[j][x]") +
           ";");
    p.line("for (int j = 0; j < " + C + "; ++j) {");
    printVectorStore(p, "out + j * " + W, "d + (" + I + ")j * " + W);
    p.line("}");
    p.line("}");
    p.line("}").line();
  }

  /// Each lane of a warp moves a width x width block of the tiled loops:
  /// `width` vector loads along a (rows b..b+width-1 of the source), a
  /// transpose in registers, `width` vector stores along b. Lanes
  /// lanesA-wide along a make each load instruction read whole sectors of
  /// each source row and each store write whole sectors of each destination
  /// row, with no shared memory and no barriers; a warp takes one tile per
  /// iteration (grid-stride), the other loops decoded from its index.
  void printVectorTranspose(Printer &p) {
    auto [la, lb, outer] = splitTiled();
    int64_t w = vec->width;
    std::string W = std::to_string(w);
    int64_t tileA = vec->lanesA * w, tileB = vec->lanesB * w;
    int64_t tilesA = ceilDiv(la.size, tileA), tilesB = ceilDiv(lb.size, tileB);
    int64_t tiles = warpTiles(*vec), group = vec->lanesA * vec->lanesB;
    int64_t groups = tilesPerWarp(*vec);
    p.line(signature(name + "_vtranspose"));
    if (groups == 1) {
      p.line("const unsigned lane = threadIdx.x % 32;");
    } else {
      p.line("// " + std::to_string(groups) + " tiles per warp, one per " +
             std::to_string(group) + " lanes.");
      p.line("const unsigned lane = threadIdx.x % " + std::to_string(group) +
             ", group = threadIdx.x % 32 / " + std::to_string(group) + ";");
    }
    p.line("const " + U + " warps = (" + U + ")gridDim.x * (blockDim.x / 32);");
    p.line("for (" + U + " w = (" + U + ")blockIdx.x * (blockDim.x / 32) + " +
           "threadIdx.x / 32; w < " + lit(ceilDiv(tiles, groups), U) +
           "; w += warps) {");
    if (groups == 1) {
      p.line(U + " rest = w;");
    } else {
      p.line("const " + U + " t = w * " + lit(groups, U) + " + group;");
      p.line("if (t >= " + lit(tiles, U) + ")");
      p.line("  continue;");
      p.line(U + " rest = t;");
    }
    p.line("const " + U + " a = rest % " + lit(tilesA, U) + " * " +
           lit(tileA, U) + " + lane % " + std::to_string(vec->lanesA) + "u * " +
           W + "u;");
    p.line("rest /= " + lit(tilesA, U) + ";");
    p.line("const " + U + " b = rest % " + lit(tilesB, U) + " * " +
           lit(tileB, U) + " + lane / " + std::to_string(vec->lanesA) + "u * " +
           W + "u;");
    p.line("rest /= " + lit(tilesB, U) + ";");
    p.line("// Extents are whole vectors: a block is all inside or all out.");
    p.line("if (a >= " + lit(la.size, U) + " || b >= " + lit(lb.size, U) + ")");
    p.line("  continue;");
    p.line(I + " s = " + mulExpr("(" + I + ")b", lb.srcStride) + " + (" + I +
           ")a;");
    p.line(I + " d = " + mulExpr("(" + I + ")a", la.dstStride) + " + (" + I +
           ")b;");
    printDecode(p, outer, "rest", "s", "d");
    p.line("// in[j][i]: source row b + j, element a + i.");
    p.line(src.c + " in[" + W + "][" + W + "];");
    p.line("for (int j = 0; j < " + W + "; ++j) {");
    printVectorLoad(p, "in[j]", "s + (" + I + ")j * " + lit(lb.srcStride, I));
    p.line("}");
    p.line("for (int i = 0; i < " + W + "; ++i) {");
    p.line(dst.c + " out[" + W + "];");
    p.line("for (int j = 0; j < " + W + "; ++j)");
    p.line("  out[j] = " + convertExpr(src, dst, "in[j][i]") + ";");
    printVectorStore(p, "out", "d + (" + I + ")i * " + lit(la.dstStride, I));
    p.line("}");
    p.line("}");
    p.line("}").line();
  }

  /// A shared-memory tile of the two tiled loops per block iteration: read
  /// along the source's unit-stride loop (a), written along the
  /// destination's (b), so both sides coalesce; one column of padding keeps
  /// the column reads free of bank conflicts. All other loops and the tile
  /// coordinates are one flat block index.
  void printTranspose(Printer &p) {
    auto [la, lb, outer] = splitTiled();
    int64_t tilesA = ceilDiv(la.size, kTile);
    int64_t tilesB = ceilDiv(lb.size, kTile);
    int64_t tiles = tilesA * tilesB *
                    product(llvm::to_vector(
                        llvm::map_range(outer, [](Loop l) { return l.size; })));
    gridSize = std::clamp<int64_t>(tiles, 1, kMaxBlocks);
    std::string T = std::to_string(kTile);
    p.line(signature(name + "_transpose"));
    p.line("__shared__ " + src.c + " tile[" + T + "][" + T + " + 1];");
    p.line("for (" + U + " t = blockIdx.x; t < " + lit(tiles, U) +
           "; t += gridDim.x) {");
    p.line(U + " rest = t;");
    p.line("const " + U + " a0 = rest % " + lit(tilesA, U) + " * " + T + ";");
    p.line("rest /= " + lit(tilesA, U) + ";");
    p.line("const " + U + " b0 = rest % " + lit(tilesB, U) + " * " + T + ";");
    p.line("rest /= " + lit(tilesB, U) + ";");
    p.line(I + " s = 0, d = 0;");
    printDecode(p, outer, "rest", "s", "d");
    p.line("// Read: threadIdx.x runs along the source's unit stride.");
    p.line("for (unsigned r = threadIdx.y; r < " + T + "; r += blockDim.y) {");
    p.line("const " + U + " a = a0 + threadIdx.x, b = b0 + r;");
    p.line("if (a < " + lit(la.size, U) + " && b < " + lit(lb.size, U) + ")");
    p.line("  tile[r][threadIdx.x] = src[s + " +
           mulExpr("(" + I + ")a", la.srcStride) + " + " +
           mulExpr("(" + I + ")b", lb.srcStride) + "];");
    p.line("}");
    p.line("__syncthreads();");
    p.line("// Write: threadIdx.x runs along the destination's unit stride.");
    p.line("for (unsigned r = threadIdx.y; r < " + T + "; r += blockDim.y) {");
    p.line("const " + U + " a = a0 + r, b = b0 + threadIdx.x;");
    p.line("if (a < " + lit(la.size, U) + " && b < " + lit(lb.size, U) + ")");
    p.line("  dst[d + " + mulExpr("(" + I + ")a", la.dstStride) + " + " +
           mulExpr("(" + I + ")b", lb.dstStride) +
           "] = " + convertExpr(src, dst, "tile[threadIdx.x][r]") + ";");
    p.line("}");
    p.line("// The next tile overwrites this one.");
    p.line("__syncthreads();");
    p.line("}");
    p.line("}").line();
  }

  //===--------------------------------------------------------------------===//
  // Reductions
  //===--------------------------------------------------------------------===//

  LogicalResult prepareReduction() {
    // The accumulator: the plan's, or for amax/amin/arg* the source's
    // values widened to a type the warp shuffles take (exact).
    if (isArg() || k.reduction == ReductionKind::Amax ||
        k.reduction == ReductionKind::Amin) {
      if (src.isFloat)
        acc = computeElem(src.bytes == 8 ? "double" : "float");
      else if (src.bytes == 8)
        acc = computeElem("long long");
      else
        acc = computeElem(src.isUnsigned ? "unsigned" : "int");
      if (src.bytes == 8 && src.isUnsigned)
        return emitError(k.loc, "CUDA code generation: unsigned 64-bit "
                                "reductions are not supported");
    } else {
      std::string a = k.plan.accumulator.value_or(src.name);
      if (a == "f32")
        acc = computeElem("float");
      else if (a == "f64")
        acc = computeElem("double");
      else if (a == "i64")
        acc = computeElem("long long");
      else
        return emitError(k.loc, "CUDA code generation: unsupported "
                                "accumulator type ")
               << a;
    }
    if (dstElements == 0 || srcElements == 0)
      return success();

    if (isArg()) {
      // Walk the logical order so the flat reduced index is the answer and
      // ties and NaNs resolve to the first index, as PyTorch does.
      Dims keptSizes;
      for (int64_t d = 0; d < k.src.rank(); ++d)
        if (!llvm::is_contained(k.reducedDims, d))
          keptSizes.push_back(k.src.sizes[d]);
      int64_t stride = 1;
      std::vector<int64_t> keptStrides(keptSizes.size());
      for (size_t i = keptSizes.size(); i-- > 0;) {
        keptStrides[i] = stride;
        stride *= keptSizes[i];
      }
      for (int64_t d = 0, kept = 0; d < k.src.rank(); ++d) {
        if (llvm::is_contained(k.reducedDims, d))
          spec.reduced.push_back({k.src.sizes[d], k.src.strides[d], 0});
        else
          spec.kept.push_back(
              {k.src.sizes[d], k.src.strides[d], keptStrides[kept++]});
      }
      spec.warpPerOutput =
          !spec.reduced.empty() &&
          std::abs(spec.reduced.back().srcStride) == 1 &&
          (spec.kept.empty() || std::abs(spec.kept.back().srcStride) != 1);
    } else {
      for (const KernelLoop &l : k.plan.loops)
        (l.reduced ? spec.reduced : spec.kept)
            .push_back({l.size, l.srcStride, l.dstStride});
      spec.warpPerOutput = k.plan.strategy == KernelStrategy::ReduceInner;
    }
    auto sizeOf = [](const std::vector<Loop> &loops) {
      int64_t n = 1;
      for (const Loop &l : loops)
        n *= l.size;
      return n;
    };
    spec.outputs = sizeOf(spec.kept);
    spec.count = sizeOf(spec.reduced);
    if (spec.outputs != dstElements || spec.outputs * spec.count != srcElements)
      return emitError(k.loc, "CUDA code generation: the reduction's loops ")
             << "cover " << spec.outputs << " outputs of " << spec.count
             << " elements, expected " << dstElements << " outputs of "
             << srcElements << " elements in all";

    // Split long reductions of few outputs so that enough warps or threads
    // run. Depends only on the sizes.
    if (spec.warpPerOutput) {
      constexpr int64_t kWarpsWanted = 8192, kPerWarp = 4096;
      if (spec.outputs < kWarpsWanted)
        spec.parts = std::min<int64_t>(ceilDiv(spec.count, kPerWarp),
                                       ceilDiv(kWarpsWanted, spec.outputs));
    } else {
      constexpr int64_t kThreadsWanted = 262144, kPerThread = 256;
      if (spec.outputs < kThreadsWanted)
        spec.parts = std::min<int64_t>({ceilDiv(spec.count, kPerThread),
                                        ceilDiv(kThreadsWanted, spec.outputs),
                                        kMaxBlocks});
    }
    spec.parts = std::max<int64_t>(1, spec.parts);
    if (spec.warpPerOutput && !isArg() && 16 % src.bytes == 0) {
      auto live = llvm::make_filter_range(
          spec.reduced, [](const Loop &l) { return l.size != 1; });
      if (llvm::hasSingleElement(live) && live.begin()->srcStride == 1)
        spec.vectorWidth = 16 / src.bytes;
    }
    spec.chunk = ceilDiv(spec.count, spec.parts);
    if (spec.warpPerOutput)
      spec.chunk = llvm::alignTo(spec.chunk, 32 * spec.vectorWidth);
    spec.parts = ceilDiv(spec.count, spec.chunk);
    // Index arithmetic of partials is 64-bit regardless.
    return success();
  }

  /// The identity of the reduction (the source type's range for amax/amin
  /// of integers, as the CPU backend).
  std::string identity() const {
    switch (k.reduction) {
    case ReductionKind::Sum:
    case ReductionKind::Mean:
      return "(" + acc.c + ")0";
    case ReductionKind::Prod:
      return "(" + acc.c + ")1";
    case ReductionKind::Amax:
    case ReductionKind::Amin:
    case ReductionKind::Argmax:
    case ReductionKind::Argmin: {
      bool max = k.reduction == ReductionKind::Amax ||
                 k.reduction == ReductionKind::Argmax;
      if (acc.isFloat)
        return std::string(max ? "-" : "") + "(" + acc.c + ")INFINITY";
      int64_t bits = src.bytes * 8;
      if (src.isUnsigned)
        return max ? "(" + acc.c + ")0"
                   : "(" + acc.c + ")" + std::to_string((1ull << bits) - 1) +
                         "u";
      if (bits == 64)
        return max ? "(-9223372036854775807LL - 1)" : "9223372036854775807LL";
      int64_t lo = -(int64_t(1) << (bits - 1));
      return "(" + acc.c + ")(" + std::to_string(max ? lo : -lo - 1) + ")";
    }
    }
    return "0";
  }

  /// Helpers: load-and-widen, combine, finish.
  void printReduceHelpers(Printer &p, StringRef body) {
    auto called = [&](StringRef helper) {
      return body.contains((name + "_" + helper + "(").str());
    };
    std::string A = acc.c;
    if (called("value"))
      p.line("static __device__ __forceinline__ " + A + " " + name + "_value(" +
             src.c + " x) { return " + convertExpr(src, acc, "x") + "; }");
    if (isArg() && called("better")) {
      bool max = k.reduction == ReductionKind::Argmax;
      p.line("// Does (bv, bi) beat (av, ai)? NaN beats every number, then "
             "the larger (smaller)");
      p.line("// value, then the smaller index: the first NaN or extremum, "
             "in any order of combining.");
      p.line("static __device__ __forceinline__ bool " + name + "_better(" + A +
             " av, long long ai, " + A + " bv, long long bi) {");
      p.line("if (bi < 0) return false;");
      p.line("if (ai < 0) return true;");
      if (acc.isFloat) {
        p.line("const bool an = isnan(av), bn = isnan(bv);");
        p.line("if (an || bn) return an && bn ? bi < ai : bn;");
      }
      p.line(std::string("if (bv != av) return bv ") + (max ? ">" : "<") +
             " av;");
      p.line("return bi < ai;");
      p.line("}");
    } else if (!isArg() && called("combine")) {
      p.line("static __device__ __forceinline__ " + A + " " + name +
             "_combine(" + A + " a, " + A + " b) {");
      switch (k.reduction) {
      case ReductionKind::Sum:
      case ReductionKind::Mean:
        if (acc.isFloat)
          p.line("return a + b;");
        else
          p.line("return (long long)((unsigned long long)a + (unsigned long "
                 "long)b);");
        break;
      case ReductionKind::Prod:
        if (acc.isFloat)
          p.line("return a * b;");
        else
          p.line("return (long long)((unsigned long long)a * (unsigned long "
                 "long)b);");
        break;
      case ReductionKind::Amax:
      case ReductionKind::Amin: {
        bool max = k.reduction == ReductionKind::Amax;
        if (acc.isFloat) {
          p.line("// NaN propagates; +0 is above -0 (LLVM's maximum/minimum, "
                 "as on the CPU).");
          p.line("// Selects, not branches: this runs once per element.");
          p.line(std::string("const ") + A + " m = a == b ? (::signbit(a) ? " +
                 (max ? "b : a" : "a : b") + ") : (a " + (max ? ">" : "<") +
                 " b ? a : b);");
          p.line("return isnan(a) ? a : (isnan(b) ? b : m);");
        } else {
          p.line(std::string("return a ") + (max ? ">" : "<") + " b ? a : b;");
        }
        break;
      }
      default:
        break;
      }
      p.line("}");
    }
    // The output value of an accumulated result.
    if (called("finish"))
      printFinish(p);
    p.line();
  }

  void printFinish(Printer &p) {
    std::string A = acc.c;
    if (isArg()) {
      p.line("static __device__ __forceinline__ int64_t " + name +
             "_finish(long long i) { return (int64_t)i; }");
    } else {
      std::string v = "v";
      if (k.reduction == ReductionKind::Mean) {
        // The mean of nothing is NaN, as PyTorch's 0 / 0; written as NAN,
        // since nvcc warns on a division by the literal 0.
        if (acc.isFloat)
          v = spec.count ? "v / " + lit(spec.count, acc.c)
                         : "(" + acc.c + ")NAN + v * (" + acc.c + ")0";
        else
          v = spec.count ? "v / " + lit(spec.count, "long long")
                         : std::string("v");
      }
      p.line("static __device__ __forceinline__ " + dst.c + " " + name +
             "_finish(" + A + " v) { return " + convertExpr(acc, dst, v) +
             "; }");
    }
  }

  /// Accumulates into (acc, idx) the elements first, first + step, ...
  /// below hi of the reduced range, in that order, kReduceUnroll of them
  /// loaded before the first is combined: the loads in flight. Each group
  /// is guarded: a main loop of unguarded groups plus a tail let nvcc unroll
  /// 16 rows deep, which ran slower (bench/gpu/RESULTS.md).
  void printAccumulate(Printer &p, const std::string &base,
                       const std::string &first, int64_t step) {
    std::string K = std::to_string(kReduceUnroll);
    std::string rAt = "r0 + (" + U + ")u * " + lit(step, U);
    p.line("for (" + U + " r0 = " + first +
           "; r0 < hi; r0 += " + lit(kReduceUnroll * step, U) + ") {");
    p.line(acc.c + " v[" + K + "];");
    p.line("for (int u = 0; u < " + K + "; ++u) {");
    p.line("const " + U + " r = " + rAt + ";");
    p.line("v[u] = " + identity() + ";");
    p.line("if (r < hi) {");
    p.line(I + " so = " + base + ";");
    printDecode(p, spec.reduced, "r", "so", "");
    p.line("v[u] = " + name + "_value(src[so]);");
    p.line("}");
    p.line("}");
    p.line("for (int u = 0; u < " + K + " && " + rAt + " < hi; ++u) {");
    if (isArg()) {
      p.line("const long long r = (long long)(" + rAt + ");");
      p.line("if (" + name + "_better(acc, idx, v[u], r)) { acc = v[u]; " +
             "idx = r; }");
    } else {
      p.line("acc = " + name + "_combine(acc, v[u]);");
    }
    p.line("}");
    p.line("}");
  }

  std::string reduceSignature(const std::string &kernel) {
    return "static __global__ void __launch_bounds__(" +
           std::to_string(kBlock) + ") " + kernel + "(const " + src.c +
           " *__restrict__ src, " + dst.c + " *__restrict__ dst, " + acc.c +
           " *__restrict__ partials, long long *__restrict__ indices) {";
  }

  /// Stores the result of output `o` (offsets `d`) or its partial `part`.
  void printStoreResult(Printer &p, const std::string &partialIndex) {
    if (spec.parts > 1) {
      p.line("partials[" + partialIndex + "] = acc;");
      if (isArg())
        p.line("indices[" + partialIndex + "] = idx;");
    } else {
      p.line("dst[d] = " + name + "_finish(" + (isArg() ? "idx" : "acc") +
             ");");
    }
  }

  /// Offsets of output `o`: `s` into the source and, when the kernel stores
  /// results rather than partials, `d` into the destination.
  void printDecodeSourceAndResult(Printer &p) {
    bool storesResult = spec.parts == 1;
    p.line(I + " s = 0" + (storesResult ? ", d = 0;" : ";"));
    printDecode(p, spec.kept, "o", "s", storesResult ? "d" : "");
    p.line("(void)o;");
  }

  /// Every lane of a warp ends with the warp's (acc, idx): a butterfly of
  /// shuffles, the same combining order in every lane.
  void printWarpButterfly(Printer &p) {
    p.line("for (int delta = 16; delta > 0; delta /= 2) {");
    if (isArg()) {
      p.line("const " + acc.c +
             " v = __shfl_xor_sync(0xffffffffu, acc, delta);");
      p.line("const long long i = __shfl_xor_sync(0xffffffffu, idx, delta);");
      p.line("if (" + name + "_better(acc, idx, v, i)) { acc = v; idx = i; }");
    } else {
      p.line("acc = " + name +
             "_combine(acc, __shfl_xor_sync(0xffffffffu, acc, delta));");
    }
    p.line("}");
  }

  /// A warp per (output, part): lanes stride over the contiguous reduced
  /// run with their own accumulators, then a butterfly of shuffles.
  void printReduceWarp(Printer &p) {
    int64_t warps = spec.outputs * spec.parts;
    gridSize = blocksFor(warps, kBlock / 32);
    p.line(reduceSignature(name + "_reduce_warp"));
    p.line("(void)dst;");
    p.line("(void)partials;");
    p.line("(void)indices;");
    p.line("const unsigned lane = threadIdx.x % 32;");
    p.line("const unsigned long long warps = (unsigned long long)gridDim.x * "
           "(blockDim.x / 32);");
    p.line("// w is the same in all lanes of a warp: whole warps reach the "
           "shuffles.");
    p.line("for (unsigned long long w = (unsigned long long)blockIdx.x * "
           "(blockDim.x / 32) + threadIdx.x / 32; w < " +
           std::to_string(warps) + "ull; w += warps) {");
    p.line("const " + U + " o = (" + U + ")(w / " + std::to_string(spec.parts) +
           "ull);");
    p.line("const " + U + " part = (" + U + ")(w % " +
           std::to_string(spec.parts) + "ull);");
    printDecodeSourceAndResult(p);
    p.line(acc.c + " acc = " + identity() + ";");
    if (isArg())
      p.line("long long idx = -1;");
    p.line("const " + U + " lo = part * " + lit(spec.chunk, U) + ";");
    p.line("const " + U + " hi = " + lit(spec.count, U) + " - lo < " +
           lit(spec.chunk, U) + " ? " + lit(spec.count, U) + " : lo + " +
           lit(spec.chunk, U) + ";");
    if (int64_t v = spec.vectorWidth; v > 1) {
      std::string V = std::to_string(v);
      p.line("// A lane takes " + V + " consecutive elements per step: one " +
             "16-byte load when the run is aligned, else " + V + " loads.");
      p.line("// Both combine in the same order: the bits do not depend on "
             "the alignment.");
      p.line("const bool aligned = ((uintptr_t)(src + s + lo) & 15) == 0;");
      std::string K = std::to_string(kReduceUnroll);
      std::string step = lit(32 * v, U);
      p.line(U + " r0 = lo + lane * " + V + ";");
      p.line("// Whole vectors, " + K + " steps' loads in flight at a time.");
      p.line("if (aligned) {");
      p.line("for (; r0 + " + lit((kReduceUnroll - 1) * 32 * v + v - 1, U) +
             " < hi; r0 += " + lit(32 * v * kReduceUnroll, U) + ") {");
      p.line(src.c + " x[" + K + "][" + V + "];");
      p.line("for (int u = 0; u < " + K + "; ++u) {");
      p.line("const uint4 bits = __ldg((const uint4 *)(src + s + r0 + (" + U +
             ")u * " + step + "));");
      p.line("memcpy(x[u], &bits, 16);");
      p.line("}");
      p.line("for (int u = 0; u < " + K + "; ++u)");
      p.line("  for (int j = 0; j < " + V + "; ++j)");
      p.line("    acc = " + name + "_combine(acc, " + name +
             "_value(x[u][j]));");
      p.line("}");
      p.line("}");
      p.line("// The rest (or all of a misaligned run) a step at a time.");
      p.line("for (; r0 < hi; r0 += " + step + ") {");
      p.line(src.c + " x[" + V + "];");
      p.line("if (aligned && hi - r0 >= " + V + ") {");
      p.line("const uint4 bits = __ldg((const uint4 *)(src + s + r0));");
      p.line("memcpy(x, &bits, 16);");
      p.line("} else {");
      p.line("for (int j = 0; j < " + V + "; ++j)");
      p.line("  x[j] = r0 + j < hi ? src[s + (" + I + ")(r0 + j)] : (" + src.c +
             ")0;");
      p.line("}");
      p.line("for (int j = 0; j < " + V + " && r0 + j < hi; ++j)");
      p.line("  acc = " + name + "_combine(acc, " + name + "_value(x[j]));");
      p.line("}");
    } else {
      printAccumulate(p, "s", "lo + lane", 32);
    }
    printWarpButterfly(p);
    p.line("if (lane == 0) {");
    printStoreResult(p, "w");
    p.line("}");
    p.line("}");
    p.line("}").line();
  }

  /// A thread per (output, part), the part in blockIdx.y: consecutive
  /// threads take consecutive outputs, the source's unit-stride kept loop.
  void printReduceThread(Printer &p) {
    gridSize = blocksFor(spec.outputs, kBlock);
    p.line(reduceSignature(name + "_reduce_thread"));
    p.line("(void)dst;");
    p.line("(void)partials;");
    p.line("(void)indices;");
    p.line("const " + U + " part = blockIdx.y;");
    p.line("const " + U + " lo = part * " + lit(spec.chunk, U) + ";");
    p.line("const " + U + " hi = " + lit(spec.count, U) + " - lo < " +
           lit(spec.chunk, U) + " ? " + lit(spec.count, U) + " : lo + " +
           lit(spec.chunk, U) + ";");
    p.line("const " + U + " step = (" + U + ")gridDim.x * blockDim.x;");
    p.line("for (" + U + " o = (" + U + ")blockIdx.x * blockDim.x + " +
           "threadIdx.x; o < " + lit(spec.outputs, U) + "; o += step) {");
    printDecodeSourceAndResult(p);
    p.line(acc.c + " acc = " + identity() + ";");
    if (isArg())
      p.line("long long idx = -1;");
    printAccumulate(p, "s", "lo", 1);
    printStoreResult(p, "(unsigned long long)part * " +
                            std::to_string(spec.outputs) + "ull + o");
    p.line("}");
    p.line("}").line();
  }

  /// Few outputs fold with a block each: a thread per output would leave
  /// most of the GPU idle while it walks its partials one by one.
  bool foldPerBlock() const { return spec.outputs < kFoldThreadsMin; }

  /// Folds each output's partials in a fixed order (deterministic): by
  /// part, or with a block per output, each thread folding the parts
  /// congruent to it modulo the block size in part order, then the lanes
  /// of each warp by a butterfly and the warps in order.
  void printCombine(Printer &p) {
    if (foldPerBlock())
      return printCombineBlock(p);
    std::string stride =
        spec.warpPerOutput ? "1ull" : std::to_string(spec.outputs) + "ull";
    std::string first =
        spec.warpPerOutput
            ? "(unsigned long long)o * " + std::to_string(spec.parts) + "ull"
            : std::string("(unsigned long long)o");
    p.line("static __global__ void __launch_bounds__(" +
           std::to_string(kBlock) + ") " + name + "_fold(" + dst.c +
           " *__restrict__ dst, const " + acc.c +
           " *__restrict__ partials, const long long *__restrict__ "
           "indices) {");
    p.line("(void)indices;");
    p.line("const " + U + " step = (" + U + ")gridDim.x * blockDim.x;");
    p.line("for (" + U + " o = (" + U + ")blockIdx.x * blockDim.x + " +
           "threadIdx.x; o < " + lit(spec.outputs, U) + "; o += step) {");
    p.line(I + " d = 0;");
    printDecode(p, spec.kept, "o", "", "d");
    p.line("const unsigned long long at = " + first + ";");
    p.line(acc.c + " acc = partials[at];");
    if (isArg())
      p.line("long long idx = indices[at];");
    printFoldParts(p, "1ull", 1, stride);
    p.line("dst[d] = " + name + "_finish(" + (isArg() ? "idx" : "acc") + ");");
    p.line("}");
    p.line("}").line();
  }

  /// Folds into (acc, idx) the partials first, first + step, ... of the
  /// output at `at` (partial `part` at at + part * stride), in that order,
  /// kFoldUnroll of them loaded before the first is combined.
  void printFoldParts(Printer &p, const std::string &first, int64_t step,
                      const std::string &stride) {
    std::string B = std::to_string(kFoldUnroll), S = std::to_string(step);
    std::string parts = std::to_string(spec.parts) + "ull";
    auto combine = [&](const std::string &v, const std::string &i) {
      if (isArg())
        p.line("if (" + name + "_better(acc, idx, " + v + ", " + i +
               ")) { acc = " + v + "; idx = " + i + "; }");
      else
        p.line("acc = " + name + "_combine(acc, " + v + ");");
    };
    p.line("unsigned long long part = " + first + ";");
    p.line("for (; part + " + std::to_string((kFoldUnroll - 1) * step) +
           "ull < " + parts +
           "; part += " + std::to_string(kFoldUnroll * step) + "ull) {");
    p.line(acc.c + " v[" + B + "];");
    if (isArg())
      p.line("long long i[" + B + "];");
    p.line("for (int u = 0; u < " + B + "; ++u) {");
    p.line(
        "const unsigned long long j = at + (part + (unsigned long long)u * " +
        S + "ull) * " + stride + ";");
    p.line("v[u] = partials[j];");
    if (isArg())
      p.line("i[u] = indices[j];");
    p.line("}");
    p.line("for (int u = 0; u < " + B + "; ++u) {");
    combine("v[u]", isArg() ? "i[u]" : "");
    p.line("}");
    p.line("}");
    p.line("for (; part < " + parts + "; part += " + S + "ull) {");
    p.line("const unsigned long long j = at + part * " + stride + ";");
    combine("partials[j]", "indices[j]");
    p.line("}");
  }

  void printCombineBlock(Printer &p) {
    std::string stride =
        spec.warpPerOutput ? "1ull" : std::to_string(spec.outputs) + "ull";
    std::string first =
        spec.warpPerOutput
            ? "(unsigned long long)o * " + std::to_string(spec.parts) + "ull"
            : std::string("(unsigned long long)o");
    std::string warps = std::to_string(kBlock / 32);
    p.line("static __global__ void __launch_bounds__(" +
           std::to_string(kBlock) + ") " + name + "_fold(" + dst.c +
           " *__restrict__ dst, const " + acc.c +
           " *__restrict__ partials, const long long *__restrict__ "
           "indices) {");
    p.line("(void)indices;");
    p.line("__shared__ " + acc.c + " warpAcc[" + warps + "];");
    if (isArg())
      p.line("__shared__ long long warpIdx[" + warps + "];");
    p.line("const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;");
    p.line("for (" + U + " o = blockIdx.x; o < " + lit(spec.outputs, U) +
           "; o += gridDim.x) {");
    p.line("const unsigned long long at = " + first + ";");
    p.line(acc.c + " acc = " + identity() + ";");
    if (isArg())
      p.line("long long idx = -1;");
    printFoldParts(p, "threadIdx.x", kBlock, stride);
    printWarpButterfly(p);
    p.line("if (lane == 0) {");
    p.line("warpAcc[warp] = acc;");
    if (isArg())
      p.line("warpIdx[warp] = idx;");
    p.line("}");
    p.line("__syncthreads();");
    p.line("if (threadIdx.x == 0) {");
    p.line("acc = warpAcc[0];");
    if (isArg())
      p.line("idx = warpIdx[0];");
    p.line("for (int w = 1; w < " + warps + "; ++w) {");
    if (isArg())
      p.line("if (" + name +
             "_better(acc, idx, warpAcc[w], warpIdx[w])) { acc = warpAcc[w]; "
             "idx = warpIdx[w]; }");
    else
      p.line("acc = " + name + "_combine(acc, warpAcc[w]);");
    p.line("}");
    p.line(I + " d = 0;");
    printDecode(p, spec.kept, "o", "", "d");
    p.line("dst[d] = " + name + "_finish(" + (isArg() ? "idx" : "acc") + ");");
    p.line("}");
    p.line("// The next output overwrites warpAcc.");
    p.line("__syncthreads();");
    p.line("}");
    p.line("}").line();
  }

  /// Nothing to reduce: every output is the identity (-1 for arg*).
  void printFill(Printer &p) {
    gridSize = blocksFor(dstElements, kBlock);
    std::vector<Loop> loops;
    for (auto [size, stride] : llvm::zip_equal(k.dst.sizes, k.dst.strides))
      loops.push_back({size, 0, stride});
    p.line("static __global__ void __launch_bounds__(" +
           std::to_string(kBlock) + ") " + name + "_fill(" + dst.c +
           " *__restrict__ dst) {");
    p.line("const " + U + " step = (" + U + ")gridDim.x * blockDim.x;");
    p.line("for (" + U + " i = (" + U + ")blockIdx.x * blockDim.x + " +
           "threadIdx.x; i < " + lit(dstElements, U) + "; i += step) {");
    p.line(I + " d = 0;");
    printDecode(p, loops, "i", "", "d");
    p.line("dst[d] = " + name + "_finish(" +
           (isArg() ? std::string("-1") : identity()) + ");");
    p.line("}");
    p.line("}").line();
  }

  const Kernel &k;
  std::string name;
  CElem src, dst, acc;
  std::string I, U;
  int64_t srcElements = 0, dstElements = 0;
  int64_t gridSize = 1;
  ReduceSpec spec;
  std::optional<VectorSpec> vec;
};

} // namespace

std::unique_ptr<KernelPrinter> cuda::createKernelPrinter(const Kernel &k,
                                                         std::string name,
                                                         CElem src, CElem dst) {
  return std::make_unique<PlanKernelPrinter>(k, std::move(name), std::move(src),
                                             std::move(dst));
}
