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
#include "llvm/Support/CheckedArithmetic.h"

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

/// A function argument's name in symbols: its `layout.name`, else
/// "arg<i>"; "storage" for a value that is not an argument.
static std::string argumentName(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return "storage";
  std::string name = "arg" + std::to_string(arg.getArgNumber());
  Operation *parent = arg.getOwner()->getParentOp();
  if (auto fn = dyn_cast_or_null<FunctionOpInterface>(parent))
    if (auto attr =
            fn.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "layout.name"))
      name = attr.getValue().str();
  return name;
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
    std::string name = argumentName(arg);
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
  if (auto strided = dyn_cast<AsStridedOp>(op); strided && declared.isStatic())
    if (Fallible<std::monostate> in = requireInStorage(strided, declared); !in)
      return fail(in.message());
  if (declared.isStatic())
    return SymLayout::fromStatic(declared);
  return opaqueLayout(symbols, declared, name);
}

/// Elements of the storage that `root` (getStorageRoot) owns: a storage
/// argument's size (an input symbol); what a tensor's view reaches (a tensor
/// argument's storage is exactly that, a new tensor's is dense), none when
/// it has no elements; for a copy PyTorch makes for some sizes only, the
/// copy's where it copies, else its operand's storage's.
Fallible<SymExpr> SymbolicLayouts::storageElements(Value root) {
  if (auto storage = dyn_cast<StorageType>(root.getType())) {
    if (storage.hasStaticSize())
      return SymExpr(storage.getSize());
    auto [it, added] = storageSymbols.try_emplace(root, SymExpr(0));
    if (added)
      it->second = symbols.input(argumentName(root) + ".size", /*isSize=*/true);
    return it->second;
  }
  Fallible<SymLayout> l = get(root);
  if (!l)
    return fail(l.message());
  SymExpr numel(1), hi = l->offset;
  for (auto [size, stride] : llvm::zip_equal(l->sizes, l->strides)) {
    numel = numel * size;
    hi = hi + (size - SymExpr(1)) * symbols.max(stride, SymExpr(0));
  }
  SymExpr reach =
      symbols.select(SymCond::eq(numel, SymExpr(0)), SymExpr(0), hi + 1);
  const SymMaybeCopy *c = mayCopy(root);
  if (!c || symbols.decide(c->copies).has_value())
    return reach;
  Fallible<SymExpr> operand =
      storageElements(getStorageRoot(root.getDefiningOp()->getOperand(0)));
  if (!operand)
    return operand;
  return symbols.select(c->copies, reach, *operand);
}

bool mlir::layout::checksBoundsAtRunTime(AsStridedOp op) {
  return !getStorageSize(getStorageRoot(op.getInput()));
}

/// as_strided with static sizes, strides and offset over a storage whose
/// size is known only at run time (a dynamic argument's, or a new tensor's
/// of dynamic sizes): the view must fit, checked when the function is
/// called, with PyTorch's message (its storage size counts bytes). Type
/// inference checks a storage of static size.
Fallible<std::monostate>
SymbolicLayouts::requireInStorage(AsStridedOp op, const StridedLayout &view) {
  if (!checksBoundsAtRunTime(op))
    return std::monostate();
  Value root = getStorageRoot(op.getInput());
  Fallible<std::optional<Span>> s = span(view);
  if (!s)
    return fail(s.message());
  // A view without elements may sit anywhere.
  if (!*s)
    return std::monostate();
  int64_t itemBytes = cast<StridedTensorType>(op.getType()).getElementBytes();
  std::optional<int64_t> need = llvm::checkedAdd((*s)->hi, int64_t(1));
  std::optional<int64_t> needBytes =
      need ? llvm::checkedMul(*need, itemBytes) : std::nullopt;
  if ((*s)->lo < 0 || !needBytes)
    return fail("as_strided: sizes " + formatDims(view.sizes) + ", strides " +
                formatDims(view.strides) + " and storage offset " +
                std::to_string(view.offset) + " reach storage element " +
                std::to_string((*s)->lo < 0 ? (*s)->lo : (*s)->hi) +
                ", outside any storage");
  Fallible<SymExpr> elements = storageElements(root);
  if (!elements)
    return fail(elements.message());
  return symbols.require(SymCond::ge(*elements, SymExpr(*need)),
                         "setStorage: sizes " + formatDims(view.sizes) +
                             ", strides " + formatDims(view.strides) +
                             ", storage offset " + std::to_string(view.offset) +
                             ", and itemsize " + std::to_string(itemBytes) +
                             " requiring a storage size of " +
                             std::to_string(*needBytes) +
                             " are out of bounds for storage of size {0}",
                         {*elements * SymExpr(itemBytes)});
}

