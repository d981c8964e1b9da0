//===- FunctionABI.cpp - How a planned function is called -----------------===//

#include "layout/Compiler/FunctionABI.h"

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/IR/LayoutTypes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::layout;

bool mlir::layout::isCIdentifier(StringRef name) {
  static const char *const keywords[] = {
      "alignas",  "alignof",  "asm",      "auto",      "bool",     "break",
      "case",     "catch",    "char",     "class",     "const",    "constexpr",
      "continue", "default",  "delete",   "do",        "double",   "else",
      "enum",     "explicit", "export",   "extern",    "false",    "float",
      "for",      "friend",   "goto",     "if",        "inline",   "int",
      "long",     "main",     "mutable",  "namespace", "new",      "noexcept",
      "nullptr",  "operator", "private",  "protected", "public",   "register",
      "return",   "short",    "signed",   "sizeof",    "static",   "struct",
      "switch",   "template", "this",     "throw",     "true",     "try",
      "typedef",  "typeid",   "typename", "union",     "unsigned", "using",
      "virtual",  "void",     "volatile", "while"};
  if (name.empty() || llvm::isDigit(name[0]) ||
      llvm::is_contained(keywords, name))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

LogicalResult mlir::layout::verifyEntryName(func::FuncOp func,
                                            StringRef context,
                                            StringRef because) {
  if (isCIdentifier(func.getSymName()))
    return success();
  return func.emitError(context)
         << ": function name '" << func.getSymName()
         << "' is not a C identifier (letters, digits and '_', not a "
            "keyword); "
         << because;
}

TargetInfo mlir::layout::cpuTargetInfo() {
  // AVX2 vectors. The chunk count is fixed at compile time so that results
  // never depend on the thread count; 64 chunks keep up to 64 cores busy
  // and the planner never makes a chunk smaller than kMinBytesPerChunk.
  TargetInfo target;
  target.vectorBytes = 32;
  target.cacheBytes = int64_t(32) << 20;
  target.numThreads = 64;
  return target;
}

std::string mlir::layout::elementName(Type type) { return dtypeName(type); }

int64_t mlir::layout::elementBytes(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

ReductionKind mlir::layout::toReductionKind(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::sum:
    return ReductionKind::Sum;
  case ReduceKind::mean:
    return ReductionKind::Mean;
  case ReduceKind::prod:
    return ReductionKind::Prod;
  case ReduceKind::amax:
    return ReductionKind::Amax;
  case ReduceKind::amin:
    return ReductionKind::Amin;
  case ReduceKind::argmax:
    return ReductionKind::Argmax;
  case ReduceKind::argmin:
    return ReductionKind::Argmin;
  }
  llvm_unreachable("unknown reduce kind");
}

namespace {
/// Builds the ABI of one function; every failure has been reported at an
/// op's location.
class Analysis {
public:
  Analysis(func::FuncOp func, const TargetInfo &target)
      : func(func), target(target) {}

  FailureOr<FunctionABI> run() {
    abi.name = func.getSymName().str();
    if (failed(addArguments()) || failed(addNewBuffers()) ||
        failed(addResults()) || failed(addKernels()))
      return failure();
    return std::move(abi);
  }

private:
  LogicalResult staticLayout(Operation *op, StridedTensorType type,
                             StridedLayout &layout) {
    layout = type.getStridedLayout();
    if (layout.isStatic())
      return success();
    return op->emitError("code generation needs static layouts, but ")
           << type << " has a dynamic size, stride or offset";
  }

  LogicalResult addArguments() {
    for (BlockArgument arg : func.getArguments()) {
      Buffer buffer;
      Param param;
      param.number = arg.getArgNumber();
      if (auto storage = dyn_cast<StorageType>(arg.getType())) {
        if (!storage.hasStaticSize())
          return func.emitError("code generation needs static layouts, but "
                                "argument #")
                 << arg.getArgNumber() << " has type " << storage;
        buffer.elementType = storage.getElementType();
        buffer.size = storage.getSize();
        param.sizes = {storage.getSize()};
        param.strides = {1};
      } else if (auto tensor = dyn_cast<StridedTensorType>(arg.getType())) {
        StridedLayout layout = tensor.getStridedLayout();
        if (!layout.isStatic())
          return func.emitError("code generation needs static layouts, but "
                                "argument #")
                 << arg.getArgNumber() << " has type " << tensor;
        Fallible<int64_t> size = requiredStorageSize(layout);
        if (!size)
          return func.emitError(size.message());
        buffer.elementType = tensor.getElementType();
        buffer.size = *size;
        buffer.pointerOffset = layout.offset;
        param.sizes = layout.sizes;
        param.strides = layout.strides;
      } else {
        return func.emitError("argument #")
               << arg.getArgNumber() << " has type " << arg.getType()
               << "; expected !layout.tensor or !layout.storage";
      }
      param.elementType = buffer.elementType;
      param.buffer = abi.buffers.size();
      buffer.param = abi.params.size();
      bufferOf[arg] = abi.buffers.size();
      abi.buffers.push_back(buffer);
      abi.params.push_back(param);
    }
    return success();
  }

  /// Every op that allocates becomes a scratch buffer until a result claims
  /// it.
  LogicalResult addNewBuffers() {
    WalkResult walk = func.walk([&](Operation *op) {
      if (!isa<MaterializeOp, ReduceOp>(op))
        return WalkResult::advance();
      auto type = cast<StridedTensorType>(op->getResult(0).getType());
      StridedLayout layout;
      if (failed(staticLayout(op, type, layout)))
        return WalkResult::interrupt();
      Fallible<int64_t> size = requiredStorageSize(layout);
      if (!size) {
        op->emitError(size.message());
        return WalkResult::interrupt();
      }
      Buffer buffer;
      buffer.elementType = type.getElementType();
      buffer.size = *size;
      bufferOf[op->getResult(0)] = abi.buffers.size();
      abi.buffers.push_back(buffer);
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  LogicalResult addResults() {
    auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
    for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
      Value root = getStorageRoot(value);
      auto found = bufferOf.find(root);
      if (found == bufferOf.end())
        return ret.emitError("result #")
               << index << " is not a view of an argument or a new tensor";
      Buffer &buffer = abi.buffers[found->second];
      auto tensor = dyn_cast<StridedTensorType>(value.getType());
      StridedLayout layout(Dims{buffer.size}, Dims{1});
      if (tensor && failed(staticLayout(ret, tensor, layout)))
        return failure();
      if (auto arg = dyn_cast<BlockArgument>(root)) {
        abi.views.push_back({static_cast<unsigned>(index), arg.getArgNumber(),
                             buffer.elementType, layout.sizes, layout.strides,
                             layout.offset - buffer.pointerOffset});
        continue;
      }
      if (buffer.param)
        return ret.emitError("result #")
               << index << " views the same new tensor as result #"
               << abi.params[*buffer.param].number
               << "; code generation gives each new tensor one output";
      Fallible<int64_t> elements = numel(layout.sizes);
      Fallible<std::optional<Span>> reach = span(layout);
      bool covers = elements && reach && *elements == buffer.size &&
                    (buffer.size == 0 || (*reach && (*reach)->lo == 0 &&
                                          (*reach)->hi == buffer.size - 1 &&
                                          isNonOverlappingAndDense(layout)));
      if (!covers)
        return ret.emitError("result #")
               << index << " views part of a new tensor of " << buffer.size
               << " elements (sizes " << formatDims(layout.sizes)
               << ", strides " << formatDims(layout.strides)
               << "); code generation needs outputs that cover their tensor: "
                  "return a layout.contiguous or layout.clone of it";
      buffer.pointerOffset = layout.offset;
      buffer.param = abi.params.size();
      Param param;
      param.role = ParamRole::Output;
      param.number = index;
      param.buffer = found->second;
      param.elementType = buffer.elementType;
      param.sizes = layout.sizes;
      param.strides = layout.strides;
      abi.params.push_back(param);
    }
    return success();
  }

  /// The buffer `v` views and its layout in that buffer's storage.
  std::pair<unsigned, StridedLayout> viewOf(Value v) {
    unsigned buffer = bufferOf.lookup(getStorageRoot(v));
    if (auto tensor = dyn_cast<StridedTensorType>(v.getType()))
      return {buffer, tensor.getStridedLayout()};
    return {buffer, StridedLayout(Dims{abi.buffers[buffer].size}, Dims{1}, 0)};
  }

  LogicalResult addKernel(Operation *op, Value src, Value dst,
                          StridedLayout srcLayout) {
    Kernel kernel{KernelKind::Copy, op->getLoc()};
    std::tie(kernel.srcBuffer, std::ignore) = viewOf(src);
    std::tie(kernel.dstBuffer, kernel.dst) = viewOf(dst);
    kernel.src = std::move(srcLayout);
    kernel.srcType = abi.buffers[kernel.srcBuffer].elementType;
    kernel.dstType = abi.buffers[kernel.dstBuffer].elementType;
    if (!kernel.src.isStatic() || !kernel.dst.isStatic())
      return op->emitError("code generation needs static layouts");
    Fallible<KernelPlan> plan = planCopy(
        kernel.src, kernel.dst, elementBytes(kernel.srcType),
        elementBytes(kernel.dstType), target, kernel.srcType != kernel.dstType);
    if (!plan)
      return op->emitError(plan.message());
    kernel.plan = std::move(*plan);
    abi.kernels.push_back(std::move(kernel));
    return success();
  }

  LogicalResult addKernels() {
    WalkResult walk = func.walk([&](Operation *op) {
      LogicalResult result = success();
      if (auto m = dyn_cast<MaterializeOp>(op)) {
        result = addKernel(op, m.getInput(), m.getResult(),
                           viewOf(m.getInput()).second);
      } else if (auto c = dyn_cast<CopyOp>(op)) {
        Fallible<StridedLayout> read = broadcastTo(
            viewOf(c.getSrc()).second, c.getDst().getType().getShape());
        if (!read)
          result = op->emitError(read.message());
        else
          result = addKernel(op, c.getSrc(), c.getDst(), *read);
        if (auto arg = dyn_cast<BlockArgument>(getStorageRoot(c.getDst())))
          abi.params[arg.getArgNumber()].role = ParamRole::Written;
      } else if (auto r = dyn_cast<ReduceOp>(op)) {
        Kernel kernel{KernelKind::Reduce, op->getLoc()};
        std::tie(kernel.srcBuffer, kernel.src) = viewOf(r.getInput());
        std::tie(kernel.dstBuffer, kernel.dst) = viewOf(r.getResult());
        kernel.srcType = abi.buffers[kernel.srcBuffer].elementType;
        kernel.dstType = abi.buffers[kernel.dstBuffer].elementType;
        kernel.reduction = toReductionKind(r.getKind());
        if (!kernel.src.isStatic()) {
          result = op->emitError("code generation needs static layouts");
        } else {
          Fallible<Dims> dims =
              normalizeReduceDims(kernel.src.rank(), r.getDims());
          Fallible<KernelPlan> plan = planReduction(
              kernel.src, r.getDims(), kernel.reduction,
              {elementName(kernel.srcType), elementBytes(kernel.srcType),
               isa<FloatType>(kernel.srcType)},
              target);
          if (!dims || !plan) {
            result = op->emitError(!dims ? dims.message() : plan.message());
          } else {
            kernel.reducedDims = *dims;
            kernel.plan = std::move(*plan);
            abi.kernels.push_back(std::move(kernel));
          }
        }
      }
      return failed(result) ? WalkResult::interrupt() : WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  func::FuncOp func;
  const TargetInfo &target;
  FunctionABI abi;
  llvm::DenseMap<Value, unsigned> bufferOf;
};
} // namespace

FailureOr<FunctionABI> mlir::layout::analyzeFunction(func::FuncOp func,
                                                     const TargetInfo &target) {
  return Analysis(func, target).run();
}
