//===- FoldViews.cpp - Fold view chains into one as_strided ---------------===//
//
// A chain of view ops only ever computes (sizes, strides, offset) over its
// root's storage, and every op already carries its inferred result layout in
// its type. Folding therefore needs no arithmetic of its own: each view is
// replaced by `layout.as_strided root [sizes] strides [strides] offset o`,
// read off its result type, and the chain above it becomes dead.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace layout {
#define GEN_PASS_DEF_LAYOUTFOLDVIEWSPASS
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"
} // namespace layout
} // namespace mlir

using namespace mlir;
using namespace mlir::layout;

/// True for ops that only compute a view of their operand's storage.
static bool isPureView(Operation *op) {
  return isa<ViewLikeOpInterface, SplitOp>(op);
}

/// A tensor of static layout, or a storage of static size.
static bool hasStaticLayout(Value v) {
  if (auto storage = dyn_cast<StorageType>(v.getType()))
    return storage.hasStaticSize();
  auto t = dyn_cast<StridedTensorType>(v.getType());
  return t && t.hasStaticLayout();
}

/// The value whose storage a chain of pure views reads: the first value up
/// the chain that is not produced by a pure view of a static operand (a view
/// of a dynamic operand stays, with its checks on run-time sizes), nor by an
/// as_strided whose bounds are checked at run time (checksBoundsAtRunTime).
static Value viewChainRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isPureView(def))
      break;
    if (auto strided = dyn_cast<AsStridedOp>(def);
        strided && checksBoundsAtRunTime(strided))
      break;
    Value source = isa<SplitOp>(def)
                       ? cast<SplitOp>(def).getInput()
                       : cast<ViewLikeOpInterface>(def).getViewSource();
    if (!hasStaticLayout(source))
      break;
    v = source;
  }
  return v;
}

/// `as_strided root` with `type`'s static layout, or `root` itself when the
/// view is the identity on a tensor root.
static Value buildFoldedView(PatternRewriter &rewriter, Location loc,
                             Value root, StridedTensorType type) {
  if (root.getType() == type)
    return root;
  return AsStridedOp::create(rewriter, loc, root, type.getStridedLayout());
}

namespace {

/// Replaces a view whose operand is itself a view by one as_strided of the
/// chain's root:
///
///   %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
///   %s = layout.select %t dim 0 index 1 : !layout.tensor<4x3xf32, strided<[1,
///   4]>>
/// =>
///   %s = layout.as_strided %x [3] strides [4] offset 1 :
///   !layout.tensor<3x4xf32>
///
/// The offset is absolute: 0 + 1 * 1 (index 1 along the dim of stride 1).
struct FoldViewChain : OpInterfaceRewritePattern<ViewLikeOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(ViewLikeOpInterface view,
                                PatternRewriter &rewriter) const override {
    Operation *op = view.getOperation();
    if (op->getDialect() !=
        rewriter.getContext()->getLoadedDialect<LayoutDialect>())
      return rewriter.notifyMatchFailure(op, "not a layout view");
    Value root = viewChainRoot(view.getViewSource());
    if (auto asStrided = dyn_cast<AsStridedOp>(op)) {
      // as_strided's offset is absolute in the storage, so its operand can
      // be replaced by the chain's root as it is (dynamic operands too).
      if (root != asStrided.getInput()) {
        rewriter.modifyOpInPlace(
            asStrided, [&] { asStrided.getInputMutable().assign(root); });
        return success();
      }
      if (root.getType() == asStrided.getType()) {
        rewriter.replaceOp(asStrided, root);
        return success();
      }
      return rewriter.notifyMatchFailure(op, "already folded");
    }
    auto type = cast<StridedTensorType>(op->getResult(0).getType());
    if (!type.hasStaticLayout())
      return rewriter.notifyMatchFailure(op, "dynamic result layout");
    // A view of a dynamic operand keeps its op: its checks on run-time sizes
    // (select's index, narrow's bounds) would be lost in an as_strided.
    if (!hasStaticLayout(view.getViewSource()))
      return rewriter.notifyMatchFailure(op, "dynamic operand layout");
    rewriter.replaceOp(op, buildFoldedView(rewriter, op->getLoc(), root, type));
    return success();
  }
};

/// Each result of a split is a view of the input's root:
///
///   %a, %b = layout.split %x dim 0 [1, 2] : !layout.tensor<3x4xf32>
/// =>
///   %a = layout.as_strided %x [1, 4] strides [4, 1] offset 0 : ...
///   %b = layout.as_strided %x [2, 4] strides [4, 1] offset 4 : ...
struct FoldSplit : OpRewritePattern<SplitOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SplitOp split,
                                PatternRewriter &rewriter) const override {
    if (!hasStaticLayout(split.getInput()) ||
        !llvm::all_of(split.getResults(), hasStaticLayout))
      return rewriter.notifyMatchFailure(split, "dynamic layouts");
    Value root = viewChainRoot(split.getInput());
    SmallVector<Value> replacements;
    for (Value result : split.getResults()) {
      auto type = cast<StridedTensorType>(result.getType());
      replacements.push_back(
          buildFoldedView(rewriter, split.getLoc(), root, type));
    }
    rewriter.replaceOp(split, replacements);
    return success();
  }
};

struct LayoutFoldViewsPass
    : layout::impl::LayoutFoldViewsPassBase<LayoutFoldViewsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFoldViewsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::layout::populateFoldViewsPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldViewChain, FoldSplit>(patterns.getContext());
}
