//===- PlanAttr.cpp - Kernel plans as #layout.plan attributes -------------===//
//
// Keys are the explain JSON's where it has one (`vector_width`, `chunks`,
// `index_bits`, ...). Integers are i64, lists are `array<i64: ...>`, a loop
// is `array<i64: size, src_stride, dst_stride>`, and optional decisions are
// absent rather than null.
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Plan/PlanAttr.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::layout;

namespace {
/// Builds a dictionary of named decisions.
class Writer {
public:
  explicit Writer(MLIRContext *context) : b(context) {}
  void add(StringRef key, int64_t v) { add(key, b.getI64IntegerAttr(v)); }
  void add(StringRef key, bool v) { add(key, b.getBoolAttr(v)); }
  void add(StringRef key, StringRef v) { add(key, b.getStringAttr(v)); }
  void add(StringRef key, ArrayRef<int64_t> v) {
    add(key, b.getDenseI64ArrayAttr(v));
  }
  void add(StringRef key, Attribute v) {
    entries.push_back(b.getNamedAttr(key, v));
  }
  DictionaryAttr done() { return b.getDictionaryAttr(entries); }
  Builder b;

private:
  SmallVector<NamedAttribute> entries;
};

/// Reads a dictionary of named decisions; the first missing or mistyped key
/// makes `error` name it.
class Reader {
public:
  explicit Reader(DictionaryAttr dict) : dict(dict) {}
  int64_t integer(StringRef key) {
    auto v = dyn_cast_or_null<IntegerAttr>(dict.get(key));
    if (!v)
      return missing(key), 0;
    return v.getInt();
  }
  bool boolean(StringRef key) {
    auto v = dyn_cast_or_null<BoolAttr>(dict.get(key));
    if (!v)
      return missing(key), false;
    return v.getValue();
  }
  SmallVector<int64_t> list(StringRef key) {
    auto v = dyn_cast_or_null<DenseI64ArrayAttr>(dict.get(key));
    if (!v)
      return missing(key), SmallVector<int64_t>();
    return SmallVector<int64_t>(v.asArrayRef());
  }
  bool has(StringRef key) const { return static_cast<bool>(dict.get(key)); }
  void missing(StringRef key) {
    if (error.empty())
      error = key.str();
  }
  DictionaryAttr dict;
  std::string error;
};
} // namespace

static DictionaryAttr encodeTiling(Builder &b, const TransposeTiling &t) {
  Writer w(b.getContext());
  w.add("edge", t.edge);
  w.add("width", t.width);
  w.add("stream_width", t.streamWidth);
  w.add("interleave", t.interleave);
  w.add("inside", ArrayRef<int64_t>(t.inside));
  w.add("outside", ArrayRef<int64_t>(t.outside));
  w.add("whole_lines", t.wholeLines);
  w.add("skewed", t.skewed);
  w.add("skew_lines", t.skewLines);
  w.add("skew_chunk_lines", t.skewChunkLines);
  w.add("masked_edges", t.maskedEdges);
  w.add("staged", t.staged);
  w.add("stage_rows", t.stageRows);
  w.add("rows_first", t.rowsFirst);
  w.add("inside_blocks", t.insideBlocks);
  return w.done();
}

static TransposeTiling decodeTiling(Reader &r) {
  TransposeTiling t;
  t.edge = r.integer("edge");
  t.width = r.integer("width");
  t.streamWidth = r.integer("stream_width");
  t.interleave = r.boolean("interleave");
  for (int64_t i : r.list("inside"))
    t.inside.push_back(i);
  for (int64_t i : r.list("outside"))
    t.outside.push_back(i);
  t.wholeLines = r.boolean("whole_lines");
  t.skewed = r.boolean("skewed");
  t.skewLines = r.integer("skew_lines");
  t.skewChunkLines = r.integer("skew_chunk_lines");
  t.maskedEdges = r.boolean("masked_edges");
  t.staged = r.boolean("staged");
  t.stageRows = r.integer("stage_rows");
  t.rowsFirst = r.boolean("rows_first");
  t.insideBlocks = r.boolean("inside_blocks");
  return t;
}

/// The integer parameters of a target, each under one key: encode and
/// decode walk the same table.
template <typename T> using IntField = std::pair<const char *, int64_t T::*>;
using CPUTuning = TargetInfo::CPUTuning;
using GPUTuning = TargetInfo::GPUTuning;
using CPUFacts = KernelPlan::CPUFacts;

static const IntField<CPUFacts> kCPUFacts[] = {
    {"l2_bytes", &CPUFacts::l2Bytes},
    {"l1_ways", &CPUFacts::l1Ways},
    {"vector_registers", &CPUFacts::vectorRegisters}};

