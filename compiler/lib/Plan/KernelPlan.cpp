//===- KernelPlan.cpp - Target-independent kernel planning ----------------===//

#include "layout/Compiler/Plan/KernelPlan.h"

#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::layout;

llvm::StringRef mlir::layout::stringifyKernelStrategy(KernelStrategy strategy) {
  switch (strategy) {
  case KernelStrategy::Memcpy:
    return "memcpy";
  case KernelStrategy::Transpose:
    return "transpose";
  case KernelStrategy::Gather:
    return "gather";
  case KernelStrategy::Broadcast:
    return "broadcast";
  case KernelStrategy::ReduceInner:
    return "reduce_inner";
  case KernelStrategy::ReduceOuter:
    return "reduce_outer";
  }
  llvm_unreachable("unknown kernel strategy");
}

Fallible<bool> mlir::layout::fitsIndex32(const StridedLayout &layout,
                                         int64_t elementBytes) {
  Fallible<std::optional<Span>> s = span(layout);
  if (!s)
    return fail(s.message());
  if (!*s)
    return true;
  constexpr int64_t lo32 = std::numeric_limits<int32_t>::min();
  constexpr int64_t hi32 = std::numeric_limits<int32_t>::max();
  // The last byte of the highest element must be addressable too.
  std::optional<int64_t> lo =
      llvm::checkedMul((*s)->lo - layout.offset, elementBytes);
  std::optional<int64_t> hi =
      llvm::checkedMul((*s)->hi - layout.offset + 1, elementBytes);
  return lo && hi && *lo >= lo32 && *hi - 1 <= hi32;
}

/// Elements per vector when the widest value the inner loop holds is
/// `widestBytes`.
static int64_t vectorWidthFor(const TargetInfo &target, int64_t widestBytes) {
  return std::max<int64_t>(1, target.vectorBytes /
                                  std::max<int64_t>(1, widestBytes));
}

/// The edge of a transpose's square register tile, whose rows are vectors
/// loaded along the source's stride-1 loop and, transposed, stored along the
/// destination's: 8 rows (4 of 8-byte elements), so that the rows and their
/// transpose fit AVX2's 16 registers. With 32 registers (AVX-512), a copy
/// of 4-byte elements takes 16 rows, each a whole 64-byte line; other types
/// keep their edge, which stayed faster for them (evidence:
/// docs/internals/planner.md, Square edge).
static int64_t squareEdge(const TargetInfo &target, int64_t srcBytes,
                          int64_t dstBytes) {
  if (target.vectorRegisters >= 32 && srcBytes == 4 && dstBytes == 4)
    return 16;
  return std::max(srcBytes, dstBytes) >= 8 ? 4 : 8;
}

/// Lines per chunk when a skewed transpose splits its destination's
/// stride-1 loop of `size` elements: about size / target.skewChunks lines
/// (so about that many chunks), a power of two from 1 to skewChunks. Its rows
/// lose up to a line at each chunk edge to normal stores, so narrow chunks
/// stream no faster than rectangular tiles (evidence:
/// docs/internals/planner.md, Skewed tiles).
static int64_t skewSplitLines(int64_t size, int64_t line,
                              const TargetInfo &target) {
  return static_cast<int64_t>(
      llvm::bit_floor(static_cast<uint64_t>(std::clamp<int64_t>(
          size / line / target.skewChunks, 1, target.skewChunks))));
}

/// Elements of the parallel loop that a chunk boundary must not cut: whole
/// destination lines when a transpose splits its destination's stride-1
/// loop (its tiles store whole lines, non-temporal ones aligned), else 1.
static TransposeTiling tilingOf(const KernelPlan &plan,
                                const TargetInfo *target);

static int64_t splitUnit(const KernelPlan &plan, int64_t loop,
                         const TargetInfo *target) {
  if (plan.strategy == KernelStrategy::Transpose && plan.tiledLoops &&
      loop == plan.tiledLoops->second) {
    int64_t line = lineElements(plan.dstElementBytes);
    if (!plan.streamingStores)
      return line;
    TransposeTiling t = tilingOf(plan, target);
    if (t.skewed)
      return t.skewChunkLines * line;
    return std::max(line, t.streamWidth);
  }
  return 1;
}

/// The number of equal chunks (the last may be shorter) that cover `units`
/// with at most `chunks` of them: 64 iterations in at most 48 chunks are 32
/// chunks of 2, and the plan says 32.
static int64_t evenChunks(int64_t units, int64_t chunks) {
  if (units <= 1 || chunks <= 1)
    return 1;
  return llvm::divideCeil(units, llvm::divideCeil(units, chunks));
}

