//===- DynamicABI.cpp - How a function with dynamic sizes is called -------===//
//
// analyzeDynamicFunction (FunctionABI.h): the parameters of a function whose
// layouts have `?`, the kernels of its copies planned once for every size,
// and the symbol program that computes, when it is called, its checks, the
// sizes and strides its tensors must have and its kernels' extents.
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Plan/Passes.h"
#include "layout/Compiler/Semantics/FunctionABI.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::layout;

namespace {
/// A tensor value's storage: a buffer, and its layout in that buffer's
/// storage (elements from the buffer's first element).
struct Placed {
  unsigned buffer = 0;
  SymLayout layout;
};

/// A run-time view (Buffer::RuntimeView): when it copies and the program
/// output that says so, its copy's buffer and its layout there, the view it
/// is where it does not copy, and the kernel that copies.
struct RuntimeViewInfo {
  SymCond copies;
  int64_t flag;
  unsigned own;
  SymLayout written;
  Placed view;
  size_t kernel = 0;
};

class DynamicAnalysis {
public:
  DynamicAnalysis(func::FuncOp func, const TargetInfo &target)
      : func(func), target(target) {}

  FailureOr<FunctionABI> run() {
    abi.name = func.getSymName().str();
    if (failed(addArguments()) || failed(walkOps()) || failed(addResults()) ||
        failed(finish()))
      return failure();
    abi.dynamic = dyn;
    return std::move(abi);
  }

private:
  SymTable &table() { return layouts.table(); }

  /// An expression, condition or list as the header prints it; the derived
  /// symbols it names get a `where` line there (headerDefinitions).
  std::string named(const SymExpr &e) {
    collectSymbols(e, headerSymbols);
    return table().str(e);
  }
  std::string named(const SymCond &c) {
    collectSymbols(c, headerSymbols);
    return table().str(c);
  }
  std::string list(ArrayRef<SymExpr> v) {
    std::string s = "[";
    for (auto [i, e] : llvm::enumerate(v))
      s += (i ? ", " : "") + named(e);
    return s + "]";
  }

  /// The program output that holds `e`, and those that hold each of `v`.
  int64_t output(const SymExpr &e) {
    outputs.push_back(e);
    return outputs.size() - 1;
  }
  llvm::SmallVector<int64_t, 6> output(ArrayRef<SymExpr> v) {
    return llvm::map_to_vector<6>(v,
                                  [&](const SymExpr &e) { return output(e); });
  }

