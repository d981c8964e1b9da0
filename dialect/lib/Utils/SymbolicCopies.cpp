//===- SymbolicCopies.cpp - Copy results and contiguity, symbolically -----===//
//
// MemoryFormat.cpp's and CopyingOps.cpp's rules over polynomials: strides of
// new tensors, contiguity as a condition, and the results of ops that may
// copy. See SymbolicViews.h for the contracts.
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

llvm::SmallVector<SymExpr, 6>
mlir::layout::rowMajorStrides(ArrayRef<SymExpr> sizes) {
  llvm::SmallVector<SymExpr, 6> strides(sizes.size());
  SymExpr running(1);
  for (int64_t k = static_cast<int64_t>(sizes.size()) - 1; k >= 0; --k) {
    strides[k] = running;
    // PyTorch counts a size-0 dim as 1 here; for an empty tensor strides are
    // unspecified (Symbolic.h), so only a static 0 needs the rule.
    running = running * (sizes[k].isConstant(0) ? SymExpr(1) : sizes[k]);
  }
  return strides;
}

/// The dims of a format, innermost first, and its required rank.
static std::optional<std::pair<int64_t, llvm::SmallVector<int64_t, 5>>>
formatOrder(MemoryFormat format, int64_t rank) {
  switch (format) {
  case MemoryFormat::ChannelsLast:
    return std::make_pair<int64_t, llvm::SmallVector<int64_t, 5>>(4,
                                                                  {1, 3, 2, 0});
  case MemoryFormat::ChannelsLast3d:
    return std::make_pair<int64_t, llvm::SmallVector<int64_t, 5>>(
        5, {1, 4, 3, 2, 0});
  default: {
    llvm::SmallVector<int64_t, 5> order;
    for (int64_t k = rank - 1; k >= 0; --k)
      order.push_back(k);
    return std::make_pair(rank, order);
  }
  }
}

Fallible<llvm::SmallVector<SymExpr, 6>>
mlir::layout::symbolicStridesForFormat(ArrayRef<SymExpr> sizes,
                                       MemoryFormat format) {
  if (format == MemoryFormat::Contiguous || format == MemoryFormat::Preserve)
    return rowMajorStrides(sizes);
  auto order = formatOrder(format, sizes.size());
  if (static_cast<int64_t>(sizes.size()) != order->first)
    return fail("required rank " + std::to_string(order->first) +
                " tensor to use " +
                (format == MemoryFormat::ChannelsLast ? "channels_last"
                                                      : "channels_last_3d") +
                " format");
  // get_channels_last_strides_*: no max(1, size).
  llvm::SmallVector<SymExpr, 6> strides(sizes.size());
  SymExpr running(1);
  for (int64_t d : order->second) {
    strides[d] = running;
    running = running * sizes[d];
  }
  return strides;
}

SymCond mlir::layout::isContiguousIn(const SymLayout &l, MemoryFormat format) {
  auto order = formatOrder(format, l.rank());
  if (l.rank() != order->first)
    return SymCond::alwaysFalse();
  // Contiguous: numel 0, or every dim of size != 1 has the stride of the
  // sizes inside it (size-1 dims multiply by 1).
  SymCond dense = SymCond::alwaysTrue();
  SymExpr expected(1);
  for (int64_t d : order->second) {
    dense = SymCond::both(std::move(dense),
                          SymCond::either(SymCond::eq(l.sizes[d], SymExpr(1)),
                                          SymCond::eq(l.strides[d], expected)));
    expected = expected * l.sizes[d];
  }
  if (format != MemoryFormat::Contiguous)
    return dense;
  return SymCond::either(SymCond::eq(product(l.sizes), SymExpr(0)),
                         std::move(dense));
}

//===----------------------------------------------------------------------===//
// Ops that may copy
//===----------------------------------------------------------------------===//

