//===- SymbolicDetail.h - Shared helpers of the symbolic algebra -*- C++
//-*-===//
//
// Internal to dialect/lib/Utils: the message builder and the checks that
// SymbolicViews.cpp and SymbolicCopies.cpp share.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LIB_UTILS_SYMBOLICDETAIL_H
#define LAYOUT_DIALECT_LIB_UTILS_SYMBOLICDETAIL_H

#include "LayoutAlgebraDetail.h"

#include "layout/Dialect/Layout/Utils/SymbolicViews.h"

#include "llvm/ADT/STLExtras.h"

#include <functional>

namespace mlir {
namespace layout {
namespace detail {

/// floor(a / k) and ceil(a / k) for k > 0.
inline int64_t floorDivValue(int64_t a, int64_t k) {
  int64_t q = a / k;
  return (a % k != 0 && a < 0) ? q - 1 : q;
}
inline int64_t ceilDivValue(int64_t a, int64_t k) {
  int64_t q = a / k;
  return (a % k != 0 && a > 0) ? q + 1 : q;
}

/// Replaces "{i}" in `message` with piece(i).
std::string fillMessage(const std::string &message,
                        const std::function<std::string(size_t)> &piece);

/// Builds a message template whose "{i}" placeholders print expressions.
struct Message {
  std::string text;
  std::vector<SymExpr> args;

  Message &operator<<(const std::string &s) {
    text += s;
    return *this;
  }
  Message &operator<<(int64_t v) {
    text += std::to_string(v);
    return *this;
  }
  Message &operator<<(const SymExpr &e) {
    if (std::optional<int64_t> c = e.constant())
      return *this << *c;
    text += "{" + std::to_string(args.size()) + "}";
    args.push_back(e);
    return *this;
  }
  /// "[2, {0}, 4]"
  Message &dims(llvm::ArrayRef<SymExpr> sizes) {
    text += "[";
    for (auto [i, s] : llvm::enumerate(sizes)) {
      if (i)
        text += ", ";
      *this << s;
    }
    text += "]";
    return *this;
  }
};

inline Fallible<std::monostate> require(SymTable &t, const SymCond &cond,
                                        Message m) {
  return t.require(cond, std::move(m.text), std::move(m.args));
}

/// Final validation of every result: an expression that overflowed while it
/// was built is an error.
inline Fallible<SymLayout> checked(SymLayout l) {
  auto bad = [](const SymExpr &e) { return e.overflowed(); };
  if (llvm::any_of(l.sizes, bad) || llvm::any_of(l.strides, bad) ||
      bad(l.offset))
    return overflow("a symbolic size, stride or offset");
  return l;
}

inline SymExpr product(llvm::ArrayRef<SymExpr> sizes) {
  SymExpr p(1);
  for (const SymExpr &s : sizes)
    p = p * s;
  return p;
}

} // namespace detail
} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LIB_UTILS_SYMBOLICDETAIL_H
