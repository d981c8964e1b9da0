//===- Wisdom.cpp - Plans tuned by measurement, kept in a file ------------===//

#include "layout/Compiler/Plan/Wisdom.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::layout;

namespace {
constexpr int64_t KiB = 1 << 10, MiB = 1 << 20;

// The values each knob tries: around the default, by factors of 2 to 4,
// wide enough to move a decision (stream or not, skew or not, pairs or
// single lines) for the cases where the defaults are off.
const int64_t kCacheBytes[] = {4 * MiB, 16 * MiB, 64 * MiB, 256 * MiB};
const int64_t kMinBytesPerChunk[] = {64 * KiB, 1 * MiB};
const int64_t kLongRunBytes[] = {2 * KiB, 8 * KiB};
const int64_t kStreamLines[] = {1, 2, 4};
const int64_t kStreamTileSquares[] = {4, 16};
const int64_t kLanesStreamLines[] = {1, 2};
const int64_t kPairedLinesMinChunks[] = {1, 64};
const int64_t kStageBytes[] = {8 * KiB, 32 * KiB};
const int64_t kSkewLines[] = {4, 16};
const int64_t kSkewWindowBytes[] = {16 * KiB, 256 * KiB};
const int64_t kPanelRows[] = {512, 8192};
const int64_t kRowPrefetchBytes[] = {512, 2 * KiB, 4 * KiB};
const int64_t kBlockPrefetchMinBytes[] = {4 * KiB, 16 * KiB};
const int64_t kBlockPrefetchMaxBytes[] = {32 * KiB, 128 * KiB};
const int64_t kLibcCopyBytes[] = {1 * KiB, 16 * KiB};

#define TARGET_FIELD(member) [](TargetInfo &t) -> int64_t & { return t.member; }

const TuningKnob kKnobs[] = {
    {"cache_bytes", TARGET_FIELD(cacheBytes), kCacheBytes},
    {"min_bytes_per_chunk", TARGET_FIELD(minBytesPerChunk), kMinBytesPerChunk},
    {"long_run_bytes", TARGET_FIELD(longRunBytes), kLongRunBytes},
    {"stream_lines", TARGET_FIELD(streamLines), kStreamLines},
    {"stream_tile_squares", TARGET_FIELD(streamTileSquares),
     kStreamTileSquares},
    {"lanes_stream_lines", TARGET_FIELD(lanesStreamLines), kLanesStreamLines},
    {"paired_lines_min_chunks", TARGET_FIELD(pairedLinesMinChunks),
     kPairedLinesMinChunks},
    {"stage_bytes", TARGET_FIELD(stageBytes), kStageBytes},
    {"skew_lines", TARGET_FIELD(skewLines), kSkewLines},
    {"skew_window_bytes", TARGET_FIELD(skewWindowBytes), kSkewWindowBytes},
    {"panel_rows", TARGET_FIELD(cpu.panelRows), kPanelRows},
    {"row_prefetch_bytes", TARGET_FIELD(cpu.rowPrefetchBytes),
     kRowPrefetchBytes},
    {"block_prefetch_min_bytes", TARGET_FIELD(cpu.blockPrefetchMinBytes),
     kBlockPrefetchMinBytes},
    {"block_prefetch_max_bytes", TARGET_FIELD(cpu.blockPrefetchMaxBytes),
     kBlockPrefetchMaxBytes},
    {"libc_copy_bytes", TARGET_FIELD(cpu.libcCopyBytes), kLibcCopyBytes},
};
#undef TARGET_FIELD

const TuningKnob *findKnob(llvm::StringRef name) {
  for (const TuningKnob &knob : kKnobs)
    if (knob.name == name)
      return &knob;
  return nullptr;
}

/// The least power of two at or above `size` (1 for 0 and 1).
int64_t sizeClass(int64_t size) {
  return size <= 1 ? 1 : static_cast<int64_t>(llvm::PowerOf2Ceil(size));
}
} // namespace

llvm::ArrayRef<TuningKnob> mlir::layout::tuningKnobs() { return kKnobs; }

Fallible<TargetInfo> mlir::layout::applyKnobs(TargetInfo target,
                                              const KnobValues &knobs) {
  for (const auto &[name, value] : knobs) {
    const TuningKnob *knob = findKnob(name);
    if (!knob) {
      std::string known;
      for (const TuningKnob &k : kKnobs)
        known += (known.empty() ? "" : ", ") + k.name.str();
      return fail("unknown knob '" + name + "'; expected one of " + known);
    }
    if (value <= 0)
      return fail("knob '" + name + "' must be positive, got " +
                  std::to_string(value));
    knob->field(target) = value;
  }
  return target;
}

KnobValues mlir::layout::knobDifferences(const TargetInfo &base,
                                         const TargetInfo &tuned) {
  KnobValues out;
  TargetInfo b = base, t = tuned;
  for (const TuningKnob &knob : kKnobs)
    if (knob.field(b) != knob.field(t))
      out[knob.name.str()] = knob.field(t);
  return out;
}

std::string mlir::layout::shapeClass(const KernelPlan &plan) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << stringifyKernelStrategy(plan.strategy) << ' ' << plan.srcElementBytes
     << '>' << plan.dstElementBytes << " [";
  int64_t line = lineElements(plan.dstElementBytes);
  for (auto [i, loop] : llvm::enumerate(plan.loops)) {
    int64_t rank = 0;
    for (auto [j, other] : llvm::enumerate(plan.loops)) {
      int64_t x = std::abs(other.srcStride), y = std::abs(loop.srcStride);
      rank += x < y || (x == y && j < i);
    }
    os << (i ? " " : "") << sizeClass(loop.size)
       << (loop.size % line ? "+" : "") << ':' << rank;
  }
  os << ']';
  return out;
}

