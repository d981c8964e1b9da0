//===- FuzzCodegen.cpp - Fuzz target: plans to LLVM IR --------------------===//
//
// layoutc-fuzz-codegen: the input is a layout program (MLIR source text).
// For every program the pipeline accepts it runs what `layoutc --emit=llvm
// -O0` and `--emit=header` run for the default CPU (x86-64-v3): the entry
// symbol checks, the kernel module of every function, its lowering to the
// LLVM dialect and its translation to LLVM IR. Code generation may refuse a
// planned program with an error (a dynamic layout, a reserved name); once it
// has built a kernel module, that module must verify, lower and translate to
// a valid LLVM module, or the backend has a bug and this traps.
//
//===----------------------------------------------------------------------===//

#include "ProgramFuzzer.h"

#include "layout/Compiler/Plan/Passes.h"
#include "layout/Compiler/Semantics/FunctionABI.h"
#include "layout/Compiler/Target/CPU/CPUBackend.h"

#include "mlir/IR/Verifier.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace mlir;

/// layoutc's default target machine, made once: creating one costs more than
/// translating most inputs, and translation does not change it.
static llvm::TargetMachine &targetMachine() {
  static std::unique_ptr<llvm::TargetMachine> machine = [] {
    layout::CPUOptions options;
    options.cpu = "x86-64-v3";
    options.optLevel = 0;
    std::string error;
    FailureOr<std::unique_ptr<llvm::TargetMachine>> created =
        layout::createTargetMachine(options, error);
    if (failed(created)) {
      std::fprintf(stderr, "layoutc-fuzz-codegen: %s\n", error.c_str());
      std::abort();
    }
    return std::move(*created);
  }();
  return *machine;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace layoutc::fuzz;
  if (size > kMaxProgramBytes)
    return -1;
  static ProgramFuzzer fuzzer;
  llvm::TargetMachine &machine = targetMachine();
  OwningOpRef<ModuleOp> module =
      fuzzer.plan(llvm::StringRef(reinterpret_cast<const char *>(data), size));
  if (!module)
    return 0;

  // The order of layoutc's code path: names first, then the kernels.
  bool headerNames = true;
  for (auto func : module->getOps<func::FuncOp>())
    if (!func.isExternal() &&
        failed(layout::verifyEntryName(func, "--emit=header", "fuzzing")))
      headerNames = false;
  if (failed(layout::verifyEntrySymbols(*module, "code generation",
                                        /*cuda=*/false)))
    return 0;

  std::vector<layout::FunctionABI> abis;
  unsigned errors = fuzzer.getNumErrors();
  layout::TargetInfo target = layout::cpuTargetInfo(machine);
  if (failed(layout::planKernels(*module, target))) {
    if (fuzzer.getNumErrors() == errors)
      fuzzer.fail("layout-plan-kernels failed without an error");
    return 0;
  }
  FailureOr<OwningOpRef<ModuleOp>> kernels =
      layout::buildKernelModule(*module, abis);
  if (failed(kernels)) {
    if (fuzzer.getNumErrors() == errors)
      fuzzer.fail("buildKernelModule failed without an error");
    return 0;
  }
  if (failed(verify(**kernels)))
    fuzzer.fail("the kernel module does not verify");
  if (failed(layout::lowerKernelModuleToLLVM(**kernels)))
    fuzzer.fail("the kernel module does not lower to the LLVM dialect");
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule = layout::translateAndOptimize(
      **kernels, llvmContext, machine, /*optLevel=*/0);
  if (!llvmModule)
    fuzzer.fail("the kernel module does not translate to LLVM IR");
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*llvmModule, &os))
    fuzzer.fail("invalid LLVM IR:\n" + problems);
  if (headerNames) {
    llvm::raw_null_ostream null;
    layout::printHeader(abis, "LAYOUTC_FUZZ_H", null);
  }
  return 0;
}
