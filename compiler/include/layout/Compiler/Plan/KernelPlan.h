//===- KernelPlan.h - Target-independent kernel planning --------*- C++ -*-===//
//
// Decides how each remaining copy, dtype conversion and reduction runs as a
// loop nest, before any backend exists: the jointly coalesced loops, the
// strategy, tiles, vector width, thread split and index width. Pure C++ over
// the layout algebra, so backends, `--emit=explain` and unit tests share one
// answer and none of them needs MLIR IR to ask for it.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_PLAN_KERNELPLAN_H
#define LAYOUT_COMPILER_PLAN_KERNELPLAN_H

#include "layout/Compiler/Plan/TargetInfo.h"
#include "layout/Dialect/Layout/Utils/LayoutAlgebra.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace mlir {
namespace layout {

/// Elements of `elementBytes` bytes in one cache line (at least 1): the
/// width of a transpose's line tile along the destination's stride-1 loop.
inline int64_t lineElements(int64_t elementBytes) {
  return std::max<int64_t>(1, kCacheLineBytes /
                                  std::max<int64_t>(1, elementBytes));
}

enum class KernelStrategy {
  /// One contiguous run on both sides.
  Memcpy,
  /// The stride-1 loops of source and destination differ: tiled, so that
  /// both sides move whole vectors.
  Transpose,
  /// Any other strided read (steps, negative strides, kept inner runs).
  Gather,
  /// The source repeats elements (a stride-0 loop).
  Broadcast,
  /// The innermost loop is reduced: each output accumulates a run.
  ReduceInner,
  /// The innermost loop is kept: vectors of outputs accumulate together
  /// while the reduced loops run outside them.
  ReduceOuter,
};
llvm::StringRef stringifyKernelStrategy(KernelStrategy strategy);

enum class ReductionKind { Sum, Mean, Prod, Amax, Amin, Argmax, Argmin };

/// An element type as far as planning cares: its name ("f16", "i32", as
/// dtypeName spells it), its width and whether it is floating point.
struct ElementInfo {
  std::string name;
  int64_t bytes = 4;
  bool isFloat = true;
};

/// One loop of the nest. Strides are in elements of each side; the
/// destination stride of a reduced loop is 0 (every iteration accumulates
/// into the same output).
struct KernelLoop {
  int64_t size;
  int64_t srcStride;
  int64_t dstStride;
  bool reduced = false;
  bool operator==(const KernelLoop &o) const {
    return size == o.size && srcStride == o.srcStride &&
           dstStride == o.dstStride && reduced == o.reduced;
  }
};

/// How register tiles cover a transpose's two tiled loops (a: the source's
/// stride-1 loop, b: the destination's): part of the plan, so that the
/// backend emits what the plan says.
struct TransposeTiling {
  /// Edge of the square in-register transposes: 8, or 4 for 8-byte
  /// elements (AVX2 has 16 vector registers), narrowed to a power of two
  /// when a or b is shorter (and at most half of it, with maskedEdges).
  int64_t edge = 8;
  /// Destination-row elements one tile stores: whole lines when b is long
  /// enough, else one edge.
  int64_t width = 8;
  /// Destination-row elements one streaming tile stores: the plan's
  /// streamLines lines of each row back to back where b is that long, else
  /// `width`.
  int64_t streamWidth = 8;
  /// b is shorter than the edge and directly inside a in the destination
  /// (NCHW -> NHWC with C = 3): one vector per b index along a, interleaved
  /// into one store, instead of square tiles.
  bool interleave = false;
  /// The other loops, by decreasing source stride. `inside` ones have a
  /// smaller source stride than b's and run inside the loop over b blocks,
  /// continuing the tile's source rows; `outside` ones run around it, but
  /// the loop that continues destination rows shorter than a line (tiles
  /// that store normally) or exactly one line long (streaming tiles) runs
  /// innermost. Beyond L2, for tiles that store normally, a loop that
  /// continues b's destination rows but not a's source rows is always
  /// outside, innermost.
  llvm::SmallVector<int64_t, 4> inside, outside;
  /// Every row a tile stores is a whole number of lines a whole number of
  /// lines from the tile's first one, so the tiles can store non-temporally
  /// wherever that first row is line-aligned (a run-time check).
  bool wholeLines = false;
  /// Otherwise (destination rows not a whole number of lines apart), when
  /// b spans several lines: skewed tiles, whose rows each start at their
  /// own first line boundary (up to a line further along b than the
  /// tile's first column), can still store whole aligned lines; the few
  /// elements before and after those lines in each row store normally.
  bool skewed = false;
  /// Skewed tiles: the lines of each row a tile stores at most, and the
  /// lines per chunk when the destination's rows are split.
  int64_t skewLines = 0;
  int64_t skewChunkLines = 0;
  /// The parts of squares at a's and b's ends, where fewer than `edge`
  /// indices remain, move as masked squares (4- and 8-byte elements:
  /// masked vector loads and stores) rather than element by element.
  bool maskedEdges = false;
  /// Destination rows (b) shorter than a line multiple but adjacent, one
  /// after another as a goes (NHWC with 63 channels): a chunk's rows are
  /// one contiguous span, so tiles of `stageRows` rows at a time go to a
  /// buffer laid out like the span, which streams its whole lines and
  /// carries its last partial line into the next block. Only the span's
  /// first and last partial lines store normally.
  bool staged = false;
  int64_t stageRows = 0;
  /// In L2 (traffic within kL2Bytes), where the destination's rows share L1
  /// sets at least as much as the source's (power-of-two strides), tiles
  /// that store normally go along b first, a row of tiles at a time, rather
  /// than down a, whose passes write the same columns of every destination
  /// row into one set. The planner then splits another loop than b, whose
  /// chunks would each write a band of every destination row.
  bool rowsFirst = false;
  /// Beyond L2, tiles that store normally whose inside loops continue the
  /// tile's source rows exactly (a run of a, then each inside loop's
  /// extent, contiguous in the source) and not b's destination rows: they
  /// run those loops within each b-block, as streaming tiles do, so that a
  /// tile's rows read long contiguous streams, rather than finishing a
  /// plane of a x b per inside iteration, whose rows lie b's (large) stride
  /// apart.
  bool insideBlocks = false;
};

struct KernelPlan {
  KernelStrategy strategy = KernelStrategy::Memcpy;
  /// The element type changes on the way (a fused dtype conversion).
  bool convert = false;
  int64_t srcElementBytes = 0;
  int64_t dstElementBytes = 0;
  /// Reductions only: the type partial results are kept in.
  std::optional<std::string> accumulator;
  /// Outermost first. Copies walk the destination's memory order,
  /// reductions the input's (the side that carries the traffic).
  llvm::SmallVector<KernelLoop, 6> loops;
  /// Transpose only: the loop that is stride-1 in the source and the one
  /// that is stride-1 in the destination, the edge of the square register
  /// tile, and the tile extent along each loop (the edge, or the loop's
  /// size when that is shorter).
  std::optional<std::pair<int64_t, int64_t>> tiledLoops;
  int64_t squareEdge = 0;
  llvm::SmallVector<int64_t, 2> tile;
  /// Elements per vector of the widest type the inner loop touches.
  int64_t vectorWidth = 1;
  /// The loop split across threads, nullopt when the kernel runs on one.
  /// A reduced loop is split only when it is the outermost; each chunk then
  /// accumulates its own set of outputs, combined in chunk order.
  std::optional<int64_t> parallelLoop;
  int64_t chunks = 1;
  /// Every byte offset either side can reach from its first element, for
  /// any index, and the element count fit in int32.
  bool index32 = true;
  /// The destination does not fit in cache: non-temporal stores skip the
  /// read-for-ownership and keep the source in cache.
  bool streamingStores = false;
  /// Streaming transposes: the lines of each destination row that a tile
  /// stores back to back (TransposeTiling::streamWidth), 1 or
  /// TargetInfo::streamLines.
  int64_t streamLines = 1;
  /// Transposes: how register tiles cover the two tiled loops.
  std::optional<TransposeTiling> tiling;
  /// Copies of contiguous runs that stream joined across their edge lines
  /// (see joinsRuns).
  bool joinsRuns = false;
  /// CPU targets: the target's L2 and L1 associativity and its code
  /// generation parameters, which the CPU backend's loop choices read.
  struct CPUFacts {
    int64_t l2Bytes = 0;
    int64_t l1Ways = 0;
    int64_t vectorRegisters = 0;
    TargetInfo::CPUTuning tuning;
  };
  std::optional<CPUFacts> cpu;
  /// GPU targets: the code generation parameters the CUDA backend reads.
  std::optional<TargetInfo::GPUTuning> gpu;
  /// Planned with a tuning file's knobs (Wisdom.h) rather than the target's
  /// defaults: the knobs it set, by name. The decisions above already
  /// follow them; this says where they came from.
  std::optional<std::map<std::string, int64_t>> tuned;
};

/// Plans `dst = src` where both layouts have the same sizes (a broadcast
/// source is already expanded, stride 0). `srcBytes`/`dstBytes` are element
/// widths. `convert` says whether the dtype changes; by default, whether the
/// widths differ (f16 <-> bf16 keeps the width, so callers that know the
/// types pass it). Errors on dynamic layouts and i64 overflow.
Fallible<KernelPlan> planCopy(const StridedLayout &src,
                              const StridedLayout &dst, int64_t srcBytes,
                              int64_t dstBytes, const TargetInfo &target = {},
                              std::optional<bool> convert = std::nullopt);

/// Plans a reduction of `input` over `dims` (empty: all dims) into a new
/// result: row-major, or with `kept` as the strides of its kept dims (in
/// input order; a dynamic plan's result at representative sizes). The
/// result's element type follows PyTorch: the input's, except i64 for
/// integer sum/mean/prod and for argmax/argmin.
Fallible<KernelPlan>
planReduction(const StridedLayout &input, llvm::ArrayRef<int64_t> dims,
              ReductionKind kind, const ElementInfo &element,
              const TargetInfo &target = {}, llvm::ArrayRef<int64_t> kept = {});

/// Iterations of the parallel loop per chunk (the last chunk may run
/// fewer): `plan.chunks` equal parts, in whole destination lines when a
/// transpose splits its destination's stride-1 loop. The plan's loop size
/// divided by the grain, rounded up, is exactly `plan.chunks`; 1 when the
/// plan has no parallel loop.
int64_t chunkGrain(const KernelPlan &plan);

/// The most of `rows` rows `strideBytes` apart that share one set of a
/// 64-set L1 of 64-byte lines (4 KiB apart: AMD Zen's and Intel's).
int64_t linesPerSet(int64_t strideBytes, int64_t rows);

/// Squares of `edge` source elements of `srcBytes` bytes that a transpose
/// tile takes side by side along a: a line's worth of each source row (at
/// most 4), so that every source line it touches is read whole while it is
/// in L1 (rows a power-of-two stride apart share a cache set, and a line
/// left half-read is evicted before the next tile comes back to it).
inline int64_t sourceLineBlocks(int64_t edge, int64_t srcBytes) {
  return std::clamp<int64_t>(
      kCacheLineBytes / std::max<int64_t>(1, edge * srcBytes), 1, 4);
}

/// Squares of 16-byte rows that keep their element type, with 32 vector
/// registers: streaming tiles of them load every source line whole and deal
/// its 16-byte lanes to the squares (the CPU backend's streamingLanes), one
/// line of each destination row per tile.
inline bool lanesSquares(int64_t vectorRegisters, int64_t edge,
                         int64_t srcBytes, int64_t dstBytes) {
  return vectorRegisters >= 32 && edge * srcBytes == 16 && srcBytes == dstBytes;
}

/// Lines of each destination row a streaming transpose tile of `edge`
/// squares stores back to back on `target`, before the split's chunk rule:
/// lanesStreamLines for lanesSquares, else streamLines.
inline int64_t targetStreamLines(const TargetInfo &target, int64_t edge,
                                 int64_t srcBytes, int64_t dstBytes) {
  return lanesSquares(target.vectorRegisters, edge, srcBytes, dstBytes)
             ? target.lanesStreamLines
             : target.streamLines;
}

/// The tiling a planned transpose records (KernelPlan::tiling).
TransposeTiling transposeTiling(const KernelPlan &plan);
/// A transpose's loops other than a and b (indices into plan.loops) by
/// decreasing source stride, stable: the order its tiles walk the source.
void sortBySourceStride(const KernelPlan &plan,
                        llvm::SmallVectorImpl<int64_t> &loops);
/// Whether `l` continues a tiled transpose's source rows along a: its
/// source stride is a's extent times a's.
inline bool continuesSourceRows(const KernelPlan &plan, const KernelLoop &l) {
  const KernelLoop &la = plan.loops[plan.tiledLoops->first];
  return l.srcStride == la.size * la.srcStride;
}
/// Whether `l` continues a tiled transpose's destination rows along b: its
/// destination stride is b's extent times b's.
inline bool continuesDestinationRows(const KernelPlan &plan,
                                     const KernelLoop &l) {
  const KernelLoop &lb = plan.loops[plan.tiledLoops->second];
  return l.dstStride == lb.size * lb.dstStride;
}
/// Moves the loop that continues b's destination rows
/// (continuesDestinationRows) to the end of `loops`, if there is one.
void continueRowsLast(const KernelPlan &plan,
                      llvm::SmallVectorImpl<int64_t> &loops);

/// Whether a copy of contiguous runs (stride 1 on both sides, one line to
/// TargetInfo::longRunBytes long, one 4- or 8-byte type) that fill a dense
/// destination back to back can stream every line whole, although the runs
/// do not start on line boundaries: each run stores the line it starts in,
/// its head joined to the previous run's tail (read with masked loads), and
/// leaves the line it ends in to the next run. The plan records it
/// (KernelPlan::joinsRuns).
bool joinsRuns(const KernelPlan &plan);

/// Is every byte offset `layout` reaches, relative to its first (offset)
/// element, inside int32? The partial sums of a strided index lie between
/// the sum of its negative and of its positive terms, so the span decides.
Fallible<bool> fitsIndex32(const StridedLayout &layout, int64_t elementBytes);

/// A kernel planned once for every size: the plan that kernels with run-time
/// extents compile (its shape-independent decisions: strategy, loop order,
/// tiled loops, which strides are exactly 0 or 1, vector width, parallel
/// loop), made for representative sizes, and each of its loops' size and
/// strides as symbolic expressions, evaluated at run time.
struct DynamicKernelPlan {
  KernelPlan plan;
  llvm::SmallVector<SymExpr, 6> sizes, srcStrides, dstStrides;
  /// Every symbol's value at the representative sizes planned for.
  std::vector<int64_t> representative;
};

/// The loops whose ranges the chunks of a kernel with run-time extents
/// split (docs/internals/runtime-extents.md).
struct RuntimeSplitLoops {
  /// The plan's parallel loop when it splits one, else the one the planner
  /// would pick for a larger shape of the same stride order: a reduction's
  /// reduced outermost loop, else its first kept loop; a transpose's loop
  /// of largest source stride, or, when that is b, the next such loop other
  /// than a, or else a; loop 0. -1: none (no loops, or `serial`).
  int64_t loop = -1;
  /// Copies: the loop split instead where `loop` has a single index at run
  /// time (a batch of one), the outermost other loop that chunks may split
  /// (not a transpose's b, nor another copy's innermost loop); -1: none.
  int64_t fallback = -1;
};

/// The split of `plan`'s run-time-extent kernel; `serial`: argmax/argmin,
/// which run in one chunk.
RuntimeSplitLoops runtimeSplitLoops(const KernelPlan &plan, bool serial);

/// Plans `dst = src` over symbolic layouts of equal sizes. Loops are the
/// dims, ordered by the destination's strides at representative sizes
/// (every input size a distinct prime of at least 37, so that no stride
/// equality or size 1 holds by accident), merged where the algebra proves
/// them mergeable for every size (the order only affects speed: any order
/// is a correct nest). Errors where no such plan exists: the representative
/// sizes fail a check, or a size is 1 or a stride is 0 or +-1 for some sizes
/// only (the kernel would assume it for all).
Fallible<DynamicKernelPlan> planDynamicCopy(const SymTable &table,
                                            const SymLayout &src,
                                            const SymLayout &dst,
                                            int64_t srcBytes, int64_t dstBytes,
                                            const TargetInfo &target = {},
                                            std::optional<bool> convert = {});

/// Plans a reduction of `input` over `dims` (normalized, non-empty) for
/// every size, as planDynamicCopy plans copies: loops in the input's memory
/// order at representative sizes, merged where the algebra proves it.
/// `kept` holds the result's strides of the kept dims, in input order (a
/// reduced dim's destination stride is 0).
Fallible<DynamicKernelPlan>
planDynamicReduction(const SymTable &table, const SymLayout &input,
                     llvm::ArrayRef<int64_t> dims, llvm::ArrayRef<SymExpr> kept,
                     ReductionKind kind, const ElementInfo &element,
                     const TargetInfo &target = {});

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_PLAN_KERNELPLAN_H
