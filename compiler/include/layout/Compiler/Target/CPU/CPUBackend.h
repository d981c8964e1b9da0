//===- CPUBackend.h - Kernel plans to native code ---------------*- C++ -*-===//
//
// The CPU backend: builds, for every function of a planned module, the
// kernels of its plans in the scf/vector/arith/LLVM dialects plus its entry
// points, lowers the result to the LLVM dialect, translates it to LLVM IR,
// optimizes it and emits object code or assembly with LLVM's TargetMachine,
// in-process. The same LLVM module feeds the JIT of `layoutc --run`.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_TARGET_CPU_CPUBACKEND_H
#define LAYOUT_COMPILER_TARGET_CPU_CPUBACKEND_H

#include "layout/Compiler/Semantics/FunctionABI.h"

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
  /// Every kernel reads its loop sizes and strides at run time instead of
  /// baking in the plan's (docs/internals/runtime-extents.md).
  bool runtimeExtents = false;
};

/// A kernel function attribute: "avx2" asks translateAndOptimize to generate
/// the function without AVX-512 (kernels without 64-byte register tiles).
constexpr llvm::StringLiteral kVectorsAttr = "layoutc-vectors";

/// Appends to `abis` the ABI of every defined function of a module planned
/// for a CPU target (layout-plan-kernels), in order; fails with the first
/// function's error. Functions with dynamic layouts are planned for
/// `dynamicTarget` (analyzeDynamicFunction), or are an error without one.
LogicalResult analyzeFunctions(ModuleOp planned, std::vector<FunctionABI> &abis,
                               const TargetInfo *dynamicTarget = nullptr);

/// Builds the kernel module (scf/vector/arith/LLVM dialects) of the
/// functions `abis` describe, as their plans say: per function a DLPack
/// entry point `<name>`, a raw entry point `<name>_raw` and internal chunk
/// functions. Safe to call on several threads at once for one context once
/// prepareKernelContext has run on it. `runtimeExtents`: every kernel in
/// run-time-extent mode (CPUOptions::runtimeExtents).
OwningOpRef<ModuleOp> buildKernelModule(MLIRContext *context, Location loc,
                                        ArrayRef<FunctionABI> abis,
                                        bool runtimeExtents = false);

/// analyzeFunctions and buildKernelModule for all of a planned module.
FailureOr<OwningOpRef<ModuleOp>>
buildKernelModule(ModuleOp planned, std::vector<FunctionABI> &abis,
                  bool runtimeExtents = false);

/// Loads the dialects that building, lowering and translating kernel modules
/// create, and registers their LLVM IR translations: MLIR forbids both while
/// several threads use the context.
void prepareKernelContext(MLIRContext *context);

/// Lowers a kernel module to the LLVM dialect only.
LogicalResult lowerKernelModuleToLLVM(ModuleOp kernels);

/// Creates the target machine for `options`, or reports why not.
FailureOr<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const CPUOptions &options, std::string &error);

/// The target description of the CPU `machine` generates code for: the
/// x86-64-v4 preset where it has AVX-512F, else x86-64-v3.
TargetInfo cpuTargetInfo(const llvm::TargetMachine &machine);

/// Translates an LLVM-dialect module to LLVM IR for `machine` and runs
/// LLVM's optimization pipeline at `optLevel`, or where `cleanupOnly` (a
/// module of run-time-extent copy kernels) its clean-up passes alone.
std::unique_ptr<llvm::Module> translateAndOptimize(ModuleOp llvmDialect,
                                                   llvm::LLVMContext &context,
                                                   llvm::TargetMachine &machine,
                                                   unsigned optLevel,
                                                   bool cleanupOnly = false);

/// translateAndOptimize's two steps: the LLVM IR, with every function's
/// target CPU and features, and LLVM's pipeline over it.
std::unique_ptr<llvm::Module> translateForMachine(ModuleOp llvmDialect,
                                                  llvm::LLVMContext &context,
                                                  llvm::TargetMachine &machine);
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                    unsigned optLevel, bool cleanupOnly);

