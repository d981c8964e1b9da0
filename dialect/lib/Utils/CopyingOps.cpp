//===- CopyingOps.cpp - Result layouts of ops that may copy ---------------===//
//
// The result layouts of contiguous, clone, to and copy_'s broadcast, and
// reduction sizes. See CopyingOps.h for the contracts.
//
//===----------------------------------------------------------------------===//
// ALGEBRA-READY

#include "layout/Dialect/Layout/Utils/CopyingOps.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::layout;
using llvm::ArrayRef;

Fallible<MaybeCopy> mlir::layout::contiguous(const StridedLayout &in,
                                             MemoryFormat format) {
  if (format == MemoryFormat::ChannelsLast && in.rank() != 4)
    return fail("required rank 4 tensor to use channels_last format");
  if (format == MemoryFormat::ChannelsLast3d && in.rank() != 5)
    return fail("required rank 5 tensor to use channels_last_3d format");
  if (isContiguousIn(in, format))
    return MaybeCopy{in, false};
  if (format == MemoryFormat::Preserve)
    return fail(
        "preserve memory format is unsupported by the contiguous operator");
  Fallible<StridedLayout> c = cloneLayout(in, format);
  if (!c)
    return fail(c.message());
  return MaybeCopy{*c, true};
}

Fallible<StridedLayout> mlir::layout::cloneLayout(const StridedLayout &in,
                                                  MemoryFormat format) {
  if (format == MemoryFormat::Preserve) {
    if (isNonOverlappingAndDense(in))
      return StridedLayout(in.sizes, in.strides, 0);
    return StridedLayout(in.sizes, inferDenseStrides(in.sizes, in.strides), 0);
  }
  Fallible<Dims> strides = stridesForFormat(in.sizes, format);
  if (!strides)
    return fail(strides.message());
  return StridedLayout(in.sizes, *strides, 0);
}

Fallible<StridedLayout> mlir::layout::toLayout(const StridedLayout &in) {
  return cloneLayout(in, MemoryFormat::Preserve);
}

Fallible<StridedLayout> mlir::layout::broadcastTo(const StridedLayout &src,
                                                  ArrayRef<int64_t> dstSizes) {
  // at::infer_size(dst, src), then TensorIterator's check that the output
  // (never resized by copy_) has the broadcast shape.
  int64_t ndim = std::max<int64_t>(dstSizes.size(), src.rank());
  Dims shape(ndim);
  for (int64_t i = ndim - 1; i >= 0; --i) {
    int64_t offset = ndim - 1 - i;
    int64_t dimA = static_cast<int64_t>(dstSizes.size()) - 1 - offset;
    int64_t dimB = src.rank() - 1 - offset;
    int64_t a = dimA >= 0 ? dstSizes[dimA] : 1;
    int64_t b = dimB >= 0 ? src.sizes[dimB] : 1;
    if (a != b && a != 1 && b != 1)
      return fail("The size of tensor a (" + std::to_string(a) +
                  ") must match the size of tensor b (" + std::to_string(b) +
                  ") at non-singleton dimension " + std::to_string(i));
    shape[i] = a == 1 ? b : a;
  }
  if (ArrayRef<int64_t>(shape) != dstSizes)
    return fail("output with shape " + formatDims(dstSizes) +
                " doesn't match the broadcast shape " + formatDims(shape));
  return expand(src, dstSizes);
}

Fallible<Dims> mlir::layout::normalizeReduceDims(int64_t rank,
                                                 ArrayRef<int64_t> dims) {
  Dims out;
  if (dims.empty()) {
    for (int64_t d = 0; d < rank; ++d)
      out.push_back(d);
    return out;
  }
  llvm::SmallVector<bool, 6> seen(std::max<int64_t>(rank, 1), false);
  for (int64_t d : dims) {
    Fallible<int64_t> w = wrapDim(d, rank);
    if (!w)
      return fail(w.message());
    if (seen[*w])
      return fail("dim " + std::to_string(*w) +
                  " appears multiple times in the list of dims");
    seen[*w] = true;
  }
  for (int64_t d = 0; d < rank; ++d)
    if (seen[d])
      out.push_back(d);
  return out;
}

std::vector<EmptyReductionCheck>
mlir::layout::emptyReductionChecks(llvm::StringRef name, int64_t rank,
                                   ArrayRef<int64_t> dims) {
  bool arg = name.starts_with("arg");
  std::vector<EmptyReductionCheck> out;
  if (dims.empty()) {
    EmptyReductionCheck all;
    for (int64_t d = 0; d < rank; ++d)
      all.dims.push_back(d);
    all.message = name.str() + "(): Expected reduction dim to be specified "
                               "for input.numel() == 0.";
    if (!arg)
      all.message += " Specify the reduction dim with the 'dim' argument.";
    out.push_back(std::move(all));
    return out;
  }
  // A scalar's dim 0 (or -1) names no size: it has its one element.
  for (int64_t d : rank ? dims : ArrayRef<int64_t>()) {
    int64_t w = *wrapDim(d, rank);
    out.push_back({Dims{w}, name.str() + "(): Expected reduction dim " +
                                std::to_string(arg ? w : d) +
                                " to have non-zero size."});
  }
  return out;
}

Fallible<Dims> mlir::layout::reduceSizes(ArrayRef<int64_t> sizes,
                                         ArrayRef<int64_t> dims, bool keepdim) {
  Fallible<Dims> reduced = normalizeReduceDims(sizes.size(), dims);
  if (!reduced)
    return fail(reduced.message());
  Dims out;
  for (auto [d, s] : llvm::enumerate(sizes)) {
    if (!llvm::is_contained(*reduced, static_cast<int64_t>(d)))
      out.push_back(s);
    else if (keepdim)
      out.push_back(1);
  }
  return out;
}
