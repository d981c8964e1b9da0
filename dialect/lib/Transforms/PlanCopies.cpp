//===- PlanCopies.cpp - Decide which copies move data ---------------------===//
//
// The ops that may copy (reshape, flatten, contiguous, clone, to) either
// alias their operand -- then they become views and disappear into the view
// chain -- or they must move data and become `layout.materialize`, which
// states why. A materialized buffer that is only read is then looked
// through: its readers read the composed view of the original storage
// instead, which fuses copy chains and lets reductions read strided views.
// Finally `layout.copy` writes are checked for overlap.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"

#include "mlir/IR/Iterators.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTPLANCOPIESPASS
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;

static StridedLayout layoutOf(Value v) {
  return cast<StridedTensorType>(v.getType()).getStridedLayout();
}

/// Why `op` has to move data (its result is not a view of the operand).
static std::string copyReason(Operation *op) {
  auto in = cast<StridedTensorType>(op->getOperand(0).getType());
  StridedLayout l = in.getStridedLayout();
  std::string strides = formatDims(l.strides);
  std::string sizes = formatDims(l.sizes);
  if (auto c = dyn_cast<ContiguousOp>(op)) {
    switch (c.getFormat()) {
    case FormatKind::channels_last:
      return "operand strides " + strides + " are not channels_last";
    case FormatKind::channels_last_3d:
      return "operand strides " + strides + " are not channels_last_3d";
    default:
      return "operand strides " + strides + " are not row-major";
    }
  }
  auto out = cast<StridedTensorType>(op->getResult(0).getType());
  if (isa<ReshapeOp>(op))
    return "sizes " + sizes + " with strides " + strides +
           " cannot be viewed as " + formatDims(out.getShape()) +
           " (a new dim spans two non-contiguous subspaces)";
  if (auto f = dyn_cast<FlattenOp>(op))
    return "sizes " + sizes + " with strides " + strides +
           " cannot be viewed with dims " +
           std::to_string(static_cast<int64_t>(f.getStartDim())) + " to " +
           std::to_string(static_cast<int64_t>(f.getEndDim())) +
           " merged (they are not one contiguous run)";
  if (auto to = dyn_cast<ToOp>(op))
    return "dtype conversion " + dtypeName(in.getElementType()) + " -> " +
           dtypeName(to.getDtype());
  return "clone always allocates new storage";
}

namespace {

/// A may-copy op that aliases its operand becomes the view it is:
///
///   %c = layout.contiguous %x : !layout.tensor<3x4xf32>   // already row-major
/// =>
///   (uses of %c read %x)
///
/// and one that moves data becomes a materialization with its reason (for
/// reshape/flatten, of the operand's shape, viewed in the new shape):
///
///   %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
/// =>
///   %c = layout.materialize %t {origin = "layout.contiguous",
///          reason = "operand strides [1, 4] are not row-major"} : ... -> ...
template <typename OpTy> struct PlanMayCopy : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value input = op->getOperand(0);
    auto resultType = cast<StridedTensorType>(op->getResult(0).getType());
    auto inputType = dyn_cast<StridedTensorType>(input.getType());
    // With a dynamic operand, whether it copies depends on its run-time
    // sizes: dynamic code generation decides (DynamicABI.cpp).
    if (!resultType.hasStaticLayout() || !inputType ||
        !inputType.hasStaticLayout())
      return rewriter.notifyMatchFailure(op, "dynamic layout");
    if (getAliasedOperand(op->getResult(0))) {
      Value view = input.getType() == resultType
                       ? input
                       : AsStridedOp::create(rewriter, op.getLoc(), input,
                                             resultType.getStridedLayout())
                             .getResult();
      rewriter.replaceOp(op, view);
      return success();
    }
    // reshape and flatten copy like PyTorch: the operand into a row-major
    // buffer of its own shape, which the new shape then views.
    bool reshapes = inputType.getShape() != resultType.getShape();
    auto bufferType =
        reshapes ? StridedTensorType::getContiguous(inputType.getShape(),
                                                    resultType.getElementType())
                 : resultType;
    Value buffer = MaterializeOp::create(
        rewriter, op.getLoc(), bufferType, input,
        rewriter.getStringAttr(op->getName().getStringRef()),
        rewriter.getStringAttr(copyReason(op)));
    if (reshapes)
      buffer = AsStridedOp::create(rewriter, op.getLoc(), buffer,
                                   resultType.getStridedLayout());
    rewriter.replaceOp(op, buffer);
    return success();
  }
};