static const IntField<CPUTuning> kCPUTuning[] = {
    {"libc_copy_bytes", &CPUTuning::libcCopyBytes},
    {"max_deinterleave", &CPUTuning::maxDeinterleave},
    {"reduce_accumulators", &CPUTuning::reduceAccumulators},
    {"reduce_block", &CPUTuning::reduceBlock},
    {"reduce_row_group", &CPUTuning::reduceRowGroup},
    {"reduce_group_prefetch_bytes", &CPUTuning::reduceGroupPrefetchBytes},
    {"reduce_long_accumulator_bytes", &CPUTuning::reduceLongAccumulatorBytes},
    {"reduce_long_input_bytes", &CPUTuning::reduceLongInputBytes},
    {"run_prefetch_bytes", &CPUTuning::runPrefetchBytes},
    {"panel_rows", &CPUTuning::panelRows},
    {"row_prefetch_bytes", &CPUTuning::rowPrefetchBytes},
    {"block_prefetch_min_bytes", &CPUTuning::blockPrefetchMinBytes},
    {"block_prefetch_max_bytes", &CPUTuning::blockPrefetchMaxBytes}};

static const IntField<GPUTuning> kGPUTuning[] = {
    {"block", &GPUTuning::block},
    {"max_blocks", &GPUTuning::maxBlocks},
    {"tile", &GPUTuning::tile},
    {"tile_rows", &GPUTuning::tileRows},
    {"min_tile_side", &GPUTuning::minTileSide},
    {"far_row_bytes", &GPUTuning::farRowBytes},
    {"vectors_per_thread", &GPUTuning::vectorsPerThread},
    {"reduce_unroll", &GPUTuning::reduceUnroll},
    {"fold_threads_min", &GPUTuning::foldThreadsMin},
    {"fold_unroll", &GPUTuning::foldUnroll}};

template <typename T, size_t N>
static void writeFields(Writer &w, const T &value,
                        const IntField<T> (&fields)[N]) {
  for (const auto &[key, member] : fields)
    w.add(key, value.*member);
}

template <typename T, size_t N>
static void readFields(Reader &r, T &value, const IntField<T> (&fields)[N]) {
  for (const auto &[key, member] : fields)
    value.*member = r.integer(key);
}

static DictionaryAttr encodeCPUFacts(Builder &b, const CPUFacts &c) {
  Writer w(b.getContext());
  writeFields(w, c, kCPUFacts);
  writeFields(w, c.tuning, kCPUTuning);
  return w.done();
}

static CPUFacts decodeCPUFacts(Reader &r) {
  CPUFacts c;
  readFields(r, c, kCPUFacts);
  readFields(r, c.tuning, kCPUTuning);
  return c;
}

static DictionaryAttr encodeGPUTuning(Builder &b, const GPUTuning &t) {
  Writer w(b.getContext());
  writeFields(w, t, kGPUTuning);
  return w.done();
}

static GPUTuning decodeGPUTuning(Reader &r) {
  GPUTuning t;
  readFields(r, t, kGPUTuning);
  return t;
}

PlanAttr mlir::layout::encodePlan(MLIRContext *context,
                                  const KernelPlan &plan) {
  Writer w(context);
  w.add("strategy", stringifyKernelStrategy(plan.strategy));
  w.add("convert", plan.convert);
  w.add("src_bytes", plan.srcElementBytes);
  w.add("dst_bytes", plan.dstElementBytes);
  if (plan.accumulator)
    w.add("accumulator", StringRef(*plan.accumulator));
  SmallVector<Attribute> loops;
  SmallVector<int64_t> reduced;
  for (auto [i, l] : llvm::enumerate(plan.loops)) {
    loops.push_back(
        w.b.getDenseI64ArrayAttr({l.size, l.srcStride, l.dstStride}));
    if (l.reduced)
      reduced.push_back(i);
  }
  w.add("loops", w.b.getArrayAttr(loops));
  w.add("reduced_loops", ArrayRef<int64_t>(reduced));
  if (plan.tiledLoops)
    w.add("tiled_loops",
          ArrayRef<int64_t>{plan.tiledLoops->first, plan.tiledLoops->second});
  w.add("square_edge", plan.squareEdge);
  w.add("tile", ArrayRef<int64_t>(plan.tile));
  w.add("vector_width", plan.vectorWidth);
  if (plan.parallelLoop)
    w.add("parallel_dim", *plan.parallelLoop);
  w.add("chunks", plan.chunks);
  w.add("index_bits", int64_t(plan.index32 ? 32 : 64));
  w.add("streaming_stores", plan.streamingStores);
  w.add("stream_lines", plan.streamLines);
  w.add("joins_runs", plan.joinsRuns);
  if (plan.tiling)
    w.add("tiling", encodeTiling(w.b, *plan.tiling));
  if (plan.cpu)
    w.add("cpu", encodeCPUFacts(w.b, *plan.cpu));
  if (plan.gpu)
    w.add("gpu", encodeGPUTuning(w.b, *plan.gpu));
  if (plan.tuned) {
    Writer knobs(context);
    for (const auto &[name, value] : *plan.tuned)
      knobs.add(name, value);
    w.add("tuned", knobs.done());
  }
  return PlanAttr::get(context, w.done());
}

