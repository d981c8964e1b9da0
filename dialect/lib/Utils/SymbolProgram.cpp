//===- SymbolProgram.cpp - Symbol tables as layout_rt programs ------------===//
//
// encodeSymbolProgram (Symbolic.h): the constant program the generated code
// hands to layout_rt's lrt_symbolic_run (runtime/include/layout_rt/
// symbolic.h describes the encoding).
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/Symbolic.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::layout;
using llvm::ArrayRef;

namespace {
// layout_rt/symbolic.h's codes; the runtime is C, so they are repeated here.
enum : int64_t {
  kVersion = 1,
  kInput = 1,
  kMin = 2,
  kMax = 3,
  kFloorDiv = 4,
  kCeilDiv = 5,
  kSelect = 6,
  kCheck = 7,
  kViewStride = 8,
  kPreserveStride = 9,
  kTrue = 1,
  kFalse = 2,
  kGe0 = 3,
  kEq0 = 4,
  kNot = 5,
  kAnd = 6,
  kOr = 7,
};

struct Encoder {
  std::vector<std::vector<int64_t>> exprs, conds;
  std::vector<int64_t> steps;

  int64_t expr(const SymExpr &e) {
    std::vector<int64_t> w{static_cast<int64_t>(e.terms().size())};
    for (const SymExpr::Term &t : e.terms()) {
      w.push_back(t.second);
      w.push_back(static_cast<int64_t>(t.first.size()));
      w.insert(w.end(), t.first.begin(), t.first.end());
    }
    exprs.push_back(std::move(w));
    return exprs.size() - 1;
  }
  int64_t cond(const SymCond &c) {
    using K = SymCond::Kind;
    std::vector<int64_t> w;
    switch (c.kind()) {
    case K::True:
      w = {kTrue};
      break;
    case K::False:
      w = {kFalse};
      break;
    case K::GeZero:
      w = {kGe0, expr(c.expr())};
      break;
    case K::EqZero:
      w = {kEq0, expr(c.expr())};
      break;
    case K::Not:
      w = {kNot, cond(c.operands()[0])};
      break;
    case K::And:
    case K::Or: {
      int64_t a = cond(c.operands()[0]), b = cond(c.operands()[1]);
      w = {c.kind() == K::And ? kAnd : kOr, a, b};
      break;
    }
    }
    conds.push_back(std::move(w));
    return conds.size() - 1;
  }
};
} // namespace

SymbolProgram mlir::layout::encodeSymbolProgram(const SymTable &table,
                                                ArrayRef<SymExpr> outputs) {
  Encoder enc;
  SymbolProgram program;
  int64_t numSteps = 0, numMessages = 0;
  size_t nextCheck = 0;
  auto checksBefore = [&](size_t before) {
    for (; nextCheck < table.checks().size() &&
           table.checks()[nextCheck].before <= before;
         ++nextCheck) {
      const SymTable::Check &c = table.checks()[nextCheck];
      enc.steps.push_back(kCheck);
      enc.steps.push_back(enc.cond(c.cond));
      enc.steps.push_back(numMessages++);
      enc.steps.push_back(static_cast<int64_t>(c.args.size()));
      for (const SymExpr &a : c.args)
        enc.steps.push_back(enc.expr(a));
      program.messages += c.message;
      program.messages.push_back('\0');
      ++numSteps;
    }
  };
  for (auto [id, s] : llvm::enumerate(table.symbols())) {
    checksBefore(id);
    ++numSteps;
    switch (s.op) {
    case SymTable::Op::Input:
      enc.steps.push_back(kInput);
      break;
    case SymTable::Op::Min:
    case SymTable::Op::Max: {
      int64_t a = enc.expr(s.operands[0]), b = enc.expr(s.operands[1]);
      enc.steps.insert(enc.steps.end(),
                       {s.op == SymTable::Op::Min ? kMin : kMax, a, b});
      break;
    }
    case SymTable::Op::FloorDiv:
    case SymTable::Op::CeilDiv:
      enc.steps.insert(enc.steps.end(),
                       {s.op == SymTable::Op::FloorDiv ? kFloorDiv : kCeilDiv,
                        enc.expr(s.operands[0]), s.divisor});
      break;
    case SymTable::Op::Select: {
      int64_t c = enc.cond(*s.cond);
      int64_t a = enc.expr(s.operands[0]), b = enc.expr(s.operands[1]);
      enc.steps.insert(enc.steps.end(), {kSelect, c, a, b});
      break;
    }
    case SymTable::Op::ViewStride: {
      int64_t newRank = s.operands.size() - 2 * s.oldRank;
      llvm::SmallVector<int64_t> operands;
      for (const SymExpr &o : s.operands)
        operands.push_back(enc.expr(o));
      enc.steps.insert(enc.steps.end(),
                       {kViewStride, s.index, s.oldRank, newRank});
      enc.steps.insert(enc.steps.end(), operands.begin(), operands.end());
      break;
    }
    case SymTable::Op::PreserveStride: {
      llvm::SmallVector<int64_t> operands;
      for (const SymExpr &o : s.operands)
        operands.push_back(enc.expr(o));
      enc.steps.insert(enc.steps.end(), {kPreserveStride, s.index, s.oldRank});
      enc.steps.insert(enc.steps.end(), operands.begin(), operands.end());
      break;
    }
    }
  }
  checksBefore(table.symbols().size());
  std::vector<int64_t> outs;
  for (const SymExpr &o : outputs)
    outs.push_back(enc.expr(o));
  int64_t header = 5;
  std::vector<int64_t> &w = program.words;
  w = {kVersion, static_cast<int64_t>(enc.exprs.size()),
       static_cast<int64_t>(enc.conds.size()), numSteps,
       static_cast<int64_t>(outs.size())};
  int64_t at = header + enc.exprs.size() + enc.conds.size() + enc.steps.size() +
               outs.size();
  for (const std::vector<int64_t> &e : enc.exprs) {
    w.push_back(at);
    at += e.size();
  }
  for (const std::vector<int64_t> &c : enc.conds) {
    w.push_back(at);
    at += c.size();
  }
  w.insert(w.end(), enc.steps.begin(), enc.steps.end());
  w.insert(w.end(), outs.begin(), outs.end());
  for (const std::vector<int64_t> &e : enc.exprs)
    w.insert(w.end(), e.begin(), e.end());
  for (const std::vector<int64_t> &c : enc.conds)
    w.insert(w.end(), c.begin(), c.end());
  return program;
}
