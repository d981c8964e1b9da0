//===- CPUTarget.cpp - Kernel module to LLVM IR and machine code
//-----------===//

#include "layout/Compiler/Target/CPU/CPUBackend.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

#include <mutex>
#include <thread>

using namespace mlir;
using namespace mlir::layout;

static void buildLoweringPipeline(PassManager &pm) {
  // The kernels are llvm.func ops already: each one's body lowers on its
  // own, the functions in parallel (cf-to-llvm alone works on modules).
  OpPassManager &functions = pm.nest<LLVM::LLVMFuncOp>();
  functions.addPass(createSCFToControlFlowPass());
  // bf16 has no native conversions on most x86 CPUs; expand extf/truncf to
  // integer arithmetic (round to nearest even), as PyTorch computes them.
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  functions.addPass(arith::createArithExpandOpsPass(expand));
  functions.addPass(createConvertVectorToLLVMPass());
  functions.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addNestedPass<LLVM::LLVMFuncOp>(createReconcileUnrealizedCastsPass());
}

void mlir::layout::prepareKernelContext(MLIRContext *context) {
  DialectRegistry registry;
  registry.insert<LLVM::LLVMDialect, scf::SCFDialect, arith::ArithDialect,
                  vector::VectorDialect>();
  PassManager pm(context);
  buildLoweringPipeline(pm);
  pm.getDependentDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  context->appendDialectRegistry(registry);
  for (StringRef name : registry.getDialectNames())
    context->getOrLoadDialect(name);
}

LogicalResult mlir::layout::lowerKernelModuleToLLVM(ModuleOp kernels) {
  // Verified before and after the pipeline, not after every pass: each
  // verification walks every kernel, and the passes are upstream's.
  if (failed(mlir::verify(kernels)))
    return failure();
  PassManager pm(kernels.getContext());
  pm.enableVerifier(false);
  buildLoweringPipeline(pm);
  if (failed(pm.run(kernels)))
    return failure();
  return mlir::verify(kernels);
}

FailureOr<std::unique_ptr<llvm::TargetMachine>>
mlir::layout::createTargetMachine(const CPUOptions &options,
                                  std::string &error) {
  // Once per process: shards create their machines on several threads.
  static const bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    return true;
  }();
  (void)initialized;
  llvm::Triple triple(options.triple.empty() ? llvm::sys::getProcessTriple()
                                             : options.triple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return failure();
  std::string cpu = options.cpu;
  std::string features = options.features;
  // The CPU and each feature are checked against the target's tables before
  // the TargetMachine exists: LLVM itself only warns and ignores them, and
  // a feature without a sign would silently disable it.
  std::unique_ptr<llvm::MCSubtargetInfo> tables(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!tables) {
    error = "cannot read the CPU and feature tables of " + triple.str();
    return failure();
  }
  if (cpu != "host" && !tables->isCPUStringValid(cpu)) {
    error = "unknown CPU '" + cpu + "' for " + triple.str() +
            " (see llc -mtriple=" + triple.str() + " -mcpu=help)";
    return failure();
  }
  for (StringRef feature : llvm::split(StringRef(features), ',')) {
    feature = feature.trim();
    if (feature.empty())
      continue;
    if (!feature.starts_with("+") && !feature.starts_with("-")) {
      error = "--mattr: '" + feature.str() + "' needs a sign: '+" +
              feature.str() + "' enables it, '-" + feature.str() +
              "' disables it";
      return failure();
    }
    StringRef name = feature.drop_front();
    if (!llvm::any_of(tables->getAllProcessorFeatures(),
                      [&](const llvm::SubtargetFeatureKV &kv) {
                        return name == kv.Key;
                      })) {
      error = "--mattr: '" + name.str() + "' is not a feature of " +
              triple.str() + " (see llc -mtriple=" + triple.str() +
              " -mattr=help)";
      return failure();
    }
  }
  if (cpu == "host") {
    cpu = llvm::sys::getHostCPUName().str();
    llvm::SubtargetFeatures host;
    for (auto &[name, enabled] : llvm::sys::getHostCPUFeatures())
      host.AddFeature(name, enabled);
    features =
        features.empty() ? host.getString() : host.getString() + "," + features;
  }
  llvm::TargetOptions targetOptions;
  std::optional<llvm::CodeGenOptLevel> level =
      llvm::CodeGenOpt::getLevel(options.optLevel);
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, targetOptions, llvm::Reloc::PIC_, std::nullopt,
      level.value_or(llvm::CodeGenOptLevel::Aggressive)));
  if (!machine) {
    error = "cannot create a target machine for " + triple.str();
    return failure();
  }
  // A 32-bit x86 CPU cannot run x86-64 code; LLVM would abort in code
  // generation.
  if (triple.getArch() == llvm::Triple::x86_64 &&
      !machine->getMCSubtargetInfo()->checkFeatures("+64bit")) {
    error = "CPU '" + cpu + "' cannot run 64-bit code, which " + triple.str() +
            " needs";
    return failure();
  }
  return machine;
}

