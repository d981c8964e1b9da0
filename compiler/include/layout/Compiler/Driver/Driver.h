//===- Driver.h - The layoutc pipeline, from source to outputs --*- C++ -*-===//
//
// The one compilation pipeline that layoutc, its --run and other front ends
// call: parse a layout program, fold its views and plan its copies, check
// the options against each other, plan its kernels for the target, and
// write each requested output (or JIT it). Every error is printed to stderr
// as "layoutc: ..." or as a diagnostic at the source; the functions return
// failure after printing it.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_DRIVER_DRIVER_H
#define LAYOUT_COMPILER_DRIVER_DRIVER_H

#include "layout/Compiler/Plan/TargetInfo.h"
#include "layout/Compiler/Plan/Wisdom.h"
#include "layout/Compiler/Target/CPU/CPUBackend.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace layout {

/// What the driver writes; each kind has its own file suffix (emitSuffix).
enum class EmitKind { MLIR, Explain, MemoryMap, LLVM, Asm, Obj, Header, CUDA };

/// What code is generated for.
enum class CodeTarget { CPU, CUDA };

/// One compilation as layoutc's flags describe it. Plain values: a tool
/// copies its flags in before compiling (lld resets every command-line
/// option when --emit=obj first runs it).
struct DriverOptions {
  /// The layout program; "-" reads standard input.
  std::string inputPath = "-";
  /// The output file, or with several emit kinds the base name each kind's
  /// suffix is appended to; "-" writes standard output.
  std::string outputPath = "-";
  /// The outputs in the order they are written; none writes the planned IR.
  std::vector<EmitKind> emit;
  CodeTarget target = CodeTarget::CPU;
  /// The target description kernels are planned for (a preset name); empty:
  /// the preset of the CPU `cpu` describes, or sm_80 for CUDA. A CPU preset
  /// also picks the CPU when no CPU flag does, and must agree with the
  /// CPU's AVX-512F.
  std::string layoutTarget;
  /// --target=cpu: the CPU kernels are planned and generated for.
  CPUOptions cpu;
  /// The flag's name (e.g. "mcpu") when the CPU, its features or the triple
  /// were chosen explicitly; --run, which runs on this machine, refuses it.
  std::string explicitCPUFlag;
  /// Threads compiling --emit=obj's shards (0: one per hardware thread).
  unsigned jobs = 0;
  /// Skip the pipeline: only the views-only outputs (mlir, explain,
  /// memory-map) of the parsed, verified program.
  bool noOpt = false;
  /// JIT every function on this machine and print its results.
  bool run = false;
  /// A tuning file (docs/tuning.md) whose entries for the CPU plan its
  /// copies (--wisdom); empty: the tuning presets in `tuningPresetDirs`;
  /// "none": neither.
  std::string wisdomPath;
  /// Directories of tuning presets (tuningPresetDirs()).
  std::vector<std::string> tuningPresetDirs;
  /// --tune: measure candidate plans of every function's copy on this
  /// machine and keep the fastest in this tuning file.
  std::string tunePath;
  /// --target=cuda --emit=obj: comma list of real architectures.
  std::string cudaArchs = "sm_80,sm_90";
  /// The nvcc to run; empty: defaultNVCCPath().
  std::string nvcc;
  /// -I directories for nvcc searched before runtimeIncludeDirs.
  std::vector<std::string> cudaIncludeDirs;
  /// -I directories holding layout_rt's headers (runtimeIncludeDirs()).
  std::vector<std::string> runtimeIncludeDirs;
};

/// The -I directories nvcc needs for layout_rt/cuda.h and layout_rt.h: the
/// include directory of an installed layoutc's prefix (`executable` is
/// <prefix>/bin/...), else the source tree the driver was built from.
std::vector<std::string> runtimeIncludeDirs(llvm::StringRef executable);

/// The directories of tuning presets: $LAYOUTC_TUNING_DIR where it is
/// set, else the share/layoutc/tuning directory of an installed layoutc's
/// prefix (`executable` is <prefix>/bin/...), else the source tree's
/// tuning/.
std::vector<std::string> tuningPresetDirs(llvm::StringRef executable);

