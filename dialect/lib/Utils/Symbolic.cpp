//===- Symbolic.cpp - Symbolic sizes, strides and offsets -----------------===//
//
// Polynomials over symbols, the ranges that decide comparisons at compile
// time, and how symbols print (SymbolicEvaluate.cpp evaluates them). See
// Symbolic.h for the contracts.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/Symbolic.h"

#include "SymbolicDetail.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::layout;
using llvm::ArrayRef;

//===----------------------------------------------------------------------===//
// SymExpr
//===----------------------------------------------------------------------===//

SymExpr::SymExpr(int64_t constant) {
  if (constant != 0)
    termList.push_back({Monomial(), constant});
}

SymExpr SymExpr::symbol(SymbolId id) {
  SymExpr e;
  e.termList.push_back({Monomial{id}, 1});
  return e;
}

std::optional<int64_t> SymExpr::constant() const {
  if (overflow)
    return std::nullopt;
  if (termList.empty())
    return 0;
  if (termList.size() == 1 && termList[0].first.empty())
    return termList[0].second;
  return std::nullopt;
}

std::optional<SymbolId> SymExpr::asSymbol() const {
  if (!overflow && termList.size() == 1 && termList[0].second == 1 &&
      termList[0].first.size() == 1)
    return termList[0].first[0];
  return std::nullopt;
}

void SymExpr::addTerm(Monomial m, int64_t c) {
  auto it =
      llvm::lower_bound(termList, m, [](const Term &t, const Monomial &x) {
        return t.first < x;
      });
  if (it != termList.end() && it->first == m) {
    std::optional<int64_t> sum = llvm::checkedAdd(it->second, c);
    if (!sum) {
      overflow = true;
      return;
    }
    if (*sum == 0)
      termList.erase(it);
    else
      it->second = *sum;
    return;
  }
  if (c != 0)
    termList.insert(it, {std::move(m), c});
}

SymExpr SymExpr::operator+(const SymExpr &o) const {
  SymExpr r = *this;
  r.overflow |= o.overflow;
  for (const Term &t : o.termList)
    r.addTerm(t.first, t.second);
  return r;
}

SymExpr SymExpr::operator-() const {
  SymExpr r;
  r.overflow = overflow;
  for (const Term &t : termList) {
    if (t.second == std::numeric_limits<int64_t>::min())
      r.overflow = true;
    else
      r.termList.push_back({t.first, -t.second});
  }
  return r;
}

SymExpr SymExpr::operator-(const SymExpr &o) const { return *this + (-o); }

SymExpr SymExpr::operator*(const SymExpr &o) const {
  SymExpr r;
  r.overflow = overflow || o.overflow;
  for (const Term &a : termList) {
    for (const Term &b : o.termList) {
      std::optional<int64_t> c = llvm::checkedMul(a.second, b.second);
      if (!c) {
        r.overflow = true;
        continue;
      }
      Monomial m = a.first;
      m.append(b.first.begin(), b.first.end());
      llvm::sort(m);
      r.addTerm(std::move(m), *c);
    }
  }
  return r;
}

SymExpr SymExpr::substitute(
    const std::function<std::optional<SymExpr>(SymbolId)> &f) const {
  SymExpr r;
  r.overflow = overflow;
  for (const Term &t : termList) {
    SymExpr product(t.second);
    for (SymbolId s : t.first) {
      std::optional<SymExpr> by = f(s);
      product = product * (by ? *by : symbol(s));
    }
    r = r + product;
  }
  return r;
}

//===----------------------------------------------------------------------===//
// SymLayout
//===----------------------------------------------------------------------===//

StridedLayout SymLayout::project() const {
  auto known = [](const SymExpr &e) { return e.constant().value_or(kDynamic); };
  StridedLayout l;
  for (const SymExpr &s : sizes)
    l.sizes.push_back(known(s));
  for (const SymExpr &s : strides)
    l.strides.push_back(known(s));
  l.offset = known(offset);
  return l;
}

SymLayout SymLayout::fromStatic(const StridedLayout &l) {
  SymLayout s;
  for (int64_t v : l.sizes)
    s.sizes.push_back(SymExpr(v));
  for (int64_t v : l.strides)
    s.strides.push_back(SymExpr(v));
  s.offset = SymExpr(l.offset);
  return s;
}

//===----------------------------------------------------------------------===//
// SymCond
//===----------------------------------------------------------------------===//

