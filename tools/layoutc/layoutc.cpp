//===- layoutc.cpp - The layout compiler driver ---------------------------===//
//
// Parses a layout program, runs the layoutc pipeline (fold views, plan
// copies) and emits the planned IR, the explain JSON, the memory map, or
// code: LLVM IR, assembly, an object file and its C header; or JITs it.
// With --target=cuda: CUDA C++ source, its header, and an object via nvcc.
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Driver/Run.h"
#include "layout/Compiler/Plan/Passes.h"
#include "layout/Compiler/Report/Explain.h"
#include "layout/Compiler/Target/CPU/CPUBackend.h"
#include "layout/Compiler/Target/CUDA/CUDABackend.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class Emit { MLIR, Explain, MemoryMap, LLVM, Asm, Obj, Header, CUDA };
enum class Target { CPU, CUDA };

cl::OptionCategory layoutcCategory("layoutc options");

cl::opt<std::string> inputFilename(cl::Positional,
                                   cl::desc("<layout program .mlir>"),
                                   cl::init("-"), cl::cat(layoutcCategory));
cl::opt<std::string> outputFilename("o",
                                    cl::desc("Output file (default: stdout)"),
                                    cl::value_desc("file"), cl::init("-"),
                                    cl::cat(layoutcCategory));
cl::list<Emit> emit(
    "emit",
    cl::desc("What to write; a comma list writes <-o>.<suffix> for each"),
    cl::CommaSeparated,
    cl::values(
        clEnumValN(Emit::MLIR, "mlir",
                   "the program after view folding and copy planning"),
        clEnumValN(Emit::Explain, "explain",
                   "JSON: each result's layout and aliasing, every copy with "
                   "its location, bytes, reason and kernel"),
        clEnumValN(Emit::MemoryMap, "memory-map",
                   "for each result, logical index -> storage offset and the "
                   "storage elements it reads"),
        clEnumValN(Emit::LLVM, "llvm",
                   "optimized LLVM IR of the kernels (.ll)"),
        clEnumValN(Emit::Asm, "asm", "target assembly (.s)"),
        clEnumValN(Emit::Obj, "obj", "an object file to link (.o)"),
        clEnumValN(Emit::Header, "header",
                   "the C header declaring the entry points (.h)"),
        clEnumValN(Emit::CUDA, "cuda",
                   "--target=cuda: kernels and launchers as CUDA C++ (.cu)")),
    cl::cat(layoutcCategory));
cl::opt<Target>
    target("target", cl::desc("Code generation target (default: cpu)"),
           cl::values(clEnumValN(Target::CPU, "cpu",
                                 "native code through LLVM, in-process"),
                      clEnumValN(Target::CUDA, "cuda",
                                 "CUDA C++; --emit=obj compiles it with nvcc")),
           cl::init(Target::CPU), cl::cat(layoutcCategory));
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
cl::opt<std::string> mtriple("mtriple",
                             cl::desc("Target triple (default: the host's)"),
                             cl::init(""), cl::cat(layoutcCategory));
cl::opt<unsigned> optLevel("O", cl::desc("Optimization level 0-3 (default 3)"),
                           cl::Prefix, cl::init(3), cl::cat(layoutcCategory));
cl::opt<unsigned>
    jobs("j",
         cl::desc("Threads that compile --emit=obj's shards of functions "
                  "(default 0: one per hardware thread, also the most); the "
                  "object does not depend on it"),
         cl::Prefix, cl::init(0), cl::cat(layoutcCategory));
cl::opt<bool> run("run",
                  cl::desc("JIT every function for this machine, call it on "
                           "iota-filled arguments and print its results as "
                           "PyTorch prints tensors"),
                  cl::init(false), cl::cat(layoutcCategory));
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
    "  layoutc prog.mlir --target=cuda --emit=cuda,header,obj -o out/prog\n\n"
    "MLIR's options work too (see --help-hidden), e.g.\n"
    "--mlir-print-ir-after-all, --mlir-print-ir-before=layout-plan-copies,\n"
    "--mlir-print-debuginfo, --mlir-timing.\n";

