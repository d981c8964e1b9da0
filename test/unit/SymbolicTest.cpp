//===- SymbolicTest.cpp - Tests of the symbolic layout algebra ------------===//
//
// Hand-written cases for polynomials, ranges and checks, and a differential
// test: random view chains over arguments with dynamic sizes, built once
// symbolically and evaluated at several concrete shapes, must give what the
// static algebra (itself checked against PyTorch in LayoutAlgebraTest) gives
// at those shapes: the same error message, or the same sizes and, where the
// view has elements, the same offset and strides of every dim of size > 1
// (Symbolic.h's contract).
//
//===----------------------------------------------------------------------===//

#include "layout_rt/symbolic.h"
#include "layout/Dialect/Layout/Utils/LayoutAlgebra.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <functional>
#include <optional>
#include <random>
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

//===----------------------------------------------------------------------===//
// Differential: symbolic chains evaluated vs the static algebra.
//===----------------------------------------------------------------------===//

enum class OpKind {
  Permute,
  Transpose,
  Movedim,
  Slice,
  Select,
  Narrow,
  Expand,
  Squeeze,
  Unsqueeze,
  Unflatten,
  Diagonal,
  Unfold,
  Flip,
  View,
  Reshape,
  Flatten,
  Contiguous,
  Split,
  Reduce,
  ClonePreserve,
};
constexpr int kNumOps = static_cast<int>(OpKind::ClonePreserve) + 1;

struct Op {
  OpKind kind;
  Dims ints;
  std::optional<int64_t> start, end;
  int64_t a = 0, b = 0, c = 0;
};

std::string describe(const Op &op) {
  std::string s = "op" + std::to_string(static_cast<int>(op.kind)) + "(" +
                  formatDims(op.ints) + ", " +
                  (op.start ? std::to_string(*op.start) : "_") + ":" +
                  (op.end ? std::to_string(*op.end) : "_") + ", " +
                  std::to_string(op.a) + ", " + std::to_string(op.b) + ", " +
                  std::to_string(op.c) + ")";
  return s;
}

/// Draws an op for a layout of `rank` dims.
Op drawOp(std::mt19937 &rng, int64_t rank) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  auto dim = [&] { return rank == 0 ? 0 : pick(-rank, rank - 1); };
  Op op{static_cast<OpKind>(pick(0, kNumOps - 1)), {}, {}, {}, 0, 0, 0};
  switch (op.kind) {
  case OpKind::Permute: {
    for (int64_t d = 0; d < rank; ++d)
      op.ints.push_back(d);
    std::shuffle(op.ints.begin(), op.ints.end(), rng);
    break;
  }
  case OpKind::Transpose:
  case OpKind::Movedim:
    op.a = dim();
    op.b = dim();
    break;
  case OpKind::Slice:
    op.a = dim();
    if (pick(0, 3))
      op.start = pick(-4, 4);
    if (pick(0, 3))
      op.end = pick(-4, 6);
    op.b = pick(1, 3);
    break;
  case OpKind::Select:
    op.a = dim();
    op.b = pick(-3, 3);
    break;
  case OpKind::Narrow:
    op.a = dim();
    op.b = pick(-2, 3);
    op.c = pick(0, 3);
    break;
  case OpKind::Expand: {
    int64_t lead = pick(0, 1);
    for (int64_t i = 0; i < lead; ++i)
      op.ints.push_back(pick(1, 3));
    for (int64_t d = 0; d < rank; ++d)
      op.ints.push_back(pick(0, 2) ? -1 : pick(1, 4));
    break;
  }
  case OpKind::Squeeze:
    if (rank > 0 && pick(0, 1))
      op.ints.push_back(dim());
    break;
  case OpKind::Unsqueeze:
    op.a = pick(-rank - 1, rank);
    break;
  case OpKind::Unflatten:
    op.a = dim();
    op.ints = pick(0, 1) ? Dims{-1, pick(1, 3)} : Dims{pick(1, 3), -1};
    break;
  case OpKind::Diagonal:
    op.a = pick(-2, 2);
    op.b = dim();
    op.c = dim();
    break;
  case OpKind::Unfold:
    op.a = dim();
    op.b = pick(0, 3);
    op.c = pick(1, 2);
    break;
  case OpKind::Flip:
    if (rank > 0)
      op.ints.push_back(dim());
    break;
  case OpKind::View:
  case OpKind::Reshape:
    op.ints = pick(0, 1) ? Dims{-1} : Dims{pick(1, 3), -1};
    break;
  case OpKind::Flatten:
    op.a = dim();
    op.b = dim();
    break;
  case OpKind::Contiguous:
    op.a = rank == 4 && pick(0, 1) ? 1 : 0;
    break;
  case OpKind::Split:
    op.a = dim();
    op.ints = {pick(0, 2), pick(0, 3)};
    op.b = pick(0, 1);
    break;
  case OpKind::Reduce:
    if (rank > 0)
      op.ints.push_back(dim());
    op.a = pick(0, 1);
    op.b = pick(0, 1);
    break;
  case OpKind::ClonePreserve:
    break;
  }
  return op;
}

