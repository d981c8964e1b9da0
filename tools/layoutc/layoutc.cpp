//===- layoutc.cpp - The layout compiler driver ---------------------------===//
//
// Parses a layout program, runs the layoutc pipeline (fold views, plan
// copies) and emits the planned IR, the explain JSON or the memory map.
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Explain.h"
#include "layout/Compiler/Passes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class Emit { MLIR, Explain, MemoryMap };

cl::OptionCategory layoutcCategory("layoutc options");

cl::opt<std::string> inputFilename(cl::Positional,
                                   cl::desc("<layout program .mlir>"),
                                   cl::init("-"), cl::cat(layoutcCategory));
cl::opt<std::string> outputFilename("o",
                                    cl::desc("Output file (default: stdout)"),
                                    cl::value_desc("file"), cl::init("-"),
                                    cl::cat(layoutcCategory));
cl::opt<Emit> emit(
    "emit", cl::desc("What to write"), cl::init(Emit::MLIR),
    cl::values(
        clEnumValN(Emit::MLIR, "mlir",
                   "the program after view folding and copy planning"),
        clEnumValN(Emit::Explain, "explain",
                   "JSON: each result's layout and aliasing, every copy with "
                   "its location, bytes, reason and kernel"),
        clEnumValN(Emit::MemoryMap, "memory-map",
                   "for each result, logical index -> storage offset and the "
                   "storage elements it reads")),
    cl::cat(layoutcCategory));
cl::opt<bool> noOpt("no-opt",
                    cl::desc("Skip the pipeline: emit the parsed, verified "
                             "program"),
                    cl::init(false), cl::cat(layoutcCategory));
} // namespace

static const char *kOverview =
    "layoutc: the layout compiler\n\n"
    "Folds PyTorch-style view chains into one strided view, decides which\n"
    "copies must run and why, and reports it.\n\n"
    "  layoutc prog.mlir --emit=explain       # JSON: layouts, aliasing, "
    "copies\n"
    "  layoutc prog.mlir --emit=memory-map    # index -> storage offset maps\n"
    "  layoutc prog.mlir -o planned.mlir      # planned IR\n\n"
    "MLIR's options work too (see --help-hidden), e.g.\n"
    "--mlir-print-ir-after-all, --mlir-print-ir-before=layout-plan-copies,\n"
    "--mlir-print-debuginfo, --mlir-timing.\n";

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Pass names for --mlir-print-ir-before=<pass> and friends: registered
  // before the pass-manager options snapshot the pass registry.
  layout::registerLayoutPasses();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions(layoutcCategory);
  cl::ParseCommandLineOptions(argc, argv, kOverview);

  DialectRegistry registry;
  layout::registerLayoutDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << "layoutc: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  if (!noOpt) {
    PassManager pm(&context);
    if (failed(applyPassManagerCLOptions(pm)))
      return 1;
    DefaultTimingManager tm;
    applyDefaultTimingManagerCLOptions(tm);
    TimingScope timing = tm.getRootScope();
    pm.enableTiming(timing);
    layout::buildLayoutPipeline(pm);
    if (failed(pm.run(*module)))
      return 1;
  }

  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << "layoutc: " << error << "\n";
    return 1;
  }
  switch (emit) {
  case Emit::MLIR:
    module->print(output->os());
    output->os() << "\n";
    break;
  case Emit::Explain:
    layout::printExplain(*module, output->os());
    break;
  case Emit::MemoryMap:
    layout::printMemoryMap(*module, output->os());
    break;
  }
  output->keep();
  return 0;
}
