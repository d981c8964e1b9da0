//===- DynamicPlan.cpp - Copies planned for every size --------------------===//
//
// planDynamicCopy (KernelPlan.h): symbolic loops, and planCopy's decisions
// for them at representative sizes; the loops that chunks of run-time-extent
// kernels split (runtimeSplitLoops).
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Plan/KernelPlan.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace mlir::layout;

namespace {
/// One loop: symbolic extents and their representative values.
struct Loop {
  SymExpr size, src, dst;
  int64_t rsize = 0, rsrc = 0, rdst = 0;
};
} // namespace

/// Values of every symbol for representative input sizes: distinct primes
/// (for strides too: a declared dynamic stride) from about the n-th root of
/// 2^24 for n input symbols, and at least 37, so that no stride equality or
/// size 1 holds by accident and the planner sees a tensor of about 2^24
/// elements, the size where bandwidth matters (its parallel loop, its
/// strategy for long rows).
static Fallible<std::vector<int64_t>> representative(const SymTable &t) {
  int64_t n = llvm::count_if(t.symbols(), [](const SymTable::Symbol &s) {
    return s.op == SymTable::Op::Input;
  });
  if (n > 24)
    return fail("too many dynamic sizes to plan (" + std::to_string(n) +
                ", at most 24)");
  auto isPrime = [](int64_t v) {
    for (int64_t d = 2; d * d <= v; ++d)
      if (v % d == 0)
        return false;
    return v > 1;
  };
  int64_t next = std::max<int64_t>(
      37,
      std::llround(std::pow(double(1 << 24), 1.0 / std::max<int64_t>(n, 1))));
  std::vector<int64_t> inputs;
  for (int64_t i = 0; i < n; ++i, ++next) {
    while (!isPrime(next))
      ++next;
    inputs.push_back(next);
  }
  // Sizes that pass the checks plan the common case; where the primes fail
  // one (an expand to 4 needs 1 or 4), the plan is still sound, as each
  // static fact it relies on is verified for every size (verifyFacts).
  Fallible<std::vector<int64_t>> values = t.evaluate(inputs);
  if (!values)
    values = t.evaluate(inputs, /*checks=*/false);
  if (!values)
    return fail("no representative sizes to plan with (" + values.message() +
                ")");
  return values;
}

/// A loop's static facts must hold for every size: a representative stride
/// of 0 or 1 must be that constant, and a representative size of 1 too.
static Fallible<std::monostate> verifyFacts(const SymTable &t, const Loop &l) {
  auto exact = [&](const SymExpr &e, int64_t v,
                   llvm::StringRef what) -> Fallible<std::monostate> {
    if ((v == 0 || v == 1 || v == -1) && !e.isConstant(v))
      return fail("the " + what.str() + " " + t.str(e) + " is " +
                  std::to_string(v) +
                  " for some sizes only, which a plan for every size cannot "
                  "tell apart");
    return std::monostate();
  };
  if (Fallible<std::monostate> r = exact(l.size, l.rsize, "size"); !r)
    return r;
  if (Fallible<std::monostate> r = exact(l.src, l.rsrc, "source stride"); !r)
    return r;
  return exact(l.dst, l.rdst, "destination stride");
}

namespace {
/// The dims of same-sized symbolic layouts as loops at representative sizes:
/// dims of size 1 for every size dropped, the rest in decreasing |stride| of
/// side `key` (stable), adjacent loops merged where both sides are
/// contiguous across them for every size (TensorIterator's rule, proven
/// symbolically).
struct Loops {
  const SymTable &t;
  std::vector<int64_t> values;
  llvm::SmallVector<Loop, 6> loops;
  /// Whether a loop of size 0 for every size may be a reduced one
  /// (destination stride 0).
  bool emptyReduced = false;

