//===- Driver.cpp - Parse, check, plan: the layoutc pipeline --------------===//
//
// The stages before any output: parsing a program with its diagnostics,
// layout-fold-views and layout-plan-copies, the checks of the options
// against each other, and layout-plan-kernels for the CPU or CUDA target;
// compile() sequences them and hands the planned module to Emit.cpp.
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Driver/Driver.h"
#include "layout/Compiler/Plan/Passes.h"
#include "layout/Compiler/Target/CUDA/CUDABackend.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"

#include "layout/Compiler/Semantics/FunctionABI.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::layout;

std::vector<std::string>
mlir::layout::runtimeIncludeDirs(llvm::StringRef executable) {
  if (!executable.empty()) {
    llvm::SmallString<256> dir(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(executable)));
    llvm::sys::path::append(dir, "include");
    llvm::SmallString<256> header(dir);
    llvm::sys::path::append(header, "layout_rt", "cuda.h");
    if (llvm::sys::fs::exists(header))
      return {dir.str().str()};
  }
  return {LAYOUTC_CUDA_INCLUDE_DIR, LAYOUTC_RUNTIME_INCLUDE_DIR};
}

std::vector<std::string>
mlir::layout::tuningPresetDirs(llvm::StringRef executable) {
  if (const char *env = std::getenv("LAYOUTC_TUNING_DIR"))
    return {env};
  if (!executable.empty()) {
    llvm::SmallString<256> dir(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(executable)));
    llvm::sys::path::append(dir, "share", "layoutc", "tuning");
    if (llvm::sys::fs::is_directory(dir))
      return {dir.str().str()};
  }
  return {LAYOUTC_TUNING_DIR};
}

Program::Program(std::unique_ptr<llvm::MemoryBuffer> source,
                 MLIRContext *context)
    : diagnostics(sourceMgr, context) {
  sourceMgr.AddNewSourceBuffer(std::move(source), llvm::SMLoc());
}

/// Adds a note to the parser's "expected ':'" after a layout op's operands
/// (not inside its brackets): layout ops name their operand type after ':',
/// which newcomers leave out, expecting it to be inferred.
static void noteMissingOperandType(Diagnostic &diag,
                                   llvm::SourceMgr &sourceMgr) {
  auto loc = dyn_cast<FileLineColLoc>(diag.getLocation());
  if (diag.getSeverity() != DiagnosticSeverity::Error || !loc ||
      diag.str() != "expected ':'" || loc.getLine() == 0)
    return;
  unsigned buffer = sourceMgr.getMainFileID();
  llvm::SMLoc start =
      sourceMgr.FindLocForLineAndColumn(buffer, loc.getLine(), 1);
  if (!start.isValid())
    return;
  StringRef rest(start.getPointer(),
                 sourceMgr.getMemoryBuffer(buffer)->getBufferEnd() -
                     start.getPointer());
  StringRef line = rest.take_until([](char c) { return c == '\n'; });
  StringRef before = line.take_front(loc.getColumn() - 1);
  size_t at = before.rfind("layout.");
  if (at == StringRef::npos)
    return;
  StringRef op = before.drop_front(at).take_while(
      [](char c) { return llvm::isAlnum(c) || c == '_' || c == '.'; });
  StringRef operands = before.drop_front(at + op.size());
  if (operands.count('[') != operands.count(']') ||
      operands.count('<') != operands.count('>'))
    return;
  if (op == "layout.copy")
    diag.attachNote(loc) << "'layout.copy' names its operand types after "
                            "':', e.g. 'layout.copy %x, %y : "
                            "!layout.tensor<3x4xf32>, !layout.tensor<3x4xf16>'";
  else
    diag.attachNote(loc) << "'" << op
                         << "' names its operand type after ':' (the result "
                            "type is inferred), e.g. '%c = layout.contiguous "
                            "%x : !layout.tensor<3x4xf32>'";
}

