//===- Explain.cpp - --emit=explain and --emit=memory-map -----------------===//

#include "layout/Compiler/Report/Explain.h"
#include "layout/Compiler/Plan/PlanAttr.h"
#include "layout/Compiler/Semantics/FunctionABI.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::layout;

/// `s` as a JSON string. Names and file paths may hold any bytes (`@"\ff"`
/// parses); JSON is UTF-8, so an invalid sequence becomes U+FFFD, as
/// llvm::json::Value would do itself were it not asserting valid UTF-8.
static std::string jsonString(StringRef s) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::json::Value(llvm::json::isUTF8(s) ? s.str()
                                                : llvm::json::fixUTF8(s));
  return out;
}

static std::string jsonInt(int64_t v) {
  return v == kDynamic ? std::string("null") : std::to_string(v);
}

/// The function argument whose storage `v` views, if any.
static std::optional<unsigned> aliasedArgument(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(getStorageRoot(v)))
    return arg.getArgNumber();
  return std::nullopt;
}

static int64_t bytesOf(StridedTensorType t) {
  Fallible<int64_t> n = numel(t.getShape());
  return n ? *n * t.getElementBytes() : 0;
}

static std::string explainResult(Value v) {
  auto type = cast<StridedTensorType>(v.getType());
  StridedLayout l = type.getStridedLayout();
  std::optional<unsigned> alias = aliasedArgument(v);
  bool known = l.isStatic();
  return llvm::formatv("{{\"sizes\": {0}, \"strides\": {1}, \"offset\": {2}, "
                       "\"dtype\": {3}, \"aliases\": {4}, \"contiguous\": {5}, "
                       "\"channels_last\": {6}}",
                       formatDims(l.sizes, "null"),
                       formatDims(l.strides, "null"), jsonInt(l.offset),
                       jsonString(dtypeName(type.getElementType())),
                       alias ? std::to_string(*alias) : std::string("null"),
                       known && isContiguous(l) ? "true" : "false",
                       known && isChannelsLastContiguous(l) ? "true" : "false")
      .str();
}

static std::string explainCopy(StringRef op, Location loc, int64_t bytes,
                               StringRef reason, StringRef kernel) {
  return llvm::formatv("{{\"op\": {0}, \"loc\": {1}, \"bytes\": {2}, "
                       "\"reason\": {3}, \"kernel\": {4}}",
                       jsonString(op), jsonString(formatLocation(loc)), bytes,
                       jsonString(reason), jsonString(kernel))
      .str();
}

static std::string jsonBool(bool b) { return b ? "true" : "false"; }

/// A plan's `strategy` key: "convert+" before a copy's that converts.
static std::string strategyName(const KernelPlan &plan) {
  return ((plan.convert && !plan.accumulator ? "convert+" : "") +
          stringifyKernelStrategy(plan.strategy))
      .str();
}

/// The knobs a tuning file set for `plan`, as a JSON object, or null.
static std::string tunedKnobs(const KernelPlan &plan) {
  if (!plan.tuned)
    return "null";
  std::string out = "{";
  for (const auto &[name, value] : *plan.tuned)
    out += (out.size() > 1 ? ", " : "") + jsonString(name) + ": " +
           std::to_string(value);
  return out + "}";
}

/// One `kernels` entry. A plan that cannot be made (a dynamic layout) keeps
/// every key, with null values, so that readers see one shape.
static std::string explainKernel(StringRef op, Location loc,
                                 const std::optional<KernelPlan> &plan) {
  std::string head =
      llvm::formatv("{{\"op\": {0}, \"loc\": {1}, ", jsonString(op),
                    jsonString(formatLocation(loc)))
          .str();
  if (!plan)
    return head + "\"strategy\": null, \"loops\": null, \"vector_width\": "
                  "null, \"tile\": null, \"parallel_dim\": null, \"chunks\": "
                  "null, \"index_bits\": null, \"streaming_stores\": null, "
                  "\"accumulator\": null, \"plan_source\": null, "
                  "\"tuned_knobs\": null}";
  std::string loops;
  llvm::raw_string_ostream ls(loops);
  llvm::interleaveComma(plan->loops, ls, [&](const KernelLoop &l) {
    ls << llvm::formatv(
        "{{\"size\": {0}, \"src_stride\": {1}, \"dst_stride\": {2}}", l.size,
        l.srcStride, l.dstStride);
  });
  return head +
         llvm::formatv(
             "\"strategy\": {0}, \"loops\": [{1}], \"vector_width\": {2}, "
             "\"tile\": {3}, \"parallel_dim\": {4}, \"chunks\": {5}, "
             "\"index_bits\": {6}, \"streaming_stores\": {7}, "
             "\"accumulator\": {8}, \"plan_source\": {9}, "
             "\"tuned_knobs\": {10}}",
             jsonString(strategyName(*plan)), loops, plan->vectorWidth,
             plan->tile.empty() ? std::string("null") : formatDims(plan->tile),
             plan->parallelLoop ? std::to_string(*plan->parallelLoop)
                                : std::string("null"),
             plan->chunks, plan->index32 ? 32 : 64,
             jsonBool(plan->streamingStores),
             plan->accumulator ? jsonString(*plan->accumulator)
                               : std::string("null"),
             jsonString(plan->tuned ? "tuned" : "heuristic"), tunedKnobs(*plan))
             .str();
}

