//===- CPUBackend.h - Kernel plans to native code ---------------*- C++ -*-===//
//
// The CPU backend: builds, for every function of a planned module, the
// kernels of its plans in the scf/vector/arith/LLVM dialects plus its entry
// points, lowers the result to the LLVM dialect, translates it to LLVM IR,
// optimizes it and emits object code or assembly with LLVM's TargetMachine,
// in-process. The same LLVM module feeds the JIT of `layoutc --run`.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_CPUBACKEND_H
#define LAYOUT_COMPILER_CPUBACKEND_H

#include "layout/Compiler/FunctionABI.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace layout {

struct CPUOptions {
  /// LLVM target triple; empty = the host's.
  std::string triple;
  /// LLVM CPU name; "host" = the build machine's.
  std::string cpu = "x86-64-v3";
  /// LLVM feature string ("+avx2,-fma"), appended to the CPU's.
  std::string features;
  /// -O level for LLVM's pipeline and code generator.
  unsigned optLevel = 3;
};

/// A kernel function attribute: "avx2" asks translateAndOptimize to generate
/// the function without AVX-512 (kernels without 64-byte register tiles).
constexpr llvm::StringLiteral kVectorsAttr = "layoutc-vectors";

/// Builds the kernel module (scf/vector/arith/LLVM dialects) of a planned
/// module, planned for `target`: per function a DLPack entry point `<name>`,
/// a raw entry point `<name>_raw` and internal chunk functions. `abis`
/// receives each function's ABI in order.
FailureOr<OwningOpRef<ModuleOp>>
buildKernelModule(ModuleOp planned, std::vector<FunctionABI> &abis,
                  const TargetInfo &target);

/// Lowers a kernel module to the LLVM dialect only.
LogicalResult lowerKernelModuleToLLVM(ModuleOp kernels);

/// Creates the target machine for `options`, or reports why not.
FailureOr<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const CPUOptions &options, std::string &error);

/// The planner's view of the CPU `machine` generates code for:
/// cpuTargetInfo(), with 32 vector registers where it has AVX-512F.
TargetInfo cpuTargetInfo(const llvm::TargetMachine &machine);

/// Translates an LLVM-dialect module to LLVM IR for `machine` and runs
/// LLVM's optimization pipeline at `optLevel`.
std::unique_ptr<llvm::Module> translateAndOptimize(ModuleOp llvmDialect,
                                                   llvm::LLVMContext &context,
                                                   llvm::TargetMachine &machine,
                                                   unsigned optLevel);

/// Writes an object file or assembly for `module`.
LogicalResult emitMachineCode(llvm::Module &module,
                              llvm::TargetMachine &machine, bool assembly,
                              llvm::raw_pwrite_stream &os, std::string &error);

/// The C header declaring every function's entry points and result layouts.
void printHeader(llvm::ArrayRef<FunctionABI> abis, llvm::StringRef guard,
                 llvm::raw_ostream &os);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_CPUBACKEND_H