/// The optimized LLVM module of the functions `abis` describes: their kernel
/// module (buildKernelModule) lowered to the LLVM dialect, translated for
/// `machine` and optimized at `optLevel`; the MLIR module is gone on
/// return. Null after a diagnostic. Needs prepareKernelContext(context).
/// With `deferredCleanup`, a module that gets the clean-up passes alone is
/// returned without them and *deferredCleanup says so (the caller runs
/// them, on parts of the module: they are function passes).
std::unique_ptr<llvm::Module>
compileKernels(MLIRContext *context, Location loc, ArrayRef<FunctionABI> abis,
               llvm::LLVMContext &llvmContext, llvm::TargetMachine &machine,
               unsigned optLevel, bool runtimeExtents = false,
               bool *deferredCleanup = nullptr);

/// Whether every kernel of `abis` takes run-time extents: dynamic functions,
/// or every function under `runtimeExtents` (--runtime-extents).
bool runtimeExtentKernels(ArrayRef<FunctionABI> abis, bool runtimeExtents);

/// Writes an object file or assembly for `module`. Without `strengthReduce`
/// (modules of run-time-extent kernels) the code generator skips Loop
/// Strength Reduction: it gives each row address of their squares an
/// induction variable of its own, and these spill.
LogicalResult emitMachineCode(llvm::Module &module,
                              llvm::TargetMachine &machine, bool assembly,
                              llvm::raw_pwrite_stream &os, std::string &error,
                              bool strengthReduce = true);

/// Functions per shard of emitObjectFile. Fixed, so that the object's bytes
/// do not depend on the thread count; small, so that memory stays bounded
/// (each shard's IR lives only while it compiles) and threads stay busy.
constexpr size_t kShardFunctions = 8;

/// Parts of a run-time-extent kernel module that its shard compiles on
/// threads of their own (splitForCodegen): one more thread at most, enough
/// for the 2 hardware threads we target, and fixed, so that the object
/// does not depend on the thread count.
constexpr unsigned kCodegenParts = 2;

/// Splits optimized `module` by function into at most `maxParts` modules,
/// as bitcode, balanced by their instruction counts; a function used
/// across parts becomes a hidden symbol, and each part keeps the constants
/// it uses. One part, the whole module, where it has a global variable of
/// its own that is not local, or a single function. Changes `module`'s
/// linkage of the functions it exposes.
std::vector<std::string> splitForCodegen(llvm::Module &module,
                                         unsigned maxParts);

/// Writes the object file of a planned module whose functions `abis`
/// describes (analyzeFunctions): the functions in order, in shards of
/// kShardFunctions, each built, lowered, optimized and compiled on its own
/// LLVM context and target machine (from `options`) by a pool of `jobs`
/// threads (0 or more than the hardware threads: one per hardware thread),
/// and the shards' objects linked
/// into one (linkRelocatable). A shard of run-time-extent kernels compiles
/// as kCodegenParts parts (splitForCodegen), on threads of their own where
/// there are more `jobs` than shards. The bytes do not depend on `jobs`.
/// Targets whose objects are not ELF compile as one shard and one part.
LogicalResult emitObjectFile(ModuleOp planned, ArrayRef<FunctionABI> abis,
                             const CPUOptions &options, unsigned jobs,
                             llvm::raw_pwrite_stream &os, std::string &error);

/// Joins ELF objects into one relocatable object, as `ld.lld -r` does, in
/// order (lld's ELF driver, in-process); one object is written unchanged.
/// lld registers LLVM's code generation flags (--mcpu, --mattr, ...) when it
/// first runs and resets every command-line option to its default: a tool
/// reads its options before, and has none of those names (layoutc.cpp).
LogicalResult linkRelocatable(llvm::ArrayRef<std::string> objects,
                              llvm::raw_ostream &os, std::string &error);

/// The C header declaring every function's entry points and result layouts.
void printHeader(llvm::ArrayRef<FunctionABI> abis, llvm::StringRef guard,
                 llvm::raw_ostream &os);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_TARGET_CPU_CPUBACKEND_H
