//===- DynamicKernels.cpp - Kernels with run-time extents -----------------===//
//
// The kernels of a dynamic function (planDynamicCopy, planDynamicReduction):
// the static printer's strategy kernels, each reading its loops' sizes and
// strides, its element count and its reduction split from an extents struct
// `x` that the raw launcher fills from the symbol program's outputs. What a
// plan fixes for every size (loop order, which strides are 0 or 1, the tiled
// loops a and b, a warp or a thread per output) is printed; what depends on
// the sizes is decided by the launcher:
//   - 32- or 64-bit indices: every kernel is printed twice (`_i32`, `_i64`),
//     and the launcher takes the 32-bit one when the element count and every
//     offset the views reach fit in int32;
//   - tiled or elementwise: a transpose whose a or b is shorter than
//     minTileSide runs elementwise;
//   - 16-byte vectors for a contiguous run of one type, when both pointers
//     are aligned;
//   - the grid, and a reduction's partials per output, with the formula of
//     prepareReduction (so the bits depend only on the shape), their scratch
//     from cudaMallocAsync, and a thread or a block per output to fold them.
//
//===----------------------------------------------------------------------===//

#include "PlanKernelPrinter.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cuda;

namespace {

class DynamicKernelPrinter : public PlanKernelPrinter {
public:
  DynamicKernelPrinter(const Kernel &k, std::string name, CElem src, CElem dst,
                       const DynamicABI::KernelExtents &extents)
      : PlanKernelPrinter(k, name, std::move(src), std::move(dst)),
        base(std::move(name)), extents(extents) {
    runtime = true;
    extType = base + "_ext";
  }

  LogicalResult prepare() override {
    if (k.kind == KernelKind::Copy)
      return success();
    if (failed(chooseAccumulator()))
      return failure();
    if (isArg()) {
      // The source's logical dims, so that the flat reduced index is the
      // answer; the result is row-major over the kept dims. A thread per
      // output: whether a dim has unit stride is known at run time only.
      for (int64_t d = 0; d < k.src.rank(); ++d)
        (llvm::is_contained(k.reducedDims, d) ? reducedDims : keptDims)
            .push_back(d);
      for (auto [j, d] :
           llvm::enumerate(llvm::concat<int64_t>(keptDims, reducedDims))) {
        bool kept = j < keptDims.size();
        // The representative sizes' values need not hold for every size:
        // 2 stands for a size or stride known only at run time.
        Loop l{2, 2, kept ? 2 : 0};
        setExprs(l, j, kept);
        (kept ? spec.kept : spec.reduced).push_back(l);
      }
      return success();
    }
    for (auto [i, l] : llvm::enumerate(k.plan.loops))
      (l.reduced ? reducedLoops : keptLoops).push_back(i);
    for (auto [j, i] :
         llvm::enumerate(llvm::concat<int64_t>(keptLoops, reducedLoops))) {
      const KernelLoop &pl = k.plan.loops[i];
      Loop l{pl.size, pl.srcStride, pl.dstStride};
      bool kept = j < keptLoops.size();
      setExprs(l, j, kept);
      (kept ? spec.kept : spec.reduced).push_back(l);
    }
    spec.warpPerOutput = k.plan.strategy == KernelStrategy::ReduceInner;
    spec.vectorWidth = reduceVectorWidth();
    return success();
  }

  bool launchesKernels() const override { return true; }

  int64_t scratchBytes() const override { return 0; }

  void printKernels(Printer &p) override {
    size_t rank = std::max<size_t>(1, loopCount());
    std::string r = std::to_string(rank);
    p.line("// " + base + ": " + describe() + "; extents at run time");
    p.line("struct " + extType + " {");
    p.line("int64_t size[" + r + "], src[" + r + "], dst[" + r + "];");
    if (k.kind == KernelKind::Copy)
      p.line("int64_t n; // elements");
    else
      p.line("int64_t n, count, parts, chunk; // outputs, each of count "
             "elements in parts of chunk");
    p.line("};").line();
    for (bool wide : {false, true}) {
      setIndexWidth(wide);
      printStrategyKernels(p);
    }
  }

