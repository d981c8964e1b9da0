//===- SymbolicTest.cpp - Tests of the symbolic layout algebra ------------===//
//
// Hand-written cases for polynomials, ranges, checks and decisions made at
// run time (SymbolicChainsTest.cpp has the differential test).
//
//===----------------------------------------------------------------------===//

#include "layout_rt/symbolic.h"
#include "layout/Dialect/Layout/Utils/LayoutAlgebra.h"

#include "gtest/gtest.h"

#include <functional>
#include <optional>
#include <utility>

namespace {

using namespace mlir::layout;
using llvm::ArrayRef;

TEST(SymExpr, CanonicalArithmetic) {
  SymTable t;
  SymExpr n = t.input("n", true), c = t.input("c", true);
  EXPECT_EQ(n * c, c * n);
  EXPECT_EQ(n + c - n, c);
  EXPECT_EQ((n + 1) * (n - 1), n * n - 1);
  EXPECT_TRUE((n - n).isConstant(0));
  EXPECT_EQ(t.str(c * n * 3 + n - 2), "3*n*c + n - 2");
  EXPECT_EQ(t.str(-n), "-n");
  SymExpr big = SymExpr(std::numeric_limits<int64_t>::max()) * n;
  EXPECT_FALSE(big.overflowed());
  EXPECT_TRUE((big + big).overflowed());
  EXPECT_TRUE((big * 2).overflowed());
}

TEST(SymTable, RangesDecideAndFold) {
  SymTable t;
  SymExpr n = t.input("n", true), s = t.input("s", false);
  EXPECT_EQ(t.decide(SymCond::ge(n, SymExpr(0))), true);
  EXPECT_EQ(t.decide(SymCond::ge(n * n + 1, SymExpr(1))), true);
  EXPECT_EQ(t.decide(SymCond::lt(n, SymExpr(0))), false);
  EXPECT_EQ(t.decide(SymCond::ge(s, SymExpr(0))), std::nullopt);
  EXPECT_EQ(t.decide(SymCond::eq(n + 1, SymExpr(0))), false);
  // max(n, 0) is n; min(n, 5) is a new symbol in [0, 5].
  EXPECT_EQ(t.max(n, SymExpr(0)), n);
  SymExpr m = t.min(n, SymExpr(5));
  ASSERT_TRUE(m.asSymbol());
  EXPECT_EQ(t.definition(*m.asSymbol()), "min(n, 5)");
  EXPECT_EQ(t.decide(SymCond::ge(SymExpr(5), m)), true);
  // The same definition is the same symbol.
  EXPECT_EQ(t.min(n, SymExpr(5)), m);
  EXPECT_EQ(t.floorDiv(n * 4 + 8, 4), n + 2);
  EXPECT_EQ(t.ceilDiv(SymExpr(7), 2), SymExpr(4));
}

TEST(SymTable, ChecksRunInOrderWithValues) {
  SymTable t;
  SymExpr n = t.input("n", true);
  ASSERT_TRUE(
      t.require(SymCond::lt(SymExpr(3), n), "index 3 of size {0}", {n}));
  EXPECT_EQ(t.checks().size(), 1u);
  EXPECT_EQ(t.format(t.checks()[0]), "index 3 of size n");
  // Statically false: an error now, with the expression printed.
  Fallible<std::monostate> never =
      t.require(SymCond::lt(n, SymExpr(0)), "negative {0}", {n});
  ASSERT_FALSE(never);
  EXPECT_EQ(never.message(), "negative n");
  // Statically true: nothing recorded. The failed check is kept, so that
  // evaluation reports it with values.
  ASSERT_TRUE(t.require(SymCond::ge(n, SymExpr(0)), "x"));
  EXPECT_EQ(t.checks().size(), 2u);
  Fallible<std::vector<int64_t>> bad = t.evaluate({3});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.message(), "index 3 of size 3");
  bad = t.evaluate({4});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.message(), "negative 4");
}

/// Runs `program` with its first step of code `code` changed by `corrupt`
/// (given the step's words): layout_rt's interpreter must answer
/// LRT_STATUS_INTERNAL.
void expectMalformedStep(const SymbolProgram &program, int64_t code,
                         const std::function<void(int64_t *)> &corrupt,
                         std::vector<int64_t> inputs, size_t numSymbols,
                         size_t numOutputs) {
  std::vector<int64_t> words = program.words;
  for (size_t i = 5 + words[1] + words[2]; i < words.size(); ++i)
    if (words[i] == code) {
      corrupt(&words[i]);
      break;
    }
  std::vector<int64_t> values(numSymbols), outputs(numOutputs);
  lrt_status_t st =
      lrt_symbolic_run("f", words.data(), program.messages.data(),
                       inputs.data(), values.data(), outputs.data());
  ASSERT_NE(st, LRT_OK);
  EXPECT_EQ(lrt_status_code(st), LRT_STATUS_INTERNAL);
  lrt_status_free(st);
}

