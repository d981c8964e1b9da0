//===- SymbolicViews.cpp - PyTorch's view rules on symbolic layouts -------===//
//
// ViewOps.cpp's and CopyingOps.cpp's rules restated over polynomials: the
// same steps, with each comparison on a size either decided by the symbols'
// ranges or recorded as a run-time check with PyTorch's message. See
// SymbolicViews.h for the contracts.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/SymbolicViews.h"

#include "SymbolicDetail.h"

#include "layout/Dialect/Layout/Utils/CopyingOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <functional>

using namespace mlir;
using namespace mlir::layout;
using detail::checked;
using detail::Message;
using detail::product;
using detail::require;
using llvm::ArrayRef;

Fallible<SymLayout>
mlir::layout::symbolicArgument(SymTable &table, const StridedLayout &declared,
                               llvm::StringRef name) {
  SymLayout l;
  for (auto [k, s] : llvm::enumerate(declared.sizes))
    l.sizes.push_back(s == kDynamic ? table.input((name.str() + "[" +
                                                   std::to_string(k) + "]"),
                                                  /*isSize=*/true)
                                    : SymExpr(s));
  // The form a type prints without a layout: row-major by definition.
  bool isRowMajor =
      declared.offset == 0 &&
      llvm::equal(rowMajorStridesWhereKnown(declared.sizes), declared.strides);
  if (isRowMajor) {
    l.strides = rowMajorStrides(l.sizes);
  } else {
    for (auto [k, s] : llvm::enumerate(declared.strides))
      l.strides.push_back(
          s == kDynamic
              ? table.input(name.str() + ".stride[" + std::to_string(k) + "]",
                            /*isSize=*/false)
              : SymExpr(s));
  }
  // A storage offset is >= 0, as PyTorch's.
  l.offset = declared.offset == kDynamic
                 ? table.input(name.str() + ".offset", /*isSize=*/true)
                 : SymExpr(declared.offset);
  return checked(l);
}

//===----------------------------------------------------------------------===//
// View ops
//===----------------------------------------------------------------------===//

