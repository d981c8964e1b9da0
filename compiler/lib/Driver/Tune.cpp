//===- Tune.cpp - layoutc --tune: copy plans measured on this machine -----===//
//
// For each function with static layouts whose kernels are all copies, the
// tuner plans it with the target's defaults, then walks the knobs
// (tuningKnobs) one at a time from the best plan so far: each candidate
// value is planned, compiled and timed on iota arguments, unless its
// optimized code equals one already timed, and kept where it beats the best
// by kMinGain. The default and the best then alternate kFinalRounds times,
// and the best is kept only where it still wins by kMinGain: a candidate
// that won by noise is dropped. The winner goes into the tuning file under
// the host's target key and each of the function's shape classes; where the
// default wins, an older entry for those classes is removed. Copies write
// the same bytes under every plan, so no candidate's output is checked
// here: the execution tests run with tuning files.
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Driver/Driver.h"
#include "layout/Compiler/Driver/HostJIT.h"
#include "layout/Compiler/Driver/Run.h"
#include "layout/Compiler/Plan/Passes.h"
#include "layout/Compiler/Plan/PlanAttr.h"

#include "layout_rt/layout_rt.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>
#include <map>

using namespace mlir;
using namespace mlir::layout;

namespace {
/// The least speed-up a candidate must show to replace the best plan.
constexpr double kMinGain = 0.03;
/// Seconds of calls per measurement, in batches of at least kBatchSeconds.
constexpr double kMeasureSeconds = 0.25;
constexpr double kBatchSeconds = 0.002;
/// Alternating measurements of the default and the best plan at the end.
constexpr int kFinalRounds = 3;

double now() {
  using Clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

/// One function's plans under test: its module alone, its arguments and
/// the traffic of its kernels.
class FunctionTuner {
public:
  FunctionTuner(ModuleOp one, std::string name, std::string key)
      : one(one), name(std::move(name)), key(std::move(key)) {}

  /// Plans, compiles and times `knobs`; reuses the time of equal code.
  FailureOr<double> measure(const KnobValues &knobs, std::string &error) {
    std::unique_ptr<HostJIT> jit = compile(knobs, error);
    if (!jit)
      return failure();
    ++compiled;
    auto it = seconds.find(jit->irHash);
    if (it != seconds.end())
      return it->second;
    FailureOr<double> t = time(*jit, error);
    if (succeeded(t))
      seconds[jit->irHash] = *t;
    return t;
  }

  /// Compiles `knobs` (planned as a `*` entry under the host's key).
  std::unique_ptr<HostJIT> compile(const KnobValues &knobs,
                                   std::string &error) {
    Wisdom candidate;
    candidate.set(key, kAnyShapeClass, WisdomEntry{knobs});
    FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
        createHostMachine(error);
    if (failed(machine))
      return nullptr;
    auto jit = std::make_unique<HostJIT>();
    if (failed(compileForHost(one, std::move(*machine), *jit, error,
                              /*runtimeExtents=*/false, &candidate, key)))
      return nullptr;
    if (storage.empty() &&
        failed(allocateArguments(jit->abis.front(), storage, args, error,
                                 "--tune", kRunMaxBytes)))
      return nullptr;
    if (args.size() == jit->abis.front().params.size())
      args.push_back(nullptr); // default exec options
    return jit;
  }

  /// Seconds per call of the function `jit` compiled: the fastest batch.
  FailureOr<double> time(HostJIT &jit, std::string &error) {
    llvm::Expected<void *> entry = jit.engine->lookup(name + "_raw");
    if (!entry) {
      error = llvm::toString(entry.takeError());
      return failure();
    }
    const FunctionABI &abi = jit.abis.front();
    double start = now();
    if (failed(callEntry(*entry, abi, args, error)))
      return failure();
    double once = std::max(now() - start, 1e-7);
    int64_t batch = std::max<int64_t>(1, int64_t(kBatchSeconds / once));
    double best = once, total = 0;
    for (int batches = 0; batches < 5 || total < kMeasureSeconds; ++batches) {
      double t0 = now();
      for (int64_t i = 0; i < batch; ++i)
        if (failed(callEntry(*entry, abi, args, error)))
          return failure();
      double t = now() - t0;
      total += t;
      best = std::min(best, t / batch);
    }
    return best;
  }

  unsigned compiled = 0;

private:
  ModuleOp one;
  std::string name;
  std::string key;
  Storage storage;
  std::vector<void *> args;
  std::map<uint64_t, double> seconds;
};

/// The shape classes and traffic (bytes read and written) of `func`'s
/// kernels as planned, or why it is not tuned.
struct Kernels {
  std::vector<std::string> classes;
  double bytes = 0;
  std::string skip;
};

Kernels describeKernels(func::FuncOp func) {
  Kernels k;
  func.walk([&](Operation *op) {
    if (isa<ReduceOp>(op))
      k.skip = "reductions are not tuned (their chunking fixes their "
               "summation order)";
    std::optional<KernelPlan> plan = lookupPlan(op);
    if (!plan)
      return;
    double elements = 1;
    for (const KernelLoop &l : plan->loops)
      elements *= double(l.size);
    k.bytes += elements * double(plan->srcElementBytes + plan->dstElementBytes);
    std::string shape = shapeClass(*plan);
    if (!llvm::is_contained(k.classes, shape))
      k.classes.push_back(shape);
  });
  if (k.skip.empty() && k.classes.empty())
    k.skip = "it moves no data";
  return k;
}

/// The module with `func` alone.
OwningOpRef<ModuleOp> isolate(ModuleOp module, func::FuncOp func) {
  OwningOpRef<ModuleOp> one = module.clone();
  for (auto f : llvm::make_early_inc_range(one->getOps<func::FuncOp>()))
    if (f.getSymName() != func.getSymName())
      f.erase();
  return one;
}

std::string formatKnobs(const KnobValues &knobs) {
  std::string out;
  for (const auto &[name, value] : knobs)
    out += (out.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  return out;
}

/// Walks the knobs from the default plan; returns the best knobs and
/// their seconds per call.
FailureOr<std::pair<KnobValues, double>> searchKnobs(FunctionTuner &tuner,
                                                     const TargetInfo &target,
                                                     std::string &error) {
  KnobValues best;
  FailureOr<double> bestTime = tuner.measure(best, error);
  if (failed(bestTime))
    return failure();
  for (const TuningKnob &knob : tuningKnobs()) {
    TargetInfo defaults = target;
    int64_t defaultValue = knob.field(defaults);
    auto current = best.find(knob.name.str());
    int64_t currentValue =
        current == best.end() ? defaultValue : current->second;
    for (int64_t value : knob.candidates) {
      if (value == currentValue)
        continue;
      KnobValues candidate = best;
      if (value == defaultValue)
        candidate.erase(knob.name.str());
      else
        candidate[knob.name.str()] = value;
      FailureOr<double> t = tuner.measure(candidate, error);
      if (failed(t))
        return failure();
      if (*t < *bestTime * (1 - kMinGain)) {
        best = candidate;
        bestTime = t;
        currentValue = value;
      }
    }
  }
  return std::make_pair(best, *bestTime);
}

/// The default's and `best`'s seconds per call, each the fastest of
/// kFinalRounds alternating measurements.
FailureOr<std::pair<double, double>>
confirm(FunctionTuner &tuner, const KnobValues &best, std::string &error) {
  std::unique_ptr<HostJIT> base = tuner.compile({}, error);
  std::unique_ptr<HostJIT> tuned = base ? tuner.compile(best, error) : nullptr;
  if (!tuned)
    return failure();
  double t0 = 1e300, t1 = 1e300;
  for (int round = 0; round < kFinalRounds; ++round) {
    FailureOr<double> a = tuner.time(*base, error);
    FailureOr<double> b = succeeded(a) ? tuner.time(*tuned, error) : a;
    if (failed(b))
      return failure();
    t0 = std::min(t0, *a);
    t1 = std::min(t1, *b);
  }
  return std::make_pair(t0, t1);
}
} // namespace

LogicalResult mlir::layout::tuneProgram(ModuleOp module,
                                        const DriverOptions &options) {
  auto report = [](const llvm::Twine &message) {
    llvm::errs() << "layoutc: " << message << "\n";
    return failure();
  };
  Wisdom wisdom;
  if (llvm::sys::fs::exists(options.tunePath)) {
    FailureOr<Wisdom> old = loadWisdom(options.tunePath, "--tune");
    if (failed(old))
      return failure();
    wisdom = std::move(*old);
  }
  std::string error;
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createHostMachine(error);
  if (failed(machine))
    return report(error);
  TargetInfo target = cpuTargetInfo(**machine);
  std::string key = wisdomTargetKey((*machine)->getTargetCPU(), target);
  int64_t threads = lrt_default_num_threads();

  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(options.outputPath, &error);
  if (!output)
    return report(error);
  llvm::raw_ostream &os = output->os();
  bool failedAny = false;
  os << "tuning for " << key << " on " << threads << " thread"
     << (threads == 1 ? "" : "s") << "\n";
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    os << "@" << func.getSymName() << ": ";
    if (hasDynamicLayouts(func)) {
      os << "skipped: dynamic layouts are planned once for every size\n";
      continue;
    }
    double start = now();
    OwningOpRef<ModuleOp> one = isolate(module, func);
    if (failed(planKernels(*one, target))) {
      os << "failed: see the diagnostics above\n";
      failedAny = true;
      continue;
    }
    Kernels kernels = describeKernels(*one->getOps<func::FuncOp>().begin());
    if (!kernels.skip.empty()) {
      os << "skipped: " << kernels.skip << "\n";
      continue;
    }
    FunctionTuner tuner(*one, func.getSymName().str(), key);
    FailureOr<std::pair<KnobValues, double>> best =
        searchKnobs(tuner, target, error);
    FailureOr<std::pair<double, double>> final =
        succeeded(best) ? confirm(tuner, best->first, error)
                        : FailureOr<std::pair<double, double>>(failure());
    if (failed(final)) {
      // The other functions are still tuned; the run fails at the end.
      os << "failed: " << (error.empty() ? "see the diagnostics above" : error)
         << "\n";
      error.clear();
      failedAny = true;
      continue;
    }
    auto [t0, t1] = *final;
    bool kept = !best->first.empty() && t1 < t0 * (1 - kMinGain);
    double gb0 = kernels.bytes / t0 * 1e-9, gb1 = kernels.bytes / t1 * 1e-9;
    os << llvm::join(kernels.classes, "; ") << ": default "
       << llvm::format("%.2f", gb0) << " GB/s, ";
    if (kept)
      os << "tuned " << llvm::format("%.2f", gb1) << " GB/s ("
         << llvm::format("%.2f", t0 / t1) << "x) with "
         << formatKnobs(best->first);
    else if (best->first.empty())
      os << "default kept (no candidate was faster)";
    else
      os << "default kept (" << formatKnobs(best->first) << " measured "
         << llvm::format("%.2f", t0 / t1) << "x)";
    os << "; " << tuner.compiled << " plans compiled in "
       << llvm::format("%.1f", now() - start) << " s\n";
    for (const std::string &shape : kernels.classes) {
      if (kept)
        wisdom.set(key, shape, WisdomEntry{best->first, gb0, gb1, threads});
      else
        wisdom.erase(key, shape);
    }
  }
  std::unique_ptr<llvm::ToolOutputFile> file =
      openOutputFile(options.tunePath, &error);
  if (!file)
    return report(error);
  file->os() << wisdom.print();
  file->os().flush();
  if (file->os().has_error())
    return report("cannot write tuning file '" + options.tunePath + "'");
  file->keep();
  output->keep();
  return failure(failedAny);
}
