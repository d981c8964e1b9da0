//===- ReduceKernels.cpp - Reduction kernels ------------------------------===//
//
// The kernels of reductions (sum, mean, prod, amax, amin, argmax, argmin): a
// warp per output when the reduced run is contiguous (16-byte loads when it
// is one unit-stride loop), else a thread per output. Long reductions of few
// outputs split into partials that a fold kernel combines in a fixed order,
// a thread or a block per output, so the bits never depend on the launch.
// Also the accumulator types, identities (from the Semantics module's
// reductionRules, as are the NaN and tie rules), the device helpers (value,
// combine or better, finish) and the fill kernel of empty reductions.
//
//===----------------------------------------------------------------------===//

#include "PlanKernelPrinter.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cuda;

/// The accumulator: the plan's, or for amax/amin/arg* the source's values
/// widened to a type the warp shuffles take (exact).
LogicalResult PlanKernelPrinter::chooseAccumulator() {
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
  return success();
}

/// Chooses the accumulator and the ReduceSpec: a warp or a thread per
/// output, the partials per output (from the sizes alone), the chunk of the
/// reduced range each partial covers, and the load width.
LogicalResult PlanKernelPrinter::prepareReduction() {
  if (failed(chooseAccumulator()))
    return failure();
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
        !spec.reduced.empty() && std::abs(spec.reduced.back().srcStride) == 1 &&
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
    if (spec.outputs < kWarpsWanted)
      spec.parts = std::min<int64_t>(ceilDiv(spec.count, kPerWarp),
                                     ceilDiv(kWarpsWanted, spec.outputs));
  } else {
    if (spec.outputs < kThreadsWanted)
      spec.parts = std::min<int64_t>({ceilDiv(spec.count, kPerThread),
                                      ceilDiv(kThreadsWanted, spec.outputs),
                                      gpu().maxBlocks});
  }
  spec.parts = std::max<int64_t>(1, spec.parts);
  spec.vectorWidth = reduceVectorWidth();
  spec.chunk = ceilDiv(spec.count, spec.parts);
  if (spec.warpPerOutput)
    spec.chunk = llvm::alignTo(spec.chunk, 32 * spec.vectorWidth);
  spec.parts = ceilDiv(spec.count, spec.chunk);
  // Index arithmetic of partials is 64-bit regardless.
  return success();
}

/// The elements a lane of a warp-per-output reduction loads at once: a
/// 16-byte vector when the reduced run is one live loop of unit stride (a
/// plan's loop of size 1 or unit stride is so for every size), else 1.
int64_t PlanKernelPrinter::reduceVectorWidth() const {
  if (!spec.warpPerOutput || isArg() || 16 % src.bytes != 0)
    return 1;
  auto live = llvm::make_filter_range(
      spec.reduced, [](const Loop &l) { return l.size != 1; });
  if (llvm::hasSingleElement(live) && live.begin()->srcStride == 1)
    return 16 / src.bytes;
  return 1;
}

/// The reduction's rules for the source's values in the accumulator.
ReductionRules PlanKernelPrinter::rules() const {
  return reductionRules(k.reduction, acc, src);
}

/// The identity of the reduction, spelled in the accumulator's type.
std::string PlanKernelPrinter::identity() const {
  const ReductionIdentity &id = rules().identity;
  switch (id.kind) {
  case IdentityKind::Zero:
    return "(" + acc.c + ")0";
  case IdentityKind::One:
    return "(" + acc.c + ")1";
  case IdentityKind::NegInfinity:
    return "-(" + acc.c + ")INFINITY";
  case IdentityKind::Infinity:
    return "(" + acc.c + ")INFINITY";
  case IdentityKind::IntegerBound:
    if (!id.boundIsSigned)
      return "(" + acc.c + ")" + std::to_string(id.bound.getZExtValue()) + "u";
    // INT64_MIN has no literal.
    if (id.bound.getBitWidth() == 64)
      return id.bound.isNegative() ? "(-9223372036854775807LL - 1)"
                                   : "9223372036854775807LL";
    return "(" + acc.c + ")(" + std::to_string(id.bound.getSExtValue()) + ")";
  }
  llvm_unreachable("unknown identity");
}

//===----------------------------------------------------------------------===//
// Device helpers
//===----------------------------------------------------------------------===//