/// The static op; `copies` says whether its result is a new storage.
Fallible<StridedLayout> applyStatic(const Op &op, const StridedLayout &in,
                                    bool &copies) {
  copies = op.kind == OpKind::Reduce || op.kind == OpKind::ClonePreserve;
  auto mayCopy = [&](const Fallible<MaybeCopy> &r) -> Fallible<StridedLayout> {
    if (!r)
      return fail(r.message());
    copies = r->copies;
    return r->layout;
  };
  switch (op.kind) {
  case OpKind::Permute:
    return permute(in, op.ints);
  case OpKind::Transpose:
    return transpose(in, op.a, op.b);
  case OpKind::Movedim:
    return movedim(in, op.a, op.b);
  case OpKind::Slice:
    return slice(in, op.a, op.start, op.end, op.b);
  case OpKind::Select:
    return select(in, op.a, op.b);
  case OpKind::Narrow:
    return narrow(in, op.a, op.b, op.c);
  case OpKind::Expand:
    return expand(in, op.ints);
  case OpKind::Squeeze:
    return squeeze(in, op.ints);
  case OpKind::Unsqueeze:
    return unsqueeze(in, op.a);
  case OpKind::Unflatten:
    return unflatten(in, op.a, op.ints);
  case OpKind::Diagonal:
    return diagonal(in, op.a, op.b, op.c);
  case OpKind::Unfold:
    return unfold(in, op.a, op.b, op.c);
  case OpKind::Flip:
    return flip(in, op.ints);
  case OpKind::View:
    return view(in, op.ints);
  case OpKind::Reshape:
    return mayCopy(reshape(in, op.ints));
  case OpKind::Flatten:
    return mayCopy(flatten(in, op.a, op.b));
  case OpKind::Contiguous:
    return mayCopy(contiguous(in, op.a ? MemoryFormat::ChannelsLast
                                       : MemoryFormat::Contiguous));
  case OpKind::Split: {
    Fallible<llvm::SmallVector<StridedLayout, 4>> r = split(in, op.a, op.ints);
    if (!r)
      return fail(r.message());
    return (*r)[op.b];
  }
  case OpKind::Reduce: {
    Fallible<Dims> sizes = reduceSizes(in.sizes, op.ints, op.a);
    if (!sizes)
      return fail(sizes.message());
    // PyTorch's amax: all dims need elements; else each dim, in the
    // order written and named as written, must not be empty.
    if (op.b && op.ints.empty() && llvm::is_contained(in.sizes, 0))
      return fail("amax(): Expected reduction dim to be specified for "
                  "input.numel() == 0. Specify the reduction dim with the "
                  "'dim' argument.");
    for (int64_t d : op.b &&in.rank() ? op.ints : llvm::ArrayRef<int64_t>())
      if (in.sizes[*wrapDim(d, in.rank())] == 0)
        return fail("amax(): Expected reduction dim " + std::to_string(d) +
                    " to have non-zero size.");
    Fallible<Dims> strides = contiguousStrides(*sizes);
    return StridedLayout(*sizes, *strides, 0);
  }
  case OpKind::ClonePreserve:
    return cloneLayout(in, MemoryFormat::Preserve);
  }
  return fail("unknown op");
}