int64_t mlir::layout::chunkGrain(const KernelPlan &plan) {
  if (!plan.parallelLoop)
    return 1;
  int64_t unit = splitUnit(plan, *plan.parallelLoop, nullptr);
  int64_t units = llvm::divideCeil(plan.loops[*plan.parallelLoop].size, unit);
  return std::max<int64_t>(
      1, llvm::divideCeil(units, std::max<int64_t>(1, plan.chunks)) * unit);
}

TransposeTiling mlir::layout::transposeTiling(const KernelPlan &plan) {
  assert(plan.tiling && "not a planned tiled transpose");
  return *plan.tiling;
}

/// Elements of a tile row along b that make one destination line, and at
/// least one square edge.
static int64_t tileLine(const TransposeTiling &t, const KernelPlan &plan) {
  return std::max(t.edge, lineElements(plan.dstElementBytes));
}

/// The rows along a that a tile takes: a line's worth of each source row.
static int64_t tileRows(const TransposeTiling &t, const KernelPlan &plan) {
  return t.edge * sourceLineBlocks(t.edge, plan.srcElementBytes);
}

/// The squares: edge, interleave, masked edges and the tile's width.
static void tileEdges(TransposeTiling &t, const KernelPlan &plan) {
  auto [a, b] = *plan.tiledLoops;
  const KernelLoop &la = plan.loops[a], &lb = plan.loops[b];
  int64_t dstBytes = plan.dstElementBytes;
  t.edge = plan.squareEdge;
  t.interleave = lb.size < t.edge && la.dstStride == lb.size;
  t.maskedEdges = !t.interleave &&
                  (plan.srcElementBytes == 4 || plan.srcElementBytes == 8) &&
                  (dstBytes == 4 || dstBytes == 8);
  // Masked squares keep the full edge down to half of it: one square does
  // the work of a narrower one and its masked rest (evidence:
  // docs/internals/planner.md, Short loops and masked edges).
  int64_t fit = std::min(la.size, lb.size);
  if (!t.interleave && fit < t.edge && fit >= 2 &&
      !(t.maskedEdges && 2 * fit > t.edge))
    t.edge = static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(fit)));
  int64_t line = tileLine(t, plan);
  t.width = t.edge * std::clamp<int64_t>(lb.size / t.edge, 1, line / t.edge);
}

void mlir::layout::sortBySourceStride(const KernelPlan &plan,
                                      llvm::SmallVectorImpl<int64_t> &loops) {
  llvm::stable_sort(loops, [&](int64_t x, int64_t y) {
    return std::abs(plan.loops[x].srcStride) >
           std::abs(plan.loops[y].srcStride);
  });
}

void mlir::layout::continueRowsLast(const KernelPlan &plan,
                                    llvm::SmallVectorImpl<int64_t> &loops) {
  auto next = llvm::find_if(loops, [&](int64_t i) {
    return continuesDestinationRows(plan, plan.loops[i]);
  });
  if (next == loops.end())
    return;
  int64_t loop = *next;
  loops.erase(next);
  loops.push_back(loop);
}

/// The loops other than a and b, by decreasing source stride: `inside` ones
/// (smaller source stride than b's) and `outside` ones.
static void orderOtherLoops(TransposeTiling &t, const KernelPlan &plan,
                            bool beyondL2) {
  auto [a, b] = *plan.tiledLoops;
  const KernelLoop &lb = plan.loops[b];
  int64_t rowStride = std::abs(lb.srcStride);
  // Beyond L2, for tiles that store normally, a loop continuing b's
  // destination rows but not a's source rows runs outside, innermost:
  // inside, each b-block's pass over it would leave the destination lines
  // at the block's edge partly written until the next block, by when they
  // are gone (P7 at 63x65x63x65).
  auto continuesDstOnly = [&](const KernelLoop &l) {
    return beyondL2 && !plan.streamingStores &&
           continuesDestinationRows(plan, l) && !continuesSourceRows(plan, l);
  };
  std::optional<int64_t> dstRows;
  for (int64_t i = 0; i < static_cast<int64_t>(plan.loops.size()); ++i) {
    if (i == a || i == b)
      continue;
    if (!t.interleave && std::abs(plan.loops[i].srcStride) < rowStride &&
        continuesDstOnly(plan.loops[i]))
      dstRows = i;
    else
      (std::abs(plan.loops[i].srcStride) < rowStride ? t.inside : t.outside)
          .push_back(i);
  }
  sortBySourceStride(plan, t.inside);
  sortBySourceStride(plan, t.outside);
  if (dstRows)
    t.outside.push_back(*dstRows);
  // Destination rows shorter than a line (b) continue along another loop
  // (its destination stride is b's extent), which runs innermost: the next
  // few tiles then finish each destination line while it is still in L1,
  // rather than a whole pass later. Streaming tiles of rows exactly one line
  // long do the same, so that consecutive tiles store adjacent lines of each
  // row (evidence: docs/internals/planner.md, Loop order around the tile).
  int64_t dstBytes = plan.dstElementBytes;
  bool shortRows = plan.streamingStores ? lb.size * dstBytes == kCacheLineBytes
                                        : lb.size * dstBytes < kCacheLineBytes;
  if (!t.interleave && shortRows)
    continueRowsLast(plan, t.outside);
}

