// argmax/argmin over bf16 compare in f32 (widening is exact): LLVM
// lowers a bf16 compare or select for AVX-512F targets without AVX512-BF16
// through libgcc's __truncsfbf2, which Debian 12's gcc 12 does not have, so
// such objects failed to link.
// RUN: layoutc %s --emit=llvm --mattr=+avx512f | FileCheck %s
// RUN: layoutc %s --emit=asm --mattr=+avx512f | FileCheck %s --check-prefix=ASM
// RUN: layoutc %s --emit=asm | FileCheck %s --check-prefix=ASM

// CHECK-LABEL: define internal void @argmax_bf16__kernel0(
// CHECK-NOT: fcmp {{.*}} bfloat
// CHECK: fcmp {{o[lg]t}} float
// CHECK-LABEL: define ptr @argmax_bf16_raw(
// ASM-NOT: __truncsfbf2
func.func @argmax_bf16(%x: !layout.tensor<25x125xbf16>) -> !layout.tensor<25xi64> {
  %s = layout.slice %x dim 1 [1 : : 3] : !layout.tensor<25x125xbf16>
  %r = layout.reduce argmax %s dims [1] : !layout.tensor<25x42xbf16, strided<[125, 3], offset: 1>>
  return %r : !layout.tensor<25xi64>
}