/// A row-major argument x[0] x x[1] x x[2] (`x`), transposed in its last
/// two dims and flattened there: a view only where x[1] or x[2] is 1 (or
/// there are no elements), decided at run time. Null where a step fails.
static std::optional<std::pair<SymLayout, SymMaybeCopy>>
flattenedTranspose(SymTable &t) {
  Fallible<SymLayout> x = symbolicArgument(
      t,
      StridedLayout({kDynamic, kDynamic, kDynamic}, {kDynamic, kDynamic, 1}, 0),
      "x");
  if (!x)
    return std::nullopt;
  Fallible<SymLayout> tr = transpose(t, *x, 1, 2);
  if (!tr)
    return std::nullopt;
  Fallible<SymMaybeCopy> f = flatten(t, *tr, 1, 2);
  if (!f)
    return std::nullopt;
  return std::make_pair(*x, *f);
}

TEST(SymbolicViews, ViewDecidedAtRunTime) {
  SymTable t;
  auto built = flattenedTranspose(t);
  ASSERT_TRUE(built);
  const SymMaybeCopy *f = &built->second;
  EXPECT_EQ(t.decide(f->copies), std::nullopt);
  SymExpr copies = t.select(f->copies, SymExpr(1), SymExpr(0));
  std::vector<SymExpr> outs(f->layout.strides.begin(), f->layout.strides.end());
  outs.push_back(copies);
  SymbolProgram program = encodeSymbolProgram(t, outs);
  for (Dims sizes : {Dims{2, 3, 4}, Dims{2, 1, 4}, Dims{2, 3, 1}, Dims{0, 3, 4},
                     Dims{5, 0, 2}}) {
    StridedLayout concrete(sizes, *contiguousStrides(sizes), 0);
    Fallible<MaybeCopy> want = flatten(*transpose(concrete, 1, 2), 1, 2);
    ASSERT_TRUE(want);
    std::vector<int64_t> inputs(sizes.begin(), sizes.end());
    Fallible<std::vector<int64_t>> values = t.evaluate(inputs);
    ASSERT_TRUE(values);
    std::vector<int64_t> rtValues(t.symbols().size()), rtOutputs(outs.size());
    lrt_status_t st =
        lrt_symbolic_run("f", program.words.data(), program.messages.data(),
                         inputs.data(), rtValues.data(), rtOutputs.data());
    ASSERT_EQ(st, LRT_OK) << lrt_status_message(st);
    EXPECT_EQ(rtValues, *values);
    EXPECT_EQ(rtOutputs.back(), want->copies ? 1 : 0) << formatDims(sizes);
    if (llvm::is_contained(sizes, 0))
      continue;
    for (size_t k = 0; k < 2; ++k) {
      if (want->layout.sizes[k] > 1) {
        EXPECT_EQ(rtOutputs[k], want->layout.strides[k]) << formatDims(sizes);
      }
    }
  }
  // A VIEW_STRIDE step of a rank above LRT_SYMBOLIC_MAX_RANK is malformed,
  // and the algebra does not make one.
  expectMalformedStep(
      program, LRT_SYM_VIEW_STRIDE,
      [](int64_t *step) { step[2] = LRT_SYMBOLIC_MAX_RANK + 1; }, {2, 3, 4},
      t.symbols().size(), outs.size());
  SymLayout wide;
  for (int64_t d = 0; d <= kMaxRuntimeViewRank; ++d) {
    wide.sizes.push_back(t.input("w" + std::to_string(d), true));
    wide.strides.push_back(t.input("w.stride" + std::to_string(d), false));
  }
  wide.offset = SymExpr(0);
  Fallible<SymLayout> v = view(t, wide, {-1});
  ASSERT_FALSE(v);
  EXPECT_NE(v.message().find("decided at run time, for ranks up to 64"),
            std::string::npos)
      << v.message();
}

