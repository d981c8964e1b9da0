//===- Emit.cpp - Write what a layoutc compilation produces --------------===//
//
// The driver's outputs from a planned module: code is generated once for
// every kind that needs it (the CUDA source feeds .cu, .h and nvcc; the CPU
// ABIs feed .ll, .s, .o and .h), checked before anything is written, and
// each --emit kind is then written to its own file; or --run's printout.
// An output that cannot be written is reported, never left half-written.
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Driver/Driver.h"
#include "layout/Compiler/Driver/Run.h"
#include "layout/Compiler/Report/Explain.h"
#include "layout/Compiler/Target/CUDA/CUDABackend.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::layout;

llvm::StringRef mlir::layout::emitSuffix(EmitKind kind) {
  switch (kind) {
  case EmitKind::MLIR:
    return ".mlir";
  case EmitKind::Explain:
    return ".json";
  case EmitKind::MemoryMap:
    return ".txt";
  case EmitKind::LLVM:
    return ".ll";
  case EmitKind::Asm:
    return ".s";
  case EmitKind::Obj:
    return ".o";
  case EmitKind::Header:
    return ".h";
  case EmitKind::CUDA:
    return ".cu";
  }
  return "";
}

/// Prints "layoutc: <message>" and fails.
static LogicalResult reportError(const llvm::Twine &message) {
  llvm::errs() << "layoutc: " << message << "\n";
  return failure();
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

namespace {
/// The code generated once for every output that needs it.
struct GeneratedCode {
  /// Every function's ABI, in order (CPU code kinds, or any CUDA source).
  std::vector<FunctionABI> abis;
  /// --target=cuda: the source that .cu, .h and nvcc read.
  std::string cudaSource;
  /// .ll and .s: the whole program as one optimized LLVM module.
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
};
} // namespace

static bool containsAny(ArrayRef<EmitKind> kinds,
                        std::initializer_list<EmitKind> wanted) {
  return llvm::any_of(
      kinds, [&](EmitKind k) { return llvm::is_contained(wanted, k); });
}

/// Generates, for the `kinds` to write, the CUDA source or the CPU ABIs and
/// LLVM module, after checking the entry points the outputs would declare.
static LogicalResult generateCode(ModuleOp planned, ArrayRef<EmitKind> kinds,
                                  const CodeGenTarget &target, bool cuda,
                                  unsigned optLevel, GeneratedCode &code) {
  if (cuda &&
      containsAny(kinds, {EmitKind::CUDA, EmitKind::Obj, EmitKind::Header})) {
    llvm::raw_string_ostream os(code.cudaSource);
    if (failed(printCUDASource(planned, code.abis, target.info, os)))
      return failure();
  }
  if (!cuda && llvm::is_contained(kinds, EmitKind::Header))
    for (auto func : planned.getOps<func::FuncOp>())
      if (!func.isExternal() &&
          failed(verifyEntryName(
              func, "--emit=header",
              "the header declares extern \"C\" entry points of that name")))
        return failure();
  bool needCode =
      !cuda && containsAny(kinds, {EmitKind::LLVM, EmitKind::Asm, EmitKind::Obj,
                                   EmitKind::Header});
  if (!needCode)
    return success();
  // Before anything is written: entry points whose symbols would bind to
  // the C library's, the runtime's or each other's.
  if (failed(verifyEntrySymbols(planned, "code generation", /*cuda=*/false)) ||
      failed(analyzeFunctions(planned, code.abis, &target.info)))
    return failure();
  // .ll and .s show the whole program as one LLVM module; objects are
  // compiled in shards (emitObjectFile).
  if (!containsAny(kinds, {EmitKind::LLVM, EmitKind::Asm}))
    return success();
  MLIRContext *context = planned.getContext();
  prepareKernelContext(context);
  code.llvmModule =
      compileKernels(context, planned.getLoc(), code.abis, code.llvmContext,
                     *target.machine, optLevel, target.cpu.runtimeExtents);
  return success(code.llvmModule != nullptr);
}

/// --target=cuda --emit=obj: nvcc compiles the CUDA source into `path`.
static LogicalResult emitCUDAObject(const std::string &cudaSource,
                                    StringRef path,
                                    const DriverOptions &options,
                                    const CodeGenTarget &target,
                                    llvm::ToolOutputFile &output) {
  if (path == "-")
    return reportError(
        "--target=cuda --emit=obj needs -o <file> (nvcc writes the "
        "object)");
  NVCCOptions nvcc;
  nvcc.nvcc = options.nvcc.empty() ? defaultNVCCPath() : options.nvcc;
  nvcc.archs = target.cudaArchs;
  nvcc.includeDirs = options.cudaIncludeDirs;
  llvm::append_range(nvcc.includeDirs, options.runtimeIncludeDirs);
  // nvcc writes the file itself; keep the ToolOutputFile from deleting or
  // truncating it.
  output.os().close();
  std::string error;
  if (failed(compileCUDASource(cudaSource, path, nvcc, error)))
    return reportError(error);
  return success();
}

/// The include guard of the header at `path`, named after its stem (the
/// input's when it goes to standard output).
static std::string headerGuard(StringRef path, StringRef inputPath) {
  StringRef stem = path == "-" ? inputPath : path;
  std::string guard = "LAYOUTC_" + llvm::sys::path::stem(stem).str() + "_H";
  for (char &c : guard)
    c = llvm::isAlnum(c) ? llvm::toUpper(c) : '_';
  return guard;
}

/// Writes one output of kind `kind` to `output`, opened at `path`.
static LogicalResult writeOutput(EmitKind kind, StringRef path,
                                 ModuleOp planned, const DriverOptions &options,
                                 const CodeGenTarget &target,
                                 const GeneratedCode &code,
                                 llvm::ToolOutputFile &output) {
  bool cuda = options.target == CodeTarget::CUDA;
  std::string error;
  switch (kind) {
  case EmitKind::MLIR:
    planned.print(output.os());
    output.os() << "\n";
    return success();
  case EmitKind::Explain:
    printExplain(planned, &target.info, output.os());
    return success();
  case EmitKind::MemoryMap:
    printMemoryMap(planned, output.os());
    return success();
  case EmitKind::LLVM:
    code.llvmModule->print(output.os(), nullptr);
    return success();
  case EmitKind::CUDA:
    output.os() << code.cudaSource;
    return success();
  case EmitKind::Obj:
    if (cuda)
      return emitCUDAObject(code.cudaSource, path, options, target, output);
    if (succeeded(emitObjectFile(planned, code.abis, target.cpu, options.jobs,
                                 output.os(), error)))
      return success();
    // An empty error: the diagnostics were printed already.
    return error.empty() ? failure() : reportError(error);
  case EmitKind::Asm:
    if (failed(emitMachineCode(
            *code.llvmModule, *target.machine,
            /*assembly=*/true, output.os(), error,
            /*strengthReduce=*/
            !runtimeExtentKernels(code.abis, target.cpu.runtimeExtents))))
      return reportError(error);
    return success();
  case EmitKind::Header: {
    std::string guard = headerGuard(path, options.inputPath);
    if (cuda)
      printCUDAHeader(code.abis, guard, output.os());
    else
      printHeader(code.abis, guard, output.os());
    return success();
  }
  }
  return success();
}

LogicalResult mlir::layout::emitOutputs(ModuleOp planned,
                                        const DriverOptions &options,
                                        CodeGenTarget &target) {
  std::vector<EmitKind> kinds = options.emit;
  if (kinds.empty())
    kinds.push_back(EmitKind::MLIR);
  if (kinds.size() > 1 && options.outputPath == "-")
    return reportError("several --emit kinds need -o <base name>");
  // An object's bytes would garble the terminal; piping them is fine.
  if (options.outputPath == "-" && llvm::is_contained(kinds, EmitKind::Obj) &&
      llvm::sys::Process::StandardOutIsDisplayed())
    return reportError("error: refusing to write an object file to a "
                       "terminal; use -o <file>");
  GeneratedCode code;
  if (failed(generateCode(planned, kinds, target,
                          options.target == CodeTarget::CUDA,
                          options.cpu.optLevel, code)))
    return failure();
  for (EmitKind kind : kinds) {
    std::string path = options.outputPath;
    if (kinds.size() > 1)
      path += emitSuffix(kind);
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> output = openOutputFile(path, &error);
    if (!output)
      return reportError(error);
    if (failed(
            writeOutput(kind, path, planned, options, target, code, *output)) ||
        failed(finishOutput(*output, path)))
      return failure();
  }
  return success();
}

LogicalResult mlir::layout::runProgram(ModuleOp planned,
                                       const DriverOptions &options) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(options.outputPath, &error);
  if (!output)
    return reportError(error);
  // --run reads an explicit tuning file only, not the presets.
  FailureOr<std::optional<Wisdom>> wisdom =
      resolveWisdom(options, /*presetsToo=*/false);
  if (failed(wisdom))
    return failure();
  // An empty error: the diagnostics were printed already.
  if (failed(runModule(planned, output->os(), error, options.cpu.runtimeExtents,
                       *wisdom ? &**wisdom : nullptr)))
    return error.empty() ? failure() : reportError(error);
  return finishOutput(*output, options.outputPath);
}
