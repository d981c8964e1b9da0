//===- CopyingOps.h - Result layouts of ops that may copy -------*- C++ -*-===//
//
// The layouts of ops whose result may be a new storage (contiguous, clone,
// to, copy_'s broadcast) and the result sizes of reductions.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_COPYINGOPS_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_COPYINGOPS_H

#include "layout/Dialect/Layout/Utils/MemoryFormat.h"
#include "layout/Dialect/Layout/Utils/ViewOps.h"

namespace mlir {
namespace layout {

//===----------------------------------------------------------------------===//
// Ops that may copy: the layout of their result.
//===----------------------------------------------------------------------===//

/// contiguous(memory_format): the operand when already contiguous in
/// `format` (copies = false), else a new storage in that format.
Fallible<MaybeCopy> contiguous(const StridedLayout &in, MemoryFormat format);
/// clone(memory_format) / empty_like: always new storage (offset 0).
/// Preserve keeps strides of non-overlapping-and-dense operands, else
/// infer_dense_strides.
Fallible<StridedLayout> cloneLayout(const StridedLayout &in,
                                    MemoryFormat format);
/// Tensor.to(dtype) result layout when the dtype changes (_to_copy with
/// memory_format=preserve).
Fallible<StridedLayout> toLayout(const StridedLayout &in);
/// expand_inplace for `dst.copy_(src)`: src's layout broadcast to dst's
/// sizes. Error: "The size of tensor a (3) must match the size of tensor b
/// (4) at non-singleton dimension 1".
Fallible<StridedLayout> broadcastTo(const StridedLayout &src,
                                    llvm::ArrayRef<int64_t> dstSizes);
/// Sizes of a reduction's result. Empty `dims` reduces all dims. Errors on
/// out-of-range or repeated dims ("dim 1 appears multiple times in the list
/// of dims").
Fallible<Dims> reduceSizes(llvm::ArrayRef<int64_t> sizes,
                           llvm::ArrayRef<int64_t> dims, bool keepdim);
/// The wrapped, sorted reduced dims (all dims when empty); a repeated dim is
/// an error, as in PyTorch.
Fallible<Dims> normalizeReduceDims(int64_t rank, llvm::ArrayRef<int64_t> dims);

/// PyTorch's checks that amax/amin/argmax/argmin (`name`) reduce no empty
/// dim, in the order it makes them: each the dims whose sizes' product must
/// not be 0, and its message. All dims (`dims` empty): input.numel() != 0;
/// else each dim as written, named as written by amax/amin and wrapped by
/// argmax/argmin. `dims` must be valid (normalizeReduceDims).
struct EmptyReductionCheck {
  Dims dims;
  std::string message;
};
std::vector<EmptyReductionCheck>
emptyReductionChecks(llvm::StringRef name, int64_t rank,
                     llvm::ArrayRef<int64_t> dims);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_COPYINGOPS_H
