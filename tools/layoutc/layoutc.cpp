//===- layoutc.cpp - The layout compiler's command line -------------------===//
//
// layoutc's flags and help: it registers MLIR's and LLVM's options it
// accepts, parses the command line, copies the flags into DriverOptions and
// hands them to the driver (layout/Compiler/Driver/Driver.h), which parses
// the program, plans it and writes the planned IR, the explain JSON, the
// memory map or code (LLVM IR, assembly, an object and its header; CUDA
// C++ with --target=cuda), or JITs it.
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Driver/Driver.h"
#include "layout/Compiler/Plan/Passes.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
namespace cl = llvm::cl;

using layout::CodeTarget;
using layout::EmitKind;

namespace {
cl::OptionCategory layoutcCategory("layoutc options");

cl::opt<std::string> inputFilename(cl::Positional,
                                   cl::desc("<layout program .mlir>"),
                                   cl::init("-"), cl::cat(layoutcCategory));
cl::opt<std::string> outputFilename("o",
                                    cl::desc("Output file (default: stdout)"),
                                    cl::value_desc("file"), cl::init("-"),
                                    cl::cat(layoutcCategory));
cl::list<EmitKind> emit(
    "emit",
    cl::desc("What to write; a comma list writes <-o>.<suffix> for each"),
    cl::CommaSeparated,
    cl::values(
        clEnumValN(EmitKind::MLIR, "mlir",
                   "the program after view folding and copy planning"),
        clEnumValN(EmitKind::Explain, "explain",
                   "JSON: each result's layout and aliasing, every copy with "
                   "its location, bytes, reason and kernel"),
        clEnumValN(EmitKind::MemoryMap, "memory-map",
                   "for each result, logical index -> storage offset and the "
                   "storage elements it reads"),
        clEnumValN(EmitKind::LLVM, "llvm",
                   "optimized LLVM IR of the kernels (.ll)"),
        clEnumValN(EmitKind::Asm, "asm", "target assembly (.s)"),
        clEnumValN(EmitKind::Obj, "obj", "an object file to link (.o)"),
        clEnumValN(EmitKind::Header, "header",
                   "the C header declaring the entry points (.h)"),
        clEnumValN(EmitKind::CUDA, "cuda",
                   "--target=cuda: kernels and launchers as CUDA C++ (.cu)")),
    cl::cat(layoutcCategory));
cl::opt<CodeTarget>
    target("target", cl::desc("Code generation target (default: cpu)"),
           cl::values(clEnumValN(CodeTarget::CPU, "cpu",
                                 "native code through LLVM, in-process"),
                      clEnumValN(CodeTarget::CUDA, "cuda",
                                 "CUDA C++; --emit=obj compiles it with nvcc")),
           cl::init(CodeTarget::CPU), cl::cat(layoutcCategory));
cl::opt<std::string> cudaArch(
    "cuda-arch",
    cl::desc("--target=cuda --emit=obj: comma list of real architectures, "
             "SASS for each and PTX for the highest (default: sm_80,sm_90)"),
    cl::init("sm_80,sm_90"), cl::cat(layoutcCategory));
cl::opt<std::string>
    nvccPath("nvcc",
             cl::desc("--target=cuda --emit=obj: the nvcc to run (default: "
                      "$CUDACXX, else /usr/local/cuda/bin/nvcc)"),
             cl::init(""), cl::cat(layoutcCategory));
cl::list<std::string> cudaIncludes(
    "cuda-include",
    cl::desc("--target=cuda --emit=obj: extra -I directories for nvcc, "
             "searched before layout_rt's"),
    cl::cat(layoutcCategory));
cl::opt<std::string> layoutTarget(
    "layout-target",
    cl::desc("The target description kernels are planned for: x86-64-v3, "
             "x86-64-v4, host (this machine, with its cache sizes), sm_80 or "
             "sm_90 (default: the preset of the CPU --mcpu/--mattr generate "
             "code for, or sm_80 with --target=cuda)"),
    cl::value_desc("preset"), cl::cat(layoutcCategory));
cl::opt<std::string> mtriple("mtriple",
                             cl::desc("Target triple (default: the host's)"),
                             cl::init(""), cl::cat(layoutcCategory));
cl::opt<unsigned> optLevel("O", cl::desc("Optimization level 0-3 (default 3)"),
                           cl::Prefix, cl::init(3), cl::cat(layoutcCategory));
cl::opt<unsigned>
    jobs("j",
         cl::desc("Threads that compile --emit=obj's shards of functions "
                  "and the parts of a dynamic function's kernels (default 0: "
                  "one per hardware thread, also the most); the object does "
                  "not depend on it"),
         cl::Prefix, cl::init(0), cl::cat(layoutcCategory));
cl::opt<bool> run("run",
                  cl::desc("JIT every function for this machine, call it on "
                           "iota-filled arguments and print its results as "
                           "PyTorch prints tensors"),
                  cl::init(false), cl::cat(layoutcCategory));
cl::opt<std::string> wisdom(
    "wisdom",
    cl::desc("A tuning file (docs/tuning.md): CPU copies whose shape class "
             "has an entry for the target CPU are planned with its knobs "
             "(default: the shipped tuning presets; 'none': no tuning)"),
    cl::value_desc("file"), cl::cat(layoutcCategory));
cl::opt<std::string>
    tune("tune",
         cl::desc("Measure candidate plans of every function's copy on this "
                  "machine and keep the fastest in this tuning file (created "
                  "or updated); prints what it measured"),
         cl::value_desc("file"), cl::cat(layoutcCategory));
cl::opt<bool> runtimeExtents(
    "runtime-extents",
    cl::desc("CPU: compile every kernel with its loop sizes and strides read "
             "at run time (docs/internals/runtime-extents.md)"),
    cl::init(false), cl::Hidden, cl::cat(layoutcCategory));
cl::opt<bool> noOpt("no-opt",
                    cl::desc("Skip the pipeline: emit the parsed, verified "
                             "program"),
                    cl::init(false), cl::cat(layoutcCategory));
} // namespace