static std::string jsonStrings(ArrayRef<std::string> items) {
  std::string out = "[";
  for (auto [i, item] : llvm::enumerate(items))
    out += (i ? ", " : "") + jsonString(item);
  return out + "]";
}

static bool hasDynamicLayout(func::FuncOp func) {
  bool dynamic = false;
  func.walk([&](Operation *op) {
    for (Value v : op->getResults())
      if (auto t = dyn_cast<StridedTensorType>(v.getType()))
        dynamic |= !t.hasStaticLayout();
  });
  for (Value v : func.getArguments())
    if (auto t = dyn_cast<StridedTensorType>(v.getType()))
      dynamic |= !t.hasStaticLayout();
  return dynamic;
}

/// A dynamic function's kernels as planned once for every size for
/// `target` (analyzeDynamicFunction): strategy, loops with symbolic sizes and
/// strides, and the decisions made at run time; where it cannot be compiled,
/// `"kernels": null` and the error in `kernels_error`.
static std::string explainDynamicKernels(func::FuncOp func,
                                         const TargetInfo &target) {
  std::string error;
  FailureOr<FunctionABI> abi = [&] {
    ScopedDiagnosticHandler capture(func.getContext(), [&](Diagnostic &d) {
      if (error.empty() && d.getSeverity() == DiagnosticSeverity::Error)
        error = formatLocation(d.getLocation()) + ": " + d.str();
      return success();
    });
    return analyzeDynamicFunction(func, target);
  }();
  if (failed(abi))
    return ",\n    \"kernels\": null, \"kernels_error\": " + jsonString(error);
  SmallVector<std::string> kernels;
  for (auto [k, x] : llvm::zip_equal(abi->kernels, abi->dynamic->kernels)) {
    const KernelPlan &plan = k.plan;
    std::string loops;
    llvm::raw_string_ostream ls(loops);
    llvm::interleaveComma(
        x.loopText, ls, [&](const std::array<std::string, 3> &l) {
          ls << "{\"size\": " << jsonString(l[0])
             << ", \"src_stride\": " << jsonString(l[1])
             << ", \"dst_stride\": " << jsonString(l[2]) << "}";
        });
    std::string tiled = "null";
    if (plan.tiledLoops)
      tiled = "[" + std::to_string(plan.tiledLoops->first) + ", " +
              std::to_string(plan.tiledLoops->second) + "]";
    RuntimeSplitLoops split =
        runtimeSplitLoops(plan, k.kind == KernelKind::Reduce &&
                                    (k.reduction == ReductionKind::Argmax ||
                                     k.reduction == ReductionKind::Argmin));
    auto loopOrNull = [](int64_t loop) {
      return loop < 0 ? std::string("null") : std::to_string(loop);
    };
    kernels.push_back(
        "{\"loc\": " + jsonString(formatLocation(k.loc)) +
        ", \"strategy\": " + jsonString(strategyName(plan)) + ", \"loops\": [" +
        loops + "], \"tiled_loops\": " + tiled + ", \"square_edge\": " +
        (plan.squareEdge ? std::to_string(plan.squareEdge) : "null") +
        ", \"vector_width\": " + std::to_string(plan.vectorWidth) +
        ", \"parallel_dim\": " + loopOrNull(split.loop) +
        ", \"parallel_fallback_dim\": " + loopOrNull(split.fallback) +
        ", \"accumulator\": " +
        (plan.accumulator ? jsonString(*plan.accumulator) : "null") +
        ", \"chunks\": \"run time\", \"index_bits\": \"run time\", "
        "\"plan_source\": \"heuristic\"}");
  }
  std::string out = ",\n    \"kernels\": [";
  llvm::raw_string_ostream os(out);
  llvm::interleave(kernels, os, ",\n                ");
  os << "], \"kernels_error\": null";
  return out;
}

