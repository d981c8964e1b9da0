//===- CPUKernels.h - The CPU backend's kernel builder ----------*- C++ -*-===//
//
// Internal to the CPU backend: what the files that build kernel modules
// share. Every kernel becomes an internal "chunk" function
//   void chunk(ptr ctx, i64 begin, i64 end)
// that runs iterations [begin, end) of the plan's parallel loop (all of it
// when the plan has none); ctx holds the source view, destination view and
// accumulator pointers. The raw entry point binds buffers, hands each chunk
// function to lrt_parallel_for and combines reduction partials in a fixed
// order, so results never depend on the thread count. The DLPack entry point
// validates its tensors with lrt_bind_tensors and calls the raw one.
//
// Run-time-extent mode (CPUOptions::runtimeExtents, RuntimeExtents.cpp,
// docs/internals/runtime-extents.md): the chunk function bakes in only the
// plan's shape-independent facts (strategy, types, loop count and order,
// reduced loops, tiled loops, square edge, vector width, parallel loop, and
// which strides are exactly 0 or 1). Everything else comes from ctx[3], a
// pointer to an i64 array laid out as the kExt* constants below say: the
// chunk grain, the output count and elements per output of a reduction,
// whether a copy's stores stream, then size, source stride and destination
// stride of every plan loop (elements), then for argmax/argmin size and stride
// of every source dim. The raw entry point fills it (KernelExtents, from the
// plan's values today), and computes the split from it with the planner's rule.
//
// Addresses are plain pointers with i64 element indices (GEP), so loops need
// no memref descriptors; vector values come from vector loads along unit
// strides and are transposed in registers with shuffles.
//
// KernelBuilder emits one kernel; its members are defined by strategy family:
// EntryPoints.cpp (chunk functions, entry points, the module), CopyKernels.cpp,
// TransposeKernels.cpp (register tiles), StreamingTransposes.cpp (skewed,
// staged and lane tiles, source prefetch) and ReduceKernels.cpp; the
// run-time-extent ones in RuntimeExtents.cpp, RuntimeTransposes.cpp and
// RuntimeOutline.cpp (their functions of their own). Emitter.cpp holds the
// IR helpers. The measurements behind the strategies are in
// bench/notes/cpu-kernels.md.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_TARGET_CPU_CPUKERNELS_H
#define LAYOUT_COMPILER_TARGET_CPU_CPUKERNELS_H

#include "layout/Compiler/Semantics/Elements.h"
#include "layout/Compiler/Target/CPU/CPUBackend.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir {
namespace layout {
namespace cpu {

/// An element type's traits and the type that holds it in memory and in
/// registers.
struct Elem : ElementTraits {
  /// Memory type: i1 is stored as a byte, ui8 as i8.
  Type mem;
};

Elem elemOf(Type t);

/// Builds IR into one function at a time.
class Emitter {
public:
  Emitter(ModuleOp module)
      : module(module), b(module.getLoc(), module.getContext()) {
    ctx = module.getContext();
    i64 = b.getI64Type();
    ptr = LLVM::LLVMPointerType::get(ctx);
  }

  Value c64(int64_t v) { return arith::ConstantIntOp::create(b, v, 64); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }
  Value mulc(Value x, int64_t k) {
    if (k == 1)
      return x;
    return mul(x, c64(k));
  }
  /// The product of `xs` (1 for none): a tensor's elements from its sizes.
  Value product(ValueRange xs) {
    Value p = c64(1);
    for (Value x : xs)
      p = mul(p, x);
    return p;
  }
  Value minI(Value x, Value y) { return arith::MinSIOp::create(b, x, y); }
  Value maxI(Value x, Value y) { return arith::MaxSIOp::create(b, x, y); }
  /// !c for an i1.
  Value not_(Value c) {
    return arith::XOrIOp::create(
        b, c, arith::ConstantIntOp::create(b, b.getI1Type(), 1));
  }