/// --mcpu and --mattr are LLVM's code generation flags: lld, which
/// emitObjectFile runs in-process, registers all of them when it first runs,
/// and two options of one name abort. layoutc registers them up front,
/// gives those two its own help, and unregisters the rest, which it would
/// otherwise accept and ignore.
struct TargetFlags {
  cl::opt<std::string> *cpu;
  cl::list<std::string> *features;
};
static TargetFlags adoptCodeGenFlags() {
  auto &options = cl::getRegisteredOptions();
  llvm::StringSet<> before;
  for (const auto &entry : options)
    before.insert(entry.first);
  static llvm::codegen::RegisterCodeGenFlags flags;
  std::vector<cl::Option *> added;
  for (const auto &entry : options)
    if (!before.contains(entry.first))
      added.push_back(entry.second);
  TargetFlags target{};
  for (cl::Option *option : added) {
    if (option->ArgStr == "mcpu") {
      target.cpu = static_cast<cl::opt<std::string> *>(option);
      option->setDescription("Target CPU, LLVM spelling; 'host' for this "
                             "machine (default: x86-64-v3)");
    } else if (option->ArgStr == "mattr") {
      target.features = static_cast<cl::list<std::string> *>(option);
      option->setDescription(
          "Target features, LLVM spelling (e.g. +avx512f,-fma)");
    } else {
      option->removeArgument();
      continue;
    }
    option->addCategory(layoutcCategory);
  }
  if (!target.cpu || !target.features) {
    llvm::errs() << "layoutc: LLVM's code generation flags lack --mcpu or "
                    "--mattr\n";
    exit(1);
  }
  return target;
}

