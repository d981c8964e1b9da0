//===- Symbolic.h - Symbolic sizes, strides and offsets ---------*- C++ -*-===//
//
// The layout algebra over layouts whose sizes are only known at run time.
// A symbolic layout's sizes, strides and offset are polynomials with i64
// coefficients over *symbols*: a function argument's dynamic size or
// stride (an input), or a value the program derives from earlier ones at
// run time (a slice's clamped bound, an inferred view size), which is
// defined by one min, max, division or selection. A row-major argument of
// sizes (n, c, h) has strides (c*h, h, 1): products of its size symbols,
// so that after a permute or a slice the algebra still knows which dim has
// stride 1 and which strides are products of which sizes.
//
// Contract: for every assignment of the inputs under which every recorded
// check holds, evaluating a symbolic layout gives PyTorch's sizes, and for
// a view with at least one element its strides and offset too. The strides
// and offset of a view without elements are unspecified (they never form an
// address; PyTorch's own checks ignore them too).
//
// Conditions PyTorch checks on values (select bounds, expand of a non-1
// size, view sizes) become *checks*: decided at compile time when the
// symbols' ranges decide them (an error, or nothing), else recorded with
// PyTorch's message for the run time, which evaluates symbols and checks
// in the order they were made. Coefficient arithmetic is overflow-checked:
// an expression that overflows reports it, and so does evaluation.
// docs/internals/symbolic.md describes the representation.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_SYMBOLIC_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_SYMBOLIC_H

#include "layout/Dialect/Layout/Utils/StridedLayout.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace layout {

using SymbolId = unsigned;

/// A polynomial sum_i c_i * m_i over symbols, each monomial m_i a sorted
/// product of symbols (a symbol repeats for a power). Canonical: terms
/// sorted by monomial, no zero coefficient, so equal polynomials compare
/// equal. Arithmetic that overflows i64 marks the result (sticky through
/// later arithmetic) instead of wrapping.
class SymExpr {
public:
  using Monomial = llvm::SmallVector<SymbolId, 2>;
  using Term = std::pair<Monomial, int64_t>;

  SymExpr() = default;
  SymExpr(int64_t constant);
  static SymExpr symbol(SymbolId id);

  /// The value when no symbol occurs.
  std::optional<int64_t> constant() const;
  bool isConstant(int64_t c) const { return constant() == c; }
  /// The symbol when the polynomial is exactly one symbol.
  std::optional<SymbolId> asSymbol() const;
  bool overflowed() const { return overflow; }
  const std::vector<Term> &terms() const { return termList; }

  SymExpr operator+(const SymExpr &o) const;
  SymExpr operator-(const SymExpr &o) const;
  SymExpr operator*(const SymExpr &o) const;
  SymExpr operator-() const;
  bool operator==(const SymExpr &o) const {
    return termList == o.termList && overflow == o.overflow;
  }
  bool operator!=(const SymExpr &o) const { return !(*this == o); }

  /// Replaces every symbol s with replacement(s) (the symbol itself when it
  /// returns nullopt).
  SymExpr
  substitute(const std::function<std::optional<SymExpr>(SymbolId)> &f) const;

private:
  void addTerm(Monomial m, int64_t c);
  std::vector<Term> termList;
  bool overflow = false;
};

/// A symbolic view: sizes, strides, offset in elements.
struct SymLayout {
  llvm::SmallVector<SymExpr, 6> sizes;
  llvm::SmallVector<SymExpr, 6> strides;
  SymExpr offset;

  int64_t rank() const { return static_cast<int64_t>(sizes.size()); }
  /// The layout with every constant known and kDynamic elsewhere: what an
  /// MLIR type can say.
  StridedLayout project() const;
  /// A static layout as a symbolic one.
  static SymLayout fromStatic(const StridedLayout &l);
  bool operator==(const SymLayout &o) const {
    return sizes == o.sizes && strides == o.strides && offset == o.offset;
  }
};