  Value gep(Value base, Type elem, Value index) {
    return LLVM::GEPOp::create(b, ptr, elem, base, ValueRange{index});
  }
  /// Accesses are aligned to their element, the most a strided view
  /// guarantees.
  static unsigned alignOf(Type elem) {
    if (isa<LLVM::LLVMPointerType>(elem))
      return 8;
    return std::max(1u, elem.getIntOrFloatBitWidth() / 8);
  }
  Value load(Type type, Value base, Type elem, Value index) {
    return LLVM::LoadOp::create(b, type, gep(base, elem, index), alignOf(elem));
  }
  /// Hints the line `ahead` bytes past element `index` into the cache
  /// level `locality` names (LLVM's: 3 is L1, 2 and 1 the outer levels).
  void prefetch(Value base, Type elem, Value index, int64_t ahead,
                int locality) {
    Value at = LLVM::GEPOp::create(
        b, ptr, b.getI8Type(), gep(base, elem, index), ValueRange{c64(ahead)});
    LLVM::Prefetch::create(b, at, /*rw=*/0, locality, /*cache=*/1);
  }
  /// A load whose value LLVM's X86 backend cannot see through: it folds
  /// store(select(m, x, load p), p) (amax/amin updating an accumulator) into
  /// a masked store, and vmaskmovps to memory is microcoded on AMD Zen.
  /// Scalar loops need it too: LLVM's loop vectorizer turns them into the
  /// same pattern.
  Value freezeLoad(Type type, Value base, Type elem, Value index) {
    return LLVM::FreezeOp::create(b, load(type, base, elem, index));
  }
  void store(Value value, Value base, Type elem, Value index,
             bool nontemporal = false);

  /// vector.shuffle of vectors of any lengths. MLIR lowers a shuffle of two
  /// different vector types element by element (an extract and an insert
  /// per lane, which LLVM's code generator is slow to legalize), so the
  /// shorter operand is first widened to the longer's length by a shuffle of
  /// itself.
  Value shuffle(Value x, Value y, ArrayRef<int64_t> mask);

  Type vecOf(Type elem, int64_t lanes) {
    return lanes == 1 ? elem : VectorType::get({lanes}, elem);
  }

  /// Type `t` with the element type replaced (vector shape kept).
  Type like(Type t, Type elem) {
    if (auto v = dyn_cast<VectorType>(t))
      return VectorType::get(v.getShape(), elem);
    return elem;
  }

  /// Converts a value of `from`'s memory type to `to`'s: the steps of
  /// conversionSteps, as arith ops.
  Value convert(Value v, const Elem &from, const Elem &to);
  /// One step of a conversion, from a value of `in` to one of `out`.
  Value convertStep(Value v, ConversionKind kind, const Elem &in,
                    const Elem &out, int64_t viaBits);

  /// for (i = lo; i < hi; i += step) body(i)
  void forLoop(Value lo, Value hi, int64_t step,
               function_ref<void(Value)> body);
  /// The same with a run-time step (> 0).
  void forLoop(Value lo, Value hi, Value step, function_ref<void(Value)> body);

  /// for (i = lo; i < hi; ++i) body(i), for loops known to run fewer
  /// iterations than a vector has lanes (edges): LLVM's loop vectorizer and
  /// unroller are told to leave them alone, as they could only add code
  /// that never runs (and time to compile it).
  void shortLoop(Value lo, Value hi, function_ref<void(Value)> body);

  /// A loop carrying values: body(i, carried) returns the next values.
  ValueRange
  forLoopCarry(Value lo, Value hi, int64_t step, ValueRange init,
               function_ref<SmallVector<Value>(Value, ValueRange)> body);

  void ifElse(Value cond, function_ref<void()> thenBody,
              function_ref<void()> elseBody);

  LLVM::LLVMFuncOp declare(StringRef name, Type result, ArrayRef<Type> params);

  Value call(StringRef name, Type result, ValueRange args);

  /// Starts a new function and positions the builder in its entry block.
  LLVM::LLVMFuncOp startFunction(StringRef name, Type result,
                                 ArrayRef<Type> params, bool internal);

  Value nullPtr() { return LLVM::ZeroOp::create(b, ptr); }
  Value isNonNull(Value p) {
    return LLVM::ICmpOp::create(b, LLVM::ICmpPredicate::ne, p, nullPtr());
  }

