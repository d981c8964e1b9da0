//===- PlanKernelPrinter.h - The printer of one kernel plan -----*- C++ -*-===//
//
// Internal to the CUDA kernel printers: the KernelPrinter of one Kernel of an
// ABI, one class whose members are defined by strategy family:
//   CUDAKernels.cpp       what to print and launch, index decoding;
//   CopyKernels.cpp       memcpy, elementwise (gathers, broadcasts), vectors;
//   TransposeKernels.cpp  tiled, vector and interleaving transposes;
//   ReduceKernels.cpp     reductions, their identities, helpers and folds;
//   DynamicKernels.cpp    a dynamic function's kernels: the same with
//                         run-time extents (a subclass), and their launches.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_TARGET_CUDA_PLANKERNELPRINTER_H
#define LAYOUT_COMPILER_TARGET_CUDA_PLANKERNELPRINTER_H

#include "CUDAKernels.h"

#include "layout/Compiler/Semantics/Reductions.h"

#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace mlir {
namespace layout {
namespace cuda {

/// --cuda-transpose-load-lanes: lanes of a warp along the source rows of
/// every vector transpose, 0 for vectorTranspose's choice
/// (TransposeKernels.cpp).
extern llvm::cl::opt<int> clTransposeLoadLanes;

/// One loop of a kernel: size and the element stride of each side.
struct Loop {
  int64_t size;
  int64_t srcStride;
  int64_t dstStride;
  /// Kernels with run-time extents: C expressions of the size and strides
  /// in the kernel (empty: the constants above). The constants then hold
  /// the values at the plan's representative sizes, of which a size of 1
  /// and strides of 0 and 1 hold for every size (planDynamicCopy).
  std::string sizeExpr = {}, srcExpr = {}, dstExpr = {};
};

/// Reductions of fewer outputs than these warps (a warp per output) or
/// threads (a thread per output) split their reduced run into partials of
/// at least kPerWarp or kPerThread elements, so that enough of them run
/// (prepareReduction; lrt_dyn_split in dynamic launchers).
constexpr int64_t kWarpsWanted = 8192, kPerWarp = 4096;
constexpr int64_t kThreadsWanted = 262144, kPerThread = 256;

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

/// Prints the kernels of one Kernel of an ABI and the launch code the raw
/// launcher runs for it.
class PlanKernelPrinter : public KernelPrinter {
public:
  PlanKernelPrinter(const Kernel &k, std::string name, CElem src, CElem dst)
      : k(k), name(std::move(name)), src(std::move(src)), dst(std::move(dst)) {
    I = k.plan.index32 ? "int32_t" : "int64_t";
    U = k.plan.index32 ? "uint32_t" : "uint64_t";
  }

  LogicalResult prepare() override;
  bool launchesKernels() const override { return dstElements != 0; }
  int64_t scratchBytes() const override;
  void printKernels(Printer &p) override;
  void printLaunch(Printer &p, const std::string &srcView,
                   const std::string &dstView,
                   const std::string &scratch) override;
  std::string describe() const override;

protected:
  // CUDAKernels.cpp: the kind of plan, and index decoding.
  bool isArg() const;
  std::string reductionName() const;
  std::string kernelLabel(const std::string &kernel) const;
  void printLaunchCall(Printer &p, const std::string &kernel,
                       const std::string &grid, const std::string &block,
                       const std::string &args);
  bool isContiguousRun() const;
  bool hasTiledLoops() const;
  bool isTiled() const;
  void printDecode(Printer &p, ArrayRef<Loop> loops, const std::string &flat,
                   const std::string &srcOff, const std::string &dstOff);
  void addTerm(Printer &p, const std::string &idx, const Loop &l,
               const std::string &srcOff, const std::string &dstOff);
  std::string mulExpr(const std::string &idx, int64_t stride);
  std::string mulExpr(const std::string &idx, const Loop &l, bool source);
  std::string sizeOf(const Loop &l, StringRef type) const;
  std::string num(int64_t value, StringRef field, StringRef type) const;
  std::string finishCall(const std::string &value) const;
  std::vector<Loop> planLoops() const;
  std::string load(const std::string &ptr, const std::string &off);

