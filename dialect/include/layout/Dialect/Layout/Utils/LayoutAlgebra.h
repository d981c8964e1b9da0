//===- LayoutAlgebra.h - Pure strided-layout math ---------------*- C++ -*-===//
//
// The one home of layout math in layoutc. Every op verifier, every pass and
// every backend computes sizes, strides, offsets, contiguity and overlap
// through these functions, so that PyTorch's rules live in exactly one place.
//
// A layout is PyTorch's view metadata: (sizes, strides, offset), counted in
// elements. Logical index i = (i_0, ..., i_{n-1}) reads storage element
//   offset + sum_k i_k * strides[k].
// Examples below use CuTe's notation (sizes):(strides)+offset.
//
// All functions are pure. Operations that PyTorch rejects return an error
// whose message carries PyTorch's meaning (and mostly its wording). All
// arithmetic is overflow-checked: an i64 overflow is an error, never UB.
// Unless stated otherwise, functions require static layouts (no kDynamic).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_LAYOUTALGEBRA_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_LAYOUTALGEBRA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cassert>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace mlir {
namespace layout {

/// Marks an unknown size, stride or offset. Equal to ShapedType::kDynamic.
constexpr int64_t kDynamic = std::numeric_limits<int64_t>::min();

using Dims = llvm::SmallVector<int64_t, 6>;

/// PyTorch view metadata over a 1-D storage, in elements.
struct StridedLayout {
  Dims sizes;
  Dims strides;
  int64_t offset = 0;

  StridedLayout() = default;
  StridedLayout(llvm::ArrayRef<int64_t> sizes, llvm::ArrayRef<int64_t> strides,
                int64_t offset = 0)
      : sizes(sizes.begin(), sizes.end()),
        strides(strides.begin(), strides.end()), offset(offset) {}