/// Records each function argument's SSA name (`%x`), which MLIR drops, as
/// its `layout.name` unless the argument has one, the name is its
/// positional one (`%arg0`) or it could not name a C parameter.
static void nameArguments(ModuleOp module, const AsmParserState &state) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    const AsmParserState::BlockDefinition *def =
        state.getBlockDef(&func.getBody().front());
    if (!def)
      continue;
    for (auto [i, arg] : llvm::enumerate(def->arguments)) {
      llvm::SMRange range = arg.loc;
      StringRef name(range.Start.getPointer(),
                     range.End.getPointer() - range.Start.getPointer());
      name.consume_front("%");
      if (i >= func.getNumArguments() || name == "arg" + std::to_string(i) ||
          func.getArgAttr(i, kArgNameAttr) || !isUsableArgName(name, i))
        continue;
      func.setArgAttr(i, kArgNameAttr,
                      StringAttr::get(func.getContext(), name));
    }
  }
}

/// parseSourceFile<ModuleOp>, keeping what the parser saw of the source in
/// `state` (bytecode has none).
static OwningOpRef<ModuleOp> parseModule(llvm::SourceMgr &sourceMgr,
                                         MLIRContext *context,
                                         AsmParserState &state) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  if (isBytecode(*buffer))
    return parseSourceFile<ModuleOp>(sourceMgr, context);
  Block block;
  ParserConfig config(context);
  if (failed(parseAsmSourceFile(sourceMgr, &block, config, &state)))
    return nullptr;
  Location fileLoc =
      FileLineColLoc::get(context, buffer->getBufferIdentifier(), 0, 0);
  return mlir::detail::constructContainerOpForParserIfNecessary<ModuleOp>(
      &block, context, fileLoc);
}

FailureOr<std::unique_ptr<Program>>
mlir::layout::parseProgram(std::unique_ptr<llvm::MemoryBuffer> source,
                           MLIRContext *context) {
  auto program = std::make_unique<Program>(std::move(source), context);
  // Counts errors and passes every diagnostic on to the printer.
  unsigned errors = 0;
  ScopedDiagnosticHandler countErrors(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++errors;
    noteMissingOperandType(diag, program->sourceMgr);
    return failure();
  });
  AsmParserState state;
  program->moduleOp = parseModule(program->sourceMgr, context, state);
  if (!program->moduleOp || errors)
    return failure();
  nameArguments(*program->moduleOp, state);
  return std::move(program);
}

FailureOr<std::unique_ptr<Program>>
mlir::layout::parseProgram(llvm::StringRef inputPath, MLIRContext *context) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputPath, &error);
  if (!input) {
    llvm::errs() << "layoutc: " << error << "\n";
    return failure();
  }
  return parseProgram(std::move(input), context);
}

/// Prints "layoutc: <message>" and fails.
static LogicalResult reportError(const llvm::Twine &message) {
  llvm::errs() << "layoutc: " << message << "\n";
  return failure();
}

LogicalResult mlir::layout::checkOptions(const DriverOptions &options,
                                         std::vector<std::string> &cudaArchs) {
  auto isViewsOnly = [](EmitKind k) {
    return k == EmitKind::MLIR || k == EmitKind::Explain ||
           k == EmitKind::MemoryMap;
  };
  if (options.noOpt &&
      (options.run || !llvm::all_of(options.emit, isViewsOnly)))
    return reportError(
        "--no-opt skips copy planning, which code generation and "
        "--run need (it goes with --emit=mlir, explain or "
        "memory-map)");
  if (options.cpu.optLevel > 3)
    return reportError("-O" + llvm::Twine(options.cpu.optLevel) +
                       " is not 0, 1, 2 or 3");
  if (options.target == CodeTarget::CUDA) {
    if (options.run)
      return reportError(
          "--run executes on the host CPU; it cannot be combined "
          "with --target=cuda");
    for (EmitKind kind : options.emit)
      if (kind == EmitKind::LLVM || kind == EmitKind::Asm)
        return reportError(
            llvm::Twine("--emit=") + (kind == EmitKind::LLVM ? "llvm" : "asm") +
            " is not available with --target=cuda (use --emit=cuda "
            "for the CUDA source, --emit=obj for an object)");
  } else if (llvm::is_contained(options.emit, EmitKind::CUDA)) {
    return reportError("--emit=cuda needs --target=cuda");
  }
  std::string error;
  if (options.target == CodeTarget::CUDA &&
      failed(parseCUDAArchs(options.cudaArchs, cudaArchs, error)))
    return reportError(error);
  if (options.run && !options.emit.empty())
    return reportError("--run cannot be combined with --emit");
  if (options.run && !options.explicitCPUFlag.empty())
    return reportError("--run executes on this machine's CPU; it cannot be "
                       "combined with --" +
                       options.explicitCPUFlag);
  if (!options.wisdomPath.empty() && options.wisdomPath != "none" &&
      options.target == CodeTarget::CUDA)
    return reportError("--wisdom tunes CPU kernels; it cannot be combined "
                       "with --target=cuda");
  if (!options.tunePath.empty()) {
    if (options.run || !options.emit.empty() ||
        options.target == CodeTarget::CUDA)
      return reportError("--tune measures this machine's CPU kernels and "
                         "writes only its tuning file; it cannot be combined "
                         "with --run, --emit or --target=cuda");
    if (!options.explicitCPUFlag.empty() || !options.layoutTarget.empty())
      return reportError("--tune measures on this machine's CPU; it cannot "
                         "be combined with --" +
                         (options.explicitCPUFlag.empty()
                              ? std::string("layout-target")
                              : options.explicitCPUFlag));
    if (options.noOpt)
      return reportError("--tune needs copy planning, which --no-opt skips");
  }
  return success();
}