/// The symbolic op; `copies` is the condition under which its result is a
/// new storage.
Fallible<SymLayout> applySymbolic(SymTable &t, const Op &op,
                                  const SymLayout &in, SymCond &copies) {
  copies = op.kind == OpKind::Reduce || op.kind == OpKind::ClonePreserve
               ? SymCond::alwaysTrue()
               : SymCond::alwaysFalse();
  auto mayCopy = [&](const Fallible<SymMaybeCopy> &r) -> Fallible<SymLayout> {
    if (!r)
      return fail(r.message());
    copies = r->copies;
    return r->layout;
  };
  switch (op.kind) {
  case OpKind::Permute:
    return permute(t, in, op.ints);
  case OpKind::Transpose:
    return transpose(t, in, op.a, op.b);
  case OpKind::Movedim:
    return movedim(t, in, op.a, op.b);
  case OpKind::Slice:
    return slice(t, in, op.a, op.start, op.end, op.b);
  case OpKind::Select:
    return select(t, in, op.a, op.b);
  case OpKind::Narrow:
    return narrow(t, in, op.a, op.b, op.c);
  case OpKind::Expand:
    return expand(t, in, op.ints);
  case OpKind::Squeeze:
    return squeeze(t, in, op.ints);
  case OpKind::Unsqueeze:
    return unsqueeze(t, in, op.a);
  case OpKind::Unflatten:
    return unflatten(t, in, op.a, op.ints);
  case OpKind::Diagonal:
    return diagonal(t, in, op.a, op.b, op.c);
  case OpKind::Unfold:
    return unfold(t, in, op.a, op.b, op.c);
  case OpKind::Flip:
    return flip(t, in, op.ints);
  case OpKind::View:
    return view(t, in, op.ints);
  case OpKind::Reshape:
    return mayCopy(reshape(t, in, op.ints));
  case OpKind::Flatten:
    return mayCopy(flatten(t, in, op.a, op.b));
  case OpKind::Contiguous:
    return mayCopy(contiguous(
        t, in, op.a ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous));
  case OpKind::Split: {
    Fallible<llvm::SmallVector<SymLayout, 4>> r = split(t, in, op.a, op.ints);
    if (!r)
      return fail(r.message());
    return (*r)[op.b];
  }
  case OpKind::Reduce:
    return reduceLayout(t, in, op.ints, op.a, op.b, "amax");
  case OpKind::ClonePreserve:
    return cloneLayout(t, in, MemoryFormat::Preserve);
  }
  return fail("unknown op");
}

/// Symbolic.h's contract: sizes equal; with elements, offset and the strides
/// of dims of size > 1 equal.
bool sameAddresses(const StridedLayout &a, const StridedLayout &b) {
  if (a.sizes != b.sizes)
    return false;
  Fallible<int64_t> n = numel(a.sizes);
  if (!n || *n == 0)
    return true;
  if (a.offset != b.offset)
    return false;
  for (int64_t d = 0; d < a.rank(); ++d)
    if (a.sizes[d] > 1 && a.strides[d] != b.strides[d])
      return false;
  return true;
}