  // CopyKernels.cpp: copies, and the vectors every copy kernel moves.
  std::string signature(const std::string &kernel);
  void printVectorMemcpy(Printer &p);
  void printElementwise(Printer &p, const std::string &kernel);
  std::optional<VectorSpec> vectorSpec() const;
  static bool stridesAligned(ArrayRef<Loop> loops, int64_t width,
                             ArrayRef<int64_t> skipSrc,
                             ArrayRef<int64_t> skipDst);
  std::optional<VectorSpec> vectorElementwise() const;
  void printVectorStore(Printer &p, const std::string &from,
                        const std::string &off);
  void printVectorLoad(Printer &p, const std::string &into,
                       const std::string &off);
  void printVectorElementwise(Printer &p);

  // TransposeKernels.cpp: transposes.
  std::tuple<Loop, Loop, std::vector<Loop>> splitTiled() const;
  std::optional<VectorSpec> vectorInterleave() const;
  std::optional<VectorSpec> vectorTranspose() const;
  static int64_t tilesPerWarp(const VectorSpec &v);
  int64_t warpTiles(const VectorSpec &v) const;
  void printVectorInterleave(Printer &p);
  void printVectorTranspose(Printer &p);
  void printTranspose(Printer &p);

  // ReduceKernels.cpp: reductions.
  LogicalResult chooseAccumulator();
  LogicalResult prepareReduction();
  int64_t reduceVectorWidth() const;
  ReductionRules rules() const;
  std::string identity() const;
  void printReduceHelpers(Printer &p, StringRef body);
  void printFinish(Printer &p);
  void printAccumulate(Printer &p, const std::string &base,
                       const std::string &first, int64_t step);
  std::string reduceSignature(const std::string &kernel);
  void printRange(Printer &p);
  std::string ull(int64_t value, StringRef field) const;
  void printStoreResult(Printer &p, const std::string &partialIndex);
  void printDecodeSourceAndResult(Printer &p);
  void printWarpButterfly(Printer &p);
  void printReduceWarp(Printer &p);
  void printReduceThread(Printer &p);
  bool foldPerBlock() const;
  void printCombine(Printer &p);
  void printFoldParts(Printer &p, const std::string &first, int64_t step,
                      const std::string &stride);
  void printCombineBlock(Printer &p, const std::string &kernel);
  std::string foldParams() const;
  void printFill(Printer &p);

  const Kernel &k;
  /// The GPU parameters the plan records (printCUDASource has checked that
  /// it does).
  const TargetInfo::GPUTuning &gpu() const { return *k.plan.gpu; }
  /// Blocks for `work` items at `perBlock` per block, within the grid cap.
  int64_t blocksFor(int64_t work, int64_t perBlock) const {
    return cuda::blocksFor(work, perBlock, gpu().maxBlocks);
  }
  /// Prefix of the kernels' names.
  std::string name;
  /// The element types of the source, the destination and (reductions) the
  /// accumulator.
  CElem src, dst, acc;
  /// The plan's signed and unsigned index types: "int32_t" and "uint32_t"
  /// for 32-bit indices, else "int64_t" and "uint64_t".
  std::string I, U;
  int64_t srcElements = 0, dstElements = 0;
  /// Blocks of the main kernel's launch: printKernels sets it, printLaunch
  /// reads it.
  int64_t gridSize = 1;
  ReduceSpec spec;
  /// The vector kernel of a copy, when it has one.
  std::optional<VectorSpec> vec;
  /// Kernels with run-time extents (DynamicKernels.cpp): every kernel takes
  /// `const <extType> x`, whose fields num() names (n: elements or
  /// outputs; count, parts, chunk: a reduction's), and loops carry their
  /// expressions.
  bool runtime = false;
  std::string extType;
};

} // namespace cuda
} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_TARGET_CUDA_PLANKERNELPRINTER_H