std::string mlir::layout::wisdomTargetKey(llvm::StringRef cpu,
                                          const TargetInfo &target) {
  return (cpu + "/" + target.name).str();
}

const WisdomEntry *Wisdom::lookup(llvm::StringRef target,
                                  llvm::StringRef shape) const {
  auto it = entries.find({target.str(), shape.str()});
  if (it == entries.end())
    it = entries.find({target.str(), kAnyShapeClass.str()});
  return it == entries.end() ? nullptr : &it->second;
}

void Wisdom::set(llvm::StringRef target, llvm::StringRef shape,
                 WisdomEntry entry) {
  entries[{target.str(), shape.str()}] = std::move(entry);
}

void Wisdom::erase(llvm::StringRef target, llvm::StringRef shape) {
  entries.erase({target.str(), shape.str()});
}

void Wisdom::mergeMissing(const Wisdom &other) {
  for (const auto &[key, entry] : other.entries)
    entries.insert({key, entry});
}

static constexpr llvm::StringLiteral kFormatKey = "layoutc_wisdom";
static constexpr int64_t kFormatVersion = 1;

/// One entry of a tuning file's `entries`, or an error naming the bad key.
static Fallible<std::pair<Wisdom::Key, WisdomEntry>>
parseEntry(const llvm::json::Value &value, const std::string &where) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return fail(where + ": expected an object");
  std::optional<llvm::StringRef> target = object->getString("target");
  std::optional<llvm::StringRef> shape = object->getString("class");
  if (!target || target->empty())
    return fail(where + ".target: expected a non-empty string");
  if (!shape || shape->empty())
    return fail(where + ".class: expected a non-empty string");
  const llvm::json::Object *knobs = object->getObject("knobs");
  if (!knobs)
    return fail(where + ".knobs: expected an object");
  WisdomEntry entry;
  for (const auto &[name, v] : *knobs) {
    std::optional<int64_t> i = v.getAsInteger();
    if (!i)
      return fail(where + ".knobs." + name.str() + ": expected an integer");
    entry.knobs[name.str()] = *i;
  }
  // The knobs must be ones the planner can use now, not when a kernel is
  // planned.
  if (Fallible<TargetInfo> t = applyKnobs(TargetInfo(), entry.knobs); !t)
    return fail(where + ".knobs: " + t.message());
  if (const llvm::json::Object *m = object->getObject("measured")) {
    entry.defaultGBps = m->getNumber("default_gbps").value_or(0);
    entry.tunedGBps = m->getNumber("tuned_gbps").value_or(0);
    entry.threads = m->getInteger("threads").value_or(0);
  }
  return std::make_pair(Wisdom::Key(target->str(), shape->str()),
                        std::move(entry));
}

Fallible<Wisdom> Wisdom::parse(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json)
    return fail("not JSON: " + llvm::toString(json.takeError()));
  const llvm::json::Object *root = json->getAsObject();
  if (!root)
    return fail("expected a JSON object");
  std::optional<int64_t> version = root->getInteger(kFormatKey);
  if (version != kFormatVersion)
    return fail(("expected \"" + kFormatKey + "\": " +
                 std::to_string(kFormatVersion) + " (a layoutc tuning file)")
                    .str());
  const llvm::json::Array *list = root->getArray("entries");
  if (!list)
    return fail("entries: expected an array");
  Wisdom wisdom;
  for (auto [i, value] : llvm::enumerate(*list)) {
    auto entry = parseEntry(value, "entries[" + std::to_string(i) + "]");
    if (!entry)
      return fail(entry.message());
    auto [key, e] = std::move(entry).value();
    if (wisdom.entries.count(key))
      return fail("entries[" + std::to_string(i) + "]: a second entry for '" +
                  key.first + "', '" + key.second + "'");
    wisdom.entries[key] = std::move(e);
  }
  return wisdom;
}

Fallible<Wisdom> Wisdom::readFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return fail("cannot read tuning file '" + path.str() +
                "': " + buffer.getError().message());
  Fallible<Wisdom> wisdom = parse((*buffer)->getBuffer());
  if (!wisdom)
    return fail(path.str() + ": " + wisdom.message());
  return wisdom;
}

std::string Wisdom::print() const {
  std::string out;
  llvm::raw_string_ostream os(out);
  // Written in a fixed key order, with the measurements at two decimals
  // (they are for people, and noisy beyond that): equal wisdom prints equal
  // bytes, and the file diffs well.
  llvm::json::OStream j(os, /*IndentSize=*/2);
  auto number = [&](llvm::StringRef key, double value) {
    j.attributeBegin(key);
    j.rawValue(llvm::formatv("{0:F2}", value).str());
    j.attributeEnd();
  };
  j.object([&] {
    j.attribute(kFormatKey, kFormatVersion);
    j.attributeArray("entries", [&] {
      for (const auto &[key, entry] : entries)
        j.object([&] {
          j.attribute("target", key.first);
          j.attribute("class", key.second);
          j.attributeObject("knobs", [&] {
            for (const auto &[name, value] : entry.knobs)
              j.attribute(name, value);
          });
          if (entry.defaultGBps > 0 || entry.tunedGBps > 0)
            j.attributeObject("measured", [&] {
              number("default_gbps", entry.defaultGBps);
              number("tuned_gbps", entry.tunedGBps);
              j.attribute("threads", entry.threads);
            });
        });
    });
  });
  os << "\n";
  return out;
}