  Fallible<std::monostate> build(llvm::ArrayRef<SymExpr> sizes,
                                 llvm::ArrayRef<SymExpr> src,
                                 llvm::ArrayRef<SymExpr> dst, bool bySource) {
    Fallible<std::vector<int64_t>> rep = representative(t);
    if (!rep)
      return fail(rep.message());
    values = std::move(*rep);
    for (size_t d = 0; d < sizes.size(); ++d) {
      Loop l{sizes[d], src[d], dst[d]};
      Fallible<int64_t> size = SymTable::evaluate(l.size, values);
      Fallible<int64_t> s = SymTable::evaluate(l.src, values);
      Fallible<int64_t> dd = SymTable::evaluate(l.dst, values);
      if (!size || !s || !dd)
        return fail(!size ? size.message() : !s ? s.message() : dd.message());
      l.rsize = *size;
      l.rsrc = *s;
      l.rdst = *dd;
      // A reduced dim of size 0 for every size reads nothing, but the
      // reduction still writes its identity to each output, and the
      // run-time kernels take any extent 0: plan as for a general size.
      if (l.size.isConstant(0) && !(emptyReduced && l.dst.isConstant(0)))
        return fail("the kernel has no elements for every size: nothing to "
                    "plan");
      if (l.size.isConstant(0))
        l.rsize = 1009 + 2 * static_cast<int64_t>(d);
      if (l.size.isConstant(1))
        continue;
      // A value that is 0, 1 or -1 at the representative sizes only would
      // make the plan assume it (a broadcast, a unit stride, a dropped dim):
      // plan with a general value instead, distinct for each loop. A size
      // gets a large one; a stride a small one, 2 for the last dim and
      // growing outwards (negated for -1), so that the loop keeps about its
      // place in the stride order (a stride decided at run time that is 1
      // at these sizes is most likely the innermost).
      if (l.rsize >= -1 && l.rsize <= 1 && !l.size.constant())
        l.rsize = 1009 + 2 * static_cast<int64_t>(d);
      auto general = [&](int64_t &v, const SymExpr &e) {
        int64_t small = 2 + static_cast<int64_t>(sizes.size() - 1 - d);
        if (v >= -1 && v <= 1 && !e.constant())
          v = v < 0 ? -small : small;
      };
      general(l.rsrc, l.src);
      general(l.rdst, l.dst);
      if (Fallible<std::monostate> r = verifyFacts(t, l); !r)
        return fail(r.message());
      loops.push_back(l);
    }
    std::stable_sort(
        loops.begin(), loops.end(), [&](const Loop &a, const Loop &b) {
          return bySource ? std::llabs(a.rsrc) > std::llabs(b.rsrc)
                          : std::llabs(a.rdst) > std::llabs(b.rdst);
        });
    for (size_t i = loops.size(); i-- > 1;) {
      Loop &outer = loops[i - 1], &inner = loops[i];
      if (t.decide(SymCond::eq(outer.src, inner.size * inner.src)) == true &&
          t.decide(SymCond::eq(outer.dst, inner.size * inner.dst)) == true) {
        inner.size = outer.size * inner.size;
        inner.rsize *= outer.rsize;
        loops.erase(loops.begin() + (i - 1));
      }
    }
    breakCoincidences();
    return std::monostate();
  }

  /// Representative values can make loops look contiguous that the algebra
  /// cannot merge for every size (a size min(100, x[1]) is x[1] at the
  /// primes, under a stride x[1]): the planner would merge them, and its
  /// loops would match no symbolic loop. Each such coincidence is broken by
  /// the smallest change of a value that is not constant: the outer loop's
  /// stride grows in magnitude on a side the algebra cannot prove
  /// contiguous, else the inner loop's size grows.
  void breakCoincidences() {
    auto away = [](int64_t v) { return v < 0 ? v - 1 : v + 1; };
    for (int round = 0; round < 64; ++round) {
      bool changed = false;
      for (Loop &a : loops)
        for (Loop &b : loops) {
          if (&a == &b || a.rsrc != b.rsize * b.rsrc ||
              a.rdst != b.rsize * b.rdst)
            continue;
          bool src = t.decide(SymCond::eq(a.src, b.size * b.src)) == true;
          bool dst = t.decide(SymCond::eq(a.dst, b.size * b.dst)) == true;
          if (src && dst)
            continue;
          if (!src && !a.src.constant())
            a.rsrc = away(a.rsrc);
          else if (!dst && !a.dst.constant())
            a.rdst = away(a.rdst);
          else if (!b.size.constant())
            ++b.rsize;
          else
            continue;
          changed = true;
        }
      if (!changed)
        return;
    }
  }

  /// The symbolic loops in the order of `plan`'s, matched by their
  /// representative extents, which are distinct.
  Fallible<DynamicKernelPlan> match(KernelPlan plan) const {
    DynamicKernelPlan out;
    out.plan = std::move(plan);
    out.representative = values;
    llvm::SmallVector<bool, 6> used(loops.size(), false);
    for (const KernelLoop &pl : out.plan.loops) {
      std::optional<size_t> found;
      for (auto [i, l] : llvm::enumerate(loops))
        if (!used[i] && l.rsize == pl.size && l.rsrc == pl.srcStride &&
            l.rdst == pl.dstStride)
          found = found ? std::optional<size_t>() : std::optional<size_t>(i);
      if (!found)
        return fail("the planner's loops for representative sizes do not "
                    "match the symbolic loops");
      used[*found] = true;
      out.sizes.push_back(loops[*found].size);
      out.srcStrides.push_back(loops[*found].src);
      out.dstStrides.push_back(loops[*found].dst);
    }
    if (llvm::count(used, false))
      return fail("the planner merged loops the algebra cannot prove "
                  "mergeable for every size");
    return out;
  }
};
} // namespace

