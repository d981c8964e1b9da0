//===- Explain.h - What the compiler says about a program -------*- C++ -*-===//

#ifndef LAYOUT_COMPILER_REPORT_EXPLAIN_H
#define LAYOUT_COMPILER_REPORT_EXPLAIN_H

#include "layout/Compiler/Plan/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace layout {

/// The `--emit=explain` JSON of docs/language.md for every function of a
/// planned module: each result's layout and aliasing, every remaining copy
/// with its location, bytes, reason and kernel family, and the kernel plan
/// layout-plan-kernels attached to each (null keys where it attached none).
/// A dynamic function's kernels are planned for `target` (none listed when
/// it is null).
void printExplain(ModuleOp module, const TargetInfo *target,
                  llvm::raw_ostream &os);

/// The `--emit=memory-map`: for each function result, a grid of logical
/// index -> storage offset (CuTe's print_layout) and a strip of its storage
/// counting how many logical indices read each element.
void printMemoryMap(ModuleOp module, llvm::raw_ostream &os);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_REPORT_EXPLAIN_H
