//===- EntryPoints.cpp - Chunk functions and entry points -----------------===//
//
// The kernel module of planned functions: per kernel, its chunk function
// (KernelBuilder::emitChunk, which dispatches to the strategy families, and
// the split and accumulator queries of the entry points); per function, the
// raw entry point (scratch buffers, accumulators, lrt_parallel_for per
// kernel) and the DLPack one (FunctionBuilder); buildKernelModule.
//
//===----------------------------------------------------------------------===//

#include "CPUKernels.h"

#include "layout/Dialect/Layout/IR/LayoutTypes.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cpu;

//===----------------------------------------------------------------------===//
// Chunk functions
//===----------------------------------------------------------------------===//

/// The loop lrt_parallel_for splits, or -1.
int64_t KernelBuilder::parallelLoop() const {
  if (isArgReduction())
    return -1;
  return k.plan.parallelLoop ? *k.plan.parallelLoop : -1;
}

/// The plan splits a reduced outermost loop: each chunk accumulates a full
/// set of outputs over its rows, and the partial sets combine in chunk
/// order.
bool KernelBuilder::partials() const {
  return k.kind == KernelKind::Reduce && !isArgReduction() &&
         !k.plan.loops.empty() && k.plan.loops.front().reduced &&
         k.plan.parallelLoop == 0;
}

/// The number of iterations lrt_parallel_for splits and its grain.
std::pair<int64_t, int64_t> KernelBuilder::split() const {
  int64_t loop = parallelLoop();
  if (loop < 0)
    return {1, 1};
  int64_t grain = chunkGrain(k.plan);
  // Chunks of a transpose split along its destination's stride-1 loop
  // start on a line tile: b-blocks stay whole and their streaming stores
  // aligned.
  assert((k.plan.strategy != KernelStrategy::Transpose ||
          loop != k.plan.tiledLoops->second ||
          grain % transposeTiling(k.plan).streamWidth == 0) &&
         "chunk boundaries cut a line tile");
  return {k.plan.loops[loop].size, grain};
}

bool KernelBuilder::isArgReduction() const {
  return k.kind == KernelKind::Reduce &&
         (k.reduction == ReductionKind::Argmax ||
          k.reduction == ReductionKind::Argmin);
}

int64_t KernelBuilder::outputCount() const {
  Fallible<int64_t> outputs = numel(k.dst.sizes);
  return *outputs;
}

/// Sets of outputs the accumulator array holds: one per chunk when the
/// reduced outer loop is split, else one.
int64_t KernelBuilder::accumulatorSets() const {
  if (parallelLoop() == 0 && k.plan.loops.front().reduced) {
    auto [n, grain] = split();
    return std::max<int64_t>(1, llvm::divideCeil(n, grain));
  }
  return 1;
}

/// Elements of the accumulator array (reductions other than arg*).
int64_t KernelBuilder::accumulatorCount() const {
  if (k.kind != KernelKind::Reduce || isArgReduction())
    return 0;
  return accumulatorSets() * outputCount();
}

Elem KernelBuilder::accumulator() const {
  Builder b(e.ctx);
  StringRef a = k.plan.accumulator ? *k.plan.accumulator : StringRef();
  if (a == "f32")
    return elemOf(b.getF32Type());
  if (a == "f64")
    return elemOf(b.getF64Type());
  if (a == "i64")
    return elemOf(b.getI64Type());
  // amax/amin/argmax/argmin keep the input type, but x86 has no bf16
  // arithmetic and LLVM rounds its promoted results back through a libgcc
  // helper (__truncsfbf2) that GCC 12 lacks: compare in f32 instead, exact
  // for values that came from bf16.
  if (src.isBF16)
    return elemOf(b.getF32Type());
  return src;
}

