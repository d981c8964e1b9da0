//===- Passes.td - layoutc compiler passes -----------------*- tablegen -*-===//

#ifndef LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PASSES
#define LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def LayoutFoldViewsPass : Pass<"layout-fold-views", "::mlir::func::FuncOp"> {
  let summary = "Fold every chain of view ops into one layout.as_strided";
  let description = [{
    Every view op (and each result of `split`) is rewritten as a single
    `layout.as_strided` of the root of its view chain: the function
    argument, storage value or op result that is not itself a view. Ops that
    may copy are left for `layout-plan-copies`. Its sizes, strides and offset are the
    inferred ones, so the chain's arithmetic is done once, at compile time.
    Nothing else changes; the intermediate views become dead and are erased.

    Input:
    ```mlir
    %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
    %s = layout.select %t dim 0 index 1 : !layout.tensor<4x3xf32, strided<[1, 4]>>
    ```
    Output:
    ```mlir
    %s = layout.as_strided %x [3] strides [4] offset 1 : !layout.tensor<3x4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::layout::LayoutDialect"];
}

def LayoutPlanCopiesPass : Pass<"layout-plan-copies", "::mlir::func::FuncOp"> {
  let summary = "Decide which copies move data, fuse copy chains, reject "
                "overlapping writes";
  let description = [{
    For `reshape`, `flatten`, `contiguous`, `clone`, `to` and `copy`:
    - no-op copies disappear (their result is the operand's view);
    - a copy that must run becomes `layout.materialize` carrying the origin
      op and the reason data moves;
    - a copy whose source is read from a dead intermediate buffer is
      composed through that buffer, so `contiguous(permute(contiguous(
      permute x)))` is one copy of `x`, and a reduction reads a strided view
      directly instead of a copy of it;
    - `layout.copy` into a destination that overlaps itself, or that
      partially overlaps its source, is an error with PyTorch's message.
    Runs on the output of `layout-fold-views`, and folds the views it
    creates.
  }];
  let dependentDialects = ["::mlir::layout::LayoutDialect"];
}

#endif // LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PASSES
