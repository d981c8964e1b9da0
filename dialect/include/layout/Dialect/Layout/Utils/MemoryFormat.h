//===- MemoryFormat.h - Memory formats and contiguity -----------*- C++ -*-===//
//
// PyTorch's memory formats (contiguous, channels_last, channels_last_3d)
// and its contiguity predicates: the strides of a new tensor in a format,
// whether a layout is contiguous in one, and which one its strides suggest.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_MEMORYFORMAT_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_MEMORYFORMAT_H

#include "layout/Dialect/Layout/Utils/StridedLayout.h"

namespace mlir {
namespace layout {

//===----------------------------------------------------------------------===//
// Memory formats and contiguity (c10/core/TensorImpl.cpp, MemoryFormat.h)
//===----------------------------------------------------------------------===//

enum class MemoryFormat { Contiguous, ChannelsLast, ChannelsLast3d, Preserve };
llvm::StringRef stringifyMemoryFormat(MemoryFormat format);

/// Row-major strides; size-0 dims count as 1 (PyTorch's empty_tensor_restride):
/// (2, 0, 3) -> (3, 3, 1). Errors on overflow.
Fallible<Dims> contiguousStrides(llvm::ArrayRef<int64_t> sizes);
/// Row-major strides where known: a stride is kDynamic when some size
/// inside it is (or the product overflows). What a type without a layout
/// means, and for dynamic sizes the form SymbolicViews.h reads as symbolic
/// row-major strides.
Dims rowMajorStridesWhereKnown(llvm::ArrayRef<int64_t> sizes);
/// get_channels_last_strides_2d (rank 4, NCHW sizes -> NHWC order) and _3d
/// (rank 5). No max(1, size) here, exactly as PyTorch. Error when the rank
/// is wrong: "required rank 4 tensor to use channels_last format".
Fallible<Dims> channelsLastStrides(llvm::ArrayRef<int64_t> sizes);
Fallible<Dims> channelsLast3dStrides(llvm::ArrayRef<int64_t> sizes);
/// Strides of a new tensor in `format` (not Preserve).
Fallible<Dims> stridesForFormat(llvm::ArrayRef<int64_t> sizes,
                                MemoryFormat format);

/// is_contiguous(): numel 0 is contiguous; size-1 dims are ignored.
bool isContiguous(const StridedLayout &layout);
/// is_contiguous(memory_format=channels_last) (rank 4 only) and
/// channels_last_3d (rank 5 only).
bool isChannelsLastContiguous(const StridedLayout &layout);
bool isChannelsLast3dContiguous(const StridedLayout &layout);
bool isContiguousIn(const StridedLayout &layout, MemoryFormat format);
/// is_non_overlapping_and_dense().
bool isNonOverlappingAndDense(const StridedLayout &layout);
/// is_channels_last_strides_2d / _3d (the "strides look like" heuristics).
bool isStridesLikeChannelsLast(const StridedLayout &layout);
bool isStridesLikeChannelsLast3d(const StridedLayout &layout);
/// Tensor::suggest_memory_format().
MemoryFormat suggestMemoryFormat(const StridedLayout &layout);
/// at::infer_dense_strides: dense strides keeping the input's dim order.
Dims inferDenseStrides(llvm::ArrayRef<int64_t> sizes,
                       llvm::ArrayRef<int64_t> strides);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_MEMORYFORMAT_H
