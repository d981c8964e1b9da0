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

namespace {
/// The ops with a symbolic rule; each one's layout follows from its input's.
template <typename... OpTys> struct OpList {
  template <typename R, typename Fn>
  static std::optional<R> dispatch(Operation *op, Fn &&fn) {
    return llvm::TypeSwitch<Operation *, std::optional<R>>(op)
        .template Case<OpTys...>(
            [&](auto typed) -> std::optional<R> { return fn(typed); })
        .Default([](Operation *) -> std::optional<R> { return std::nullopt; });
  }
};
using RuleOps =
    OpList<ViewShapeOp, PermuteOp, TransposeOp, MovedimOp, SliceOp, SelectOp,
           NarrowOp, ExpandOp, SqueezeOp, UnsqueezeOp, UnflattenOp, DiagonalOp,
           UnfoldOp, FlipOp, SplitOp, ReshapeOp, FlattenOp, ContiguousOp,
           CloneOp, ToOp, ReduceOp>;
} // namespace

/// The operand whose layout `v`'s rule reads, or null where `v` has no rule.
static Value ruleInput(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return nullptr;
  return RuleOps::dispatch<Value>(
             op, [](auto typed) -> Value { return typed.getInput(); })
      .value_or(nullptr);
}

Fallible<SymLayout> SymbolicLayouts::get(Value v) {
  // Walk the chain of rule inputs up to a known layout and derive forward,
  // so a long chain of views costs no stack, and a value that reaches itself
  // (verification runs before dominance is checked) is an error, not a loop.
  llvm::SmallVector<Value> pending;
  llvm::SmallPtrSet<void *, 16> onChain;
  for (Value cur = v; cur && !cache.count(cur); cur = ruleInput(cur)) {
    if (!onChain.insert(cur.getAsOpaquePointer()).second)
      return fail("the layout of this value depends on itself: an operand is "
                  "defined by its own use");
    pending.push_back(cur);
  }
  for (Value p : llvm::reverse(pending)) {
    Fallible<SymLayout> l = derive(p);
    if (!l)
      return l;
    cache[p] = *l;
  }
  return cache.find(v)->second;
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
    if constexpr (rules::isMayCopy<OpTy>) {
      Fallible<SymMaybeCopy> r =
          rules::symbolicMayCopy<OpTy>(typed, symbols, *in);
      if (!r)
        return fail(r.message());
      copies[v] = *r;
      return r->layout;
    }
    return rules::symbolicRule<OpTy>(typed, symbols, *in, index);
  };
  if (std::optional<Fallible<SymLayout>> l =
          RuleOps::dispatch<Fallible<SymLayout>>(op, rule))
    return *l;
  if (declared.isStatic())
    return SymLayout::fromStatic(declared);
  return opaqueLayout(symbols, declared, name);
}

const SymMaybeCopy *SymbolicLayouts::mayCopy(Value v) {
  if (!get(v))
    return nullptr;
  auto found = copies.find(v);
  return found == copies.end() ? nullptr : &found->second;
}