TargetInfo mlir::layout::cpuTargetInfo(const llvm::TargetMachine &machine) {
  return cpuTarget(machine.getMCSubtargetInfo()->checkFeatures("+avx512f"));
}

/// The pipeline of run-time-extent copy kernels (translateAndOptimize's
/// cleanupOnly): they come vectorized and unrolled by construction, so
/// O2's loop, vectorizing and interprocedural passes only add compile time
/// (evidence: bench/notes/runtime-extents.md). What is left folds the
/// lowered address arithmetic, rotates loops and hoists their invariants.
static constexpr const char *kCleanupPipeline =
    "function(sroa,early-cse<memssa>,simplifycfg,instcombine,"
    "loop-mssa(loop-rotate,licm),simplifycfg,gvn,instcombine,simplifycfg)";

std::unique_ptr<llvm::Module> mlir::layout::translateAndOptimize(
    ModuleOp llvmDialect, llvm::LLVMContext &context,
    llvm::TargetMachine &machine, unsigned optLevel, bool cleanupOnly) {
  std::unique_ptr<llvm::Module> module =
      translateForMachine(llvmDialect, context, machine);
  if (module)
    optimizeModule(*module, machine, optLevel, cleanupOnly);
  return module;
}

std::unique_ptr<llvm::Module>
mlir::layout::translateForMachine(ModuleOp llvmDialect,
                                  llvm::LLVMContext &context,
                                  llvm::TargetMachine &machine) {
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(llvmDialect, context, "layoutc");
  if (!module)
    return nullptr;
  module->setTargetTriple(machine.getTargetTriple());
  module->setDataLayout(machine.createDataLayout());
  // Every function gets the target's CPU and features, so that inlining and
  // vectorization agree with the code generator.
  for (llvm::Function &f : *module) {
    if (f.isDeclaration())
      continue;
    f.addFnAttr("target-cpu", machine.getTargetCPU());
    std::string features = machine.getTargetFeatureString().str();
    if (f.getFnAttribute(kVectorsAttr).getValueAsString() == "avx2") {
      // Later entries win; dropping avx512f drops every AVX-512 extension.
      features += features.empty() ? "-avx512f" : ",-avx512f";
      f.removeFnAttr(kVectorsAttr);
    }
    if (!features.empty())
      f.addFnAttr("target-features", features);
    f.addFnAttr(llvm::Attribute::NoUnwind);
  }
  return module;
}

void mlir::layout::optimizeModule(llvm::Module &module,
                                  llvm::TargetMachine &machine,
                                  unsigned optLevel, bool cleanupOnly) {
  if (optLevel == 0)
    return;

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  // Optional passes that find nothing in generated code do not run
  // (skipping one never changes what the code computes): no loop reads, a
  // constant distance along its stride, what an earlier iteration stored
  // (what loop load elimination forwards, after a costly dependence
  // analysis of every loop), and no call is indirect (called-value
  // propagation).
  llvm::PassInstrumentationCallbacks instrumentation;
  instrumentation.registerShouldRunOptionalPassCallback(
      [](llvm::StringRef pass, llvm::Any) {
        return pass != "LoopLoadEliminationPass" &&
               pass != "CalledValuePropagationPass";
      });
  llvm::PassBuilder pb(&machine, tuning, std::nullopt, &instrumentation);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optLevel == 1   ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager mpm;
  if (cleanupOnly)
    llvm::cantFail(pb.parsePassPipeline(mpm, kCleanupPipeline));
  else
    mpm = pb.buildPerModuleDefaultPipeline(level);
  mpm.run(module, mam);
}

bool mlir::layout::runtimeExtentKernels(ArrayRef<FunctionABI> abis,
                                        bool runtimeExtents) {
  return llvm::all_of(abis, [&](const FunctionABI &abi) {
    return runtimeExtents || abi.dynamic;
  });
}

