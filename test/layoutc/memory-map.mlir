// RUN: layoutc %s --emit=memory-map | FileCheck %s

// `--emit=memory-map` draws, for each result, the storage element that every
// logical index reads (a grid over the last two dims, one grid per index of
// the leading dims) and a strip of the storage counting how many logical
// indices read each element ("." = none).

// The seed's t.T of a 3x4 tensor: (4, 3):(1, 4). Row i, column j reads
// storage element i * 1 + j * 4; every element is read once.
// CHECK-LABEL: @transpose result 0: sizes [4, 3], strides [1, 4], offset 0, f32, a view of argument 0's storage
// CHECK-NEXT:  logical index -> storage offset
// CHECK-NEXT:        |  0  1  2
// CHECK-NEXT:  ------+---------
// CHECK-NEXT:      0 |  0  4  8
// CHECK-NEXT:      1 |  1  5  9
// CHECK-NEXT:      2 |  2  6 10
// CHECK-NEXT:      3 |  3  7 11
// CHECK-NEXT:  storage of 12 elements: how many logical indices read each element (. = none)
// CHECK-NEXT:         0: 1 1 1 1 1 1 1 1 1 1 1 1
// CHECK-EMPTY:
func.func @transpose(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<4x3xf32, strided<[1, 4]>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  return %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
}

// The seed's as_strided((2, 2), (4, 2), storage_offset=0 / 1) over the 12
// elements of a 3x4 tensor: [[1, 3], [5, 7]] reads elements 0, 2, 4, 6 and
// [[2, 4], [6, 8]] reads elements 1, 3, 5, 7 (offset + 4 * i + 2 * j).
// CHECK-LABEL: @as_strided result 0: sizes [2, 2], strides [4, 2], offset 0, f32, a view of argument 0's storage
// CHECK-NEXT:  logical index -> storage offset
// CHECK-NEXT:        |  0  1
// CHECK-NEXT:  ------+------
// CHECK-NEXT:      0 |  0  2
// CHECK-NEXT:      1 |  4  6
// CHECK-NEXT:  storage of 12 elements: how many logical indices read each element (. = none)
// CHECK-NEXT:         0: 1 . 1 . 1 . 1 . . . . .
// CHECK-EMPTY:
// CHECK-NEXT:  @as_strided result 1: sizes [2, 2], strides [4, 2], offset 1, f32, a view of argument 0's storage
// CHECK-NEXT:  logical index -> storage offset
// CHECK-NEXT:        |  0  1
// CHECK-NEXT:  ------+------
// CHECK-NEXT:      0 |  1  3
// CHECK-NEXT:      1 |  5  7
// CHECK-NEXT:  storage of 12 elements: how many logical indices read each element (. = none)
// CHECK-NEXT:         0: . 1 . 1 . 1 . 1 . . . .
// CHECK-EMPTY:
func.func @as_strided(%s: !layout.storage<12xf32>) -> (!layout.tensor<2x2xf32, strided<[4, 2]>>, !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>) {
  %a = layout.as_strided %s [2, 2] strides [4, 2] offset 0 : !layout.storage<12xf32>
  %b = layout.as_strided %s [2, 2] strides [4, 2] offset 1 : !layout.storage<12xf32>
  return %a, %b : !layout.tensor<2x2xf32, strided<[4, 2]>>, !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>
}

// The same views taken from a tensor argument (x.as_strided(...)) read the
// same elements: the offset is absolute in x's storage.
// CHECK-LABEL: @as_strided_of_tensor result 0: sizes [2, 2], strides [4, 2], offset 1, f32, a view of argument 0's storage
// CHECK:       storage of 12 elements: how many logical indices read each element (. = none)
// CHECK-NEXT:         0: . 1 . 1 . 1 . 1 . . . .
func.func @as_strided_of_tensor(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %a = layout.as_strided %t [2, 2] strides [4, 2] offset 1 : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %a : !layout.tensor<2x2xf32, strided<[4, 2], offset: 1>>
}

