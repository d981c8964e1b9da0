//===- Overlap.cpp - Overlap of views -------------------------------------===//
//
// PyTorch's overlap checks (MemOverlap.cpp) made exact where affordable:
// the nesting proof, then every storage offset of views up to a size limit,
// marked in a bitmap of the span or sorted. See Overlap.h for the contracts.
//
//===----------------------------------------------------------------------===//
// ALGEBRA-READY

#include "layout/Dialect/Layout/Utils/Overlap.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <vector>

using namespace mlir;
using namespace mlir::layout;
using llvm::ArrayRef;

/// Sorted storage offsets of every element (for exact answers on small
/// views). Callers bound numel.
static std::vector<int64_t> enumerateOffsets(const StridedLayout &l) {
  std::vector<int64_t> offsets{l.offset};
  for (auto [size, stride] : llvm::zip_equal(l.sizes, l.strides)) {
    std::vector<int64_t> next;
    next.reserve(offsets.size() * std::max<int64_t>(size, 0));
    for (int64_t base : offsets)
      for (int64_t i = 0; i < size; ++i)
        next.push_back(base + i * stride);
    offsets = std::move(next);
  }
  std::sort(offsets.begin(), offsets.end());
  return offsets;
}

bool mlir::layout::anyStorageOffset(const StridedLayout &l, int64_t numel,
                                    llvm::function_ref<bool(int64_t)> visit) {
  llvm::SmallVector<int64_t, 6> index(l.rank(), 0);
  int64_t offset = l.offset;
  for (int64_t i = 0; i < numel; ++i) {
    if (visit(offset))
      return true;
    for (int64_t d = l.rank() - 1; d >= 0; --d) {
      if (++index[d] < l.sizes[d]) {
        offset += l.strides[d];
        break;
      }
      offset -= (l.sizes[d] - 1) * l.strides[d];
      index[d] = 0;
    }
  }
  return false;
}

namespace {
/// One bit per storage element of [lo, hi], where that takes less memory
/// than sorting the offsets of `numel` elements (16 bits per element
/// against 64): then exact answers cost one pass over the elements,
/// stopping at the first shared one, instead of a sort of millions.
class OffsetBitmap {
public:
  static std::optional<OffsetBitmap> create(int64_t lo, int64_t hi,
                                            int64_t numel) {
    std::optional<int64_t> width = llvm::checkedSub(hi, lo);
    if (!width || *width / 16 >= numel)
      return std::nullopt;
    return OffsetBitmap(lo, *width + 1);
  }
  bool contains(int64_t offset) const {
    return offset >= lo && offset - lo < static_cast<int64_t>(bits.size()) &&
           bits.test(offset - lo);
  }
  /// Marks `offset` (inside [lo, hi]); false when it was marked already.
  bool insert(int64_t offset) {
    if (bits.test(offset - lo))
      return false;
    bits.set(offset - lo);
    return true;
  }

private:
  OffsetBitmap(int64_t lo, int64_t width) : lo(lo), bits(width) {}
  int64_t lo;
  llvm::BitVector bits;
};
} // namespace

bool mlir::layout::stridesNest(const StridedLayout &l) {
  if (llvm::is_contained(l.sizes, 0))
    return true;
  llvm::SmallVector<std::pair<int64_t, int64_t>, 6> dims; // (|stride|, size)
  for (auto [size, stride] : llvm::zip_equal(l.sizes, l.strides)) {
    if (size == 1)
      continue;
    if (stride == 0 || stride == std::numeric_limits<int64_t>::min())
      return false;
    dims.push_back({stride < 0 ? -stride : stride, size});
  }
  llvm::sort(dims);
  int64_t reach = 0;
  for (auto [stride, size] : dims) {
    if (stride <= reach)
      return false;
    std::optional<int64_t> r = llvm::checkedMulAdd(size - 1, stride, reach);
    if (!r)
      return false;
    reach = *r;
  }
  return true;
}

Overlap mlir::layout::internalOverlap(const StridedLayout &l,
                                      int64_t enumerationLimit) {
  if (stridesNest(l))
    return Overlap::No;
  for (auto [size, stride] : llvm::zip_equal(l.sizes, l.strides))
    if (size > 1 && stride == 0)
      return Overlap::Yes;
  Fallible<int64_t> n = numel(l.sizes);
  // Enumerating needs every storage index to fit in i64.
  Fallible<std::optional<Span>> s = span(l);
  if (!n || *n > enumerationLimit || !s)
    return Overlap::Unknown;
  // stridesNest has accepted every view without elements: the span exists.
  if (std::optional<OffsetBitmap> seen =
          OffsetBitmap::create((*s)->lo, (*s)->hi, *n))
    return anyStorageOffset(l, *n, [&](int64_t o) { return !seen->insert(o); })
               ? Overlap::Yes
               : Overlap::No;
  std::vector<int64_t> offsets = enumerateOffsets(l);
  return std::adjacent_find(offsets.begin(), offsets.end()) != offsets.end()
             ? Overlap::Yes
             : Overlap::No;
}

OverlapStatus mlir::layout::overlapStatus(const StridedLayout &a,
                                          const StridedLayout &b,
                                          int64_t enumerationLimit) {
  Fallible<std::optional<Span>> sa = span(a), sb = span(b);
  if (!sa || !sb)
    return OverlapStatus::Unknown;
  if (!*sa || !*sb)
    return OverlapStatus::No;
  if (a == b)
    return OverlapStatus::Full;
  if ((*sa)->hi < (*sb)->lo || (*sb)->hi < (*sa)->lo)
    return OverlapStatus::No;
  Fallible<int64_t> na = numel(a.sizes), nb = numel(b.sizes);
  if (!na || !nb || *na > enumerationLimit || *nb > enumerationLimit)
    return OverlapStatus::Unknown;
  // Only the storage both spans cover can hold a shared element.
  int64_t lo = std::max((*sa)->lo, (*sb)->lo);
  int64_t hi = std::min((*sa)->hi, (*sb)->hi);
  if (std::optional<OffsetBitmap> inA =
          OffsetBitmap::create(lo, hi, std::min(*na, *nb))) {
    anyStorageOffset(a, *na, [&](int64_t o) {
      if (o >= lo && o <= hi)
        inA->insert(o);
      return false;
    });
    return anyStorageOffset(b, *nb, [&](int64_t o) { return inA->contains(o); })
               ? OverlapStatus::Partial
               : OverlapStatus::No;
  }
  std::vector<int64_t> ea = enumerateOffsets(a), eb = enumerateOffsets(b);
  ea.erase(std::unique(ea.begin(), ea.end()), ea.end());
  eb.erase(std::unique(eb.begin(), eb.end()), eb.end());
  size_t i = 0, j = 0;
  while (i < ea.size() && j < eb.size()) {
    if (ea[i] == eb[j])
      return OverlapStatus::Partial;
    if (ea[i] < eb[j])
      ++i;
    else
      ++j;
  }
  return OverlapStatus::No;
}
