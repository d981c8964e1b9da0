//===- ViewOps.cpp - PyTorch view ops on layouts --------------------------===//
//
// PyTorch 1.13's view rules (TensorShape.cpp, TensorUtils.cpp) restated
// over (sizes, strides, offset) with checked i64 arithmetic: every view op's
// result layout or PyTorch's error. See ViewOps.h for the contracts.
//
//===----------------------------------------------------------------------===//
// ALGEBRA-READY

#include "layout/Dialect/Layout/Utils/ViewOps.h"

#include "LayoutAlgebraDetail.h"

#include "layout/Dialect/Layout/Utils/MemoryFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::layout;
using llvm::ArrayRef;
using mlir::layout::detail::overflow;

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

namespace {
/// Shared by view/reshape: the resolved shape and, when viewable, strides.
struct ViewAttempt {
  Dims shape;
  std::optional<Dims> strides;
};
} // namespace

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
    return fail(kViewIncompatible);
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
      return fail(w.message());
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
                " (input tensor's size at dimension " + std::to_string(dim) +
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