// expand gives stride 0: both rows read the same three elements, so each is
// read twice.
// CHECK-LABEL: @expand result 0: sizes [2, 3], strides [0, 1], offset 0, f32, a view of argument 0's storage
// CHECK-NEXT:  logical index -> storage offset
// CHECK-NEXT:        |  0  1  2
// CHECK-NEXT:  ------+---------
// CHECK-NEXT:      0 |  0  1  2
// CHECK-NEXT:      1 |  0  1  2
// CHECK-NEXT:  storage of 3 elements: how many logical indices read each element (. = none)
// CHECK-NEXT:         0: 2 2 2
func.func @expand(%x: !layout.tensor<3xf32>) -> !layout.tensor<2x3xf32, strided<[0, 1]>> {
  %e = layout.expand %x [2, 3] : !layout.tensor<3xf32>
  return %e : !layout.tensor<2x3xf32, strided<[0, 1]>>
}

// Overlapping windows: x.unfold(0, 3, 1) reads element k in min(k + 1, 3,
// 5 - k) windows.
// CHECK-LABEL: @unfold result 0: sizes [3, 3], strides [1, 1], offset 0, f32, a view of argument 0's storage
// CHECK-NEXT:  logical index -> storage offset
// CHECK-NEXT:        |  0  1  2
// CHECK-NEXT:  ------+---------
// CHECK-NEXT:      0 |  0  1  2
// CHECK-NEXT:      1 |  1  2  3
// CHECK-NEXT:      2 |  2  3  4
// CHECK-NEXT:  storage of 5 elements: how many logical indices read each element (. = none)
// CHECK-NEXT:         0: 1 2 3 2 1
func.func @unfold(%x: !layout.tensor<5xf32>) -> !layout.tensor<3x3xf32, strided<[1, 1]>> {
  %w = layout.unfold %x dim 0 size 3 step 1 : !layout.tensor<5xf32>
  return %w : !layout.tensor<3x3xf32, strided<[1, 1]>>
}