LogicalResult mlir::layout::emitMachineCode(
    llvm::Module &module, llvm::TargetMachine &machine, bool assembly,
    llvm::raw_pwrite_stream &os, std::string &error, bool strengthReduce) {
  llvm::legacy::PassManager pm;
  bool failedToAdd;
  {
    // LLVM has no per-module switch for Loop Strength Reduction, only its
    // global -disable-lsr, read while the passes are added: set it for this
    // pipeline alone, under a lock so that shards on other threads add
    // theirs before or after. An explicit -disable-lsr stays in force.
    static std::mutex lock;
    std::lock_guard<std::mutex> guard(lock);
    auto *disableLSR = static_cast<llvm::cl::opt<bool> *>(
        llvm::cl::getRegisteredOptions().lookup("disable-lsr"));
    bool given = disableLSR && disableLSR->getValue();
    if (disableLSR && !strengthReduce)
      disableLSR->setValue(true);
    failedToAdd = machine.addPassesToEmitFile(
        pm, os, nullptr,
        assembly ? llvm::CodeGenFileType::AssemblyFile
                 : llvm::CodeGenFileType::ObjectFile);
    if (disableLSR)
      disableLSR->setValue(given);
  }
  if (failedToAdd) {
    error = "the target cannot emit this file type";
    return failure();
  }
  pm.run(module);
  return success();
}

std::unique_ptr<llvm::Module> mlir::layout::compileKernels(
    MLIRContext *context, Location loc, ArrayRef<FunctionABI> abis,
    llvm::LLVMContext &llvmContext, llvm::TargetMachine &machine,
    unsigned optLevel, bool runtimeExtents, bool *deferredCleanup) {
  OwningOpRef<ModuleOp> kernels =
      buildKernelModule(context, loc, abis, runtimeExtents);
  if (failed(lowerKernelModuleToLLVM(*kernels)))
    return nullptr;
  // Run-time-extent kernels get O2's pipeline at -O3: O3's extra passes add
  // compile time to them, not speed; copies get only the clean-up passes,
  // while reductions keep O2, whose loop vectorizer speeds up their short
  // kept rows (evidence: bench/notes/runtime-extents.md).
  bool runtime = runtimeExtentKernels(abis, runtimeExtents);
  if (optLevel == 3 && runtime)
    optLevel = 2;
  bool copiesOnly = llvm::all_of(abis, [](const FunctionABI &abi) {
    return llvm::all_of(abi.kernels, [](const Kernel &k) {
      return k.kind == KernelKind::Copy;
    });
  });
  bool cleanupOnly = runtime && copiesOnly && optLevel >= 2;
  if (deferredCleanup)
    *deferredCleanup = cleanupOnly;
  if (cleanupOnly && deferredCleanup)
    return translateForMachine(*kernels, llvmContext, machine);
  return translateAndOptimize(*kernels, llvmContext, machine, optLevel,
                              cleanupOnly);
}

namespace {
/// The object file of `module` for `machine`, into `object`.
LogicalResult emitObject(llvm::Module &module, llvm::TargetMachine &machine,
                         bool strengthReduce, std::string &object,
                         std::string &error) {
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream os(buffer);
  if (failed(emitMachineCode(module, machine, /*assembly=*/false, os, error,
                             strengthReduce)))
    return failure();
  object.assign(buffer.begin(), buffer.end());
  return success();
}

/// The object of one part of splitForCodegen, on a context of its own,
/// after the clean-up passes where `cleanup` (compileKernels deferred them:
/// function passes, whose result does not depend on the other parts).
LogicalResult compilePart(StringRef bitcode, llvm::TargetMachine &machine,
                          bool strengthReduce, bool cleanup,
                          std::string &object, std::string &error) {
  llvm::LLVMContext llvmContext;
  llvm::Expected<std::unique_ptr<llvm::Module>> module = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(bitcode, "part"), llvmContext);
  if (!module) {
    error = "cannot read a part of the kernel module back: " +
            llvm::toString(module.takeError());
    return failure();
  }
  if (cleanup)
    optimizeModule(**module, machine, /*optLevel=*/2, /*cleanupOnly=*/true);
  return emitObject(**module, machine, strengthReduce, object, error);
}

