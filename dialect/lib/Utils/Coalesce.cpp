//===- Coalesce.cpp - Coalescing and copy classification ------------------===//
//
// TensorIterator's coalescing of one or several layouts, and the copy
// family (memcpy, transpose, gather, broadcast) it implies. See Coalesce.h
// for the contracts.
//
//===----------------------------------------------------------------------===//
// ALGEBRA-READY

#include "layout/Dialect/Layout/Utils/Coalesce.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <numeric>

using namespace mlir;
using namespace mlir::layout;
using llvm::ArrayRef;

llvm::SmallVector<StridedLayout, 2>
mlir::layout::coalesceJointly(ArrayRef<StridedLayout> layouts) {
  assert(!layouts.empty() && "coalescing no layouts");
  int64_t rank = layouts.front().rank();
  llvm::SmallVector<StridedLayout, 2> out(layouts.size());
  for (auto [o, l] : llvm::zip_equal(out, layouts))
    o.offset = l.offset;
  if (llvm::is_contained(layouts.front().sizes, 0)) {
    for (StridedLayout &o : out) {
      o.sizes = {0};
      o.strides = {1};
    }
    return out;
  }
  // Walk innermost-first, merging dim d into the current innermost run when
  // every layout steps over the run exactly.
  for (int64_t d = rank - 1; d >= 0; --d) {
    int64_t size = layouts.front().sizes[d];
    if (size == 1)
      continue;
    // Never merge into a run whose size or extent does not fit in i64.
    bool merge = !out.front().sizes.empty() &&
                 llvm::checkedMul(out.front().sizes.front(), size);
    for (auto [o, l] : llvm::zip_equal(out, layouts)) {
      std::optional<int64_t> step =
          merge ? llvm::checkedMul(o.sizes.front(), o.strides.front())
                : std::nullopt;
      merge = step && l.strides[d] == *step;
    }
    for (auto [o, l] : llvm::zip_equal(out, layouts)) {
      if (merge) {
        o.sizes.front() *= size;
      } else {
        o.sizes.insert(o.sizes.begin(), size);
        o.strides.insert(o.strides.begin(), l.strides[d]);
      }
    }
  }
  for (StridedLayout &o : out) {
    if (o.sizes.empty()) {
      o.sizes = {1};
      o.strides = {1};
    }
  }
  return out;
}

llvm::SmallVector<StridedLayout, 2>
mlir::layout::coalesceInOrderOf(ArrayRef<StridedLayout> layouts, size_t key) {
  assert(key < layouts.size() && "ordering by a layout that is not given");
  const StridedLayout &k = layouts[key];
  auto magnitude = [](int64_t v) {
    return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  };
  llvm::SmallVector<int64_t, 6> order(k.rank());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(order, [&](int64_t a, int64_t b) {
    return magnitude(k.strides[a]) > magnitude(k.strides[b]);
  });
  llvm::SmallVector<StridedLayout, 2> ordered(layouts.size());
  for (auto [o, l] : llvm::zip_equal(ordered, layouts)) {
    assert(l.rank() == k.rank() && "coalescing layouts of different ranks");
    o.offset = l.offset;
    for (int64_t d : order) {
      o.sizes.push_back(l.sizes[d]);
      o.strides.push_back(l.strides[d]);
    }
  }
  return coalesceJointly(ordered);
}

StridedLayout mlir::layout::coalesce(const StridedLayout &layout) {
  if (layout.rank() == 0)
    return StridedLayout({1}, {1}, layout.offset);
  return coalesceJointly({layout}).front();
}

int64_t mlir::layout::unitStrideDim(const StridedLayout &layout) {
  for (int64_t i = layout.rank() - 1; i >= 0; --i)
    if (layout.strides[i] == 1 || layout.strides[i] == -1)
      return i;
  return -1;
}

CopyFamily mlir::layout::copyFamily(const StridedLayout &src,
                                    const StridedLayout &dst) {
  // Walk both sides in dst's memory order (TensorIterator reorders dims by
  // the output's strides before coalescing): equal dense layouts in any dim
  // order, e.g. channels_last to channels_last, are then one run.
  llvm::SmallVector<StridedLayout, 2> c = coalesceInOrderOf({src, dst}, 1);
  const StridedLayout &s = c[0], &d = c[1];
  if (llvm::is_contained(s.strides, 0))
    return CopyFamily::Broadcast;
  if (s.rank() == 1 && s.strides[0] == 1 && d.strides[0] == 1)
    return CopyFamily::Memcpy;
  // Which dim is stride-1 on each side; a transpose when they differ.
  int64_t su = unitStrideDim(s), du = unitStrideDim(d);
  if (su >= 0 && du >= 0 && su != du && s.strides[su] == 1)
    return CopyFamily::Transpose;
  return CopyFamily::Gather;
}

llvm::StringRef mlir::layout::stringifyCopyFamily(CopyFamily family) {
  switch (family) {
  case CopyFamily::Memcpy:
    return "memcpy";
  case CopyFamily::Transpose:
    return "transpose";
  case CopyFamily::Gather:
    return "gather";
  case CopyFamily::Broadcast:
    return "broadcast";
  }
  llvm_unreachable("unknown copy family");
}

std::string mlir::layout::classifyCopy(const StridedLayout &src,
                                       const StridedLayout &dst, bool convert) {
  return (convert ? "convert+" : "") +
         stringifyCopyFamily(copyFamily(src, dst)).str();
}
