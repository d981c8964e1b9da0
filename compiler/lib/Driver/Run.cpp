//===- Run.cpp - JIT a layout program on iota inputs
//-----------------------===//

#include "layout/Compiler/Driver/Run.h"
#include "layout/Compiler/Plan/Passes.h"

#include "layout/Compiler/Target/CPU/CPUBackend.h"

#include "layout_rt/layout_rt.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>

using namespace mlir;
using namespace mlir::layout;

namespace {
/// One element as PyTorch's formatter sees it.
struct Scalar {
  double f = 0;
  int64_t i = 0;
};

enum class Kind { Float, Int, Bool };

Kind kindOf(Type t) {
  if (t.isInteger(1))
    return Kind::Bool;
  return isa<FloatType>(t) ? Kind::Float : Kind::Int;
}

Scalar readElement(const char *p, Type t) {
  Scalar s;
  if (auto ft = dyn_cast<FloatType>(t)) {
    if (t.isF32()) {
      float v;
      std::memcpy(&v, p, 4);
      s.f = v;
    } else if (t.isF64()) {
      std::memcpy(&s.f, p, 8);
    } else {
      uint16_t bits;
      std::memcpy(&bits, p, 2);
      llvm::APFloat v(ft.getFloatSemantics(), llvm::APInt(16, bits));
      s.f = v.convertToDouble();
    }
    return s;
  }
  unsigned w = t.getIntOrFloatBitWidth();
  bool u = t.isUnsignedInteger() || w == 1;
  switch (w) {
  case 1:
  case 8:
    s.i = u ? int64_t(*reinterpret_cast<const uint8_t *>(p))
            : int64_t(*reinterpret_cast<const int8_t *>(p));
    break;
  case 16: {
    int16_t v;
    std::memcpy(&v, p, 2);
    s.i = v;
    break;
  }
  case 32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    s.i = v;
    break;
  }
  default:
    std::memcpy(&s.i, p, 8);
  }
  return s;
}

void writeIota(char *p, Type t, int64_t i) {
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

std::string dtypeSuffix(Type t) {
  if (t.isF32() || t.isSignlessInteger(64) || t.isInteger(1))
    return "";
  static const std::pair<const char *, const char *> names[] = {
      {"f16", "float16"}, {"bf16", "bfloat16"}, {"f64", "float64"},
      {"i8", "int8"},     {"i16", "int16"},     {"i32", "int32"},
      {"ui8", "uint8"}};
  std::string n = elementName(t);
  for (auto [ours, torch] : names)
    if (n == ours)
      return std::string(", dtype=torch.") + torch;
  return ", dtype=" + n;
}
} // namespace