Fallible<SymLayout> mlir::layout::permute(SymTable &, const SymLayout &in,
                                          ArrayRef<int64_t> dims) {
  if (static_cast<int64_t>(dims.size()) != in.rank())
    return fail("permute(sparse_coo): number of dimensions in the tensor "
                "input does not match the length of the desired ordering of "
                "dimensions i.e. input.dim() = " +
                std::to_string(in.rank()) +
                " is not equal to len(dims) = " + std::to_string(dims.size()));
  SymLayout out;
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

Fallible<SymLayout> mlir::layout::transpose(SymTable &, const SymLayout &in,
                                            int64_t dim0, int64_t dim1) {
  Fallible<int64_t> a = wrapDim(dim0, in.rank());
  if (!a)
    return fail(a.message());
  Fallible<int64_t> b = wrapDim(dim1, in.rank());
  if (!b)
    return fail(b.message());
  SymLayout out = in;
  if (in.rank() == 0)
    return out;
  std::swap(out.sizes[*a], out.sizes[*b]);
  std::swap(out.strides[*a], out.strides[*b]);
  return out;
}

Fallible<SymLayout> mlir::layout::movedim(SymTable &t, const SymLayout &in,
                                          int64_t source, int64_t destination) {
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
  return permute(t, in, order);
}

Fallible<SymLayout> mlir::layout::slice(SymTable &t, const SymLayout &in,
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
  const SymExpr &size = in.sizes[*d];
  // Negative bounds count from the end; both clamp into [0, size] and the
  // end is at least the start.
  SymExpr s = start.value_or(0);
  if (start && *start < 0)
    s = size + s;
  SymExpr e = end ? SymExpr(*end) : size;
  if (end && *end < 0)
    e = size + e;
  s = t.clamp(s, SymExpr(0), size);
  e = t.clamp(e, s, size);
  SymLayout out = in;
  out.offset = in.offset + s * in.strides[*d];
  out.sizes[*d] = t.ceilDiv(e - s, step);
  out.strides[*d] = in.strides[*d] * SymExpr(step);
  return checked(out);
}

Fallible<SymLayout> mlir::layout::select(SymTable &t, const SymLayout &in,
                                         int64_t dim, int64_t index) {
  if (in.rank() == 0)
    return fail("select() cannot be applied to a 0-dim tensor.");
  Fallible<int64_t> d = wrapDim(dim, in.rank());
  if (!d)
    return fail(d.message());
  const SymExpr &size = in.sizes[*d];
  Message m;
  m << "select(): index " << index << " out of range for tensor of size ";
  m.dims(in.sizes) << " at dimension " << *d;
  SymCond inRange = index >= 0 ? SymCond::lt(SymExpr(index), size)
                               : SymCond::ge(size, SymExpr(-index));
  Fallible<std::monostate> ok = require(t, inRange, m);
  if (!ok)
    return fail(ok.message());
  SymExpr i = index >= 0 ? SymExpr(index) : size + SymExpr(index);
  SymLayout out = in;
  out.offset = in.offset + i * in.strides[*d];
  out.sizes.erase(out.sizes.begin() + *d);
  out.strides.erase(out.strides.begin() + *d);
  return checked(out);
}

Fallible<SymLayout> mlir::layout::narrow(SymTable &t, const SymLayout &in,
                                         int64_t dim, int64_t start,
                                         int64_t length) {
  if (in.rank() == 0)
    return fail("narrow() cannot be applied to a 0-dim tensor.");
  Fallible<int64_t> d = wrapDim(dim, in.rank());
  if (!d)
    return fail(d.message());
  const SymExpr &size = in.sizes[*d];
  // maybe_wrap_dim(start, size): range [-max(size, 1), max(size, 1) - 1],
  // except that start == size is an empty narrow at the end.
  SymExpr wrapRange = t.max(size, SymExpr(1));
  Message range;
  range << "Dimension out of range (expected to be in "
           "range of ["
        << -wrapRange << ", " << wrapRange - SymExpr(1) << "], but got "
        << start << ")";
  SymCond valid = start >= 0 ? SymCond::ge(size, SymExpr(start))
                             : SymCond::ge(wrapRange, SymExpr(-start));
  Fallible<std::monostate> ok = require(t, valid, range);
  if (!ok)
    return fail(ok.message());
  SymExpr s = start >= 0 ? SymExpr(start) : wrapRange + SymExpr(start);
  Message exceeds;
  exceeds << "start (" << s << ") + length (" << length
          << ") exceeds dimension size (" << size << ").";
  SymCond fits = length < 0 ? SymCond::alwaysFalse()
                            : SymCond::ge(size - SymExpr(length), s);
  ok = require(t, fits, exceeds);
  if (!ok)
    return fail(ok.message());
  SymLayout out = in;
  out.offset = in.offset + s * in.strides[*d];
  out.sizes[*d] = SymExpr(length);
  return checked(out);
}

Fallible<SymLayout> mlir::layout::expand(SymTable &t, const SymLayout &in,
                                         ArrayRef<int64_t> sizes) {
  int64_t ndim = sizes.size();
  if (ndim < in.rank())
    return fail("expand: the number of sizes provided (" +
                std::to_string(ndim) +
                ") must be greater or equal to the number of dimensions in "
                "the tensor (" +
                std::to_string(in.rank()) + ")");
  SymLayout out;
  out.offset = in.offset;
  out.sizes.resize(ndim);
  out.strides.resize(ndim);
  for (int64_t i = ndim - 1; i >= 0; --i) {
    int64_t dim = in.rank() - 1 - (ndim - 1 - i);
    SymExpr size = dim >= 0 ? in.sizes[dim] : SymExpr(1);
    SymExpr stride;
    if (dim >= 0)
      stride = in.strides[dim];
    else if (i == ndim - 1)
      stride = SymExpr(0);
    else
      stride = out.sizes[i + 1] * out.strides[i + 1];
    int64_t target = sizes[i];
    if (target == -1) {
      if (dim < 0)
        return fail("The expanded size of the tensor (-1) isn't allowed in a "
                    "leading, non-existing dimension " +
                    std::to_string(i));
      out.sizes[i] = size;
      out.strides[i] = stride;
      continue;
    }
    if (target < 0)
      return fail("Trying to create tensor with negative dimension " +
                  std::to_string(target) + ": " + formatDims(sizes));
    // The size must equal the target, or be 1 and broadcast (stride 0).
    Message m;
    m << "The expanded size of the tensor (" << target
      << ") must match the existing size (" << size
      << ") at non-singleton dimension " << i
      << ".  Target sizes: " << formatDims(sizes) << ".  Tensor sizes: ";
    m.dims(in.sizes);
    SymCond same = SymCond::eq(size, SymExpr(target));
    Fallible<std::monostate> ok =
        require(t, SymCond::either(same, SymCond::eq(size, SymExpr(1))), m);
    if (!ok)
      return fail(ok.message());
    out.sizes[i] = SymExpr(target);
    out.strides[i] = t.select(same, stride, SymExpr(0));
  }
  return checked(out);
}

Fallible<SymLayout> mlir::layout::squeeze(SymTable &t, const SymLayout &in,
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
  SymLayout out;
  out.offset = in.offset;
  for (int64_t d = 0; d < in.rank(); ++d) {
    if (drop[d]) {
      std::optional<bool> isOne =
          t.decide(SymCond::eq(in.sizes[d], SymExpr(1)));
      if (!isOne)
        return fail("squeeze: whether dim " + std::to_string(d) + " (size " +
                    t.str(in.sizes[d]) +
                    ") is removed depends on its run-time size, but the "
                    "result's rank must be known at compile time; select or "
                    "view it instead");
      if (*isOne)
        continue;
    }
    out.sizes.push_back(in.sizes[d]);
    out.strides.push_back(in.strides[d]);
  }
  return out;
}

Fallible<SymLayout> mlir::layout::unsqueeze(SymTable &, const SymLayout &in,
                                            int64_t dim) {
  Fallible<int64_t> d = wrapDim(dim, in.rank() + 1);
  if (!d)
    return fail(d.message());
  SymExpr stride(1);
  if (*d < in.rank())
    stride = in.sizes[*d] * in.strides[*d];
  SymLayout out = in;
  out.sizes.insert(out.sizes.begin() + *d, SymExpr(1));
  out.strides.insert(out.strides.begin() + *d, stride);
  return checked(out);
}

/// Splits dim `d` into `parts` (already resolved): the view of one dim as
/// several, which computeStride always allows.
static SymLayout splitDim(const SymLayout &in, int64_t d,
                          ArrayRef<SymExpr> parts) {
  SymLayout out;
  out.offset = in.offset;
  out.sizes.append(in.sizes.begin(), in.sizes.begin() + d);
  out.strides.append(in.strides.begin(), in.strides.begin() + d);
  llvm::SmallVector<SymExpr, 6> strides(parts.size());
  SymExpr running = in.strides[d];
  for (int64_t k = static_cast<int64_t>(parts.size()) - 1; k >= 0; --k) {
    strides[k] = running;
    running = running * parts[k];
  }
  out.sizes.append(parts.begin(), parts.end());
  out.strides.append(strides.begin(), strides.end());
  out.sizes.append(in.sizes.begin() + d + 1, in.sizes.end());
  out.strides.append(in.strides.begin() + d + 1, in.strides.end());
  return out;
}

/// infer_size over a symbolic element count: `shape` with its -1 resolved,
/// the count a run-time check. `onMismatch` words the error.
static Fallible<llvm::SmallVector<SymExpr, 6>>
inferSymbolicSize(SymTable &t, ArrayRef<int64_t> shape, const SymExpr &numel,
                  const std::function<Message()> &onMismatch) {
  int64_t known = 1;
  std::optional<size_t> inferDim;
  for (auto [i, s] : llvm::enumerate(shape)) {
    if (s == -1) {
      if (inferDim)
        return fail("only one dimension can be inferred");
      inferDim = i;
    } else if (s >= 0) {
      std::optional<int64_t> m = llvm::checkedMul(known, s);
      if (!m)
        return detail::overflow("the number of elements of " +
                                formatDims(shape));
      known = *m;
    } else {
      return fail("invalid shape dimension " + std::to_string(s));
    }
  }
  llvm::SmallVector<SymExpr, 6> out;
  for (int64_t s : shape)
    out.push_back(SymExpr(s));
  if (!inferDim) {
    Fallible<std::monostate> ok =
        require(t, SymCond::eq(numel, SymExpr(known)), onMismatch());
    if (!ok)
      return fail(ok.message());
    return out;
  }
  if (known == 0) {
    // -1 among dims holding 0 elements: ambiguous when the input is empty
    // too, else the count cannot match.
    if (numel.isConstant(0))
      return fail("cannot reshape tensor of 0 elements into shape " +
                  formatDims(shape) +
                  " because the unspecified dimension size -1 can be any "
                  "value and is ambiguous");
    Fallible<std::monostate> ok =
        require(t, SymCond::alwaysFalse(), onMismatch());
    return fail(ok.message());
  }
  SymExpr quotient = t.floorDiv(numel, known);
  Fallible<std::monostate> ok =
      require(t, SymCond::eq(numel, quotient * SymExpr(known)), onMismatch());
  if (!ok)
    return fail(ok.message());
  out[*inferDim] = quotient;
  return out;
}

Fallible<SymLayout> mlir::layout::unflatten(SymTable &t, const SymLayout &in,
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
  auto mismatch = [&] {
    Message m;
    m << "unflatten: Provided sizes " << formatDims(sizes)
      << " don't multiply up to the size of dim " << *d << " (" << in.sizes[*d]
      << ") in the input tensor";
    return m;
  };
  Fallible<llvm::SmallVector<SymExpr, 6>> parts =
      inferSymbolicSize(t, sizes, in.sizes[*d], mismatch);
  if (!parts) {
    if (llvm::StringRef(parts.message()).starts_with("unflatten") ||
        llvm::StringRef(parts.message()).starts_with("integer overflow"))
      return fail(parts.message());
    return fail("unflatten: " + parts.message());
  }
  return checked(splitDim(in, *d, *parts));
}

Fallible<SymLayout> mlir::layout::diagonal(SymTable &t, const SymLayout &in,
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
  const SymExpr &size1 = in.sizes[*a], &size2 = in.sizes[*b];
  SymExpr diag = offset >= 0
                     ? t.max(t.min(size1, size2 - SymExpr(offset)), SymExpr(0))
                     : t.max(t.min(size1 + SymExpr(offset), size2), SymExpr(0));
  SymLayout out;
  out.offset = offset >= 0 ? in.offset + SymExpr(offset) * in.strides[*b]
                           : in.offset + SymExpr(-offset) * in.strides[*a];
  for (int64_t d = 0; d < in.rank(); ++d) {
    if (d == *a || d == *b)
      continue;
    out.sizes.push_back(in.sizes[d]);
    out.strides.push_back(in.strides[d]);
  }
  out.sizes.push_back(diag);
  out.strides.push_back(in.strides[*a] + in.strides[*b]);
  return checked(out);
}

Fallible<SymLayout> mlir::layout::unfold(SymTable &t, const SymLayout &in,
                                         int64_t dim, int64_t size,
                                         int64_t step) {
  Fallible<int64_t> d = wrapDim(dim, in.rank(), /*wrapScalar=*/true);
  if (!d)
    return fail(d.message());
  SymExpr maxSize = in.rank() == 0 ? SymExpr(1) : in.sizes[*d];
  Message m;
  m << "maximum size for tensor at dimension " << *d << " is " << maxSize
    << " but size is " << size;
  Fallible<std::monostate> ok = require(t, SymCond::ge(maxSize, size), m);
  if (!ok)
    return fail(ok.message());
  if (step <= 0)
    return fail("step is " + std::to_string(step) + " but must be > 0");
  if (size < 0)
    return fail("Trying to create tensor with negative dimension " +
                std::to_string(size));
  SymLayout out = in;
  if (in.rank() > 0) {
    out.sizes[*d] = t.floorDiv(in.sizes[*d] - SymExpr(size), step) + 1;
    out.strides[*d] = SymExpr(step) * in.strides[*d];
  }
  out.sizes.push_back(SymExpr(size));
  out.strides.push_back(in.rank() == 0 ? SymExpr(1) : in.strides[*d]);
  return checked(out);
}

Fallible<SymLayout> mlir::layout::flip(SymTable &, const SymLayout &in,
                                       ArrayRef<int64_t> dims) {
  llvm::SmallVector<bool, 6> flipped(std::max<int64_t>(in.rank(), 1), false);
  SymLayout out = in;
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
    // From the last element along d (an empty view's offset is unspecified).
    out.offset = out.offset + (in.sizes[*d] - SymExpr(1)) * in.strides[*d];
    out.strides[*d] = -in.strides[*d];
  }
  return checked(out);
}

