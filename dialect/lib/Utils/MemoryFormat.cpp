//===- MemoryFormat.cpp - Memory formats and contiguity -------------------===//
//
// PyTorch's memory-format strides and contiguity predicates
// (c10/core/TensorImpl.cpp, MemoryFormat.h, TensorUtils.cpp) over
// (sizes, strides). See MemoryFormat.h for the contracts.
//
//===----------------------------------------------------------------------===//
// ALGEBRA-READY

#include "layout/Dialect/Layout/Utils/MemoryFormat.h"

#include "LayoutAlgebraDetail.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::layout;
using llvm::ArrayRef;
using mlir::layout::detail::overflow;

llvm::StringRef mlir::layout::stringifyMemoryFormat(MemoryFormat format) {
  switch (format) {
  case MemoryFormat::Contiguous:
    return "contiguous";
  case MemoryFormat::ChannelsLast:
    return "channels_last";
  case MemoryFormat::ChannelsLast3d:
    return "channels_last_3d";
  case MemoryFormat::Preserve:
    return "preserve";
  }
  llvm_unreachable("unknown memory format");
}

Fallible<Dims> mlir::layout::contiguousStrides(ArrayRef<int64_t> sizes) {
  Dims strides(sizes.size());
  int64_t running = 1;
  for (int64_t i = static_cast<int64_t>(sizes.size()) - 1; i >= 0; --i) {
    strides[i] = running;
    std::optional<int64_t> next =
        llvm::checkedMul(running, std::max<int64_t>(sizes[i], 1));
    if (!next)
      return overflow("the contiguous strides of " + formatDims(sizes));
    running = *next;
  }
  return strides;
}

/// Dense strides walking dims in `order` (innermost first), without PyTorch's
/// max(1, size) -- get_channels_last_strides_* multiply raw sizes.
static Fallible<Dims> stridesInOrder(ArrayRef<int64_t> sizes,
                                     ArrayRef<int64_t> order) {
  Dims strides(sizes.size());
  int64_t running = 1;
  for (int64_t d : order) {
    strides[d] = running;
    std::optional<int64_t> next = llvm::checkedMul(running, sizes[d]);
    if (!next)
      return overflow("the channels-last strides of " + formatDims(sizes));
    running = *next;
  }
  return strides;
}

Fallible<Dims> mlir::layout::channelsLastStrides(ArrayRef<int64_t> sizes) {
  if (sizes.size() != 4)
    return fail(
        "required rank 4 tensor to use channels_last format, got rank " +
        std::to_string(sizes.size()));
  return stridesInOrder(sizes, {1, 3, 2, 0});
}

Fallible<Dims> mlir::layout::channelsLast3dStrides(ArrayRef<int64_t> sizes) {
  if (sizes.size() != 5)
    return fail(
        "required rank 5 tensor to use channels_last_3d format, got rank " +
        std::to_string(sizes.size()));
  return stridesInOrder(sizes, {1, 4, 3, 2, 0});
}

Fallible<Dims> mlir::layout::stridesForFormat(ArrayRef<int64_t> sizes,
                                              MemoryFormat format) {
  switch (format) {
  case MemoryFormat::ChannelsLast:
    return channelsLastStrides(sizes);
  case MemoryFormat::ChannelsLast3d:
    return channelsLast3dStrides(sizes);
  case MemoryFormat::Contiguous:
  case MemoryFormat::Preserve:
    return contiguousStrides(sizes);
  }
  llvm_unreachable("unknown memory format");
}

bool mlir::layout::isContiguous(const StridedLayout &l) {
  if (llvm::is_contained(l.sizes, 0))
    return true;
  // nullopt once the product overflows: no stride can equal it.
  std::optional<int64_t> expected = 1;
  for (int64_t i = l.rank() - 1; i >= 0; --i) {
    if (l.sizes[i] == 1)
      continue;
    if (!expected || l.strides[i] != *expected)
      return false;
    expected = llvm::checkedMul(*expected, l.sizes[i]);
  }
  return true;
}

/// compute_channels_last_contiguous_2d/_3d: walk dims innermost-first in
/// `order`, skipping size-1 dims. There is no numel == 0 shortcut in PyTorch.
static bool isDenseInOrder(const StridedLayout &l, ArrayRef<int64_t> order) {
  std::optional<int64_t> expected = 1;
  for (int64_t d : order) {
    if (l.sizes[d] == 1)
      continue;
    if (!expected || l.strides[d] != *expected)
      return false;
    expected = llvm::checkedMul(*expected, l.sizes[d]);
  }
  return true;
}

bool mlir::layout::isChannelsLastContiguous(const StridedLayout &l) {
  return l.rank() == 4 && isDenseInOrder(l, {1, 3, 2, 0});
}

bool mlir::layout::isChannelsLast3dContiguous(const StridedLayout &l) {
  return l.rank() == 5 && isDenseInOrder(l, {1, 4, 3, 2, 0});
}