/// How the tiles' rows meet destination lines: wholeLines, streamWidth and
/// skewed.
static void streamingShape(TransposeTiling &t, const KernelPlan &plan,
                           const TargetInfo &target) {
  auto [a, b] = *plan.tiledLoops;
  const KernelLoop &la = plan.loops[a], &lb = plan.loops[b];
  int64_t srcBytes = plan.srcElementBytes;
  int64_t dstBytes = plan.dstElementBytes;
  int64_t line = tileLine(t, plan);
  auto lines = [&](int64_t elements) {
    return (elements * dstBytes) % kCacheLineBytes == 0;
  };
  t.wholeLines = !t.interleave && lines(t.width) && lines(la.dstStride) &&
                 llvm::all_of(t.inside, [&](int64_t i) {
                   return lines(plan.loops[i].dstStride);
                 });
  // Streaming whole-line tiles store plan.streamLines lines of each
  // destination row back to back, as at most streamTileSquares squares side by
  // side along b, where b is that long: the memory then sees pairs of adjacent
  // lines rather than single lines scattered one per row (evidence:
  // docs/internals/planner.md, Paired lines).
  t.streamWidth = t.width;
  int64_t streamWidth = plan.streamLines * line;
  if (plan.streamingStores && plan.streamLines > 1 && t.wholeLines &&
      lb.size >= streamWidth &&
      streamWidth / t.edge <= target.streamTileSquares)
    t.streamWidth = streamWidth;
  // A skewed tile needs full squares and at least one line per row past
  // the skew (b spans four lines or more, so most of a row streams). Its
  // window reads skewLines + 1 lines' worth of source rows a vector at a
  // time, which pays only where the source rows are long enough to prefetch
  // along (longRunBytes or more) or the window is a small block of adjacent
  // rows (skewWindowBytes at most); in between, rectangular tiles storing
  // normally are faster (evidence: docs/internals/planner.md, Skewed tiles).
  int64_t rowBytes = la.size * std::abs(la.srcStride) * srcBytes;
  int64_t windowBytes =
      (target.skewLines + 1) * line * std::abs(lb.srcStride) * srcBytes;
  t.skewed = !t.interleave && !t.wholeLines && t.edge == plan.squareEdge &&
             kCacheLineBytes % dstBytes == 0 && lb.size >= 4 * line &&
             (rowBytes >= target.longRunBytes ||
              windowBytes <= target.skewWindowBytes);
  if (t.skewed) {
    t.skewLines = target.skewLines;
    t.skewChunkLines = skewSplitLines(lb.size, line, target);
  }
}

/// Staged rows: a tile's rows per block, and at least two destination
/// lines.
static void stagedRows(TransposeTiling &t, const KernelPlan &plan,
                       const TargetInfo &target) {
  auto [a, b] = *plan.tiledLoops;
  const KernelLoop &la = plan.loops[a], &lb = plan.loops[b];
  int64_t dstBytes = plan.dstElementBytes;
  int64_t rows = tileRows(t, plan);
  int64_t stageBytes = rows * lb.size * dstBytes;
  if (!t.interleave && !t.wholeLines && !t.skewed && t.inside.empty() &&
      (t.maskedEdges || lb.size % t.edge == 0) && lb.dstStride == 1 &&
      la.dstStride == lb.size && kCacheLineBytes % dstBytes == 0 &&
      stageBytes >= 2 * kCacheLineBytes && stageBytes <= target.stageBytes) {
    t.staged = true;
    t.stageRows = rows;
  }
}

/// Bytes the copy reads and writes (checked not to overflow by planCopy).
static int64_t trafficOf(const KernelPlan &plan) {
  int64_t elements = 1;
  for (const KernelLoop &l : plan.loops)
    elements *= l.size;
  return elements * (plan.srcElementBytes + plan.dstElementBytes);
}