  void printLaunch(Printer &p, const std::string &srcView,
                   const std::string &dstView, const std::string &) override {
    p.line(extType + " x;");
    fillExtents(p);
    p.line("if (x.n > 0) {");
    p.line("const " + src.c + " *srcView = " + srcView + ";");
    p.line(dst.c + " *dstView = " + dstView + ";");
    if (k.kind == KernelKind::Reduce)
      p.line("x.parts = 1;").line("x.chunk = x.count;");
    // 32-bit indices where the count and every offset fit.
    std::string elements =
        k.kind == KernelKind::Copy ? "x.n" : "lrt_dyn_product(x.n, x.count)";
    std::string kept = std::to_string(
        k.kind == KernelKind::Copy ? loopCount() : spec.kept.size());
    p.line("const bool narrow = " + elements + " <= INT32_MAX && " +
           "lrt_dyn_span(" + std::to_string(loopCount()) +
           ", x.size, x.src) <= INT32_MAX && lrt_dyn_span(" + kept +
           ", x.size, x.dst) <= INT32_MAX;");
    if (k.kind == KernelKind::Reduce)
      return printReduceLaunch(p);
    p.line("if (narrow) {");
    setIndexWidth(false);
    printCopyLaunch(p);
    p.line("} else {");
    setIndexWidth(true);
    printCopyLaunch(p);
    p.line("}");
    p.line("}");
  }

private:
  size_t loopCount() const {
    return k.kind == KernelKind::Copy ? k.plan.loops.size()
                                      : spec.kept.size() + spec.reduced.size();
  }

  /// Loop j of the extents struct: its size and strides (a reduction's
  /// reduced loops have no destination stride).
  static void setExprs(Loop &l, size_t j, bool kept) {
    std::string at = "[" + std::to_string(j) + "]";
    l.sizeExpr = "x.size" + at;
    l.srcExpr = "x.src" + at;
    if (kept)
      l.dstExpr = "x.dst" + at;
  }

  /// Names and index types of one instantiation of the kernels.
  void setIndexWidth(bool wide) {
    I = wide ? "int64_t" : "int32_t";
    U = wide ? "uint64_t" : "uint32_t";
    name = base + (wide ? "_i64" : "_i32");
  }

  void printStrategyKernels(Printer &p) {
    if (k.kind == KernelKind::Copy) {
      if (isContiguousRun()) {
        if (!k.plan.convert && src.c == dst.c)
          printVectorMemcpy(p);
        printElementwise(p, name + "_scalar");
      } else {
        if (hasTiledLoops())
          printTranspose(p);
        printElementwise(p, name + "_elementwise");
      }
      return;
    }
    // Helpers above the kernels that call them (an unreferenced static
    // function is an nvcc warning).
    std::string body;
    llvm::raw_string_ostream bodyStream(body);
    Printer bodyPrinter(bodyStream);
    printFill(bodyPrinter);
    if (spec.warpPerOutput)
      printReduceWarp(bodyPrinter);
    else
      printReduceThread(bodyPrinter);
    printCombine(bodyPrinter);
    printReduceHelpers(p, body);
    p.os << body;
  }

