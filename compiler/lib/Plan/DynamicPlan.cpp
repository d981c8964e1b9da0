//===- DynamicPlan.cpp - Copies planned for every size --------------------===//
//
// planDynamicCopy (KernelPlan.h): symbolic loops, and planCopy's decisions
// for them at representative sizes.
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Plan/KernelPlan.h"

#include "llvm/ADT/STLExtras.h"

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
/// from 37 for sizes, and for strides too (a declared dynamic stride).
static Fallible<std::vector<int64_t>> representative(const SymTable &t) {
  static const int64_t kPrimes[] = {37,  41,  43,  47,  53,  59,  61,  67,
                                    71,  73,  79,  83,  89,  97,  101, 103,
                                    107, 109, 113, 127, 131, 137, 139, 149};
  std::vector<int64_t> inputs;
  for (const SymTable::Symbol &s : t.symbols()) {
    if (s.op != SymTable::Op::Input)
      continue;
    if (inputs.size() == std::size(kPrimes))
      return fail("too many dynamic sizes to plan (at most " +
                  std::to_string(std::size(kPrimes)) + ")");
    inputs.push_back(kPrimes[inputs.size()]);
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

Fallible<DynamicCopyPlan>
mlir::layout::planDynamicCopy(const SymTable &t, const SymLayout &src,
                              const SymLayout &dst, int64_t srcBytes,
                              int64_t dstBytes, const TargetInfo &target,
                              std::optional<bool> convert) {
  if (src.rank() != dst.rank() || !llvm::equal(src.sizes, dst.sizes))
    return fail("copy between different symbolic sizes");
  Fallible<std::vector<int64_t>> values = representative(t);
  if (!values)
    return fail(values.message());
  auto eval = [&](const SymExpr &e) -> Fallible<int64_t> {
    return SymTable::evaluate(e, *values);
  };
  // Dims of representative size 1 drop out; the others become loops in the
  // destination's memory order (decreasing |stride|, stable).
  llvm::SmallVector<Loop, 6> loops;
  for (int64_t d = 0; d < src.rank(); ++d) {
    Loop l{src.sizes[d], src.strides[d], dst.strides[d]};
    Fallible<int64_t> size = eval(l.size), s = eval(l.src), dd = eval(l.dst);
    if (!size || !s || !dd)
      return fail(!size ? size.message() : !s ? s.message() : dd.message());
    l.rsize = *size;
    l.rsrc = *s;
    l.rdst = *dd;
    if (l.size.isConstant(0))
      return fail("the copy has no elements for every size: nothing to plan");
    if (l.size.isConstant(1))
      continue;
    // A value that is 0, 1 or -1 at the representative sizes only would
    // make the plan assume it (a broadcast, a unit stride, a dropped dim):
    // plan with a general value instead, distinct for each loop.
    auto general = [&](int64_t &v, const SymExpr &e, int64_t avoid) {
      if (v >= -1 && v <= avoid && !e.constant())
        v = 1009 + 2 * static_cast<int64_t>(d);
    };
    general(l.rsize, l.size, 1);
    general(l.rsrc, l.src, 1);
    general(l.rdst, l.dst, 1);
    if (Fallible<std::monostate> r = verifyFacts(t, l); !r)
      return fail(r.message());
    loops.push_back(l);
  }
  std::stable_sort(loops.begin(), loops.end(),
                   [](const Loop &a, const Loop &b) {
                     return std::llabs(a.rdst) > std::llabs(b.rdst);
                   });
  // Merge an outer loop into the inner one where both sides are contiguous
  // across them for every size (TensorIterator's rule, proven symbolically).
  llvm::SmallVector<Loop, 6> merged = loops;
  for (size_t i = merged.size(); i-- > 1;) {
    Loop &outer = merged[i - 1], &inner = merged[i];
    if (t.decide(SymCond::eq(outer.src, inner.size * inner.src)) == true &&
        t.decide(SymCond::eq(outer.dst, inner.size * inner.dst)) == true) {
      inner.size = outer.size * inner.size;
      inner.rsize *= outer.rsize;
      merged.erase(merged.begin() + (i - 1));
    }
  }
  if (merged.empty())
    merged.push_back(Loop{SymExpr(1), SymExpr(1), SymExpr(1), 1, 1, 1});
  // planCopy at the representative values of these loops, one dim each:
  // with distinct primes no further dims merge.
  StridedLayout rsrc, rdst;
  for (const Loop &l : merged) {
    rsrc.sizes.push_back(l.rsize);
    rdst.sizes.push_back(l.rsize);
    rsrc.strides.push_back(l.rsrc);
    rdst.strides.push_back(l.rdst);
  }
  Fallible<KernelPlan> plan =
      planCopy(rsrc, rdst, srcBytes, dstBytes, target, convert);
  if (!plan)
    return fail(plan.message());
  DynamicCopyPlan out;
  out.plan = *plan;
  // The plan's loops are these loops, possibly reordered: match each by its
  // representative extents, which are distinct.
  llvm::SmallVector<bool, 6> used(merged.size(), false);
  for (const KernelLoop &pl : out.plan.loops) {
    std::optional<size_t> match;
    for (auto [i, l] : llvm::enumerate(merged))
      if (!used[i] && l.rsize == pl.size && l.rsrc == pl.srcStride &&
          l.rdst == pl.dstStride)
        match = match ? std::optional<size_t>() : std::optional<size_t>(i);
    if (!match)
      return fail("the planner's loops for representative sizes do not "
                  "match the symbolic loops");
    used[*match] = true;
    out.sizes.push_back(merged[*match].size);
    out.srcStrides.push_back(merged[*match].src);
    out.dstStrides.push_back(merged[*match].dst);
  }
  if (llvm::count(used, false))
    return fail("the planner merged loops the algebra cannot prove "
                "mergeable for every size");
  return out;
}