Fallible<SymMaybeCopy> mlir::layout::contiguous(SymTable &t,
                                                const SymLayout &in,
                                                MemoryFormat format) {
  if (format == MemoryFormat::ChannelsLast && in.rank() != 4)
    return fail("required rank 4 tensor to use channels_last format");
  if (format == MemoryFormat::ChannelsLast3d && in.rank() != 5)
    return fail("required rank 5 tensor to use channels_last_3d format");
  SymCond already = isContiguousIn(in, format);
  Fallible<llvm::SmallVector<SymExpr, 6>> strides =
      symbolicStridesForFormat(in.sizes, format);
  if (!strides)
    return fail(strides.message());
  // PyTorch returns the operand itself when it is contiguous in the format.
  std::optional<bool> decided = t.decide(already);
  if (decided == true)
    return SymMaybeCopy{in, SymCond::alwaysFalse(), in};
  SymLayout out;
  out.sizes = in.sizes;
  out.offset = SymExpr(0);
  out.strides = *strides;
  if (decided == false)
    return SymMaybeCopy{out, SymCond::alwaysTrue(), in};
  // Where the operand is contiguous, its strides of dims of size > 1 are
  // these, and the others are unspecified (Symbolic.h): only the storage,
  // and with it the offset, depends on the decision.
  out.offset = t.select(already, in.offset, SymExpr(0));
  Fallible<SymLayout> c = checked(out);
  if (!c)
    return fail(c.message());
  return SymMaybeCopy{*c, SymCond::negate(already), in};
}

bool mlir::layout::provablyDense(const SymTable &t, const SymLayout &in) {
  llvm::SmallVector<bool, 6> used(in.rank(), false);
  int64_t placed = 0;
  for (int64_t d = 0; d < in.rank(); ++d)
    if (in.sizes[d].isConstant(1)) {
      used[d] = true;
      ++placed;
    }
  SymExpr expected(1);
  for (; placed < in.rank(); ++placed) {
    std::optional<int64_t> next;
    for (int64_t d = 0; d < in.rank() && !next; ++d)
      if (!used[d] && t.decide(SymCond::eq(in.strides[d], expected)) == true)
        next = d;
    if (!next)
      return false;
    used[*next] = true;
    expected = expected * in.sizes[*next];
  }
  return true;
}

OverlapStatus mlir::layout::symbolicOverlapStatus(const SymTable &t,
                                                  const SymLayout &a,
                                                  const SymLayout &b) {
  if (a == b)
    return OverlapStatus::Full;
  if (!provablyDense(t, a) || !provablyDense(t, b))
    return OverlapStatus::Unknown;
  auto before = [&](const SymLayout &x, const SymLayout &y) {
    return t.decide(SymCond::ge(y.offset, x.offset + product(x.sizes))) == true;
  };
  return before(a, b) || before(b, a) ? OverlapStatus::No
                                      : OverlapStatus::Unknown;
}

Fallible<SymLayout> mlir::layout::cloneLayout(SymTable &t, const SymLayout &in,
                                              MemoryFormat format) {
  SymLayout out;
  out.sizes = in.sizes;
  out.offset = SymExpr(0);
  if (format == MemoryFormat::Preserve) {
    // Preserve keeps a non-overlapping-and-dense operand's strides.
    if (provablyDense(t, in)) {
      out.strides = in.strides;
      return checked(out);
    }
    // Of one dim, the kept stride or the dense one is 1 (or the size is at
    // most 1, when any stride is equal): row-major either way.
    if (in.rank() <= 1 ||
        t.decide(isContiguousIn(in, MemoryFormat::Contiguous)) == true) {
      format = MemoryFormat::Contiguous;
    } else {
      // Otherwise PyTorch's rule runs at run time on the operand's sizes
      // and strides.
      if (in.rank() > kMaxRuntimeViewRank)
        return fail("preserve_format of a dynamic view of rank " +
                    std::to_string(in.rank()) +
                    " that layoutc cannot prove non-overlapping and dense: "
                    "its strides are decided at run time, for ranks up to " +
                    std::to_string(kMaxRuntimeViewRank));
      out.strides = t.preserveStrides(in);
      return checked(out);
    }
  }
  Fallible<llvm::SmallVector<SymExpr, 6>> strides =
      symbolicStridesForFormat(in.sizes, format);
  if (!strides)
    return fail(strides.message());
  out.strides = *strides;
  return checked(out);
}