Fallible<llvm::SmallVector<SymLayout, 4>>
mlir::layout::split(SymTable &t, const SymLayout &in, int64_t dim,
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
  SymExpr total(0);
  for (int64_t s : sizes)
    total = total + SymExpr(s);
  Message m;
  m << "split_with_sizes expects split_sizes to sum exactly to " << in.sizes[*d]
    << " (input tensor's size at dimension " << dim
    << "), but got split_sizes=" << formatDims(sizes);
  Fallible<std::monostate> ok = require(t, SymCond::eq(in.sizes[*d], total), m);
  if (!ok)
    return fail(ok.message());
  llvm::SmallVector<SymLayout, 4> parts;
  int64_t start = 0;
  for (int64_t s : sizes) {
    SymLayout part = in;
    part.offset = in.offset + SymExpr(start) * in.strides[*d];
    part.sizes[*d] = SymExpr(s);
    Fallible<SymLayout> c = checked(part);
    if (!c)
      return fail(c.message());
    parts.push_back(*c);
    start += s;
  }
  return parts;
}

/// Whether dims [first, last] provably form one run for computeStride: each
/// dim of size other than 1 has the stride of the dims inside it times the
/// innermost one's. Returns the run's innermost stride.
static std::optional<SymExpr> mergeableRun(const SymTable &t,
                                           const SymLayout &in, int64_t first,
                                           int64_t last) {
  SymExpr base = in.strides[last];
  SymExpr inner = in.sizes[last];
  for (int64_t k = last - 1; k >= first; --k) {
    if (!t.decide(SymCond::eq(in.sizes[k], SymExpr(1))).value_or(false)) {
      if (!t.decide(SymCond::eq(in.strides[k], inner * base)).value_or(false))
        return std::nullopt;
    }
    inner = inner * in.sizes[k];
  }
  return base;
}