/// A condition on symbols: a tree of >= 0 and == 0 atoms.
class SymCond {
public:
  enum class Kind { True, False, GeZero, EqZero, Not, And, Or };
  static SymCond alwaysTrue() { return SymCond(Kind::True); }
  static SymCond alwaysFalse() { return SymCond(Kind::False); }
  /// e >= 0, a >= b, a == b, a != b, a < b.
  static SymCond geZero(SymExpr e);
  static SymCond ge(const SymExpr &a, const SymExpr &b) {
    return geZero(a - b);
  }
  static SymCond lt(const SymExpr &a, const SymExpr &b) {
    return geZero(b - a - SymExpr(1));
  }
  static SymCond eq(const SymExpr &a, const SymExpr &b);
  static SymCond ne(const SymExpr &a, const SymExpr &b) {
    return negate(eq(a, b));
  }
  static SymCond negate(SymCond c);
  static SymCond both(SymCond a, SymCond b);
  static SymCond either(SymCond a, SymCond b);

  Kind kind() const { return k; }
  const SymExpr &expr() const { return e; }
  const std::vector<SymCond> &operands() const { return ops; }
  /// The same tree (not the same truth: a >= 0 is not !(a < 0) here).
  bool operator==(const SymCond &o) const {
    return k == o.k && e == o.e && ops == o.ops;
  }

private:
  explicit SymCond(Kind k) : k(k) {}
  Kind k;
  SymExpr e;
  std::vector<SymCond> ops;
};

/// Adds the symbols `e` names (or every expression of `c`) to `out`.
void collectSymbols(const SymExpr &e, llvm::DenseSet<SymbolId> &out);
void collectSymbols(const SymCond &c, llvm::DenseSet<SymbolId> &out);

/// The highest old or new rank of a view decided at run time (layout_rt's
/// LRT_SYMBOLIC_MAX_RANK: its interpreter keeps the shapes in fixed arrays).
inline constexpr int64_t kMaxRuntimeViewRank = 64;

/// The range of values an expression can take, each end open when unknown.
struct Interval {
  std::optional<int64_t> lo, hi;
};

/// The symbols of one program and the checks it needs at run time.
class SymTable {
public:
  enum class Op {
    /// A function argument's dynamic size or offset (range [0, inf)) or
    /// stride.
    Input,
    /// min(a, b), max(a, b).
    Min,
    Max,
    /// floor(a / k), ceil(a / k) for a constant k > 0.
    FloorDiv,
    CeilDiv,
    /// cond ? a : b.
    Select,
    /// PyTorch's computeStride(old sizes, old strides, new sizes) at run
    /// time (reshape's view test): with `index` below the new rank, the
    /// view's stride of that dim (0 where there is no view); with `index`
    /// equal to it, 1 when the view exists, else 0. Operands: the
    /// `oldRank` old sizes, the old strides, the new sizes.
    ViewStride,
    /// The stride of dim `index` of clone(preserve_format) of a tensor of
    /// `oldRank` dims at run time: its own stride when it is
    /// non-overlapping and dense, else infer_dense_strides' (PyTorch's
    /// empty_like). Operands: the sizes, then the strides.
    PreserveStride,
  };
  struct Symbol {
    std::string name;
    Op op = Op::Input;
    llvm::SmallVector<SymExpr, 3> operands;
    int64_t divisor = 1;
    /// ViewStride's and PreserveStride's result and (old) rank.
    int64_t index = 0;
    int64_t oldRank = 0;
    /// Select's condition.
    std::shared_ptr<SymCond> cond;
    Interval range;
  };
  /// A run-time check: cond must hold, else `message` with each "{i}"
  /// replaced by args[i]'s value. `before` is the number of symbols that
  /// existed when it was made: it runs before any later symbol is
  /// evaluated.
  struct Check {
    SymCond cond;
    std::string message;
    std::vector<SymExpr> args;
    size_t before = 0;
  };

  /// A new input symbol. Sizes are >= 0; strides may be anything.
  SymExpr input(std::string name, bool isSize);