/// The -I directories nvcc needs for layout_rt/cuda.h and layout_rt.h: an
/// installed layoutc's <prefix>/include (bin/../include), else the source
/// tree it was built from.
static std::vector<std::string> runtimeIncludeDirs(const char *argv0) {
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable(argv0, &anchor);
  if (!exe.empty()) {
    llvm::SmallString<256> dir(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
    llvm::sys::path::append(dir, "include");
    llvm::SmallString<256> header(dir);
    llvm::sys::path::append(header, "layout_rt", "cuda.h");
    if (llvm::sys::fs::exists(header))
      return {dir.str().str()};
  }
  return {LAYOUTC_CUDA_INCLUDE_DIR, LAYOUTC_RUNTIME_INCLUDE_DIR};
}

/// Flushes `output` and keeps it, or reports why it could not be written
/// (a full disk, a closed standard output) instead of LLVM's fatal error at
/// the stream's destruction. A regular file left half-written is removed;
/// anything else (a device, a pipe) is left alone.
static LogicalResult finishOutput(llvm::ToolOutputFile &output,
                                  StringRef path) {
  output.os().flush();
  if (!output.os().has_error()) {
    output.keep();
    return success();
  }
  llvm::errs() << "layoutc: cannot write "
               << (path == "-" ? std::string("the standard output")
                               : "'" + path.str() + "'")
               << ": " << output.os().error().message() << "\n";
  output.os().clear_error();
  if (path == "-" || !llvm::sys::fs::is_regular_file(path))
    output.keep();
  return failure();
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
  cl::ParseCommandLineOptions(argc, argv, kOverview);

  DialectRegistry registry;
  layout::registerLayoutDialects(registry);
  MLIRContext context(registry);
  // Diagnostics point at the source line; the generic op dump adds noise.
  context.printOpOnDiagnostic(false);
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
  // MLIR's parser can report an error and still return a module (a stray
  // token after a dialect type): any error fails the run. The count passes
  // every diagnostic on to the printer.
  unsigned errors = 0;
  ScopedDiagnosticHandler countErrors(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++errors;
    return failure();
  });

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module || errors)
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

  if (noOpt && (run || llvm::any_of(emit, [](Emit k) {
                  return k != Emit::MLIR && k != Emit::Explain &&
                         k != Emit::MemoryMap;
                }))) {
    llvm::errs() << "layoutc: --no-opt skips copy planning, which code "
                    "generation and --run need (it goes with --emit=mlir, "
                    "explain or memory-map)\n";
    return 1;
  }
  if (optLevel > 3) {
    llvm::errs() << "layoutc: -O" << optLevel << " is not 0, 1, 2 or 3\n";
    return 1;
  }
  if (target == Target::CUDA) {
    if (run) {
      llvm::errs() << "layoutc: --run executes on the host CPU; it cannot be "
                      "combined with --target=cuda\n";
      return 1;
    }
    for (Emit kind : emit)
      if (kind == Emit::LLVM || kind == Emit::Asm) {
        llvm::errs() << "layoutc: --emit="
                     << (kind == Emit::LLVM ? "llvm" : "asm")
                     << " is not available with --target=cuda (use "
                        "--emit=cuda for the CUDA source, --emit=obj for an "
                        "object)\n";
        return 1;
      }
  } else if (llvm::is_contained(emit, Emit::CUDA)) {
    llvm::errs() << "layoutc: --emit=cuda needs --target=cuda\n";
    return 1;
  }
  std::vector<std::string> archs;
  if (target == Target::CUDA &&
      failed(layout::parseCUDAArchs(cudaArch, archs, error))) {
    llvm::errs() << "layoutc: " << error << "\n";
    return 1;
  }

  if (run) {
    if (!emit.empty()) {
      llvm::errs() << "layoutc: --run cannot be combined with --emit\n";
      return 1;
    }
    for (const cl::Option *option :
         {static_cast<cl::Option *>(targetFlags.cpu),
          static_cast<cl::Option *>(targetFlags.features),
          static_cast<cl::Option *>(&mtriple)})
      if (option->getNumOccurrences()) {
        llvm::errs() << "layoutc: --run executes on this machine's CPU; it "
                        "cannot be combined with --"
                     << option->ArgStr << "\n";
        return 1;
      }
    std::unique_ptr<llvm::ToolOutputFile> output =
        openOutputFile(outputFilename, &error);
    if (!output) {
      llvm::errs() << "layoutc: " << error << "\n";
      return 1;
    }
    if (failed(layout::runModule(*module, output->os(), error))) {
      if (!error.empty())
        llvm::errs() << "layoutc: " << error << "\n";
      return 1;
    }
    return failed(finishOutput(*output, outputFilename)) ? 1 : 0;
  }

  // Kernels are planned for the CPU the code is generated for (its vector
  // registers decide transpose tiles) or for the GPU.
  std::unique_ptr<llvm::TargetMachine> machine;
  layout::CPUOptions cpu;
  if (!targetFlags.cpu->empty())
    cpu.cpu = *targetFlags.cpu;
  cpu.features = llvm::join(*targetFlags.features, ",");
  cpu.triple = mtriple;
  cpu.optLevel = optLevel;
  layout::TargetInfo cpuTarget = layout::cpuTarget(/*avx512=*/false);
  if (target == Target::CPU && !noOpt) {
    FailureOr<std::unique_ptr<llvm::TargetMachine>> tm =
        layout::createTargetMachine(cpu, error);
    if (failed(tm)) {
      llvm::errs() << "layoutc: " << error << "\n";
      return 1;
    }
    machine = std::move(*tm);
    cpuTarget = layout::cpuTargetInfo(*machine);
  }
  if (!noOpt && failed(layout::planKernels(
                    *module, target == Target::CUDA ? layout::cudaTargetInfo()
                                                    : cpuTarget)))
    return 1;

  std::vector<layout::FunctionABI> abis;
  std::vector<Emit> kinds(emit.begin(), emit.end());
  if (kinds.empty())
    kinds.push_back(Emit::MLIR);
  if (kinds.size() > 1 && outputFilename == "-") {
    llvm::errs() << "layoutc: several --emit kinds need -o <base name>\n";
    return 1;
  }
  auto suffix = [](Emit kind) -> const char * {
    switch (kind) {
    case Emit::MLIR:
      return ".mlir";
    case Emit::Explain:
      return ".json";
    case Emit::MemoryMap:
      return ".txt";
    case Emit::LLVM:
      return ".ll";
    case Emit::Asm:
      return ".s";
    case Emit::Obj:
      return ".o";
    case Emit::Header:
      return ".h";
    case Emit::CUDA:
      return ".cu";
    }
    return "";
  };

  // Code generation runs once for every code kind requested.
  // CUDA: the source is printed once and feeds .cu, .h and nvcc.
  std::string cudaSource;
  if (target == Target::CUDA && llvm::any_of(kinds, [](Emit k) {
        return k == Emit::CUDA || k == Emit::Obj || k == Emit::Header;
      })) {
    llvm::raw_string_ostream os(cudaSource);
    if (failed(layout::printCUDASource(*module, abis, os)))
      return 1;
  }
  if (target == Target::CPU && llvm::is_contained(kinds, Emit::Header))
    for (auto func : module->getOps<func::FuncOp>())
      if (!func.isExternal() &&
          failed(layout::verifyEntryName(
              func, "--emit=header",
              "the header declares extern \"C\" entry points of that name")))
        return 1;
  bool needCode = target == Target::CPU && llvm::any_of(kinds, [](Emit k) {
                    return k == Emit::LLVM || k == Emit::Asm ||
                           k == Emit::Obj || k == Emit::Header;
                  });
  // Before anything is written: entry points whose symbols would bind to
  // the C library's, the runtime's or each other's.
  if (needCode && failed(layout::verifyEntrySymbols(*module, "code generation",
                                                    /*cuda=*/false)))
    return 1;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  if (needCode && failed(layout::analyzeFunctions(*module, cpuTarget, abis)))
    return 1;
  // .ll and .s show the whole program as one LLVM module; objects are
  // compiled in shards (emitObjectFile).
  if (llvm::any_of(kinds,
                   [](Emit k) { return k == Emit::LLVM || k == Emit::Asm; })) {
    layout::prepareKernelContext(&context);
    llvmModule =
        layout::compileKernels(&context, module->getLoc(), abis, cpuTarget,
                               llvmContext, *machine, optLevel);
    if (!llvmModule)
      return 1;
  }

  // lld, which --emit=obj runs in-process, resets every command-line option
  // to its default when it starts: the loop reads copies.
  const std::string outputBase = outputFilename, inputPath = inputFilename;
  const Target targetKind = target;
  const std::string nvccProgram =
      nvccPath.empty() ? layout::defaultNVCCPath() : nvccPath.getValue();
  const std::vector<std::string> extraIncludes(cudaIncludes.begin(),
                                               cudaIncludes.end());
  for (Emit kind : kinds) {
    std::string path = outputBase;
    if (kinds.size() > 1)
      path += suffix(kind);
    std::unique_ptr<llvm::ToolOutputFile> output = openOutputFile(path, &error);
    if (!output) {
      llvm::errs() << "layoutc: " << error << "\n";
      return 1;
    }
    switch (kind) {
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
    case Emit::LLVM:
      llvmModule->print(output->os(), nullptr);
      break;
    case Emit::CUDA:
      output->os() << cudaSource;
      break;
    case Emit::Obj:
      if (targetKind == Target::CUDA) {
        if (path == "-") {
          llvm::errs() << "layoutc: --target=cuda --emit=obj needs -o <file> "
                          "(nvcc writes the object)\n";
          return 1;
        }
        layout::NVCCOptions nvcc;
        nvcc.nvcc = nvccProgram;
        nvcc.archs = archs;
        nvcc.includeDirs = extraIncludes;
        for (std::string &dir : runtimeIncludeDirs(argv[0]))
          nvcc.includeDirs.push_back(std::move(dir));
        // nvcc writes the file itself; keep the ToolOutputFile from
        // deleting or truncating it.
        output->os().close();
        if (failed(layout::compileCUDASource(cudaSource, path, nvcc, error))) {
          llvm::errs() << "layoutc: " << error << "\n";
          return 1;
        }
        break;
      }
      if (failed(layout::emitObjectFile(*module, abis, cpu, jobs, output->os(),
                                        error))) {
        if (!error.empty())
          llvm::errs() << "layoutc: " << error << "\n";
        return 1;
      }
      break;
    case Emit::Asm:
      if (failed(layout::emitMachineCode(
              *llvmModule, *machine, kind == Emit::Asm, output->os(), error))) {
        llvm::errs() << "layoutc: " << error << "\n";
        return 1;
      }
      break;
    case Emit::Header: {
      std::string stem = path == "-" ? inputPath : path;
      std::string guard = "LAYOUTC_" + llvm::sys::path::stem(stem).str() + "_H";
      for (char &c : guard)
        c = llvm::isAlnum(c) ? llvm::toUpper(c) : '_';
      if (targetKind == Target::CUDA)
        layout::printCUDAHeader(abis, guard, output->os());
      else
        layout::printHeader(abis, guard, output->os());
      break;
    }
    }
    if (failed(finishOutput(*output, path)))
      return 1;
  }
  return 0;
}
