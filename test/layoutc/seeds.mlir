// RUN: layoutc %s --emit=explain | %python %S/Inputs/json_lines.py | FileCheck %s --enable-var-scope
// RUN: layoutc %s --emit=memory-map | FileCheck %s --check-prefix=MAP
// RUN: not layoutc %S/Inputs/seed-view-of-transpose.mlir 2>&1 | FileCheck %s --check-prefix=VIEW
// RUN: layoutc %S/Inputs/seed-reshape-of-transpose.mlir --emit=explain | %python %S/Inputs/json_lines.py | FileCheck %s --check-prefix=RESHAPE

// The examples of the five tutorials in shared/seeds, as layout programs.
// Every number below is what the tutorial prints (and torch 1.13 agrees).

//===----------------------------------------------------------------------===//
// 000 (Korean): Storage, Stride and reading a memory map
//===----------------------------------------------------------------------===//

// t = torch.arange(12).reshape(3, 4)    # int64
// t.stride() == (4, 1); t.is_contiguous() == True; storage of 12 elements
// row = t[1]; row.storage_offset() == 4
// tt = t.T; tt.stride() == (1, 4); tt.is_contiguous() == False; same storage
// CHECK-LABEL: function seed000_layers
// CHECK-NEXT:  result {"sizes": [3, 4], "strides": [4, 1], "offset": 0, "dtype": "i64", "aliases": 0, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [4], "strides": [1], "offset": 4, "dtype": "i64", "aliases": 0, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [4, 3], "strides": [1, 4], "offset": 0, "dtype": "i64", "aliases": 0, "contiguous": false, "channels_last": false}
// CHECK-NOT:   copy
// MAP-LABEL:   @seed000_layers result 0: sizes [3, 4], strides [4, 1], offset 0, i64, a view of argument 0's storage
// MAP:         storage of 12 elements
// MAP-LABEL:   @seed000_layers result 1: sizes [4], strides [1], offset 4, i64, a view of argument 0's storage
// row 1 reads elements 4..7 (data_ptr + 4 * 8 bytes)
// MAP:         |  4  5  6  7
// MAP:         0: . . . . 1 1 1 1 . . . .
// MAP-LABEL:   @seed000_layers result 2: sizes [4, 3], strides [1, 4], offset 0, i64, a view of argument 0's storage
func.func @seed000_layers(%a: !layout.tensor<12xi64>) -> (!layout.tensor<3x4xi64>, !layout.tensor<4xi64, strided<[1], offset: 4>>, !layout.tensor<4x3xi64, strided<[1, 4]>>) {
  %t = layout.reshape %a [3, 4] : !layout.tensor<12xi64>
  %row = layout.select %t dim 0 index 1 : !layout.tensor<3x4xi64>
  %tt = layout.transpose %t 0, 1 : !layout.tensor<3x4xi64>
  return %t, %row, %tt : !layout.tensor<3x4xi64>, !layout.tensor<4xi64, strided<[1], offset: 4>>, !layout.tensor<4x3xi64, strided<[1, 4]>>
}

// flat = tt.contiguous().view(-1): a new allocation (data_ptr differs), so a
// copy: 12 int64 read and written, 12 * 8 * 2 == 192 bytes.
// CHECK-LABEL: function seed000_contiguous_then_view
// CHECK-NEXT:  result {"sizes": [12], "strides": [1], "offset": 0, "dtype": "i64", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  copy {"op": "layout.contiguous", "loc": "{{.*}}seeds.mlir:[[@LINE+4]]:8", "bytes": 192, "reason": "operand strides [1, 4] are not row-major", "kernel": "transpose"}
// CHECK-NOT:   copy
func.func @seed000_contiguous_then_view(%t: !layout.tensor<3x4xi64>) -> !layout.tensor<12xi64> {
  %tt = layout.transpose %t 0, 1 : !layout.tensor<3x4xi64>
  %c = layout.contiguous %tt : !layout.tensor<4x3xi64, strided<[1, 4]>>
  %flat = layout.view %c [-1] : !layout.tensor<4x3xi64>
  return %flat : !layout.tensor<12xi64>
}

