//===- SymbolicLayouts.cpp - Symbolic layouts of a function's values ------===//
//
// Builds each dynamic value's symbolic layout from the function arguments'
// types through its ops' rules (SymbolicRules.h). See LayoutOps.h.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "SymbolicRules.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::layout;

/// A layout whose every `?` is a fresh input symbol (no row-major reading).
static SymLayout opaqueLayout(SymTable &t, const StridedLayout &l,
                              const std::string &name) {
  SymLayout s;
  auto known = [&](int64_t v, const std::string &what, bool isSize) {
    return v == kDynamic ? t.input(name + what, isSize) : SymExpr(v);
  };
  for (auto [k, v] : llvm::enumerate(l.sizes))
    s.sizes.push_back(known(v, "[" + std::to_string(k) + "]", true));
  for (auto [k, v] : llvm::enumerate(l.strides))
    s.strides.push_back(known(v, ".stride[" + std::to_string(k) + "]", false));
  s.offset = known(l.offset, ".offset", false);
  return s;
}

Fallible<SymLayout> SymbolicLayouts::get(Value v) {
  auto it = cache.find(v);
  if (it != cache.end())
    return it->second;
  Fallible<SymLayout> l = derive(v);
  if (l)
    cache[v] = *l;
  return l;
}

Fallible<SymLayout> SymbolicLayouts::derive(Value v) {
  auto type = dyn_cast<StridedTensorType>(v.getType());
  if (!type)
    return fail("expected a !layout.tensor, got " + dtypeName(v.getType()));
  StridedLayout declared = type.getStridedLayout();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // A static layout is exact as it is.
    if (declared.isStatic())
      return SymLayout::fromStatic(declared);
    std::string name = "arg" + std::to_string(arg.getArgNumber());
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto fn = dyn_cast_or_null<FunctionOpInterface>(parent))
      if (auto attr = fn.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                      "layout.name"))
        name = attr.getValue().str();
    Fallible<SymLayout> l = symbolicArgument(symbols, declared, name);
    if (l)
      return l;
    return opaqueLayout(symbols, declared, name);
  }
  // An op with a rule runs it even when its result type is static: a view
  // of a dynamic operand records its checks (select's index) that way.
  Operation *op = v.getDefiningOp();
  unsigned index = cast<OpResult>(v).getResultNumber();
  std::string name = "%" + std::to_string(cache.size());
  auto rule = [&](auto typed) -> Fallible<SymLayout> {
    using OpTy = decltype(typed);
    Fallible<SymLayout> in = get(typed.getInput());
    if (!in)
      return in;
    return rules::symbolicRule<OpTy>(typed, symbols, *in, index);
  };
  return llvm::TypeSwitch<Operation *, Fallible<SymLayout>>(op)
      .Case<ViewShapeOp, PermuteOp, TransposeOp, MovedimOp, SliceOp, SelectOp,
            NarrowOp, ExpandOp, SqueezeOp, UnsqueezeOp, UnflattenOp, DiagonalOp,
            UnfoldOp, FlipOp, SplitOp, ReshapeOp, FlattenOp, ContiguousOp,
            CloneOp, ToOp, ReduceOp>(rule)
      .Default([&](Operation *) -> Fallible<SymLayout> {
        if (declared.isStatic())
          return SymLayout::fromStatic(declared);
        return opaqueLayout(symbols, declared, name);
      });
}
