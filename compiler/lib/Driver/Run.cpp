//===- Run.cpp - JIT a layout program on iota inputs ----------------------===//
//
// layoutc --run: plans and compiles a planned module for this machine with
// MLIR's ExecutionEngine, calls every function on iota-filled buffers and
// prints each result as PyTorch prints tensors (formatTensor reproduces
// torch's repr: its summarization, number formats, line wrapping and dtype
// suffix).
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Driver/Run.h"
#include "layout/Compiler/Driver/HostJIT.h"
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

/// PyTorch's print options: above kThreshold elements, each dimension
/// longer than 2 * kEdgeItems shows its first and last kEdgeItems indices
/// around "...".
constexpr int64_t kThreshold = 1000, kEdgeItems = 3;

/// The indices of each dimension that print, -1 standing for "...".
std::vector<std::vector<int64_t>> shownIndices(ArrayRef<int64_t> sizes,
                                               bool summarize) {
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
  return shown;
}

/// The shown elements of a non-empty tensor in logical order (PyTorch's
/// formatter sees only these when it summarizes).
std::vector<Scalar> gatherShown(const void *data, Type type,
                                ArrayRef<int64_t> strides,
                                ArrayRef<std::vector<int64_t>> shown) {
  int64_t bytes = elementBytes(type);
  std::vector<Scalar> values;
  std::vector<int64_t> index(shown.size());
  std::function<void(size_t)> gather = [&](size_t d) {
    if (d == shown.size()) {
      int64_t off = 0;
      for (size_t k = 0; k < index.size(); ++k)
        off += index[k] * strides[k];
      return values.push_back(
          readElement(static_cast<const char *>(data) + off * bytes, type));
    }
    for (int64_t i : shown[d])
      if (i >= 0) {
        index[d] = i;
        gather(d + 1);
      }
  };
  gather(0);
  return values;
}

/// The repr of a tensor without elements: "tensor([], size=(0, 3))".
std::string emptyTensor(ArrayRef<int64_t> sizes, StringRef suffix) {
  std::string shape;
  if (sizes.size() != 1)
    shape = ", size=(" +
            llvm::join(llvm::map_range(
                           sizes, [](int64_t s) { return std::to_string(s); }),
                       ", ") +
            (sizes.size() == 1 ? ",)" : ")");
  return "tensor([]" + shape + suffix.str() + ")";
}

/// PyTorch's _Formatter: integral floats print as "3.", others with four
/// decimals, scientific notation for wide ranges.
struct ScalarFormat {
  Kind kind;
  bool intMode = true;
  bool sci = false;

  /// The format of `values`, all of kind `kind`.
  ScalarFormat(Kind kind, ArrayRef<Scalar> values) : kind(kind) {
    bool finiteSeen = false;
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
    // The largest over the smallest nonzero magnitude above 1000 (integral
    // values too), or a very large or very small magnitude.
    if (kind == Kind::Float && finiteSeen)
      sci = maxAbs / (minAbs == INFINITY ? 1 : minAbs) > 1000 || maxAbs > 1e8 ||
            (!intMode && minAbs != INFINITY && minAbs < 1e-4);
  }

  std::string operator()(const Scalar &s) const {
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
  }
};

