// A module of run-time-extent copy kernels gets LLVM's clean-up passes only
// (translateAndOptimize's cleanupOnly), not O2: no loop vectorizer. Where a
// reduction shares the module, O2 runs and vectorizes this same gather's
// strided loop (runtime-extents.mlir).
// RUN: layoutc %s --emit=llvm --runtime-extents | FileCheck %s

// CHECK-LABEL: define internal void @gather__kernel0(
// CHECK-NOT: vector.body
// CHECK: ret void
func.func @gather(%x: !layout.tensor<4083xf16>) -> !layout.tensor<1361xf32> {
  %s = layout.slice %x dim 0 [0 : : 3] : !layout.tensor<4083xf16>
  %c = layout.to %s f32 : !layout.tensor<1361xf16, strided<[3]>>
  return %c : !layout.tensor<1361xf32>
}