/// view/reshape's sizes for `shape`: -1 inferred, the element count a check.
static Fallible<llvm::SmallVector<SymExpr, 6>>
viewSizes(SymTable &t, const SymLayout &in, ArrayRef<int64_t> shape) {
  SymExpr numel = product(in.sizes);
  auto mismatch = [&] {
    Message m;
    m << "shape '" << formatDims(shape) << "' is invalid for input of size "
      << numel;
    return m;
  };
  return inferSymbolicSize(t, shape, numel, mismatch);
}

/// computeStride at run time, for operands whose dims the algebra cannot
/// prove mergeable (ViewStride symbols). The run-time program holds the
/// shapes in fixed arrays.
static Fallible<SymTable::RuntimeView> runtimeView(llvm::StringRef op,
                                                   SymTable &t,
                                                   const SymLayout &in,
                                                   ArrayRef<SymExpr> sizes) {
  if (in.rank() > kMaxRuntimeViewRank ||
      static_cast<int64_t>(sizes.size()) > kMaxRuntimeViewRank)
    return fail(op.str() + " of a dynamic view from rank " +
                std::to_string(in.rank()) + " to rank " +
                std::to_string(sizes.size()) +
                ": whether it is a view is decided at run time, for ranks up "
                "to " +
                std::to_string(kMaxRuntimeViewRank));
  return t.viewStrides(in, sizes);
}

