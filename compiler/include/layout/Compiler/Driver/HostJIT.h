//===- HostJIT.h - Planned modules compiled and called in-process -*- C++
//-*-===//
//
// What `--run` and `--tune` share: a planned module compiled for this
// machine's CPU with MLIR's ExecutionEngine, buffers for a function's
// arguments and results, and calls of its raw entry point.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_DRIVER_HOSTJIT_H
#define LAYOUT_COMPILER_DRIVER_HOSTJIT_H

#include "layout/Compiler/Plan/TargetInfo.h"
#include "layout/Compiler/Plan/Wisdom.h"
#include "layout/Compiler/Target/CPU/CPUBackend.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace layout {

/// A planned module compiled for this machine: the TargetMachine the
/// kernels were planned and compiled for, every function's ABI and the JIT.
struct HostJIT {
  std::unique_ptr<llvm::TargetMachine> machine;
  std::vector<FunctionABI> abis;
  std::unique_ptr<ExecutionEngine> engine;
  /// A hash of the optimized LLVM IR the engine compiles: equal hashes,
  /// equal code.
  uint64_t irHash = 0;
};

/// This machine's CPU as --mcpu=host describes it.
FailureOr<std::unique_ptr<llvm::TargetMachine>>
createHostMachine(std::string &error);

/// Plans `planned` for `machine`'s CPU (with `wisdom`'s entries under
/// `wisdomTarget`, by default the machine's wisdomTargetKey), builds and lowers
/// its kernels and JITs them at -O3 into `jit`, which takes `machine`. Emits
/// diagnostics for what the planner rejects; `error` says why the JIT failed.
LogicalResult compileForHost(ModuleOp planned,
                             std::unique_ptr<llvm::TargetMachine> machine,
                             HostJIT &jit, std::string &error,
                             bool runtimeExtents,
                             const Wisdom *wisdom = nullptr,
                             llvm::StringRef wisdomTarget = {});

/// The alignment of the buffers allocateArguments allocates: a page.
constexpr size_t kBufferAlignment = 4096;

/// Owns one argument's or result's buffer (aligned_alloc'd).
struct FreeStorage {
  void operator()(char *p) const { std::free(p); }
};
using Storage = std::vector<std::unique_ptr<char, FreeStorage>>;

/// Allocates (zeroed) every argument and result buffer of `abi`, fills the
/// arguments with iota and appends the pointers to pass to `args`; each
/// buffer starts kBufferAlignment-aligned. Fails,
/// with `tool` ("--run") naming who asks, above `maxBytes` in all or when
/// an allocation fails.
LogicalResult allocateArguments(const FunctionABI &abi, Storage &storage,
                                std::vector<void *> &args, std::string &error,
                                llvm::StringRef tool, uint64_t maxBytes);

/// Calls the raw entry point `fn` of `abi` on `args` (its buffers, then the
/// exec options); fails on more arguments than it can pass or an error
/// status.
LogicalResult callEntry(void *fn, const FunctionABI &abi,
                        llvm::ArrayRef<void *> args, std::string &error);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_DRIVER_HOSTJIT_H
