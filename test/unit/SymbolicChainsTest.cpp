//===- SymbolicChainsTest.cpp - Symbolic chains vs the static algebra -----===//
//
// A differential test: random view chains over arguments with dynamic sizes,
// built once symbolically and evaluated at several concrete shapes, must give
// what the static algebra (itself checked against PyTorch in
// LayoutAlgebraTest) gives at those shapes: the same error message, or the
// same sizes and, where the view has elements, the same offset and strides
// of every dim of size > 1 (Symbolic.h's contract).
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/LayoutAlgebra.h"
#include "layout_rt/symbolic.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <optional>
#include <random>
#include <utility>

namespace {

using namespace mlir::layout;
using llvm::ArrayRef;

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