  LogicalResult addArguments() {
    for (BlockArgument arg : func.getArguments()) {
      if (auto storage = dyn_cast<StorageType>(arg.getType())) {
        addStorageArgument(arg, storage);
        continue;
      }
      auto tensor = dyn_cast<StridedTensorType>(arg.getType());
      if (!tensor)
        return func.emitError("dynamic code generation needs !layout.tensor "
                              "or !layout.storage arguments, but argument #")
               << arg.getArgNumber() << " has type " << arg.getType();
      Fallible<SymLayout> l = layouts.get(arg);
      StridedLayout declared = tensor.getStridedLayout();
      if (!l)
        return func.emitError("dynamic code generation: argument #")
               << arg.getArgNumber() << " of type " << tensor
               << " has no symbolic layout: " << l.message();
      Param param;
      param.number = arg.getArgNumber();
      param.elementType = tensor.getElementType();
      param.sizes = descriptorSizes(declared.sizes);
      param.strides = declared.strides;
      param.name = argName(arg);
      Buffer buffer;
      buffer.elementType = param.elementType;
      // A dynamic offset is an input (`<name>_offset`): the generated code
      // finds the storage's start from it, as from a static one.
      buffer.pointerOffset = declared.offset == kDynamic ? 0 : declared.offset;
      if (declared.offset == kDynamic) {
        buffer.pointerOffsetOutput = output(l->offset);
        dynamicOrigins[abi.buffers.size()] = l->offset;
      }
      buffer.param = abi.params.size();
      param.buffer = abi.buffers.size();
      placed[arg] = {param.buffer, *l};
      // Which dims and strides are the input symbols, for the binder.
      unsigned index = abi.params.size();
      std::string cname = paramName(param);
      for (auto [k, e] : llvm::enumerate(l->sizes))
        if (std::optional<SymbolId> s = e.asSymbol();
            s && table().symbols()[*s].op == SymTable::Op::Input)
          inputOf[*s] = {{index, static_cast<int64_t>(k), 0},
                         cname + "_size" + std::to_string(k)};
      for (auto [k, e] : llvm::enumerate(l->strides))
        if (std::optional<SymbolId> s = e.asSymbol();
            s && table().symbols()[*s].op == SymTable::Op::Input &&
            !inputOf.count(*s))
          inputOf[*s] = {{index, static_cast<int64_t>(k), 1},
                         cname + "_stride" + std::to_string(k)};
      if (declared.offset == kDynamic)
        inputOf[*l->offset.asSymbol()] = {{index, 0, 2}, cname + "_offset"};
      // The strides a row-major argument must have are checked at run time:
      // every dynamic stride but those that bind their own input symbol. A
      // stride that is one size (a rank-2 row-major tensor's row stride, x[1])
      // is a symbol the size binds, so it is checked too.
      for (auto [k, e] : llvm::enumerate(l->strides)) {
        if (declared.strides[k] != kDynamic)
          continue;
        std::optional<SymbolId> s = e.asSymbol();
        auto bound = s ? inputOf.find(*s) : inputOf.end();
        bool bindsItself =
            bound != inputOf.end() &&
            bound->second.first ==
                std::array<int64_t, 3>{index, static_cast<int64_t>(k), 1};
        if (!bindsItself)
          fills.push_back({index, static_cast<int64_t>(k), 1, output(e)});
      }
      paramLayouts.push_back("sizes " + list(l->sizes) + " strides " +
                             list(l->strides));
      abi.buffers.push_back(buffer);
      bufferElements.push_back(SymExpr(0));
      abi.params.push_back(param);
    }
    return success();
  }

