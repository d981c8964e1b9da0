//===- Composition.cpp - Composition of views through a buffer ------------===//
//
// composeThroughBuffer: a view of a dense copy of `source` restated as a
// view of source's storage, by a mixed-radix digit proof or, for small
// views, exactly. See Composition.h for the contract.
//
//===----------------------------------------------------------------------===//
// ALGEBRA-READY

#include "layout/Dialect/Layout/Utils/Composition.h"

#include "layout/Dialect/Layout/Utils/MemoryFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::layout;
using llvm::ArrayRef;

namespace {
/// One digit of a position in the buffer: `size` values, `radix` buffer
/// elements and `srcStride` source elements apart. A source
/// (3, 4):(1, 3) copied into the buffer (3, 4):(4, 1) has the modes
/// {3, 4, 1} and {4, 1, 3}: buffer position 4 * i + j holds source element
/// i * 1 + j * 3.
struct Mode {
  int64_t size, radix, srcStride;
};
} // namespace

/// The buffer's storage order: modes (size, source stride) from the
/// outermost storage position to the innermost, size-1 dims dropped.
static llvm::SmallVector<Mode, 6> bufferModes(const StridedLayout &source,
                                              const StridedLayout &buffer) {
  llvm::SmallVector<int64_t, 6> order;
  for (int64_t d = 0; d < buffer.rank(); ++d)
    if (buffer.sizes[d] > 1)
      order.push_back(d);
  llvm::stable_sort(order, [&](int64_t x, int64_t y) {
    return buffer.strides[x] > buffer.strides[y];
  });
  llvm::SmallVector<Mode, 6> modes;
  for (int64_t d : order)
    modes.push_back({buffer.sizes[d], buffer.strides[d], source.strides[d]});
  // Merge neighbouring modes that are also one run of the source (e.g.
  // x[:, 1:3].contiguous().view(2, 8)): a digit carrying into such a mode
  // moves linearly through the source as well.
  llvm::SmallVector<Mode, 6> merged; // innermost first
  for (const Mode &m : llvm::reverse(modes)) {
    if (!merged.empty()) {
      Mode &inner = merged.back();
      std::optional<int64_t> radix = llvm::checkedMul(inner.size, inner.radix);
      std::optional<int64_t> srcStep =
          llvm::checkedMul(inner.size, inner.srcStride);
      if (radix && srcStep && *radix == m.radix && *srcStep == m.srcStride) {
        inner.size *= m.size; // at most the buffer's numel
        continue;
      }
    }
    merged.push_back(m);
  }
  modes.assign(merged.rbegin(), merged.rend());
  return modes;
}

/// Source element at buffer position `pos`: source.offset +
/// sum_m d_m * m.srcStride, d_m the digits of pos in the modes' radices
/// (nullopt outside the buffer's `bufferSize` elements, or on overflow).
static std::optional<int64_t> sourceAtPosition(const StridedLayout &source,
                                               ArrayRef<Mode> modes,
                                               int64_t bufferSize,
                                               std::optional<int64_t> pos) {
  if (!pos || *pos < 0 || *pos >= bufferSize)
    return std::nullopt;
  std::optional<int64_t> off = source.offset;
  int64_t rest = *pos;
  for (const Mode &m : modes) {
    if (off)
      off = llvm::checkedMulAdd(rest / m.radix, m.srcStride, *off);
    rest %= m.radix;
  }
  return off;
}