/// Rows of tiles first where the traffic fits in L2 and a tile's destination
/// rows crowd L1 sets (more than one line per set) at least as much as its
/// source rows: passes down a would write the same columns of every
/// destination row into one set (evidence: docs/internals/planner.md, Rows
/// first).
static bool rowsFirst(const TransposeTiling &t, const KernelPlan &plan,
                      const TargetInfo &target) {
  auto [a, b] = *plan.tiledLoops;
  const KernelLoop &la = plan.loops[a], &lb = plan.loops[b];
  int64_t srcBytes = plan.srcElementBytes;
  int64_t dstBytes = plan.dstElementBytes;
  int64_t dstShare = linesPerSet(la.dstStride * dstBytes, tileRows(t, plan));
  return !t.interleave && trafficOf(plan) <= target.l2Bytes && dstShare > 1 &&
         dstShare >= linesPerSet(lb.srcStride * srcBytes, t.width);
}

/// Beyond L2, for tiles that store normally (streaming ones always run the
/// inside loops within b-blocks): the inside loops, innermost first,
/// continue a's source run exactly (each one's source stride is the run so
/// far) and none continues b's destination rows. A b-block's partial
/// destination lines are then finished by the next b-block, one pass over
/// the inside loops and a later, while a plane per inside iteration would
/// read rows b's (large) source stride apart (evidence:
/// docs/internals/planner.md, Inside loops within b-blocks).
static bool insideBlocks(const TransposeTiling &t, const KernelPlan &plan,
                         bool beyondL2) {
  if (!beyondL2 || plan.streamingStores || t.interleave || t.inside.empty())
    return false;
  const KernelLoop &la = plan.loops[plan.tiledLoops->first];
  int64_t run = la.size * la.srcStride;
  for (int64_t i : llvm::reverse(t.inside)) {
    const KernelLoop &l = plan.loops[i];
    if (l.srcStride != run || continuesDestinationRows(plan, l))
      return false;
    run *= l.size;
  }
  return true;
}

/// The tiling planCopy records for a transpose, from the plan's other
/// decisions and the target's L2.
static TransposeTiling computeTiling(const KernelPlan &plan,
                                     const TargetInfo &target) {
  assert(plan.strategy == KernelStrategy::Transpose && plan.tiledLoops &&
         "not a tiled transpose");
  TransposeTiling t;
  tileEdges(t, plan);
  bool beyondL2 = trafficOf(plan) > target.l2Bytes;
  orderOtherLoops(t, plan, beyondL2);
  streamingShape(t, plan, target);
  stagedRows(t, plan, target);
  t.rowsFirst = rowsFirst(t, plan, target);
  t.insideBlocks = insideBlocks(t, plan, beyondL2);
  return t;
}

/// While planning (`target` given), the tiling of the plan so far; after,
/// the one it records.
static TransposeTiling tilingOf(const KernelPlan &plan,
                                const TargetInfo *target) {
  return target ? computeTiling(plan, *target) : transposeTiling(plan);
}

int64_t mlir::layout::linesPerSet(int64_t strideBytes, int64_t rows) {
  constexpr int64_t kSets = 64;
  int64_t most = 0;
  llvm::SmallVector<int64_t> perSet(kSets, 0);
  for (int64_t j = 0; j < rows; ++j) {
    int64_t line = j * strideBytes / kCacheLineBytes;
    int64_t set = ((line % kSets) + kSets) % kSets;
    most = std::max(most, ++perSet[set]);
  }
  return most;
}

bool mlir::layout::joinsRuns(const KernelPlan &plan) { return plan.joinsRuns; }

static bool runsJoin(const KernelPlan &plan, const TargetInfo &target) {
  if ((plan.strategy != KernelStrategy::Gather &&
       plan.strategy != KernelStrategy::Broadcast) ||
      plan.convert || plan.loops.size() < 2 ||
      (plan.dstElementBytes != 4 && plan.dstElementBytes != 8))
    return false;
  const KernelLoop &run = plan.loops.back();
  int64_t runBytes = run.size * plan.dstElementBytes;
  if (run.srcStride != 1 || run.dstStride != 1 || runBytes < kCacheLineBytes ||
      runBytes >= target.longRunBytes)
    return false;
  llvm::SmallVector<int64_t, 6> sizes, strides;
  for (const KernelLoop &l : plan.loops) {
    sizes.push_back(l.size);
    strides.push_back(l.dstStride);
  }
  return isNonOverlappingAndDense(StridedLayout(sizes, strides, 0));
}

/// Splits the chosen loop over threads, never giving a thread less than
/// target.minBytesPerChunk of `trafficBytes`.
static void splitAcrossThreads(KernelPlan &plan, int64_t loop,
                               int64_t trafficBytes, const TargetInfo &target) {
  int64_t units =
      llvm::divideCeil(plan.loops[loop].size, splitUnit(plan, loop, &target));
  int64_t byTraffic =
      std::max<int64_t>(1, trafficBytes / target.minBytesPerChunk);
  plan.chunks = evenChunks(
      units, std::min(std::max<int64_t>(1, target.numThreads), byTraffic));
  plan.parallelLoop =
      plan.chunks > 1 ? std::optional<int64_t>(loop) : std::nullopt;
}

