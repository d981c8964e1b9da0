//===- CUDAKernels.cpp - Kernel plans as CUDA kernels ---------------------===//
//
// Prints the __global__ kernels of one kernel plan. Every kernel reads
// through a pointer to its source view's first element and writes through
// one to its destination view's first element; element offsets come from the
// plan's coalesced loops, decoded from a flat index by div/mod with constant
// divisors (multiplications on the GPU), or with run-time extents
// (DynamicKernels.cpp) by the extents' values.
//
// Grids are capped at maxBlocks blocks and every kernel loops grid-stride,
// so any size runs with the same launch shape on every device. Reductions
// split their reduced range into a number of partials that depends only on
// the plan's sizes, and a second kernel folds the partials in a fixed order:
// the same bits every run, on every GPU and under host emulation.
//
// This file owns the dispatch (which kernels a plan prints and how the raw
// launcher launches them), grid sizes and the index decoding every kernel
// shares; the kernels themselves are in CopyKernels.cpp,
// TransposeKernels.cpp and ReduceKernels.cpp.
//
//===----------------------------------------------------------------------===//

#include "PlanKernelPrinter.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cuda;

int64_t cuda::product(ArrayRef<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

int64_t cuda::blocksFor(int64_t work, int64_t perBlock, int64_t maxBlocks) {
  return std::clamp<int64_t>(ceilDiv(work, perBlock), 1, maxBlocks);
}

//===----------------------------------------------------------------------===//
// What a plan prints and launches
//===----------------------------------------------------------------------===//

/// Decides what to print; fails with a diagnostic on what it cannot.
LogicalResult PlanKernelPrinter::prepare() {
  for (const KernelLoop &l : k.plan.loops)
    if (l.size < 0)
      return emitError(k.loc, "CUDA code generation: negative loop size");
  srcElements = product(k.src.sizes);
  dstElements = product(k.dst.sizes);
  if (k.kind == KernelKind::Copy) {
    int lanes = clTransposeLoadLanes;
    if (lanes != 0 && (lanes < 1 || lanes > 32 || !llvm::isPowerOf2_32(lanes)))
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

/// Bytes of scratch the kernel needs for partials (aligned to 256).
int64_t PlanKernelPrinter::scratchBytes() const {
  if (k.kind != KernelKind::Reduce || spec.parts <= 1)
    return 0;
  int64_t n = spec.outputs * spec.parts;
  int64_t bytes = llvm::alignTo(n * acc.bytes, 256);
  if (isArg())
    bytes += llvm::alignTo(n * 8, 256);
  return bytes;
}

/// The kernels of the plan's strategy. Every vector kernel comes with the
/// scalar one the launcher falls back to for misaligned pointers; helpers
/// precede the kernels that call them.
void PlanKernelPrinter::printKernels(Printer &p) {
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
void PlanKernelPrinter::printLaunch(Printer &p, const std::string &srcView,
                                    const std::string &dstView,
                                    const std::string &scratch) {
  auto launch = [&](const std::string &kernel, const std::string &grid,
                    const std::string &block, const std::string &args) {
    printLaunchCall(p, kernel, grid, block, args);
  };
  std::string args = srcView + ", " + dstView;
  std::string grid1 = "dim3(" + std::to_string(gridSize) + ")";
  std::string block1 = "dim3(" + std::to_string(gpu().block) + ")";
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
             "dim3(" + std::to_string(gpu().tile) + ", " +
                 std::to_string(gpu().tileRows) + ")",
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
                                  ? std::min(spec.outputs, gpu().maxBlocks)
                                  : blocksFor(spec.outputs, gpu().block)) +
               ")",
           block1, dstView + ", " + partials + ", " + indices);
}

/// Launches `kernel` on the launcher's stream; a failed launch calls the
/// launcher's `fail` and breaks out of its do-while.
void PlanKernelPrinter::printLaunchCall(Printer &p, const std::string &kernel,
                                        const std::string &grid,
                                        const std::string &block,
                                        const std::string &args) {
  p.line("LRT_LAUNCH(" + kernel + ", " + grid + ", " + block + ", stream, " +
         args + ");");
  p.line("if ((err = cudaGetLastError()) != cudaSuccess) { fail(\"" +
         kernelLabel(kernel) + "\", err); break; }");
}

/// "transpose, f32 -> f32, 32-bit indices"; reductions add their name and
/// shape: "reduce_inner sum, f32 -> f32, 32-bit indices, a warp per output,
/// 16-byte loads, 18 partials per output".
std::string PlanKernelPrinter::describe() const {
  std::string s = stringifyKernelStrategy(k.plan.strategy).str();
  if (k.kind == KernelKind::Reduce)
    s += " " + reductionName();
  s += ", " + src.name + " -> " + dst.name;
  // Kernels with run-time extents come in both widths (DynamicKernels.cpp).
  s += runtime          ? ", 32- or 64-bit indices"
       : k.plan.index32 ? ", 32-bit indices"
                        : ", 64-bit indices";
  if (k.kind == KernelKind::Reduce && dstElements && srcElements) {
    s += spec.warpPerOutput ? ", a warp per output" : ", a thread per output";
    if (spec.vectorWidth > 1)
      s += ", 16-byte loads";
    if (spec.parts > 1)
      s += ", " + std::to_string(spec.parts) + " partials per output";
  }
  return s;
}

/// argmax or argmin: the result is an index, tracked beside the value.
bool PlanKernelPrinter::isArg() const {
  return k.kind == KernelKind::Reduce &&
         (k.reduction == ReductionKind::Argmax ||
          k.reduction == ReductionKind::Argmin);
}

/// "sum", "mean", "prod", "amax", "amin", "argmax" or "argmin".
std::string PlanKernelPrinter::reductionName() const {
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

/// How a failed launch names `kernel`: "p1__k0_vtranspose (transpose)".
std::string PlanKernelPrinter::kernelLabel(const std::string &kernel) const {
  return kernel + " (" + stringifyKernelStrategy(k.plan.strategy).str() + ")";
}

/// One loop, unit stride on both sides: (n):(1) into (n):(1).
bool PlanKernelPrinter::isContiguousRun() const {
  return k.plan.loops.size() == 1 && k.plan.loops[0].srcStride == 1 &&
         k.plan.loops[0].dstStride == 1;
}

/// A transpose whose plan names two distinct loops a and b to tile.
bool PlanKernelPrinter::hasTiledLoops() const {
  if (k.plan.strategy != KernelStrategy::Transpose || !k.plan.tiledLoops)
    return false;
  auto [a, b] = *k.plan.tiledLoops;
  int64_t n = k.plan.loops.size();
  return a >= 0 && b >= 0 && a < n && b < n && a != b;
}

/// A transpose whose tiled loops are both at least minTileSide long.
bool PlanKernelPrinter::isTiled() const {
  if (!hasTiledLoops())
    return false;
  auto [a, b] = *k.plan.tiledLoops;
  // A tile with a short side (NCHW -> NHWC with C = 3) would leave most
  // of its threads idle; one thread per element still writes whole
  // destination lines and reads a few runs per warp.
  return std::min(k.plan.loops[a].size, k.plan.loops[b].size) >=
         gpu().minTileSide;
}

//===----------------------------------------------------------------------===//
// Index decoding
//===----------------------------------------------------------------------===//

/// Adds to `srcOff` (and `dstOff` when non-empty) the offsets of flat
/// index `flat` (type U, not modified) over `loops`, innermost fastest:
/// flat = sum_j i_j * prod_{k > j} size_k, and each offset gains
/// sum_j i_j * stride_j.
void PlanKernelPrinter::printDecode(Printer &p, ArrayRef<Loop> loops,
                                    const std::string &flat,
                                    const std::string &srcOff,
                                    const std::string &dstOff) {
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
               sizeOf(l, U) + ");");
      if (j > first)
        p.line(q + " /= " + sizeOf(l, U) + ";");
    }
    if (moves(l))
      addTerm(p, idx, l, srcOff, dstOff);
  }
}