TEST(SymTable, AssumingTakesOneCaseOfARunTimeDecision) {
  // x.transpose(1, 2).flatten(1, 2), transposed again: its strides select
  // between computeStride's view and the row-major copy at run time.
  SymTable t;
  auto built = flattenedTranspose(t);
  ASSERT_TRUE(built);
  const SymLayout *x = &built->first;
  const SymMaybeCopy *f = &built->second;
  Fallible<SymLayout> v = transpose(t, f->layout, 0, 1);
  ASSERT_TRUE(v);
  // A value derived from a selected one is derived again in each case.
  SymExpr capped = t.min(v->strides[1], SymExpr(5));
  // Where it copies: the transpose of a row-major [x0, x1*x2].
  SymExpr x1 = x->sizes[1], x2 = x->sizes[2];
  EXPECT_EQ(t.assuming(v->strides[0], f->copies, true), SymExpr(1));
  EXPECT_EQ(t.assuming(v->strides[1], f->copies, true), x1 * x2);
  EXPECT_EQ(t.assuming(v->offset, f->copies, true), SymExpr(0));
  // Where it does not: the view's strides.
  EXPECT_EQ(t.assuming(v->strides[0], f->copies, false), f->view.strides[1]);
  EXPECT_EQ(t.assuming(v->strides[1], f->copies, false), f->view.strides[0]);
  SymExpr cappedCopy = t.assuming(capped, f->copies, true);
  SymExpr cappedView = t.assuming(capped, f->copies, false);
  // Sizes do not read the decision.
  EXPECT_EQ(t.assuming(v->sizes[0], f->copies, true), v->sizes[0]);
  for (Dims sizes :
       {Dims{2, 3, 4}, Dims{2, 1, 4}, Dims{3, 7, 1}, Dims{1, 1, 9}}) {
    std::vector<int64_t> inputs(sizes.begin(), sizes.end());
    Fallible<std::vector<int64_t>> values = t.evaluate(inputs);
    ASSERT_TRUE(values) << values.message();
    Fallible<bool> copies = SymTable::evaluate(f->copies, *values);
    ASSERT_TRUE(copies);
    StridedLayout concrete(sizes, *contiguousStrides(sizes), 0);
    StridedLayout copy =
        *transpose(StridedLayout({sizes[0], sizes[1] * sizes[2]},
                                 {sizes[1] * sizes[2], 1}, 0),
                   0, 1);
    EXPECT_EQ(*SymTable::evaluate(cappedCopy, *values),
              std::min<int64_t>(copy.strides[1], 5))
        << formatDims(sizes);
    // The case that holds is the selection itself.
    Fallible<int64_t> actual = SymTable::evaluate(capped, *values);
    EXPECT_EQ(*SymTable::evaluate(*copies ? cappedCopy : cappedView, *values),
              *actual)
        << formatDims(sizes);
    if (*copies)
      continue;
    // Where PyTorch views: computeStride's stride of flatten's dim 0.
    Fallible<MaybeCopy> want = flatten(*transpose(concrete, 1, 2), 1, 2);
    ASSERT_TRUE(want && !want->copies);
    EXPECT_EQ(*SymTable::evaluate(cappedView, *values),
              std::min<int64_t>(want->layout.strides[0], 5))
        << formatDims(sizes);
  }
}

TEST(SymbolicViews, RowMajorArgumentPermuteAndContiguous) {
  SymTable t;
  // !layout.tensor<?x?x?xf32>: strides are products of the sizes.
  Fallible<SymLayout> x = symbolicArgument(
      t,
      StridedLayout({kDynamic, kDynamic, kDynamic}, {kDynamic, kDynamic, 1}, 0),
      "x");
  ASSERT_TRUE(x);
  EXPECT_EQ(t.str(x->strides[0]), "x[1]*x[2]");
  EXPECT_EQ(t.decide(isContiguousIn(*x, MemoryFormat::Contiguous)), true);
  Fallible<SymLayout> p = permute(t, *x, {2, 0, 1});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->project(), StridedLayout({kDynamic, kDynamic, kDynamic},
                                        {1, kDynamic, kDynamic}, 0));
  // Contiguous only when sizes are 1 or the tensor is empty: a run-time
  // decision.
  Fallible<SymMaybeCopy> c = contiguous(t, *p, MemoryFormat::Contiguous);
  ASSERT_TRUE(c);
  EXPECT_EQ(t.decide(c->copies), std::nullopt);
  // A declared `?` stride outside the row-major form is an input.
  SymTable u;
  Fallible<SymLayout> y =
      symbolicArgument(u, StridedLayout({kDynamic, 4}, {kDynamic, 1}, 3), "y");
  ASSERT_TRUE(y);
  EXPECT_EQ(u.str(y->strides[0]), "y.stride[0]");
}