/// computeStride's strides where it finds a view for every size without
/// the algebra proving the dims mergeable: an operand without elements for
/// every size (its strides are then unspecified, Symbolic.h: row-major), or
/// new sizes that are the old ones with dims of constant size 1 added or
/// removed (each old dim's stride carried to the same new dim; a size-1
/// dim's is unspecified and gets the row-major one beside it).
static std::optional<llvm::SmallVector<SymExpr, 6>>
viewStridesForEverySize(const SymTable &t, const SymLayout &in,
                        ArrayRef<SymExpr> sizes) {
  if (t.decide(SymCond::eq(product(in.sizes), SymExpr(0))) == true)
    return rowMajorStrides(sizes);
  auto kept = [](ArrayRef<SymExpr> v) {
    llvm::SmallVector<int64_t, 6> at;
    for (auto [k, e] : llvm::enumerate(v))
      if (!e.isConstant(1))
        at.push_back(k);
    return at;
  };
  llvm::SmallVector<int64_t, 6> from = kept(in.sizes), to = kept(sizes);
  if (from.size() != to.size())
    return std::nullopt;
  for (auto [o, n] : llvm::zip_equal(from, to))
    if (in.sizes[o] != sizes[n])
      return std::nullopt;
  llvm::SmallVector<SymExpr, 6> strides(sizes.size(), SymExpr(1));
  for (auto [o, n] : llvm::zip_equal(from, to))
    strides[n] = in.strides[o];
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 2; d >= 0; --d)
    if (sizes[d].isConstant(1))
      strides[d] = strides[d + 1] * sizes[d + 1];
  return strides;
}

