//===- CUDABackend.h - Kernel plans to CUDA C++ -----------------*- C++ -*-===//
//
// The CUDA backend: prints, for every function of a planned module, readable
// CUDA C++ (one __global__ kernel per kernel of the function's ABI, chosen
// from its plan, plus host launchers with the DLPack and raw ABI of
// docs/cuda.md) and the matching header, and compiles the source with nvcc
// into a relocatable object. The generated source uses only the CUDA subset
// that layout_rt/cuda.h also emulates on the host, and every grid, block and
// reduction split depends only on the plan, so results are the same bits on
// every GPU and under emulation.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_TARGET_CUDA_CUDABACKEND_H
#define LAYOUT_COMPILER_TARGET_CUDA_CUDABACKEND_H

#include "layout/Compiler/Semantics/FunctionABI.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mlir {
namespace layout {

/// The planner's view of a GPU: 16-byte vectors (uint4), a 40 MiB L2, and
/// enough "threads" that the planner splits whatever it can; the CUDA
/// kernels pick their own grids from the plan's sizes.
TargetInfo cudaTargetInfo();

/// Analyzes every function of a planned module (after layout-fold-views and
/// layout-plan-copies) and prints its kernels and launchers as CUDA C++.
/// Functions with dynamic layouts are planned for `target` once for every
/// size (analyzeDynamicFunction) and take their extents at run time.
/// Reports what it cannot generate as a diagnostic at the op and fails;
/// nothing is printed then. `abis` receives each function's ABI in order.
LogicalResult printCUDASource(ModuleOp planned, std::vector<FunctionABI> &abis,
                              const TargetInfo &target, llvm::raw_ostream &os);

/// The C++ header declaring every function's launchers and view results.
void printCUDAHeader(llvm::ArrayRef<FunctionABI> abis, llvm::StringRef guard,
                     llvm::raw_ostream &os);

struct NVCCOptions {
  /// Path of nvcc.
  std::string nvcc;
  /// Real architectures ("sm_80"); SASS for each, PTX for the highest.
  std::vector<std::string> archs;
  /// -I directories: layout_rt's headers and the CUDA emulation header's.
  std::vector<std::string> includeDirs;
};

/// The nvcc layoutc uses when none is given: $CUDACXX, else
/// /usr/local/cuda/bin/nvcc.
std::string defaultNVCCPath();

/// Parses a comma list of real architectures ("sm_80,sm_90a"). Fails with a
/// message naming the bad entry.
LogicalResult parseCUDAArchs(llvm::StringRef list,
                             std::vector<std::string> &archs,
                             std::string &error);

/// Compiles CUDA `source` into the relocatable object `objectPath` with
/// nvcc. On failure `error` says why (nvcc missing, or nvcc's stderr).
LogicalResult compileCUDASource(llvm::StringRef source,
                                llvm::StringRef objectPath,
                                const NVCCOptions &options, std::string &error);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_TARGET_CUDA_CUDABACKEND_H
