//===- HostJIT.cpp - Planned modules compiled and called in-process -------===//

#include "layout/Compiler/Driver/HostJIT.h"
#include "layout/Compiler/Plan/Passes.h"

#include "layout_rt/layout_rt.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/xxhash.h"

#include <cstring>

using namespace mlir;
using namespace mlir::layout;

/// Storage element `i` of type `t` holds `i` (as PyTorch converts it).
static void writeIota(char *p, Type t, int64_t i) {
  if (auto ft = dyn_cast<FloatType>(t)) {
    if (t.isF32()) {
      float v = float(i);
      std::memcpy(p, &v, 4);
    } else if (t.isF64()) {
      double v = double(i);
      std::memcpy(p, &v, 8);
    } else {
      // Through f32, as PyTorch converts integers to half types.
      llvm::APFloat v(static_cast<float>(i));
      bool lost;
      v.convert(ft.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
      uint16_t bits = v.bitcastToAPInt().getZExtValue();
      std::memcpy(p, &bits, 2);
    }
    return;
  }
  unsigned w = t.getIntOrFloatBitWidth();
  uint64_t v = w == 1 ? uint64_t(i % 2) : uint64_t(i);
  std::memcpy(p, &v, std::max(1u, w / 8)); // little-endian truncation wraps
}

/// Makes the runtime functions the entry points call resolve to this
/// process's layout_rt.
static void registerRuntimeSymbols(ExecutionEngine &engine) {
  engine.registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    auto add = [&](const char *name, void *address) {
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
    };
    add("lrt_parallel_for", reinterpret_cast<void *>(&lrt_parallel_for));
    add("lrt_exec_options_resolve_threads",
        reinterpret_cast<void *>(&lrt_exec_options_resolve_threads));
    add("lrt_scratch_alloc", reinterpret_cast<void *>(&lrt_scratch_alloc));
    add("lrt_scratch_free", reinterpret_cast<void *>(&lrt_scratch_free));
    add("lrt_bind_tensors_named",
        reinterpret_cast<void *>(&lrt_bind_tensors_named));
    return symbols;
  });
}

FailureOr<std::unique_ptr<llvm::TargetMachine>>
mlir::layout::createHostMachine(std::string &error) {
  CPUOptions options;
  options.cpu = "host";
  return createTargetMachine(options, error);
}

LogicalResult mlir::layout::compileForHost(
    ModuleOp planned, std::unique_ptr<llvm::TargetMachine> machine,
    HostJIT &jit, std::string &error, bool runtimeExtents, const Wisdom *wisdom,
    StringRef wisdomTarget) {
  jit.machine = std::move(machine);
  TargetInfo target = cpuTargetInfo(*jit.machine);
  std::string key = wisdomTarget.empty()
                        ? wisdomTargetKey(jit.machine->getTargetCPU(), target)
                        : wisdomTarget.str();
  if (failed(planKernels(planned, target, wisdom, key)))
    return failure();
  FailureOr<OwningOpRef<ModuleOp>> kernels =
      buildKernelModule(planned, jit.abis, runtimeExtents);
  if (failed(kernels) || failed(lowerKernelModuleToLLVM(**kernels)))
    return failure();

  auto builder = [&](Operation *op, llvm::LLVMContext &context) {
    std::unique_ptr<llvm::Module> module =
        translateAndOptimize(cast<ModuleOp>(op), context, *jit.machine, 3);
    if (module) {
      std::string text;
      llvm::raw_string_ostream os(text);
      module->print(os, nullptr);
      jit.irHash = llvm::xxh3_64bits(text);
    }
    return module;
  };
  ExecutionEngineOptions engineOptions;
  engineOptions.llvmModuleBuilder = builder;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(**kernels, engineOptions);
  if (!engine) {
    error = llvm::toString(engine.takeError());
    return failure();
  }
  jit.engine = std::move(*engine);
  registerRuntimeSymbols(*jit.engine);
  return success();
}