  ModuleOp module;
  ImplicitLocOpBuilder b;
  MLIRContext *ctx;
  Type i64, ptr;
};

/// Loop ranges of one chunk: every loop runs fully except the parallel one.
struct Range {
  Value lo, hi;
};

/// Run-time-extent mode: slots of the i64 extents array ctx[3] points to.
constexpr int64_t kExtGrain = 0;   // iterations of the parallel loop per chunk
constexpr int64_t kExtOutputs = 1; // reductions: result elements
constexpr int64_t kExtPerOutput = 2; // reductions: input elements per output
constexpr int64_t kExtStream = 3;    // copies: 1 where stores stream, 2 where
                                     // they also join runs (rtJoinsRuns)
constexpr int64_t kExtLoops = 4;     // 3 per plan loop: size, src, dst stride
/// The slot of loop `loop`'s size (its strides follow).
inline int64_t extLoopSlot(int64_t loop) { return kExtLoops + 3 * loop; }

/// A kernel's extents as run-time values (i64, elements), in the raw entry
/// point: what the extents array holds before the split is derived.
struct KernelExtents {
  /// Per plan loop.
  SmallVector<Value> sizes, srcStrides, dstStrides;
  /// Reductions: result elements and input elements per result element.
  Value outputs, perOutput;
  /// argmax/argmin: the source's logical sizes and strides.
  SmallVector<Value> srcDimSizes, srcDimStrides;
};

/// What the raw entry point derives from a kernel's extents (storeExtents).
struct RuntimeSplit {
  /// The extents array, the parallel loop's size and grain (what
  /// lrt_parallel_for gets), and the accumulator sets and elements.
  Value ext, n, grain, sets, accCount;
  Value outputs, perOutput;
};

/// Emits one kernel of a function: its chunk function, and the serial code
/// of the raw entry point around it. The members are declared by the file
/// that defines them; each definition carries its documentation.

class KernelBuilder {
public:
  KernelBuilder(Emitter &e, const Kernel &k, std::string name,
                bool runtimeExtents = false)
      : e(e), k(k), name(std::move(name)), src(elemOf(k.srcType)),
        dst(elemOf(k.dstType)), runtimeExtents(runtimeExtents) {
    // A copy without conversion moves bits. x86 has no f16/bf16 vector
    // arithmetic, and LLVM legalizes their shuffles lane by lane (bf16 most
    // of all); as i16 the same moves are plain integer shuffles.
    if (k.kind == KernelKind::Copy && k.srcType == k.dstType && src.isHalf) {
      src.mem = dst.mem = IntegerType::get(e.ctx, 16);
      src.isFloat = dst.isFloat = false;
    }
  }

  // Chunk functions and what the entry points ask (EntryPoints.cpp).
  int64_t parallelLoop() const;
  bool partials() const;
  std::pair<int64_t, int64_t> split() const;
  bool isArgReduction() const;
  int64_t outputCount() const;
  int64_t accumulatorSets() const;
  int64_t accumulatorCount() const;
  Elem accumulator() const;
  void emitChunk();
  /// A dynamic function's kernel: what is the same for every size
  /// (rtStaticSizes), before emitChunk.
  void specializeOn(const DynamicABI::KernelExtents &x) {
    rtStaticSizes.assign(x.staticSizes.begin(), x.staticSizes.end());
    rtStaticDstStrides.assign(x.staticDstStrides.begin(),
                              x.staticDstStrides.end());
  }

  // The raw entry point's serial code for accumulators (ReduceKernels.cpp).
  void emitInit(Value acc);
  void emitFinalize(Value acc, Value out);

  // Run-time-extent mode (RuntimeExtents.cpp).
  bool hasRuntimeExtents() const { return runtimeExtents; }
  int64_t rtParallelLoop() const;
  int64_t rtSplitFallback() const;
  int64_t rtSplitSlot() const;
  bool rtPartials() const;
  int64_t extentSlots() const;
  RuntimeSplit storeExtents(const KernelExtents &x);
  Value rtSplitUnitOfB(const KernelExtents &x, Value elements);
  Value rtStreamingTraffic(Value elements);
  Value rtRowsOffLines(Value dstStride);
  Value rtStreams(const KernelExtents &x, Value elements);
  void rtInit(Value acc, const RuntimeSplit &sp);
  void rtFinalize(Value acc, Value out, const RuntimeSplit &sp);

private:
  Range rangeOf(size_t loop);