SymCond SymCond::geZero(SymExpr e) {
  if (std::optional<int64_t> c = e.constant())
    return *c >= 0 ? alwaysTrue() : alwaysFalse();
  SymCond r(Kind::GeZero);
  r.e = std::move(e);
  return r;
}

SymCond SymCond::eq(const SymExpr &a, const SymExpr &b) {
  SymExpr d = a - b;
  if (std::optional<int64_t> c = d.constant())
    return *c == 0 ? alwaysTrue() : alwaysFalse();
  SymCond r(Kind::EqZero);
  r.e = std::move(d);
  return r;
}

SymCond SymCond::negate(SymCond c) {
  if (c.k == Kind::True)
    return alwaysFalse();
  if (c.k == Kind::False)
    return alwaysTrue();
  if (c.k == Kind::Not)
    return c.ops[0];
  SymCond r(Kind::Not);
  r.ops.push_back(std::move(c));
  return r;
}

SymCond SymCond::both(SymCond a, SymCond b) {
  if (a.k == Kind::False || b.k == Kind::True)
    return a;
  if (b.k == Kind::False || a.k == Kind::True)
    return b;
  SymCond r(Kind::And);
  r.ops = {std::move(a), std::move(b)};
  return r;
}

SymCond SymCond::either(SymCond a, SymCond b) {
  if (a.k == Kind::True || b.k == Kind::False)
    return a;
  if (b.k == Kind::True || a.k == Kind::False)
    return b;
  SymCond r(Kind::Or);
  r.ops = {std::move(a), std::move(b)};
  return r;
}

//===----------------------------------------------------------------------===//
// Ranges
//===----------------------------------------------------------------------===//

namespace {
using Bound = std::optional<int64_t>;

Interval point(int64_t v) { return {v, v}; }

Interval addIntervals(const Interval &a, const Interval &b) {
  auto add = [](Bound x, Bound y) -> Bound {
    if (!x || !y)
      return std::nullopt;
    return llvm::checkedAdd(*x, *y);
  };
  return {add(a.lo, b.lo), add(a.hi, b.hi)};
}

Interval mulIntervals(const Interval &a, const Interval &b) {
  if (a.lo && a.hi && b.lo && b.hi) {
    Interval r{std::numeric_limits<int64_t>::max(),
               std::numeric_limits<int64_t>::min()};
    for (int64_t x : {*a.lo, *a.hi})
      for (int64_t y : {*b.lo, *b.hi}) {
        std::optional<int64_t> p = llvm::checkedMul(x, y);
        if (!p)
          return {};
        r.lo = std::min(*r.lo, *p);
        r.hi = std::max(*r.hi, *p);
      }
    return r;
  }
  auto isZero = [](const Interval &i) { return i.lo == 0 && i.hi == 0; };
  if (isZero(a) || isZero(b))
    return point(0);
  // Both non-negative: [lo*lo, hi*hi], open above when either is.
  if (a.lo && *a.lo >= 0 && b.lo && *b.lo >= 0) {
    Interval r{llvm::checkedMul(*a.lo, *b.lo), std::nullopt};
    if (a.hi && b.hi)
      r.hi = llvm::checkedMul(*a.hi, *b.hi);
    return r;
  }
  return {};
}

Interval scaleInterval(const Interval &a, int64_t c) {
  auto mul = [&](Bound x) -> Bound {
    if (!x)
      return std::nullopt;
    return llvm::checkedMul(*x, c);
  };
  if (c >= 0)
    return {mul(a.lo), mul(a.hi)};
  return {mul(a.hi), mul(a.lo)};
}

} // namespace

Interval SymTable::range(const SymExpr &e) const {
  if (e.overflowed())
    return {};
  Interval total = point(0);
  for (const SymExpr::Term &t : e.terms()) {
    Interval m = point(1);
    for (SymbolId s : t.first)
      m = mulIntervals(m, syms[s].range);
    total = addIntervals(total, scaleInterval(m, t.second));
  }
  return total;
}