// Every buffer is checked against the limit before any is allocated, and
// allocated with aligned_alloc, which returns null where operator new would
// end in LLVM's out-of-memory abort. Page-aligned, as large allocations of
// PyTorch and NumPy are: glibc's calloc of a large buffer returns a page
// plus 16 bytes, whose rows start mid-line, and then --tune would time the
// kernels' unaligned paths (and chunks sharing lines) instead of the ones
// applications run.
LogicalResult
mlir::layout::allocateArguments(const FunctionABI &abi, Storage &storage,
                                std::vector<void *> &args, std::string &error,
                                StringRef tool, uint64_t maxBytes) {
  int64_t total = 0;
  for (const Param &p : abi.params) {
    const Buffer &buffer = abi.buffers[p.buffer];
    int64_t bytes = 0;
    if (llvm::MulOverflow<int64_t>(std::max<int64_t>(1, buffer.size),
                                   elementBytes(buffer.elementType), bytes) ||
        llvm::AddOverflow<int64_t>(total, bytes, total) ||
        uint64_t(total) > maxBytes) {
      error = tool.str() + ": @" + abi.name + " needs more than " +
              std::to_string(maxBytes >> 30) +
              " GiB for its arguments and results (" + tool.str() +
              "'s limit); compile it (--emit=obj,header) and call it on "
              "your own buffers";
      return failure();
    }
  }
  for (const Param &p : abi.params) {
    const Buffer &buffer = abi.buffers[p.buffer];
    int64_t bytes = elementBytes(buffer.elementType);
    size_t size = size_t(std::max<int64_t>(1, buffer.size)) * bytes;
    size_t padded = llvm::alignTo(size, kBufferAlignment);
    storage.emplace_back(
        static_cast<char *>(std::aligned_alloc(kBufferAlignment, padded)));
    if (storage.back())
      std::memset(storage.back().get(), 0, padded);
    if (!storage.back()) {
      error = tool.str() + ": @" + abi.name + ": cannot allocate " +
              std::to_string(size) + " bytes for argument or result " +
              std::to_string(args.size());
      return failure();
    }
    if (p.role != ParamRole::Output)
      for (int64_t i = 0; i < buffer.size; ++i)
        writeIota(storage.back().get() + i * bytes, buffer.elementType, i);
    args.push_back(storage.back().get() + buffer.pointerOffset * bytes);
  }
  return success();
}

LogicalResult mlir::layout::callEntry(void *fn, const FunctionABI &abi,
                                      ArrayRef<void *> args,
                                      std::string &error) {
  using Status = lrt_status_t;
  Status status;
  void *const *a = args.data();
  switch (args.size()) {
#define P void *
  case 1:
    status = reinterpret_cast<Status (*)(P)>(fn)(a[0]);
    break;
  case 2:
    status = reinterpret_cast<Status (*)(P, P)>(fn)(a[0], a[1]);
    break;
  case 3:
    status = reinterpret_cast<Status (*)(P, P, P)>(fn)(a[0], a[1], a[2]);
    break;
  case 4:
    status =
        reinterpret_cast<Status (*)(P, P, P, P)>(fn)(a[0], a[1], a[2], a[3]);
    break;
  case 5:
    status = reinterpret_cast<Status (*)(P, P, P, P, P)>(fn)(a[0], a[1], a[2],
                                                             a[3], a[4]);
    break;
  case 6:
    status = reinterpret_cast<Status (*)(P, P, P, P, P, P)>(fn)(
        a[0], a[1], a[2], a[3], a[4], a[5]);
    break;
  case 7:
    status = reinterpret_cast<Status (*)(P, P, P, P, P, P, P)>(fn)(
        a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
    break;
  case 8:
    status = reinterpret_cast<Status (*)(P, P, P, P, P, P, P, P)>(fn)(
        a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    break;
#undef P
  default:
    error = "layoutc calls functions with at most 7 arguments and "
            "results; @" +
            abi.name + " has " + std::to_string(args.size() - 1);
    return failure();
  }
  if (status) {
    error = std::string("@") + abi.name + ": " + lrt_status_message(status);
    lrt_status_free(status);
    return failure();
  }
  return success();
}