  // Copies: memcpy-like, gather, broadcast (CopyKernels.cpp).
  void emitCopyNest(size_t depth, Value s, Value d);
  Value previousRunSource(Value s);
  void emitJoinedRun(const KernelLoop &l, Value s, Value d);
  void joinedRun(Value size, Value s, Value d, function_ref<Value()> prevSource,
                 function_ref<void(Value, Value)> scalar,
                 function_ref<Value()> total);
  void scalarCopy(const KernelLoop &l, Value lo, Value hi, Value s, Value d);
  Value loadLanes(Value s, Value i, int64_t stride, int64_t vw);
  void emitInnerCopy(const KernelLoop &l, Range r, Value s, Value d);
  Value lineShift(Value index);
  Value concat(ArrayRef<Value> parts);

  // Transposes in register tiles (TransposeKernels.cpp).
  SmallVector<Value> interleaveTranspose(SmallVector<Value> rows,
                                         int64_t lanes = 1);
  SmallVector<Value> interleaveRound(ArrayRef<Value> rows,
                                     ArrayRef<int64_t> low,
                                     ArrayRef<int64_t> high);
  SmallVector<Value> pairedTranspose(ArrayRef<Value> rows);
  SmallVector<Value> transposeSquare(SmallVector<Value> rows);
  void emitTranspose();
  void emitTransposeOuter(ArrayRef<int64_t> loops, size_t depth, Value s,
                          Value d, function_ref<void(Value, Value)> body);
  void scalarRect(Value s, Value d, const KernelLoop &la, const KernelLoop &lb,
                  Value a0, Value a1, Value b0, Value b1);
  Value floorTo(Value lo, Value hi, int64_t n);
  struct TileNest;
  void emitTile(Value s, Value d, const TransposeTiling &t);
  void ifPositive(Value count, function_ref<void()> body);
  void edgeRect(Value s, Value d, const TransposeTiling &t,
                const KernelLoop &la, const KernelLoop &lb, Value a0, Value a1,
                Value b0, Value b1);
  Value lanesBelow(int64_t n, Value count);
  void maskedSquare(Value s, Value d, const KernelLoop &la,
                    const KernelLoop &lb, Value ia, Value ib, int64_t n,
                    Value rows, Value cols);
  void maskedSquare(Value s, Value d, function_ref<Value(Value)> srcRow,
                    function_ref<Value(Value)> dstRow, Value ia, Value ib,
                    int64_t n, Value rows, Value cols,
                    bool pieceStores = false);
  void storeLanesBelow(Value v, Value at, Value count, int64_t n);
  void streamIfAligned(Value index, int64_t bytes,
                       function_ref<void(bool)> body);
  bool rangeIsSplit(int64_t loop) const;
  int64_t lineBlocks(int64_t n) const;
  void micro(Value s, Value d, const KernelLoop &la, const KernelLoop &lb,
             Value ia, Value ib, int64_t n, int64_t blocks, int64_t aBlocks,
             bool streaming);
  void emitInterleave(Value s, Value d, const KernelLoop &la,
                      const KernelLoop &lb, Range ra);

  // Streaming transposes: skewed, staged and lane tiles, and their source
  // prefetch (StreamingTransposes.cpp).
  int64_t skewBlocks(int64_t n) const;
  int64_t skewBufferRow(int64_t skewLines) const;
  void emitSkewed(Value s, Value d, const TransposeTiling &t,
                  const KernelLoop &la, const KernelLoop &lb, Range ra,
                  Range rb);
  void skewedTiles(
      Value s, Value d, int64_t n, int64_t skewLines, Range ra, Range rb,
      function_ref<Value(Value)> srcB, function_ref<Value(Value)> dstA,
      function_ref<void(Value, Value, function_ref<void(Value, Value)>)> around,
      function_ref<void(Value, Value, Value, Value)> edges, bool rowLoop);
  void storePieces(Value from, Value to, Value count, int64_t line);
  void emitStaged(Value s, Value d, int64_t rowsPer,
                  function_ref<Value(Value)> dstA, Range ra,
                  function_ref<void(Value, Value, Range, bool)> plane);
  bool lanesTile(int64_t n, int64_t blocks) const;
  bool lineStart(int64_t offset) const;
  Value sourceLoad(Type vt, Value index, bool lineStart);
  int64_t sourcePrefetchBytes(const TransposeTiling &t) const;
  int64_t sourceLinesPerSet(const KernelLoop &lb, int64_t rows) const;
  void streamingQuarters(Value s, Value d, const KernelLoop &la,
                         const KernelLoop &lb, Value ia, Value ib,
                         int64_t blocks, int64_t aBlocks);
  void streamingLanes(Value s, Value d, const KernelLoop &la,
                      const KernelLoop &lb, Value ia, Value ib, int64_t n,
                      int64_t blocks, int64_t aBlocks);
  void emitLanesTile(function_ref<Value(int64_t, int64_t)> srcAt,
                     function_ref<Value(int64_t)> dstRows,
                     function_ref<Value(Value, int64_t)> dstAt, int64_t n,
                     int64_t blocks, int64_t aBlocks);
  SmallVector<Value> transposeLanes4(ArrayRef<Value> v, int64_t n);