TEST(SymbolicViews, RandomChainsMatchTheStaticAlgebra) {
  std::mt19937 rng(20261126);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  const int64_t kChains = 4000, kShapes = 5;
  int64_t supported = 0, compared = 0, runtimeErrors = 0, staticErrors = 0,
          interpreterErrors = 0, aliasesCopied = 0;
  std::vector<int64_t> opsSeen(kNumOps, 0);
  for (int64_t chain = 0; chain < kChains; ++chain) {
    // An argument of rank 1-4; each size dynamic with probability 3/4, else
    // a fixed size.
    int64_t rank = pick(1, 4);
    StridedLayout declared;
    Dims fixed;
    for (int64_t d = 0; d < rank; ++d) {
      bool dynamic = pick(0, 3) != 0;
      int64_t size = pick(0, 4);
      declared.sizes.push_back(dynamic ? kDynamic : size);
      fixed.push_back(dynamic ? -1 : size);
    }
    declared.strides = rowMajorStridesWhereKnown(declared.sizes);
    SymTable t;
    Fallible<SymLayout> sym = symbolicArgument(t, declared, "x");
    ASSERT_TRUE(sym) << sym.message();
    std::vector<Op> ops;
    std::optional<std::string> compileError;
    int64_t length = pick(1, 5);
    SymLayout cur = *sym;
    // Whether the result is a view of the argument: no op copied.
    SymCond aliases = SymCond::alwaysTrue();
    for (int64_t i = 0; i < length; ++i) {
      Op op = drawOp(rng, cur.rank());
      ops.push_back(op);
      SymCond copies = SymCond::alwaysFalse();
      Fallible<SymLayout> next = applySymbolic(t, op, cur, copies);
      if (!next) {
        compileError = next.message();
        break;
      }
      aliases = SymCond::both(std::move(aliases), SymCond::negate(copies));
      cur = *next;
    }
    // Chains the symbolic algebra declines (a rank or view decision that
    // depends on run-time sizes) are not compared.
    bool declined =
        compileError && (compileError->find("depends on its run-time size") !=
                             std::string::npos ||
                         compileError->find("cannot prove non-overlapping") !=
                             std::string::npos);
    if (declined)
      continue;
    ++supported;
    for (const Op &op : ops)
      ++opsSeen[static_cast<int>(op.kind)];
    for (int64_t shape = 0; shape < kShapes; ++shape) {
      std::vector<int64_t> inputs;
      Dims sizes;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t v =
            fixed[d] >= 0
                ? fixed[d]
                : std::array<int64_t, 7>{0, 1, 2, 3, 4, 5, 7}[pick(0, 6)];
        if (fixed[d] < 0)
          inputs.push_back(v);
        sizes.push_back(v);
      }
      StridedLayout concrete(sizes, *contiguousStrides(sizes), 0);
      std::optional<std::string> staticError;
      bool staticAliases = true;
      for (const Op &op : ops) {
        bool copies = false;
        Fallible<StridedLayout> next = applyStatic(op, concrete, copies);
        if (!next) {
          staticError = next.message();
          break;
        }
        staticAliases = staticAliases && !copies;
        concrete = *next;
      }
      std::string trace;
      for (const Op &op : ops)
        trace += describe(op) + " ";
      trace += "at sizes " + formatDims(sizes);
      Fallible<std::vector<int64_t>> values = t.evaluate(inputs);
      // layout_rt's interpreter of the encoded table agrees: the same
      // symbol values and output layout, or the same message.
      std::vector<SymExpr> outs(cur.sizes.begin(), cur.sizes.end());
      outs.insert(outs.end(), cur.strides.begin(), cur.strides.end());
      outs.push_back(cur.offset);
      SymbolProgram program = encodeSymbolProgram(t, outs);
      std::vector<int64_t> rtValues(t.symbols().size() + 1),
          rtOutputs(outs.size() + 1);
      ASSERT_EQ(lrt_symbolic_num_symbols(program.words.data()),
                static_cast<int64_t>(t.symbols().size()));
      ASSERT_EQ(lrt_symbolic_num_inputs(program.words.data()),
                static_cast<int64_t>(inputs.size()));
      lrt_status_t st =
          lrt_symbolic_run("f", program.words.data(), program.messages.data(),
                           inputs.data(), rtValues.data(), rtOutputs.data());
      if (values) {
        EXPECT_EQ(st, LRT_OK) << trace << ": " << lrt_status_message(st);
        if (st == LRT_OK) {
          rtValues.pop_back();
          EXPECT_EQ(rtValues, *values) << trace;
          Fallible<StridedLayout> l = SymTable::evaluate(cur, *values);
          if (l) {
            std::vector<int64_t> expected(l->sizes.begin(), l->sizes.end());
            expected.insert(expected.end(), l->strides.begin(),
                            l->strides.end());
            expected.push_back(l->offset);
            rtOutputs.pop_back();
            EXPECT_EQ(rtOutputs, expected) << trace;
          }
        }
      } else if (!compileError ||
                 compileError->find("{") == std::string::npos) {
        ASSERT_NE(st, LRT_OK) << trace;
        EXPECT_EQ(std::string(lrt_status_message(st)), "f: " + values.message())
            << trace;
        ++interpreterErrors;
      }
      lrt_status_free(st);
      if (compileError) {
        // Every shape fails: with the message, when it names no symbol, or
        // else with the failed check's message at these values.
        ASSERT_TRUE(staticError)
            << trace << ": symbolic error " << *compileError;
        if (values)
          EXPECT_EQ(*staticError, *compileError) << trace;
        else
          EXPECT_EQ(*staticError, values.message()) << trace;
        ++staticErrors;
        continue;
      }
      if (staticError) {
        ASSERT_FALSE(values) << trace << ": static error " << *staticError;
        EXPECT_EQ(values.message(), *staticError) << trace;
        ++runtimeErrors;
        continue;
      }
      ASSERT_TRUE(values) << trace << ": " << values.message();
      Fallible<StridedLayout> evaluated = SymTable::evaluate(cur, *values);
      ASSERT_TRUE(evaluated) << trace;
      EXPECT_TRUE(sameAddresses(*evaluated, concrete))
          << trace << ": symbolic " << evaluated->str() << " static "
          << concrete.str();
      // Aliasing where the argument has elements: an empty view's strides
      // are unspecified (Symbolic.h), and is_contiguous(channels_last)
      // reads them even without elements.
      Fallible<bool> symbolicAliases = SymTable::evaluate(aliases, *values);
      ASSERT_TRUE(symbolicAliases) << trace;
      if (!llvm::is_contained(sizes, 0)) {
        EXPECT_EQ(*symbolicAliases, staticAliases) << trace << ": aliasing";
      }
      aliasesCopied += !staticAliases && llvm::any_of(ops, [](const Op &op) {
        return op.kind == OpKind::Reshape || op.kind == OpKind::Flatten;
      });
      ++compared;
    }
  }
  std::printf("%lld chains compared, %lld shapes equal, %lld run-time errors "
              "equal (%lld through layout_rt's interpreter too), %lld "
              "compile-time errors equal, %lld copies through reshape or "
              "flatten\n",
              (long long)supported, (long long)compared,
              (long long)runtimeErrors, (long long)interpreterErrors,
              (long long)staticErrors, (long long)aliasesCopied);
  // The generator must exercise what it claims to.
  EXPECT_GE(supported, 2000);
  EXPECT_GE(compared, 6000);
  EXPECT_GE(runtimeErrors, 300);
  EXPECT_GE(staticErrors, 50);
  EXPECT_GE(interpreterErrors, 300);
  // Reshapes and flattens that copy at some shapes are compared too.
  EXPECT_GE(aliasesCopied, 100);
  for (int k = 0; k < kNumOps; ++k)
    EXPECT_GE(opsSeen[k], 100) << "op " << k;
}

} // namespace
