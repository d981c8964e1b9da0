// RUN: layout-opt %s --layout-fold-views --layout-plan-copies | FileCheck %s --enable-var-scope

// `to` (docs/language.md): a converted copy, fused with any layout change it
// is combined with. A materialize converts to its result's dtype while it
// copies, so one copy does both.

// x.T.to(f16).contiguous(): the layout change after the conversion is fused
// into it: one copy reads x.T (f32) and writes row-major f16.
// CHECK-LABEL: func.func @contiguous_after_to
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK:         %[[T:.*]] = layout.as_strided %[[X]] [4, 3] strides [1, 4] offset 0
// CHECK:         %[[M:.*]] = layout.materialize %[[T]] {{.*}} : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf16>
// CHECK-NOT:     layout.materialize
// CHECK:         return %[[M]] :
func.func @contiguous_after_to(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4x3xf16> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %h = layout.to %t f16 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  %c = layout.contiguous %h : !layout.tensor<4x3xf16, strided<[1, 4]>>
  return %c : !layout.tensor<4x3xf16>
}

// x.contiguous(memory_format=channels_last).to(f16): one NCHW -> NHWC copy
// that converts; the f16 result keeps the channels_last strides (60, 1, 15, 3).
// CHECK-LABEL: func.func @to_after_channels_last
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<2x3x4x5xf32>)
// CHECK-NEXT:    %[[M:.*]] = layout.materialize %[[X]] {origin = "layout.to", reason = "dtype conversion f32 -> f16; fused with the copy of layout.contiguous at {{.*}}layout-plan-copies-to.mlir:[[@LINE+3]]:8"} : !layout.tensor<2x3x4x5xf32> -> !layout.tensor<2x3x4x5xf16, strided<[60, 1, 15, 3]>>
// CHECK-NEXT:    return %[[M]] :
func.func @to_after_channels_last(%x: !layout.tensor<2x3x4x5xf32>) -> !layout.tensor<2x3x4x5xf16, strided<[60, 1, 15, 3]>> {
  %c = layout.contiguous %x channels_last : !layout.tensor<2x3x4x5xf32>
  %f = layout.to %c f16 : !layout.tensor<2x3x4x5xf32, strided<[60, 1, 15, 3]>>
  return %f : !layout.tensor<2x3x4x5xf16, strided<[60, 1, 15, 3]>>
}

// clone then to: one copy.
// CHECK-LABEL: func.func @to_after_clone
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK-NEXT:    %[[M:.*]] = layout.materialize %[[X]] {origin = "layout.to", reason = "dtype conversion f32 -> bf16; fused with the copy of layout.clone at {{.*}}layout-plan-copies-to.mlir:[[@LINE+3]]:8"} : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xbf16>
// CHECK-NEXT:    return %[[M]] :
func.func @to_after_clone(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xbf16> {
  %c = layout.clone %x : !layout.tensor<3x4xf32>
  %f = layout.to %c bf16 : !layout.tensor<3x4xf32>
  return %f : !layout.tensor<3x4xbf16>
}

// x.to(f16).to(f32) rounds through f16: two conversions, not one (and not
// none).
// CHECK-LABEL: func.func @round_trip_through_f16
// CHECK-SAME:    (%[[X:.*]]: !layout.tensor<3x4xf32>)
// CHECK-NEXT:    %[[H:.*]] = layout.materialize %[[X]] {origin = "layout.to", reason = "dtype conversion f32 -> f16"} : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf16>
// CHECK-NEXT:    %[[F:.*]] = layout.materialize %[[H]] {origin = "layout.to", reason = "dtype conversion f16 -> f32"} : !layout.tensor<3x4xf16> -> !layout.tensor<3x4xf32>
// CHECK-NEXT:    return %[[F]] :
func.func @round_trip_through_f16(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf32> {
  %h = layout.to %x f16 : !layout.tensor<3x4xf32>
  %f = layout.to %h f32 : !layout.tensor<3x4xf16>
  return %f : !layout.tensor<3x4xf32>
}