static const char *kOverview =
    "layoutc: the layout compiler\n\n"
    "Folds PyTorch-style view chains into one strided view, decides which\n"
    "copies must run and why, and reports it.\n\n"
    "  layoutc prog.mlir --emit=explain       # JSON: layouts, aliasing, "
    "copies\n"
    "  layoutc prog.mlir --emit=memory-map    # index -> storage offset maps\n"
    "  layoutc prog.mlir -o planned.mlir      # planned IR\n"
    "  layoutc prog.mlir --emit=obj,header -o out/prog   # out/prog.{o,h}\n"
    "  layoutc prog.mlir --run                # JIT on iota inputs, print\n"
    "  layoutc prog.mlir --tune=host.json     # measure plans, keep the best\n"
    "  layoutc prog.mlir --wisdom=host.json --mcpu=host --emit=obj -o prog.o\n"
    "  layoutc prog.mlir --target=cuda --emit=cuda,header,obj -o out/prog\n\n"
    "MLIR's options work too (see --help-hidden), e.g.\n"
    "--mlir-print-ir-after-all, --mlir-print-ir-before=layout-plan-copies,\n"
    "--mlir-print-debuginfo, --mlir-timing.\n";

/// The flags as driver options, copied: lld, which --emit=obj runs
/// in-process, resets every command-line option to its default when it
/// starts.
static layout::DriverOptions driverOptions(const TargetFlags &targetFlags,
                                           const char *argv0) {
  layout::DriverOptions options;
  options.inputPath = inputFilename;
  options.outputPath = outputFilename;
  options.emit.assign(emit.begin(), emit.end());
  options.target = target;
  options.layoutTarget = layoutTarget;
  if (!targetFlags.cpu->empty())
    options.cpu.cpu = *targetFlags.cpu;
  options.cpu.features = llvm::join(*targetFlags.features, ",");
  options.cpu.triple = mtriple;
  options.cpu.optLevel = optLevel;
  options.cpu.runtimeExtents = runtimeExtents;
  for (const cl::Option *option :
       {static_cast<cl::Option *>(targetFlags.cpu),
        static_cast<cl::Option *>(targetFlags.features),
        static_cast<cl::Option *>(&mtriple)})
    if (option->getNumOccurrences() && options.explicitCPUFlag.empty())
      options.explicitCPUFlag = option->ArgStr.str();
  options.jobs = jobs;
  options.noOpt = noOpt;
  options.run = run;
  options.wisdomPath = wisdom;
  options.tunePath = tune;
  options.cudaArchs = cudaArch;
  options.nvcc = nvccPath;
  options.cudaIncludeDirs.assign(cudaIncludes.begin(), cudaIncludes.end());
  // An installed layoutc finds layout_rt's headers next to its bin/.
  static int anchor;
  std::string executable = llvm::sys::fs::getMainExecutable(argv0, &anchor);
  options.runtimeIncludeDirs = layout::runtimeIncludeDirs(executable);
  options.tuningPresetDirs = layout::tuningPresetDirs(executable);
  return options;
}

/// --version: layoutc's version and commit, the LLVM it was built with, and
/// the target code is generated for by default.
static void printVersion(llvm::raw_ostream &os) {
  os << "layoutc version " << LAYOUTC_VERSION_STRING;
  if (*LAYOUTC_GIT_COMMIT)
    os << " (git " << LAYOUTC_GIT_COMMIT << ")";
  os << "\n  LLVM/MLIR " << LLVM_VERSION_STRING
     << "\n  Default target: " << llvm::sys::getDefaultTargetTriple()
     << "\n  Default CPU: " << layout::CPUOptions().cpu
     << " (--mcpu=host: " << llvm::sys::getHostCPUName() << ")\n";
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Pass names for --mlir-print-ir-before=<pass> and friends: registered
  // before the pass-manager options snapshot the pass registry.
  layout::registerLayoutPasses();
  layout::registerLayoutPlanPasses();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  TargetFlags targetFlags = adoptCodeGenFlags();
  cl::HideUnrelatedOptions(layoutcCategory);
  cl::SetVersionPrinter(printVersion);
  cl::ParseCommandLineOptions(argc, argv, kOverview);
  return failed(layout::compile(driverOptions(targetFlags, argv[0]))) ? 1 : 0;
}