/// composeThroughBuffer decided exactly, for outer views of up to 2^16
/// elements: the only candidate strides are the steps to the unit indices,
/// checked at every index.
static std::optional<StridedLayout> composeExactly(const StridedLayout &source,
                                                   const StridedLayout &buffer,
                                                   const StridedLayout &outer,
                                                   ArrayRef<Mode> modes) {
  constexpr int64_t kExactLimit = int64_t(1) << 16;
  Fallible<int64_t> n = numel(outer.sizes);
  Fallible<int64_t> bufferSize = numel(buffer.sizes);
  if (!n || *n > kExactLimit || !bufferSize)
    return std::nullopt;
  auto sourceAt = [&](std::optional<int64_t> pos) {
    return sourceAtPosition(source, modes, *bufferSize, pos);
  };
  StridedLayout cand;
  cand.sizes = outer.sizes;
  cand.strides.assign(outer.rank(), 0);
  std::optional<int64_t> base = sourceAt(outer.offset);
  if (!base)
    return std::nullopt;
  cand.offset = *base;
  for (int64_t k = 0; k < outer.rank(); ++k) {
    if (outer.sizes[k] == 1)
      continue;
    std::optional<int64_t> next =
        sourceAt(llvm::checkedAdd(outer.offset, outer.strides[k]));
    std::optional<int64_t> step =
        next ? llvm::checkedSub(*next, *base) : std::nullopt;
    if (!step)
      return std::nullopt;
    cand.strides[k] = *step;
  }
  llvm::SmallVector<int64_t, 6> idx(outer.rank(), 0);
  for (int64_t i = 0; i < *n; ++i) {
    std::optional<int64_t> pos = outer.offset, want = cand.offset;
    for (int64_t k = 0; k < outer.rank(); ++k) {
      if (pos)
        pos = llvm::checkedMulAdd(idx[k], outer.strides[k], *pos);
      if (want)
        want = llvm::checkedMulAdd(idx[k], cand.strides[k], *want);
    }
    std::optional<int64_t> got = sourceAt(pos);
    if (!got || !want || *got != *want)
      return std::nullopt;
    for (int64_t k = outer.rank() - 1; k >= 0 && ++idx[k] == outer.sizes[k];
         --k)
      idx[k] = 0;
  }
  return cand;
}

/// Mixed-radix digits of a buffer offset, outermost first.
/// Fails when a remainder is left (cannot happen for a dense buffer unless
/// the value is not an offset inside it).
static bool bufferDigits(ArrayRef<Mode> modes, int64_t v,
                         llvm::SmallVectorImpl<int64_t> &out) {
  bool negative = v < 0;
  if (negative)
    v = -v;
  out.clear();
  for (const Mode &m : modes) {
    int64_t dgt = v / m.radix;
    v -= dgt * m.radix;
    out.push_back(negative ? -dgt : dgt);
  }
  return v == 0;
}

std::optional<StridedLayout>
mlir::layout::composeThroughBuffer(const StridedLayout &source,
                                   const StridedLayout &buffer,
                                   const StridedLayout &outer) {
  assert(source.sizes == buffer.sizes && "buffer must hold the source");
  if (!source.isStatic() || !buffer.isStatic() || !outer.isStatic() ||
      buffer.offset != 0 || !isNonOverlappingAndDense(buffer))
    return std::nullopt;
  if (llvm::is_contained(outer.sizes, 0) || llvm::is_contained(source.sizes, 0))
    return std::nullopt;
  llvm::SmallVector<Mode, 6> modes = bufferModes(source, buffer);
  // The digit proof below is sufficient, not necessary (any two elements lie
  // on a line; a carry can happen to move linearly). Small views are decided
  // exactly.
  auto exact = [&] { return composeExactly(source, buffer, outer, modes); };
  auto digits = [&](int64_t v, llvm::SmallVectorImpl<int64_t> &out) {
    return bufferDigits(modes, v, out);
  };
  llvm::SmallVector<int64_t, 6> start, lo, hi, step;
  if (!digits(outer.offset, start))
    return exact();
  lo = start;
  hi = start;
  StridedLayout result;
  result.sizes = outer.sizes;
  int64_t srcOffset = source.offset;
  for (auto [m, dgt] : llvm::zip_equal(modes, start))
    srcOffset += dgt * m.srcStride;
  result.offset = srcOffset;
  for (auto [size, stride] : llvm::zip_equal(outer.sizes, outer.strides)) {
    if (size == 1) {
      result.strides.push_back(0);
      continue;
    }
    if (!digits(stride, step))
      return exact();
    int64_t srcStride = 0;
    for (auto [i, m] : llvm::enumerate(modes)) {
      srcStride += step[i] * m.srcStride;
      int64_t move = (size - 1) * step[i];
      (move < 0 ? lo[i] : hi[i]) += move;
    }
    result.strides.push_back(srcStride);
  }
  // No digit may leave its mode: then no index ever carries, and the map from
  // outer indices to source offsets is the linear one computed above.
  for (auto [i, m] : llvm::enumerate(modes))
    if (lo[i] < 0 || hi[i] >= m.size)
      return exact();
  return result;
}