/// A parsed layout program and the source its diagnostics quote: while it
/// lives, every diagnostic of its context prints with its source line.
class Program {
public:
  Program(std::unique_ptr<llvm::MemoryBuffer> source, MLIRContext *context);
  ModuleOp module() { return *moduleOp; }

private:
  friend FailureOr<std::unique_ptr<Program>>
  parseProgram(std::unique_ptr<llvm::MemoryBuffer> source,
               MLIRContext *context);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics;
  OwningOpRef<ModuleOp> moduleOp;
};

/// Parses and verifies `source`. Fails if any error was reported: MLIR's
/// parser can report an error and still return a module.
FailureOr<std::unique_ptr<Program>>
parseProgram(std::unique_ptr<llvm::MemoryBuffer> source, MLIRContext *context);

/// parseProgram of the file at `inputPath` ("-": standard input).
FailureOr<std::unique_ptr<Program>> parseProgram(llvm::StringRef inputPath,
                                                 MLIRContext *context);

/// Fails on options that contradict each other (--no-opt with code
/// generation, --run with --emit or a CUDA target, an -O above 3, a bad
/// --cuda-arch list, ...); `cudaArchs` receives the parsed architectures.
LogicalResult checkOptions(const DriverOptions &options,
                           std::vector<std::string> &cudaArchs);

/// What the pipeline decided that code generation follows: the target the
/// kernels were planned for.
struct CodeGenTarget {
  /// The planner's target: the CPU's, or cudaTargetInfo().
  TargetInfo info = cpuTarget(/*avx512=*/false);
  /// --target=cpu after the pipeline: the TargetMachine `info` came from,
  /// and the options it was created with (the shards of --emit=obj create
  /// theirs from them).
  std::unique_ptr<llvm::TargetMachine> machine;
  CPUOptions cpu;
  /// --target=cuda: the parsed DriverOptions::cudaArchs.
  std::vector<std::string> cudaArchs;
};

/// Runs layoutc's pipeline on a parsed module: layout-fold-views and
/// layout-plan-copies (with MLIR's pass-manager and timing command-line
/// options), then checkOptions, then layout-plan-kernels for the target:
/// the `options.layoutTarget` preset, else cpuTargetInfo of the TargetMachine
/// of `options.cpu` or cudaTargetInfo(). The options are checked only after the
/// first stage so that the program's own diagnostics come first. --no-opt runs
/// no pass;
/// --run plans no kernels, runProgram plans them for this machine.
LogicalResult runPipeline(ModuleOp module, const DriverOptions &options,
                          CodeGenTarget &target);

/// The file suffix of `kind` (".mlir", ".json", ...).
llvm::StringRef emitSuffix(EmitKind kind);

/// Writes every output `options.emit` asks for, from a module runPipeline
/// planned for `target`. Nothing is written when code generation fails
/// before the first output.
LogicalResult emitOutputs(ModuleOp planned, const DriverOptions &options,
                          CodeGenTarget &target);

/// --run: JITs every function of a module after runPipeline on this
/// machine's CPU and writes its results to `options.outputPath` (runModule).
LogicalResult runProgram(ModuleOp planned, const DriverOptions &options);

/// The tuning file at `path` (--wisdom, --tune); fails after printing why
/// it cannot be read, with `flag` naming the option.
FailureOr<Wisdom> loadWisdom(llvm::StringRef path, llvm::StringRef flag);

/// What plans the CPU's copies: the tuning file --wisdom names, else (with
/// `presetsToo`) the tuning presets' entries (every *.json of
/// `options.tuningPresetDirs`, in name order; the first entry for a key
/// wins), else none ("none", or nothing found). Fails after printing why a
/// file cannot be read.
FailureOr<std::optional<Wisdom>> resolveWisdom(const DriverOptions &options,
                                               bool presetsToo);

/// --tune: measures candidate plans of every static function's copy on this
/// machine (tuneProgram in Tune.cpp) and merges the fastest into
/// `options.tunePath`, reporting each function on `options.outputPath`.
LogicalResult tuneProgram(ModuleOp module, const DriverOptions &options);

/// The whole compilation, as layoutc runs it: parse `options.inputPath`,
/// runPipeline, then runProgram or emitOutputs.
LogicalResult compile(const DriverOptions &options);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_DRIVER_DRIVER_H