std::string mlir::layout::formatTensor(const void *data, Type type,
                                       ArrayRef<int64_t> sizes,
                                       ArrayRef<int64_t> strides) {
  int64_t bytes = elementBytes(type);
  Kind kind = kindOf(type);
  int64_t count = 1;
  for (int64_t s : sizes)
    count *= s;
  // PyTorch's print options: above 1000 elements, each dimension longer
  // than 2 * 3 shows its first and last 3 indices around "...".
  constexpr int64_t kThreshold = 1000, kEdgeItems = 3;
  bool summarize = count > kThreshold;
  std::vector<std::vector<int64_t>> shown(sizes.size());
  for (auto [d, size] : llvm::enumerate(sizes)) {
    if (summarize && size > 2 * kEdgeItems) {
      for (int64_t i = 0; i < kEdgeItems; ++i)
        shown[d].push_back(i);
      shown[d].push_back(-1); // "..."
      for (int64_t i = size - kEdgeItems; i < size; ++i)
        shown[d].push_back(i);
    } else {
      for (int64_t i = 0; i < size; ++i)
        shown[d].push_back(i);
    }
  }
  auto element = [&](ArrayRef<int64_t> index) {
    int64_t off = 0;
    for (size_t d = 0; d < index.size(); ++d)
      off += index[d] * strides[d];
    return readElement(static_cast<const char *>(data) + off * bytes, type);
  };
  // The shown elements in logical order (PyTorch's formatter sees only
  // these when it summarizes).
  std::vector<Scalar> values;
  if (count != 0) {
    std::vector<int64_t> index(sizes.size());
    std::function<void(size_t)> gather = [&](size_t d) {
      if (d == sizes.size())
        return values.push_back(element(index));
      for (int64_t i : shown[d])
        if (i >= 0) {
          index[d] = i;
          gather(d + 1);
        }
    };
    gather(0);
  }
  std::string suffix = dtypeSuffix(type);
  if (count == 0) {
    std::string shape;
    if (sizes.size() != 1)
      shape =
          ", size=(" +
          llvm::join(llvm::map_range(
                         sizes, [](int64_t s) { return std::to_string(s); }),
                     ", ") +
          (sizes.size() == 1 ? ",)" : ")");
    return "tensor([]" + shape + suffix + ")";
  }

  // PyTorch's _Formatter: integral floats print as "3.", others with four
  // decimals, scientific notation for wide ranges; all right-aligned.
  bool intMode = true, finiteSeen = false;
  double maxAbs = 0, minAbs = INFINITY;
  for (const Scalar &s : values) {
    if (kind != Kind::Float || !std::isfinite(s.f))
      continue;
    finiteSeen = true;
    if (s.f != std::ceil(s.f))
      intMode = false;
    maxAbs = std::max(maxAbs, std::fabs(s.f));
    if (s.f != 0)
      minAbs = std::min(minAbs, std::fabs(s.f));
  }
  bool sci = false;
  if (kind == Kind::Float && finiteSeen) {
    // The largest over the smallest nonzero magnitude above 1000 (integral
    // values too), or a very large or very small magnitude.
    sci = maxAbs / (minAbs == INFINITY ? 1 : minAbs) > 1000 || maxAbs > 1e8 ||
          (!intMode && minAbs != INFINITY && minAbs < 1e-4);
  }
  auto fmt = [&](const Scalar &s) -> std::string {
    if (kind == Kind::Bool)
      return s.i ? "True" : "False";
    if (kind == Kind::Int)
      return std::to_string(s.i);
    if (std::isnan(s.f))
      return "nan";
    if (std::isinf(s.f))
      return s.f < 0 ? "-inf" : "inf";
    std::string out;
    llvm::raw_string_ostream os(out);
    if (sci)
      os << llvm::format("%.4e", s.f);
    else if (intMode)
      os << llvm::format("%.0f.", s.f);
    else
      os << llvm::format("%.4f", s.f);
    return out;
  };
  std::vector<std::string> text;
  size_t width = 0;
  for (const Scalar &s : values) {
    text.push_back(fmt(s));
    width = std::max(width, text.back().size());
  }
  if (sizes.empty())
    return "tensor(" + text[0] + suffix + ")";

  std::string out = "tensor(";
  // Recursive bracketed rows; rows of the last dim on one line. A skipped
  // run is " ..." among a row's elements, "..." among rows.
  size_t next = 0;
  std::function<void(size_t, size_t)> emit = [&](size_t dim, size_t indent) {
    out += "[";
    for (auto [i, index] : llvm::enumerate(shown[dim])) {
      if (dim + 1 == sizes.size()) {
        // PyTorch wraps rows at 80 columns.
        size_t perLine = std::max<int64_t>(
            1, (80 - static_cast<int64_t>(indent)) / int64_t(width + 2));
        if (i && i % perLine == 0)
          out += ",\n" + std::string(indent + 1, ' ');
        else if (i)
          out += ", ";
        if (index < 0) {
          out += " ...";
          continue;
        }
        out += std::string(width - text[next].size(), ' ') + text[next];
        ++next;
        continue;
      }
      if (i) {
        out += ",";
        out += std::string(sizes.size() - dim - 1, '\n');
        out += std::string(indent + 1, ' ');
      }
      if (index < 0)
        out += "...";
      else
        emit(dim + 1, indent + 1);
    }
    out += "]";
  };
  emit(0, 7);
  if (suffix.empty())
    return out + ")";
  // PyTorch's _add_suffixes: the dtype moves to its own line when the last
  // line would exceed 80 columns.
  std::string dtype = suffix.substr(2);
  size_t newline = out.rfind('\n');
  size_t lastLine =
      newline == std::string::npos ? out.size() + 2 : out.size() - newline + 1;
  if (lastLine + dtype.size() + 2 > 80)
    return out + ",\n" + std::string(7, ' ') + dtype + ")";
  return out + ", " + dtype + ")";
}