Fallible<SymLayout> mlir::layout::view(SymTable &t, const SymLayout &in,
                                       ArrayRef<int64_t> shape) {
  std::optional<SymExpr> base = in.rank() == 0
                                    ? std::optional<SymExpr>(SymExpr(1))
                                    : mergeableRun(t, in, 0, in.rank() - 1);
  Fallible<llvm::SmallVector<SymExpr, 6>> sizes = viewSizes(t, in, shape);
  if (!sizes)
    return fail(sizes.message());
  SymLayout out;
  out.offset = in.offset;
  out.sizes = *sizes;
  if (base) {
    out.strides = rowMajorStrides(*sizes);
    for (SymExpr &s : out.strides)
      s = s * *base;
    return checked(out);
  }
  if (std::optional<llvm::SmallVector<SymExpr, 6>> strides =
          viewStridesForEverySize(t, in, *sizes)) {
    out.strides = *strides;
    return checked(out);
  }
  Fallible<SymTable::RuntimeView> v = runtimeView("view", t, in, *sizes);
  if (!v)
    return fail(v.message());
  Fallible<std::monostate> ok =
      t.require(SymCond::ne(v->viewable, SymExpr(0)), kViewIncompatible);
  if (!ok)
    return fail(ok.message());
  out.strides = v->strides;
  return checked(out);
}