/// Whether non-temporal stores of a copy would fill whole 64-byte lines, or
/// nearly: transposes whose tiles store whole lines, skew or stage
/// (transposeTiling), or that interleave rows into runs of longRunBytes or
/// more; one loop (a chunk has at most two partial lines); runs of
/// longRunBytes or more (two shared edge lines in 64); runs and row strides
/// that are multiples of 64 bytes; or runs joined across their edge lines
/// (joinsRuns). Other short runs of odd length would share their edge lines
/// between streaming and normal stores, which flushes the write-combining
/// buffers partially (evidence: docs/internals/planner.md, When a copy
/// streams).
static bool streamingFillsLines(const KernelPlan &plan, int64_t dstBytes,
                                const TargetInfo &target) {
  if (plan.strategy == KernelStrategy::Transpose) {
    TransposeTiling t = computeTiling(plan, target);
    if (t.interleave) {
      // NCHW -> NHWC with C = 3 stores one contiguous run per a-row block,
      // a vector of a per channel at a time, each 16 bytes or more: whole
      // lines but at the run's two ends.
      auto [a, b] = *plan.tiledLoops;
      int64_t run = plan.loops[a].size * plan.loops[b].size * dstBytes;
      return plan.vectorWidth * dstBytes >= 16 && run >= target.longRunBytes;
    }
    return t.wholeLines || t.skewed || t.staged;
  }
  if (plan.loops.size() <= 1 || runsJoin(plan, target))
    return true;
  int64_t run = plan.loops.back().size * dstBytes;
  if (run >= target.longRunBytes)
    return true;
  return run % kCacheLineBytes == 0 &&
         llvm::all_of(llvm::ArrayRef(plan.loops).drop_back(),
                      [&](const KernelLoop &outer) {
                        return (outer.dstStride * dstBytes) % kCacheLineBytes ==
                               0;
                      });
}

/// With 32 vector registers (AVX-512), a streaming gather whose innermost
/// loop de-interleaves (x[:, ::2]) moves a whole destination line per
/// vector: one full-line store and one permute of two loads, rather than
/// two half-line stores (evidence: docs/internals/planner.md, Whole-line
/// de-interleaving). Reductions keep the common width, which fixes their
/// bits.
static int64_t gatherLineVectors(const KernelPlan &plan,
                                 const TargetInfo &target) {
  int64_t widest = std::max(plan.srcElementBytes, plan.dstElementBytes);
  if (plan.strategy != KernelStrategy::Gather || !plan.streamingStores ||
      target.gpu || target.vectorRegisters < 32 || plan.loops.empty())
    return plan.vectorWidth;
  const KernelLoop &inner = plan.loops.back();
  if (inner.dstStride != 1 || inner.srcStride < 2 ||
      inner.srcStride > target.cpu.maxDeinterleave)
    return plan.vectorWidth;
  return std::max(plan.vectorWidth, kCacheLineBytes / widest);
}

/// Plans carry the target parameters their backend's choices read.
static void recordTargetFacts(KernelPlan &plan, const TargetInfo &target) {
  if (target.gpu)
    plan.gpu = target.cuda;
  else
    plan.cpu = KernelPlan::CPUFacts{target.l2Bytes, target.l1Ways,
                                    target.vectorRegisters, target.cpu};
}

static Fallible<std::monostate> proveIndexWidth(KernelPlan &plan,
                                                const StridedLayout &src,
                                                const StridedLayout &dst,
                                                int64_t elements) {
  Fallible<bool> srcFits = fitsIndex32(src, plan.srcElementBytes);
  if (!srcFits)
    return fail(srcFits.message());
  Fallible<bool> dstFits = fitsIndex32(dst, plan.dstElementBytes);
  if (!dstFits)
    return fail(dstFits.message());
  // The flat element counter of a chunked loop must not wrap either.
  plan.index32 =
      *srcFits && *dstFits && elements <= std::numeric_limits<int32_t>::max();
  return std::monostate();
}

/// The kernel strategy of the copy family copyFamily finds.
static KernelStrategy chooseStrategy(const StridedLayout &src,
                                     const StridedLayout &dst) {
  switch (copyFamily(src, dst)) {
  case CopyFamily::Memcpy:
    return KernelStrategy::Memcpy;
  case CopyFamily::Transpose:
    return KernelStrategy::Transpose;
  case CopyFamily::Gather:
    return KernelStrategy::Gather;
  case CopyFamily::Broadcast:
    return KernelStrategy::Broadcast;
  }
  llvm_unreachable("unknown copy family");
}