FailureOr<Wisdom> mlir::layout::loadWisdom(StringRef path, StringRef flag) {
  Fallible<Wisdom> wisdom = Wisdom::readFile(path);
  if (!wisdom) {
    (void)reportError(flag + ": " + wisdom.message());
    return failure();
  }
  return std::move(wisdom).value();
}

/// Ops that layout-fold-views and layout-plan-copies remove when nothing
/// returned or written depends on their results: views and the ops that
/// may copy. layout.copy writes its destination and layout.reduce stays.
static bool removedWhenUnused(Operation *op) {
  return isa<ViewLikeOpInterface, SplitOp, ContiguousOp, CloneOp, ReshapeOp,
             FlattenOp, ToOp, MaterializeOp>(op);
}

/// Warns at each op that may copy whose result nothing returned or written
/// depends on: the pipeline removes it, so the copy its author wrote never
/// runs.
static void warnUnusedCopies(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    // Live: what a return, a write or any other kept op reads, transitively.
    llvm::DenseSet<Operation *> live;
    SmallVector<Operation *> work;
    func.walk([&](Operation *op) {
      if (!removedWhenUnused(op) && live.insert(op).second)
        work.push_back(op);
    });
    while (!work.empty())
      for (Value operand : work.pop_back_val()->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (live.insert(def).second)
            work.push_back(def);
    func.walk([&](Operation *op) {
      if (live.contains(op) || !removedWhenUnused(op) ||
          isa<ViewLikeOpInterface, SplitOp>(op))
        return;
      InFlightDiagnostic diag = emitWarning(op->getLoc())
                                << "result of '" << op->getName()
                                << "' is unused";
      if (!op->use_empty())
        diag << " (only ops whose results are unused read it)";
      diag << ", so it is removed: nothing is copied";
    });
  }
}

/// layout-fold-views and layout-plan-copies, under MLIR's pass-manager
/// options (--mlir-print-ir-after-all, ...) and --mlir-timing.
static LogicalResult planCopies(ModuleOp module) {
  PassManager pm(module.getContext());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  DefaultTimingManager tm;
  applyDefaultTimingManagerCLOptions(tm);
  TimingScope timing = tm.getRootScope();
  pm.enableTiming(timing);
  buildLayoutPipeline(pm);
  return pm.run(module);
}

FailureOr<std::optional<Wisdom>>
mlir::layout::resolveWisdom(const DriverOptions &options, bool presetsToo) {
  if (options.wisdomPath == "none")
    return std::optional<Wisdom>();
  if (!options.wisdomPath.empty()) {
    FailureOr<Wisdom> wisdom = loadWisdom(options.wisdomPath, "--wisdom");
    if (failed(wisdom))
      return failure();
    return std::optional<Wisdom>(std::move(*wisdom));
  }
  if (!presetsToo)
    return std::optional<Wisdom>();
  Wisdom presets;
  for (const std::string &dir : options.tuningPresetDirs) {
    std::vector<std::string> files;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      if (llvm::sys::path::extension(it->path()) == ".json")
        files.push_back(it->path());
    llvm::sort(files);
    for (const std::string &file : files) {
      FailureOr<Wisdom> preset = loadWisdom(file, "tuning preset");
      if (failed(preset))
        return failure();
      presets.mergeMissing(*preset);
    }
  }
  if (presets.empty())
    return std::optional<Wisdom>();
  return std::optional<Wisdom>(std::move(presets));
}