/// Emits the chunk function; returns its name.
void KernelBuilder::emitChunk() {
  LLVM::LLVMFuncOp f =
      e.startFunction(name, LLVM::LLVMVoidType::get(e.ctx),
                      {e.ptr, e.i64, e.i64}, /*internal=*/true);
  Block *entry = e.b.getInsertionBlock();
  Value ctxPtr = entry->getArgument(0);
  begin = entry->getArgument(1);
  end = entry->getArgument(2);
  srcPtr = e.load(e.ptr, ctxPtr, e.ptr, e.c64(0));
  dstPtr = e.load(e.ptr, ctxPtr, e.ptr, e.c64(1));
  accPtr = e.load(e.ptr, ctxPtr, e.ptr, e.c64(2));
  if (runtimeExtents) {
    rtChunkBody(ctxPtr);
  } else if (k.kind == KernelKind::Copy) {
    if (k.plan.strategy == KernelStrategy::Transpose)
      emitTranspose();
    else
      emitCopyNest(0, e.c64(0), e.c64(0));
  } else if (isArgReduction()) {
    emitArgReduction();
  } else {
    Value accBase = e.c64(0);
    if (accumulatorSets() > 1)
      accBase =
          e.mulc(arith::DivSIOp::create(e.b, begin, e.c64(split().second)),
                 outputCount());
    emitReduceNest(0, e.c64(0), accBase);
  }
  // Streaming stores are weakly ordered: sfence makes them visible before
  // the chunk reports completion (x86; the only target the backend
  // streams on).
  if (usesStreaming)
    LLVM::CallIntrinsicOp::create(e.b, e.b.getStringAttr("llvm.x86.sse.sfence"),
                                  ValueRange{});
  LLVM::ReturnOp::create(e.b, ValueRange{});
  // Only register tiles need AVX-512; with it, LLVM turns the 32-byte
  // vectors of the other kernels' compares into mask-register compares and
  // masked moves, which are slower.
  if (cpu().vectorRegisters >= 32 && !usesWideRegisters) {
    ArrayAttr avx2 = e.b.getArrayAttr({e.b.getArrayAttr(
        {e.b.getStringAttr(kVectorsAttr), e.b.getStringAttr("avx2")})});
    f->setAttr("passthrough", avx2);
    for (LLVM::LLVMFuncOp g : outlined)
      g->setAttr("passthrough", avx2);
  }
}

