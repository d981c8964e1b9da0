// RUN: layout-opt %s -split-input-file -verify-diagnostics

// Every case where PyTorch 1.13 raises is a compile-time error at the op (or
// type) that causes it. Unless noted, the pinned text is PyTorch's own
// message for the same call.

//===----------------------------------------------------------------------===//
// Dims out of range (maybe_wrap_dim)
//===----------------------------------------------------------------------===//

// torch.empty(3, 4).transpose(0, 2)
func.func @transpose_dim_too_big(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.transpose' op Dimension out of range (expected to be in range of [-2, 1], but got 2)}}
  %0 = layout.transpose %x 0, 2 : !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(3, 4).transpose(0, -3)
func.func @transpose_dim_too_small(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{Dimension out of range (expected to be in range of [-2, 1], but got -3)}}
  %0 = layout.transpose %x -3, 0 : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @permute_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{Dimension out of range (expected to be in range of [-2, 1], but got 2)}}
  %0 = layout.permute %x [0, 2] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @movedim_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.movedim' op Dimension out of range (expected to be in range of [-2, 1], but got 2)}}
  %0 = layout.movedim %x 0 to 2 : !layout.tensor<3x4xf32>
  return
}

// -----

// unsqueeze wraps against rank + 1.
func.func @unsqueeze_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.unsqueeze' op Dimension out of range (expected to be in range of [-3, 2], but got 3)}}
  %0 = layout.unsqueeze %x dim 3 : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @slice_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.slice' op Dimension out of range (expected to be in range of [-2, 1], but got -3)}}
  %0 = layout.slice %x dim -3 [0 : 1 : 1] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @squeeze_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.squeeze' op Dimension out of range (expected to be in range of [-2, 1], but got 2)}}
  %0 = layout.squeeze %x [2] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @flip_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.flip' op Dimension out of range (expected to be in range of [-2, 1], but got 2)}}
  %0 = layout.flip %x [2] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @unflatten_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.unflatten' op Dimension out of range (expected to be in range of [-2, 1], but got 5)}}
  %0 = layout.unflatten %x dim 5 [1] : !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(3).diagonal(): the default dims 0, 1 do not exist.
func.func @diagonal_rank1(%x: !layout.tensor<3xf32>) {
  // expected-error @+1 {{'layout.diagonal' op Dimension out of range (expected to be in range of [-1, 0], but got 1)}}
  %0 = layout.diagonal %x offset 0 dims 0, 1 : !layout.tensor<3xf32>
  return
}

// -----

func.func @reduce_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.reduce' op Dimension out of range (expected to be in range of [-2, 1], but got 2)}}
  %0 = layout.reduce sum %x dims [0, 2] : !layout.tensor<3x4xf32>
  return
}

// -----

// A rank-0 tensor wraps dims as if it had rank 1: 0 and -1 are fine, 1 is not.
func.func @reduce_rank0_dim_out_of_range(%x: !layout.tensor<f32>) {
  // expected-error @+1 {{'layout.reduce' op Dimension out of range (expected to be in range of [-1, 0], but got 1)}}
  %0 = layout.reduce sum %x dims [1] : !layout.tensor<f32>
  return
}

// -----

func.func @flatten_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.flatten' op Dimension out of range (expected to be in range of [-2, 1], but got 2)}}
  %0 = layout.flatten %x dims 0 to 2 : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @split_dim_out_of_range(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.split' op Dimension out of range (expected to be in range of [-2, 1], but got 2)}}
  %0:2 = layout.split %x dim 2 [2, 2] : !layout.tensor<3x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// permute
//===----------------------------------------------------------------------===//

// -----

func.func @permute_length_mismatch(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 3}}
  %0 = layout.permute %x [1, 0, 2] : !layout.tensor<3x4xf32>
  return
}

// -----