LogicalResult mlir::layout::runModule(ModuleOp planned, raw_ostream &os,
                                      std::string &error) {
  CPUOptions options;
  options.cpu = "host";
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(options, error);
  if (failed(machine))
    return failure();
  TargetInfo target = cpuTargetInfo(**machine);
  if (failed(planKernels(planned, target)))
    return failure();
  std::vector<FunctionABI> abis;
  FailureOr<OwningOpRef<ModuleOp>> kernels =
      buildKernelModule(planned, abis, target);
  if (failed(kernels) || failed(lowerKernelModuleToLLVM(**kernels)))
    return failure();

  auto builder = [&](Operation *op, llvm::LLVMContext &context) {
    return translateAndOptimize(cast<ModuleOp>(op), context, **machine, 3);
  };
  ExecutionEngineOptions engineOptions;
  engineOptions.llvmModuleBuilder = builder;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(**kernels, engineOptions);
  if (!engine) {
    error = llvm::toString(engine.takeError());
    return failure();
  }
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
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
    add("lrt_bind_tensors", reinterpret_cast<void *>(&lrt_bind_tensors));
    return symbols;
  });

  for (const FunctionABI &abi : abis) {
    llvm::Expected<void *> entry = (*engine)->lookup(abi.name + "_raw");
    if (!entry) {
      error = llvm::toString(entry.takeError());
      return failure();
    }
    // Every buffer is checked against the limit before any is allocated,
    // and allocated with calloc, which returns null where operator new would
    // end in LLVM's out-of-memory abort: a failed allocation is an error.
    int64_t total = 0;
    for (const Param &p : abi.params) {
      const Buffer &buffer = abi.buffers[p.buffer];
      int64_t bytes = 0;
      if (llvm::MulOverflow<int64_t>(std::max<int64_t>(1, buffer.size),
                                     elementBytes(buffer.elementType), bytes) ||
          llvm::AddOverflow<int64_t>(total, bytes, total) ||
          uint64_t(total) > kRunMaxBytes) {
        error = "--run: @" + abi.name + " needs more than " +
                std::to_string(kRunMaxBytes >> 30) +
                " GiB for its arguments and results (--run's limit); "
                "compile it (--emit=obj,header) and call it on your own "
                "buffers";
        return failure();
      }
    }
    struct Free {
      void operator()(char *p) const { std::free(p); }
    };
    std::vector<std::unique_ptr<char, Free>> storage;
    std::vector<void *> args;
    for (const Param &p : abi.params) {
      const Buffer &buffer = abi.buffers[p.buffer];
      int64_t bytes = elementBytes(buffer.elementType);
      size_t size = size_t(std::max<int64_t>(1, buffer.size)) * bytes;
      storage.emplace_back(static_cast<char *>(std::calloc(size, 1)));
      if (!storage.back()) {
        error = "--run: @" + abi.name + ": cannot allocate " +
                std::to_string(size) + " bytes for argument or result " +
                std::to_string(args.size());
        return failure();
      }
      if (p.role != ParamRole::Output)
        for (int64_t i = 0; i < buffer.size; ++i)
          writeIota(storage.back().get() + i * bytes, buffer.elementType, i);
      args.push_back(storage.back().get() + buffer.pointerOffset * bytes);
    }
    args.push_back(nullptr); // default exec options
    using Status = lrt_status_t;
    void *fn = *entry;
    Status status;
    void **a = args.data();
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
      error = "--run supports functions with at most 7 arguments and "
              "results; @" +
              abi.name + " has " + std::to_string(args.size() - 1);
      return failure();
    }
    if (status) {
      error = std::string("@") + abi.name + ": " + lrt_status_message(status);
      lrt_status_free(status);
      return failure();
    }

    // Results in order: outputs and views of arguments.
    unsigned numResults = abi.views.size();
    for (const Param &p : abi.params)
      numResults += p.role == ParamRole::Output;
    for (unsigned r = 0; r < numResults; ++r) {
      os << "@" << abi.name << " result " << r << ": ";
      for (auto [i, p] : llvm::enumerate(abi.params))
        if (p.role == ParamRole::Output && p.number == r)
          os << "new tensor\n"
             << formatTensor(args[i], p.elementType, p.sizes, p.strides)
             << "\n";
      for (const ViewResult &v : abi.views)
        if (v.result == r) {
          const Param &arg = abi.params[v.argument];
          const char *base = static_cast<const char *>(args[v.argument]) +
                             v.offset * elementBytes(arg.elementType);
          os << "view of argument " << v.argument << "\n"
             << formatTensor(base, v.elementType, v.sizes, v.strides) << "\n";
        }
    }
  }
  return success();
}