/// A dynamic function's symbolic layouts: each result's sizes, strides and
/// offset as expressions, the derived symbols' definitions, which ops copy
/// under which condition, and the checks left for the run time; with a
/// target, its kernels (explainDynamicKernels).
static std::string explainSymbolic(func::FuncOp func,
                                   const TargetInfo *target) {
  SymbolicLayouts layouts;
  SymTable &t = layouts.table();
  SmallVector<std::string> copies;
  auto layoutOf = [&](Value v) -> std::optional<SymLayout> {
    Fallible<SymLayout> l = layouts.get(v);
    return l ? std::optional<SymLayout>(*l) : std::nullopt;
  };
  // Program order, so that derived symbols are numbered as they appear.
  func.walk([&](Operation *op) {
    for (Value v : op->getResults())
      if (isa<StridedTensorType>(v.getType()))
        (void)layouts.get(v);
    std::optional<SymCond> when;
    if (isa<ContiguousOp, ReshapeOp, FlattenOp>(op)) {
      if (const SymMaybeCopy *r = layouts.mayCopy(op->getResult(0)))
        when = r->copies;
    } else if (isa<CloneOp, ReduceOp>(op)) {
      when = SymCond::alwaysTrue();
    } else if (auto to = dyn_cast<ToOp>(op)) {
      when =
          cast<StridedTensorType>(to.getInput().getType()).getElementType() ==
                  to.getDtype()
              ? SymCond::alwaysFalse()
              : SymCond::alwaysTrue();
    } else if (isa<CopyOp, MaterializeOp>(op)) {
      when = SymCond::alwaysTrue();
      // The run-time check that the destination's elements are distinct.
      if (auto copy = dyn_cast<CopyOp>(op);
          copy && !copy.getDst().getType().hasStaticLayout())
        (void)layouts.requireDistinct(copy.getDst());
    }
    if (!when)
      return;
    std::optional<bool> decided = t.decide(*when);
    // "unless" states when the operand is already what the op returns.
    std::string text = decided == true ? "always"
                       : decided == false
                           ? "never"
                           : "unless " + t.str(SymCond::negate(*when));
    copies.push_back(llvm::formatv("{{\"op\": {0}, \"loc\": {1}, "
                                   "\"copies\": {2}}",
                                   jsonString(op->getName().getStringRef()),
                                   jsonString(formatLocation(op->getLoc())),
                                   jsonString(text))
                         .str());
  });
  SmallVector<std::string> results;
  auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
  for (Value v : ret.getOperands()) {
    std::optional<SymLayout> l = layoutOf(v);
    if (!l) {
      results.push_back("null");
      continue;
    }
    SmallVector<std::string> sizes, strides;
    for (const SymExpr &e : l->sizes)
      sizes.push_back(t.str(e));
    for (const SymExpr &e : l->strides)
      strides.push_back(t.str(e));
    results.push_back(
        llvm::formatv("{{\"sizes\": {0}, \"strides\": {1}, \"offset\": "
                      "{2}}",
                      jsonStrings(sizes), jsonStrings(strides),
                      jsonString(t.str(l->offset)))
            .str());
  }
  SmallVector<std::string> symbols, checks;
  for (auto [id, sym] : llvm::enumerate(t.symbols()))
    symbols.push_back(jsonString(sym.name) + ": " +
                      jsonString(t.definition(id)));
  for (const SymTable::Check &c : t.checks())
    checks.push_back(llvm::formatv("{{\"requires\": {0}, \"message\": {1}}",
                                   jsonString(t.str(c.cond)),
                                   jsonString(t.format(c)))
                         .str());
  std::string out = ",\n  \"symbolic\": {\"symbols\": {";
  llvm::raw_string_ostream os(out);
  llvm::interleave(symbols, os, ", ");
  os << "},\n    \"results\": [";
  llvm::interleave(results, os, ",\n                ");
  os << "],\n    \"copies\": [";
  llvm::interleave(copies, os, ",\n               ");
  os << "],\n    \"checks\": [";
  llvm::interleave(checks, os, ",\n               ");
  os << "]";
  if (target)
    os << explainDynamicKernels(func, *target);
  os << "}";
  return out;
}

