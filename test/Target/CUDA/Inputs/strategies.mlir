// One function per CUDA kernel strategy, used by the emitter, header, obj
// and emulation tests.

// memcpy: a contiguous run, no conversion (uint4 path + scalar fallback).
func.func @memcpy_f32(%x: !layout.tensor<1001xf32>) -> !layout.tensor<1001xf32> {
  %c = layout.clone %x : !layout.tensor<1001xf32>
  return %c : !layout.tensor<1001xf32>
}

// memcpy with a fused conversion.
func.func @to_f16(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf16> {
  %h = layout.to %x f16 : !layout.tensor<3x4xf32>
  return %h : !layout.tensor<3x4xf16>
}

// transpose: a 2-D tile, with edge tiles (36 = 32 + 4, 40 = 32 + 8).
func.func @transpose(%t: !layout.tensor<36x40xf32>) -> !layout.tensor<40x36xf32> {
  %tt = layout.transpose %t 0, 1 : !layout.tensor<36x40xf32>
  %c = layout.contiguous %tt : !layout.tensor<40x36xf32, strided<[1, 40]>>
  return %c : !layout.tensor<40x36xf32>
}

// transpose: NCHW -> NHWC with a bf16 conversion, batch folded into the grid,
// edge tiles (40 = 32 + 8 columns) guarded.
func.func @nhwc(%x: !layout.tensor<2x40x5x8xf32>, %y: !layout.tensor<2x5x8x40xbf16>) {
  %p = layout.permute %x [0, 2, 3, 1] : !layout.tensor<2x40x5x8xf32>
  layout.copy %p, %y : !layout.tensor<2x5x8x40xf32, strided<[1600, 8, 1, 40]>>, !layout.tensor<2x5x8x40xbf16>
  return
}

// NCHW -> NHWC with C = 3: too narrow for a tile, elementwise.
func.func @nhwc3(%x: !layout.tensor<2x3x4x4xf32>) -> !layout.tensor<2x3x4x4xf32, strided<[48, 1, 12, 3]>> {
  %c = layout.contiguous %x channels_last : !layout.tensor<2x3x4x4xf32>
  return %c : !layout.tensor<2x3x4x4xf32, strided<[48, 1, 12, 3]>>
}

// gather of whole rows (permute (1, 0, 2)): 16-byte vectors per thread.
func.func @rows(%x: !layout.tensor<4x6x8xf32>) -> !layout.tensor<6x4x8xf32> {
  %p = layout.permute %x [1, 0, 2] : !layout.tensor<4x6x8xf32>
  %c = layout.contiguous %p : !layout.tensor<6x4x8xf32, strided<[8, 48, 1]>>
  return %c : !layout.tensor<6x4x8xf32>
}

// gather: negative stride.
func.func @flip(%x: !layout.tensor<2x10xi32>) -> !layout.tensor<2x10xi32> {
  %f = layout.flip %x [1] : !layout.tensor<2x10xi32>
  %c = layout.contiguous %f : !layout.tensor<2x10xi32, strided<[10, -1], offset: 9>>
  return %c : !layout.tensor<2x10xi32>
}

// broadcast with a conversion to bool.
func.func @to_bool(%x: !layout.tensor<3xf32>) -> !layout.tensor<2x3xi1> {
  %e = layout.expand %x [2, 3] : !layout.tensor<3xf32>
  %b = layout.to %e i1 : !layout.tensor<2x3xf32, strided<[0, 1]>>
  return %b : !layout.tensor<2x3xi1>
}

// reduce_inner and reduce_outer, f16 accumulating in f32.
func.func @sums(%x: !layout.tensor<2x3x4xf16>)
    -> (!layout.tensor<2x4xf16>, !layout.tensor<3xf16>) {
  %s = layout.reduce sum %x dims [1] : !layout.tensor<2x3x4xf16>
  %m = layout.reduce mean %x dims [0, 2] : !layout.tensor<2x3x4xf16>
  return %s, %m : !layout.tensor<2x4xf16>, !layout.tensor<3xf16>
}

// Arg reductions over a transposed view, and amin of everything.
func.func @args(%x: !layout.tensor<2x3xi64>) -> (!layout.tensor<3xi64>, !layout.tensor<i64>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2x3xi64>
  %a = layout.reduce argmax %t dims [1] : !layout.tensor<3x2xi64, strided<[1, 3]>>
  %m = layout.reduce amin %x dims [] : !layout.tensor<2x3xi64>
  return %a, %m : !layout.tensor<3xi64>, !layout.tensor<i64>
}

// A long reduction of one output: split into partials plus a combine.
func.func @total(%x: !layout.tensor<1048576xf32>) -> !layout.tensor<f32> {
  %s = layout.reduce sum %x dims [] : !layout.tensor<1048576xf32>
  return %s : !layout.tensor<f32>
}

// A reduce_outer with few outputs and long columns: split over blockIdx.y.
func.func @columns(%x: !layout.tensor<65536x4xf32>) -> !layout.tensor<4xf32> {
  %m = layout.reduce amax %x dims [0] : !layout.tensor<65536x4xf32>
  return %m : !layout.tensor<4xf32>
}

// argmin of bf16 rows (warp per output).
func.func @argmin_rows(%x: !layout.tensor<4x100xbf16>) -> !layout.tensor<4xi64> {
  %a = layout.reduce argmin %x dims [1] : !layout.tensor<4x100xbf16>
  return %a : !layout.tensor<4xi64>
}

// Views only: no kernel, nothing launched.
func.func @views(%x: !layout.tensor<4x6xf32>) -> !layout.tensor<6x4xf32, strided<[1, 6]>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x6xf32>
  return %t : !layout.tensor<6x4xf32, strided<[1, 6]>>
}

// 64-bit indices: 3 GiB.
func.func @big(%x: !layout.tensor<32768x24576xf32>) -> !layout.tensor<24576x32768xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<32768x24576xf32>
  %c = layout.contiguous %t : !layout.tensor<24576x32768xf32, strided<[1, 24576]>>
  return %c : !layout.tensor<24576x32768xf32>
}