Fallible<SymLayout> mlir::layout::broadcastTo(SymTable &t, const SymLayout &src,
                                              ArrayRef<SymExpr> dstSizes) {
  // at::infer_size(dst, src), then TensorIterator's check that the output
  // (never resized by copy_) has the broadcast shape, as CopyingOps.cpp.
  int64_t n = dstSizes.size();
  int64_t ndim = std::max<int64_t>(n, src.rank());
  llvm::SmallVector<SymExpr, 6> shape(ndim);
  SymCond fits = SymCond::alwaysTrue();
  for (int64_t i = ndim - 1; i >= 0; --i) {
    int64_t offset = ndim - 1 - i;
    int64_t dimA = n - 1 - offset, dimB = src.rank() - 1 - offset;
    SymExpr a = dimA >= 0 ? dstSizes[dimA] : SymExpr(1);
    SymExpr b = dimB >= 0 ? src.sizes[dimB] : SymExpr(1);
    SymCond aIsOne = SymCond::eq(a, SymExpr(1)),
            bIsOne = SymCond::eq(b, SymExpr(1));
    Message m;
    m << "The size of tensor a (" << a << ") must match the size of tensor b ("
      << b << ") at non-singleton dimension " << i;
    Fallible<std::monostate> ok = require(
        t, SymCond::either(SymCond::eq(a, b), SymCond::either(aIsOne, bIsOne)),
        m);
    if (!ok)
      return fail(ok.message());
    shape[i] = t.select(aIsOne, b, a);
    fits = SymCond::both(std::move(fits),
                         dimA >= 0
                             ? SymCond::either(SymCond::negate(aIsOne), bIsOne)
                             : SymCond::alwaysFalse());
  }
  Message m;
  m << "output with shape ";
  m.dims(dstSizes) << " doesn't match the broadcast shape ";
  m.dims(shape);
  if (Fallible<std::monostate> ok = require(t, fits, m); !ok)
    return fail(ok.message());
  SymLayout out;
  out.offset = src.offset;
  out.sizes.assign(dstSizes.begin(), dstSizes.end());
  out.strides.resize(n, SymExpr(0));
  for (int64_t i = 0; i < src.rank(); ++i) {
    int64_t d = n - src.rank() + i;
    out.strides[d] = t.select(SymCond::eq(src.sizes[i], dstSizes[d]),
                              src.strides[i], SymExpr(0));
  }
  return checked(out);
}

Fallible<SymLayout> mlir::layout::reduceLayout(SymTable &t, const SymLayout &in,
                                               ArrayRef<int64_t> dims,
                                               bool keepdim, bool needsElements,
                                               llvm::StringRef name) {
  Fallible<Dims> reduced = normalizeReduceDims(in.rank(), dims);
  if (!reduced)
    return fail(reduced.message());
  if (needsElements) {
    for (const EmptyReductionCheck &c :
         emptyReductionChecks(name, in.rank(), dims)) {
      SymExpr n(1);
      for (int64_t d : c.dims)
        n = n * in.sizes[d];
      Message m;
      m << c.message;
      Fallible<std::monostate> ok = require(t, SymCond::ne(n, SymExpr(0)), m);
      if (!ok)
        return fail(ok.message());
    }
  }
  SymLayout out;
  for (int64_t d = 0; d < in.rank(); ++d) {
    if (!llvm::is_contained(*reduced, d))
      out.sizes.push_back(in.sizes[d]);
    else if (keepdim)
      out.sizes.push_back(SymExpr(1));
  }
  out.strides = rowMajorStrides(out.sizes);
  out.offset = SymExpr(0);
  return checked(out);
}