  /// Derived values, folded to an expression when the ranges decide them.
  SymExpr min(const SymExpr &a, const SymExpr &b);
  SymExpr max(const SymExpr &a, const SymExpr &b);
  SymExpr clamp(const SymExpr &v, const SymExpr &lo, const SymExpr &hi) {
    return min(max(v, lo), hi);
  }
  SymExpr floorDiv(const SymExpr &a, int64_t k) { return divide(a, k, false); }
  SymExpr ceilDiv(const SymExpr &a, int64_t k) { return divide(a, k, true); }
  SymExpr select(const SymCond &cond, const SymExpr &ifTrue,
                 const SymExpr &ifFalse);
  /// computeStride for viewing `in` with `sizes`, decided at run time
  /// (ViewStride symbols): the view's strides, and `viewable`, 1 when the
  /// view exists and 0 when PyTorch would need a copy.
  struct RuntimeView {
    llvm::SmallVector<SymExpr, 6> strides;
    SymExpr viewable;
  };
  RuntimeView viewStrides(const SymLayout &in, llvm::ArrayRef<SymExpr> sizes);
  /// clone(preserve_format)'s strides of `in`, decided at run time
  /// (PreserveStride symbols, one per dim).
  llvm::SmallVector<SymExpr, 6> preserveStrides(const SymLayout &in);

  /// `e` where `cond` has truth `value`: each selection on `cond` or its
  /// negation takes that branch, and every derived value that reads one is
  /// derived again (a layout as it is in one case of a decision made at run
  /// time, such as a returned view of a reshape that copies for some sizes).
  SymExpr assuming(const SymExpr &e, const SymCond &cond, bool value);
  SymLayout assuming(const SymLayout &l, const SymCond &cond, bool value);

  /// What the symbols' ranges say about an expression or condition.
  Interval range(const SymExpr &e) const;
  /// True or false when decided for every assignment, else nullopt.
  std::optional<bool> decide(const SymCond &c) const;

  /// Requires `cond`: an error with `message` (args printed as
  /// expressions) when it never holds, nothing when it always does, else a
  /// recorded run-time check.
  Fallible<std::monostate> require(const SymCond &cond, std::string message,
                                   std::vector<SymExpr> args = {});

  const std::vector<Symbol> &symbols() const { return syms; }
  const std::vector<Check> &checks() const { return checkList; }
  llvm::StringRef name(SymbolId id) const { return syms[id].name; }

  /// "c*h + 2", "min(x[0], 5)" for derived symbols' definitions; symbols
  /// print by name.
  std::string str(const SymExpr &e) const;
  std::string str(const SymCond &c) const;
  /// A symbol's definition: "min(x[0], 5)"; an input's own name.
  std::string definition(SymbolId id) const;
  /// Adds to `named` every symbol the definitions of its derived symbols
  /// name, in turn (what it takes to define them all).
  void addDefinitionSymbols(llvm::DenseSet<SymbolId> &named) const;
  /// The message of a check with its args printed as expressions.
  std::string format(const Check &check) const;

  /// Values of every symbol from the inputs' values (in the order inputs
  /// were made), running the checks: the first failing check's message
  /// with values filled in, or "integer overflow: ..." when a derived value
  /// or a check's operand does not fit in i64.
  /// Without `checks`, the checks are skipped (values for planning).
  Fallible<std::vector<int64_t>> evaluate(llvm::ArrayRef<int64_t> inputs,
                                          bool checks = true) const;
  /// The value of an expression given every symbol's value.
  static Fallible<int64_t> evaluate(const SymExpr &e,
                                    llvm::ArrayRef<int64_t> values);
  static Fallible<bool> evaluate(const SymCond &c,
                                 llvm::ArrayRef<int64_t> values);
  /// A symbolic layout at concrete symbol values.
  static Fallible<StridedLayout> evaluate(const SymLayout &l,
                                          llvm::ArrayRef<int64_t> values);

private:
  SymExpr divide(const SymExpr &a, int64_t k, bool ceil);
  SymExpr derive(Op op, llvm::SmallVector<SymExpr, 3> operands, int64_t divisor,
                 Interval range, std::shared_ptr<SymCond> cond = nullptr);
  SymExpr derive(Symbol s);
  std::vector<Symbol> syms;
  std::vector<Check> checkList;
};

/// A symbol table as the constant program layout_rt's lrt_symbolic_run
/// evaluates (runtime/include/layout_rt/symbolic.h has the encoding): every
/// symbol and check in order, then `outputs`, whose values the run returns.
struct SymbolProgram {
  std::vector<int64_t> words;
  /// The checks' message templates, NUL-separated.
  std::string messages;
};
SymbolProgram encodeSymbolProgram(const SymTable &table,
                                  llvm::ArrayRef<SymExpr> outputs);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_SYMBOLIC_H
