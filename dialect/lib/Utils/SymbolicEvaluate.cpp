//===- SymbolicEvaluate.cpp - Symbols and checks at concrete values -------===//
//
// SymTable::evaluate (Symbolic.h): the values of symbols, expressions,
// conditions and layouts given the inputs' values, with the checks run in
// order, as layout_rt's lrt_symbolic_run does at run time.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/Symbolic.h"

#include "SymbolicDetail.h"

#include "layout/Dialect/Layout/Utils/ViewOps.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::layout;
using llvm::ArrayRef;

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

Fallible<int64_t> SymTable::evaluate(const SymExpr &e,
                                     ArrayRef<int64_t> values) {
  if (e.overflowed())
    return detail::overflow("a symbolic size, stride or offset");
  int64_t total = 0;
  for (const SymExpr::Term &t : e.terms()) {
    std::optional<int64_t> v = t.second;
    for (SymbolId s : t.first)
      v = v ? llvm::checkedMul(*v, values[s]) : std::nullopt;
    std::optional<int64_t> sum = v ? llvm::checkedAdd(total, *v) : v;
    if (!sum)
      return detail::overflow("a size, stride or offset computed at run time");
    total = *sum;
  }
  return total;
}

Fallible<bool> SymTable::evaluate(const SymCond &c, ArrayRef<int64_t> values) {
  using K = SymCond::Kind;
  switch (c.kind()) {
  case K::True:
    return true;
  case K::False:
    return false;
  case K::GeZero:
  case K::EqZero: {
    Fallible<int64_t> v = evaluate(c.expr(), values);
    if (!v)
      return fail(v.message());
    return c.kind() == K::GeZero ? *v >= 0 : *v == 0;
  }
  case K::Not: {
    Fallible<bool> v = evaluate(c.operands()[0], values);
    if (!v)
      return v;
    return !*v;
  }
  case K::And:
  case K::Or: {
    bool isAnd = c.kind() == K::And;
    for (const SymCond &o : c.operands()) {
      Fallible<bool> v = evaluate(o, values);
      if (!v || *v != isAnd)
        return v;
    }
    return isAnd;
  }
  }
  return false;
}

/// A ViewStride symbol's value from its operands' values.
static int64_t viewStrideValue(ArrayRef<int64_t> operands, int64_t oldRank,
                               int64_t index) {
  ArrayRef<int64_t> newSizes = operands.drop_front(2 * oldRank);
  std::optional<Dims> strides = computeStride(
      operands.take_front(oldRank), operands.slice(oldRank, oldRank), newSizes);
  if (index == static_cast<int64_t>(newSizes.size()))
    return strides ? 1 : 0;
  return strides ? (*strides)[index] : 0;
}

/// A PreserveStride symbol's value: clone(preserve_format)'s stride of dim
/// `index` (CopyingOps.cpp's cloneLayout).
static int64_t preserveStrideValue(ArrayRef<int64_t> operands, int64_t rank,
                                   int64_t index) {
  ArrayRef<int64_t> sizes = operands.take_front(rank),
                    strides = operands.slice(rank, rank);
  if (isNonOverlappingAndDense(StridedLayout(sizes, strides, 0)))
    return strides[index];
  return inferDenseStrides(sizes, strides)[index];
}

Fallible<std::vector<int64_t>> SymTable::evaluate(ArrayRef<int64_t> inputs,
                                                  bool checks) const {
  std::vector<int64_t> values;
  size_t nextInput = 0, nextCheck = checks ? 0 : checkList.size();
  auto runChecks = [&](size_t before) -> Fallible<std::monostate> {
    for (;
         nextCheck < checkList.size() && checkList[nextCheck].before <= before;
         ++nextCheck) {
      const Check &check = checkList[nextCheck];
      Fallible<bool> ok = evaluate(check.cond, values);
      if (!ok)
        return fail(ok.message());
      if (*ok)
        continue;
      std::string message = detail::fillMessage(check.message, [&](size_t i) {
        if (i >= check.args.size())
          return std::string("?");
        Fallible<int64_t> v = evaluate(check.args[i], values);
        return v ? std::to_string(*v) : std::string("?");
      });
      return fail(message);
    }
    return std::monostate();
  };
  for (const Symbol &s : syms) {
    Fallible<std::monostate> checked = runChecks(values.size());
    if (!checked)
      return fail(checked.message());
    if (s.op == Op::Input) {
      if (nextInput >= inputs.size())
        return fail("missing the value of input symbol " + s.name);
      values.push_back(inputs[nextInput++]);
      continue;
    }
    if (s.op == Op::Select) {
      Fallible<bool> holds = evaluate(*s.cond, values);
      if (!holds)
        return fail(holds.message());
      Fallible<int64_t> v = evaluate(s.operands[*holds ? 0 : 1], values);
      if (!v)
        return fail(v.message());
      values.push_back(*v);
      continue;
    }
    llvm::SmallVector<int64_t, 3> v;
    for (const SymExpr &o : s.operands) {
      Fallible<int64_t> x = evaluate(o, values);
      if (!x)
        return fail(x.message());
      v.push_back(*x);
    }
    switch (s.op) {
    case Op::Input:
    case Op::Select:
      break;
    case Op::Min:
      values.push_back(std::min(v[0], v[1]));
      break;
    case Op::Max:
      values.push_back(std::max(v[0], v[1]));
      break;
    case Op::FloorDiv:
      values.push_back(detail::floorDivValue(v[0], s.divisor));
      break;
    case Op::CeilDiv:
      values.push_back(detail::ceilDivValue(v[0], s.divisor));
      break;
    case Op::ViewStride:
      values.push_back(viewStrideValue(v, s.oldRank, s.index));
      break;
    case Op::PreserveStride:
      values.push_back(preserveStrideValue(v, s.oldRank, s.index));
      break;
    }
  }
  Fallible<std::monostate> checked = runChecks(values.size());
  if (!checked)
    return fail(checked.message());
  return values;
}

Fallible<StridedLayout> SymTable::evaluate(const SymLayout &l,
                                           ArrayRef<int64_t> values) {
  StridedLayout out;
  for (const SymExpr &s : l.sizes) {
    Fallible<int64_t> v = evaluate(s, values);
    if (!v)
      return fail(v.message());
    out.sizes.push_back(*v);
  }
  for (const SymExpr &s : l.strides) {
    Fallible<int64_t> v = evaluate(s, values);
    if (!v)
      return fail(v.message());
    out.strides.push_back(*v);
  }
  Fallible<int64_t> off = evaluate(l.offset, values);
  if (!off)
    return fail(off.message());
  out.offset = *off;
  return out;
}