  /// x's loops from the program's outputs (`outputs` in the launcher).
  void fillExtents(Printer &p) {
    auto out = [](int64_t index) {
      return "outputs[" + std::to_string(index) + "]";
    };
    auto set = [&](size_t j, int64_t size, int64_t srcStride,
                   std::optional<int64_t> dstStride) {
      std::string at = "[" + std::to_string(j) + "] = ";
      p.line("x.size" + at + out(size) + ";");
      p.line("x.src" + at + out(srcStride) + ";");
      p.line("x.dst" + at + (dstStride ? out(*dstStride) : "0") + ";");
    };
    if (k.kind == KernelKind::Copy) {
      p.line("x.n = 1;");
      for (size_t i = 0; i < extents.sizes.size(); ++i) {
        set(i, extents.sizes[i], extents.srcStrides[i], extents.dstStrides[i]);
        p.line("x.n *= x.size[" + std::to_string(i) + "];");
      }
      return;
    }
    p.line("x.n = " + out(*extents.outputs) + ";");
    p.line("x.count = " + out(*extents.perOutput) + ";");
    if (isArg()) {
      for (auto [j, d] :
           llvm::enumerate(llvm::concat<int64_t>(keptDims, reducedDims)))
        set(j, extents.srcDimSizes[d], extents.srcDimStrides[d], std::nullopt);
      // The result is row-major over the kept dims.
      for (size_t j = keptDims.size(); j-- > 0;)
        p.line("x.dst[" + std::to_string(j) + "] = " +
               (j + 1 == keptDims.size()
                    ? std::string("1")
                    : "x.dst[" + std::to_string(j + 1) + "] * x.size[" +
                          std::to_string(j + 1) + "]") +
               ";");
      return;
    }
    for (auto [j, i] :
         llvm::enumerate(llvm::concat<int64_t>(keptLoops, reducedLoops)))
      set(j, extents.sizes[i], extents.srcStrides[i],
          j < keptLoops.size() ? std::optional(extents.dstStrides[i])
                               : std::nullopt);
  }

  std::string blocks(const std::string &work, int64_t perBlock) const {
    return "dim3((unsigned)lrt_dyn_blocks(" + work + ", " +
           std::to_string(perBlock) + ", " + std::to_string(gpu().maxBlocks) +
           "))";
  }

  /// One copy's launch with the current index width.
  void printCopyLaunch(Printer &p) {
    std::string args = "srcView, dstView, x";
    std::string block = "dim3(" + std::to_string(gpu().block) + ")";
    std::string grid = blocks("x.n", gpu().block);
    if (isContiguousRun()) {
      if (!k.plan.convert && src.c == dst.c) {
        p.line("if ((((uintptr_t)srcView | (uintptr_t)dstView) & 15) == 0) {");
        printLaunchCall(
            p, name + "_uint4",
            blocks("x.n / " + std::to_string(16 / dst.bytes) + " + 1",
                   gpu().block),
            block, args);
        p.line("} else {");
      }
      printLaunchCall(p, name + "_scalar", grid, block, args);
      if (!k.plan.convert && src.c == dst.c)
        p.line("}");
      return;
    }
    if (hasTiledLoops()) {
      auto [a, b] = *k.plan.tiledLoops;
      std::string sa = "x.size[" + std::to_string(a) + "]",
                  sb = "x.size[" + std::to_string(b) + "]";
      // A tile with a short side would leave most of its threads idle.
      p.line("if (" + sa + " >= " + std::to_string(gpu().minTileSide) + " && " +
             sb + " >= " + std::to_string(gpu().minTileSide) + ") {");
      std::string tile = std::to_string(gpu().tile);
      printLaunchCall(
          p, name + "_transpose",
          blocks("lrt_dyn_tiles(x.n, " + sa + ", " + sb + ", " + tile + ")", 1),
          "dim3(" + tile + ", " + std::to_string(gpu().tileRows) + ")", args);
      p.line("} else {");
    }
    printLaunchCall(p, name + "_elementwise", grid, block, args);
    if (hasTiledLoops())
      p.line("}");
  }