std::optional<bool> SymTable::decide(const SymCond &c) const {
  using K = SymCond::Kind;
  switch (c.kind()) {
  case K::True:
    return true;
  case K::False:
    return false;
  case K::GeZero: {
    Interval r = range(c.expr());
    if (r.lo && *r.lo >= 0)
      return true;
    if (r.hi && *r.hi < 0)
      return false;
    return std::nullopt;
  }
  case K::EqZero: {
    if (std::optional<int64_t> v = c.expr().constant())
      return *v == 0;
    Interval r = range(c.expr());
    if ((r.lo && *r.lo > 0) || (r.hi && *r.hi < 0))
      return false;
    if (r.lo == 0 && r.hi == 0)
      return true;
    return std::nullopt;
  }
  case K::Not: {
    std::optional<bool> v = decide(c.operands()[0]);
    if (!v)
      return std::nullopt;
    return !*v;
  }
  case K::And:
  case K::Or: {
    bool isAnd = c.kind() == K::And;
    bool unknown = false;
    for (const SymCond &o : c.operands()) {
      std::optional<bool> v = decide(o);
      if (!v)
        unknown = true;
      else if (*v != isAnd)
        return !isAnd;
    }
    if (unknown)
      return std::nullopt;
    return isAnd;
  }
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Symbols
//===----------------------------------------------------------------------===//

SymExpr SymTable::input(std::string name, bool isSize) {
  Symbol s;
  s.name = std::move(name);
  if (isSize)
    s.range.lo = 0;
  syms.push_back(std::move(s));
  return SymExpr::symbol(syms.size() - 1);
}

SymExpr SymTable::derive(Op op, llvm::SmallVector<SymExpr, 3> operands,
                         int64_t divisor, Interval r,
                         std::shared_ptr<SymCond> cond) {
  Symbol s;
  s.op = op;
  s.operands = std::move(operands);
  s.divisor = divisor;
  s.range = r;
  s.cond = std::move(cond);
  return derive(std::move(s));
}

SymExpr SymTable::derive(Symbol s) {
  // The same definition twice is the same value.
  if (!s.cond)
    for (auto [id, x] : llvm::enumerate(syms))
      if (x.op == s.op && x.divisor == s.divisor && x.index == s.index &&
          x.oldRank == s.oldRank && x.operands == s.operands)
        return SymExpr::symbol(id);
  s.name = "s" + std::to_string(llvm::count_if(
                     syms, [](const Symbol &x) { return x.op != Op::Input; }));
  syms.push_back(std::move(s));
  return SymExpr::symbol(syms.size() - 1);
}

SymExpr SymTable::assuming(const SymExpr &e, const SymCond &cond, bool value) {
  SymCond negated = SymCond::negate(cond);
  // Each symbol's value in that case, memoized: a symbol's operands are
  // earlier symbols, so the recursion ends.
  llvm::DenseMap<SymbolId, SymExpr> memo;
  std::function<SymExpr(SymbolId)> of;
  auto sub = [&](const SymExpr &x) {
    return x.substitute(
        [&](SymbolId id) -> std::optional<SymExpr> { return of(id); });
  };
  std::function<SymCond(const SymCond &)> subCond = [&](const SymCond &c) {
    switch (c.kind()) {
    case SymCond::Kind::True:
    case SymCond::Kind::False:
      return c;
    case SymCond::Kind::GeZero:
      return SymCond::geZero(sub(c.expr()));
    case SymCond::Kind::EqZero:
      return SymCond::eq(sub(c.expr()), SymExpr(0));
    case SymCond::Kind::Not:
      return SymCond::negate(subCond(c.operands()[0]));
    case SymCond::Kind::And:
      return SymCond::both(subCond(c.operands()[0]), subCond(c.operands()[1]));
    case SymCond::Kind::Or:
      return SymCond::either(subCond(c.operands()[0]),
                             subCond(c.operands()[1]));
    }
    llvm_unreachable("unknown condition kind");
  };
  of = [&](SymbolId id) -> SymExpr {
    if (auto found = memo.find(id); found != memo.end())
      return found->second;
    // A copy: derivations below may grow syms.
    Symbol s = syms[id];
    SymExpr r = SymExpr::symbol(id);
    if (s.op == Op::Select && (*s.cond == cond || *s.cond == negated)) {
      r = sub(s.operands[(*s.cond == cond) == value ? 0 : 1]);
    } else if (s.op != Op::Input) {
      llvm::SmallVector<SymExpr, 3> operands;
      for (const SymExpr &x : s.operands)
        operands.push_back(sub(x));
      std::optional<SymCond> c;
      if (s.cond)
        c = subCond(*s.cond);
      if (operands != s.operands || (c && !(*c == *s.cond))) {
        switch (s.op) {
        case Op::Min:
          r = min(operands[0], operands[1]);
          break;
        case Op::Max:
          r = max(operands[0], operands[1]);
          break;
        case Op::FloorDiv:
        case Op::CeilDiv:
          r = divide(operands[0], s.divisor, s.op == Op::CeilDiv);
          break;
        case Op::Select:
          r = select(*c, operands[0], operands[1]);
          break;
        default:
          s.operands = std::move(operands);
          r = derive(std::move(s));
          break;
        }
      }
    }
    memo[id] = r;
    return r;
  };
  return sub(e);
}

SymLayout SymTable::assuming(const SymLayout &l, const SymCond &cond,
                             bool value) {
  SymLayout out = l;
  for (auto *exprs : {&out.sizes, &out.strides})
    for (SymExpr &x : *exprs)
      x = assuming(x, cond, value);
  out.offset = assuming(out.offset, cond, value);
  return out;
}

SymExpr SymTable::min(const SymExpr &a, const SymExpr &b) {
  if (a == b || decide(SymCond::ge(b, a)) == true)
    return a;
  if (decide(SymCond::ge(a, b)) == true)
    return b;
  Interval ra = range(a), rb = range(b);
  Interval r;
  if (ra.lo && rb.lo)
    r.lo = std::min(*ra.lo, *rb.lo);
  if (ra.hi || rb.hi)
    r.hi = std::min(ra.hi.value_or(std::numeric_limits<int64_t>::max()),
                    rb.hi.value_or(std::numeric_limits<int64_t>::max()));
  return derive(Op::Min, {a, b}, 1, r);
}

SymExpr SymTable::max(const SymExpr &a, const SymExpr &b) {
  if (a == b || decide(SymCond::ge(a, b)) == true)
    return a;
  if (decide(SymCond::ge(b, a)) == true)
    return b;
  Interval ra = range(a), rb = range(b);
  Interval r;
  if (ra.lo || rb.lo)
    r.lo = std::max(ra.lo.value_or(std::numeric_limits<int64_t>::min()),
                    rb.lo.value_or(std::numeric_limits<int64_t>::min()));
  if (ra.hi && rb.hi)
    r.hi = std::max(*ra.hi, *rb.hi);
  return derive(Op::Max, {a, b}, 1, r);
}

/// a / k when every coefficient is a multiple of k (exact for any value).
static std::optional<SymExpr> exactQuotient(const SymExpr &a, int64_t k) {
  SymExpr q;
  for (const SymExpr::Term &t : a.terms()) {
    if (t.second % k != 0)
      return std::nullopt;
    SymExpr term(t.second / k);
    for (SymbolId s : t.first)
      term = term * SymExpr::symbol(s);
    q = q + term;
  }
  return q;
}

SymExpr SymTable::divide(const SymExpr &a, int64_t k, bool ceil) {
  assert(k > 0 && "division by a non-positive constant");
  auto value = [&](int64_t v) {
    return ceil ? detail::ceilDivValue(v, k) : detail::floorDivValue(v, k);
  };
  if (std::optional<int64_t> c = a.constant())
    return value(*c);
  if (std::optional<SymExpr> q = exactQuotient(a, k))
    return *q;
  Interval ra = range(a);
  Interval r;
  if (ra.lo)
    r.lo = value(*ra.lo);
  if (ra.hi)
    r.hi = value(*ra.hi);
  return derive(ceil ? Op::CeilDiv : Op::FloorDiv, {a}, k, r);
}

SymExpr SymTable::select(const SymCond &cond, const SymExpr &ifTrue,
                         const SymExpr &ifFalse) {
  if (ifTrue == ifFalse)
    return ifTrue;
  if (std::optional<bool> holds = decide(cond))
    return *holds ? ifTrue : ifFalse;
  Interval r1 = range(ifTrue), r2 = range(ifFalse);
  Interval r;
  if (r1.lo && r2.lo)
    r.lo = std::min(*r1.lo, *r2.lo);
  if (r1.hi && r2.hi)
    r.hi = std::max(*r1.hi, *r2.hi);
  return derive(Op::Select, {ifTrue, ifFalse}, 1, r,
                std::make_shared<SymCond>(cond));
}

SymTable::RuntimeView SymTable::viewStrides(const SymLayout &in,
                                            ArrayRef<SymExpr> sizes) {
  Symbol s;
  s.op = Op::ViewStride;
  s.oldRank = in.rank();
  s.operands.append(in.sizes.begin(), in.sizes.end());
  s.operands.append(in.strides.begin(), in.strides.end());
  s.operands.append(sizes.begin(), sizes.end());
  RuntimeView view;
  for (int64_t k = 0; k < static_cast<int64_t>(sizes.size()); ++k) {
    s.index = k;
    view.strides.push_back(derive(s));
  }
  s.index = sizes.size();
  s.range = {0, 1};
  view.viewable = derive(s);
  return view;
}

llvm::SmallVector<SymExpr, 6> SymTable::preserveStrides(const SymLayout &in) {
  Symbol s;
  s.op = Op::PreserveStride;
  s.oldRank = in.rank();
  s.operands.append(in.sizes.begin(), in.sizes.end());
  s.operands.append(in.strides.begin(), in.strides.end());
  llvm::SmallVector<SymExpr, 6> strides;
  for (int64_t k = 0; k < in.rank(); ++k) {
    s.index = k;
    strides.push_back(derive(s));
  }
  return strides;
}

Fallible<std::monostate> SymTable::require(const SymCond &cond,
                                           std::string message,
                                           std::vector<SymExpr> args) {
  Check check{cond, std::move(message), std::move(args), syms.size()};
  std::optional<bool> decided = decide(cond);
  if (decided == true)
    return std::monostate();
  // A check that always fails is kept too: evaluating the table at values
  // then gives the message with numbers in it.
  std::string formatted = format(check);
  checkList.push_back(std::move(check));
  if (decided == false)
    return fail(formatted);
  return std::monostate();
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

std::string SymTable::str(const SymExpr &e) const {
  if (e.overflowed())
    return "<overflow>";
  if (e.terms().empty())
    return "0";
  std::string out;
  std::optional<int64_t> constant;
  auto append = [&](int64_t c, const SymExpr::Monomial &m) {
    bool first = out.empty();
    if (c < 0)
      out += first ? "-" : " - ";
    else if (!first)
      out += " + ";
    uint64_t mag = c < 0 ? 0 - static_cast<uint64_t>(c) : c;
    std::string factors;
    for (SymbolId s : m) {
      if (!factors.empty())
        factors += "*";
      factors += syms[s].name;
    }
    if (factors.empty())
      out += std::to_string(mag);
    else if (mag == 1)
      out += factors;
    else
      out += std::to_string(mag) + "*" + factors;
  };
  // Higher degrees first, then the canonical order: "n*c + n - 2".
  std::vector<const SymExpr::Term *> order;
  for (const SymExpr::Term &t : e.terms()) {
    if (t.first.empty())
      constant = t.second;
    else
      order.push_back(&t);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const SymExpr::Term *a, const SymExpr::Term *b) {
                     return a->first.size() > b->first.size();
                   });
  for (const SymExpr::Term *t : order)
    append(t->second, t->first);
  if (constant)
    append(*constant, {});
  return out;
}

/// "p >= k" or "p == k" for e = p - k: the constant on the right and, where
/// the sides may swap (== and !=), the leading coefficient positive.
static std::string comparison(const SymTable &t, const SymExpr &e,
                              llvm::StringRef op, bool symmetric) {
  int64_t constant = 0;
  const SymExpr::Term *leading = nullptr;
  for (const SymExpr::Term &term : e.terms()) {
    if (term.first.empty())
      constant = term.second;
    else if (!leading || term.first.size() > leading->first.size())
      leading = &term;
  }
  bool negate = symmetric && leading && leading->second < 0;
  SymExpr p = e - SymExpr(constant);
  std::optional<int64_t> rhs = llvm::checkedMul<int64_t>(constant, -1);
  if (!leading || !rhs || p.overflowed() ||
      (negate && (constant == std::numeric_limits<int64_t>::min())))
    return t.str(e) + " " + op.str() + " 0";
  if (negate)
    return t.str(-p) + " " + op.str() + " " + std::to_string(constant);
  return t.str(p) + " " + op.str() + " " + std::to_string(*rhs);
}

std::string SymTable::str(const SymCond &c) const {
  using K = SymCond::Kind;
  switch (c.kind()) {
  case K::True:
    return "true";
  case K::False:
    return "false";
  case K::GeZero:
    return comparison(*this, c.expr(), ">=", false);
  case K::EqZero:
    return comparison(*this, c.expr(), "==", true);
  case K::Not:
    if (c.operands()[0].kind() == K::EqZero)
      return comparison(*this, c.operands()[0].expr(), "!=", true);
    return "!(" + str(c.operands()[0]) + ")";
  case K::And:
  case K::Or: {
    std::string sep = c.kind() == K::And ? " && " : " || ";
    std::string out;
    for (const SymCond &o : c.operands()) {
      // a && (b && c) needs no parentheses; a && (b || c) does.
      bool nested =
          (o.kind() == K::And || o.kind() == K::Or) && o.kind() != c.kind();
      if (!out.empty())
        out += sep;
      out += nested ? "(" + str(o) + ")" : str(o);
    }
    return out;
  }
  }
  return "";
}

std::string SymTable::definition(SymbolId id) const {
  const Symbol &s = syms[id];
  switch (s.op) {
  case Op::Input:
    return s.name;
  case Op::Min:
    return "min(" + str(s.operands[0]) + ", " + str(s.operands[1]) + ")";
  case Op::Max:
    return "max(" + str(s.operands[0]) + ", " + str(s.operands[1]) + ")";
  case Op::FloorDiv:
    return "floordiv(" + str(s.operands[0]) + ", " + std::to_string(s.divisor) +
           ")";
  case Op::CeilDiv:
    return "ceildiv(" + str(s.operands[0]) + ", " + std::to_string(s.divisor) +
           ")";
  case Op::Select:
    return "(" + str(*s.cond) + ") ? " + str(s.operands[0]) + " : " +
           str(s.operands[1]);
  case Op::ViewStride: {
    auto list = [&](size_t from, size_t to) {
      std::string out = "[";
      for (size_t i = from; i < to; ++i)
        out += (i > from ? ", " : "") + str(s.operands[i]);
      return out + "]";
    };
    size_t old = s.oldRank, all = s.operands.size();
    std::string args =
        list(0, old) + ", " + list(old, 2 * old) + ", " + list(2 * old, all);
    if (s.index == static_cast<int64_t>(all - 2 * old))
      return "viewable(" + args + ")";
    return "computeStride(" + args + ")[" + std::to_string(s.index) + "]";
  }
  case Op::PreserveStride: {
    std::string sizes, strides;
    for (int64_t i = 0; i < s.oldRank; ++i) {
      sizes += (i ? ", " : "") + str(s.operands[i]);
      strides += (i ? ", " : "") + str(s.operands[s.oldRank + i]);
    }
    return "preserveStrides([" + sizes + "], [" + strides + "])[" +
           std::to_string(s.index) + "]";
  }
  }
  return s.name;
}

void mlir::layout::collectSymbols(const SymExpr &e,
                                  llvm::DenseSet<SymbolId> &out) {
  for (const SymExpr::Term &t : e.terms())
    out.insert(t.first.begin(), t.first.end());
}

void mlir::layout::collectSymbols(const SymCond &c,
                                  llvm::DenseSet<SymbolId> &out) {
  collectSymbols(c.expr(), out);
  for (const SymCond &o : c.operands())
    collectSymbols(o, out);
}

void SymTable::addDefinitionSymbols(llvm::DenseSet<SymbolId> &named) const {
  // A definition names only earlier symbols: one pass from the last.
  for (size_t id = syms.size(); id-- > 0;) {
    if (!named.count(id))
      continue;
    for (const SymExpr &o : syms[id].operands)
      collectSymbols(o, named);
    if (syms[id].cond)
      collectSymbols(*syms[id].cond, named);
  }
}

std::string
detail::fillMessage(const std::string &message,
                    const std::function<std::string(size_t)> &piece) {
  std::string out;
  for (size_t i = 0; i < message.size(); ++i) {
    if (message[i] == '{') {
      size_t close = message.find('}', i);
      if (close != std::string::npos) {
        std::string digits = message.substr(i + 1, close - i - 1);
        if (!digits.empty() && llvm::all_of(digits, [](char ch) {
              return ch >= '0' && ch <= '9';
            })) {
          out += piece(std::stoul(digits));
          i = close;
          continue;
        }
      }
    }
    out += message[i];
  }
  return out;
}

std::string SymTable::format(const Check &check) const {
  return detail::fillMessage(check.message, [&](size_t i) {
    return i < check.args.size() ? str(check.args[i]) : std::string("?");
  });
}
