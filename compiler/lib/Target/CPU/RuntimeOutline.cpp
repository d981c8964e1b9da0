//===- RuntimeOutline.cpp - Run-time-extent kernels' own functions --------===//
//
// A run-time-extent transpose holds every variant a shape may need. Its
// chunk function calls one function per plane variant (rtVariant: the loops
// around the planes with interleaved rows, skewed tiles, staged rows or
// tiles), which call one function per square variant (rtOutline: a whole
// square, a masked one, a streaming tile): each square is compiled once
// however many loops move it, and the code generator compiles the
// functions in parts on threads of their own (splitForCodegen).
//
//===----------------------------------------------------------------------===//

#include "CPUKernels.h"

#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cpu;

/// This kernel's internal noinline function `key` with parameters of
/// `types`, returning nothing: built at its first use, by `body` with the
/// builder in its entry block (the function's return follows), else found.
LLVM::LLVMFuncOp
KernelBuilder::rtFunction(StringRef key, TypeRange types,
                          function_ref<void(ValueRange)> body) {
  std::string fname = name + "__" + key.str();
  if (auto f = e.module.lookupSymbol<LLVM::LLVMFuncOp>(fname))
    return f;
  OpBuilder::InsertionGuard guard(e.b);
  auto f = e.startFunction(fname, LLVM::LLVMVoidType::get(e.ctx),
                           llvm::to_vector(types), /*internal=*/true);
  f.setNoInline(true);
  body(f.getBody().front().getArguments());
  LLVM::ReturnOp::create(e.b, ValueRange{});
  outlined.push_back(f);
  return f;
}

/// Emits `body` as a call of this kernel's internal function `key`, built
/// at its first use: inside it srcPtr and dstPtr are `srcAt` and `dstAt`,
/// and b's source and a's destination strides are the call's; `body` gets
/// `extra` as parameters. The run-time kernels move whole squares in many
/// loops (each order, streaming or not, staged): one function per square
/// variant keeps the code to compile near one copy of each.
void KernelBuilder::rtOutline(StringRef key, Value srcAt, Value dstAt,
                              ValueRange extra,
                              function_ref<void(ValueRange)> body) {
  auto [a, bl] = *k.plan.tiledLoops;
  SmallVector<Value> args = {srcAt, dstAt, rtSrcStrides[bl], rtDstStrides[a]};
  llvm::append_range(args, extra);
  auto f = rtFunction(key, ValueRange(args).getTypes(), [&](ValueRange params) {
    llvm::SaveAndRestore<Value> srcAtParam(srcPtr, params[0]),
        dstAtParam(dstPtr, params[1]), sbParam(rtSrcStrides[bl], params[2]),
        daParam(rtDstStrides[a], params[3]);
    body(params.drop_front(4));
  });
  LLVM::CallOp::create(e.b, f, args);
}

/// Emits `body` as a call of this kernel's internal function `key`, of the
/// chunk function's signature, built at its first use: it reads the
/// pointers and extents from the context again and runs `body` on them.
void KernelBuilder::rtVariant(StringRef key, function_ref<void()> body) {
  auto f = rtFunction(key, {e.ptr, e.i64, e.i64}, [&](ValueRange params) {
    llvm::SaveAndRestore<Value> savedCtx(rtCtx), savedBegin(begin, params[1]),
        savedEnd(end, params[2]), savedSrc(srcPtr), savedDst(dstPtr),
        savedAcc(accPtr), savedExt(rtExt), savedGrain(rtGrain),
        savedOutputs(rtOutputs), savedStream(rtStream), savedJoin(rtJoin),
        savedSplit(rtSplit), savedBuffer(skewBuffer);
    llvm::SaveAndRestore<SmallVector<Value>> savedSizes(rtSizes, {}),
        savedSrcStrides(rtSrcStrides, {}), savedDstStrides(rtDstStrides, {});
    auto savedBounds = rtBounds;
    srcPtr = e.load(e.ptr, params[0], e.ptr, e.c64(0));
    dstPtr = e.load(e.ptr, params[0], e.ptr, e.c64(1));
    accPtr = e.load(e.ptr, params[0], e.ptr, e.c64(2));
    rtLoadExtents(params[0]);
    body();
    rtBounds = savedBounds;
  });
  LLVM::CallOp::create(e.b, f, ValueRange{rtCtx, begin, end});
}