  /// A reduction's launches: the fill of empty reductions, or the split,
  /// its partials' scratch, the reduction and the fold.
  void printReduceLaunch(Printer &p) {
    std::string block = "dim3(" + std::to_string(gpu().block) + ")";
    p.line("if (x.count == 0) {");
    for (bool wide : {false, true}) {
      setIndexWidth(wide);
      p.line(std::string(wide ? "} else {" : "if (narrow) {"));
      printLaunchCall(p, name + "_fill", blocks("x.n", gpu().block), block,
                      "dstView, x");
    }
    p.line("}");
    p.line("} else {");
    p.line("lrt_dyn_split(&x.parts, &x.chunk, x.n, x.count, " +
           std::string(spec.warpPerOutput ? "true" : "false") + ", " +
           std::to_string(spec.vectorWidth) + ", " +
           std::to_string(gpu().maxBlocks) + ");");
    p.line(acc.c + " *partials = nullptr;");
    p.line("long long *indices = nullptr;");
    p.line("if (x.parts > 1) {");
    p.line("// parts * n accumulators (and indices), within the checked "
           "element count.");
    p.line("const size_t slots = (size_t)x.parts * (size_t)x.n;");
    p.line("const size_t bytes = (slots * " + std::to_string(acc.bytes) +
           " + 255) / 256 * 256;");
    p.line("char *scratch = nullptr;");
    p.line("err = cudaMallocAsync((void **)&scratch, bytes" +
           std::string(isArg() ? " + slots * 8" : "") + ", stream);");
    p.line("if (err != cudaSuccess) {");
    p.line("status = lrt_status_make(LRT_STATUS_RESOURCE_EXHAUSTED, \"%s: "
           "cannot allocate device scratch memory for %lld partials: %s\", "
           "function, (long long)slots, cudaGetErrorString(err));");
    p.line("break;");
    p.line("}");
    p.line("partials = (" + acc.c + " *)scratch;");
    if (isArg())
      p.line("indices = (long long *)(scratch + bytes);");
    p.line("}");
    p.line("// The scratch is freed after the launches (stream order).");
    p.line("struct Release {");
    p.line("void *p;");
    p.line("cudaStream_t s;");
    p.line("~Release() { if (p) (void)cudaFreeAsync(p, s); }");
    p.line("} release{(void *)partials, stream};");
    std::string args = "srcView, dstView, partials, indices, x";
    std::string foldArgs = "dstView, partials, indices, x";
    for (bool wide : {false, true}) {
      setIndexWidth(wide);
      p.line(std::string(wide ? "} else {" : "if (narrow) {"));
      if (spec.warpPerOutput)
        printLaunchCall(
            p, name + "_reduce_warp",
            blocks("lrt_dyn_product(x.n, x.parts)", gpu().block / 32), block,
            args);
      else
        printLaunchCall(p, name + "_reduce_thread",
                        "dim3(" + blocks("x.n", gpu().block) +
                            ".x, (unsigned)x.parts)",
                        block, args);
      p.line("if (x.parts > 1) {");
      p.line("if (x.n < " + std::to_string(gpu().foldThreadsMin) + ") {");
      printLaunchCall(p, name + "_fold_block",
                      "dim3((unsigned)(x.n < " +
                          std::to_string(gpu().maxBlocks) +
                          " ? x.n : " + std::to_string(gpu().maxBlocks) + "))",
                      block, foldArgs);
      p.line("} else {");
      printLaunchCall(p, name + "_fold", blocks("x.n", gpu().block), block,
                      foldArgs);
      p.line("}");
      p.line("}");
    }
    p.line("}");
    p.line("}");
    p.line("}");
  }

  std::string base;
  const DynamicABI::KernelExtents &extents;
  /// Reductions: the plan loops (or, arg*, the source dims) kept and
  /// reduced, in the order of the extents struct.
  SmallVector<int64_t> keptLoops, reducedLoops, keptDims, reducedDims;
};

} // namespace

std::unique_ptr<KernelPrinter>
cuda::createDynamicKernelPrinter(const Kernel &k, std::string name, CElem src,
                                 CElem dst,
                                 const DynamicABI::KernelExtents &extents) {
  return std::make_unique<DynamicKernelPrinter>(
      k, std::move(name), std::move(src), std::move(dst), extents);
}

