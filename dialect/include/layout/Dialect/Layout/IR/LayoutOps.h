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

class SymbolicLayouts {
public:
  /// The layout of `v` (a !layout.tensor), or why there is none.
  Fallible<SymLayout> get(Value v);
  /// For the result of an op that may copy (reshape, flatten, contiguous)
  /// with a layout: its condition and view (SymbolicViews.h); else null.
  /// Derived once with the layout, so asking adds no symbols or checks.
  const SymMaybeCopy *mayCopy(Value v);
  SymTable &table() { return symbols; }

private:
  Fallible<SymLayout> derive(Value v);
  Fallible<std::monostate> requireInStorage(AsStridedOp op,
                                            const StridedLayout &view);
  Fallible<SymExpr> storageElements(Value root);
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