  int64_t rank() const { return static_cast<int64_t>(sizes.size()); }
  /// True when no size, stride or the offset is kDynamic.
  bool isStatic() const;
  bool operator==(const StridedLayout &o) const {
    return sizes == o.sizes && strides == o.strides && offset == o.offset;
  }
  bool operator!=(const StridedLayout &o) const { return !(*this == o); }
  /// "(3, 4):(4, 1)+0" -- for messages and test failure output.
  std::string str() const;
};

/// A value or an error message. The message is what the user sees (PyTorch's
/// meaning, usually its words).
template <typename T> class Fallible {
public:
  Fallible(T value) : state(std::move(value)) {}
  static Fallible error(std::string message) {
    Fallible f;
    f.state = Error{std::move(message)};
    return f;
  }
  bool ok() const { return std::holds_alternative<T>(state); }
  explicit operator bool() const { return ok(); }
  const T &value() const & {
    assert(ok() && "value() of a failed Fallible");
    return std::get<T>(state);
  }
  T &&value() && {
    assert(ok() && "value() of a failed Fallible");
    return std::get<T>(std::move(state));
  }
  const T &operator*() const & { return value(); }
  const T *operator->() const { return &value(); }
  const std::string &message() const {
    assert(!ok() && "message() of a successful Fallible");
    return std::get<Error>(state).message;
  }

private:
  struct Error {
    std::string message;
  };
  Fallible() = default;
  std::variant<T, Error> state;
};

/// Error helper usable for any Fallible<T>: `return fail("...")`.
struct Failure {
  std::string message;
  template <typename T> operator Fallible<T>() const {
    return Fallible<T>::error(message);
  }
};
inline Failure fail(std::string message) { return Failure{std::move(message)}; }

//===----------------------------------------------------------------------===//
// Formatting and checked arithmetic
//===----------------------------------------------------------------------===//

/// "[2, 3, 4]"; kDynamic prints as `dynamic` ("?" for messages, "null" for
/// JSON).
std::string formatDims(llvm::ArrayRef<int64_t> dims,
                       llvm::StringRef dynamic = "?");

/// Product of sizes; error "integer overflow: ..." when it exceeds i64.
Fallible<int64_t> numel(llvm::ArrayRef<int64_t> sizes);

/// Storage elements spanned by the view: the lowest and highest storage index
/// it reads, or nullopt when it has no element (some size is 0). Negative
/// strides (flip) lower `lo` below the offset. Errors on i64 overflow.
struct Span {
  int64_t lo;
  int64_t hi;
};
Fallible<std::optional<Span>> span(const StridedLayout &layout);

/// Checks that every element of `layout` lies in a storage of `storageSize`
/// elements: 0 <= lo and hi < storageSize. The error states required vs
/// available extent in elements and bytes, e.g. "as_strided: sizes [2, 2],
/// strides [4, 2] and storage offset 1 need a storage of 8 elements (32
/// bytes), but the storage has 6 elements (24 bytes)". `opName` prefixes it.
Fallible<std::monostate> checkInBounds(const StridedLayout &layout,
                                       int64_t storageSize, int64_t itemBytes,
                                       llvm::StringRef opName);

/// Storage elements a function argument of this layout owns: hi + 1 (the
/// argument's storage is exactly what its view reaches); 0 when empty.
Fallible<int64_t> requiredStorageSize(const StridedLayout &layout);

/// PyTorch's maybe_wrap_dim: wraps negative `dim` into [0, rank). With
/// wrapScalar a rank-0 tensor accepts dims in [-1, 0]. Error:
/// "Dimension out of range (expected to be in range of [-2, 1], but got 2)".
Fallible<int64_t> wrapDim(int64_t dim, int64_t rank, bool wrapScalar = true);

//===----------------------------------------------------------------------===//
// Memory formats and contiguity (c10/core/TensorImpl.cpp, MemoryFormat.h)
//===----------------------------------------------------------------------===//

enum class MemoryFormat { Contiguous, ChannelsLast, ChannelsLast3d, Preserve };
llvm::StringRef stringifyMemoryFormat(MemoryFormat format);

/// Row-major strides; size-0 dims count as 1 (PyTorch's empty_tensor_restride):
/// (2, 0, 3) -> (3, 3, 1). Errors on overflow.
Fallible<Dims> contiguousStrides(llvm::ArrayRef<int64_t> sizes);
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

//===----------------------------------------------------------------------===//
// View ops (aten/src/ATen/native/TensorShape.cpp). Each returns the view's
// layout over the same storage, or PyTorch's error.
//===----------------------------------------------------------------------===//

/// as_strided's own checks (sizes/strides length, negative sizes, negative
/// offset, overflow). Negative strides are accepted (ext: the folded form of
/// flip); bounds are checked separately with checkInBounds.
Fallible<StridedLayout> asStrided(llvm::ArrayRef<int64_t> sizes,
                                  llvm::ArrayRef<int64_t> strides,
                                  int64_t offset);
/// infer_size: resolves one -1 in `shape` for `numel` elements.
Fallible<Dims> inferSize(llvm::ArrayRef<int64_t> shape, int64_t numel);
/// at::detail::computeStride: strides for viewing (oldSizes, oldStrides) as
/// newSizes without a copy, or nullopt when impossible.
std::optional<Dims> computeStride(llvm::ArrayRef<int64_t> oldSizes,
                                  llvm::ArrayRef<int64_t> oldStrides,
                                  llvm::ArrayRef<int64_t> newSizes);
Fallible<StridedLayout> view(const StridedLayout &in,
                             llvm::ArrayRef<int64_t> shape);
/// reshape/flatten: the view when computeStride succeeds (copies = false),
/// else the contiguous layout of a new storage (copies = true, offset 0).
struct MaybeCopy {
  StridedLayout layout;
  bool copies;
};
Fallible<MaybeCopy> reshape(const StridedLayout &in,
                            llvm::ArrayRef<int64_t> shape);
Fallible<MaybeCopy> flatten(const StridedLayout &in, int64_t startDim,
                            int64_t endDim);
Fallible<StridedLayout> permute(const StridedLayout &in,
                                llvm::ArrayRef<int64_t> dims);
Fallible<StridedLayout> transpose(const StridedLayout &in, int64_t dim0,
                                  int64_t dim1);
Fallible<StridedLayout> movedim(const StridedLayout &in, int64_t source,
                                int64_t destination);
/// Python slicing t[..., start:end:step] on `dim`; omitted bounds are
/// nullopt. Negatives wrap, bounds clamp, step must be > 0.
Fallible<StridedLayout> slice(const StridedLayout &in, int64_t dim,
                              std::optional<int64_t> start,
                              std::optional<int64_t> end, int64_t step);
Fallible<StridedLayout> select(const StridedLayout &in, int64_t dim,
                               int64_t index);
Fallible<StridedLayout> narrow(const StridedLayout &in, int64_t dim,
                               int64_t start, int64_t length);
Fallible<StridedLayout> expand(const StridedLayout &in,
                               llvm::ArrayRef<int64_t> sizes);
/// squeeze(): all size-1 dims when `dims` is empty; otherwise each listed
/// dim that has size 1 (PyTorch 2.x tuple semantics; 1.13 accepts one dim).
Fallible<StridedLayout> squeeze(const StridedLayout &in,
                                llvm::ArrayRef<int64_t> dims);
Fallible<StridedLayout> unsqueeze(const StridedLayout &in, int64_t dim);
Fallible<StridedLayout> unflatten(const StridedLayout &in, int64_t dim,
                                  llvm::ArrayRef<int64_t> sizes);
Fallible<StridedLayout> diagonal(const StridedLayout &in, int64_t offset,
                                 int64_t dim1, int64_t dim2);
Fallible<StridedLayout> unfold(const StridedLayout &in, int64_t dim,
                               int64_t size, int64_t step);
/// (ext) NumPy-style flip view: negated strides, offset moved to the last
/// element along each flipped dim. Repeated dims are an error.
Fallible<StridedLayout> flip(const StridedLayout &in,
                             llvm::ArrayRef<int64_t> dims);
/// split_with_sizes.
Fallible<llvm::SmallVector<StridedLayout, 4>>
split(const StridedLayout &in, int64_t dim, llvm::ArrayRef<int64_t> sizes);

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

//===----------------------------------------------------------------------===//
// Analyses used by copy planning and kernel selection.
//===----------------------------------------------------------------------===//

/// Drops size-1 dims and merges adjacent dims i, i+1 when
/// strides[i] == sizes[i+1] * strides[i+1] (the merged dim keeps the order).
/// (4, 3, 2):(6, 2, 1) -> (24):(1). Empty tensors coalesce to (0):(1).
StridedLayout coalesce(const StridedLayout &layout);

/// Coalesces several same-shaped layouts jointly (TensorIterator's rule):
/// dims merge only when they merge in every layout. Returns the coalesced
/// layouts in the same order.
llvm::SmallVector<StridedLayout, 2>
coalesceJointly(llvm::ArrayRef<StridedLayout> layouts);

/// Reorders the dims of several same-shaped layouts by decreasing |stride| of
/// layouts[key] (stable, so ties keep their order), then coalesces them
/// jointly: the loop nest TensorIterator runs, outermost first, walking
/// layouts[key] in its memory order. Copies key on the destination.
llvm::SmallVector<StridedLayout, 2>
coalesceInOrderOf(llvm::ArrayRef<StridedLayout> layouts, size_t key);

/// The innermost dim whose stride is 1 or -1 (where a kernel moves whole
/// vectors), or -1 when there is none.
int64_t unitStrideDim(const StridedLayout &layout);

/// The cheap proof that no storage element appears at two logical indices,
/// the one layout_rt's lrt_check_no_overlap applies at run time: sorted by
/// |stride|, each dim of size > 1 steps past everything the smaller ones
/// reach. False does not mean overlap (sizes [2, 3], strides [3, 2] are
/// distinct but do not nest).
bool stridesNest(const StridedLayout &layout);

/// Calls `visit` with the storage offset of each of the first `numel`
/// elements of `layout` in index order (the last dim fastest), until it
/// returns true; returns whether it did. One stride added per element. The
/// caller bounds `numel` and checks that every offset fits in int64_t
/// (span).
bool anyStorageOffset(const StridedLayout &layout, int64_t numel,
                      llvm::function_ref<bool(int64_t)> visit);

enum class Overlap { No, Yes, Unknown };
/// Does some storage element appear at two logical indices? Exact for
/// layouts up to `enumerationLimit` elements, else Unknown when the cheap
/// proofs do not decide.
Overlap internalOverlap(const StridedLayout &layout,
                        int64_t enumerationLimit = int64_t(1) << 22);

enum class OverlapStatus { No, Full, Partial, Unknown };
/// How two views of the same storage relate: Full when they are the same
/// view, No when they share no element, Partial when they share some.
OverlapStatus overlapStatus(const StridedLayout &a, const StridedLayout &b,
                            int64_t enumerationLimit = int64_t(1) << 22);

/// Composition of views through a materialized buffer. `source` is the view
/// that was copied into a new storage with the dense layout `buffer` (same
/// sizes as source, offset 0, non-overlapping and dense); `outer` is a view
/// of that new storage. Returns a single strided view of source's storage
/// that reads exactly the elements `outer` reads, or nullopt. Exact (nullopt
/// only when no such layout exists) for non-empty outer views of up to 2^16
/// elements; larger ones get a sufficient, carry-free proof; empty outer
/// views give nullopt.
std::optional<StridedLayout> composeThroughBuffer(const StridedLayout &source,
                                                  const StridedLayout &buffer,
                                                  const StridedLayout &outer);

/// The kernel family a copy from `src` into a new or existing `dst` (same
/// sizes) needs, after ordering dims by dst's strides and coalescing both
/// jointly (TensorIterator's rule): "memcpy" (one contiguous run per side),
/// "transpose" (dst's stride-1 dim is not src's), "broadcast"
/// (src has stride-0 dims), "gather" (anything else strided, incl. negative
/// strides). `convert` (dtype change) prefixes "convert+".
enum class CopyFamily { Memcpy, Transpose, Gather, Broadcast };
CopyFamily copyFamily(const StridedLayout &src, const StridedLayout &dst);
llvm::StringRef stringifyCopyFamily(CopyFamily family);
/// copyFamily's name, prefixed with "convert+" when the dtype changes.
std::string classifyCopy(const StridedLayout &src, const StridedLayout &dst,
                         bool convert);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_LAYOUTALGEBRA_H