/// Helpers: load-and-widen, combine, finish.
void PlanKernelPrinter::printReduceHelpers(Printer &p, StringRef body) {
  auto called = [&](StringRef helper) {
    return body.contains((name + "_" + helper + "(").str());
  };
  std::string A = acc.c;
  if (called("value"))
    p.line("static __device__ __forceinline__ " + A + " " + name + "_value(" +
           src.c + " x) { return " + convertExpr(src, acc, "x") + "; }");
  ReductionRules r = rules();
  if (isArg() && called("better")) {
    bool max = r.keepsLarger;
    p.line("// Does (bv, bi) beat (av, ai)? NaN beats every number, then "
           "the larger (smaller)");
    p.line("// value, then the smaller index: the first NaN or extremum, "
           "in any order of combining.");
    p.line("static __device__ __forceinline__ bool " + name + "_better(" + A +
           " av, long long ai, " + A + " bv, long long bi) {");
    p.line("if (bi < 0) return false;");
    p.line("if (ai < 0) return true;");
    if (r.nanWins) {
      p.line("const bool an = isnan(av), bn = isnan(bv);");
      p.line("if (an || bn) return an && bn ? bi < ai : bn;");
    }
    p.line(std::string("if (bv != av) return bv ") + (max ? ">" : "<") +
           " av;");
    p.line("return bi < ai;");
    p.line("}");
  } else if (!isArg() && called("combine")) {
    p.line("static __device__ __forceinline__ " + A + " " + name + "_combine(" +
           A + " a, " + A + " b) {");
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
      bool max = r.keepsLarger;
      if (r.propagatesNaN) {
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

/// NAME_finish: an accumulated value as the output (the mean divides by
/// the count, arg* return the index as int64_t).
void PlanKernelPrinter::printFinish(Printer &p) {
  std::string A = acc.c;
  if (isArg()) {
    p.line("static __device__ __forceinline__ int64_t " + name +
           "_finish(long long i" + (runtime ? ", long long count" : "") +
           ") {" + (runtime ? " (void)count;" : "") + " return (int64_t)i; }");
  } else {
    std::string v = "v";
    if (k.reduction == ReductionKind::Mean && runtime) {
      // The count is known at run time: 0 / 0 is NaN, as PyTorch's.
      v = acc.isFloat ? "v / (" + acc.c + ")count"
                      : std::string("(count ? v / count : v)");
    } else if (k.reduction == ReductionKind::Mean) {
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
           "_finish(" + A + " v" + (runtime ? ", long long count" : "") +
           ") {" + (runtime && v == "v" ? " (void)count;" : "") + " return " +
           convertExpr(acc, dst, v) + "; }");
  }
}

//===----------------------------------------------------------------------===//
// Reduction kernels
//===----------------------------------------------------------------------===//

/// Accumulates into (acc, idx) the elements first, first + step, ...
/// below hi of the reduced range, in that order, reduceUnroll of them
/// loaded before the first is combined: the loads in flight. Each group
/// is guarded (r < hi), with no unguarded main loop and tail: nvcc unrolls
/// that shape 16 rows deep, which is slower (bench/notes/cuda-kernels.md).
void PlanKernelPrinter::printAccumulate(Printer &p, const std::string &base,
                                        const std::string &first,
                                        int64_t step) {
  std::string K = std::to_string(gpu().reduceUnroll);
  std::string rAt = "r0 + (" + U + ")u * " + lit(step, U);
  p.line("for (" + U + " r0 = " + first +
         "; r0 < hi; r0 += " + lit(gpu().reduceUnroll * step, U) + ") {");
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

/// The first line of reduction kernel `kernel`: src, dst, and the partials
/// and indices (nullptr when the kernel stores results).
std::string PlanKernelPrinter::reduceSignature(const std::string &kernel) {
  return "static __global__ void __launch_bounds__(" +
         std::to_string(gpu().block) + ") " + kernel + "(const " + src.c +
         " *__restrict__ src, " + dst.c + " *__restrict__ dst, " + acc.c +
         " *__restrict__ partials, long long *__restrict__ indices" +
         (runtime ? ", const " + extType + " x" : "") + ") {";
}

/// The reduced range of partial `part`: [lo, hi).
void PlanKernelPrinter::printRange(Printer &p) {
  std::string chunk = num(spec.chunk, "chunk", U),
              count = num(spec.count, "count", U);
  p.line("const " + U + " lo = part * " + chunk + ";");
  p.line("const " + U + " hi = " + count + " - lo < " + chunk + " ? " + count +
         " : lo + " + chunk + ";");
}

/// `value` as an unsigned long long literal ("5ull"), or with run-time
/// extents the extents' field `field`.
std::string PlanKernelPrinter::ull(int64_t value, StringRef field) const {
  if (runtime)
    return "(unsigned long long)x." + field.str();
  return std::to_string(value) + "ull";
}

/// Stores the result of output `o` (offsets `d`) or its partial `part`.
void PlanKernelPrinter::printStoreResult(Printer &p,
                                         const std::string &partialIndex) {
  if (runtime)
    p.line("if (x.parts > 1) {");
  if (runtime || spec.parts > 1) {
    p.line("partials[" + partialIndex + "] = acc;");
    if (isArg())
      p.line("indices[" + partialIndex + "] = idx;");
  }
  if (runtime)
    p.line("} else {");
  if (runtime || spec.parts == 1)
    p.line("dst[d] = " + finishCall(isArg() ? "idx" : "acc") + ";");
  if (runtime)
    p.line("}");
}

/// Offsets of output `o`: `s` into the source and, when the kernel stores
/// results rather than partials, `d` into the destination.
void PlanKernelPrinter::printDecodeSourceAndResult(Printer &p) {
  bool storesResult = runtime || spec.parts == 1;
  p.line(I + " s = 0" + (storesResult ? ", d = 0;" : ";"));
  printDecode(p, spec.kept, "o", "s", storesResult ? "d" : "");
  p.line("(void)o;");
}

/// Every lane of a warp ends with the warp's (acc, idx): a butterfly of
/// shuffles, the same combining order in every lane.
void PlanKernelPrinter::printWarpButterfly(Printer &p) {
  p.line("for (int delta = 16; delta > 0; delta /= 2) {");
  if (isArg()) {
    p.line("const " + acc.c + " v = __shfl_xor_sync(0xffffffffu, acc, delta);");
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
void PlanKernelPrinter::printReduceWarp(Printer &p) {
  int64_t warps = spec.outputs * spec.parts;
  gridSize = blocksFor(warps, gpu().block / 32);
  p.line(reduceSignature(name + "_reduce_warp"));
  p.line("(void)dst;");
  p.line("(void)partials;");
  p.line("(void)indices;");
  p.line("const unsigned lane = threadIdx.x % 32;");
  p.line("const unsigned long long warps = (unsigned long long)gridDim.x * "
         "(blockDim.x / 32);");
  p.line("// w is the same in all lanes of a warp: whole warps reach the "
         "shuffles.");
  std::string parts = ull(spec.parts, "parts");
  p.line("for (unsigned long long w = (unsigned long long)blockIdx.x * "
         "(blockDim.x / 32) + threadIdx.x / 32; w < " +
         (runtime ? ull(0, "n") + " * " + parts : ull(warps, "")) +
         "; w += warps) {");
  p.line("const " + U + " o = (" + U + ")(w / " + parts + ");");
  p.line("const " + U + " part = (" + U + ")(w % " + parts + ");");
  printDecodeSourceAndResult(p);
  p.line(acc.c + " acc = " + identity() + ";");
  if (isArg())
    p.line("long long idx = " + std::to_string(kArgNoIndex) + ";");
  printRange(p);
  if (int64_t v = spec.vectorWidth; v > 1) {
    std::string V = std::to_string(v);
    p.line("// A lane takes " + V + " consecutive elements per step: one " +
           "16-byte load when the run is aligned, else " + V + " loads.");
    p.line("// Both combine in the same order: the bits do not depend on "
           "the alignment.");
    p.line("const bool aligned = ((uintptr_t)(src + s + lo) & 15) == 0;");
    std::string K = std::to_string(gpu().reduceUnroll);
    std::string step = lit(32 * v, U);
    p.line(U + " r0 = lo + lane * " + V + ";");
    p.line("// Whole vectors, " + K + " steps' loads in flight at a time.");
    p.line("if (aligned) {");
    p.line("for (; r0 + " + lit((gpu().reduceUnroll - 1) * 32 * v + v - 1, U) +
           " < hi; r0 += " + lit(32 * v * gpu().reduceUnroll, U) + ") {");
    p.line(src.c + " x[" + K + "][" + V + "];");
    p.line("for (int u = 0; u < " + K + "; ++u) {");
    p.line("const uint4 bits = __ldg((const uint4 *)(src + s + r0 + (" + U +
           ")u * " + step + "));");
    p.line("memcpy(x[u], &bits, 16);");
    p.line("}");
    p.line("for (int u = 0; u < " + K + "; ++u)");
    p.line("  for (int j = 0; j < " + V + "; ++j)");
    p.line("    acc = " + name + "_combine(acc, " + name + "_value(x[u][j]));");
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
void PlanKernelPrinter::printReduceThread(Printer &p) {
  gridSize = blocksFor(spec.outputs, gpu().block);
  p.line(reduceSignature(name + "_reduce_thread"));
  p.line("(void)dst;");
  p.line("(void)partials;");
  p.line("(void)indices;");
  p.line("const " + U + " part = blockIdx.y;");
  printRange(p);
  p.line("const " + U + " step = (" + U + ")gridDim.x * blockDim.x;");
  p.line("for (" + U + " o = (" + U + ")blockIdx.x * blockDim.x + " +
         "threadIdx.x; o < " + num(spec.outputs, "n", U) + "; o += step) {");
  printDecodeSourceAndResult(p);
  p.line(acc.c + " acc = " + identity() + ";");
  if (isArg())
    p.line("long long idx = " + std::to_string(kArgNoIndex) + ";");
  printAccumulate(p, "s", "lo", 1);
  printStoreResult(p, "(unsigned long long)part * " + ull(spec.outputs, "n") +
                          " + o");
  p.line("}");
  p.line("}").line();
}

//===----------------------------------------------------------------------===//
// Folds of partials
//===----------------------------------------------------------------------===//

/// The parameters of the fold kernels, after the opening parenthesis.
std::string PlanKernelPrinter::foldParams() const {
  return dst.c + " *__restrict__ dst, const " + acc.c +
         " *__restrict__ partials, const long long *__restrict__ indices" +
         (runtime ? ", const " + extType + " x" : "") + ") {";
}

/// Few outputs fold with a block each: a thread per output would leave
/// most of the GPU idle while it walks its partials one by one.
bool PlanKernelPrinter::foldPerBlock() const {
  return spec.outputs < gpu().foldThreadsMin;
}

/// Folds each output's partials in a fixed order (deterministic): by
/// part, or with a block per output, each thread folding the parts
/// congruent to it modulo the block size in part order, then the lanes
/// of each warp by a butterfly and the warps in order.
void PlanKernelPrinter::printCombine(Printer &p) {
  if (foldPerBlock() && !runtime)
    return printCombineBlock(p, name + "_fold");
  // With run-time extents the launcher picks one of both.
  if (runtime)
    printCombineBlock(p, name + "_fold_block");
  std::string stride = spec.warpPerOutput ? "1ull" : ull(spec.outputs, "n");
  std::string first =
      spec.warpPerOutput ? "(unsigned long long)o * " + ull(spec.parts, "parts")
                         : std::string("(unsigned long long)o");
  p.line("static __global__ void __launch_bounds__(" +
         std::to_string(gpu().block) + ") " + name + "_fold(" + foldParams());
  p.line("(void)indices;");
  p.line("const " + U + " step = (" + U + ")gridDim.x * blockDim.x;");
  p.line("for (" + U + " o = (" + U + ")blockIdx.x * blockDim.x + " +
         "threadIdx.x; o < " + num(spec.outputs, "n", U) + "; o += step) {");
  p.line(I + " d = 0;");
  printDecode(p, spec.kept, "o", "", "d");
  p.line("const unsigned long long at = " + first + ";");
  p.line(acc.c + " acc = partials[at];");
  if (isArg())
    p.line("long long idx = indices[at];");
  printFoldParts(p, "1ull", 1, stride);
  p.line("dst[d] = " + finishCall(isArg() ? "idx" : "acc") + ";");
  p.line("}");
  p.line("}").line();
}

/// Folds into (acc, idx) the partials first, first + step, ... of the
/// output at `at` (partial `part` at at + part * stride), in that order,
/// foldUnroll of them loaded before the first is combined.
void PlanKernelPrinter::printFoldParts(Printer &p, const std::string &first,
                                       int64_t step,
                                       const std::string &stride) {
  std::string B = std::to_string(gpu().foldUnroll), S = std::to_string(step);
  std::string parts = ull(spec.parts, "parts");
  auto combine = [&](const std::string &v, const std::string &i) {
    if (isArg())
      p.line("if (" + name + "_better(acc, idx, " + v + ", " + i +
             ")) { acc = " + v + "; idx = " + i + "; }");
    else
      p.line("acc = " + name + "_combine(acc, " + v + ");");
  };
  p.line("unsigned long long part = " + first + ";");
  p.line("for (; part + " + std::to_string((gpu().foldUnroll - 1) * step) +
         "ull < " + parts +
         "; part += " + std::to_string(gpu().foldUnroll * step) + "ull) {");
  p.line(acc.c + " v[" + B + "];");
  if (isArg())
    p.line("long long i[" + B + "];");
  p.line("for (int u = 0; u < " + B + "; ++u) {");
  p.line("const unsigned long long j = at + (part + (unsigned long long)u * " +
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

/// printCombine with a block per output: each thread folds parts
/// threadIdx.x, threadIdx.x + block, ... in order, a butterfly folds each
/// warp, and thread 0 folds the warps in order and stores the output.
void PlanKernelPrinter::printCombineBlock(Printer &p,
                                          const std::string &kernel) {
  std::string stride = spec.warpPerOutput ? "1ull" : ull(spec.outputs, "n");
  std::string first =
      spec.warpPerOutput ? "(unsigned long long)o * " + ull(spec.parts, "parts")
                         : std::string("(unsigned long long)o");
  std::string warps = std::to_string(gpu().block / 32);
  p.line("static __global__ void __launch_bounds__(" +
         std::to_string(gpu().block) + ") " + kernel + "(" + foldParams());
  p.line("(void)indices;");
  p.line("__shared__ " + acc.c + " warpAcc[" + warps + "];");
  if (isArg())
    p.line("__shared__ long long warpIdx[" + warps + "];");
  p.line("const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;");
  p.line("for (" + U + " o = blockIdx.x; o < " + num(spec.outputs, "n", U) +
         "; o += gridDim.x) {");
  p.line("const unsigned long long at = " + first + ";");
  p.line(acc.c + " acc = " + identity() + ";");
  if (isArg())
    p.line("long long idx = " + std::to_string(kArgNoIndex) + ";");
  printFoldParts(p, "threadIdx.x", gpu().block, stride);
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
  p.line("dst[d] = " + finishCall(isArg() ? "idx" : "acc") + ";");
  p.line("}");
  p.line("// The next output overwrites warpAcc.");
  p.line("__syncthreads();");
  p.line("}");
  p.line("}").line();
}

//===----------------------------------------------------------------------===//
// Empty reductions
//===----------------------------------------------------------------------===//

/// Nothing to reduce: every output is the identity (-1 for arg*).
void PlanKernelPrinter::printFill(Printer &p) {
  gridSize = blocksFor(dstElements, gpu().block);
  // With run-time extents: the outputs are the kept loops'.
  std::vector<Loop> loops = spec.kept;
  if (!runtime) {
    loops.clear();
    for (auto [size, stride] : llvm::zip_equal(k.dst.sizes, k.dst.strides))
      loops.push_back({size, 0, stride});
  }
  p.line("static __global__ void __launch_bounds__(" +
         std::to_string(gpu().block) + ") " + name + "_fill(" + dst.c +
         " *__restrict__ dst" + (runtime ? ", const " + extType + " x" : "") +
         ") {");
  p.line("const " + U + " step = (" + U + ")gridDim.x * blockDim.x;");
  p.line("for (" + U + " i = (" + U + ")blockIdx.x * blockDim.x + " +
         "threadIdx.x; i < " + num(dstElements, "n", U) + "; i += step) {");
  p.line(I + " d = 0;");
  printDecode(p, loops, "i", "", "d");
  p.line("dst[d] = " +
         finishCall(isArg() ? std::to_string(kArgNoIndex) : identity()) + ";");
  p.line("}");
  p.line("}").line();
}