/// layout-plan-kernels for the GPU, or for the CPU the code is generated for
/// (its vector registers decide transpose tiles).
static LogicalResult planKernelsFor(ModuleOp module,
                                    const DriverOptions &options,
                                    CodeGenTarget &target) {
  std::optional<TargetInfo> preset;
  if (!options.layoutTarget.empty()) {
    Fallible<TargetInfo> found = lookupTarget(options.layoutTarget);
    if (!found)
      return reportError("--layout-target: " + found.message());
    preset = *found;
    bool cuda = options.target == CodeTarget::CUDA;
    if (preset->gpu != cuda)
      return reportError("--layout-target=" + options.layoutTarget + " is a " +
                         (preset->gpu ? "GPU" : "CPU") + " target; " +
                         (cuda ? "--target=cuda plans for sm_80 or sm_90"
                               : "CPU code generation plans for x86-64-v3, "
                                 "x86-64-v4 or host"));
  }
  if (options.target == CodeTarget::CUDA) {
    target.info = preset ? *preset : cudaTargetInfo();
    return planKernels(module, target.info);
  }
  CPUOptions cpu = options.cpu;
  // The preset names the CPU unless a flag did.
  if (preset && options.explicitCPUFlag.empty())
    cpu.cpu = options.layoutTarget;
  std::string error;
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(cpu, error);
  if (failed(machine))
    return reportError(error);
  target.machine = std::move(*machine);
  target.cpu = cpu;
  target.info = cpuTargetInfo(*target.machine);
  // Plans for AVX-512's registers need code generated with them, and back.
  if (preset && preset->vectorRegisters != target.info.vectorRegisters)
    return reportError(
        "--layout-target=" + options.layoutTarget + " plans for " +
        (preset->vectorRegisters >= 32 ? "AVX-512's 32" : "16") +
        " vector registers, but --mcpu/--mattr generate code " +
        (preset->vectorRegisters >= 32 ? "without" : "with") + " AVX-512F");
  if (preset)
    target.info = *preset;
  FailureOr<std::optional<Wisdom>> wisdom =
      resolveWisdom(options, /*presetsToo=*/true);
  if (failed(wisdom))
    return failure();
  if (!*wisdom)
    return planKernels(module, target.info);
  return planKernels(
      module, target.info, &**wisdom,
      wisdomTargetKey(target.machine->getTargetCPU(), target.info));
}

LogicalResult mlir::layout::runPipeline(ModuleOp module,
                                        const DriverOptions &options,
                                        CodeGenTarget &target) {
  if (!options.noOpt)
    warnUnusedCopies(module);
  if (!options.noOpt && failed(planCopies(module)))
    return failure();
  if (failed(checkOptions(options, target.cudaArchs)))
    return failure();
  if (options.run && !options.layoutTarget.empty())
    return reportError("--run plans for this machine's CPU; it cannot be "
                       "combined with --layout-target");
  if (options.noOpt || options.run || !options.tunePath.empty())
    return success();
  return planKernelsFor(module, options, target);
}

LogicalResult mlir::layout::compile(const DriverOptions &options) {
  DialectRegistry registry;
  registerLayoutDialects(registry);
  MLIRContext context(registry);
  // Diagnostics point at the source line; the generic op dump adds noise.
  context.printOpOnDiagnostic(false);
  context.loadAllAvailableDialects();

  FailureOr<std::unique_ptr<Program>> program =
      parseProgram(options.inputPath, &context);
  if (failed(program))
    return failure();
  ModuleOp module = (*program)->module();
  CodeGenTarget target;
  if (failed(runPipeline(module, options, target)))
    return failure();
  if (options.run)
    return runProgram(module, options);
  if (!options.tunePath.empty())
    return tuneProgram(module, options);
  return emitOutputs(module, options, target);
}