void mlir::layout::printExplain(ModuleOp module, const TargetInfo *target,
                                raw_ostream &os) {
  os << "{\"functions\": [";
  bool firstFunc = true;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    os << (firstFunc ? "" : ",\n ")
       << "{\"name\": " << jsonString(func.getSymName())
       << ",\n  \"results\": [";
    firstFunc = false;
    auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
    llvm::interleave(
        ret.getOperands(), os, [&](Value v) { os << explainResult(v); },
        ",\n              ");
    os << "],\n  \"copies\": [";
    SmallVector<std::string> copies, kernels;
    func.walk([&](Operation *op) {
      if (auto m = dyn_cast<MaterializeOp>(op)) {
        StridedTensorType in = m.getInput().getType();
        StridedTensorType out = m.getType();
        kernels.push_back(
            explainKernel(m.getOrigin(), m.getLoc(), lookupPlan(m)));
        copies.push_back(explainCopy(
            m.getOrigin(), m.getLoc(), bytesOf(in) + bytesOf(out),
            m.getReason(),
            classifyCopy(in.getStridedLayout(), out.getStridedLayout(),
                         in.getElementType() != out.getElementType())));
      } else if (auto c = dyn_cast<CopyOp>(op)) {
        StridedTensorType src = c.getSrc().getType();
        StridedTensorType dst = c.getDst().getType();
        Fallible<StridedLayout> read =
            broadcastTo(src.getStridedLayout(), dst.getShape());
        kernels.push_back(
            explainKernel("layout.copy", c.getLoc(), lookupPlan(c)));
        int64_t elements = bytesOf(dst) / dst.getElementBytes();
        copies.push_back(explainCopy(
            "layout.copy", c.getLoc(),
            elements * (src.getElementBytes() + dst.getElementBytes()),
            "writes into the destination's existing storage",
            read ? classifyCopy(*read, dst.getStridedLayout(),
                                src.getElementType() != dst.getElementType())
                 : std::string("gather")));
      } else if (auto r = dyn_cast<ReduceOp>(op)) {
        kernels.push_back(
            explainKernel("layout.reduce", r.getLoc(), lookupPlan(r)));
      }
    });
    llvm::interleave(copies, os, ",\n             ");
    os << "],\n  \"kernels\": [";
    llvm::interleave(kernels, os, ",\n               ");
    os << "]";
    if (hasDynamicLayout(func))
      os << explainSymbolic(func, target);
    os << "}";
  }
  os << "]}\n";
}

//===----------------------------------------------------------------------===//
// Memory map
//===----------------------------------------------------------------------===//

namespace {
constexpr int64_t kMaxRows = 16, kMaxCols = 16, kMaxSlices = 8;
constexpr int64_t kMaxStorage = 1024, kStripWidth = 16;
} // namespace

/// One 2-D slice (the last two dims) of the index -> offset grid.
static void printGrid(raw_ostream &os, const StridedLayout &l, int64_t base) {
  int64_t rank = l.rank();
  int64_t rows = rank >= 2 ? l.sizes[rank - 2] : 1;
  int64_t cols = rank >= 1 ? l.sizes[rank - 1] : 1;
  int64_t rowStride = rank >= 2 ? l.strides[rank - 2] : 0;
  int64_t colStride = rank >= 1 ? l.strides[rank - 1] : 0;
  int64_t shownRows = std::min(rows, kMaxRows);
  int64_t shownCols = std::min(cols, kMaxCols);
  int width = 3;
  for (int64_t r = 0; r < shownRows; ++r)
    for (int64_t c = 0; c < shownCols; ++c)
      width = std::max<int>(
          width,
          std::to_string(base + r * rowStride + c * colStride).size() + 1);
  os << llvm::formatv("{0,6}", "") << "|";
  for (int64_t c = 0; c < shownCols; ++c)
    os << llvm::right_justify(std::to_string(c), width);
  if (shownCols < cols)
    os << " ... (" << cols << " columns)";
  os << "\n"
     << std::string(6, '-') << "+" << std::string(width * shownCols, '-')
     << "\n";
  for (int64_t r = 0; r < shownRows; ++r) {
    os << llvm::right_justify(rank >= 2 ? std::to_string(r) : "", 5) << " |";
    for (int64_t c = 0; c < shownCols; ++c)
      os << llvm::right_justify(
          std::to_string(base + r * rowStride + c * colStride), width);
    os << "\n";
  }
  if (shownRows < rows)
    os << "   ... (" << rows << " rows)\n";
}

