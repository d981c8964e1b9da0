//===- StridedLayout.cpp - Layouts, errors, checked arithmetic ------------===//
//
// StridedLayout's printing, and the checked arithmetic every other file of
// the algebra uses: element counts, storage spans, bounds checks and dim
// wrapping. See StridedLayout.h for the contracts.
//
//===----------------------------------------------------------------------===//
// ALGEBRA-READY

#include "LayoutAlgebraDetail.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::layout;
using llvm::ArrayRef;
using mlir::layout::detail::overflow;

bool StridedLayout::isStatic() const {
  return offset != kDynamic && !llvm::is_contained(sizes, kDynamic) &&
         !llvm::is_contained(strides, kDynamic);
}

std::string mlir::layout::formatDims(ArrayRef<int64_t> dims,
                                     llvm::StringRef dynamic) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (i)
      s += ", ";
    s += d == kDynamic ? dynamic.str() : std::to_string(d);
  }
  return s + "]";
}

std::string StridedLayout::str() const {
  auto paren = [](ArrayRef<int64_t> v) {
    std::string s = formatDims(v);
    s.front() = '(';
    s.back() = ')';
    return s;
  };
  return paren(sizes) + ":" + paren(strides) + "+" +
         (offset == kDynamic ? std::string("?") : std::to_string(offset));
}

Failure mlir::layout::detail::overflow(llvm::StringRef what) {
  return fail("integer overflow: " + what.str() +
              " does not fit in a signed 64-bit integer");
}

Fallible<int64_t> mlir::layout::numel(ArrayRef<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    std::optional<int64_t> m = llvm::checkedMul(n, s);
    if (!m)
      return overflow("the number of elements of " + formatDims(sizes));
    n = *m;
  }
  return n;
}

Fallible<std::optional<Span>> mlir::layout::span(const StridedLayout &l) {
  if (llvm::is_contained(l.sizes, 0))
    return std::optional<Span>();
  int64_t lo = l.offset, hi = l.offset;
  for (auto [size, stride] : llvm::zip_equal(l.sizes, l.strides)) {
    std::optional<int64_t> step = llvm::checkedMul(size - 1, stride);
    std::optional<int64_t> next =
        step ? llvm::checkedAdd(stride < 0 ? lo : hi, *step) : std::nullopt;
    if (!next)
      return overflow("the storage extent of sizes " + formatDims(l.sizes) +
                      " and strides " + formatDims(l.strides));
    (stride < 0 ? lo : hi) = *next;
  }
  return std::optional<Span>(Span{lo, hi});
}

Fallible<int64_t> mlir::layout::requiredStorageSize(const StridedLayout &l) {
  Fallible<std::optional<Span>> s = span(l);
  if (!s)
    return fail(s.message());
  if (!*s)
    return int64_t(0);
  if ((*s)->hi == std::numeric_limits<int64_t>::max())
    return overflow("the storage size");
  return (*s)->hi + 1;
}

Fallible<std::monostate> mlir::layout::checkInBounds(const StridedLayout &l,
                                                     int64_t storageSize,
                                                     int64_t itemBytes,
                                                     llvm::StringRef opName) {
  Fallible<std::optional<Span>> s = span(l);
  if (!s)
    return fail(s.message());
  // A view without elements may sit anywhere (PyTorch: "a tensor with
  // arbitrary 0 dims' storage can have any numel").
  if (!*s)
    return std::monostate();
  auto describe = [&] {
    return opName.str() + ": sizes " + formatDims(l.sizes) + ", strides " +
           formatDims(l.strides) + " and storage offset " +
           std::to_string(l.offset);
  };
  if ((*s)->lo < 0)
    return fail(describe() + " reach storage element " +
                std::to_string((*s)->lo) + ", before the start of the storage");
  auto bytes = [&](int64_t elements) {
    std::optional<int64_t> b = llvm::checkedMul(elements, itemBytes);
    return b ? " (" + std::to_string(*b) + " bytes)" : std::string();
  };
  if ((*s)->hi >= storageSize) {
    // The last element may be INT64_MAX itself: its count does not fit.
    int64_t hi = (*s)->hi;
    std::string need =
        hi == std::numeric_limits<int64_t>::max()
            ? "more than " + std::to_string(hi) + " elements"
            : std::to_string(hi + 1) + " elements" + bytes(hi + 1);
    return fail(describe() + " need a storage of " + need +
                ", but the storage has " + std::to_string(storageSize) +
                " elements" + bytes(storageSize) + "; out of bounds");
  }
  return std::monostate();
}

Fallible<int64_t> mlir::layout::wrapDim(int64_t dim, int64_t rank,
                                        bool wrapScalar) {
  if (rank <= 0) {
    if (!wrapScalar)
      return fail("dimension specified as " + std::to_string(dim) +
                  " but tensor has no dimensions");
    rank = 1;
  }
  int64_t min = -rank, max = rank - 1;
  if (dim < min || dim > max)
    return fail("Dimension out of range (expected to be in range of [" +
                std::to_string(min) + ", " + std::to_string(max) +
                "], but got " + std::to_string(dim) + ")");
  return dim < 0 ? dim + rank : dim;
}
