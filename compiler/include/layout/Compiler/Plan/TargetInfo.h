//===- TargetInfo.h - The machine a kernel plan is made for -----*- C++ -*-===//
//
// One description of a target: every machine fact and threshold the planner
// reads is a named field here, and named presets (`x86-64-v3`, `x86-64-v4`,
// `host`, `sm_80`, `sm_90`) fill them. `layout-plan-kernels` takes one, so a
// plan depends on nothing else.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_PLAN_TARGETINFO_H
#define LAYOUT_COMPILER_PLAN_TARGETINFO_H

#include "layout/Dialect/Layout/Utils/LayoutAlgebra.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace layout {

/// The unit non-temporal stores and the hardware prefetchers work in: 64
/// bytes on every CPU and GPU layoutc targets, so the planner and the
/// backends share one constant rather than a field.
constexpr int64_t kCacheLineBytes = 64;

/// The defaults are a 16-thread AVX2 machine (what the planner's unit tests
/// assume); the presets below are what layoutc plans for.
struct TargetInfo {
  /// The preset's name ("x86-64-v3", "host", "sm_90"), for reports.
  std::string name = "default";
  /// A GPU: the CUDA backend runs its kernels.
  bool gpu = false;
  /// Bytes per vector of the widest type a kernel's inner loop moves.
  int64_t vectorBytes = 32;
  /// Vector registers a transpose tile may occupy: 32 with AVX-512
  /// (zmm0-31), where a 16 x 16 tile of 4-byte elements, one 64-byte line
  /// per row, and its transpose fit in registers.
  int64_t vectorRegisters = 16;
  /// Traffic (bytes read + written) above which a copy's stores stream:
  /// the last-level cache it would otherwise fill.
  int64_t cacheBytes = int64_t(32) << 20;
  /// A core's L2: transposes whose traffic fits tile along the
  /// destination's rows first where rows share L1 sets.
  int64_t l2Bytes = int64_t(1) << 20;
  /// Ways of the L1 data cache (64 sets of 64-byte lines): rows a
  /// power-of-two stride apart beyond this many evict each other.
  int64_t l1Ways = 8;
  /// The most chunks a loop splits into. Fixed per target, never read from
  /// the machine at run time, so that a reduction's bits do not depend on
  /// the thread count.
  int64_t numThreads = 16;
  /// Below this much traffic per chunk, waking a thread costs more than the
  /// bandwidth it adds (PyTorch's GRAIN_SIZE: 32768 elements, 256 KiB of
  /// f32 read + write).
  int64_t minBytesPerChunk = int64_t(256) << 10;