/// A gather of contiguous runs whose stores stream whole lines walks the
/// source in its own order (outer loops by decreasing source stride), so
/// that the reads are one sequential stream and the scattered side is the
/// streaming stores, which do not care where their lines go. The split then
/// cuts source bands (evidence: docs/internals/planner.md, Strategy and loop
/// nest).
static void orderGatherBySource(KernelPlan &plan) {
  const KernelLoop &run = plan.loops.back();
  if (plan.strategy == KernelStrategy::Gather && plan.streamingStores &&
      plan.loops.size() > 2 && run.srcStride == 1 && run.dstStride == 1)
    std::stable_sort(plan.loops.begin(), plan.loops.end() - 1,
                     [](const KernelLoop &x, const KernelLoop &y) {
                       return std::abs(x.srcStride) > std::abs(y.srcStride);
                     });
}

/// The loop a transpose splits across threads. Turns streaming stores off
/// where skewed tiles would split into chunks too narrow to stream.
static int64_t planTransposeSplit(KernelPlan &plan, const TargetInfo &target) {
  // Split the source's outermost loop, so that a chunk is a band of the
  // source and reads its rows whole. Splitting the destination's outermost
  // loop would read every source row in pieces of the chunk's width, each
  // a new prefetch stream (evidence: docs/internals/planner.md, Which
  // loop).
  int64_t parallel = 0;
  for (int64_t i = 0; i < static_cast<int64_t>(plan.loops.size()); ++i)
    if (std::abs(plan.loops[i].srcStride) >
        std::abs(plan.loops[parallel].srcStride))
      parallel = i;
  // Skewed tiles in chunks of fewer than 4 lines would store a third or
  // more of each row normally: rectangular tiles.
  int64_t du = plan.tiledLoops->second;
  if (plan.streamingStores && parallel == du &&
      computeTiling(plan, target).skewed &&
      computeTiling(plan, target).skewChunkLines < target.skewMinChunkLines)
    plan.streamingStores = false;
  // Chunks along du own a band of every destination row. Tiles that store
  // normally leave the lines at the band's edges to the next chunk: with
  // loops inside the tile, each chunk is a pass over the whole destination
  // and reads those lines from memory again. Split the next loop in source
  // order instead, whose chunks own whole rows. So do
  // - streaming tiles (not skewed ones, whose split has its own units):
  //   they then store pairs of lines (TransposeTiling::streamWidth) in as
  //   many chunks as the target allows, not only as many as b has pairs;
  // - staged rows, which need each chunk's rows whole, one contiguous span,
  //   and split a when there is no other loop;
  // - tiles that go along b first (rowsFirst), which split a too: threads
  //   writing bands of the same rows at once slow each other down.
  // (Evidence: docs/internals/planner.md, Which loop.)
  int64_t su = plan.tiledLoops->first;
  bool staged = plan.streamingStores && computeTiling(plan, target).staged;
  bool skewed = plan.streamingStores && computeTiling(plan, target).skewed;
  if (!skewed && parallel == du) {
    std::optional<int64_t> other;
    for (int64_t i = 0; i < static_cast<int64_t>(plan.loops.size()); ++i)
      if (i != su && i != du &&
          (!other || std::abs(plan.loops[i].srcStride) >
                         std::abs(plan.loops[*other].srcStride)))
        other = i;
    if (other)
      parallel = *other;
    else if (staged || computeTiling(plan, target).rowsFirst)
      parallel = su;
  }
  return parallel;
}

/// Splits loop `parallel` across threads and sets streamLines. Pairs of
/// lines per streaming tile row (TransposeTiling::streamWidth), unless the
/// split then makes at most half as many chunks as single lines, and fewer
/// than 16: below 16, threads add more bandwidth than pairs do. Squares of
/// 16-byte rows with 32 registers (lanesSquares), whose tiles load every
/// source line whole for one line of each destination row, take the
/// target's lanesStreamLines instead (evidence: docs/internals/planner.md,
/// Paired lines).
static void chooseStreamLines(KernelPlan &plan, int64_t parallel,
                              int64_t traffic, const TargetInfo &target) {
  int64_t lines = targetStreamLines(target, plan.squareEdge,
                                    plan.srcElementBytes, plan.dstElementBytes);
  if (plan.strategy == KernelStrategy::Transpose && plan.streamingStores &&
      lines > 1) {
    KernelPlan single = plan;
    plan.streamLines = lines;
    splitAcrossThreads(single, parallel, traffic, target);
    splitAcrossThreads(plan, parallel, traffic, target);
    if (plan.chunks < target.pairedLinesMinChunks &&
        2 * plan.chunks <= single.chunks)
      plan = std::move(single);
  } else {
    splitAcrossThreads(plan, parallel, traffic, target);
  }
}