static std::optional<KernelStrategy> parseStrategy(StringRef name) {
  for (KernelStrategy s :
       {KernelStrategy::Memcpy, KernelStrategy::Transpose,
        KernelStrategy::Gather, KernelStrategy::Broadcast,
        KernelStrategy::ReduceInner, KernelStrategy::ReduceOuter})
    if (stringifyKernelStrategy(s) == name)
      return s;
  return std::nullopt;
}

/// The plan in `dict`, or the first key that is missing or malformed.
static Fallible<KernelPlan> decode(DictionaryAttr dict) {
  Reader r(dict);
  KernelPlan plan;
  auto strategy = dyn_cast_or_null<StringAttr>(dict.get("strategy"));
  std::optional<KernelStrategy> s =
      strategy ? parseStrategy(strategy.getValue()) : std::nullopt;
  if (!s)
    return fail("strategy");
  plan.strategy = *s;
  plan.convert = r.boolean("convert");
  plan.srcElementBytes = r.integer("src_bytes");
  plan.dstElementBytes = r.integer("dst_bytes");
  if (r.has("accumulator")) {
    auto acc = dyn_cast<StringAttr>(dict.get("accumulator"));
    if (!acc)
      return fail("accumulator");
    plan.accumulator = acc.getValue().str();
  }
  auto loops = dyn_cast_or_null<ArrayAttr>(dict.get("loops"));
  if (!loops)
    return fail("loops");
  for (Attribute a : loops) {
    auto l = dyn_cast<DenseI64ArrayAttr>(a);
    if (!l || l.size() != 3)
      return fail("loops");
    plan.loops.push_back({l[0], l[1], l[2]});
  }
  for (int64_t i : r.list("reduced_loops")) {
    if (i < 0 || i >= static_cast<int64_t>(plan.loops.size()))
      return fail("reduced_loops");
    plan.loops[i].reduced = true;
  }
  if (r.has("tiled_loops")) {
    SmallVector<int64_t> t = r.list("tiled_loops");
    if (t.size() != 2)
      return fail("tiled_loops");
    plan.tiledLoops = {t[0], t[1]};
  }
  plan.squareEdge = r.integer("square_edge");
  for (int64_t t : r.list("tile"))
    plan.tile.push_back(t);
  plan.vectorWidth = r.integer("vector_width");
  if (r.has("parallel_dim"))
    plan.parallelLoop = r.integer("parallel_dim");
  plan.chunks = r.integer("chunks");
  plan.index32 = r.integer("index_bits") == 32;
  plan.streamingStores = r.boolean("streaming_stores");
  plan.streamLines = r.integer("stream_lines");
  plan.joinsRuns = r.boolean("joins_runs");
  if (r.has("tiling")) {
    auto tiling = dyn_cast<DictionaryAttr>(dict.get("tiling"));
    if (!tiling)
      return fail("tiling");
    Reader tr(tiling);
    plan.tiling = decodeTiling(tr);
    if (!tr.error.empty())
      return fail("tiling." + tr.error);
  }
  if (r.has("cpu")) {
    auto cpu = dyn_cast<DictionaryAttr>(dict.get("cpu"));
    if (!cpu)
      return fail("cpu");
    Reader cr(cpu);
    plan.cpu = decodeCPUFacts(cr);
    if (!cr.error.empty())
      return fail("cpu." + cr.error);
  }
  if (r.has("gpu")) {
    auto gpu = dyn_cast<DictionaryAttr>(dict.get("gpu"));
    if (!gpu)
      return fail("gpu");
    Reader gr(gpu);
    plan.gpu = decodeGPUTuning(gr);
    if (!gr.error.empty())
      return fail("gpu." + gr.error);
  }
  if (r.has("tuned")) {
    auto tuned = dyn_cast<DictionaryAttr>(dict.get("tuned"));
    if (!tuned)
      return fail("tuned");
    plan.tuned.emplace();
    for (NamedAttribute knob : tuned) {
      auto value = dyn_cast<IntegerAttr>(knob.getValue());
      if (!value)
        return fail("tuned." + knob.getName().str());
      (*plan.tuned)[knob.getName().str()] = value.getInt();
    }
  }
  if (!r.error.empty())
    return fail(r.error);
  return plan;
}

std::optional<KernelPlan> mlir::layout::lookupPlan(Operation *op) {
  auto attr = op->getAttrOfType<PlanAttr>(kPlanAttrName);
  if (!attr)
    return std::nullopt;
  Fallible<KernelPlan> plan = decode(attr.getDecisions());
  if (!plan)
    return std::nullopt;
  return std::move(*plan);
}

FailureOr<KernelPlan> mlir::layout::decodePlan(Operation *op) {
  auto attr = op->getAttrOfType<PlanAttr>(kPlanAttrName);
  if (!attr)
    return op->emitError("has no kernel plan (the `")
           << kPlanAttrName << "` attribute layout-plan-kernels attaches)";
  Fallible<KernelPlan> plan = decode(attr.getDecisions());
  if (!plan)
    return op->emitError("malformed #layout.plan: key '")
           << plan.message() << "' is missing or has the wrong type";
  return std::move(*plan);
}
