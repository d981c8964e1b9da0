//===- RuntimeBlocks.cpp - Run-time tiles with a loop inside b-blocks ----===//
//
// The run-time-extent form of the static TransposeTiling::insideBlocks
// (docs/internals/planner.md, Inside loops within b-blocks): beyond L2, for
// tiles that store normally, the loop that continues the tiles' source rows
// exactly (and not the destination rows) runs within each b-block, so that
// a tile's rows read contiguous streams, rather than around whole planes
// whose rows lie b's large source stride apart.
//
//===----------------------------------------------------------------------===//

#include "CPUKernels.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cpu;

/// The loop around the planes that continues a's source rows and not b's
/// destination rows in the plan's representative layout, if any: the one
/// rtBlocks may run within b-blocks.
std::optional<int64_t>
KernelBuilder::rtBlocksLoop(ArrayRef<int64_t> outside) const {
  for (int64_t l : outside)
    if (continuesSourceRows(k.plan, k.plan.loops[l]) &&
        !continuesDestinationRows(k.plan, k.plan.loops[l]))
      return l;
  return std::nullopt;
}

/// Whether the actual extents take rtBlocks: traffic beyond L2, tiles that
/// store normally (no streaming traffic, or destination rows not a whole
/// number of lines apart: skewed and staged rows were ruled out before), and
/// `inner` continuing a's source rows (and not b's destination rows) with a
/// smaller source stride than b's, as the static planner's inside loops have.
Value KernelBuilder::rtBlocksApply(int64_t inner) {
  auto [a, bl] = *k.plan.tiledLoops;
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(e.b, p, x, y).getResult();
  };
  auto abs = [&](Value v) {
    return arith::SelectOp::create(e.b,
                                   cmp(arith::CmpIPredicate::slt, v, e.c64(0)),
                                   arith::SubIOp::create(e.b, e.c64(0), v), v);
  };
  // Strides the same for every size are constants, not loaded extents.
  auto stride = [&](int64_t l, bool source) {
    Value v = source ? rtSrcStrides[l] : rtDstStrides[l];
    return v ? v : e.c64(*staticStride(l, source));
  };
  Value traffic = e.mulc(e.product(rtSizes), src.bytes + dst.bytes);
  Value conds[] = {
      cmp(arith::CmpIPredicate::sgt, traffic, e.c64(cpu().l2Bytes)),
      arith::OrIOp::create(e.b, e.not_(rtStream),
                           rtRowsOffLines(stride(a, false))),
      cmp(arith::CmpIPredicate::eq, stride(inner, true),
          e.mul(rtSizes[a], stride(a, true))),
      cmp(arith::CmpIPredicate::ne, stride(inner, false),
          e.mul(rtSizes[bl], stride(bl, false))),
      cmp(arith::CmpIPredicate::slt, abs(stride(inner, true)),
          abs(stride(bl, true))),
  };
  Value all = conds[0];
  for (Value c : ArrayRef<Value>(conds).drop_front())
    all = arith::AndIOp::create(e.b, all, c);
  return all;
}

/// The other loops around, then b in blocks of a destination line (at
/// least a square), `inner` within each block, and the block's tiles.
void KernelBuilder::rtBlocks(ArrayRef<int64_t> outside, int64_t inner) {
  int64_t bl = k.plan.tiledLoops->second;
  int64_t n = k.plan.squareEdge;
  int64_t width = n * std::clamp<int64_t>(lineElements(dst.bytes) / n, 1, 4);
  SmallVector<int64_t> around;
  for (int64_t l : outside)
    if (l != inner)
      around.push_back(l);
  int64_t innerLoop[] = {inner};
  rtOuterLoops(around, 0, e.c64(0), e.c64(0), [&](Value s, Value d) {
    Range rb = rtRange(bl);
    e.forLoop(rb.lo, rb.hi, width, [&](Value b0) {
      rtBlock = Range{b0, e.minI(e.add(b0, e.c64(width)), rb.hi)};
      rtPlaneBounds();
      rtOuterLoops(innerLoop, 0, s, d,
                   [&](Value s, Value d) { rtTiles(s, d); });
      rtBlock.reset();
    });
  });
}