/// The host helpers of dynamic launchers, each printed only where `text`
/// calls it (an unreferenced static function is an nvcc warning).
std::string cuda::dynamicHostHelpers(StringRef text) {
  auto calls = [&](StringRef helper) {
    return text.contains((helper + "(").str());
  };
  std::string out;
  if (calls("lrt_dyn_product") || calls("lrt_dyn_span"))
    out += "// a * b for counts, INT64_MAX where it overflows.\n"
           "static inline int64_t lrt_dyn_product(int64_t a, int64_t b) {\n"
           "  return b != 0 && a > INT64_MAX / b ? INT64_MAX : a * b;\n"
           "}\n";
  if (calls("lrt_dyn_span"))
    out += "// Bounds every element offset a walk of `rank` loops reaches "
           "from its first\n"
           "// element: the sum of |stride| * (size - 1) (INT64_MAX where it "
           "overflows).\n"
           "static inline int64_t lrt_dyn_span(int rank, const int64_t "
           "*size, const int64_t *stride) {\n"
           "  int64_t span = 0;\n"
           "  for (int i = 0; i < rank; ++i) {\n"
           "    if (size[i] <= 1)\n"
           "      continue;\n"
           "    if (stride[i] == INT64_MIN)\n"
           "      return INT64_MAX;\n"
           "    const int64_t term = lrt_dyn_product(stride[i] < 0 ? "
           "-stride[i] : stride[i], size[i] - 1);\n"
           "    if (term > INT64_MAX - span)\n"
           "      return INT64_MAX;\n"
           "    span += term;\n"
           "  }\n"
           "  return span;\n"
           "}\n";
  if (calls("lrt_dyn_blocks"))
    out += "// Blocks of a grid-stride launch: ceil(work / per) within [1, "
           "most].\n"
           "static inline int64_t lrt_dyn_blocks(int64_t work, int64_t per, "
           "int64_t most) {\n"
           "  const int64_t b = work / per + (work % per != 0);\n"
           "  return b < 1 ? 1 : (b > most ? most : b);\n"
           "}\n";
  if (calls("lrt_dyn_tiles"))
    out += "// Tiles of a transpose of n elements whose tiled loops are a "
           "and b long.\n"
           "static inline int64_t lrt_dyn_tiles(int64_t n, int64_t a, "
           "int64_t b, int64_t tile) {\n"
           "  return (a + tile - 1) / tile * ((b + tile - 1) / tile) * (n / "
           "(a * b));\n"
           "}\n";
  if (calls("lrt_dyn_split")) {
    auto str = [](int64_t v) { return std::to_string(v); };
    out += "// A reduction's partials per output and the elements each "
           "covers, from the\n"
           "// shape alone (the static kernels' rule), so that the bits do "
           "not depend on\n"
           "// the device. count > 0.\n"
           "static inline void lrt_dyn_split(int64_t *parts, int64_t "
           "*chunk, int64_t n, int64_t count, bool warp, int64_t width, "
           "int64_t most) {\n"
           "  auto ceilDiv = [](int64_t a, int64_t b) { return a / b + (a % "
           "b != 0); };\n"
           "  auto least = [](int64_t a, int64_t b) { return a < b ? a : b; "
           "};\n"
           "  int64_t p = 1;\n"
           "  if (warp && n < " +
           str(kWarpsWanted) + ")\n    p = least(ceilDiv(count, " +
           str(kPerWarp) + "), ceilDiv(" + str(kWarpsWanted) +
           ", n));\n"
           "  else if (!warp && n < " +
           str(kThreadsWanted) + ")\n    p = least(least(ceilDiv(count, " +
           str(kPerThread) + "), ceilDiv(" + str(kThreadsWanted) +
           ", n)), most);\n"
           "  if (p < 1)\n"
           "    p = 1;\n"
           "  int64_t c = ceilDiv(count, p);\n"
           "  if (warp)\n"
           "    c = ceilDiv(c, 32 * width) * (32 * width);\n"
           "  *chunk = c;\n"
           "  *parts = ceilDiv(count, c);\n"
           "}\n";
  }
  return out;
}
