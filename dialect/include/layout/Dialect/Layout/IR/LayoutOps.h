//===- LayoutOps.h - layout dialect ops -------------------------*- C++ -*-===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_H
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_H

#include "layout/Dialect/Layout/IR/LayoutAttrs.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/IR/LayoutTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"

#include "layout/Dialect/Layout/IR/LayoutEnums.h.inc"

namespace mlir {
namespace layout {

/// Verifies that an op's optional `-> types` (the `declared_types`
/// attribute) equals its inferred result types.
LogicalResult verifyDeclaredResultTypes(Operation *op);

template <typename ConcreteType>
class DeclaredResultTypes
    : public OpTrait::TraitBase<ConcreteType, DeclaredResultTypes> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyDeclaredResultTypes(op);
  }
};

/// The operand whose storage `result` views (view ops, and reshape /
/// flatten / contiguous / to when they do not copy), or null when `result`
/// is a new storage or a block argument.
Value getAliasedOperand(Value result);
/// Follows getAliasedOperand to the value that owns the storage: a function
/// argument or the result of an op that allocates.
Value getStorageRoot(Value v);
/// Elements in the storage owned by `root`: a storage's size, or for a
/// tensor what its view reaches. nullopt when dynamic.
std::optional<int64_t> getStorageSize(Value root);

/// The memory format of the layout algebra for an op's format attribute.
MemoryFormat toMemoryFormat(FormatKind kind);

/// The symbolic layouts (Symbolic.h) of one function's tensor values, built
/// on demand from the arguments' types through each op's rule, and the
/// symbols and run-time checks they need. A function argument's dynamic
/// sizes are named "<name>[k]" after its `layout.name` attribute (else
/// "arg<i>"); a value no rule derives (as_strided with index operands)
/// gets a fresh symbol for each `?` of its type. Ask for values in program
/// order to number derived symbols in that order.
class AsStridedOp;

/// Whether the storage `op` views has a size known only at run time: its
/// bounds are then checked when the function runs
/// (SymbolicLayouts::requireInStorage), with `op`'s own sizes, strides and
/// offset, so no view may be folded or composed through it.
bool checksBoundsAtRunTime(AsStridedOp op);

class SymbolicLayouts {
public:
  /// The layout of `v` (a !layout.tensor), or why there is none.
  Fallible<SymLayout> get(Value v);
  /// For the result of an op that may copy (reshape, flatten, contiguous)
  /// with a layout: its condition and view (SymbolicViews.h); else null.
  /// Derived once with the layout, so asking adds no symbols or checks.
  const SymMaybeCopy *mayCopy(Value v);
  SymTable &table() { return symbols; }
  /// Whether a copy may write into `dst` (a view of dynamic layout): No
  /// where its elements are distinct for every size the function accepts,
  /// or where PyTorch's internal-overlap rule (has_internal_overlap: no
  /// stride-0 dim of size > 1 unless empty) holds as a recorded run-time
  /// check; Yes where that rule fails for every size; Unknown where layoutc
  /// cannot tell. Distinct means reached from a tensor argument (the call
  /// checks a written argument's strides; a row-major one is dense) or from
  /// a provably dense or statically distinct layout through views that map
  /// distinct indices to distinct elements, with `expand` followed only by
  /// views that keep dims apart (permute, slice, select, flip, squeeze,
  /// unsqueeze, unflatten, unfold into separate windows, a view or reshape
  /// that only adds or drops size-1 dims), so that a repeated element shows
  /// as a stride-0 dim.
  Overlap requireDistinct(Value dst);
  /// Elements of the storage that `root` (getStorageRoot) owns: a storage
  /// argument's size (static, or an input symbol named after the argument),
  /// what a tensor's view reaches, and so on (see the definition).
  Fallible<SymExpr> storageElements(Value root);

private:
  Fallible<SymLayout> derive(Value v);
  Fallible<std::monostate> requireInStorage(AsStridedOp op,
                                            const StridedLayout &view);
  bool onlyUnitDimsChange(Value from, Value to);
  SymTable symbols;
  llvm::DenseMap<Value, SymLayout> cache;
  llvm::DenseMap<Value, SymMaybeCopy> copies;
  /// A dynamic storage argument's size, the input symbol as_strided's
  /// bounds check reads.
  llvm::DenseMap<Value, SymExpr> storageSymbols;
};

} // namespace layout
} // namespace mlir

#define GET_OP_CLASSES
#include "layout/Dialect/Layout/IR/LayoutOps.h.inc"

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_H