/// The dtype a reader writes: a materialization's or a copy destination's;
/// null for reductions, whose accumulation depends on the input dtype.
static Type writtenElementType(Operation *reader) {
  if (auto m = dyn_cast<MaterializeOp>(reader))
    return m.getType().getElementType();
  if (auto c = dyn_cast<CopyOp>(reader))
    return c.getDst().getType().getElementType();
  return {};
}

/// Is every use of `buffer` (directly or through views) a read by an op that
/// LookThroughBuffer can redirect? Then the buffer dies once they are.
static bool isOnlyRead(Value buffer) {
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (isa<MaterializeOp, ReduceOp>(user))
      continue;
    if (auto copy = dyn_cast<CopyOp>(user);
        copy && use.get() == copy.getSrc() && use.get() != copy.getDst())
      continue;
    if (auto view = dyn_cast<AsStridedOp>(user); view && isOnlyRead(view))
      continue;
    return false;
  }
  return true;
}

/// Does a write (layout.copy) sit between `from` and `to` in their block?
static bool writeBetween(Operation *from, Operation *to) {
  if (from->getBlock() != to->getBlock())
    return true;
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode())
    if (isa<CopyOp>(op))
      return true;
  return false;
}

/// Readers of a dead intermediate buffer read the original storage instead:
///
///   %m = layout.materialize %a : (4, 3):(1, 4) -> (4, 3):(3, 1)   // x.T
///   %v = layout.as_strided %m [3, 4] strides [1, 3] offset 0       // m.T
///   %r = layout.materialize %v ...
/// =>
///   %r = layout.materialize %x ...          // (3, 4):(4, 1), one copy
///
/// The composed layout comes from LayoutAlgebra's composeThroughBuffer; when
/// no single strided view reads the same elements, nothing changes.
template <typename OpTy> struct LookThroughBuffer : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy reader,
                                PatternRewriter &rewriter) const override {
    OpOperand &operand = reader->getOpOperand(0);
    Value in = operand.get();
    MaterializeOp buffer = in.getDefiningOp<MaterializeOp>();
    StridedLayout outer;
    if (buffer) {
      outer = layoutOf(in);
    } else if (auto view = in.getDefiningOp<AsStridedOp>()) {
      buffer = view.getInput().getDefiningOp<MaterializeOp>();
      if (!buffer || !view.getType().hasStaticLayout())
        return rewriter.notifyMatchFailure(reader, "not a buffer view");
      outer = layoutOf(view);
    } else {
      return rewriter.notifyMatchFailure(reader, "operand is not a buffer");
    }
    Value source = buffer.getInput();
    auto sourceType = cast<StridedTensorType>(source.getType());
    // Through a converting buffer, a reader that converts to the buffer's
    // dtype anyway does the one conversion itself (S -> B, not S -> B -> B);
    // any other reader would see different values.
    Type bufferElement = buffer.getType().getElementType();
    if (sourceType.getElementType() != bufferElement &&
        writtenElementType(reader) != bufferElement)
      return rewriter.notifyMatchFailure(reader,
                                         "buffer converts dtype: not exact");
    if (!isOnlyRead(buffer) || writeBetween(buffer, reader))
      return rewriter.notifyMatchFailure(reader, "buffer is written or kept");
    std::optional<StridedLayout> composed = composeThroughBuffer(
        sourceType.getStridedLayout(), layoutOf(buffer), outer);
    if (!composed)
      return rewriter.notifyMatchFailure(reader, "no single strided view");
    // Source views fold to as_strided of their root, so the composed layout
    // (absolute in the root's storage) applies to that root. Not through an
    // as_strided whose bounds are checked at run time (checksBoundsAtRunTime):
    // it stays, with its check (the composed view, over it, reads the same
    // storage).
    Value root = source;
    if (auto view = source.getDefiningOp<AsStridedOp>();
        view && !checksBoundsAtRunTime(view))
      root = view.getInput();
    // A copy must keep reading a buffer distinct from what it writes.
    if (auto copy = dyn_cast<CopyOp>(reader.getOperation());
        copy && getStorageRoot(root) == getStorageRoot(copy.getDst()))
      return rewriter.notifyMatchFailure(reader, "would read what it writes");
    auto composedType =
        StridedTensorType::get(*composed, sourceType.getElementType());
    Value replacement =
        root.getType() == composedType
            ? root
            : AsStridedOp::create(rewriter, reader.getLoc(), root, *composed)
                  .getResult();
    rewriter.modifyOpInPlace(reader, [&] {
      operand.set(replacement);
      if (auto m = dyn_cast<MaterializeOp>(reader.getOperation()))
        m.setReason((m.getReason() + "; fused with the copy of " +
                     buffer.getOrigin() + " at " +
                     formatLocation(buffer.getLoc()))
                        .str());
    });
    return success();
  }
};