  // The planner's thresholds (their evidence: docs/internals/planner.md).
  /// Contiguous runs at least this long stream on their own: their edge
  /// lines, stored normally, are at most two in 64.
  int64_t longRunBytes = 4096;
  /// Lines of each destination row a streaming transpose tile stores back
  /// to back, as at most `streamTileSquares` squares side by side, unless
  /// that leaves fewer than `pairedLinesMinChunks` chunks and half as many
  /// as single lines would.
  int64_t streamLines = 2;
  int64_t streamTileSquares = 8;
  int64_t pairedLinesMinChunks = 16;
  /// streamLines for tiles of lanesSquares (f16, bf16, i8: 32 registers),
  /// whose tiles each store one whole line of each destination row: with 2,
  /// two such tiles side by side along b. 1 by default: the hosts measured
  /// disagree (docs/internals/planner.md, Paired lines), so presets decide.
  int64_t lanesStreamLines = 1;
  /// The largest block of destination rows a staged transpose buffers.
  int64_t stageBytes = 16 << 10;
  /// Lines of each destination row a skewed transpose tile stores at most;
  /// skewing pays where the window of source rows it reads is at most
  /// `skewWindowBytes` (or the rows are long runs). A split along the
  /// destination's rows makes about `skewChunks` chunks and none under
  /// `skewMinChunkLines` lines (else tiles are rectangular).
  int64_t skewLines = 8;
  int64_t skewWindowBytes = 64 << 10;
  int64_t skewChunks = 16;
  int64_t skewMinChunkLines = 4;
  /// A reduction split along a reduced loop keeps one set of partials per
  /// chunk, all of them within 1/reducePartialsShare of the bytes read and
  /// within reducePartialsBytes.
  int64_t reducePartialsShare = 256;
  int64_t reducePartialsBytes = int64_t(16) << 20;
  /// CPU code generation parameters, recorded in every CPU plan
  /// (KernelPlan::tuning); their evidence is in docs/internals/planner.md.
  struct CPUTuning {
    /// Contiguous runs of one type at least this long call libc's memcpy.
    int64_t libcCopyBytes = 4096;
    /// The largest source step a gather de-interleaves with shuffles.
    int64_t maxDeinterleave = 4;
    /// Vector accumulators of an inner reduction's run, and the elements
    /// each cascade block sums before joining the run's total.
    int64_t reduceAccumulators = 4;
    int64_t reduceBlock = 2048;
    /// Rows an outer reduction adds to its accumulator row at once, and the
    /// least distance it prefetches each row's vectors ahead beyond L2.
    int64_t reduceRowGroup = 8;
    int64_t reduceGroupPrefetchBytes = 16 << 10;
    /// Rows are grouped when their accumulators exceed the first or their
    /// input reaches the second (bytes).
    int64_t reduceLongAccumulatorBytes = 8 << 10;
    int64_t reduceLongInputBytes = 2 << 10;
    /// How far ahead a run of 2-byte elements reduced beyond L2 prefetches.
    int64_t runPrefetchBytes = 8 << 10;
    /// Rows of a per panel of a transpose plane over twice as many rows.
    int64_t panelRows = 2048;
    /// How far ahead streaming transposes prefetch long source rows, and
    /// the least and most a block of adjacent rows prefetches ahead.
    int64_t rowPrefetchBytes = 1024;
    int64_t blockPrefetchMinBytes = 8 << 10;
    int64_t blockPrefetchMaxBytes = 64 << 10;
  } cpu;
  /// GPU code generation parameters, recorded in every GPU plan
  /// (KernelPlan::gpu); their evidence is in bench/notes/cuda-kernels.md.
  struct GPUTuning {
    /// Threads per block of every kernel but the tiled transpose's.
    int64_t block = 256;
    /// Grid cap: every kernel loops grid-stride, so this bounds the launch,
    /// not the size it handles; 65535 is valid for any grid dimension.
    int64_t maxBlocks = 65535;
    /// Tiled transposes: a tile of `tile` x `tile` elements (one warp wide)
    /// moved by `tile` x `tileRows` threads; a tiled loop shorter than
    /// `minTileSide` runs elementwise instead.
    int64_t tile = 32;
    int64_t tileRows = 8;
    int64_t minTileSide = 8;
    /// Vector transposes whose source and destination rows are this far
    /// apart (or farther) take lanes that favour long destination runs.
    int64_t farRowBytes = 16384;
    /// Vectors each thread of a vector elementwise copy loads before it
    /// stores any: the loads in flight that keep HBM busy.
    int64_t vectorsPerThread = 2;
    /// Steps of a reduction's loop whose loads are issued before the first
    /// is combined (the combining order is unchanged).
    int64_t reduceUnroll = 4;
    /// Reductions with fewer outputs than `foldThreadsMin` fold their
    /// partials with a block per output, more with a thread per output;
    /// a fold loads `foldUnroll` partials before combining the first.
    int64_t foldThreadsMin = 4096;
    int64_t foldUnroll = 8;
  } cuda;
};

/// The names lookupTarget accepts, in the order `--help` lists them.
llvm::ArrayRef<llvm::StringRef> targetPresetNames();

/// The preset called `name`. `host` is x86-64-v4 where this machine has
/// AVX-512F and x86-64-v3 otherwise, with the L1 associativity, L2 and
/// last-level cache sizes of its first CPU (Linux sysfs) where it reports
/// them. Fails naming the presets on an unknown name.
Fallible<TargetInfo> lookupTarget(llvm::StringRef name);

/// The CPU preset of a machine with (or without) AVX-512F.
TargetInfo cpuTarget(bool avx512);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_PLAN_TARGETINFO_H