  /// An argument's `layout.name` where isUsableArgName accepts it, else
  /// empty (the positional name, paramName).
  std::string argName(BlockArgument arg) {
    auto name =
        func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), kArgNameAttr);
    return name && isUsableArgName(name, arg.getArgNumber()) ? name.str()
                                                             : std::string();
  }

  /// A storage argument: a 1-D tensor of stride 1 whose size, where
  /// dynamic, is the input symbol as_strided's bounds checks read.
  void addStorageArgument(BlockArgument arg, StorageType storage) {
    Param param;
    param.number = arg.getArgNumber();
    param.elementType = storage.getElementType();
    param.sizes = {storage.hasStaticSize() ? storage.getSize() : -1};
    param.strides = {1};
    param.name = argName(arg);
    SymExpr size(storage.hasStaticSize() ? storage.getSize() : 0);
    if (!storage.hasStaticSize()) {
      size = *layouts.storageElements(arg);
      inputOf[*size.asSymbol()] = {
          {static_cast<int64_t>(abi.params.size()), 0, 0},
          paramName(param) + "_size0"};
    }
    Buffer buffer;
    buffer.elementType = param.elementType;
    buffer.param = abi.params.size();
    param.buffer = abi.buffers.size();
    SymLayout layout;
    layout.sizes = {size};
    layout.strides = {SymExpr(1)};
    layout.offset = SymExpr(0);
    placed[arg] = {param.buffer, layout};
    paramLayouts.push_back("sizes " + list(layout.sizes) + " strides [1]");
    abi.buffers.push_back(buffer);
    bufferElements.push_back(SymExpr(0));
    abi.params.push_back(param);
  }

  /// A new buffer for `result`, the op's row-major (or format) result.
  void addNewBuffer(Value result, const SymLayout &layout) {
    Buffer buffer;
    buffer.elementType =
        cast<StridedTensorType>(result.getType()).getElementType();
    placed[result] = {static_cast<unsigned>(abi.buffers.size()), layout};
    wholeResults.insert(result);
    abi.buffers.push_back(buffer);
    // Dense: its elements are its storage.
    bufferElements.push_back(numelOf(layout.sizes));
  }

  /// Whether a layout has no elements for every size (a dim of size 0):
  /// a kernel writing it has nothing to do, and none is compiled.
  static bool noElements(ArrayRef<SymExpr> sizes) {
    return llvm::any_of(sizes,
                        [](const SymExpr &s) { return s.isConstant(0); });
  }

  LogicalResult addCopy(Operation *op, const Placed &src, const Placed &dst,
                        Type srcType, Type dstType) {
    if (noElements(dst.layout.sizes))
      return success();
    Fallible<DynamicKernelPlan> plan = planDynamicCopy(
        table(), src.layout, dst.layout, elementBytes(srcType),
        elementBytes(dstType), target,
        srcType != dstType ? std::optional<bool>(true) : std::nullopt);
    if (!plan)
      return op->emitError("cannot plan this copy for every size: ")
             << plan.message();
    Kernel kernel{KernelKind::Copy, op->getLoc()};
    kernel.srcBuffer = src.buffer;
    kernel.dstBuffer = dst.buffer;
    kernel.srcType = srcType;
    kernel.dstType = dstType;
    kernel.plan = plan->plan;
    // Representative static layouts (the plan's loops as dims): the kernel
    // builder takes its rank and types from them, its extents from `dyn`.
    for (const KernelLoop &l : kernel.plan.loops) {
      kernel.src.sizes.push_back(l.size);
      kernel.src.strides.push_back(l.srcStride);
      kernel.dst.sizes.push_back(l.size);
      kernel.dst.strides.push_back(l.dstStride);
    }
    extents.push_back(loopExtents(*plan, src, dst.layout));
    abi.kernels.push_back(std::move(kernel));
    return success();
  }

  LogicalResult walkOps() {
    WalkResult walk = func.walk([&](Operation *op) -> WalkResult {
      if (isa<func::ReturnOp>(op))
        return WalkResult::advance();
      // Every tensor result's layout, in program order.
      for (Value v : op->getResults())
        if (isa<StridedTensorType>(v.getType())) {
          Fallible<SymLayout> l = layouts.get(v);
          if (!l) {
            op->emitError(l.message());
            return WalkResult::interrupt();
          }
        }
      return failed(visit(op)) ? WalkResult::interrupt()
                               : WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  /// Whether `v` is the result of a `to` that changes the dtype, or `op`
  /// is such a `to`.
  static bool isConverting(Operation *op) {
    auto to = dyn_cast<ToOp>(op);
    return to && to.getDtype() != to.getInput().getType().getElementType();
  }
  static bool isConverting(Value v) {
    return v.getDefiningOp() && isConverting(v.getDefiningOp());
  }

  /// Where `v` (an operand of `op`) is stored; a fused copy's operand for
  /// its converting reader.
  FailureOr<Placed> where(Operation *op, Value v) {
    if (auto f = fused.find(v); f != fused.end())
      return f->second;
    auto found = placed.find(v);
    if (found == placed.end())
      return op->emitError("dynamic code generation: the storage of operand ")
             << v << " is not known";
    return found->second;
  }

  LogicalResult visit(Operation *op) {
    auto layoutOf = [&](Value v) { return *layouts.get(v); };
    // Views stay in their operand's storage.
    if (isa<ViewLikeOpInterface, SplitOp>(op)) {
      // as_strided's offset is absolute in its storage, so its static
      // layout is already in the buffer's coordinates, as views' are.
      if (auto strided = dyn_cast<AsStridedOp>(op);
          strided && !strided.getType().hasStaticLayout())
        return op->emitError("dynamic code generation takes layout.as_strided "
                             "with static sizes, strides and offset only");
      FailureOr<Placed> in = where(op, op->getOperand(0));
      if (failed(in))
        return failure();
      for (Value v : op->getResults())
        placed[v] = {in->buffer, layoutOf(v)};
      return success();
    }
    if (auto to = dyn_cast<ToOp>(op);
        to &&
        to.getDtype() ==
            cast<StridedTensorType>(to.getInput().getType()).getElementType()) {
      FailureOr<Placed> in = where(op, to.getInput());
      if (failed(in))
        return failure();
      placed[to.getResult()] = *in;
      return success();
    }
    if (isa<ContiguousOp, ReshapeOp, FlattenOp>(op))
      return addMayCopy(op);
    if (isa<CloneOp, ToOp, MaterializeOp>(op)) {
      Value input = op->getOperand(0), result = op->getResult(0);
      FailureOr<Placed> in = where(op, input);
      if (failed(in))
        return failure();
      // A same-dtype copy read only by a converting `to` is not written:
      // the `to` converts straight from the copy's operand (the values are
      // the same, converted once), as the static planner fuses them.
      if (!isConverting(result) && result.hasOneUse() &&
          isConverting(*result.getUsers().begin())) {
        fused[result] = *in;
        return success();
      }
      addNewBuffer(result, layoutOf(result));
      return addCopy(
          op, *in, placed.lookup(result),
          cast<StridedTensorType>(input.getType()).getElementType(),
          cast<StridedTensorType>(result.getType()).getElementType());
    }
    if (auto c = dyn_cast<CopyOp>(op)) {
      FailureOr<Placed> dstAt = where(op, c.getDst());
      FailureOr<Placed> srcAt = where(op, c.getSrc());
      if (failed(dstAt) || failed(srcAt))
        return failure();
      Placed dst = *dstAt, src = *srcAt;
      // PlanCopies has proven it, maybe with a run-time check that this
      // table must hold too, before the broadcast's as TensorIterator does.
      if (!c.getDst().getType().hasStaticLayout() &&
          layouts.requireDistinct(c.getDst()) != Overlap::No)
        return op->emitError("dynamic code generation: the destination's "
                             "elements are not known to be distinct");
      Fallible<SymLayout> read =
          broadcastTo(table(), src.layout, dst.layout.sizes);
      if (!read)
        return op->emitError(read.message());
      src.layout = *read;
      if (!abi.buffers[dst.buffer].param)
        return op->emitError("dynamic code generation writes only into "
                             "arguments");
      abi.params[*abi.buffers[dst.buffer].param].role = ParamRole::Written;
      return addCopy(op, src, dst, c.getSrc().getType().getElementType(),
                     c.getDst().getType().getElementType());
    }
    if (auto r = dyn_cast<ReduceOp>(op))
      return addReduction(r);
    return success();
  }

  /// contiguous, reshape or flatten. Where PyTorch returns a view for every
  /// size, the result stays in its operand's storage. Elsewhere a kernel
  /// copies the operand into a new buffer (row-major in the operand's shape
  /// for reshape and flatten, which the result views in its own); where
  /// PyTorch returns a view for some sizes only, the result is a run-time
  /// view (Buffer::RuntimeView): readers take the operand's storage or the
  /// copy's as the symbol program decides, at the op's symbolic layout,
  /// and the copy runs only where it is read (DynamicABI::KernelExtents::
  /// runIf), or returned (addResults).
  LogicalResult addMayCopy(Operation *op) {
    Value input = op->getOperand(0), result = op->getResult(0);
    const SymMaybeCopy *r = layouts.mayCopy(result);
    FailureOr<Placed> in = where(op, input);
    if (!r || failed(in))
      return failed(in) ? failure()
                        : op->emitError("dynamic code generation: no layout");
    std::optional<bool> copies = table().decide(r->copies);
    SymLayout layout = *layouts.get(result);
    if (copies == false) {
      placed[result] = {in->buffer, layout};
      return success();
    }
    // A contiguous read only by a converting `to` is not written: the `to`
    // converts straight from the operand, as the static planner fuses them.
    if (isa<ContiguousOp>(op) && result.hasOneUse() &&
        isConverting(*result.getUsers().begin())) {
      fused[result] = *in;
      return success();
    }
    // The copy: the operand's shape, row-major (contiguous: the format's
    // strides, which its symbolic layout has for every size).
    SymLayout copied = layout;
    copied.offset = SymExpr(0);
    if (!isa<ContiguousOp>(op)) {
      copied.sizes = in->layout.sizes;
      copied.strides = rowMajorStrides(copied.sizes);
    }
    // The result's layout in that buffer: the copy-case layout.
    SymLayout written = copied;
    written.sizes = layout.sizes;
    written.strides =
        isa<ContiguousOp>(op) ? copied.strides : rowMajorStrides(layout.sizes);
    Type elem = cast<StridedTensorType>(result.getType()).getElementType();
    unsigned own = abi.buffers.size();
    Buffer copy;
    copy.elementType = elem;
    abi.buffers.push_back(copy);
    // Scratch only where the copy runs.
    bufferElements.push_back(
        copies == true
            ? numelOf(copied.sizes)
            : table().select(r->copies, numelOf(copied.sizes), SymExpr(0)));
    size_t kernel = abi.kernels.size();
    if (failed(addCopy(op, *in, {own, copied}, elem, elem)))
      return failure();
    if (copies == true) {
      placed[result] = {own, written};
      wholeResults.insert(result);
      return success();
    }
    // No elements for every size (no kernel was compiled): PyTorch views
    // it (computeStride always finds strides for no elements).
    if (abi.kernels.size() == kernel) {
      placed[result] = {in->buffer, layout};
      return success();
    }
    int64_t flag = output(table().select(r->copies, SymExpr(1), SymExpr(0)));
    extents[kernel].runIf = flag;
    extents[kernel].runIfText = named(r->copies);
    Buffer view;
    view.elementType = elem;
    view.runtimeView = Buffer::RuntimeView{in->buffer, own, flag};
    placed[result] = {static_cast<unsigned>(abi.buffers.size()), layout};
    abi.buffers.push_back(view);
    bufferElements.push_back(SymExpr(0));
    runtimeViews.insert(
        {result,
         {r->copies, flag, own, written, Placed{in->buffer, r->view}, kernel}});
    return success();
  }

  /// A reduction into its new row-major result.
  LogicalResult addReduction(ReduceOp r) {
    FailureOr<Placed> in = where(r, r.getInput());
    if (failed(in))
      return failure();
    SymLayout result = *layouts.get(r.getResult());
    addNewBuffer(r.getResult(), result);
    if (noElements(result.sizes))
      return success();
    const SymLayout &input = in->layout;
    Fallible<Dims> dims = normalizeReduceDims(input.rank(), r.getDims());
    if (!dims)
      return r.emitError(dims.message());
    // The result's stride of each kept dim; keepdim keeps reduced dims of
    // size 1 in place.
    llvm::SmallVector<SymExpr, 6> kept;
    SymExpr perOutput(1);
    for (int64_t d = 0, j = 0; d < input.rank(); ++d) {
      bool reduced = llvm::is_contained(*dims, d);
      if (reduced)
        perOutput = perOutput * input.sizes[d];
      else
        kept.push_back(result.strides[r.getKeepdim() ? d : j]);
      if (!reduced || r.getKeepdim())
        ++j;
    }
    Type srcType = r.getInput().getType().getElementType();
    Type dstType = r.getResult().getType().getElementType();
    ReductionKind kind = toReductionKind(r.getKind());
    Fallible<DynamicKernelPlan> plan = planDynamicReduction(
        table(), input, *dims, kept, kind,
        {dtypeName(srcType), elementBytes(srcType), isa<FloatType>(srcType)},
        target);
    if (!plan)
      return r.emitError("cannot plan this reduction for every size: ")
             << plan.message();
    Kernel kernel{KernelKind::Reduce, r.getLoc()};
    kernel.srcBuffer = in->buffer;
    kernel.dstBuffer = placed.lookup(r.getResult()).buffer;
    kernel.srcType = srcType;
    kernel.dstType = dstType;
    kernel.reduction = kind;
    kernel.reducedDims = *dims;
    kernel.plan = plan->plan;
    // Representative static layouts in logical order: the kernel builder
    // takes its rank from them (argmax walks the logical dims), its extents
    // from `dyn`.
    std::string overflow;
    auto at = [&](ArrayRef<SymExpr> v) {
      Dims out;
      for (const SymExpr &x : v) {
        Fallible<int64_t> value = SymTable::evaluate(x, plan->representative);
        if (!value)
          overflow = value.message();
        out.push_back(value ? *value : 0);
      }
      return out;
    };
    kernel.src = StridedLayout(at(input.sizes), at(input.strides));
    kernel.dst = StridedLayout(at(result.sizes), at(result.strides));
    if (!overflow.empty())
      return r.emitError("cannot plan this reduction for every size: ")
             << overflow;
    DynamicABI::KernelExtents x = loopExtents(*plan, *in, result);
    x.outputs = output(numelOf(result.sizes));
    x.perOutput = output(perOutput);
    if (kind == ReductionKind::Argmax || kind == ReductionKind::Argmin)
      for (int64_t d = 0; d < input.rank(); ++d) {
        x.srcDimSizes.push_back(output(input.sizes[d]));
        x.srcDimStrides.push_back(output(input.strides[d]));
      }
    extents.push_back(std::move(x));
    abi.kernels.push_back(std::move(kernel));
    return success();
  }

  static SymExpr numelOf(ArrayRef<SymExpr> sizes) {
    SymExpr n(1);
    for (const SymExpr &s : sizes)
      n = n * s;
    return n;
  }

  /// The program outputs of a planned kernel's loops and views' offsets.
  DynamicABI::KernelExtents loopExtents(const DynamicKernelPlan &plan,
                                        const Placed &src,
                                        const SymLayout &dst) {
    DynamicABI::KernelExtents x;
    for (auto [size, s, d] :
         llvm::zip_equal(plan.sizes, plan.srcStrides, plan.dstStrides)) {
      x.sizes.push_back(output(size));
      x.srcStrides.push_back(output(s));
      x.dstStrides.push_back(output(d));
      x.loopText.push_back({table().str(size), table().str(s), table().str(d)});
      x.staticSizes.push_back(size.constant());
      x.staticDstStrides.push_back(d.constant());
    }
    x.srcOffset = output(src.layout.offset);
    x.dstOffset = output(dst.offset);
    return x;
  }

  /// `offset` (in buffer `b`'s storage) from its first element.
  SymExpr fromPointer(unsigned b, const SymExpr &offset) const {
    auto found = dynamicOrigins.find(b);
    SymExpr origin = found == dynamicOrigins.end()
                         ? SymExpr(abi.buffers[b].pointerOffset)
                         : found->second;
    return offset - origin;
  }

  /// A returned run-time view `info` or a view of one, at `at`: where it
  /// copies, its layout over the copy's buffer, the output (`at` becomes
  /// that); elsewhere the same view of the operand (`viewCase`).
  LogicalResult runtimeViewResult(func::ReturnOp ret, size_t index, Value value,
                                  Placed &at,
                                  std::optional<SymLayout> &viewCase,
                                  const RuntimeViewInfo *&info) {
    auto found = llvm::find_if(runtimeViews, [&](const auto &entry) {
      return placed.find(entry.first)->second.buffer == at.buffer;
    });
    assert(found != runtimeViews.end() && "a run-time view's buffer");
    const RuntimeViewInfo &rv = *(info = &found->second);
    // Reads through its elements (not storage) agree in both cases.
    for (Value v = value; v != found->first && v.getDefiningOp();
         v = v.getDefiningOp()->getOperand(0))
      if (isa<AsStridedOp>(v.getDefiningOp()))
        return ret.emitError("result #")
               << index
               << " is an as_strided of a tensor that PyTorch copies for "
                  "some sizes and views for others: which storage it reads "
                  "is decided at run time, and dynamic code generation "
                  "returns a view of such a tensor only through its elements";
    // The run-time view itself, or a value that is all of it (a same-dtype
    // `to`): the copy's layout.
    if (at.layout == placed.find(found->first)->second.layout) {
      at = {rv.own, rv.written};
      viewCase = rv.view.layout;
    } else {
      viewCase = table().assuming(at.layout, rv.copies, false);
      at = {rv.own, table().assuming(at.layout, rv.copies, true)};
    }
    return success();
  }

  LogicalResult addResults() {
    auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
    for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
      auto found = placed.find(value);
      if (found == placed.end())
        return ret.emitError("result #")
               << index << " is not a view of an argument or a new tensor";
      Placed at = found->second;
      const RuntimeViewInfo *runtimeView = nullptr;
      std::optional<SymLayout> viewCase;
      if (abi.buffers[at.buffer].runtimeView &&
          failed(
              runtimeViewResult(ret, index, value, at, viewCase, runtimeView)))
        return failure();
      Buffer &buffer = abi.buffers[at.buffer];
      const SymLayout &l = at.layout;
      if (buffer.param && abi.params[*buffer.param].role != ParamRole::Output) {
        // A view of an argument: offset from the argument's first element.
        ViewResult view;
        view.result = index;
        view.argument = *buffer.param;
        view.elementType = buffer.elementType;
        StridedLayout p = l.project();
        view.sizes = p.sizes;
        view.strides = p.strides;
        view.offset =
            fromPointer(at.buffer, l.offset).constant().value_or(kDynamic);
        viewLayouts.push_back("sizes " + list(l.sizes) + " strides " +
                              list(l.strides) + " offset " +
                              named(fromPointer(at.buffer, l.offset)));
        DynamicABI::ResultLayout &r = results.emplace_back();
        r.argument = abi.params[view.argument].number;
        r.sizes = output(l.sizes);
        r.viewStrides = output(l.strides);
        r.viewOffset = output(fromPointer(at.buffer, l.offset));
        abi.views.push_back(view);
        continue;
      }
      if (buffer.param)
        return ret.emitError("result #")
               << index << " views the same new tensor as result #"
               << abi.params[*buffer.param].number
               << "; code generation gives each new tensor one output";
      // A new tensor, whole: the result its buffer was made for, or offset
      // 0 and dense over all its elements (new buffers are dense) in any
      // order of dims. Where only sizes tell whether it has them all (a
      // reshape of a clone checks its count at run time), a run-time check.
      bool whole = (runtimeView && at.layout == runtimeView->written) ||
                   wholeResults.contains(value);
      if (!whole && l.offset.isConstant(0) && provablyDense(table(), l)) {
        SymExpr n = numelOf(l.sizes), elements = bufferElements[at.buffer];
        // A view of a run-time view: all of the copy, which an output
        // passed without a `_view` report gets for every size.
        if (runtimeView)
          elements = table().assuming(elements, runtimeView->copies, true);
        Fallible<std::monostate> all = table().require(
            SymCond::eq(n, elements),
            "result #" + std::to_string(index) +
                " views {0} of the {1} elements of a new tensor; dynamic code "
                "generation returns only whole new tensors",
            {n, elements});
        whole = static_cast<bool>(all);
      }
      if (!whole)
        return ret.emitError("result #")
               << index << " views part of a new tensor; dynamic code "
               << "generation needs outputs that are a kernel's whole result";
      Param param;
      param.role = ParamRole::Output;
      param.number = index;
      param.buffer = at.buffer;
      param.elementType = buffer.elementType;
      StridedLayout p = l.project();
      param.sizes = descriptorSizes(p.sizes);
      param.strides = p.strides;
      unsigned pi = abi.params.size();
      for (int64_t k = 0; k < l.rank(); ++k) {
        if (p.sizes[k] == kDynamic)
          fills.push_back({pi, k, 0, output(l.sizes[k])});
        if (p.strides[k] == kDynamic)
          fills.push_back({pi, k, 1, output(l.strides[k])});
      }
      results.push_back({true, -1, -1, -1, output(l.sizes), output(l.strides)});
      std::string note =
          runtimeView ? conditionalNote(*runtimeView, *viewCase, param, pi)
                      : "";
      paramLayouts.push_back("sizes " + list(l.sizes) + " strides " +
                             list(l.strides) +
                             (note.empty() ? "" : " (" + note + ")"));
      buffer.param = pi;
      abi.params.push_back(param);
    }
    // A new tensor that is not a result is scratch of run-time size.
    scratchElements.assign(abi.buffers.size(), -1);
    for (const Kernel &k : abi.kernels)
      if (!abi.buffers[k.dstBuffer].param && scratchElements[k.dstBuffer] < 0)
        scratchElements[k.dstBuffer] = output(bufferElements[k.dstBuffer]);
    return success();
  }

  /// For a returned run-time view or view of one, whose layout over the
  /// operand's storage is `viewCase` where it does not copy: the run-time
  /// choice (DynamicABI::Conditional) where that operand is an argument's
  /// view, and the header's note; elsewhere its copy runs for every size.
  std::string conditionalNote(const RuntimeViewInfo &info,
                              const SymLayout &viewCase, const Param &param,
                              unsigned output) {
    std::string when = named(SymCond::negate(info.copies));
    const Placed &operand = info.view;
    std::optional<unsigned> argument = abi.buffers[operand.buffer].param;
    extents[info.kernel].runIf.reset();
    if (!argument || abi.params[*argument].role == ParamRole::Output)
      return "written for every size, although PyTorch returns the operand "
             "itself when " +
             when;
    DynamicABI::Conditional c;
    c.kernel = info.kernel;
    c.output = output;
    c.argument = *argument;
    c.copies = info.flag;
    const SymLayout &l = viewCase;
    c.viewLayout = "sizes " + list(l.sizes) + " strides " + list(l.strides) +
                   " offset " + named(fromPointer(operand.buffer, l.offset));
    c.when = when;
    DynamicABI::ResultLayout &r = results.back();
    r.argument = abi.params[*argument].number;
    r.copies = info.flag;
    r.viewStrides = this->output(l.strides);
    r.viewOffset = this->output(fromPointer(operand.buffer, l.offset));
    conditionals.push_back(std::move(c));
    return "or, when " + when + ", a view of " +
           paramName(abi.params[*argument]) + ": see " + paramName(param) +
           "_view";
  }

  /// The derived symbols the header names, with those their definitions
  /// name in turn (each names only earlier ones): name and definition.
  std::vector<std::pair<std::string, std::string>> headerDefinitions() {
    table().addDefinitionSymbols(headerSymbols);
    const std::vector<SymTable::Symbol> &syms = table().symbols();
    std::vector<std::pair<std::string, std::string>> out;
    for (size_t id = 0; id < syms.size(); ++id)
      if (headerSymbols.count(id) && syms[id].op != SymTable::Op::Input)
        out.push_back({syms[id].name, table().definition(id)});
    return out;
  }

  LogicalResult finish() {
    auto d = std::make_shared<DynamicABI>();
    d->program = encodeSymbolProgram(table(), outputs);
    d->definitions = headerDefinitions();
    for (auto [id, s] : llvm::enumerate(table().symbols())) {
      if (s.op != SymTable::Op::Input)
        continue;
      auto found = inputOf.find(id);
      if (found == inputOf.end())
        return func.emitError("dynamic code generation: symbol ")
               << s.name << " is no argument's size or stride";
      d->inputs.push_back(found->second.first);
      d->inputNames.push_back(found->second.second);
    }
    d->fills = fills;
    d->kernels = extents;
    d->paramLayouts = paramLayouts;
    d->conditionals = conditionals;
    d->viewLayouts = viewLayouts;
    d->results = results;
    d->scratchElements = scratchElements;
    dyn = d;
    return success();
  }

  func::FuncOp func;
  const TargetInfo &target;
  FunctionABI abi;
  SymbolicLayouts layouts;
  llvm::DenseMap<Value, Placed> placed;
  llvm::DenseMap<SymbolId, std::pair<std::array<int64_t, 3>, std::string>>
      inputOf;
  /// The symbols the header's texts name (named).
  llvm::DenseSet<SymbolId> headerSymbols;
  /// Arguments' buffers whose type has a dynamic offset: that offset (for
  /// the header's offsets from their first elements).
  llvm::DenseMap<unsigned, SymExpr> dynamicOrigins;
  std::vector<SymExpr> outputs;
  std::vector<std::array<int64_t, 4>> fills;
  std::vector<DynamicABI::KernelExtents> extents;
  std::vector<std::string> paramLayouts, viewLayouts;
  /// Per buffer: its elements (new buffers; 0 for arguments'), and the
  /// program output of a scratch buffer's (-1 for the others).
  std::vector<SymExpr> bufferElements;
  std::vector<int64_t> scratchElements;
  llvm::DenseMap<Value, RuntimeViewInfo> runtimeViews;
  /// The results new buffers were made for: all of their buffer.
  llvm::DenseSet<Value> wholeResults;
  std::vector<DynamicABI::Conditional> conditionals;
  std::vector<DynamicABI::ResultLayout> results;
  /// Copies not written, each read by one converting `to`: their operand.
  llvm::DenseMap<Value, Placed> fused;
  std::shared_ptr<const DynamicABI> dyn;
};
} // namespace

FailureOr<FunctionABI>
mlir::layout::analyzeDynamicFunction(func::FuncOp func,
                                     const TargetInfo &target) {
  return DynamicAnalysis(func, target).run();
}