  // Run-time-extent mode (RuntimeExtents.cpp).
  void rtLoadExtents(Value ctxPtr);
  void rtChunkBody(Value ctxPtr);
  void rtVariant(StringRef key, function_ref<void()> body);
  std::optional<int64_t> staticStride(size_t loop, bool source) const;
  Value scaled(Value i, size_t loop, bool source);
  Range rtRange(size_t loop);
  void rtCopyNest(size_t depth, Value s, Value d);
  void rtScalarRun(size_t loop, Value lo, Value hi, Value s, Value d);
  void rtVectorRun(size_t loop, Range r, Value s, Value d, bool streaming);
  void rtInnerCopy(size_t loop, Range r, Value s, Value d);
  bool rtJoinsRuns() const;
  Value rtPreviousRunSource(Value s);
  void rtTranspose();
  void rtSkewBuffer();
  void rtOuterLoops(ArrayRef<int64_t> loops, size_t depth, Value s, Value d,
                    function_ref<void(Value, Value)> body);
  void rtPlane(ArrayRef<int64_t> outside);
  void rtPlaneBounds();
  void rtPanels(function_ref<void()> body);
  std::optional<int64_t> rtBlocksLoop(ArrayRef<int64_t> outside) const;
  Value rtBlocksApply(int64_t inner);
  void rtBlocks(ArrayRef<int64_t> outside, int64_t inner);
  void rtTiles(Value s, Value d);
  void rtNarrowColumns(Value s, Value d);
  bool rtMaySkew() const;
  Value rtSkews();
  void rtSkewed(Value s, Value d);
  bool rtMayStage() const;
  int64_t rtStageRows() const;
  Value rtStages();
  void rtStaged(Value s, Value d);
  void rtInterleave(Value s, Value d, int64_t m);
  LLVM::LLVMFuncOp rtFunction(StringRef key, TypeRange types,
                              function_ref<void(ValueRange)> body);
  void rtOutline(StringRef key, Value srcAt, Value dstAt, ValueRange extra,
                 function_ref<void(ValueRange)> body);
  void rtMicro(Value s, Value d, Value ia, Value ib, int64_t n, int64_t blocks,
               bool streaming);
  void rtSquareAt(Value base, Value out, int64_t n);
  void rtMicroAt(Value base, Value out, int64_t n, int64_t blocks,
                 bool streaming);
  SmallVector<Value> rtSquare(Value at, int64_t firstRow, int64_t n);
  void rtSquaresAlongA(Value s, Value d, Value ia, Value ib, int64_t n,
                       int64_t blocks, int64_t aBlocks);
  void rtLanes(Value s, Value d, Value ia, Value ib, int64_t n, int64_t blocks,
               int64_t aBlocks);
  void rtEdge(Value s, Value d, Value ia, Value ib, int64_t n, Value rows,
              Value cols);
  void rtReduceNest(size_t depth, Value s, Value a);
  void rtReduceRun(size_t loop, Range r, Value s, Value a);
  void rtReduceRunAhead(size_t loop, Range r, Value s, Value a, int64_t ahead);
  void rtReduceColumns(size_t loop, Range r, Value s, Value a, int64_t rows,
                       Value rowStride, Value ahead = Value());
  void rtArgReduction();
  void rtArgLoop(ArrayRef<int64_t> dims, size_t depth, Value s,
                 function_ref<void(Value)> body);