cpu::Range KernelBuilder::rangeOf(size_t loop) {
  if (parallelLoop() == static_cast<int64_t>(loop))
    return {begin, end};
  return {e.c64(0), e.c64(k.plan.loops[loop].size)};
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

namespace {

/// Run-time-extent mode: where a kernel's extents come from, as values of
/// the raw entry point. Today the plan's static values; a caller with
/// run-time shapes replaces this one function.
static KernelExtents fillExtents(Emitter &e, const Kernel &k) {
  KernelExtents x;
  for (const KernelLoop &l : k.plan.loops) {
    x.sizes.push_back(e.c64(l.size));
    x.srcStrides.push_back(e.c64(l.srcStride));
    x.dstStrides.push_back(e.c64(l.dstStride));
  }
  if (k.kind == KernelKind::Reduce) {
    int64_t outputs = *numel(k.dst.sizes), inputs = *numel(k.src.sizes);
    x.outputs = e.c64(outputs);
    x.perOutput = e.c64(outputs ? inputs / outputs : 0);
  }
  for (int64_t d = 0; d < k.src.rank(); ++d) {
    x.srcDimSizes.push_back(e.c64(k.src.sizes[d]));
    x.srcDimStrides.push_back(e.c64(k.src.strides[d]));
  }
  return x;
}

class FunctionBuilder {
public:
  /// A dynamic function's kernels always take run-time extents.
  FunctionBuilder(Emitter &e, const FunctionABI &abi, bool runtimeExtents)
      : e(e), abi(abi), runtimeExtents(runtimeExtents || abi.dynamic) {}

  void build() {
    SmallVector<std::unique_ptr<KernelBuilder>> kernels;
    for (auto [i, k] : llvm::enumerate(abi.kernels)) {
      kernels.push_back(std::make_unique<KernelBuilder>(
          e, k, abi.name + "__kernel" + std::to_string(i), runtimeExtents));
      if (abi.dynamic)
        kernels.back()->specializeOn(abi.dynamic->kernels[i]);
      kernels.back()->emitChunk();
    }
    // The function's name, for layout_rt's messages.
    global(abi.name + "__name", abi.name + std::string(1, '\0'));
    if (abi.dynamic)
      declareProgram();
    buildRaw(kernels);
    buildDLPack();
    if (abi.dynamic)
      buildLayouts();
  }

private:
  /// A constant global of `values` (i64) or of `text` (bytes).
  void global(StringRef name, ArrayRef<int64_t> values) {
    OpBuilder::InsertionGuard guard(e.b);
    e.b.setInsertionPointToEnd(e.module.getBody());
    LLVM::GlobalOp::create(
        e.b,
        LLVM::LLVMArrayType::get(e.i64, std::max<size_t>(values.size(), 1)),
        /*isConstant=*/true, LLVM::Linkage::Internal, name,
        DenseIntElementsAttr::get(
            RankedTensorType::get(
                {static_cast<int64_t>(std::max<size_t>(values.size(), 1))},
                e.i64),
            values.empty() ? ArrayRef<int64_t>{0} : values));
  }
  void global(StringRef name, StringRef text) {
    OpBuilder::InsertionGuard guard(e.b);
    e.b.setInsertionPointToEnd(e.module.getBody());
    LLVM::GlobalOp::create(
        e.b, LLVM::LLVMArrayType::get(e.b.getI8Type(), text.size()),
        /*isConstant=*/true, LLVM::Linkage::Internal, name,
        e.b.getStringAttr(text));
  }

  /// A dynamic function's symbol program and its messages, the binder's
  /// table of input symbols and run-time checks, and its name.
  void declareProgram() {
    const DynamicABI &d = *abi.dynamic;
    global(abi.name + "__program", d.program.words);
    global(abi.name + "__messages", d.program.messages + '\0');
    global(abi.name + "__dynamic", d.bindTable());
  }

  /// Runs the symbol program on the raw entry point's input arguments (from
  /// `firstInput` on): returns the outputs array, branching to `fail` with
  /// the status when a check fails.
  Value runProgram(LLVM::LLVMFuncOp f, Block *entry, unsigned firstInput,
                   Block *fail) {
    auto &b = e.b;
    const DynamicABI &d = *abi.dynamic;
    int64_t numInputs = d.inputs.size();
    // At most one value per step (checks make none).
    int64_t numSymbols = d.program.words.empty() ? 0 : d.program.words[3];
    int64_t numOutputs = d.program.words.empty() ? 0 : d.program.words[4];
    Value inputs = LLVM::AllocaOp::create(
        b, e.ptr, e.i64, e.c64(std::max<int64_t>(numInputs, 1)), 8);
    for (int64_t i = 0; i < numInputs; ++i)
      e.store(entry->getArgument(firstInput + i), inputs, e.i64, e.c64(i));
    Value values = LLVM::AllocaOp::create(
        b, e.ptr, e.i64, e.c64(std::max<int64_t>(numSymbols, 1)), 8);
    Value outputs = LLVM::AllocaOp::create(
        b, e.ptr, e.i64, e.c64(std::max<int64_t>(numOutputs, 1)), 8);
    Value status =
        e.call("lrt_symbolic_run", e.ptr,
               {LLVM::AddressOfOp::create(b, e.ptr, abi.name + "__name"),
                LLVM::AddressOfOp::create(b, e.ptr, abi.name + "__program"),
                LLVM::AddressOfOp::create(b, e.ptr, abi.name + "__messages"),
                inputs, values, outputs});
    Block *cont = f.addBlock();
    LLVM::CondBrOp::create(b, e.isNonNull(status), fail, ValueRange{status},
                           cont, ValueRange{});
    b.setInsertionPointToStart(cont);
    return outputs;
  }

  /// The scratch whose size is known at run time only, after `staticBytes`:
  /// a dynamic function's intermediate tensors (layoutDynamicScratch), then
  /// run-time-extent kernels' accumulators (layoutRuntimeScratch); returns
  /// the scratch's size, or null when neither needs any.
  Value layoutScratchAtRunTime(ArrayRef<std::unique_ptr<KernelBuilder>> kernels,
                               int64_t staticBytes,
                               MutableArrayRef<Value> bufferOffset,
                               MutableArrayRef<RuntimeSplit> splits,
                               MutableArrayRef<Value> accOffset) {
    Value buffers;
    if (abi.dynamic)
      buffers = layoutDynamicScratch(staticBytes, bufferOffset);
    Value total;
    if (runtimeExtents)
      total = layoutRuntimeScratch(
          kernels, buffers ? buffers : e.c64(staticBytes), splits, accOffset);
    return total ? total : buffers;
  }

  /// `total` plus `bytes` (at least 1) rounded up to whole 64-byte lines:
  /// the next run-time scratch offset.
  Value reserveAtRunTime(Value total, Value bytes) {
    auto &b = e.b;
    bytes = arith::MaxSIOp::create(b, bytes, e.c64(1));
    Value lines = arith::DivSIOp::create(b, e.add(bytes, e.c64(63)), e.c64(64));
    return e.add(total, e.mulc(lines, 64));
  }

  /// A dynamic function's scratch buffers (DynamicABI::scratchElements),
  /// after `staticBytes`, 64-byte aligned: each one's offset in `offsets`;
  /// returns the scratch's size, or null when it has none.
  Value layoutDynamicScratch(int64_t staticBytes,
                             MutableArrayRef<Value> offsets) {
    const std::vector<int64_t> &elements = abi.dynamic->scratchElements;
    Value total = e.c64(staticBytes);
    bool any = false;
    for (auto [i, buffer] : llvm::enumerate(abi.buffers)) {
      if (buffer.param || i >= elements.size() || elements[i] < 0)
        continue;
      any = true;
      offsets[i] = total;
      int64_t each = elementBytes(buffer.elementType);
      Value n = e.minI(e.load(e.i64, programOutputs, e.i64, e.c64(elements[i])),
                       e.c64(DynamicABI::kScratchCapBytes / each));
      total = reserveAtRunTime(total, e.mulc(n, each));
    }
    return any ? total : Value();
  }

  /// Run-time extents: each kernel's extents and split, and its
  /// accumulators' offset after `staticBytes` of scratch (bytes); returns the
  /// scratch's size, or null when no kernel has accumulators.
  Value layoutRuntimeScratch(ArrayRef<std::unique_ptr<KernelBuilder>> kernels,
                             Value staticBytes,
                             MutableArrayRef<RuntimeSplit> splits,
                             MutableArrayRef<Value> accOffset) {
    Value total = staticBytes;
    for (auto [i, kb] : llvm::enumerate(kernels)) {
      splits[i] =
          kb->storeExtents(abi.dynamic ? dynamicExtents(i, programOutputs)
                                       : fillExtents(e, abi.kernels[i]));
      if (abi.kernels[i].kind != KernelKind::Reduce || kb->isArgReduction())
        continue;
      accOffset[i] = total;
      total = reserveAtRunTime(
          total, e.mulc(splits[i].accCount, kb->accumulator().bytes));
    }
    if (llvm::any_of(accOffset, [](Value v) { return bool(v); }))
      return total;
    return Value();
  }

  /// A kernel's extents from the symbol program's outputs.
  KernelExtents dynamicExtents(size_t kernel, Value outputs) {
    const DynamicABI::KernelExtents &k = abi.dynamic->kernels[kernel];
    auto out = [&](int64_t i) {
      return e.load(e.i64, outputs, e.i64, e.c64(i));
    };
    KernelExtents x;
    for (int64_t i : k.sizes)
      x.sizes.push_back(out(i));
    for (int64_t i : k.srcStrides)
      x.srcStrides.push_back(out(i));
    for (int64_t i : k.dstStrides)
      x.dstStrides.push_back(out(i));
    if (k.outputs)
      x.outputs = out(*k.outputs);
    if (k.perOutput)
      x.perOutput = out(*k.perOutput);
    for (int64_t i : k.srcDimSizes)
      x.srcDimSizes.push_back(out(i));
    for (int64_t i : k.srcDimStrides)
      x.srcDimStrides.push_back(out(i));
    return x;
  }

  /// Rejects bad options even when no kernel runs: returns the block that
  /// returns its status argument, the insertion point after the check.
  Block *checkOptions(LLVM::LLVMFuncOp f, Value options) {
    auto &b = e.b;
    Value threads =
        LLVM::AllocaOp::create(b, e.ptr, b.getI32Type(), e.c64(1), 4);
    Value status =
        e.call("lrt_exec_options_resolve_threads", e.ptr, {options, threads});
    Block *fail = f.addBlock();
    fail->addArgument(e.ptr, b.getLoc());
    Block *cont = f.addBlock();
    LLVM::CondBrOp::create(b, e.isNonNull(status), fail, ValueRange{status},
                           cont, ValueRange{});
    b.setInsertionPointToStart(fail);
    LLVM::ReturnOp::create(b, fail->getArgument(0));
    b.setInsertionPointToStart(cont);
    return fail;
  }

  void buildRaw(ArrayRef<std::unique_ptr<KernelBuilder>> kernels) {
    // A dynamic function's raw entry point takes its input symbols (the
    // arguments' dynamic sizes) after the pointers.
    int64_t numInputs = abi.dynamic ? abi.dynamic->inputs.size() : 0;
    int64_t numViews = abi.dynamic ? abi.dynamic->conditionals.size() : 0;
    SmallVector<Type> params(abi.params.size(), e.ptr);
    params.append(numInputs, e.i64);
    params.append(numViews, e.ptr);
    params.push_back(e.ptr);
    auto f = e.startFunction(abi.name + "_raw", e.ptr, params, false);
    Block *entry = &f.getBody().front();
    Value options =
        entry->getArgument(abi.params.size() + numInputs + numViews);
    auto &b = e.b;

    Value one = e.c64(1);
    Block *fail = checkOptions(f, options);
    if (abi.dynamic)
      programOutputs = runProgram(f, entry, abi.params.size(), fail);

    // One scratch allocation holds intermediate buffers and accumulators.
    SmallVector<int64_t> scratchOffset(abi.buffers.size(), -1),
        accOffset(kernels.size(), -1);
    int64_t scratchBytes = 0;
    auto reserve = [&](int64_t bytes) {
      int64_t at = scratchBytes;
      scratchBytes += llvm::alignTo(std::max<int64_t>(bytes, 1), 64);
      return at;
    };
    for (auto [i, buffer] : llvm::enumerate(abi.buffers))
      if (!buffer.param)
        scratchOffset[i] =
            reserve(buffer.size * elementBytes(buffer.elementType));
    if (!runtimeExtents)
      for (auto [i, kb] : llvm::enumerate(kernels))
        if (int64_t n = kb->accumulatorCount())
          accOffset[i] = reserve(n * kb->accumulator().bytes);

    SmallVector<Value> dynScratchOffset(abi.buffers.size());
    SmallVector<RuntimeSplit> splits(kernels.size());
    SmallVector<Value> rtAccOffset(kernels.size());
    Value rtScratchBytes = layoutScratchAtRunTime(
        kernels, scratchBytes, dynScratchOffset, splits, rtAccOffset);

    Value scratch = e.nullPtr();
    Block *cleanup = f.addBlock();
    cleanup->addArgument(e.ptr, b.getLoc());
    if (scratchBytes || rtScratchBytes) {
      Value slot = LLVM::AllocaOp::create(b, e.ptr, e.ptr, one, 8);
      Value st =
          e.call("lrt_scratch_alloc", e.ptr,
                 {rtScratchBytes ? rtScratchBytes : e.c64(scratchBytes), slot});
      Block *ok = f.addBlock();
      LLVM::CondBrOp::create(b, e.isNonNull(st), fail, ValueRange{st}, ok,
                             ValueRange{});
      b.setInsertionPointToStart(ok);
      scratch = e.load(e.ptr, slot, e.ptr, e.c64(0));
    }

    Type i8 = b.getI8Type();
    SmallVector<Value> base =
        bufferBases(entry, scratch, scratchOffset, dynScratchOffset);

    for (auto [i, kb] : llvm::enumerate(kernels)) {
      const Kernel &k = abi.kernels[i];
      if (runtimeExtents) {
        Block *after = skipWhereView(f, entry, i, numInputs);
        buildRuntimeLaunch(*kb, k, i, splits[i], rtAccOffset[i], base, scratch,
                           options, cleanup, f);
        if (after) {
          LLVM::BrOp::create(b, ValueRange{}, after);
          b.setInsertionPointToStart(after);
        }
        continue;
      }
      Elem srcEl = elemOf(k.srcType), dstEl = elemOf(k.dstType);
      Value ctxArray = LLVM::AllocaOp::create(b, e.ptr, e.ptr, e.c64(3), 8);
      Value srcView = e.gep(base[k.srcBuffer], srcEl.mem, e.c64(k.src.offset));
      Value dstView = e.gep(base[k.dstBuffer], dstEl.mem, e.c64(k.dst.offset));
      Value acc = accOffset[i] >= 0 ? e.gep(scratch, i8, e.c64(accOffset[i]))
                                    : e.nullPtr();
      e.store(srcView, ctxArray, e.ptr, e.c64(0));
      e.store(dstView, ctxArray, e.ptr, e.c64(1));
      e.store(acc, ctxArray, e.ptr, e.c64(2));
      if (accOffset[i] >= 0)
        kb->emitInit(acc);
      auto [n, grain] = kb->split();
      Value fn = LLVM::AddressOfOp::create(
          b, e.ptr, abi.name + "__kernel" + std::to_string(i));
      Value st = e.call("lrt_parallel_for", e.ptr,
                        {options, e.c64(n), e.c64(grain), fn, ctxArray});
      Block *next = f.addBlock();
      LLVM::CondBrOp::create(b, e.isNonNull(st), cleanup, ValueRange{st}, next,
                             ValueRange{});
      b.setInsertionPointToStart(next);
      if (accOffset[i] >= 0)
        kb->emitFinalize(acc, dstView);
    }
    LLVM::BrOp::create(b, ValueRange{e.nullPtr()}, cleanup);

    b.setInsertionPointToStart(cleanup);
    if (scratchBytes || rtScratchBytes)
      e.call("lrt_scratch_free", Type(), {scratch});
    LLVM::ReturnOp::create(b, cleanup->getArgument(0));
  }

  /// Each buffer's storage base: an argument's pointer less its offset, a
  /// place in the scratch (`scratchOffset` bytes, or `dynScratchOffset`
  /// where computed at run time), or for a run-time view its own buffer's
  /// or its operand's, as the program decides.
  SmallVector<Value> bufferBases(Block *entry, Value scratch,
                                 ArrayRef<int64_t> scratchOffset,
                                 ArrayRef<Value> dynScratchOffset) {
    auto &b = e.b;
    SmallVector<Value> base(abi.buffers.size());
    for (auto [i, buffer] : llvm::enumerate(abi.buffers)) {
      if (buffer.runtimeView) {
        const Buffer::RuntimeView &v = *buffer.runtimeView;
        Value copies = e.load(e.i64, programOutputs, e.i64, e.c64(v.copies));
        base[i] = LLVM::SelectOp::create(
            b,
            arith::CmpIOp::create(b, arith::CmpIPredicate::ne, copies,
                                  e.c64(0)),
            base[v.own], base[v.viewOf]);
      } else if (buffer.param) {
        // The storage's start: the pointer less the view's offset.
        Value back = buffer.pointerOffsetOutput >= 0
                         ? arith::SubIOp::create(
                               b, e.c64(0),
                               e.load(e.i64, programOutputs, e.i64,
                                      e.c64(buffer.pointerOffsetOutput)))
                               .getResult()
                         : e.c64(-buffer.pointerOffset);
        base[i] = e.gep(entry->getArgument(*buffer.param),
                        elemOf(buffer.elementType).mem, back);
      } else {
        base[i] = e.gep(scratch, b.getI8Type(),
                        dynScratchOffset[i] ? dynScratchOffset[i]
                                            : e.c64(scratchOffset[i]));
      }
    }
    return base;
  }

  /// A dynamic function's kernel `kernel` that copies a run-time view
  /// (KernelExtents::runIf): branches past the launch where it is a view.
  /// One that writes a conditional result (DynamicABI::Conditional):
  /// reports through the result's `_view` parameter whether the result is
  /// the argument's view, and where it is, branches past the launch.
  /// Returns the block after the launch (null for other kernels), the
  /// insertion point left at the launch.
  Block *skipWhereView(LLVM::LLVMFuncOp f, Block *entry, size_t kernel,
                       int64_t numInputs) {
    if (!abi.dynamic)
      return nullptr;
    auto &b = e.b;
    // A run-time view's copy runs only where it is one.
    if (std::optional<int64_t> runIf = abi.dynamic->kernels[kernel].runIf) {
      Value copies = e.load(e.i64, programOutputs, e.i64, e.c64(*runIf));
      Block *launch = f.addBlock();
      Block *after = f.addBlock();
      LLVM::CondBrOp::create(
          b,
          arith::CmpIOp::create(b, arith::CmpIPredicate::eq, copies, e.c64(0)),
          after, launch);
      b.setInsertionPointToStart(launch);
      return after;
    }
    const auto &all = abi.dynamic->conditionals;
    auto c = llvm::find_if(all, [&](const DynamicABI::Conditional &x) {
      return x.kernel == kernel;
    });
    if (c == all.end())
      return nullptr;
    Value report =
        entry->getArgument(abi.params.size() + numInputs + (c - all.begin()));
    Value copies = e.load(e.i64, programOutputs, e.i64, e.c64(c->copies));
    Value asked = e.isNonNull(report);
    Value view = arith::AndIOp::create(
        b, asked,
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, copies, e.c64(0)));
    // A NULL report stores into a slot of its own.
    Value slot = LLVM::AllocaOp::create(b, e.ptr, b.getI32Type(), e.c64(1), 4);
    Value to = LLVM::SelectOp::create(b, asked, report, slot);
    Value number = arith::ConstantIntOp::create(
        b, static_cast<int64_t>(abi.params[c->argument].number), 32);
    Value written = arith::ConstantIntOp::create(b, -1, 32);
    e.store(arith::SelectOp::create(b, view, number, written), to,
            b.getI32Type(), e.c64(0));
    Block *launch = f.addBlock();
    Block *after = f.addBlock();
    LLVM::CondBrOp::create(b, view, after, launch);
    b.setInsertionPointToStart(launch);
    return after;
  }

  /// Run-time extents: one kernel's context (with its extents array),
  /// accumulators and lrt_parallel_for call, as buildRaw's loop does.
  void buildRuntimeLaunch(KernelBuilder &kb, const Kernel &k, size_t i,
                          const RuntimeSplit &sp, Value accOffset,
                          ArrayRef<Value> base, Value scratch, Value options,
                          Block *cleanup, LLVM::LLVMFuncOp f) {
    auto &b = e.b;
    Elem srcEl = elemOf(k.srcType), dstEl = elemOf(k.dstType);
    Value ctxArray = LLVM::AllocaOp::create(b, e.ptr, e.ptr, e.c64(4), 8);
    // A dynamic function's views start at offsets computed at run time.
    auto offsetOf = [&](int64_t fixed, bool source) -> Value {
      if (!abi.dynamic)
        return e.c64(fixed);
      const DynamicABI::KernelExtents &x = abi.dynamic->kernels[i];
      return e.load(e.i64, programOutputs, e.i64,
                    e.c64(source ? x.srcOffset : x.dstOffset));
    };
    Value srcView =
        e.gep(base[k.srcBuffer], srcEl.mem, offsetOf(k.src.offset, true));
    Value dstView =
        e.gep(base[k.dstBuffer], dstEl.mem, offsetOf(k.dst.offset, false));
    Value acc =
        accOffset ? e.gep(scratch, b.getI8Type(), accOffset) : e.nullPtr();
    e.store(srcView, ctxArray, e.ptr, e.c64(0));
    e.store(dstView, ctxArray, e.ptr, e.c64(1));
    e.store(acc, ctxArray, e.ptr, e.c64(2));
    e.store(sp.ext, ctxArray, e.ptr, e.c64(3));
    if (accOffset)
      kb.rtInit(acc, sp);
    Value fn = LLVM::AddressOfOp::create(
        b, e.ptr, abi.name + "__kernel" + std::to_string(i));
    Value st = e.call("lrt_parallel_for", e.ptr,
                      {options, sp.n, sp.grain, fn, ctxArray});
    Block *next = f.addBlock();
    LLVM::CondBrOp::create(b, e.isNonNull(st), cleanup, ValueRange{st}, next,
                           ValueRange{});
    b.setInsertionPointToStart(next);
    if (accOffset)
      kb.rtFinalize(acc, dstView, sp);
  }

  void buildDLPack() {
    auto &b = e.b;
    // The descriptor lrt_bind_tensors_named checks the tensors against.
    std::vector<int64_t> desc = bindDescriptor(abi);
    std::string descName = abi.name + "__descriptor";
    global(descName, desc);
    std::string nameName = abi.name + "__name";
    // The parameters' names for layout_rt's messages.
    std::string paramsName = abi.name + "__params";
    global(paramsName, bindNames(abi));

    int64_t numViews = abi.dynamic ? abi.dynamic->conditionals.size() : 0;
    SmallVector<Type> params(abi.params.size() + numViews + 1, e.ptr);
    auto f = e.startFunction(abi.name, e.ptr, params, false);
    Block *entry = &f.getBody().front();
    int64_t n = abi.params.size();
    Value tensors = LLVM::AllocaOp::create(b, e.ptr, e.ptr,
                                           e.c64(std::max<int64_t>(n, 1)), 8);
    Value data = LLVM::AllocaOp::create(b, e.ptr, e.ptr,
                                        e.c64(std::max<int64_t>(n, 1)), 8);
    for (int64_t i = 0; i < n; ++i)
      e.store(entry->getArgument(i), tensors, e.ptr, e.c64(i));
    Value cpu = arith::ConstantIntOp::create(b, /*kDLCPU=*/1, 32);
    int64_t numInputs = abi.dynamic ? abi.dynamic->inputs.size() : 0;
    Value inputs;
    Value status;
    if (abi.dynamic) {
      // The binder reads the input symbols from the tensors, runs the
      // checks and checks every tensor against the sizes they give.
      inputs = LLVM::AllocaOp::create(
          b, e.ptr, e.i64, e.c64(std::max<int64_t>(numInputs, 1)), 8);
      status = e.call(
          "lrt_bind_dynamic", e.ptr,
          {LLVM::AddressOfOp::create(b, e.ptr, nameName),
           LLVM::AddressOfOp::create(b, e.ptr, descName),
           LLVM::AddressOfOp::create(b, e.ptr, paramsName), cpu, tensors, data,
           LLVM::AddressOfOp::create(b, e.ptr, abi.name + "__dynamic"),
           LLVM::AddressOfOp::create(b, e.ptr, abi.name + "__program"),
           LLVM::AddressOfOp::create(b, e.ptr, abi.name + "__messages"),
           inputs});
    } else {
      status = e.call("lrt_bind_tensors_named", e.ptr,
                      {LLVM::AddressOfOp::create(b, e.ptr, nameName),
                       LLVM::AddressOfOp::create(b, e.ptr, descName),
                       LLVM::AddressOfOp::create(b, e.ptr, paramsName), cpu,
                       tensors, data});
    }
    Block *fail = f.addBlock();
    Block *ok = f.addBlock();
    LLVM::CondBrOp::create(b, e.isNonNull(status), fail, ok);
    b.setInsertionPointToStart(fail);
    LLVM::ReturnOp::create(b, status);
    b.setInsertionPointToStart(ok);
    SmallVector<Value> args;
    for (int64_t i = 0; i < n; ++i)
      args.push_back(e.load(e.ptr, data, e.ptr, e.c64(i)));
    for (int64_t i = 0; i < numInputs; ++i)
      args.push_back(e.load(e.i64, inputs, e.i64, e.c64(i)));
    for (int64_t i = 0; i <= numViews; ++i)
      args.push_back(entry->getArgument(n + i));
    Value r = e.call(abi.name + "_raw", e.ptr, args);
    LLVM::ReturnOp::create(b, r);
  }

  /// A dynamic function's <name>_layouts: its arguments' tensors (the
  /// parameters before the outputs) and an lrt_layout_t per result, which
  /// lrt_dynamic_layouts fills from the program's outputs.
  void buildLayouts() {
    auto &b = e.b;
    global(abi.name + "__results", abi.dynamic->resultTable());
    int64_t n = abi.params.size(), numArgs = 0;
    while (numArgs < n && abi.params[numArgs].role != ParamRole::Output)
      ++numArgs;
    SmallVector<Type> params(numArgs + 1, e.ptr);
    auto f = e.startFunction(abi.name + "_layouts", e.ptr, params, false);
    Block *entry = &f.getBody().front();
    Value tensors = LLVM::AllocaOp::create(b, e.ptr, e.ptr,
                                           e.c64(std::max<int64_t>(n, 1)), 8);
    for (int64_t i = 0; i < n; ++i)
      e.store(i < numArgs ? entry->getArgument(i) : e.nullPtr(), tensors, e.ptr,
              e.c64(i));
    auto at = [&](const std::string &suffix) -> Value {
      return LLVM::AddressOfOp::create(b, e.ptr, abi.name + suffix);
    };
    Value status =
        e.call("lrt_dynamic_layouts", e.ptr,
               {at("__name"), at("__descriptor"), at("__params"),
                arith::ConstantIntOp::create(b, /*kDLCPU=*/1, 32), tensors,
                at("__dynamic"), at("__program"), at("__messages"),
                at("__results"), entry->getArgument(numArgs)});
    LLVM::ReturnOp::create(b, status);
  }

  Emitter &e;
  const FunctionABI &abi;
  bool runtimeExtents;
  /// A dynamic function's symbol program outputs, in its raw entry point.
  Value programOutputs;
};

} // namespace

