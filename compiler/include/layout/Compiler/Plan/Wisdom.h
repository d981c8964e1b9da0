//===- Wisdom.h - Plans tuned by measurement, kept in a file ----*- C++ -*-===//
//
// A tuning file ("wisdom", after FFTW's) records, per target and kernel
// shape class, the planner parameters (knobs: TargetInfo fields) that made
// a copy kernel fastest on a machine. layout-plan-kernels reads it: a copy
// whose class has an entry is planned with the entry's knobs instead of
// the target's defaults. The knobs only change how a copy runs, never what
// it writes, so a tuned kernel's output is the default plan's, bit for bit.
// Reductions are not tuned: their chunking fixes their summation order.
// The format is docs/tuning.md's.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_PLAN_WISDOM_H
#define LAYOUT_COMPILER_PLAN_WISDOM_H

#include "layout/Compiler/Plan/KernelPlan.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace mlir {
namespace layout {

/// A planner parameter the tuner varies: its key in tuning files, the
/// TargetInfo field it sets, and the values the tuner tries besides the
/// target's own.
struct TuningKnob {
  llvm::StringRef name;
  int64_t &(*field)(TargetInfo &);
  llvm::ArrayRef<int64_t> candidates;
};

/// Every knob, in the order the tuner tries them.
llvm::ArrayRef<TuningKnob> tuningKnobs();

/// Knob values by name: what a tuned plan changes from the target's
/// defaults.
using KnobValues = std::map<std::string, int64_t>;

/// `target` with `knobs` set. Fails naming an unknown knob or a value the
/// planner cannot use (every knob is positive).
Fallible<TargetInfo> applyKnobs(TargetInfo target, const KnobValues &knobs);

/// The knobs of `tuned` that differ from `base`.
KnobValues knobDifferences(const TargetInfo &base, const TargetInfo &tuned);

/// The shape class of a planned copy, the key its tuning is found under:
/// "<strategy> <src bytes>><dst bytes> [<loop> ...]", one loop per planned
/// loop, outermost first (destination memory order), each
/// "<size class>:<source order>". The size class is the least power of two
/// at or above the size, with "+" after it when the size is not a whole
/// number of destination lines (lineElements); the source order is the
/// loop's rank by source stride magnitude (0: the smallest). P1's 4096 x
/// 4096 f32 transpose is "transpose 4>4 [4096:0 4096:1]".
std::string shapeClass(const KernelPlan &plan);

/// The class an entry gives for every copy of its target that has no entry
/// of its own.
inline constexpr llvm::StringLiteral kAnyShapeClass = "*";

/// One tuned plan: its knobs, and what the tuner measured (informational,
/// never read by the planner).
struct WisdomEntry {
  KnobValues knobs;
  /// The default and the tuned plan's bandwidths in gigabytes per second
  /// (0 where none was recorded), and the thread count they ran at.
  double defaultGBps = 0;
  double tunedGBps = 0;
  int64_t threads = 0;
};

/// A tuning file's entries, keyed by (target key, shape class).
class Wisdom {
public:
  using Key = std::pair<std::string, std::string>;

  /// Reads a tuning file's JSON; errors say where ("entries[2].knobs: ...").
  static Fallible<Wisdom> parse(llvm::StringRef text);
  /// parse of the file at `path`; errors name the file ("cannot read tuning
  /// file 'x.json': ...", "x.json: entries[2]...").
  static Fallible<Wisdom> readFile(llvm::StringRef path);
  /// The file's JSON: entries sorted by key, so equal wisdom prints equal
  /// bytes.
  std::string print() const;

  /// The entry for `shape` under `target`, else its `*` entry, else null.
  const WisdomEntry *lookup(llvm::StringRef target,
                            llvm::StringRef shape) const;
  void set(llvm::StringRef target, llvm::StringRef shape, WisdomEntry entry);
  void erase(llvm::StringRef target, llvm::StringRef shape);
  /// Adds the entries of `other` whose keys this has none for.
  void mergeMissing(const Wisdom &other);
  bool empty() const { return entries.empty(); }
  const std::map<Key, WisdomEntry> &all() const { return entries; }

private:
  std::map<Key, WisdomEntry> entries;
};

/// The target key of a CPU target in tuning files: the LLVM CPU name the
/// kernels are compiled for and the target description's preset name
/// ("znver4/x86-64-v4").
std::string wisdomTargetKey(llvm::StringRef cpu, const TargetInfo &target);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_PLAN_WISDOM_H