  // Reductions (ReduceKernels.cpp).
  // ReduceOps of this kernel's reduction into accumulator `acc`: its
  // identity (of type t, acc.mem by default), combine, balanced pairwise
  // combine, lane-order horizontal combine, and fold (ReduceOps::fold).
  Value reductionIdentity(const Elem &acc, Type t = {});
  Value reductionCombine(const Elem &acc, Value x, Value y);
  Value reductionPairwise(const Elem &acc, ValueRange vals);
  Value reductionHorizontal(const Elem &acc, Value v);
  Value reductionFold(const Elem &acc, SmallVector<Value> vals);
  void emitReduceNest(size_t depth, Value s, Value a);
  void emitReduceRun(const KernelLoop &l, Range r, Value s, Value a);
  int64_t runPrefetchBytes() const;
  std::optional<int64_t> inputBytes() const;
  void emitReduceColumns(const KernelLoop &l, Range r, Value s, Value a,
                         int64_t rows = 1, int64_t rowStride = 0,
                         int64_t ahead = 0);
  void emitArgReduction();
  void reducedLoop(ArrayRef<int64_t> dims, size_t depth, Value s,
                   Value bestSlot, Value idxSlot, Value runSlot);

  Emitter &e;
  const Kernel &k;
  /// The target facts and parameters the plan records (analyzeFunctions has
  /// checked that it does).
  const KernelPlan::CPUFacts &cpu() const { return *k.plan.cpu; }
  std::string name;
  Elem src, dst;
  Value begin, end, srcPtr, dstPtr, accPtr;
  /// Run-time-extent mode: the chunk function's extents (i64 values).
  bool runtimeExtents = false;
  SmallVector<Value> rtSizes, rtSrcStrides, rtDstStrides;
  /// A dynamic function's kernel: each plan loop's size and destination
  /// stride where the same for every size (DynamicABI::KernelExtents), which
  /// the run-time variants specialize on; empty for a static function's.
  SmallVector<std::optional<int64_t>> rtStaticSizes, rtStaticDstStrides;
  Value rtGrain, rtOutputs, rtStream, rtJoin, rtSplit;
  /// Transposes: the bounds of a plane's tiles, computed once per chunk
  /// before the loops around the planes (rtPlaneBounds).
  struct {
    Value aFull, rowsLeft, rowsAligned, bWide, bFull, aHalf, halfRows, halfEnd,
        colsLeft, aWide, crowded, rowsFirst, aColumns, aLanes;
  } rtBounds;
  /// Transposes: the rows of a that the tiles being built cover (rtPanels),
  /// which rtRange then gives for a; nullopt: the chunk's.
  std::optional<Range> rtPanel;
  /// Transposes: the columns of b that the tiles being built cover
  /// (rtBlocks), which rtRange then gives for b; nullopt: the chunk's.
  std::optional<Range> rtBlock;
  Value rtExt;
  /// The context pointer of the chunk function (or rtVariant) being built.
  Value rtCtx;
  /// The induction variables of the copy nest's loops around the one being
  /// emitted, outermost first.
  SmallVector<Value> copyIndices;
  /// Skewed transposes: n rows of skewBufferRow() destination elements;
  /// staged rows: the block buffer (emitStaged).
  Value skewBuffer;
  /// sourcePrefetchBytes of the transpose being emitted.
  int64_t prefetchAhead = 0;
  bool usesStreaming = false;
  /// Run-time-extent transposes: the chunk function's callees (rtVariant,
  /// rtOutline), which get its function attributes.
  SmallVector<LLVM::LLVMFuncOp> outlined;
  /// A register tile of 64-byte vectors (16 x 16 of 4-byte elements, or
  /// streamingLanes), or a copy loop of line-wide vectors, was emitted.
  bool usesWideRegisters = false;
  /// Copy loops of `vw`-element vectors: a line wide or more (the plan's
  /// AVX-512 de-interleaving gathers) needs the 64-byte registers.
  void noteCopyVectors(int64_t vw) {
    if (vw * std::max(src.bytes, dst.bytes) >= kCacheLineBytes)
      usesWideRegisters = true;
  }
};

} // namespace cpu
} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_TARGET_CPU_CPUKERNELS_H