// t = torch.randn(1024, 1024): 4 * 1048576 bytes == 4.0 MB.
// t16 = t.half(): reads 4 MB, writes 2 MB: 4194304 + 2097152 == 6291456.
// view = t[:512, :] is a view: still t's storage (1048576 elements).
// CHECK-LABEL: function seed000_memory_accounting
// CHECK-NEXT:  result {"sizes": [1024, 1024], "strides": [1024, 1], "offset": 0, "dtype": "f16", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [512, 1024], "strides": [1024, 1], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  copy {"op": "layout.to", "loc": "{{.*}}seeds.mlir:[[@LINE+4]]:10", "bytes": 6291456, "reason": "dtype conversion f32 -> f16", "kernel": "convert+memcpy"}
// CHECK-NOT:   copy
// MAP-LABEL:   @seed000_memory_accounting result 1: sizes [512, 1024], strides [1024, 1], offset 0, f32, a view of argument 0's storage
func.func @seed000_memory_accounting(%t: !layout.tensor<1024x1024xf32>) -> (!layout.tensor<1024x1024xf16>, !layout.tensor<512x1024xf32>) {
  %t16 = layout.to %t f16 : !layout.tensor<1024x1024xf32>
  %view = layout.slice %t dim 0 [: 512 : 1] : !layout.tensor<1024x1024xf32>
  return %t16, %view : !layout.tensor<1024x1024xf16>, !layout.tensor<512x1024xf32>
}

// Exercise: x.transpose(0, 1).contiguous() and x.transpose(0, 1) hold the
// same values in different storages; sum() over both. The sum of the
// contiguous copy reads the transposed view directly, so no copy remains.
// CHECK-LABEL: function seed000_exercise
// CHECK-NEXT:  result {"sizes": [], "strides": [], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [], "strides": [], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NOT:   copy
func.func @seed000_exercise(%x: !layout.tensor<64x32xf32>) -> (!layout.tensor<f32>, !layout.tensor<f32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<64x32xf32>
  %c = layout.contiguous %t : !layout.tensor<32x64xf32, strided<[1, 32]>>
  %s1 = layout.reduce sum %c dims [] : !layout.tensor<32x64xf32>
  %s2 = layout.reduce sum %t dims [] : !layout.tensor<32x64xf32, strided<[1, 32]>>
  return %s1, %s2 : !layout.tensor<f32>, !layout.tensor<f32>
}

//===----------------------------------------------------------------------===//
// 001 (Chinese): metadata, as_strided, contiguous
//===----------------------------------------------------------------------===//

// tensor = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
// tensor.as_strided((2, 2), (4, 2), storage_offset=0) == [[1, 3], [5, 7]]:
//   elements 0, 2, 4, 6 (0 + 4 * i + 2 * j)
// tensor.as_strided((2, 2), (4, 2), storage_offset=1) == [[2, 4], [6, 8]]:
//   elements 1, 3, 5, 7
// CHECK-LABEL: function seed001_as_strided
// CHECK-NEXT:  result {"sizes": [3, 4], "strides": [4, 1], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [2, 2], "strides": [4, 2], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": false, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [2, 2], "strides": [4, 2], "offset": 1, "dtype": "f32", "aliases": 0, "contiguous": false, "channels_last": false}
// CHECK-NOT:   copy
// MAP-LABEL:   @seed001_as_strided result 1: sizes [2, 2], strides [4, 2], offset 0, f32, a view of argument 0's storage
// MAP:         0 |  0  2
// MAP-NEXT:    1 |  4  6
// MAP:         0: 1 . 1 . 1 . 1 . . . . .
// MAP-LABEL:   @seed001_as_strided result 2: sizes [2, 2], strides [4, 2], offset 1, f32, a view of argument 0's storage
// MAP:         0 |  1  3
// MAP-NEXT:    1 |  5  7
// MAP:         0: . 1 . 1 . 1 . 1 . . . .
func.func @seed001_as_strided(%tensor: !layout.tensor<3x4xf32>) -> (!layout.tensor<3x4xf32>, !layout.tensor<2x2xf32, strided<[4, 2]>>, !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>) {
  %a0 = layout.as_strided %tensor [2, 2] strides [4, 2] offset 0 : !layout.tensor<3x4xf32>
  %a1 = layout.as_strided %tensor [2, 2] strides [4, 2] offset 1 : !layout.tensor<3x4xf32>
  return %tensor, %a0, %a1 : !layout.tensor<3x4xf32>, !layout.tensor<2x2xf32, strided<[4, 2]>>, !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>
}