/// reshape's result where whether it is a view is decided at run time:
/// computeStride's view when it exists, else a row-major new storage.
static Fallible<SymMaybeCopy> reshapeAtRunTime(llvm::StringRef op, SymTable &t,
                                               const SymLayout &in,
                                               ArrayRef<SymExpr> sizes) {
  if (std::optional<llvm::SmallVector<SymExpr, 6>> strides =
          viewStridesForEverySize(t, in, sizes)) {
    SymLayout l{llvm::SmallVector<SymExpr, 6>(sizes.begin(), sizes.end()),
                *strides, in.offset};
    Fallible<SymLayout> c = checked(l);
    if (!c)
      return fail(c.message());
    return SymMaybeCopy{*c, SymCond::alwaysFalse(), *c};
  }
  Fallible<SymTable::RuntimeView> v = runtimeView(op, t, in, sizes);
  if (!v)
    return fail(v.message());
  SymCond viewable = SymCond::ne(v->viewable, SymExpr(0));
  SymMaybeCopy r;
  r.view.sizes.assign(sizes.begin(), sizes.end());
  r.view.strides = v->strides;
  r.view.offset = in.offset;
  llvm::SmallVector<SymExpr, 6> rowMajor = rowMajorStrides(sizes);
  r.layout.sizes = r.view.sizes;
  for (auto [viewStride, copyStride] : llvm::zip_equal(v->strides, rowMajor))
    r.layout.strides.push_back(t.select(viewable, viewStride, copyStride));
  r.layout.offset = t.select(viewable, in.offset, SymExpr(0));
  r.copies = SymCond::negate(viewable);
  for (SymLayout *l : {&r.view, &r.layout})
    if (Fallible<SymLayout> c = checked(*l); !c)
      return fail(c.message());
  return r;
}

/// The layout when every size, stride and the offset is a constant.
static std::optional<StridedLayout> staticOf(const SymLayout &in) {
  StridedLayout l = in.project();
  if (!l.isStatic())
    return std::nullopt;
  return l;
}

/// A static operand's reshape or flatten: the static algebra decides.
static Fallible<SymMaybeCopy> fromStatic(const Fallible<MaybeCopy> &r) {
  if (!r)
    return fail(r.message());
  SymLayout l = SymLayout::fromStatic(r->layout);
  return SymMaybeCopy{
      l, r->copies ? SymCond::alwaysTrue() : SymCond::alwaysFalse(), l};
}

Fallible<SymMaybeCopy> mlir::layout::reshape(SymTable &t, const SymLayout &in,
                                             ArrayRef<int64_t> shape) {
  if (std::optional<StridedLayout> l = staticOf(in))
    return fromStatic(reshape(*l, shape));
  if (in.rank() == 0 || mergeableRun(t, in, 0, in.rank() - 1)) {
    Fallible<SymLayout> v = view(t, in, shape);
    if (!v)
      return fail(v.message());
    return SymMaybeCopy{*v, SymCond::alwaysFalse(), *v};
  }
  Fallible<llvm::SmallVector<SymExpr, 6>> sizes = viewSizes(t, in, shape);
  if (!sizes)
    return fail(sizes.message());
  return reshapeAtRunTime("reshape", t, in, *sizes);
}

Fallible<SymMaybeCopy> mlir::layout::flatten(SymTable &t, const SymLayout &in,
                                             int64_t startDim, int64_t endDim) {
  if (std::optional<StridedLayout> l = staticOf(in))
    return fromStatic(flatten(*l, startDim, endDim));
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
    return reshape(t, in, {1});
  if (*start == *end)
    return SymMaybeCopy{in, SymCond::alwaysFalse(), in};
  SymLayout out;
  out.offset = in.offset;
  out.sizes.append(in.sizes.begin(), in.sizes.begin() + *start);
  out.sizes.push_back(
      product(ArrayRef<SymExpr>(in.sizes).slice(*start, *end - *start + 1)));
  out.sizes.append(in.sizes.begin() + *end + 1, in.sizes.end());
  std::optional<SymExpr> base = mergeableRun(t, in, *start, *end);
  if (!base)
    return reshapeAtRunTime("flatten", t, in, out.sizes);
  out.strides.append(in.strides.begin(), in.strides.begin() + *start);
  out.strides.push_back(*base);
  out.strides.append(in.strides.begin() + *end + 1, in.strides.end());
  Fallible<SymLayout> c = checked(out);
  if (!c)
    return fail(c.message());
  return SymMaybeCopy{*c, SymCond::alwaysFalse(), *c};
}
