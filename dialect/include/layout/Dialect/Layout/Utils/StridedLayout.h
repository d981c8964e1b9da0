//===- StridedLayout.h - Layouts, errors, checked arithmetic ----*- C++ -*-===//
//
// PyTorch's view metadata (StridedLayout), the Fallible results every
// layout function returns, and the checked arithmetic every other part of
// the layout algebra builds on: element counts, storage spans and bounds,
// dim wrapping.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_STRIDEDLAYOUT_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_STRIDEDLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
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

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_STRIDEDLAYOUT_H