// transposed_tensor = tensor.t(); contiguous_tensor = transposed_tensor.contiguous()
// contiguous_tensor.stride() == (3, 1): a new, compact storage.
// CHECK-LABEL: function seed001_contiguous
// CHECK-NEXT:  result {"sizes": [4, 3], "strides": [1, 4], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": false, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [4, 3], "strides": [3, 1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  copy {"op": "layout.contiguous", "loc": "{{.*}}seeds.mlir:[[@LINE+3]]:24", "bytes": 96, "reason": "operand strides [1, 4] are not row-major", "kernel": "transpose"}
func.func @seed001_contiguous(%tensor: !layout.tensor<3x4xf32>) -> (!layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>) {
  %transposed_tensor = layout.transpose %tensor 0, 1 : !layout.tensor<3x4xf32>
  %contiguous_tensor = layout.contiguous %transposed_tensor : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %transposed_tensor, %contiguous_tensor : !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>
}

//===----------------------------------------------------------------------===//
// 002 (English): some notes on memory in PyTorch
//===----------------------------------------------------------------------===//

// A (4, 3) tensor over [0, 1, ..., 11] has strides (3, 1); changing them to
// (1, 3) transposes it without touching memory; contiguous() copies.
// CHECK-LABEL: function seed002_strides
// CHECK-NEXT:  result {"sizes": [4, 3], "strides": [3, 1], "offset": 0, "dtype": "i64", "aliases": 0, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [3, 4], "strides": [1, 3], "offset": 0, "dtype": "i64", "aliases": 0, "contiguous": false, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [3, 4], "strides": [4, 1], "offset": 0, "dtype": "i64", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  copy {"op": "layout.contiguous", "loc": "{{.*}}seeds.mlir:[[@LINE+4]]:8", "bytes": 192, "reason": "operand strides [1, 3] are not row-major", "kernel": "transpose"}
func.func @seed002_strides(%m: !layout.storage<12xi64>) -> (!layout.tensor<4x3xi64>, !layout.tensor<3x4xi64, strided<[1, 3]>>, !layout.tensor<3x4xi64>) {
  %a = layout.as_strided %m [4, 3] strides [3, 1] offset 0 : !layout.storage<12xi64>
  %t = layout.as_strided %m [3, 4] strides [1, 3] offset 0 : !layout.storage<12xi64>
  %c = layout.contiguous %t : !layout.tensor<3x4xi64, strided<[1, 3]>>
  return %a, %t, %c : !layout.tensor<4x3xi64>, !layout.tensor<3x4xi64, strided<[1, 3]>>, !layout.tensor<3x4xi64>
}

//===----------------------------------------------------------------------===//
// 003 (English): torch.storage, memory_format and low-level memory
//===----------------------------------------------------------------------===//

// b = a.view(2, 2) shares a's storage; c = a.clone() is independent;
// x.t() is not contiguous.
// CHECK-LABEL: function seed003_sharing
// CHECK-NEXT:  result {"sizes": [2, 2], "strides": [2, 1], "offset": 0, "dtype": "i64", "aliases": 0, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [4], "strides": [1], "offset": 0, "dtype": "i64", "aliases": null, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [2, 2], "strides": [1, 2], "offset": 0, "dtype": "f32", "aliases": 1, "contiguous": false, "channels_last": false}
// CHECK-NEXT:  copy {"op": "layout.clone", "loc": "{{.*}}seeds.mlir:[[@LINE+3]]:8", "bytes": 64, "reason": "clone always allocates new storage", "kernel": "memcpy"}
func.func @seed003_sharing(%a: !layout.tensor<4xi64>, %x: !layout.tensor<2x2xf32>) -> (!layout.tensor<2x2xi64>, !layout.tensor<4xi64>, !layout.tensor<2x2xf32, strided<[1, 2]>>) {
  %b = layout.view %a [2, 2] : !layout.tensor<4xi64>
  %c = layout.clone %a : !layout.tensor<4xi64>
  %x_T = layout.transpose %x 0, 1 : !layout.tensor<2x2xf32>
  return %b, %c, %x_T : !layout.tensor<2x2xi64>, !layout.tensor<4xi64>, !layout.tensor<2x2xf32, strided<[1, 2]>>
}