/// One shard of emitObjectFile: compileKernels on a context and target
/// machine of its own (a code generator is not shared between threads), then
/// its objects: one, or one per part of a run-time-extent module
/// (splitForCodegen; `splitParts` where the objects can be joined), all but
/// the first on threads of their own where `partThreads`. Runs on a pool
/// thread; everything it creates dies with it but the objects.
LogicalResult compileShard(MLIRContext *context, Location loc,
                           ArrayRef<FunctionABI> abis,
                           const CPUOptions &options, bool splitParts,
                           bool partThreads, std::vector<std::string> &objects,
                           std::string &error) {
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(options, error);
  if (failed(machine))
    return failure();
  llvm::LLVMContext llvmContext;
  bool runtime = runtimeExtentKernels(abis, options.runtimeExtents);
  // The parts of a run-time-extent module run its clean-up passes on their
  // threads too.
  bool cleanup = false;
  std::unique_ptr<llvm::Module> module = compileKernels(
      context, loc, abis, llvmContext, **machine, options.optLevel,
      options.runtimeExtents, runtime && splitParts ? &cleanup : nullptr);
  if (!module)
    return failure();
  if (!runtime || !splitParts) {
    objects.assign(1, std::string());
    return emitObject(*module, **machine, /*strengthReduce=*/!runtime,
                      objects[0], error);
  }
  std::vector<std::string> parts = splitForCodegen(*module, kCodegenParts);
  module.reset();
  objects.assign(parts.size(), std::string());
  std::vector<std::string> errors(parts.size());
  std::vector<char> failedParts(parts.size(), 0);
  // The first part runs here, on the shard's target machine; the others
  // need their own (a code generator is not shared between threads).
  auto run = [&](size_t p) {
    FailureOr<std::unique_ptr<llvm::TargetMachine>> own;
    if (p > 0 && failed(own = createTargetMachine(options, errors[p]))) {
      failedParts[p] = 1;
      return;
    }
    failedParts[p] = failed(compilePart(parts[p], p > 0 ? **own : **machine,
                                        /*strengthReduce=*/false, cleanup,
                                        objects[p], errors[p]));
  };

  std::vector<std::thread> threads;
  for (size_t p = 1; p < parts.size(); ++p) {
    if (partThreads)
      threads.emplace_back(run, p);
    else
      run(p);
  }
  run(0);
  for (std::thread &thread : threads)
    thread.join();
  for (size_t p = 0; p < parts.size(); ++p)
    if (failedParts[p]) {
      error = errors[p];
      return failure();
    }
  return success();
}
} // namespace

LogicalResult
mlir::layout::emitObjectFile(ModuleOp planned, ArrayRef<FunctionABI> abis,
                             const CPUOptions &options, unsigned jobs,
                             llvm::raw_pwrite_stream &os, std::string &error) {
  MLIRContext *context = planned.getContext();
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(options, error);
  if (failed(machine))
    return failure();
  prepareKernelContext(context);

  size_t shardSize = kShardFunctions;
  // Only ELF objects can be joined (linkRelocatable); and a context without
  // threading support cannot be shared by the pool.
  if (!(*machine)->getTargetTriple().isOSBinFormatELF())
    shardSize = std::max<size_t>(abis.size(), 1);
  if (!context->isMultithreadingEnabled())
    jobs = 1;
  // Each shard in flight holds its IR (tens of MB): no more than the
  // machine runs at once.
  unsigned hardware = llvm::hardware_concurrency().compute_thread_count();
  if (jobs == 0 || jobs > hardware)
    jobs = hardware;
  size_t numShards =
      std::max<size_t>(llvm::divideCeil(abis.size(), shardSize), 1);
  std::vector<std::vector<std::string>> objects(numShards);
  std::vector<std::string> errors(numShards);
  std::vector<char> failedShards(numShards, 0);
  Location loc = planned.getLoc();
  bool elf = (*machine)->getTargetTriple().isOSBinFormatELF();
  auto run = [&](size_t shard) {
    size_t begin = std::min(shard * shardSize, abis.size());
    ArrayRef<FunctionABI> slice =
        abis.slice(begin, std::min(shardSize, abis.size() - begin));
    failedShards[shard] = failed(compileShard(
        context, loc, slice, options, /*splitParts=*/elf,
        /*partThreads=*/jobs > numShards, objects[shard], errors[shard]));
  };
  if (jobs == 1 || numShards == 1) {
    for (size_t shard = 0; shard < numShards; ++shard)
      run(shard);
  } else {
    // Diagnostics of the shards come out in shard order.
    ParallelDiagnosticHandler diagnostics(context);
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(jobs));
    for (size_t shard = 0; shard < numShards; ++shard)
      pool.async([&, shard] {
        diagnostics.setOrderIDForThread(shard);
        run(shard);
        diagnostics.eraseOrderIDForThread();
      });
    pool.wait();
  }
  for (size_t shard = 0; shard < numShards; ++shard)
    if (failedShards[shard]) {
      error = errors[shard];
      return failure();
    }
  std::vector<std::string> all;
  for (std::vector<std::string> &shard : objects)
    for (std::string &object : shard)
      all.push_back(std::move(object));
  return linkRelocatable(all, os, error);
}

void mlir::layout::printHeader(ArrayRef<FunctionABI> abis, StringRef guard,
                               raw_ostream &os) {
  HeaderStyle style;
  style.intro =
      "/* Generated by layoutc. Entry points of the kernels in the object\n"
      " * file of the same name; link it with layout_rt (-lpthread -lm).\n"
      " * DLPack entry points validate every tensor and return an error\n"
      " * status (free it with lrt_status_free) instead of crashing; raw\n"
      " * entry points take pointers to each view's first element. */\n";
  style.lastParam = "const lrt_exec_options_t *options";
  style.showChunks = true;
  printEntryHeader(abis, guard, style, os);
}