bool mlir::layout::isContiguousIn(const StridedLayout &l, MemoryFormat format) {
  switch (format) {
  case MemoryFormat::ChannelsLast:
    return isChannelsLastContiguous(l);
  case MemoryFormat::ChannelsLast3d:
    return isChannelsLast3dContiguous(l);
  case MemoryFormat::Contiguous:
  case MemoryFormat::Preserve:
    return isContiguous(l);
  }
  llvm_unreachable("unknown memory format");
}

bool mlir::layout::isNonOverlappingAndDense(const StridedLayout &l) {
  if (isContiguous(l))
    return true;
  if (l.rank() == 1)
    return l.sizes[0] < 2 || l.strides[0] == 1;
  Dims perm(l.rank());
  std::iota(perm.begin(), perm.end(), 0);
  // Sort by stride, leaving size-0/1 dims at the end.
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (l.sizes[a] < 2)
      return false;
    if (l.sizes[b] < 2)
      return true;
    return l.strides[a] < l.strides[b];
  });
  std::optional<int64_t> required = 1;
  for (int64_t d : perm) {
    if (l.sizes[d] < 2)
      return true;
    if (!required || l.strides[d] != *required)
      return false;
    required = llvm::checkedMul(*required, l.sizes[d]);
  }
  return true;
}

/// is_channels_last_strides_2d_s4 / _3d_s5.
static bool isStridesLikeInOrder(const StridedLayout &l,
                                 ArrayRef<int64_t> order) {
  // nullopt once the product overflows: every stride is below it.
  std::optional<int64_t> min = 0;
  // A trivial channel dim defaults to NCHW.
  if (l.strides[1] == 0)
    return false;
  for (int64_t d : order) {
    if (l.sizes[d] == 0)
      return false;
    if (!min || l.strides[d] < *min)
      return false;
    // N111 / N11W ambiguity: fall back to the default layout.
    if (d == 0 && *min == l.strides[1])
      return false;
    min = l.strides[d];
    if (l.sizes[d] > 1)
      min = llvm::checkedMul(*min, l.sizes[d]);
  }
  return true;
}

bool mlir::layout::isStridesLikeChannelsLast(const StridedLayout &l) {
  return l.rank() == 4 && isStridesLikeInOrder(l, {1, 3, 2, 0});
}

bool mlir::layout::isStridesLikeChannelsLast3d(const StridedLayout &l) {
  return l.rank() == 5 && isStridesLikeInOrder(l, {1, 4, 3, 2, 0});
}

MemoryFormat mlir::layout::suggestMemoryFormat(const StridedLayout &l) {
  if (isStridesLikeChannelsLast(l))
    return MemoryFormat::ChannelsLast;
  if (isStridesLikeChannelsLast3d(l))
    return MemoryFormat::ChannelsLast3d;
  return MemoryFormat::Contiguous;
}

Dims mlir::layout::inferDenseStrides(ArrayRef<int64_t> sizes,
                                     ArrayRef<int64_t> strides) {
  size_t ndim = sizes.size();
  if (ndim == 0)
    return {};
  if (ndim == 1)
    return {1};
  // perm starts as n-1, ..., 0 (innermost first) and is insertion-sorted with
  // TensorIterator's comparison; stride-0 dims compare as ambiguous.
  Dims perm(ndim);
  for (size_t i = 0; i < ndim; ++i)
    perm[i] = ndim - 1 - i;
  auto shouldSwap = [&](int64_t d0, int64_t d1) {
    int64_t s0 = strides[d0], s1 = strides[d1];
    if (s0 == 0 || s1 == 0)
      return 0;
    if (s0 < s1)
      return -1;
    if (s0 > s1)
      return 1;
    if (sizes[d0] > sizes[d1])
      return 1;
    return 0;
  };
  for (size_t i = 1; i < ndim; ++i) {
    size_t d1 = i;
    for (size_t j = 1; j <= i; ++j) {
      size_t d0 = i - j;
      int c = shouldSwap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  Dims out(ndim);
  int64_t running = 1;
  for (int64_t d : perm) {
    out[d] = running;
    if (sizes[d] > 1) {
      // Saturates only when numel does not fit in i64 (no valid layout).
      std::optional<int64_t> next = llvm::checkedMul(running, sizes[d]);
      running = next ? *next : std::numeric_limits<int64_t>::max();
    }
  }
  return out;
}

Dims mlir::layout::rowMajorStridesWhereKnown(ArrayRef<int64_t> sizes) {
  Dims strides(sizes.size());
  int64_t running = 1;
  for (int64_t i = static_cast<int64_t>(sizes.size()) - 1; i >= 0; --i) {
    strides[i] = running;
    if (running == kDynamic || sizes[i] == kDynamic) {
      running = kDynamic;
      continue;
    }
    std::optional<int64_t> next =
        llvm::checkedMul(running, std::max<int64_t>(sizes[i], 1));
    running = next ? *next : kDynamic;
  }
  return strides;
}