struct LayoutPlanCopiesPass
    : layout::impl::LayoutPlanCopiesPassBase<LayoutPlanCopiesPass> {
  void runOnOperation() override;
};

} // namespace

/// Rejects writes PyTorch rejects (and the ones it cannot vouch for), and
/// drops copies of a view onto itself.
static LogicalResult checkWrites(func::FuncOp func) {
  SmallVector<CopyOp> noOps;
  WalkResult result = func.walk([&](CopyOp copy) {
    StridedLayout dst = layoutOf(copy.getDst());
    StridedLayout src = layoutOf(copy.getSrc());
    // A dynamic destination: distinct for every size, or by PyTorch's
    // run-time check (SymbolicLayouts::requireDistinct). The static analyses
    // take static layouts only (kDynamic is no size).
    Overlap self = dst.isStatic()
                       ? internalOverlap(dst)
                       : SymbolicLayouts().requireDistinct(copy.getDst());
    switch (self) {
    case Overlap::No:
      break;
    case Overlap::Yes:
      copy.emitOpError("unsupported operation: more than one element of the "
                       "written-to tensor refers to a single memory location. "
                       "Please clone() the tensor before performing the "
                       "operation. (destination layout ")
          << dst.str() << ")";
      return WalkResult::interrupt();
    case Overlap::Unknown:
      copy.emitOpError("cannot prove that the destination ")
          << dst.str()
          << " does not overlap itself; writing into it could race. Please "
             "clone() the tensor before performing the operation.";
      return WalkResult::interrupt();
    }
    if (getStorageRoot(copy.getSrc()) != getStorageRoot(copy.getDst()))
      return WalkResult::advance();
    OverlapStatus status = OverlapStatus::Unknown;
    if (src.isStatic() && dst.isStatic()) {
      status = overlapStatus(src, dst);
    } else {
      SymbolicLayouts layouts;
      Fallible<SymLayout> s = layouts.get(copy.getSrc());
      Fallible<SymLayout> d = layouts.get(copy.getDst());
      if (s && d)
        status = symbolicOverlapStatus(layouts.table(), *s, *d);
      if (status == OverlapStatus::Unknown) {
        copy.emitOpError("cannot prove that the source ")
            << src.str() << " and the destination " << dst.str()
            << " of the same storage share no element or all of them for "
               "every size; whether PyTorch accepts the copy depends on "
               "run-time sizes. Please clone() the source first.";
        return WalkResult::interrupt();
      }
    }
    switch (status) {
    case OverlapStatus::No:
      break;
    case OverlapStatus::Full:
      if (copy.getSrc().getType() == copy.getDst().getType())
        noOps.push_back(copy);
      break;
    case OverlapStatus::Partial:
    case OverlapStatus::Unknown:
      copy.emitOpError("unsupported operation: some elements of the input "
                       "tensor and the written-to tensor refer to a single "
                       "memory location. Please clone() the tensor before "
                       "performing the operation. (source ")
          << src.str() << ", destination " << dst.str() << ")";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  for (CopyOp copy : noOps)
    copy.erase();
  return failure(result.wasInterrupted());
}

void LayoutPlanCopiesPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (failed(checkWrites(func)))
    return signalPassFailure();
  RewritePatternSet patterns(&getContext());
  patterns.add<PlanMayCopy<ReshapeOp>, PlanMayCopy<FlattenOp>,
               PlanMayCopy<ContiguousOp>, PlanMayCopy<CloneOp>,
               PlanMayCopy<ToOp>, LookThroughBuffer<MaterializeOp>,
               LookThroughBuffer<ReduceOp>, LookThroughBuffer<CopyOp>>(
      &getContext());
  populateFoldViewsPatterns(patterns);
  if (failed(applyPatternsGreedily(func, std::move(patterns))))
    return signalPassFailure();
  // Buffers whose readers now read the original storage are dead; their
  // allocation is the only effect, so drop them.
  func.walk<WalkOrder::PostOrder, ReverseIterator>([](Operation *op) {
    if (isa<MaterializeOp, AsStridedOp>(op) && op->use_empty())
      op->erase();
  });
}
