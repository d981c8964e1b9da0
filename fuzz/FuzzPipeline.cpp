//===- FuzzPipeline.cpp - Fuzz target: parse, plan, explain, memory map ---===//
//
// layoutc-fuzz-pipeline: the input is a layout program (MLIR source text).
// It goes through what `layoutc --emit=explain` and `--emit=memory-map` run:
// parse and verify, the layoutc pipeline (fold views, plan copies), then the
// explain report, for the default CPU target and for an AVX-512 one, and the
// memory map. Any crash, sanitizer report or broken invariant of
// ProgramFuzzer is a bug.
//
//===----------------------------------------------------------------------===//

#include "ProgramFuzzer.h"

#include "layout/Compiler/Plan/Passes.h"
#include "layout/Compiler/Report/Explain.h"
#include "layout/Compiler/Semantics/FunctionABI.h"
#include "layout/Dialect/Layout/IR/LayoutTypes.h"
#include "layout/Dialect/Layout/Utils/LayoutAlgebra.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

using namespace mlir;

/// The elements printMemoryMap visits: every static result of at most its
/// own limit of 2^20 elements, one by one. A 4 KiB program can return
/// sixty such views; drawing them takes seconds in the sanitized build
/// (most of a libFuzzer timeout) and covers nothing one view does not.
static int64_t memoryMapElements(ModuleOp module) {
  constexpr int64_t kMaxCounted = int64_t(1) << 20;
  int64_t total = 0;
  for (auto func : module.getOps<func::FuncOp>())
    for (Type type : func.getResultTypes())
      if (auto tensor = dyn_cast<layout::StridedTensorType>(type)) {
        layout::Fallible<int64_t> n =
            layout::numel(tensor.getStridedLayout().sizes);
        if (n && *n <= kMaxCounted)
          total += *n;
      }
  return total;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace layoutc::fuzz;
  if (size > kMaxProgramBytes)
    return -1;
  static ProgramFuzzer fuzzer;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      fuzzer.plan(llvm::StringRef(reinterpret_cast<const char *>(data), size));
  if (!module)
    return 0;
  llvm::raw_null_ostream os;
  // Both CPU presets: the transpose tiles the planner chooses depend on the
  // register count. A plan the planner rejects is an error at its op.
  // Explain also plans dynamic functions' kernels for every size.
  for (bool avx512 : {false, true}) {
    layout::TargetInfo target = layout::cpuTarget(avx512);
    if (failed(layout::planKernels(*module, target)))
      return 0;
    layout::printExplain(*module, &target, os);
  }
  constexpr int64_t kMaxMemoryMapElements = int64_t(8) << 20;
  if (memoryMapElements(*module) <= kMaxMemoryMapElements)
    layout::printMemoryMap(*module, os);
  return 0;
}