// 0 and -2 are the same dim of a rank-2 tensor.
func.func @permute_duplicate_dims(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.permute' op permute(): duplicate dims are not allowed.}}
  %0 = layout.permute %x [0, -2] : !layout.tensor<3x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// view, reshape, unflatten
//===----------------------------------------------------------------------===//

// -----

// (4, 3):(1, 4) is two contiguous chunks; 12 elements in one dim spans both.
// torch.empty(3, 4).t().view(12)
func.func @view_not_viewable(%x: !layout.tensor<4x3xf32, strided<[1, 4]>>) {
  // expected-error @+1 {{'layout.view' op view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.}}
  %0 = layout.view %x [12] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return
}

// -----

// A row-sliced view (3, 2):(4, 1) cannot merge its rows.
func.func @view_not_viewable_slice(%x: !layout.tensor<3x2xf32, strided<[4, 1], offset: 1>>) {
  // expected-error @+1 {{view size is not compatible with input tensor's size and stride}}
  %0 = layout.view %x [6] : !layout.tensor<3x2xf32, strided<[4, 1], offset: 1>>
  return
}

// -----

func.func @view_two_inferred(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.view' op only one dimension can be inferred}}
  %0 = layout.view %x [-1, -1] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @view_bad_numel(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.view' op shape '[5, -1]' is invalid for input of size 12}}
  %0 = layout.view %x [5, -1] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @view_bad_numel_static(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{shape '[5, 2]' is invalid for input of size 12}}
  %0 = layout.view %x [5, 2] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @view_negative_size(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.view' op invalid shape dimension -2}}
  %0 = layout.view %x [-2, 6] : !layout.tensor<3x4xf32>
  return
}

// -----

// -1 next to a 0 cannot make 12 elements.
// torch.empty(3, 4).view(0, -1)
func.func @view_zero_and_inferred(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.view' op shape '[0, -1]' is invalid for input of size 12}}
  %0 = layout.view %x [0, -1] : !layout.tensor<3x4xf32>
  return
}

// -----

// With 0 elements, -1 next to a 0 could be anything.
// torch.empty(0, 3).view(0, -1)
func.func @view_ambiguous_inferred(%x: !layout.tensor<0x3xf32>) {
  // expected-error @+1 {{'layout.view' op cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified dimension size -1 can be any value and is ambiguous}}
  %0 = layout.view %x [0, -1] : !layout.tensor<0x3xf32>
  return
}

// -----

// torch.empty(2, 0).reshape(-1, 0)
func.func @reshape_ambiguous_inferred(%x: !layout.tensor<2x0xf32>) {
  // expected-error @+1 {{'layout.reshape' op cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified dimension size -1 can be any value and is ambiguous}}
  %0 = layout.reshape %x [-1, 0] : !layout.tensor<2x0xf32>
  return
}

// -----

// reshape copies when it cannot view, but the element count must still match.
func.func @reshape_bad_numel(%x: !layout.tensor<4x3xf32, strided<[1, 4]>>) {
  // expected-error @+1 {{'layout.reshape' op shape '[5, -1]' is invalid for input of size 12}}
  %0 = layout.reshape %x [5, -1] : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return
}

// -----

func.func @reshape_two_inferred(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.reshape' op only one dimension can be inferred}}
  %0 = layout.reshape %x [-1, 2, -1] : !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(3, 4).unflatten(1, (3, 2))
func.func @unflatten_bad_sizes(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.unflatten' op unflatten: Provided sizes [3, 2] don't multiply up to the size of dim 1 (4) in the input tensor}}
  %0 = layout.unflatten %x dim 1 [3, 2] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @unflatten_empty_sizes(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.unflatten' op unflatten: sizes must be non-empty}}
  %0 = layout.unflatten %x dim 1 [] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @unflatten_two_inferred(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.unflatten' op unflatten: only one dimension can be inferred}}
  %0 = layout.unflatten %x dim 1 [-1, -1] : !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(()).unflatten(0, (1,)) (PyTorch capitalizes "Dimension").
func.func @unflatten_rank0(%x: !layout.tensor<f32>) {
  // expected-error @+1 {{'layout.unflatten' op dimension specified as 0 but tensor has no dimensions}}
  %0 = layout.unflatten %x dim 0 [1] : !layout.tensor<f32>
  return
}

// -----

func.func @flatten_start_after_end(%x: !layout.tensor<2x3x4xf32>) {
  // expected-error @+1 {{'layout.flatten' op flatten() has invalid args: start_dim cannot come after end_dim}}
  %0 = layout.flatten %x dims 2 to 1 : !layout.tensor<2x3x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// expand
//===----------------------------------------------------------------------===//

// -----

// torch.empty(1, 3).expand(2, 5)
func.func @expand_non_singleton(%x: !layout.tensor<1x3xf32>) {
  // expected-error @+1 {{'layout.expand' op The expanded size of the tensor (5) must match the existing size (3) at non-singleton dimension 1.  Target sizes: [2, 5].  Tensor sizes: [1, 3]}}
  %0 = layout.expand %x [2, 5] : !layout.tensor<1x3xf32>
  return
}

// -----

// torch.empty(3, 4).expand(4)
func.func @expand_too_few_sizes(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)}}
  %0 = layout.expand %x [4] : !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(3).expand(-1, 3)
func.func @expand_inferred_new_dim(%x: !layout.tensor<3xf32>) {
  // expected-error @+1 {{'layout.expand' op The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0}}
  %0 = layout.expand %x [-1, 3] : !layout.tensor<3xf32>
  return
}

// -----

// PyTorch raises too (an overflow in its size computation).
func.func @expand_negative_size(%x: !layout.tensor<3xf32>) {
  // expected-error @+1 {{'layout.expand' op Trying to create tensor with negative dimension -2: [-2, 3]}}
  %0 = layout.expand %x [-2, 3] : !layout.tensor<3xf32>
  return
}

//===----------------------------------------------------------------------===//
// slice, select, narrow
//===----------------------------------------------------------------------===//

// -----

// torch.ops.aten.slice(x, 1, 0, 4, 0)
func.func @slice_step_zero(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.slice' op slice step must be positive, got 0}}
  %0 = layout.slice %x dim 1 [0 : 4 : 0] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @slice_step_negative(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.slice' op slice step must be positive, got -1}}
  %0 = layout.slice %x dim 1 [: : -1] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @slice_rank0(%x: !layout.tensor<f32>) {
  // expected-error @+1 {{'layout.slice' op slice() cannot be applied to a 0-dim tensor.}}
  %0 = layout.slice %x dim 0 [0 : 1 : 1] : !layout.tensor<f32>
  return
}

// -----

// torch.empty(3, 4).select(0, 3)
func.func @select_index_too_big(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.select' op select(): index 3 out of range for tensor of size [3, 4] at dimension 0}}
  %0 = layout.select %x dim 0 index 3 : !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(3, 4).select(1, -5)
func.func @select_index_too_small(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.select' op select(): index -5 out of range for tensor of size [3, 4] at dimension 1}}
  %0 = layout.select %x dim -1 index -5 : !layout.tensor<3x4xf32>
  return
}

// -----

// A size-0 dim has no index at all.
func.func @select_empty_dim(%x: !layout.tensor<0x4xf32>) {
  // expected-error @+1 {{'layout.select' op select(): index 0 out of range for tensor of size [0, 4] at dimension 0}}
  %0 = layout.select %x dim 0 index 0 : !layout.tensor<0x4xf32>
  return
}

// -----

func.func @select_rank0(%x: !layout.tensor<f32>) {
  // expected-error @+1 {{'layout.select' op select() cannot be applied to a 0-dim tensor.}}
  %0 = layout.select %x dim 0 index 0 : !layout.tensor<f32>
  return
}

// -----

// torch.empty(3, 4).narrow(1, 2, 3)
func.func @narrow_too_long(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.narrow' op start (2) + length (3) exceeds dimension size (4).}}
  %0 = layout.narrow %x dim 1 start 2 length 3 : !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(3, 4).narrow(1, 0, -1)
func.func @narrow_negative_length(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.narrow' op start (0) + length (-1) exceeds dimension size (4).}}
  %0 = layout.narrow %x dim 1 start 0 length -1 : !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(3, 4).narrow(1, 5, 0): start wraps like a dim of size 4.
func.func @narrow_start_too_big(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{Dimension out of range (expected to be in range of [-4, 3], but got 5)}}
  %0 = layout.narrow %x dim 1 start 5 length 0 : !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(3, 4).narrow(1, -5, 1)
func.func @narrow_start_too_small(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{Dimension out of range (expected to be in range of [-4, 3], but got -5)}}
  %0 = layout.narrow %x dim 1 start -5 length 1 : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @narrow_rank0(%x: !layout.tensor<f32>) {
  // expected-error @+1 {{'layout.narrow' op narrow() cannot be applied to a 0-dim tensor.}}
  %0 = layout.narrow %x dim 0 start 0 length 1 : !layout.tensor<f32>
  return
}

//===----------------------------------------------------------------------===//
// squeeze, flip, diagonal, unfold
//===----------------------------------------------------------------------===//

// -----

func.func @squeeze_repeated_dim(%x: !layout.tensor<1x3x1xf32>) {
  // expected-error @+1 {{'layout.squeeze' op dim 0 appears multiple times in the list of dims}}
  %0 = layout.squeeze %x [0, -3] : !layout.tensor<1x3x1xf32>
  return
}

// -----

// torch.empty(3, 4).flip(0, -2)
func.func @flip_repeated_dim(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.flip' op dim 0 appears multiple times in the list of dims}}
  %0 = layout.flip %x [0, -2] : !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(3, 4).diagonal(0, 1, -1)
func.func @diagonal_identical_dims(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.diagonal' op diagonal dimensions cannot be identical 1, -1}}
  %0 = layout.diagonal %x offset 0 dims 1, -1 : !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(3, 4).unfold(1, 5, 1)
func.func @unfold_size_too_big(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.unfold' op maximum size for tensor at dimension 1 is 4 but size is 5}}
  %0 = layout.unfold %x dim 1 size 5 step 1 : !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(3, 4).unfold(1, 2, 0)
func.func @unfold_step_zero(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.unfold' op step is 0 but must be > 0}}
  %0 = layout.unfold %x dim 1 size 2 step 0 : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @unfold_step_negative(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.unfold' op step is -2 but must be > 0}}
  %0 = layout.unfold %x dim 1 size 2 step -2 : !layout.tensor<3x4xf32>
  return
}

// -----

// PyTorch raises too (its storage-size computation overflows).
func.func @unfold_negative_size(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.unfold' op Trying to create tensor with negative dimension -1}}
  %0 = layout.unfold %x dim 1 size -1 step 1 : !layout.tensor<3x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// split
//===----------------------------------------------------------------------===//

// -----

// torch.empty(3, 4).split([-1, 5], 1)
func.func @split_negative_size(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.split' op split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[-1, 5]}}
  %0:2 = layout.split %x dim 1 [-1, 5] : !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(3, 4).split([1, 2], 1)
func.func @split_sizes_too_small(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.split' op split_with_sizes expects split_sizes to sum exactly to 4 (input tensor's size at dimension 1), but got split_sizes=[1, 2]}}
  %0:2 = layout.split %x dim 1 [1, 2] : !layout.tensor<3x4xf32>
  return
}

// -----

// Sizes past the end get PyTorch's "sum exactly to" message too:
// torch.empty(3, 4).split([3, 3], 1).
func.func @split_sizes_too_big(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{split_with_sizes expects split_sizes to sum exactly to 4 (input tensor's size at dimension 1), but got split_sizes=[3, 3]}}
  %0:2 = layout.split %x dim 1 [3, 3] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @split_rank0(%x: !layout.tensor<f32>) {
  // expected-error @+1 {{'layout.split' op split expects at least a 1-dimensional tensor}}
  %0 = layout.split %x dim 0 [1] : !layout.tensor<f32>
  return
}

//===----------------------------------------------------------------------===//
// as_strided
//===----------------------------------------------------------------------===//

// -----

// 1 + 2 * 4 + 3 * 1 = 12 is past the last element (11) of 12 f32 (48 bytes).
// torch.empty(12).as_strided((3, 4), (4, 1), 1): "requiring a storage size
// of 52 are out of bounds for storage of size 48"
func.func @as_strided_out_of_bounds(%s: !layout.storage<12xf32>) {
  // expected-error @+1 {{'layout.as_strided' op as_strided: sizes [3, 4], strides [4, 1] and storage offset 1 need a storage of 13 elements (52 bytes), but the storage has 12 elements (48 bytes); out of bounds}}
  %0 = layout.as_strided %s [3, 4] strides [4, 1] offset 1 : !layout.storage<12xf32>
  return
}

// -----

// The last element reached is INT64_MAX: its count does not fit in int64.
func.func @as_strided_last_element_int64_max(%s: !layout.storage<12xf32>) {
  // expected-error @+1 {{as_strided: sizes [2], strides [9223372036854775807] and storage offset 0 need a storage of more than 9223372036854775807 elements, but the storage has 12 elements (48 bytes); out of bounds}}
  %0 = layout.as_strided %s [2] strides [9223372036854775807] offset 0 : !layout.storage<12xf32>
  return
}

// -----

// A tensor argument's storage is exactly what its view reaches: (4):(1)+4
// reaches elements 4..7, a storage of 8 elements of 2 bytes.
func.func @as_strided_tensor_out_of_bounds(%x: !layout.tensor<4xf16, strided<[1], offset: 4>>) {
  // expected-error @+1 {{as_strided: sizes [5], strides [1] and storage offset 4 need a storage of 9 elements (18 bytes), but the storage has 8 elements (16 bytes); out of bounds}}
  %0 = layout.as_strided %x [5] strides [1] offset 4 : !layout.tensor<4xf16, strided<[1], offset: 4>>
  return
}

// -----

// Through a view, the storage is still the argument's (12 x i64 = 96 bytes).
func.func @as_strided_through_view_out_of_bounds(%x: !layout.tensor<3x4xi64>) {
  %v = layout.select %x dim 0 index 1 : !layout.tensor<3x4xi64>
  // expected-error @+1 {{as_strided: sizes [13], strides [1] and storage offset 0 need a storage of 13 elements (104 bytes), but the storage has 12 elements (96 bytes); out of bounds}}
  %0 = layout.as_strided %v [13] strides [1] offset 0 : !layout.tensor<4xi64, strided<[1], offset: 4>>
  return
}

// -----

// A clone is a new storage of exactly its elements (i1 counts 1 byte).
func.func @as_strided_clone_out_of_bounds(%x: !layout.tensor<3x4xi1, strided<[1, 3]>>) {
  %c = layout.clone %x : !layout.tensor<3x4xi1, strided<[1, 3]>>
  // expected-error @+1 {{as_strided: sizes [2, 2], strides [12, 1] and storage offset 0 need a storage of 14 elements (14 bytes), but the storage has 12 elements (12 bytes); out of bounds}}
  %0 = layout.as_strided %c [2, 2] strides [12, 1] offset 0 : !layout.tensor<3x4xi1, strided<[1, 3]>>
  return
}

// -----

// A zero-size storage holds nothing: torch.empty(0).as_strided((1,), (1,), 0).
func.func @as_strided_empty_storage(%s: !layout.storage<0xf32>) {
  // expected-error @+1 {{need a storage of 1 elements (4 bytes), but the storage has 0 elements (0 bytes); out of bounds}}
  %0 = layout.as_strided %s [1] strides [1] offset 0 : !layout.storage<0xf32>
  return
}

// -----

// (ext) A negative stride may not walk before the start of the storage:
// 1 + 2 * -1 = -1.
func.func @as_strided_before_start(%s: !layout.storage<12xf64>) {
  // expected-error @+1 {{'layout.as_strided' op as_strided: sizes [3], strides [-1] and storage offset 1 reach storage element -1, before the start of the storage}}
  %0 = layout.as_strided %s [3] strides [-1] offset 1 : !layout.storage<12xf64>
  return
}

// -----

func.func @as_strided_negative_size(%s: !layout.storage<12xf32>) {
  // expected-error @+1 {{'layout.as_strided' op Trying to create tensor with negative dimension -1: [-1, 4]}}
  %0 = layout.as_strided %s [-1, 4] strides [4, 1] offset 0 : !layout.storage<12xf32>
  return
}

// -----

// torch.empty(12).as_strided((3, 4), (4, 1), -1)
func.func @as_strided_negative_offset(%s: !layout.storage<12xf32>) {
  // expected-error @+1 {{'layout.as_strided' op Tensor: invalid storage offset -1}}
  %0 = layout.as_strided %s [3, 4] strides [4, 1] offset -1 : !layout.storage<12xf32>
  return
}

// -----

// torch.empty(12).as_strided((3, 4), (4,), 0)
func.func @as_strided_length_mismatch(%s: !layout.storage<12xf32>) {
  // expected-error @+1 {{'layout.as_strided' op mismatch in length of strides and shape: 2 sizes but 1 strides}}
  %0 = layout.as_strided %s [3, 4] strides [4] offset 0 : !layout.storage<12xf32>
  return
}

// -----

// The dynamic marker (i64 min) spelled as a literal is refused where it is
// written: it would read as a '?' entry with no value.
func.func @as_strided_dynamic_marker_without_value(%s: !layout.storage<12xf32>) {
  // expected-error @+1 {{-9223372036854775808 is out of range: that value marks an entry given as an SSA value}}
  %0 = layout.as_strided %s [-9223372036854775808] strides [1] offset 0 : !layout.storage<12xf32>
  return
}

// -----

func.func @as_strided_dynamic_stride_marker_without_value(%s: !layout.storage<12xf32>) {
  // expected-error @+1 {{-9223372036854775808 is out of range: that value marks an entry given as an SSA value}}
  %0 = layout.as_strided %s [3] strides [-9223372036854775808] offset 0 : !layout.storage<12xf32>
  return
}

// -----

func.func @as_strided_dynamic_offset_marker_without_value(%s: !layout.storage<12xf32>) {
  // expected-error @+1 {{-9223372036854775808 is out of range: that value marks an offset given as an SSA value}}
  %0 = layout.as_strided %s [3] strides [1] offset -9223372036854775808 : !layout.storage<12xf32>
  return
}

//===----------------------------------------------------------------------===//
// i64 overflow
//===----------------------------------------------------------------------===//

// -----

// 2^62 * 4 = 2^64 elements.
func.func @expand_numel_overflow(%x: !layout.tensor<1xf32>) {
  // expected-error @+1 {{'layout.expand' op integer overflow: the number of elements of [4611686018427387904, 4] does not fit in a signed 64-bit integer}}
  %0 = layout.expand %x [4611686018427387904, 4] : !layout.tensor<1xf32>
  return
}

// -----

// The last element is at (2 - 1) * 2^62 + (2 - 1) * 2^62 = 2^63.
func.func @as_strided_extent_overflow(%s: !layout.storage<?xf32>) {
  // expected-error @+1 {{'layout.as_strided' op integer overflow: the storage extent of sizes [2, 2] and strides [4611686018427387904, 4611686018427387904] does not fit in a signed 64-bit integer}}
  %0 = layout.as_strided %s [2, 2] strides [4611686018427387904, 4611686018427387904] offset 0 : !layout.storage<?xf32>
  return
}

// -----

func.func @as_strided_numel_overflow(%s: !layout.storage<?xf32>) {
  // expected-error @+1 {{integer overflow: the number of elements of [4611686018427387904, 4] does not fit in a signed 64-bit integer}}
  %0 = layout.as_strided %s [4611686018427387904, 4] strides [0, 0] offset 0 : !layout.storage<?xf32>
  return
}

// -----

func.func @view_numel_overflow(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.view' op integer overflow: the number of elements of [4611686018427387904, 4, -1] does not fit in a signed 64-bit integer}}
  %0 = layout.view %x [4611686018427387904, 4, -1] : !layout.tensor<3x4xf32>
  return
}

// -----

// A type whose storage size in bytes overflows i64 (PyTorch: "Storage size
// calculation overflowed"): 2^62 + 1 elements of 4 bytes.
// expected-error @+1 {{integer overflow: the storage size of layout (2):(4611686018427387904)+0 in bytes (4611686018427387905 x 4) does not fit in a signed 64-bit integer}}
func.func @storage_bytes_overflow(%x: !layout.tensor<2xf32, strided<[4611686018427387904]>>) {
  return
}

// -----

// The last element is INT64_MAX itself: the element count, one more, does
// not fit (once a signed overflow in the type verifier; found by fuzz/
// layoutc-fuzz-codegen).
// expected-error @+1 {{integer overflow: layout (2, 2):(9223372036854775806, 1)+0 reaches storage element 9223372036854775807, so its storage size does not fit in a signed 64-bit integer}}
func.func @storage_last_element_int64_max(%x: !layout.tensor<2x2xf32, strided<[9223372036854775806, 1]>>) {
  return
}

// -----

// unsqueeze before dim 0 needs stride 2 * 2^62 = 2^63. (i8: the operand's
// 2^62 + 1 bytes of storage still fit in i64.)
func.func @unsqueeze_stride_overflow(%x: !layout.tensor<2xi8, strided<[4611686018427387904]>>) {
  // expected-error @+1 {{'layout.unsqueeze' op integer overflow: the unsqueezed stride does not fit in a signed 64-bit integer}}
  %0 = layout.unsqueeze %x dim 0 : !layout.tensor<2xi8, strided<[4611686018427387904]>>
  return
}

//===----------------------------------------------------------------------===//
// Memory formats
//===----------------------------------------------------------------------===//

// -----

// torch.empty(2, 3, 4).contiguous(memory_format=torch.channels_last)
func.func @contiguous_channels_last_rank3(%x: !layout.tensor<2x3x4xf32>) {
  // expected-error @+1 {{'layout.contiguous' op required rank 4 tensor to use channels_last format}}
  %0 = layout.contiguous %x channels_last : !layout.tensor<2x3x4xf32>
  return
}

// -----

func.func @contiguous_channels_last_3d_rank4(%x: !layout.tensor<2x3x4x5xf32>) {
  // expected-error @+1 {{'layout.contiguous' op required rank 5 tensor to use channels_last_3d format}}
  %0 = layout.contiguous %x channels_last_3d : !layout.tensor<2x3x4x5xf32>
  return
}

// -----

// torch.empty(2, 3, 4).clone(memory_format=torch.channels_last)
func.func @clone_channels_last_rank3(%x: !layout.tensor<2x3x4xf32>) {
  // expected-error @+1 {{'layout.clone' op required rank 4 tensor to use channels_last format}}
  %0 = layout.clone %x channels_last : !layout.tensor<2x3x4xf32>
  return
}

// -----

func.func @clone_channels_last_3d_rank4(%x: !layout.tensor<2x3x4x5xf32>) {
  // expected-error @+1 {{'layout.clone' op required rank 5 tensor to use channels_last_3d format}}
  %0 = layout.clone %x channels_last_3d : !layout.tensor<2x3x4x5xf32>
  return
}

// -----

// PyTorch raises for a non-contiguous operand: "preserve memory format is
// unsupported by the contiguous operator"; the language rejects the keyword.
func.func @contiguous_preserve(%x: !layout.tensor<4x3xf32, strided<[1, 4]>>) {
  // expected-error @+1 {{'layout.contiguous' op preserve}}
  %0 = layout.contiguous %x preserve : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// -----

// torch.empty(3, 4, dtype=torch.int32).mean(1)
func.func @mean_of_integers(%x: !layout.tensor<3x4xi32>) {
  // expected-error @+1 {{'layout.reduce' op mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: i32}}
  %0 = layout.reduce mean %x dims [1] : !layout.tensor<3x4xi32>
  return
}

// -----

func.func @mean_of_bool(%x: !layout.tensor<3x4xi1>) {
  // expected-error @+1 {{mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: i1}}
  %0 = layout.reduce mean %x dims [] : !layout.tensor<3x4xi1>
  return
}

// -----

// argmax takes one dim (or none).
func.func @argmax_two_dims(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.reduce' op argmax() reduces one dim or all of them; got dims [0, 1]}}
  %0 = layout.reduce argmax %x dims [0, 1] : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @argmin_two_dims(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.reduce' op argmin() reduces one dim or all of them; got dims [0, 1]}}
  %0 = layout.reduce argmin %x dims [0, 1] keepdim : !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(3, 0).amax(1)
func.func @amax_empty_dim(%x: !layout.tensor<3x0xf32>) {
  // expected-error @+1 {{'layout.reduce' op amax(): Expected reduction dim 1 to have non-zero size.}}
  %0 = layout.reduce amax %x dims [1] : !layout.tensor<3x0xf32>
  return
}

// -----

// amax/amin name the dim as written (torch.empty(0, 3).amin(-2)).
func.func @amin_empty_dim(%x: !layout.tensor<0x3xf32>) {
  // expected-error @+1 {{'layout.reduce' op amin(): Expected reduction dim -2 to have non-zero size.}}
  %0 = layout.reduce amin %x dims [-2] keepdim : !layout.tensor<0x3xf32>
  return
}

// -----

// torch.empty(3, 0).argmax(1)
func.func @argmax_empty_dim(%x: !layout.tensor<3x0xf32>) {
  // expected-error @+1 {{'layout.reduce' op argmax(): Expected reduction dim 1 to have non-zero size.}}
  %0 = layout.reduce argmax %x dims [1] : !layout.tensor<3x0xf32>
  return
}

// -----

// All dims of an empty tensor (torch.empty(3, 0).amax()).
func.func @amax_all_dims_empty(%x: !layout.tensor<3x0xf32>) {
  // expected-error @+1 {{'layout.reduce' op amax(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.}}
  %0 = layout.reduce amax %x dims [] : !layout.tensor<3x0xf32>
  return
}

// -----

// argmax's message stops earlier (torch.empty(3, 0).argmax()).
func.func @argmax_all_dims_empty(%x: !layout.tensor<3x0xf32>) {
  // expected-error @+1 {{'layout.reduce' op argmax(): Expected reduction dim to be specified for input.numel() == 0.}}
  %0 = layout.reduce argmax %x dims [] : !layout.tensor<3x0xf32>
  return
}

// -----

// The first empty dim as written (torch.empty(2, 0, 0).amax((2, 1))).
func.func @amax_empty_dims_order(%x: !layout.tensor<2x0x0xf32>) {
  // expected-error @+1 {{'layout.reduce' op amax(): Expected reduction dim 2 to have non-zero size.}}
  %0 = layout.reduce amax %x dims [2, 1] : !layout.tensor<2x0x0xf32>
  return
}

// -----

// torch.empty(3, 4).sum((0, 0))
func.func @reduce_repeated_dim(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.reduce' op dim 0 appears multiple times in the list of dims}}
  %0 = layout.reduce sum %x dims [0, -2] : !layout.tensor<3x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{unsupported element type 'f8E4M3FN'; expected one of i1, i8, i16, i32, i64, ui8, f16, bf16, f32, f64}}
func.func @tensor_f8(%x: !layout.tensor<3x4xf8E4M3FN>) {
  return
}

// -----

// expected-error @+1 {{unsupported element type 'i4'}}
func.func @tensor_i4(%x: !layout.tensor<2xi4>) {
  return
}

// -----

// Only signless integers (and ui8) are supported.
// expected-error @+1 {{unsupported element type 'si8'}}
func.func @storage_si8(%x: !layout.storage<2xsi8>) {
  return
}

// -----

// expected-error @+1 {{unsupported element type 'ui16'}}
func.func @storage_ui16(%x: !layout.storage<2xui16>) {
  return
}

// -----

// expected-error @+1 {{unsupported element type 'complex<f32>'}}
func.func @tensor_complex(%x: !layout.tensor<2xcomplex<f32>>) {
  return
}

// -----

// expected-error @+1 {{unsupported element type 'index'}}
func.func @tensor_index(%x: !layout.tensor<2xindex>) {
  return
}

// -----

func.func @to_unsupported_dtype(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.to' op unsupported dtype i4; expected one of i1, i8, i16, i32, i64, ui8, f16, bf16, f32, f64}}
  %0 = layout.to %x i4 : !layout.tensor<3x4xf32>
  return
}

// -----

func.func @to_f8(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.to' op unsupported dtype f8E5M2}}
  %0 = layout.to %x f8E5M2 : !layout.tensor<3x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// Malformed types (verifier errors; syntax errors are in parse-errors.mlir)
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{expected one storage size (e.g. 24xf32 or ?xf32), got 2 sizes}}
func.func @storage_two_sizes(%x: !layout.storage<3x4xf32>) {
  return
}

// -----

// expected-error @+1 {{expected one storage size (e.g. 24xf32 or ?xf32), got 0 sizes}}
func.func @storage_no_size(%x: !layout.storage<f32>) {
  return
}

// -----

// expected-error @+1 {{expected 2 strides for a rank-2 tensor, got 1}}
func.func @tensor_wrong_stride_count(%x: !layout.tensor<3x4xf32, strided<[1]>>) {
  return
}

// -----

// expected-error @+1 {{expected 0 strides for a rank-0 tensor, got 1}}
func.func @tensor_rank0_with_stride(%x: !layout.tensor<f32, strided<[1]>>) {
  return
}

// -----

// expected-error @+1 {{storage offset must be >= 0, got -1}}
func.func @tensor_negative_offset(%x: !layout.tensor<3x4xf32, strided<[4, 1], offset: -1>>) {
  return
}

// -----

// (ext) negative strides need an offset that keeps every element in the
// storage: (3, 4):(-4, 1)+0 reaches element 2 * -4 = -8.
// expected-error @+1 {{layout (3, 4):(-4, 1)+0 reaches storage element -8, before the start of its storage}}
func.func @tensor_negative_stride_before_start(%x: !layout.tensor<3x4xf32, strided<[-4, 1]>>) {
  return
}

// -----

// expected-error @+1 {{expected a strided<[...], offset: ...> layout, got affine_map<(d0, d1) -> (d0, d1)>}}
func.func @tensor_affine_layout(%x: !layout.tensor<3x4xf32, affine_map<(d0, d1) -> (d0, d1)>>) {
  return
}

// -----

// expected-error @+1 {{integer overflow: the number of elements of [4611686018427387904, 4] does not fit in a signed 64-bit integer}}
func.func @tensor_numel_overflow(%x: !layout.tensor<4611686018427387904x4xf32>) {
  return
}

// -----

// expected-error @+1 {{integer overflow: the storage extent of sizes [2, 2] and strides [4611686018427387904, 4611686018427387904] does not fit in a signed 64-bit integer}}
func.func @tensor_extent_overflow(%x: !layout.tensor<2x2xf32, strided<[4611686018427387904, 4611686018427387904]>>) {
  return
}

//===----------------------------------------------------------------------===//
// Declared result types
//===----------------------------------------------------------------------===//

// -----

func.func @declared_type_mismatch(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.transpose' op declared result type '!layout.tensor<3x4xf32>' does not match the inferred type '!layout.tensor<4x3xf32, strided<[1, 4]>>'}}
  %0 = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32>
  return
}

// -----

// Only the offset differs.
func.func @declared_type_offset_mismatch(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{declared result type '!layout.tensor<4xf32, strided<[1], offset: 4>>' does not match the inferred type '!layout.tensor<4xf32, strided<[1], offset: 8>>'}}
  %0 = layout.select %x dim 0 index 2 : !layout.tensor<3x4xf32> -> !layout.tensor<4xf32, strided<[1], offset: 4>>
  return
}

// -----

// Only the element type differs: an integer sum is i64.
func.func @declared_type_dtype_mismatch(%x: !layout.tensor<3x4xi32>) {
  // expected-error @+1 {{'layout.reduce' op declared result type '!layout.tensor<4xi32>' does not match the inferred type '!layout.tensor<4xi64>'}}
  %0 = layout.reduce sum %x dims [0] : !layout.tensor<3x4xi32> -> !layout.tensor<4xi32>
  return
}

// -----

func.func @declared_types_count_mismatch(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.split' op declared result type '!layout.tensor<3x2xf32, strided<[4, 1]>>' does not match the inferred types '!layout.tensor<3x2xf32, strided<[4, 1]>>', '!layout.tensor<3x2xf32, strided<[4, 1], offset: 2>>'}}
  %0:2 = layout.split %x dim 1 [2, 2] : !layout.tensor<3x4xf32> -> !layout.tensor<3x2xf32, strided<[4, 1]>>
  return
}

// -----

// In the generic form the result type is checked against the inferred one.
func.func @generic_result_type_mismatch(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+2 {{'layout.transpose' op inferred type(s) '!layout.tensor<4x3xf32, strided<[1, 4]>>' are incompatible with return type(s) of operation '!layout.tensor<3x4xf32>'}}
  // expected-error @+1 {{'layout.transpose' op failed to infer returned types}}
  %0 = "layout.transpose"(%x) {dim0 = 0 : i64, dim1 = 1 : i64} : (!layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf32>
  return
}

// -----

// The generic form runs the same inference, so its errors are the same.
func.func @generic_inference_error(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+2 {{'layout.transpose' op Dimension out of range (expected to be in range of [-2, 1], but got 5)}}
  // expected-error @+1 {{'layout.transpose' op failed to infer returned types}}
  %0 = "layout.transpose"(%x) {dim0 = 0 : i64, dim1 = 5 : i64} : (!layout.tensor<3x4xf32>) -> !layout.tensor<3x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// copy, materialize
//===----------------------------------------------------------------------===//

// -----

// torch.empty(3, 4).copy_(torch.empty(3))
func.func @copy_not_broadcastable(%src: !layout.tensor<3xf32>, %dst: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.copy' op The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1}}
  layout.copy %src, %dst : !layout.tensor<3xf32>, !layout.tensor<3x4xf32>
  return
}

// -----

// torch.empty(3, 4).copy_(torch.empty(2, 3, 4))
func.func @copy_src_rank_too_big(%src: !layout.tensor<2x3x4xf32>, %dst: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.copy' op output with shape [3, 4] doesn't match the broadcast shape [2, 3, 4]}}
  layout.copy %src, %dst : !layout.tensor<2x3x4xf32>, !layout.tensor<3x4xf32>
  return
}

// -----

// With dynamic sizes, a broadcast that fails for every size is an error now
// (one that fails for some sizes is a run-time check).
func.func @copy_dynamic(%src: !layout.tensor<?x2xf32>, %dst: !layout.tensor<?x3xf32>) {
  // expected-error @+1 {{'layout.copy' op The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1}}
  layout.copy %src, %dst : !layout.tensor<?x2xf32>, !layout.tensor<?x3xf32>
  return
}

// -----

func.func @materialize_sizes_mismatch(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.materialize' op result sizes [4, 3] must equal the operand sizes [3, 4]}}
  %0 = layout.materialize %x {origin = "layout.contiguous", reason = "r"} : !layout.tensor<3x4xf32> -> !layout.tensor<4x3xf32>
  return
}

// -----

func.func @materialize_overlapping_result(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.materialize' op result layout (3, 4):(0, 1)+0 must be non-overlapping and dense with offset 0 (a new storage)}}
  %0 = layout.materialize %x {origin = "layout.contiguous", reason = "r"} : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32, strided<[0, 1]>>
  return
}

// -----

func.func @materialize_sparse_result(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.materialize' op result layout (3, 4):(8, 1)+0 must be non-overlapping and dense with offset 0 (a new storage)}}
  %0 = layout.materialize %x {origin = "layout.contiguous", reason = "r"} : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32, strided<[8, 1]>>
  return
}

// -----

func.func @materialize_offset_result(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.materialize' op result layout (3, 4):(4, 1)+2 must be non-overlapping and dense with offset 0 (a new storage)}}
  %0 = layout.materialize %x {origin = "layout.contiguous", reason = "r"} : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32, strided<[4, 1], offset: 2>>
  return
}

// -----

func.func @materialize_missing_reason(%x: !layout.tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.materialize' op requires attribute 'reason'}}
  %0 = layout.materialize %x {origin = "layout.contiguous"} : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// Operands that are not layout tensors
//===----------------------------------------------------------------------===//

// -----

func.func @builtin_tensor_operand(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.transpose' op expected a !layout.tensor operand, got tensor<3x4xf32>}}
  %0 = layout.transpose %x 0, 1 : tensor<3x4xf32>
  return
}

// -----

// as_strided takes a storage or a tensor; any other operand type is an error
// (it once crashed inference, which runs before operand constraints are
// verified; found by fuzz/ layoutc-fuzz-pipeline).
func.func @as_strided_builtin_operand(%x: tensor<12xf32>) {
  // expected-error @+1 {{'layout.as_strided' op expected a !layout.storage or !layout.tensor operand, got tensor<12xf32>}}
  %0 = layout.as_strided %x [3, 4] strides [4, 1] offset 0 : tensor<12xf32>
  return
}

// -----

// A forward reference takes the type written after ':'.
func.func @as_strided_forward_reference() {
  // expected-error @+1 {{'layout.as_strided' op expected a !layout.storage or !layout.tensor operand, got ui8}}
  %0 = layout.as_strided %later [3, 4] strides [4, 1] offset 0 : ui8
  %later = layout.as_strided %0 [1] strides [1] offset 0 : !layout.tensor<3x4xui8>
  return
}

// -----

// Only as_strided views a storage directly.
func.func @storage_operand(%s: !layout.storage<12xf32>) {
  // expected-error @+1 {{'layout.view' op expected a !layout.tensor operand, got !layout.storage<12xf32>}}
  %0 = layout.view %s [3, 4] : !layout.storage<12xf32>
  return
}

// -----

func.func @copy_storage_operand(%s: !layout.storage<12xf32>, %t: !layout.tensor<12xf32>) {
  // expected-error @+1 {{'layout.copy' op operand #0 must be layout tensor, but got '!layout.storage<12xf32>'}}
  layout.copy %s, %t : !layout.storage<12xf32>, !layout.tensor<12xf32>
  return
}

//===----------------------------------------------------------------------===//
// Dynamic operands: what no run-time size can make valid (dynamic.mlir has
// the ones that are accepted)
//===----------------------------------------------------------------------===//

// -----

// x[3] for x of sizes (n, 4): at least 4 rows are needed, a run-time check;
// x[:, 5] fails for every n.
func.func @select_dynamic_operand_static_dim(%x: !layout.tensor<?x4xf32>) {
  // expected-error @+1 {{'layout.select' op select(): index 5 out of range for tensor of size [arg0[0], 4] at dimension 1}}
  %0 = layout.select %x dim 1 index 5 : !layout.tensor<?x4xf32>
  return
}

// -----

func.func @squeeze_dynamic_dim(%x: !layout.tensor<?x4xf32>) {
  // expected-error @+1 {{'layout.squeeze' op squeeze: whether dim 0 (size arg0[0]) is removed depends on its run-time size, but the result's rank must be known at compile time; select or view it instead}}
  %0 = layout.squeeze %x [0] : !layout.tensor<?x4xf32>
  return
}

// -----

func.func @expand_dynamic_never(%x: !layout.tensor<?x3xf32>) {
  // expected-error @+1 {{'layout.expand' op The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  Target sizes: [-1, 4].  Tensor sizes: [arg0[0], 3]}}
  %0 = layout.expand %x [-1, 4] : !layout.tensor<?x3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Result types whose bytes do not fit in int64_t
//===----------------------------------------------------------------------===//

// A view the layout rules accept can still need more bytes than int64_t
// counts; its result type is an error, as a declared type of that layout is
// (these once asserted, or made an invalid type in release builds; found by
// fuzz/ layoutc-fuzz-pipeline).

// torch.as_strided(torch.empty(12), (2**63 - 10**18,), (0,)).
func.func @as_strided_bytes(%s: !layout.storage<12xf32>) {
  // expected-error @+1 {{'layout.as_strided' op result type: integer overflow: the storage size of layout (8446744073709551615):(0)+0 in bytes (8446744073709551615 x 4) does not fit in a signed 64-bit integer}}
  %0 = layout.as_strided %s [8446744073709551615] strides [0] offset 0 : !layout.storage<12xf32>
  return
}

// -----

func.func @expand_bytes(%x: !layout.tensor<1xf64>) {
  // expected-error @+1 {{'layout.expand' op result type: integer overflow: the storage size of layout (2305843009213693952):(0)+0 in bytes (2305843009213693952 x 8) does not fit in a signed 64-bit integer}}
  %0 = layout.expand %x [2305843009213693952] : !layout.tensor<1xf64>
  return
}

// -----

// 2^61 f16 through a stride 0 fit; the dense f64 copy does not.
func.func @to_widens(%x: !layout.tensor<1xf16>) {
  %0 = layout.expand %x [2305843009213693952] : !layout.tensor<1xf16>
  // expected-error @+1 {{'layout.to' op result type: integer overflow: the storage size of layout (2305843009213693952):(1)+0 in bytes (2305843009213693952 x 8) does not fit in a signed 64-bit integer}}
  %1 = layout.to %0 f64 : !layout.tensor<2305843009213693952xf16, strided<[0]>>
  return
}

// -----

// An integer sum is i64: 8 bytes for each of 2^61 outputs.
func.func @reduce_widens(%x: !layout.tensor<1x1xi8>) {
  %0 = layout.expand %x [2, 2305843009213693952] : !layout.tensor<1x1xi8>
  // expected-error @+1 {{'layout.reduce' op result type: integer overflow: the storage size of layout (2305843009213693952):(1)+0 in bytes (2305843009213693952 x 8) does not fit in a signed 64-bit integer}}
  %1 = layout.reduce sum %0 dims [0] : !layout.tensor<2x2305843009213693952xi8, strided<[0, 0]>>
  return
}

// -----

// An argument's name for generated entry points (layoutc sets it from `%x`)
// is a string.
// expected-error @+1 {{'layout.name' of argument #0 must be a string, got 3 : i64}}
func.func @arg_name_not_a_string(%x: !layout.tensor<4xf32> {layout.name = 3}) {
  return
}

// -----

// A dynamic value that is its own operand (op verification runs before
// dominance is checked) is an error, not an endless derivation.
func.func @dynamic_own_operand(%x: !layout.tensor<?x5xf32>) {
  // expected-error @+2 {{'layout.contiguous' op failed to infer returned types}}
  // expected-error @+1 {{'layout.contiguous' op the layout of this value depends on itself: an operand is defined by its own use}}
  %0 = layout.contiguous %0 : !layout.tensor<?x4xf32>
  return
}

// -----

// A cycle through two ops is found the same way.
func.func @dynamic_cycle(%x: !layout.tensor<?x5xf32>) {
  // expected-error @+2 {{'layout.transpose' op failed to infer returned types}}
  // expected-error @+1 {{'layout.transpose' op the layout of this value depends on itself: an operand is defined by its own use}}
  %0 = layout.transpose %1 0, 1 : !layout.tensor<?x5xf32, strided<[1, ?]>>
  %1 = layout.transpose %0 0, 1 : !layout.tensor<5x?xf32, strided<[?, 1]>>
  return
}

// -----

// A forward reference of another type gets the operand check's error, also
// where the result's element type comes from the operand (split).
func.func @split_forward_reference_non_tensor() {
  // expected-error @+1 {{'layout.split' op expected a !layout.tensor operand, got i16}}
  %0:2 = layout.split %x dim 1 [0, 2] : i16
  %x = layout.view %0#0 [2] : !layout.tensor<2xf32>
  return
}