Fallible<KernelPlan> mlir::layout::planCopy(const StridedLayout &src,
                                            const StridedLayout &dst,
                                            int64_t srcBytes, int64_t dstBytes,
                                            const TargetInfo &target,
                                            std::optional<bool> convert) {
  if (!src.isStatic() || !dst.isStatic())
    return fail("kernel planning needs static layouts");
  if (src.sizes != dst.sizes)
    return fail("copy between different sizes " + formatDims(src.sizes) +
                " and " + formatDims(dst.sizes));
  Fallible<int64_t> elements = numel(dst.sizes);
  if (!elements)
    return fail(elements.message());
  std::optional<int64_t> traffic =
      llvm::checkedMul(*elements, srcBytes + dstBytes);
  std::optional<int64_t> written = llvm::checkedMul(*elements, dstBytes);
  if (!traffic || !written)
    return fail("integer overflow: the copy moves more than 2^63 bytes");

  KernelPlan plan;
  plan.convert = convert.value_or(srcBytes != dstBytes);
  plan.srcElementBytes = srcBytes;
  plan.dstElementBytes = dstBytes;
  plan.strategy = chooseStrategy(src, dst);
  llvm::SmallVector<StridedLayout, 2> nest = coalesceInOrderOf({src, dst}, 1);
  for (auto [size, s, d] :
       llvm::zip_equal(nest[0].sizes, nest[0].strides, nest[1].strides))
    plan.loops.push_back({size, s, d});

  plan.vectorWidth = vectorWidthFor(target, std::max(srcBytes, dstBytes));
  if (plan.strategy == KernelStrategy::Transpose) {
    // copyFamily has proven both unit-stride loops exist and differ.
    int64_t su = unitStrideDim(nest[0]), du = unitStrideDim(nest[1]);
    plan.tiledLoops = {su, du};
    plan.squareEdge = squareEdge(target, srcBytes, dstBytes);
    plan.tile = {std::min(plan.squareEdge, plan.loops[su].size),
                 std::min(plan.squareEdge, plan.loops[du].size)};
  }
  // Once the copy's traffic exceeds the cache, the source streaming through
  // evicts the destination before anyone reads it back: skipping the
  // read-for-ownership saves a third of the memory traffic.
  plan.streamingStores = *traffic > target.cacheBytes &&
                         streamingFillsLines(plan, dstBytes, target);
  orderGatherBySource(plan);
  plan.vectorWidth = gatherLineVectors(plan, target);
  int64_t parallel = plan.strategy == KernelStrategy::Transpose
                         ? planTransposeSplit(plan, target)
                         : 0;
  chooseStreamLines(plan, parallel, *traffic, target);
  if (Fallible<std::monostate> r = proveIndexWidth(plan, src, dst, *elements);
      !r)
    return fail(r.message());
  if (plan.strategy == KernelStrategy::Transpose)
    plan.tiling = computeTiling(plan, target);
  plan.joinsRuns = runsJoin(plan, target);
  recordTargetFacts(plan, target);
  return plan;
}

/// PyTorch's accumulate_type on CPU, and the result type of the reduction.
static std::pair<ElementInfo, ElementInfo>
accumulatorAndResult(ReductionKind kind, const ElementInfo &element) {
  ElementInfo i64{"i64", 8, false};
  switch (kind) {
  case ReductionKind::Amax:
  case ReductionKind::Amin:
    return {element, element};
  case ReductionKind::Argmax:
  case ReductionKind::Argmin:
    return {element, i64};
  case ReductionKind::Sum:
  case ReductionKind::Mean:
  case ReductionKind::Prod:
    if (!element.isFloat)
      return {i64, i64};
    if (element.bytes >= 8)
      return {element, element};
    return {ElementInfo{"f32", 4, true}, element};
  }
  llvm_unreachable("unknown reduction kind");
}

