// RUN: layout-opt %s --layout-fold-views | FileCheck %s --enable-var-scope
// The printer drops a step of 1 ([1 : 3 : 1] prints as [1 : 3]); what it
// prints must parse again.
// RUN: layout-opt %s | layout-opt --layout-fold-views | FileCheck %s --enable-var-scope

// Python slicing t[:, start:end:step] with every part optional
// (docs/language.md: "any of start, end, step may be omitted ...; negative
// bounds wrap, bounds clamp, the step must be positive"). Each layout
// below is what torch 1.13 gives for the same slice of a (3, 4) tensor.

// CHECK-LABEL: func.func @slice_bounds
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK-NOT:     layout.slice
// x[:, 1:3]: offset 1
// CHECK-DAG:     %[[S0:.*]] = layout.as_strided %[[X]] [3, 2] strides [4, 1] offset 1 :
// x[:2]
// CHECK-DAG:     %[[S1:.*]] = layout.as_strided %[[X]] [2, 4] strides [4, 1] offset 0 :
// x[1:]: offset 1 * 4 == 4
// CHECK-DAG:     %[[S2:.*]] = layout.as_strided %[[X]] [2, 4] strides [4, 1] offset 4 :
// x[:, -3:-1] == x[:, 1:3]
// CHECK-DAG:     %[[S3:.*]] = layout.as_strided %[[X]] [3, 2] strides [4, 1] offset 1 :
// x[:, 1:100:2]: end clamps to 4, columns 1 and 3, stride 2 * 1 == 2
// CHECK-DAG:     %[[S4:.*]] = layout.as_strided %[[X]] [3, 2] strides [4, 2] offset 1 :
// x[:, ::3]: columns 0 and 3
// CHECK-DAG:     %[[S5:.*]] = layout.as_strided %[[X]] [3, 2] strides [4, 3] offset 0 :
// x[:, 3:1]: empty, offset still 3
// CHECK-DAG:     %[[S6:.*]] = layout.as_strided %[[X]] [3, 0] strides [4, 1] offset 3 :
// x[:, 5:]: start clamps to 4
// CHECK-DAG:     %[[S8:.*]] = layout.as_strided %[[X]] [3, 0] strides [4, 1] offset 4 :
// x[-1:]: offset 2 * 4 == 8
// CHECK-DAG:     %[[S9:.*]] = layout.as_strided %[[X]] [1, 4] strides [4, 1] offset 8 :
// x[:, :-5]: end wraps to -1 and clamps to 0
// CHECK-DAG:     %[[S10:.*]] = layout.as_strided %[[X]] [3, 0] strides [4, 1] offset 0 :
// x[:] and x[:, -100:100] are x
// CHECK:         return %[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[S4]], %[[S5]], %[[S6]], %[[X]], %[[S8]], %[[S9]], %[[S10]], %[[X]] :
func.func @slice_bounds(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<3x2xf32, strided<[4, 1], offset: 1>>, !layout.tensor<2x4xf32>, !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>, !layout.tensor<3x2xf32, strided<[4, 1], offset: 1>>, !layout.tensor<3x2xf32, strided<[4, 2], offset: 1>>, !layout.tensor<3x2xf32, strided<[4, 3]>>, !layout.tensor<3x0xf32, strided<[4, 1], offset: 3>>, !layout.tensor<3x4xf32>, !layout.tensor<3x0xf32, strided<[4, 1], offset: 4>>, !layout.tensor<1x4xf32, strided<[4, 1], offset: 8>>, !layout.tensor<3x0xf32, strided<[4, 1]>>, !layout.tensor<3x4xf32>) {
  %0 = layout.slice %x dim 1 [1 : 3] : !layout.tensor<3x4xf32>
  %1 = layout.slice %x dim 0 [: 2] : !layout.tensor<3x4xf32>
  %2 = layout.slice %x dim 0 [1 :] : !layout.tensor<3x4xf32>
  %3 = layout.slice %x dim -1 [-3 : -1] : !layout.tensor<3x4xf32>
  %4 = layout.slice %x dim 1 [1 : 100 : 2] : !layout.tensor<3x4xf32>
  %5 = layout.slice %x dim 1 [: : 3] : !layout.tensor<3x4xf32>
  %6 = layout.slice %x dim 1 [3 : 1] : !layout.tensor<3x4xf32>
  %7 = layout.slice %x dim 1 [-100 : 100] : !layout.tensor<3x4xf32>
  %8 = layout.slice %x dim 1 [5 :] : !layout.tensor<3x4xf32>
  %9 = layout.slice %x dim 0 [-1 :] : !layout.tensor<3x4xf32>
  %10 = layout.slice %x dim 1 [: -5] : !layout.tensor<3x4xf32>
  %11 = layout.slice %x dim 0 [:] : !layout.tensor<3x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : !layout.tensor<3x2xf32, strided<[4, 1], offset: 1>>, !layout.tensor<2x4xf32>, !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>, !layout.tensor<3x2xf32, strided<[4, 1], offset: 1>>, !layout.tensor<3x2xf32, strided<[4, 2], offset: 1>>, !layout.tensor<3x2xf32, strided<[4, 3]>>, !layout.tensor<3x0xf32, strided<[4, 1], offset: 3>>, !layout.tensor<3x4xf32>, !layout.tensor<3x0xf32, strided<[4, 1], offset: 4>>, !layout.tensor<1x4xf32, strided<[4, 1], offset: 8>>, !layout.tensor<3x0xf32, strided<[4, 1]>>, !layout.tensor<3x4xf32>
}

// Explicit step-1 slices, printed without their step, fold the same way.
// CHECK-LABEL: func.func @slice_step_one
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK:         %[[S:.*]] = layout.as_strided %[[X]] [2, 4] strides [4, 1] offset 4 :
// CHECK-NEXT:    return %[[S]] :
func.func @slice_step_one(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>> {
  %s = layout.slice %x dim 0 [1 : 3 : 1] : !layout.tensor<3x4xf32>
  return %s : !layout.tensor<2x4xf32, strided<[4, 1], offset: 4>>
}