Fallible<DynamicKernelPlan>
mlir::layout::planDynamicCopy(const SymTable &t, const SymLayout &src,
                              const SymLayout &dst, int64_t srcBytes,
                              int64_t dstBytes, const TargetInfo &target,
                              std::optional<bool> convert) {
  if (src.rank() != dst.rank() || !llvm::equal(src.sizes, dst.sizes))
    return fail("copy between different symbolic sizes");
  Loops n{t, {}, {}};
  if (Fallible<std::monostate> r =
          n.build(src.sizes, src.strides, dst.strides, /*bySource=*/false);
      !r)
    return fail(r.message());
  if (n.loops.empty())
    n.loops.push_back(Loop{SymExpr(1), SymExpr(1), SymExpr(1), 1, 1, 1});
  // planCopy at the representative values of these loops, one dim each:
  // with distinct primes no further dims merge.
  StridedLayout rsrc, rdst;
  for (const Loop &l : n.loops) {
    rsrc.sizes.push_back(l.rsize);
    rdst.sizes.push_back(l.rsize);
    rsrc.strides.push_back(l.rsrc);
    rdst.strides.push_back(l.rdst);
  }
  Fallible<KernelPlan> plan =
      planCopy(rsrc, rdst, srcBytes, dstBytes, target, convert);
  if (!plan)
    return fail(plan.message());
  return n.match(std::move(*plan));
}

Fallible<DynamicKernelPlan> mlir::layout::planDynamicReduction(
    const SymTable &t, const SymLayout &input, llvm::ArrayRef<int64_t> dims,
    llvm::ArrayRef<SymExpr> kept, ReductionKind kind,
    const ElementInfo &element, const TargetInfo &target) {
  if (static_cast<int64_t>(dims.size() + kept.size()) != input.rank())
    return fail("expected " + std::to_string(input.rank() - dims.size()) +
                " kept strides, got " + std::to_string(kept.size()));
  // The result seen at the input's rank: stride 0 along reduced dims.
  llvm::SmallVector<SymExpr, 6> out;
  for (int64_t d = 0, k = 0; d < input.rank(); ++d)
    out.push_back(llvm::is_contained(dims, d) ? SymExpr(0) : kept[k++]);
  Loops n{t, {}, {}, /*emptyReduced=*/true};
  if (Fallible<std::monostate> r =
          n.build(input.sizes, input.strides, out, /*bySource=*/true);
      !r)
    return fail(r.message());
  // planReduction over these loops, one dim each, the result's strides
  // given: with distinct primes no further dims merge. Where every reduced
  // dim has size 1 for every size, a size-1 reduced dim (which planning
  // drops) says which dims are reduced; with no loops at all, it is the
  // single element the planner reduces.
  if (n.loops.empty())
    n.loops.push_back(Loop{SymExpr(1), SymExpr(1), SymExpr(0), 1, 1, 0});
  StridedLayout rin;
  Dims reduced, resultStrides;
  for (auto [i, l] : llvm::enumerate(n.loops)) {
    rin.sizes.push_back(l.rsize);
    rin.strides.push_back(l.rsrc);
    if (l.dst.isConstant(0))
      reduced.push_back(i);
    else
      resultStrides.push_back(l.rdst);
  }
  if (reduced.empty()) {
    reduced.push_back(rin.rank());
    rin.sizes.push_back(1);
    rin.strides.push_back(1);
  }
  Fallible<KernelPlan> plan =
      planReduction(rin, reduced, kind, element, target, resultStrides);
  if (!plan)
    return fail(plan.message());
  return n.match(std::move(*plan));
}

RuntimeSplitLoops mlir::layout::runtimeSplitLoops(const KernelPlan &plan,
                                                  bool serial) {
  const auto &loops = plan.loops;
  RuntimeSplitLoops split;
  if (serial || loops.empty())
    return split;
  bool reduction = plan.strategy == KernelStrategy::ReduceInner ||
                   plan.strategy == KernelStrategy::ReduceOuter;
  int64_t n = loops.size();
  if (plan.parallelLoop) {
    split.loop = *plan.parallelLoop;
  } else if (reduction) {
    split.loop = 0;
    if (!loops.front().reduced)
      for (int64_t i = 0; i < n; ++i)
        if (!loops[i].reduced) {
          split.loop = i;
          break;
        }
  } else if (plan.strategy == KernelStrategy::Transpose) {
    int64_t su = plan.tiledLoops->first, du = plan.tiledLoops->second;
    split.loop = 0;
    for (int64_t i = 0; i < n; ++i)
      if (std::abs(loops[i].srcStride) > std::abs(loops[split.loop].srcStride))
        split.loop = i;
    if (split.loop == du) {
      // Without another loop, split a: chunks then own whole destination
      // rows, and b stays whole for the interleaving loops.
      split.loop = su;
      for (int64_t i = 0; i < n; ++i)
        if (i != su && i != du &&
            (split.loop == su || std::abs(loops[i].srcStride) >
                                     std::abs(loops[split.loop].srcStride)))
          split.loop = i;
    }
  } else {
    split.loop = 0;
  }
  if (reduction)
    return split;
  for (int64_t i = 0; i < n; ++i) {
    bool whole = plan.strategy == KernelStrategy::Transpose
                     ? i == plan.tiledLoops->second
                     : i == n - 1;
    if (i != split.loop && !whole) {
      split.fallback = i;
      break;
    }
  }
  return split;
}