Fallible<KernelPlan> mlir::layout::planReduction(const StridedLayout &input,
                                                 llvm::ArrayRef<int64_t> dims,
                                                 ReductionKind kind,
                                                 const ElementInfo &element,
                                                 const TargetInfo &target,
                                                 llvm::ArrayRef<int64_t> kept) {
  if (!input.isStatic())
    return fail("kernel planning needs static layouts");
  Fallible<Dims> reduced = normalizeReduceDims(input.rank(), dims);
  if (!reduced)
    return fail(reduced.message());
  Fallible<Dims> resultSizes = reduceSizes(input.sizes, dims, false);
  if (!resultSizes)
    return fail(resultSizes.message());
  Fallible<Dims> resultStrides = kept.empty() ? contiguousStrides(*resultSizes)
                                              : Fallible<Dims>(Dims(kept));
  if (!resultStrides)
    return fail(resultStrides.message());
  if (resultStrides->size() != resultSizes->size())
    return fail("expected " + std::to_string(resultSizes->size()) +
                " result strides, got " +
                std::to_string(resultStrides->size()));
  // The output seen at the input's rank: stride 0 along reduced dims, so
  // that joint coalescing never merges a reduced dim with a kept one.
  StridedLayout result(*resultSizes, *resultStrides);
  StridedLayout output;
  output.sizes = input.sizes;
  for (int64_t d = 0, kept = 0; d < input.rank(); ++d)
    output.strides.push_back(
        llvm::is_contained(*reduced, d) ? 0 : (*resultStrides)[kept++]);
  Fallible<int64_t> elements = numel(input.sizes);
  Fallible<int64_t> outputs = numel(*resultSizes);
  if (!elements || !outputs)
    return fail(!elements ? elements.message() : outputs.message());

  auto [acc, res] = accumulatorAndResult(kind, element);
  KernelPlan plan;
  plan.accumulator = acc.name;
  plan.srcElementBytes = element.bytes;
  plan.dstElementBytes = res.bytes;
  plan.convert = acc.name != element.name;
  std::optional<int64_t> read = llvm::checkedMul(*elements, element.bytes);
  std::optional<int64_t> written = llvm::checkedMul(*outputs, res.bytes);
  std::optional<int64_t> traffic =
      read && written ? llvm::checkedAdd(*read, *written) : std::nullopt;
  if (!traffic)
    return fail("integer overflow: the reduction moves more than 2^63 bytes");

  llvm::SmallVector<StridedLayout, 2> nest =
      coalesceInOrderOf({input, output}, 0);
  bool empty = *elements == 0;
  for (auto [size, s, d] :
       llvm::zip_equal(nest[0].sizes, nest[0].strides, nest[1].strides))
    plan.loops.push_back({size, s, d, /*reduced=*/!empty && d == 0});
  // A single element coalesces to the placeholder run (1):(1) on both sides;
  // when it is also the only output, it is a (trivial) reduction.
  if (!empty && *outputs == 1 && plan.loops.size() == 1 &&
      plan.loops.front().size == 1)
    plan.loops.front() = {1, 1, 0, /*reduced=*/true};
  plan.strategy = plan.loops.back().reduced ? KernelStrategy::ReduceInner
                                            : KernelStrategy::ReduceOuter;
  plan.vectorWidth = vectorWidthFor(target, std::max(acc.bytes, element.bytes));

  // When the outermost loop is reduced, split it: each chunk accumulates a
  // full set of outputs over its rows and the sets combine in chunk order,
  // so memory streams in order (splitting kept columns would make every
  // chunk stride over all rows) and the bits do not depend on the thread
  // count. Every set is initialized and combined once per call, off the
  // parallel path, so all sets together stay within 1/256 of the bytes read
  // and within 16 MiB (evidence: docs/internals/planner.md, 6. Reductions).
  // arg* reductions run serially in logical order. Otherwise split the
  // outermost kept loop.
  bool argReduction =
      kind == ReductionKind::Argmax || kind == ReductionKind::Argmin;
  if (!argReduction && plan.loops.front().reduced && *outputs > 0) {
    splitAcrossThreads(plan, 0, *read, target);
    int64_t budget = std::min<int64_t>(*read / target.reducePartialsShare,
                                       target.reducePartialsBytes);
    while (plan.chunks > 1 && plan.chunks * *outputs * acc.bytes > budget)
      plan.chunks /= 2;
    plan.chunks = evenChunks(plan.loops.front().size, plan.chunks);
    plan.parallelLoop =
        plan.chunks > 1 ? std::optional<int64_t>(0) : std::nullopt;
  }
  if (!plan.parallelLoop) {
    auto kept = llvm::find_if(plan.loops,
                              [](const KernelLoop &l) { return !l.reduced; });
    int64_t parallel = kept != plan.loops.end() ? kept - plan.loops.begin() : 0;
    splitAcrossThreads(plan, parallel, *traffic, target);
  }
  plan.streamingStores = *written > target.cacheBytes;
  if (Fallible<std::monostate> r =
          proveIndexWidth(plan, input, result, *elements);
      !r)
    return fail(r.message());
  recordTargetFacts(plan, target);
  return plan;
}
