//===- SymbolicRules.h - Each op's rule on symbolic layouts -----*- C++ -*-===//
//
// Internal to dialect/lib/IR: which SymbolicViews.h function each op is,
// shared by result-type inference (LayoutOps.cpp, from an adaptor) and
// SymbolicLayouts (SymbolicLayouts.cpp, from the op).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LIB_IR_SYMBOLICRULES_H
#define LAYOUT_DIALECT_LIB_IR_SYMBOLICRULES_H

#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include <type_traits>

namespace mlir {
namespace layout {
namespace rules {

inline int64_t i64(uint64_t v) { return static_cast<int64_t>(v); }

/// Whether OpTy may return a view of its operand or a new storage.
template <typename OpTy>
inline constexpr bool isMayCopy =
    std::is_same_v<OpTy, ReshapeOp> || std::is_same_v<OpTy, FlattenOp> ||
    std::is_same_v<OpTy, ContiguousOp>;

/// A may-copy op's rule, with the condition under which it copies.
template <typename OpTy, typename A>
Fallible<SymMaybeCopy> symbolicMayCopy(A a, SymTable &t, const SymLayout &in) {
  if constexpr (std::is_same_v<OpTy, ReshapeOp>)
    return reshape(t, in, a.getShape());
  else if constexpr (std::is_same_v<OpTy, FlattenOp>)
    return flatten(t, in, i64(a.getStartDim()), i64(a.getEndDim()));
  else if constexpr (std::is_same_v<OpTy, ContiguousOp>)
    return contiguous(
        t, in,
        toMemoryFormat(a.getMemoryFormat().value_or(FormatKind::contiguous)));
  else
    static_assert(sizeof(OpTy) == 0, "not a may-copy op");
}

/// The symbolic rule of each op with one tensor result per operand layout:
/// `a` is the op or its adaptor (both have the attribute getters).
template <typename OpTy, typename A>
Fallible<SymLayout> symbolicRule(A a, SymTable &t, const SymLayout &in,
                                 unsigned index) {
  auto opt = [](std::optional<uint64_t> v) -> std::optional<int64_t> {
    if (!v)
      return std::nullopt;
    return i64(*v);
  };
  if constexpr (isMayCopy<OpTy>) {
    Fallible<SymMaybeCopy> r = symbolicMayCopy<OpTy>(a, t, in);
    if (!r)
      return fail(r.message());
    return r->layout;
  } else if constexpr (std::is_same_v<OpTy, ViewShapeOp>)
    return view(t, in, a.getShape());
  else if constexpr (std::is_same_v<OpTy, PermuteOp>)
    return permute(t, in, a.getDims());
  else if constexpr (std::is_same_v<OpTy, TransposeOp>)
    return transpose(t, in, i64(a.getDim0()), i64(a.getDim1()));
  else if constexpr (std::is_same_v<OpTy, MovedimOp>)
    return movedim(t, in, i64(a.getSource()), i64(a.getDestination()));
  else if constexpr (std::is_same_v<OpTy, SliceOp>)
    return slice(t, in, i64(a.getDim()), opt(a.getStart()), opt(a.getEnd()),
                 a.getStepAttr() ? i64(a.getStep()) : 1);
  else if constexpr (std::is_same_v<OpTy, SelectOp>)
    return select(t, in, i64(a.getDim()), i64(a.getIndex()));
  else if constexpr (std::is_same_v<OpTy, NarrowOp>)
    return narrow(t, in, i64(a.getDim()), i64(a.getStart()),
                  i64(a.getLength()));
  else if constexpr (std::is_same_v<OpTy, ExpandOp>)
    return expand(t, in, a.getSizes());
  else if constexpr (std::is_same_v<OpTy, SqueezeOp>)
    return squeeze(t, in, a.getDims());
  else if constexpr (std::is_same_v<OpTy, UnsqueezeOp>)
    return unsqueeze(t, in, i64(a.getDim()));
  else if constexpr (std::is_same_v<OpTy, UnflattenOp>)
    return unflatten(t, in, i64(a.getDim()), a.getSizes());
  else if constexpr (std::is_same_v<OpTy, DiagonalOp>)
    return diagonal(t, in, i64(a.getOffset()), i64(a.getDim1()),
                    i64(a.getDim2()));
  else if constexpr (std::is_same_v<OpTy, UnfoldOp>)
    return unfold(t, in, i64(a.getDim()), i64(a.getSize()), i64(a.getStep()));
  else if constexpr (std::is_same_v<OpTy, FlipOp>)
    return flip(t, in, a.getDims());
  else if constexpr (std::is_same_v<OpTy, SplitOp>) {
    auto parts = split(t, in, i64(a.getDim()), a.getSizes());
    if (!parts)
      return fail(parts.message());
    return (*parts)[index];
  } else if constexpr (std::is_same_v<OpTy, CloneOp>)
    return cloneLayout(
        t, in,
        toMemoryFormat(a.getMemoryFormat().value_or(FormatKind::preserve)));
  else if constexpr (std::is_same_v<OpTy, ToOp>) {
    if (a.getDtype() ==
        cast<StridedTensorType>(a.getInput().getType()).getElementType())
      return in;
    return cloneLayout(t, in, MemoryFormat::Preserve);
  } else if constexpr (std::is_same_v<OpTy, ReduceOp>) {
    ReduceKind kind = a.getKind();
    bool needsElements = kind != ReduceKind::sum && kind != ReduceKind::mean &&
                         kind != ReduceKind::prod;
    return reduceLayout(t, in, a.getDims(), a.getKeepdim(), needsElements,
                        stringifyReduceKind(kind));
  } else {
    static_assert(sizeof(OpTy) == 0, "no symbolic rule for this op");
  }
}

} // namespace rules
} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LIB_IR_SYMBOLICRULES_H
