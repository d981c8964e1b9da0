// RUN: layout-opt %s --layout-fold-views --layout-plan-copies | FileCheck %s --enable-var-scope

// reshape and flatten copy when PyTorch's view cannot express the new shape
// (docs/language.md: "a view when `view` would succeed, else a row-major
// copy"). The copy is a layout.materialize that says why; the
// result is a new row-major storage. (The no-copy cases are in
// layout-plan-copies.mlir.)

// x.T.reshape(12): (4, 3):(1, 4) has no stride that walks 12 elements in
// order, so torch copies (data_ptr differs) into (12):(1).
// CHECK-LABEL: func.func @reshape_copies
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK:         %[[T:.*]] = layout.as_strided %[[X]] [4, 3] strides [1, 4] offset 0
// CHECK:         layout.materialize %[[T]] {origin = "layout.reshape", reason = "sizes [4, 3] with strides [1, 4] cannot be viewed as [12] (a new dim spans two non-contiguous subspaces)"}
// CHECK-NOT:     layout.reshape
// CHECK-NOT:     layout.materialize
// CHECK:         return %{{.*}} : !layout.tensor<12xf32>
func.func @reshape_copies(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<12xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %r = layout.reshape %t [12] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %r : !layout.tensor<12xf32>
}

// w[:, 1:3] is (2, 2, 4):(12, 4, 1)+4; flatten(0, 1) would need stride 12 ==
// 2 * 4 for dims 0 and 1 to merge, so torch copies into (4, 4):(4, 1).
// CHECK-LABEL: func.func @flatten_copies
// CHECK-SAME:    (%[[W:.*]]: !layout.tensor<2x3x4xf32>)
// CHECK:         %[[S:.*]] = layout.as_strided %[[W]] [2, 2, 4] strides [12, 4, 1] offset 4
// CHECK:         layout.materialize %[[S]] {origin = "layout.flatten", reason = "sizes [2, 2, 4] with strides [12, 4, 1] cannot be viewed with dims 0 to 1 merged (they are not one contiguous run)"}
// CHECK-NOT:     layout.flatten
// CHECK-NOT:     layout.materialize
// CHECK:         return %{{.*}} : !layout.tensor<4x4xf32>
func.func @flatten_copies(%w: !layout.tensor<2x3x4xf32>) -> !layout.tensor<4x4xf32> {
  %s = layout.slice %w dim 1 [1 : 3 : 1] : !layout.tensor<2x3x4xf32>
  %f = layout.flatten %s dims 0 to 1 : !layout.tensor<2x2x4xf32, strided<[12, 4, 1], offset: 4>>
  return %f : !layout.tensor<4x4xf32>
}