const SymMaybeCopy *SymbolicLayouts::mayCopy(Value v) {
  if (!get(v))
    return nullptr;
  auto found = copies.find(v);
  return found == copies.end() ? nullptr : &found->second;
}

/// Whether a reshape from `from` to `to` only inserts or drops size-1 dims:
/// its sizes other than 1 are the same, in the same order.
bool SymbolicLayouts::onlyUnitDimsChange(Value from, Value to) {
  Fallible<SymLayout> a = get(from), b = get(to);
  if (!a || !b)
    return false;
  auto nonUnit = [](const SymLayout &l) {
    SmallVector<SymExpr> out;
    for (const SymExpr &s : l.sizes)
      if (!s.isConstant(1))
        out.push_back(s);
    return out;
  };
  return nonUnit(*a) == nonUnit(*b);
}

Overlap SymbolicLayouts::requireDistinct(Value dst) {
  Fallible<SymLayout> l = get(dst);
  if (!l)
    return Overlap::Unknown;
  if (provablyDense(symbols, *l))
    return Overlap::No;
  // Back from `dst` to a distinct base. `mixing`: a view that may merge
  // dims was met, so an expand before it could repeat elements without a
  // stride-0 dim.
  bool mixing = false, expanded = false;
  for (Value v = dst;;) {
    auto type = cast<StridedTensorType>(v.getType());
    if (type.hasStaticLayout()) {
      if (internalOverlap(type.getStridedLayout()) != Overlap::No)
        return Overlap::Unknown;
      break;
    }
    if (isa<BlockArgument>(v))
      break;
    Fallible<SymLayout> here = get(v);
    if (here && provablyDense(symbols, *here))
      break;
    Operation *op = v.getDefiningOp();
    auto unfold = dyn_cast<UnfoldOp>(op);
    if (isa<PermuteOp, TransposeOp, MovedimOp, SliceOp, SelectOp, NarrowOp,
            FlipOp, SqueezeOp, UnsqueezeOp, UnflattenOp, SplitOp>(op) ||
        (unfold && unfold.getStep() >= unfold.getSize())) {
      // Windows that do not overlap (step >= size) split a dim as
      // unflatten and slice would.
    } else if (isa<ViewShapeOp, ReshapeOp, FlattenOp>(op)) {
      mixing |= !onlyUnitDimsChange(op->getOperand(0), v);
    } else if (isa<DiagonalOp>(op)) {
      mixing = true;
    } else if (isa<ExpandOp>(op) && !mixing) {
      expanded = true;
    } else {
      return Overlap::Unknown;
    }
    v = op->getOperand(0);
  }
  if (!expanded)
    return Overlap::No;
  // PyTorch's has_internal_overlap: an empty tensor never overlaps; else a
  // dim of size > 1 and stride 0 does (its other answer, "too hard", is
  // never reached here: the rest is distinct).
  SymExpr numel(1);
  SymCond distinct = SymCond::alwaysTrue();
  for (auto [size, stride] : llvm::zip_equal(l->sizes, l->strides)) {
    numel = numel * size;
    distinct = SymCond::both(distinct,
                             SymCond::either(SymCond::lt(size, SymExpr(2)),
                                             SymCond::ne(stride, SymExpr(0))));
  }
  SymCond cond = SymCond::either(SymCond::eq(numel, SymExpr(0)), distinct);
  if (symbols.decide(cond) == false)
    return Overlap::Yes;
  (void)symbols.require(
      cond, "unsupported operation: more than one element of the written-to "
            "tensor refers to a single memory location. Please clone() the "
            "tensor before performing the operation.");
  return Overlap::No;
}