LogicalResult mlir::layout::analyzeFunctions(ModuleOp planned,
                                             std::vector<FunctionABI> &abis,
                                             const TargetInfo *dynamicTarget) {
  return analyzeFunctions(planned, PlanKind::CPU, abis, {}, dynamicTarget);
}

OwningOpRef<ModuleOp>
mlir::layout::buildKernelModule(MLIRContext *context, Location loc,
                                ArrayRef<FunctionABI> abis,
                                bool runtimeExtents) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  Emitter e(*module);
  // The runtime's functions; declared up front with exact types.
  e.declare("lrt_scratch_free", LLVM::LLVMVoidType::get(context), {e.ptr});
  for (const FunctionABI &abi : abis)
    FunctionBuilder(e, abi, runtimeExtents).build();
  return module;
}

FailureOr<OwningOpRef<ModuleOp>> mlir::layout::buildKernelModule(
    ModuleOp planned, std::vector<FunctionABI> &abis, bool runtimeExtents) {
  MLIRContext *context = planned.getContext();
  prepareKernelContext(context);
  size_t first = abis.size();
  if (failed(analyzeFunctions(planned, abis)))
    return failure();
  return buildKernelModule(context, planned.getLoc(),
                           ArrayRef(abis).drop_front(first), runtimeExtents);
}