/// How many logical indices of a view read each storage element in
/// [0, shown) (the strip shows no more), or none counted when the view has
/// more than `limit` elements; views up to the limit (a million elements)
/// are counted in milliseconds, however many results a function has.
static std::vector<int64_t> readCounts(const StridedLayout &l, int64_t shown,
                                       int64_t limit) {
  std::vector<int64_t> counts(shown, 0);
  Fallible<int64_t> n = numel(l.sizes);
  if (!n || *n == 0 || *n > limit)
    return counts;
  anyStorageOffset(l, *n, [&](int64_t offset) {
    if (offset >= 0 && offset < shown)
      ++counts[offset];
    return false;
  });
  return counts;
}

static void printMemoryMapOf(raw_ostream &os, Value v, unsigned resultIndex,
                             StringRef funcName) {
  auto type = cast<StridedTensorType>(v.getType());
  StridedLayout l = type.getStridedLayout();
  Value root = getStorageRoot(v);
  os << "@" << funcName << " result " << resultIndex << ": sizes "
     << formatDims(l.sizes) << ", strides " << formatDims(l.strides)
     << ", offset " << (l.offset == kDynamic ? "?" : std::to_string(l.offset))
     << ", " << dtypeName(type.getElementType()) << ", ";
  if (auto arg = dyn_cast<BlockArgument>(root))
    os << "a view of argument " << arg.getArgNumber() << "'s storage\n";
  else
    os << "new storage\n";
  if (!l.isStatic()) {
    os << "  (dynamic layout: no map)\n\n";
    return;
  }
  os << "logical index -> storage offset\n";
  Fallible<int64_t> n = numel(l.sizes);
  if (n && *n == 0) {
    os << "  (no elements)\n";
  } else if (l.rank() <= 2) {
    printGrid(os, l, l.offset);
  } else {
    // Leading dims enumerate 2-D slices.
    StridedLayout lead(ArrayRef<int64_t>(l.sizes).drop_back(2),
                       ArrayRef<int64_t>(l.strides).drop_back(2), 0);
    Fallible<int64_t> slices = numel(lead.sizes);
    SmallVector<int64_t> index(lead.rank(), 0);
    for (int64_t s = 0; slices && s < std::min(*slices, kMaxSlices); ++s) {
      int64_t base = l.offset;
      os << "[";
      for (int64_t d = 0; d < lead.rank(); ++d) {
        base += index[d] * lead.strides[d];
        os << index[d] << ", ";
      }
      os << ":, :]\n";
      printGrid(os, l, base);
      for (int64_t d = lead.rank() - 1; d >= 0; --d) {
        if (++index[d] < lead.sizes[d])
          break;
        index[d] = 0;
      }
    }
    if (slices && *slices > kMaxSlices)
      os << "... (" << *slices << " slices)\n";
  }
  std::optional<int64_t> storage = getStorageSize(root);
  if (!storage) {
    os << "\n";
    return;
  }
  Fallible<int64_t> elements = numel(l.sizes);
  constexpr int64_t kMaxCounted = int64_t(1) << 20;
  if (!elements || *elements > kMaxCounted) {
    os << "storage of " << *storage << " elements (not drawn: the view has "
       << (elements ? std::to_string(*elements) : std::string("too many"))
       << " elements)\n\n";
    return;
  }
  os << "storage of " << *storage
     << " elements: how many logical indices read each element (. = none)\n";
  int64_t shown = std::min(*storage, kMaxStorage);
  std::vector<int64_t> counts = readCounts(l, shown, kMaxCounted);
  for (int64_t start = 0; start < shown; start += kStripWidth) {
    os << llvm::right_justify(std::to_string(start), 8) << ":";
    for (int64_t o = start; o < std::min(start + kStripWidth, shown); ++o)
      os << " " << (counts[o] ? std::to_string(counts[o]) : std::string("."));
    os << "\n";
  }
  if (shown < *storage)
    os << "   ... (" << *storage << " elements)\n";
  os << "\n";
}

void mlir::layout::printMemoryMap(ModuleOp module, raw_ostream &os) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
    for (auto [i, v] : llvm::enumerate(ret.getOperands()))
      printMemoryMapOf(os, v, i, func.getSymName());
  }
}