/// Adds `idx` times l's stride to each requested offset (`srcOff`,
/// `dstOff`: "" for none) that the loop moves.
void PlanKernelPrinter::addTerm(Printer &p, const std::string &idx,
                                const Loop &l, const std::string &srcOff,
                                const std::string &dstOff) {
  if (!srcOff.empty() && l.srcStride != 0)
    p.line(srcOff + " += " + mulExpr(idx, l, /*source=*/true) + ";");
  if (!dstOff.empty() && l.dstStride != 0)
    p.line(dstOff + " += " + mulExpr(idx, l, /*source=*/false) + ";");
}

/// "idx * (int32_t)4" with the plan's index type; `idx` for stride 1.
std::string PlanKernelPrinter::mulExpr(const std::string &idx, int64_t stride) {
  if (stride == 1)
    return idx;
  return idx + " * " + lit(stride, I);
}

/// mulExpr by l's source or destination stride, its run-time value where it
/// has one ("idx * (int64_t)(x.src[2])").
std::string PlanKernelPrinter::mulExpr(const std::string &idx, const Loop &l,
                                       bool source) {
  int64_t stride = source ? l.srcStride : l.dstStride;
  const std::string &expr = source ? l.srcExpr : l.dstExpr;
  if (stride == 1 || expr.empty())
    return mulExpr(idx, stride);
  return idx + " * (" + I + ")(" + expr + ")";
}

/// l's size as a value of `type`: a literal, or its run-time value.
std::string PlanKernelPrinter::sizeOf(const Loop &l, StringRef type) const {
  if (l.sizeExpr.empty())
    return lit(l.size, type);
  return "(" + type.str() + ")(" + l.sizeExpr + ")";
}

/// `value` as a literal of `type`, or with run-time extents the extents'
/// field `field` ("(uint32_t)x.count").
std::string PlanKernelPrinter::num(int64_t value, StringRef field,
                                   StringRef type) const {
  if (!runtime)
    return lit(value, type);
  return "(" + type.str() + ")x." + field.str();
}

/// The call of the finish helper on `value`; with run-time extents it also
/// takes the reduced count (the mean's divisor).
std::string PlanKernelPrinter::finishCall(const std::string &value) const {
  return name + "_finish(" + value + (runtime ? ", x.count)" : ")");
}

/// The plan's loops, outermost first; with run-time extents, loop i's
/// values are x.size[i], x.src[i] and x.dst[i].
std::vector<Loop> PlanKernelPrinter::planLoops() const {
  std::vector<Loop> loops;
  for (auto [i, l] : llvm::enumerate(k.plan.loops)) {
    loops.push_back({l.size, l.srcStride, l.dstStride});
    if (runtime) {
      std::string at = "[" + std::to_string(i) + "]";
      loops.back().sizeExpr = "x.size" + at;
      loops.back().srcExpr = "x.src" + at;
      loops.back().dstExpr = "x.dst" + at;
    }
  }
  return loops;
}

/// "ptr[off]".
std::string PlanKernelPrinter::load(const std::string &ptr,
                                    const std::string &off) {
  return ptr + "[" + off + "]";
}

std::unique_ptr<KernelPrinter> cuda::createKernelPrinter(const Kernel &k,
                                                         std::string name,
                                                         CElem src, CElem dst) {
  return std::make_unique<PlanKernelPrinter>(k, std::move(name), std::move(src),
                                             std::move(dst));
}
