//===- Run.h - JIT a layout program on iota inputs --------------*- C++ -*-===//

#ifndef LAYOUT_COMPILER_RUN_H
#define LAYOUT_COMPILER_RUN_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir {
namespace layout {

/// Compiles every function of a planned module for the host with MLIR's
/// ExecutionEngine, calls it on iota-filled arguments (storage element i
/// holds i in the argument's dtype) and prints each result the way PyTorch
/// prints tensors. Emits diagnostics and returns failure when code
/// generation fails; `error` says why a run itself failed.
LogicalResult runModule(ModuleOp planned, llvm::raw_ostream &os,
                        std::string &error);

/// PyTorch's repr of a tensor read through `sizes`/`strides` (elements)
/// from `data`, whose element type is `type`: "tensor([[0., 1.], ...])".
std::string formatTensor(const void *data, Type type,
                         llvm::ArrayRef<int64_t> sizes,
                         llvm::ArrayRef<int64_t> strides);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_RUN_H