// x = torch.randn(1, 3, 224, 224); x_cl = x.to(memory_format=torch.channels_last)
// x_cl.is_contiguous(memory_format=torch.channels_last) == True;
// strides (H*W*C, 1, W*C, C) == (150528, 1, 672, 3).
// CHECK-LABEL: function seed003_channels_last
// CHECK-NEXT:  result {"sizes": [1, 3, 224, 224], "strides": [150528, 1, 672, 3], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": false, "channels_last": true}
// 150528 f32 * 4 bytes * 2 == 1204224
// CHECK-NEXT:  copy {"op": "layout.contiguous", "loc": "{{.*}}seeds.mlir:[[@LINE+2]]:11", "bytes": 1204224, "reason": "operand strides [150528, 50176, 224, 1] are not channels_last", "kernel": "transpose"}
func.func @seed003_channels_last(%x: !layout.tensor<1x3x224x224xf32>) -> !layout.tensor<1x3x224x224xf32, strided<[150528, 1, 672, 3]>> {
  %x_cl = layout.contiguous %x channels_last : !layout.tensor<1x3x224x224xf32>
  return %x_cl : !layout.tensor<1x3x224x224xf32, strided<[150528, 1, 672, 3]>>
}

//===----------------------------------------------------------------------===//
// 004 (English): memory layout, NCHW and channels_last
//===----------------------------------------------------------------------===//

// N, C, H, W = 10, 3, 32, 32
// x.stride() == (3072, 1024, 32, 1)
// x = x.to(memory_format=torch.channels_last); x.stride() == (3072, 1, 96, 3)
// x = x.to(memory_format=torch.contiguous_format): a copy back to NCHW.
// CHECK-LABEL: function seed004_nchw_nhwc
// CHECK-NEXT:  result {"sizes": [10, 3, 32, 32], "strides": [3072, 1024, 32, 1], "offset": 0, "dtype": "f32", "aliases": 0, "contiguous": true, "channels_last": false}
// CHECK-NEXT:  result {"sizes": [10, 3, 32, 32], "strides": [3072, 1, 96, 3], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": false, "channels_last": true}
// CHECK-NEXT:  result {"sizes": [10, 3, 32, 32], "strides": [3072, 1024, 32, 1], "offset": 0, "dtype": "f32", "aliases": null, "contiguous": true, "channels_last": false}
// 30720 f32 * 4 bytes * 2 == 245760
// CHECK-NEXT:  copy {"op": "layout.contiguous", "loc": "{{.*}}seeds.mlir:[[@LINE+4]]:9", "bytes": 245760, "reason": "operand strides [3072, 1024, 32, 1] are not channels_last", "kernel": "transpose"}
// CHECK-NEXT:  copy {"op": "layout.contiguous", "loc": "{{.*}}seeds.mlir:[[@LINE+4]]:11", "bytes": 245760, "reason": "operand strides [3072, 1, 96, 3] are not row-major", "kernel": "transpose"}
// CHECK-NOT:   copy
func.func @seed004_nchw_nhwc(%x: !layout.tensor<10x3x32x32xf32>) -> (!layout.tensor<10x3x32x32xf32>, !layout.tensor<10x3x32x32xf32, strided<[3072, 1, 96, 3]>>, !layout.tensor<10x3x32x32xf32>) {
  %cl = layout.contiguous %x channels_last : !layout.tensor<10x3x32x32xf32>
  %back = layout.contiguous %cl : !layout.tensor<10x3x32x32xf32, strided<[3072, 1, 96, 3]>>
  return %x, %cl, %back : !layout.tensor<10x3x32x32xf32>, !layout.tensor<10x3x32x32xf32, strided<[3072, 1, 96, 3]>>, !layout.tensor<10x3x32x32xf32>
}

//===----------------------------------------------------------------------===//
// View vs reshape on a transposed tensor (000, 002, 003)
//===----------------------------------------------------------------------===//

// tt.view(-1) is an error at the view, with its location and torch's words.
// VIEW: seed-view-of-transpose.mlir:6:8: error: 'layout.view' op view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.

// tt.reshape(-1) is a copy of tt into a new (12):(1) storage; tt stays a view.
// RESHAPE-LABEL: function reshape_of_transpose
// RESHAPE-NEXT:  result {"sizes": [4, 3], "strides": [1, 4], "offset": 0, "dtype": "i64", "aliases": 0, "contiguous": false, "channels_last": false}
// RESHAPE-NEXT:  result {"sizes": [12], "strides": [1], "offset": 0, "dtype": "i64", "aliases": null, "contiguous": true, "channels_last": false}
// 12 int64 read and written: 12 * 8 * 2 == 192 bytes
// RESHAPE-NEXT:  copy {"op": "layout.reshape", "loc": "{{.*}}seed-reshape-of-transpose.mlir:5:8", "bytes": 192, "reason": "sizes [4, 3] with strides [1, 4] cannot be viewed as {{\[12\]|\[-1\]}} (a new dim spans two non-contiguous subspaces)", "kernel": "transpose"}
// RESHAPE-NOT:   copy
