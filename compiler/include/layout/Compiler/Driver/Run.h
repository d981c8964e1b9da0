//===- Run.h - JIT a layout program on iota inputs --------------*- C++ -*-===//

#ifndef LAYOUT_COMPILER_DRIVER_RUN_H
#define LAYOUT_COMPILER_DRIVER_RUN_H

#include "layout/Compiler/Plan/Wisdom.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace layout {

/// The most bytes of arguments and results one function may need under
/// runModule: beyond it the run is refused with an error, not attempted.
constexpr uint64_t kRunMaxBytes = uint64_t(4) << 30;

/// Compiles every function of a planned module for the host with MLIR's
/// ExecutionEngine, calls it on iota-filled arguments (storage element i
/// holds i in the argument's dtype) and prints each result the way PyTorch
/// prints tensors. Emits diagnostics and returns failure when code
/// generation fails; `error` says why a run itself failed (a function needing
/// more than kRunMaxBytes, an allocation that fails, an error status).
/// `runtimeExtents`: the kernels in run-time-extent mode
/// (CPUOptions::runtimeExtents); `wisdom`: a tuning file's entries under
/// `wisdomTarget` for the planner.
LogicalResult runModule(ModuleOp planned, llvm::raw_ostream &os,
                        std::string &error, bool runtimeExtents = false,
                        const Wisdom *wisdom = nullptr,
                        llvm::StringRef wisdomTarget = {});

/// PyTorch's repr of a tensor read through `sizes`/`strides` (elements)
/// from `data`, whose element type is `type`: "tensor([[0., 1.], ...])".
/// Above 1000 elements it summarizes as PyTorch does: each dimension longer
/// than 6 shows its first and last 3 indices around "...".
std::string formatTensor(const void *data, Type type,
                         llvm::ArrayRef<int64_t> sizes,
                         llvm::ArrayRef<int64_t> strides);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_DRIVER_RUN_H