TEST(SymbolicViews, SqueezeOfDynamicDimIsACompileTimeError) {
  SymTable t;
  Fallible<SymLayout> x =
      symbolicArgument(t, StridedLayout({kDynamic, 1}, {1, 1}, 0), "x");
  ASSERT_TRUE(x);
  Fallible<SymLayout> s = squeeze(t, *x, {1});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->rank(), 1);
  Fallible<SymLayout> bad = squeeze(t, *x, {0});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.message().find("depends on its run-time size"),
            std::string::npos);
}

TEST(SymbolicViews, PreserveStridesDecidedAtRunTime) {
  // clone(preserve_format) of a view whose density and stride order are
  // known only at run time: an argument with every size and stride dynamic.
  // The compile-time evaluation and layout_rt's interpreter both give the
  // static cloneLayout's strides, for every dim, size-1 dims included.
  SymTable t;
  Fallible<SymLayout> x =
      symbolicArgument(t,
                       StridedLayout({kDynamic, kDynamic, kDynamic},
                                     {kDynamic, kDynamic, kDynamic}, 0),
                       "x");
  ASSERT_TRUE(x);
  Fallible<SymLayout> c = cloneLayout(t, *x, MemoryFormat::Preserve);
  ASSERT_TRUE(c) << c.message();
  EXPECT_EQ(t.definition(*c->strides[1].asSymbol()),
            "preserveStrides([x[0], x[1], x[2]], [x.stride[0], x.stride[1], "
            "x.stride[2]])[1]");
  std::vector<SymExpr> outs(c->strides.begin(), c->strides.end());
  SymbolProgram program = encodeSymbolProgram(t, outs);
  struct Case {
    Dims sizes, strides;
  };
  std::vector<Case> cases = {
      {{2, 3, 4}, {12, 4, 1}},  // dense: kept
      {{2, 3, 4}, {1, 2, 6}},   // dense, reversed: kept
      {{2, 3, 4}, {24, 8, 2}},  // a step-2 slice: dense in the same order
      {{2, 3, 4}, {-12, 4, 1}}, // a flip: the negative stride goes innermost
      {{2, 3, 4}, {0, 4, 1}},   // expanded: stride 0 compares as ambiguous
      {{2, 3, 4}, {4, 0, 1}},   {{2, 1, 4}, {4, 7, 1}}, // size 1: kept
      {{2, 1, 4}, {9, 7, 1}},   {{3, 3, 3}, {1, 1, 9}}, // equal strides
      {{4, 2, 3}, {1, 1, 9}},   {{2, 0, 4}, {5, 3, 1}}, // no elements
      {{5, 3, 2}, {1, 5, 30}}, // a gap: dense in the same order
  };
  for (const Case &k : cases) {
    // Input symbols in the order symbolicArgument makes them.
    std::vector<int64_t> inputs(k.sizes.begin(), k.sizes.end());
    inputs.insert(inputs.end(), k.strides.begin(), k.strides.end());
    StridedLayout concrete(k.sizes, k.strides, 0);
    Fallible<StridedLayout> want =
        cloneLayout(concrete, MemoryFormat::Preserve);
    ASSERT_TRUE(want);
    Fallible<std::vector<int64_t>> values = t.evaluate(inputs);
    ASSERT_TRUE(values) << values.message();
    Fallible<StridedLayout> got = SymTable::evaluate(*c, *values);
    ASSERT_TRUE(got);
    EXPECT_EQ(got->strides, want->strides) << concrete.str();
    std::vector<int64_t> rtValues(t.symbols().size()), rtOutputs(outs.size());
    lrt_status_t st =
        lrt_symbolic_run("f", program.words.data(), program.messages.data(),
                         inputs.data(), rtValues.data(), rtOutputs.data());
    ASSERT_EQ(st, LRT_OK) << lrt_status_message(st);
    EXPECT_EQ(rtValues, *values) << concrete.str();
    EXPECT_EQ(Dims(rtOutputs.begin(), rtOutputs.end()), want->strides)
        << concrete.str();
  }
  // A PRESERVE_STRIDE step whose index is not below its rank is malformed.
  expectMalformedStep(
      program, LRT_SYM_PRESERVE_STRIDE,
      [](int64_t *step) { step[1] = step[2]; }, {2, 3, 4, 12, 4, 1},
      t.symbols().size(), outs.size());
}

} // namespace