// Rank 0: x[1][2] reads element 1 * 4 + 2 == 6.
// CHECK-LABEL: @scalar result 0: sizes [], strides [], offset 6, f32, a view of argument 0's storage
// CHECK-NEXT:  logical index -> storage offset
// CHECK:       6
// CHECK:       storage of 12 elements: how many logical indices read each element (. = none)
// CHECK-NEXT:         0: . . . . . . 1 . . . . .
func.func @scalar(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<f32, strided<[], offset: 6>> {
  %r = layout.select %x dim 0 index 1 : !layout.tensor<3x4xf32>
  %s = layout.select %r dim 0 index 2 : !layout.tensor<4xf32, strided<[1], offset: 4>>
  return %s : !layout.tensor<f32, strided<[], offset: 6>>
}

// Rank 1 with a negative stride (flip, ext) and a step: x.flip(0)[::2] reads
// 4, 2, 0.
// CHECK-LABEL: @flip result 0: sizes [3], strides [-2], offset 4, f32, a view of argument 0's storage
// CHECK-NEXT:  logical index -> storage offset
// CHECK-NEXT:        |  0  1  2
// CHECK-NEXT:  ------+---------
// CHECK-NEXT:        |  4  2  0
// CHECK-NEXT:  storage of 5 elements: how many logical indices read each element (. = none)
// CHECK-NEXT:         0: 1 . 1 . 1
func.func @flip(%x: !layout.tensor<5xf32>) -> !layout.tensor<3xf32, strided<[-2], offset: 4>> {
  %f = layout.flip %x [0] : !layout.tensor<5xf32>
  %s = layout.slice %f dim 0 [0 : 5 : 2] : !layout.tensor<5xf32, strided<[-1], offset: 4>>
  return %s : !layout.tensor<3xf32, strided<[-2], offset: 4>>
}

// Rank 3: x.permute(2, 0, 1) of a (2, 3, 4) tensor is (4, 2, 3):(1, 12, 4);
// one grid per index of the leading dim, [k, :, :] starting at element k.
// CHECK-LABEL: @rank3 result 0: sizes [4, 2, 3], strides [1, 12, 4], offset 0, f32, a view of argument 0's storage
// CHECK-NEXT:  logical index -> storage offset
// CHECK-NEXT:  [0, :, :]
// CHECK-NEXT:        |  0  1  2
// CHECK-NEXT:  ------+---------
// CHECK-NEXT:      0 |  0  4  8
// CHECK-NEXT:      1 | 12 16 20
// CHECK-NEXT:  [1, :, :]
// CHECK-NEXT:        |  0  1  2
// CHECK-NEXT:  ------+---------
// CHECK-NEXT:      0 |  1  5  9
// CHECK-NEXT:      1 | 13 17 21
// CHECK-NEXT:  [2, :, :]
// CHECK-NEXT:        |  0  1  2
// CHECK-NEXT:  ------+---------
// CHECK-NEXT:      0 |  2  6 10
// CHECK-NEXT:      1 | 14 18 22
// CHECK-NEXT:  [3, :, :]
// CHECK-NEXT:        |  0  1  2
// CHECK-NEXT:  ------+---------
// CHECK-NEXT:      0 |  3  7 11
// CHECK-NEXT:      1 | 15 19 23
// CHECK-NEXT:  storage of 24 elements: how many logical indices read each element (. = none)
// CHECK-NEXT:         0: 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
// CHECK-NEXT:        16: 1 1 1 1 1 1 1 1
func.func @rank3(%x: !layout.tensor<2x3x4xf32>) -> !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>> {
  %p = layout.permute %x [2, 0, 1] : !layout.tensor<2x3x4xf32>
  return %p : !layout.tensor<4x2x3xf32, strided<[1, 12, 4]>>
}

// A copy's result is new row-major storage.
// CHECK-LABEL: @copy result 0: sizes [3, 2], strides [2, 1], offset 0, f32, new storage
// CHECK-NEXT:  logical index -> storage offset
// CHECK-NEXT:        |  0  1
// CHECK-NEXT:  ------+------
// CHECK-NEXT:      0 |  0  1
// CHECK-NEXT:      1 |  2  3
// CHECK-NEXT:      2 |  4  5
// CHECK-NEXT:  storage of 6 elements: how many logical indices read each element (. = none)
// CHECK-NEXT:         0: 1 1 1 1 1 1
func.func @copy(%x: !layout.tensor<2x3xf32>) -> !layout.tensor<3x2xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2x3xf32>
  %c = layout.contiguous %t : !layout.tensor<3x2xf32, strided<[1, 3]>>
  return %c : !layout.tensor<3x2xf32>
}

// An empty view reads nothing.
// CHECK-LABEL: @empty result 0: sizes [0, 4], strides [4, 1], offset 8, f32, a view of argument 0's storage
// CHECK-NEXT:  logical index -> storage offset
// CHECK-NEXT:    (no elements)
// CHECK-NEXT:  storage of 12 elements: how many logical indices read each element (. = none)
// CHECK-NEXT:         0: . . . . . . . . . . . .
func.func @empty(%x: !layout.tensor<3x4xf32>) -> !layout.tensor<0x4xf32, strided<[4, 1], offset: 8>> {
  %e = layout.slice %x dim 0 [2 : 2 : 1] : !layout.tensor<3x4xf32>
  return %e : !layout.tensor<0x4xf32, strided<[4, 1], offset: 8>>
}

// Large grids are cut at 16 rows and 16 columns.
// CHECK-LABEL: @large result 0: sizes [20, 20], strides [1, 20], offset 0, f32, a view of argument 0's storage
// CHECK-NEXT:  logical index -> storage offset
// CHECK-NEXT:        |   0   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15 ... (20 columns)
// CHECK:          15 |  15  35  55  75  95 115 135 155 175 195 215 235 255 275 295 315
// CHECK-NEXT:     ... (20 rows)
// CHECK-NEXT:  storage of 400 elements: how many logical indices read each element (. = none)
// CHECK:         384: 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
func.func @large(%x: !layout.tensor<20x20xf32>) -> !layout.tensor<20x20xf32, strided<[1, 20]>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<20x20xf32>
  return %t : !layout.tensor<20x20xf32, strided<[1, 20]>>
}