/// The bracketed rows of a tensor of rank >= 1 after "tensor(", its shown
/// elements' `text` right-aligned to `width`: rows of the last dimension on
/// one line, wrapped at 80 columns. A skipped run is " ..." among a row's
/// elements, "..." among rows.
std::string printRows(ArrayRef<int64_t> sizes,
                      ArrayRef<std::vector<int64_t>> shown,
                      ArrayRef<std::string> text, size_t width) {
  std::string out;
  size_t next = 0;
  std::function<void(size_t, size_t)> emit = [&](size_t dim, size_t indent) {
    out += "[";
    for (auto [i, index] : llvm::enumerate(shown[dim])) {
      if (dim + 1 == sizes.size()) {
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
  return out;
}

/// PyTorch's _add_suffixes: closes `out`, the dtype `suffix` (", dtype=...")
/// moving to its own line when the last line would exceed 80 columns.
std::string addSuffix(const std::string &out, StringRef suffix) {
  if (suffix.empty())
    return out + ")";
  std::string dtype = suffix.drop_front(2).str();
  size_t newline = out.rfind('\n');
  size_t lastLine =
      newline == std::string::npos ? out.size() + 2 : out.size() - newline + 1;
  if (lastLine + dtype.size() + 2 > 80)
    return out + ",\n" + std::string(7, ' ') + dtype + ")";
  return out + ", " + dtype + ")";
}
} // namespace

std::string mlir::layout::formatTensor(const void *data, Type type,
                                       ArrayRef<int64_t> sizes,
                                       ArrayRef<int64_t> strides) {
  int64_t count = 1;
  for (int64_t s : sizes)
    count *= s;
  std::string suffix = dtypeSuffix(type);
  if (count == 0)
    return emptyTensor(sizes, suffix);
  std::vector<std::vector<int64_t>> shown =
      shownIndices(sizes, count > kThreshold);
  std::vector<Scalar> values = gatherShown(data, type, strides, shown);
  // Every element right-aligned to the widest.
  ScalarFormat format(kindOf(type), values);
  std::vector<std::string> text;
  size_t width = 0;
  for (const Scalar &s : values) {
    text.push_back(format(s));
    width = std::max(width, text.back().size());
  }
  if (sizes.empty())
    return "tensor(" + text[0] + suffix + ")";
  return addSuffix("tensor(" + printRows(sizes, shown, text, width), suffix);
}

/// Prints the results of a call of `abi` on `args` in order: new tensors
/// (outputs) and views of arguments.
static void printResults(const FunctionABI &abi, ArrayRef<void *> args,
                         raw_ostream &os) {
  unsigned numResults = abi.views.size();
  for (const Param &p : abi.params)
    numResults += p.role == ParamRole::Output;
  for (unsigned r = 0; r < numResults; ++r) {
    os << "@" << abi.name << " result " << r << ": ";
    for (auto [i, p] : llvm::enumerate(abi.params))
      if (p.role == ParamRole::Output && p.number == r)
        os << "new tensor\n"
           << formatTensor(args[i], p.elementType, p.sizes, p.strides) << "\n";
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

LogicalResult mlir::layout::runModule(ModuleOp planned, raw_ostream &os,
                                      std::string &error, bool runtimeExtents,
                                      const Wisdom *wisdom,
                                      StringRef wisdomTarget) {
  // Iota arguments have the declared sizes: a dynamic function has none.
  for (auto func : planned.getOps<func::FuncOp>())
    if (!func.isExternal() && hasDynamicLayouts(func))
      return func.emitError("--run calls each function on arguments of its "
                            "declared sizes, but '")
             << func.getSymName()
             << "' has dynamic ones: compile it (--emit=obj,header, or "
                "layoutc.compile in Python) and call it with any sizes";
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createHostMachine(error);
  if (failed(machine))
    return failure();
  HostJIT jit;
  if (failed(compileForHost(planned, std::move(*machine), jit, error,
                            runtimeExtents, wisdom, wisdomTarget)))
    return failure();
  for (const FunctionABI &abi : jit.abis) {
    llvm::Expected<void *> entry = jit.engine->lookup(abi.name + "_raw");
    if (!entry) {
      error = llvm::toString(entry.takeError());
      return failure();
    }
    Storage storage;
    std::vector<void *> args;
    if (failed(allocateArguments(abi, storage, args, error, "--run",
                                 kRunMaxBytes)))
      return failure();
    args.push_back(nullptr); // default exec options
    if (failed(callEntry(*entry, abi, args, error)))
      return failure();
    printResults(abi, args, os);
  }
  return success();
}
