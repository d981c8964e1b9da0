//===- LayoutAlgebra.cpp - Pure strided-layout math -----------------------===//
//
// PyTorch 1.13's view rules (TensorShape.cpp, TensorUtils.cpp, TensorImpl.cpp,
// MemOverlap.cpp) restated over (sizes, strides, offset) with checked i64
// arithmetic. See LayoutAlgebra.h for the contracts.
//
//===----------------------------------------------------------------------===//
// ALGEBRA-READY

#include "layout/Dialect/Layout/Utils/LayoutAlgebra.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::layout;
using llvm::ArrayRef;

//===----------------------------------------------------------------------===//
// Formatting and checked arithmetic
//===----------------------------------------------------------------------===//

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

static Failure overflow(llvm::StringRef what) {
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

//===----------------------------------------------------------------------===//
// Memory formats and contiguity
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// View ops
//===----------------------------------------------------------------------===//

/// Final validation every view result goes through: its element count and
/// storage extent must be representable.
static Fallible<StridedLayout> checked(StridedLayout l) {
  Fallible<int64_t> n = numel(l.sizes);
  if (!n)
    return fail(n.message());
  Fallible<std::optional<Span>> s = span(l);
  if (!s)
    return fail(s.message());
  return l;
}

Fallible<StridedLayout> mlir::layout::asStrided(ArrayRef<int64_t> sizes,
                                                ArrayRef<int64_t> strides,
                                                int64_t offset) {
  if (sizes.size() != strides.size())
    return fail("mismatch in length of strides and shape: " +
                std::to_string(sizes.size()) + " sizes but " +
                std::to_string(strides.size()) + " strides");
  for (int64_t s : sizes)
    if (s < 0)
      return fail("Trying to create tensor with negative dimension " +
                  std::to_string(s) + ": " + formatDims(sizes));
  if (offset < 0)
    return fail("Tensor: invalid storage offset " + std::to_string(offset));
  return checked(StridedLayout(sizes, strides, offset));
}

Fallible<Dims> mlir::layout::inferSize(ArrayRef<int64_t> shape,
                                       int64_t numelIn) {
  int64_t newSize = 1;
  std::optional<int64_t> inferDim;
  for (auto [i, s] : llvm::enumerate(shape)) {
    if (s == -1) {
      if (inferDim)
        return fail("only one dimension can be inferred");
      inferDim = i;
    } else if (s >= 0) {
      std::optional<int64_t> m = llvm::checkedMul(newSize, s);
      if (!m)
        return overflow("the number of elements of " + formatDims(shape));
      newSize = *m;
    } else {
      return fail("invalid shape dimension " + std::to_string(s));
    }
  }
  Dims result(shape.begin(), shape.end());
  if (numelIn == newSize ||
      (inferDim && newSize > 0 && numelIn % newSize == 0)) {
    if (inferDim) {
      // -1 can't be inferred when the other dims hold 0 elements.
      if (newSize == 0)
        return fail("cannot reshape tensor of 0 elements into shape " +
                    formatDims(shape) +
                    " because the unspecified dimension size -1 can be any "
                    "value and is ambiguous");
      result[*inferDim] = numelIn / newSize;
    }
    return result;
  }
  return fail("shape '" + formatDims(shape) +
              "' is invalid for input of size " + std::to_string(numelIn));
}

std::optional<Dims> mlir::layout::computeStride(ArrayRef<int64_t> oldSizes,
                                                ArrayRef<int64_t> oldStrides,
                                                ArrayRef<int64_t> newSizes) {
  if (oldSizes.empty())
    return Dims(newSizes.size(), 1);
  Fallible<int64_t> total = numel(oldSizes);
  if (!total)
    return std::nullopt;
  int64_t n = *total;
  // With no elements the strides are arbitrary: keep them when the shape is
  // unchanged (NumPy), else use resize's strides.
  if (n == 0 && oldSizes == newSizes)
    return Dims(oldStrides.begin(), oldStrides.end());
  Dims newStrides(newSizes.size());
  if (n == 0) {
    for (int64_t d = static_cast<int64_t>(newSizes.size()) - 1; d >= 0; --d) {
      if (d == static_cast<int64_t>(newSizes.size()) - 1) {
        newStrides[d] = 1;
      } else {
        std::optional<int64_t> s = llvm::checkedMul(
            std::max<int64_t>(newSizes[d + 1], 1), newStrides[d + 1]);
        if (!s)
          return std::nullopt;
        newStrides[d] = *s;
      }
    }
    return newStrides;
  }
  int64_t viewD = static_cast<int64_t>(newSizes.size()) - 1;
  // Stride of the innermost dim of the current contiguous chunk.
  int64_t chunkBaseStride = oldStrides.back();
  int64_t tensorNumel = 1, viewNumel = 1;
  for (int64_t tensorD = static_cast<int64_t>(oldSizes.size()) - 1;
       tensorD >= 0; --tensorD) {
    tensorNumel *= oldSizes[tensorD]; // at most n
    // At the end of a chunk, the view dims must tile it exactly. (A stride
    // that does not fit in i64 equals no stride.)
    std::optional<int64_t> chunkStride =
        llvm::checkedMul(tensorNumel, chunkBaseStride);
    if (tensorD == 0 ||
        (oldSizes[tensorD - 1] != 1 &&
         (!chunkStride || oldStrides[tensorD - 1] != *chunkStride))) {
      while (viewD >= 0 && (viewNumel < tensorNumel || newSizes[viewD] == 1)) {
        std::optional<int64_t> stride =
            llvm::checkedMul(viewNumel, chunkBaseStride);
        std::optional<int64_t> next =
            llvm::checkedMul(viewNumel, newSizes[viewD]);
        if (!stride || !next)
          return std::nullopt;
        newStrides[viewD] = *stride;
        viewNumel = *next;
        --viewD;
      }
      if (viewNumel != tensorNumel)
        return std::nullopt;
      if (tensorD > 0) {
        chunkBaseStride = oldStrides[tensorD - 1];
        tensorNumel = 1;
        viewNumel = 1;
      }
    }
  }
  if (viewD != -1)
    return std::nullopt;
  return newStrides;
}

/// Shared by view/reshape: the resolved shape and, when viewable, strides.
struct ViewAttempt {
  Dims shape;
  std::optional<Dims> strides;
};
static Fallible<ViewAttempt> tryView(const StridedLayout &in,
                                     ArrayRef<int64_t> shape) {
  Fallible<int64_t> n = numel(in.sizes);
  if (!n)
    return fail(n.message());
  Fallible<Dims> resolved = inferSize(shape, *n);
  if (!resolved)
    return fail(resolved.message());
  std::optional<Dims> strides = computeStride(in.sizes, in.strides, *resolved);
  return ViewAttempt{*resolved, strides};
}

Fallible<StridedLayout> mlir::layout::view(const StridedLayout &in,
                                           ArrayRef<int64_t> shape) {
  Fallible<ViewAttempt> a = tryView(in, shape);
  if (!a)
    return fail(a.message());
  if (!a->strides)
    return fail("view size is not compatible with input tensor's size and "
                "stride (at least one dimension spans across two contiguous "
                "subspaces). Use .reshape(...) instead.");
  return checked(StridedLayout(a->shape, *a->strides, in.offset));
}

Fallible<MaybeCopy> mlir::layout::reshape(const StridedLayout &in,
                                          ArrayRef<int64_t> shape) {
  Fallible<ViewAttempt> a = tryView(in, shape);
  if (!a)
    return fail(a.message());
  if (a->strides) {
    Fallible<StridedLayout> v =
        checked(StridedLayout(a->shape, *a->strides, in.offset));
    if (!v)
      return fail(v.message());
    return MaybeCopy{*v, false};
  }
  Fallible<Dims> strides = contiguousStrides(a->shape);
  if (!strides)
    return fail(strides.message());
  return MaybeCopy{StridedLayout(a->shape, *strides, 0), true};
}

Fallible<MaybeCopy> mlir::layout::flatten(const StridedLayout &in,
                                          int64_t startDim, int64_t endDim) {
  Fallible<int64_t> start = wrapDim(startDim, in.rank());
  if (!start)
    return fail(start.message());
  Fallible<int64_t> end = wrapDim(endDim, in.rank());
  if (!end)
    return fail(end.message());
  if (*start > *end)
    return fail("flatten() has invalid args: start_dim cannot come after "
                "end_dim");
  if (in.rank() == 0)
    return reshape(in, {1});
  if (*start == *end)
    return MaybeCopy{in, false};
  Fallible<int64_t> sliceNumel =
      numel(ArrayRef<int64_t>(in.sizes).slice(*start, *end - *start + 1));
  if (!sliceNumel)
    return fail(sliceNumel.message());
  Dims shape(in.sizes.begin(), in.sizes.begin() + *start);
  shape.push_back(*sliceNumel);
  shape.append(in.sizes.begin() + *end + 1, in.sizes.end());
  return reshape(in, shape);
}

Fallible<StridedLayout> mlir::layout::permute(const StridedLayout &in,
                                              ArrayRef<int64_t> dims) {
  if (static_cast<int64_t>(dims.size()) != in.rank())
    return fail("permute(sparse_coo): number of dimensions in the tensor "
                "input does not match the length of the desired ordering of "
                "dimensions i.e. input.dim() = " +
                std::to_string(in.rank()) +
                " is not equal to len(dims) = " + std::to_string(dims.size()));
  StridedLayout out;
  out.offset = in.offset;
  llvm::SmallVector<bool, 6> seen(in.rank(), false);
  for (int64_t d : dims) {
    Fallible<int64_t> w = wrapDim(d, in.rank());
    if (!w)
      return fail(w.message());
    if (seen[*w])
      return fail("permute(): duplicate dims are not allowed.");
    seen[*w] = true;
    out.sizes.push_back(in.sizes[*w]);
    out.strides.push_back(in.strides[*w]);
  }
  return out;
}

Fallible<StridedLayout> mlir::layout::transpose(const StridedLayout &in,
                                                int64_t dim0, int64_t dim1) {
  Fallible<int64_t> a = wrapDim(dim0, in.rank());
  if (!a)
    return fail(a.message());
  Fallible<int64_t> b = wrapDim(dim1, in.rank());
  if (!b)
    return fail(b.message());
  StridedLayout out = in;
  if (in.rank() == 0)
    return out;
  std::swap(out.sizes[*a], out.sizes[*b]);
  std::swap(out.strides[*a], out.strides[*b]);
  return out;
}

Fallible<StridedLayout> mlir::layout::movedim(const StridedLayout &in,
                                              int64_t source,
                                              int64_t destination) {
  Fallible<int64_t> src = wrapDim(source, in.rank());
  if (!src)
    return fail(src.message());
  Fallible<int64_t> dst = wrapDim(destination, in.rank());
  if (!dst)
    return fail(dst.message());
  if (in.rank() == 0)
    return in;
  Dims order;
  for (int64_t d = 0; d < in.rank(); ++d)
    if (d != *src)
      order.push_back(d);
  order.insert(order.begin() + *dst, *src);
  return permute(in, order);
}

Fallible<StridedLayout> mlir::layout::slice(const StridedLayout &in,
                                            int64_t dim,
                                            std::optional<int64_t> start,
                                            std::optional<int64_t> end,
                                            int64_t step) {
  if (in.rank() == 0)
    return fail("slice() cannot be applied to a 0-dim tensor.");
  Fallible<int64_t> d = wrapDim(dim, in.rank());
  if (!d)
    return fail(d.message());
  if (step <= 0)
    return fail("slice step must be positive, got " + std::to_string(step));
  int64_t size = in.sizes[*d];
  int64_t s = start.value_or(0);
  int64_t e = end.value_or(std::numeric_limits<int64_t>::max());
  if (s < 0)
    s += size;
  if (e < 0)
    e += size;
  s = std::clamp<int64_t>(s, 0, size);
  e = std::clamp<int64_t>(e, s, size);
  StridedLayout out = in;
  std::optional<int64_t> off =
      llvm::checkedMulAdd(s, in.strides[*d], in.offset);
  std::optional<int64_t> stride = llvm::checkedMul(in.strides[*d], step);
  if (!off || !stride)
    return overflow("the sliced view's offset or stride");
  out.offset = *off;
  out.sizes[*d] = (e - s) / step + ((e - s) % step != 0);
  // (ext) Through a negative stride (flip), an empty slice can start before
  // the storage; a view without elements reads nothing, so keep it at 0.
  if (out.sizes[*d] == 0 && out.offset < 0)
    out.offset = 0;
  out.strides[*d] = *stride;
  return checked(out);
}

Fallible<StridedLayout> mlir::layout::select(const StridedLayout &in,
                                             int64_t dim, int64_t index) {
  if (in.rank() == 0)
    return fail("select() cannot be applied to a 0-dim tensor.");
  Fallible<int64_t> d = wrapDim(dim, in.rank());
  if (!d)
    return fail(d.message());
  int64_t size = in.sizes[*d];
  if (index < -size || index >= size)
    return fail("select(): index " + std::to_string(index) +
                " out of range for tensor of size " + formatDims(in.sizes) +
                " at dimension " + std::to_string(*d));
  if (index < 0)
    index += size;
  StridedLayout out = in;
  std::optional<int64_t> off =
      llvm::checkedMulAdd(index, in.strides[*d], in.offset);
  if (!off)
    return overflow("the selected view's offset");
  out.offset = *off;
  out.sizes.erase(out.sizes.begin() + *d);
  out.strides.erase(out.strides.begin() + *d);
  return out;
}

Fallible<StridedLayout> mlir::layout::narrow(const StridedLayout &in,
                                             int64_t dim, int64_t start,
                                             int64_t length) {
  if (in.rank() == 0)
    return fail("narrow() cannot be applied to a 0-dim tensor.");
  Fallible<int64_t> d = wrapDim(dim, in.rank());
  if (!d)
    return fail(d.message());
  int64_t size = in.sizes[*d];
  // start == size is valid (an empty narrow at the end).
  if (start != size) {
    Fallible<int64_t> w = wrapDim(start, size);
    if (!w)
      return fail("start out of range: " + w.message());
    start = *w;
  }
  if (length < 0 || start > size - length)
    return fail("start (" + std::to_string(start) + ") + length (" +
                std::to_string(length) + ") exceeds dimension size (" +
                std::to_string(size) + ").");
  return slice(in, *d, start, start + length, 1);
}

Fallible<StridedLayout> mlir::layout::expand(const StridedLayout &in,
                                             ArrayRef<int64_t> sizes) {
  int64_t ndim = sizes.size();
  if (ndim < in.rank())
    return fail("expand: the number of sizes provided (" +
                std::to_string(ndim) +
                ") must be greater or equal to the number of dimensions in "
                "the tensor (" +
                std::to_string(in.rank()) + ")");
  StridedLayout out;
  out.offset = in.offset;
  out.sizes.resize(ndim);
  out.strides.resize(ndim);
  for (int64_t i = ndim - 1; i >= 0; --i) {
    int64_t dim = in.rank() - 1 - (ndim - 1 - i);
    int64_t size = dim >= 0 ? in.sizes[dim] : 1;
    int64_t stride;
    if (dim >= 0) {
      stride = in.strides[dim];
    } else if (i == ndim - 1) {
      // Only a 0-dim tensor gets here: it expands with all-zero strides
      // (inferExpandGeometry's early return), torch.tensor(1.).expand(1).
      stride = 0;
    } else {
      std::optional<int64_t> s =
          llvm::checkedMul(out.sizes[i + 1], out.strides[i + 1]);
      if (!s)
        return overflow("the expanded strides");
      stride = *s;
    }
    int64_t target = sizes[i];
    if (target == -1) {
      if (dim < 0)
        return fail("The expanded size of the tensor (-1) isn't allowed in a "
                    "leading, non-existing dimension " +
                    std::to_string(i));
      target = size;
    }
    if (target < 0)
      return fail("Trying to create tensor with negative dimension " +
                  std::to_string(target) + ": " + formatDims(sizes));
    if (size != target) {
      if (size != 1)
        return fail("The expanded size of the tensor (" +
                    std::to_string(target) +
                    ") must match the existing size (" + std::to_string(size) +
                    ") at non-singleton dimension " + std::to_string(i) +
                    ".  Target sizes: " + formatDims(sizes) +
                    ".  Tensor sizes: " + formatDims(in.sizes));
      size = target;
      stride = 0;
    }
    out.sizes[i] = size;
    out.strides[i] = stride;
  }
  return checked(out);
}

Fallible<StridedLayout> mlir::layout::squeeze(const StridedLayout &in,
                                              ArrayRef<int64_t> dims) {
  llvm::SmallVector<bool, 6> drop(in.rank(), dims.empty());
  for (int64_t d : dims) {
    Fallible<int64_t> w = wrapDim(d, in.rank());
    if (!w)
      return fail(w.message());
    if (in.rank() > 0) {
      if (drop[*w])
        return fail("dim " + std::to_string(*w) +
                    " appears multiple times in the list of dims");
      drop[*w] = true;
    }
  }
  StridedLayout out;
  out.offset = in.offset;
  for (int64_t d = 0; d < in.rank(); ++d) {
    if (drop[d] && in.sizes[d] == 1)
      continue;
    out.sizes.push_back(in.sizes[d]);
    out.strides.push_back(in.strides[d]);
  }
  return out;
}

Fallible<StridedLayout> mlir::layout::unsqueeze(const StridedLayout &in,
                                                int64_t dim) {
  Fallible<int64_t> d = wrapDim(dim, in.rank() + 1);
  if (!d)
    return fail(d.message());
  int64_t stride = 1;
  if (*d < in.rank()) {
    std::optional<int64_t> s = llvm::checkedMul(in.sizes[*d], in.strides[*d]);
    if (!s)
      return overflow("the unsqueezed stride");
    stride = *s;
  }
  StridedLayout out = in;
  out.sizes.insert(out.sizes.begin() + *d, 1);
  out.strides.insert(out.strides.begin() + *d, stride);
  return out;
}

Fallible<StridedLayout> mlir::layout::unflatten(const StridedLayout &in,
                                                int64_t dim,
                                                ArrayRef<int64_t> sizes) {
  Fallible<int64_t> d = wrapDim(dim, in.rank());
  if (!d)
    return fail(d.message());
  if (sizes.empty())
    return fail("unflatten: sizes must be non-empty");
  if (in.rank() == 0)
    return fail("dimension specified as " + std::to_string(dim) +
                " but tensor has no dimensions");
  Fallible<Dims> inferred = inferSize(sizes, in.sizes[*d]);
  if (!inferred) {
    if (llvm::StringRef(inferred.message())
            .contains("is invalid for input of size"))
      return fail("unflatten: Provided sizes " + formatDims(sizes) +
                  " don't multiply up to the size of dim " +
                  std::to_string(*d) + " (" + std::to_string(in.sizes[*d]) +
                  ") in the input tensor");
    return fail("unflatten: " + inferred.message());
  }
  Dims shape(in.sizes.begin(), in.sizes.begin() + *d);
  shape.append(inferred->begin(), inferred->end());
  shape.append(in.sizes.begin() + *d + 1, in.sizes.end());
  return view(in, shape);
}

Fallible<StridedLayout> mlir::layout::diagonal(const StridedLayout &in,
                                               int64_t offset, int64_t dim1,
                                               int64_t dim2) {
  Fallible<int64_t> a = wrapDim(dim1, in.rank());
  if (!a)
    return fail(a.message());
  Fallible<int64_t> b = wrapDim(dim2, in.rank());
  if (!b)
    return fail(b.message());
  if (*a == *b)
    return fail("diagonal dimensions cannot be identical " +
                std::to_string(dim1) + ", " + std::to_string(dim2));
  int64_t d1 = *a, d2 = *b;
  int64_t size1 = in.sizes[d1], size2 = in.sizes[d2];
  int64_t diagSize;
  // Saturate: offsets far past the end give an empty diagonal.
  auto sub = [](int64_t x, int64_t y) {
    std::optional<int64_t> r = llvm::checkedSub(x, y);
    return r ? *r
             : (y > 0 ? std::numeric_limits<int64_t>::min()
                      : std::numeric_limits<int64_t>::max());
  };
  if (offset >= 0)
    diagSize = std::max<int64_t>(std::min(size1, sub(size2, offset)), 0);
  else
    diagSize = std::max<int64_t>(std::min(size1 + offset, size2), 0);
  StridedLayout out;
  out.offset = in.offset;
  if (diagSize != 0) {
    std::optional<int64_t> off =
        offset >= 0 ? llvm::checkedMulAdd(offset, in.strides[d2], in.offset)
                    : llvm::checkedMulAdd(-offset, in.strides[d1], in.offset);
    if (!off)
      return overflow("the diagonal's offset");
    out.offset = *off;
  }
  for (int64_t d = 0; d < in.rank(); ++d) {
    if (d == d1 || d == d2)
      continue;
    out.sizes.push_back(in.sizes[d]);
    out.strides.push_back(in.strides[d]);
  }
  std::optional<int64_t> stride =
      llvm::checkedAdd(in.strides[d1], in.strides[d2]);
  if (!stride)
    return overflow("the diagonal's stride");
  out.sizes.push_back(diagSize);
  out.strides.push_back(*stride);
  return checked(out);
}

Fallible<StridedLayout> mlir::layout::unfold(const StridedLayout &in,
                                             int64_t dim, int64_t size,
                                             int64_t step) {
  Fallible<int64_t> d = wrapDim(dim, in.rank(), /*wrapScalar=*/true);
  if (!d)
    return fail(d.message());
  int64_t maxSize = in.rank() == 0 ? 1 : in.sizes[*d];
  if (size > maxSize)
    return fail("maximum size for tensor at dimension " + std::to_string(*d) +
                " is " + std::to_string(maxSize) + " but size is " +
                std::to_string(size));
  if (step <= 0)
    return fail("step is " + std::to_string(step) + " but must be > 0");
  if (size < 0)
    return fail("Trying to create tensor with negative dimension " +
                std::to_string(size));
  StridedLayout out = in;
  if (in.rank() > 0) {
    std::optional<int64_t> stride = llvm::checkedMul(step, in.strides[*d]);
    if (!stride)
      return overflow("the unfolded stride");
    out.sizes[*d] = (in.sizes[*d] - size) / step + 1;
    out.strides[*d] = *stride;
  }
  out.sizes.push_back(size);
  out.strides.push_back(in.rank() == 0 ? 1 : in.strides[*d]);
  return checked(out);
}

Fallible<StridedLayout> mlir::layout::flip(const StridedLayout &in,
                                           ArrayRef<int64_t> dims) {
  llvm::SmallVector<bool, 6> flipped(std::max<int64_t>(in.rank(), 1), false);
  StridedLayout out = in;
  for (int64_t dim : dims) {
    Fallible<int64_t> d = wrapDim(dim, in.rank());
    if (!d)
      return fail(d.message());
    if (flipped[*d])
      return fail("dim " + std::to_string(*d) +
                  " appears multiple times in the list of dims");
    flipped[*d] = true;
    if (in.rank() == 0)
      continue;
    // Start at the last element along d and walk backwards; an empty dim
    // keeps the offset (there is no last element).
    if (in.sizes[*d] > 0) {
      std::optional<int64_t> off =
          llvm::checkedMulAdd(in.sizes[*d] - 1, in.strides[*d], out.offset);
      if (!off)
        return overflow("the flipped view's offset");
      out.offset = *off;
    }
    out.strides[*d] = -in.strides[*d];
  }
  return checked(out);
}

Fallible<llvm::SmallVector<StridedLayout, 4>>
mlir::layout::split(const StridedLayout &in, int64_t dim,
                    ArrayRef<int64_t> sizes) {
  if (in.rank() == 0)
    return fail("split expects at least a 1-dimensional tensor");
  Fallible<int64_t> d = wrapDim(dim, in.rank());
  if (!d)
    return fail(d.message());
  for (int64_t s : sizes)
    if (s < 0)
      return fail("split_with_sizes expects split_sizes have only "
                  "non-negative entries, but got split_sizes=" +
                  formatDims(sizes));
  std::optional<int64_t> total = 0;
  for (int64_t s : sizes)
    total = total ? llvm::checkedAdd(*total, s) : std::nullopt;
  if (total != in.sizes[*d])
    return fail("split_with_sizes expects split_sizes to sum exactly to " +
                std::to_string(in.sizes[*d]) +
                " (input tensor's size at dimension " + std::to_string(*d) +
                "), but got split_sizes=" + formatDims(sizes));
  llvm::SmallVector<StridedLayout, 4> parts;
  int64_t start = 0;
  for (int64_t s : sizes) {
    Fallible<StridedLayout> part = narrow(in, *d, start, s);
    if (!part)
      return fail(part.message());
    parts.push_back(*part);
    start += s;
  }
  return parts;
}

//===----------------------------------------------------------------------===//
// Ops that may copy
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Analyses
//===----------------------------------------------------------------------===//

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
  // The buffer's storage order: modes (size, source stride) from the
  // outermost storage position to the innermost, size-1 dims dropped.
  llvm::SmallVector<int64_t, 6> order;
  for (int64_t d = 0; d < buffer.rank(); ++d)
    if (buffer.sizes[d] > 1)
      order.push_back(d);
  llvm::stable_sort(order, [&](int64_t x, int64_t y) {
    return buffer.strides[x] > buffer.strides[y];
  });
  struct Mode {
    int64_t size, radix, srcStride;
  };
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
  // The digit proof below is sufficient, not necessary (any two elements lie
  // on a line; a carry can happen to move linearly). Small views are decided
  // exactly: the only candidate strides are the steps to the unit indices,
  // checked at every index.
  auto exact = [&]() -> std::optional<StridedLayout> {
    constexpr int64_t kExactLimit = int64_t(1) << 16;
    Fallible<int64_t> n = numel(outer.sizes);
    Fallible<int64_t> bufferSize = numel(buffer.sizes);
    if (!n || *n > kExactLimit || !bufferSize)
      return std::nullopt;
    // Source element at buffer position `pos` (nullopt outside the buffer).
    auto sourceAt = [&](std::optional<int64_t> pos) -> std::optional<int64_t> {
      if (!pos || *pos < 0 || *pos >= *bufferSize)
        return std::nullopt;
      std::optional<int64_t> off = source.offset;
      int64_t rest = *pos;
      for (const Mode &m : modes) {
        if (off)
          off = llvm::checkedMulAdd(rest / m.radix, m.srcStride, *off);
        rest %= m.radix;
      }
      return off;
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
  };
  // Mixed-radix digits of a buffer offset, outermost first.
  // Fails when a remainder is left (cannot happen for a dense buffer unless
  // the value is not an offset inside it).
  auto digits = [&](int64_t v, llvm::SmallVectorImpl<int64_t> &out) {
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
