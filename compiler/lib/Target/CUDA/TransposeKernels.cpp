//===- TransposeKernels.cpp - Transpose kernels ---------------------------===//
//
// The kernels of transposes, plans whose destination's unit-stride loop b is
// not the source's unit-stride loop a. When both are long enough to tile: a
// vector transpose (each lane moves a width x width block through
// registers) when their extents are whole vectors, and a 32x32
// shared-memory tile for the rest and for misaligned pointers. When b is
// shorter than minTileSide: an interleave (NCHW -> NHWC with 3 channels)
// or the elementwise kernels of CopyKernels.cpp.
//
//===----------------------------------------------------------------------===//

#include "PlanKernelPrinter.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cuda;

// Overrides vectorTranspose's lane shape for every vector transpose, so that
// other shapes can be timed against its choice (bench/notes/cuda-kernels.md);
// 0 keeps its choice.
llvm::cl::opt<int> cuda::clTransposeLoadLanes(
    "cuda-transpose-load-lanes",
    llvm::cl::desc("Lanes of a warp along the source rows in CUDA vector "
                   "transposes (1, 2, 4, 8, 16 or 32; the rest go along the "
                   "destination rows; 0: chosen per transpose)"),
    llvm::cl::init(0), llvm::cl::Hidden);

/// A transpose's tiled loops a and b and the others, outermost first.
std::tuple<Loop, Loop, std::vector<Loop>>
PlanKernelPrinter::splitTiled() const {
  auto [ia, ib] = *k.plan.tiledLoops;
  std::vector<Loop> loops = planLoops(), outer;
  for (size_t i = 0; i < loops.size(); ++i)
    if (static_cast<int64_t>(i) != ia && static_cast<int64_t>(i) != ib)
      outer.push_back(loops[i]);
  return {loops[ia], loops[ib], outer};
}

//===----------------------------------------------------------------------===//
// Vector transposes and interleaves
//===----------------------------------------------------------------------===//

/// Transposes too narrow to tile whose short loop b is the destination's
/// unit-stride loop and whose a (the source's) steps the destination by
/// b's extent: every `width` consecutive values of a and all of b are one
/// contiguous destination run of b.size vectors.
std::optional<VectorSpec> PlanKernelPrinter::vectorInterleave() const {
  std::optional<VectorSpec> v = vectorSpec();
  if (!v || !hasTiledLoops())
    return std::nullopt;
  auto [ia, ib] = *k.plan.tiledLoops;
  std::vector<Loop> loops = planLoops();
  int64_t width = v->width;
  const Loop &la = loops[ia], &lb = loops[ib];
  // a's vectors start `width` source elements and width * b.size
  // destination elements apart (a's destination stride is b.size); b's
  // rows and the other loops must keep that.
  if (la.srcStride != 1 || lb.dstStride != 1 || la.dstStride != lb.size ||
      lb.size >= gpu().minTileSide || la.size % width != 0 ||
      !stridesAligned(loops, width, ia, {ia, ib}))
    return std::nullopt;
  v->interleave = true;
  v->rows = lb.size;
  v->grid = blocksFor(dstElements / (width * lb.size), gpu().block);
  return v;
}

/// Transposes whose tiled loops are unit-stride on their sides (a in the
/// source, b in the destination) and whose extents are whole vectors: a
/// lane loads a width x width block as `width` vectors along a,
/// transposes it in registers, and stores `width` vectors along b.
std::optional<VectorSpec> PlanKernelPrinter::vectorTranspose() const {
  std::optional<VectorSpec> spec = vectorSpec();
  if (!spec)
    return std::nullopt;
  VectorSpec v = *spec;
  auto [ia, ib] = *k.plan.tiledLoops;
  std::vector<Loop> loops = planLoops();
  int64_t width = v.width;
  const Loop &la = loops[ia], &lb = loops[ib];
  if (la.srcStride != 1 || lb.dstStride != 1 || la.size % width != 0 ||
      lb.size % width != 0 || !stridesAligned(loops, width, ia, ib))
    return std::nullopt;
  // A warp's loads cover lanesA lanes' vectors of each source row, its
  // stores lanesB lanes' of each destination row. Rows on both sides far
  // apart (a DRAM page or more): 2 x 16, each store a run of 16 vectors
  // (256 bytes) and each load one sector of 16 rows; else 8 x 4, each
  // load a whole line. Short extents give their lanes to the other side.
  // (The measurements behind the shapes: bench/notes/cuda-kernels.md.)
  int64_t groupsA = la.size / width, groupsB = lb.size / width;
  bool farRows = std::abs(lb.srcStride) * src.bytes >= gpu().farRowBytes &&
                 std::abs(la.dstStride) * dst.bytes >= gpu().farRowBytes;
  v.lanesA = clTransposeLoadLanes ? int64_t(clTransposeLoadLanes)
             : farRows            ? 2
                                  : 8;
  v.lanesB = 32 / v.lanesA;
  if (groupsB < v.lanesB) {
    v.lanesB = int64_t(llvm::PowerOf2Ceil(groupsB));
    v.lanesA = 32 / v.lanesB;
  } else if (groupsA < v.lanesA) {
    v.lanesA = int64_t(llvm::PowerOf2Ceil(groupsA));
    v.lanesB = 32 / v.lanesA;
  }
  // Both short (a 16 x 16 tile of floats): the warp takes several tiles,
  // consecutive ones (the next loop outside) in consecutive lane groups.
  v.lanesA = std::min(v.lanesA, int64_t(llvm::PowerOf2Ceil(groupsA)));
  v.grid = blocksFor(ceilDiv(warpTiles(v), tilesPerWarp(v)), gpu().block / 32);
  return v;
}

/// Tiles a warp moves at once: 32 / (lanesA * lanesB).
int64_t PlanKernelPrinter::tilesPerWarp(const VectorSpec &v) {
  return 32 / (v.lanesA * v.lanesB);
}

/// Warp tiles of a vector transpose: (lanesA x lanesB) blocks of
/// width x width elements, times the other loops.
int64_t PlanKernelPrinter::warpTiles(const VectorSpec &v) const {
  auto [ia, ib] = *k.plan.tiledLoops;
  int64_t tiles = 1;
  for (auto [i, l] : llvm::enumerate(k.plan.loops)) {
    if (static_cast<int64_t>(i) == ia)
      tiles *= ceilDiv(l.size, v.lanesA * v.width);
    else if (static_cast<int64_t>(i) == ib)
      tiles *= ceilDiv(l.size, v.lanesB * v.width);
    else
      tiles *= l.size;
  }
  return tiles;
}

/// A thread per `width` consecutive values of a (with all other loops
/// but b): one vector load from each of b's rows, an interleave in
/// registers, b.size contiguous vector stores. Consecutive threads take
/// consecutive vectors of each source row and of the destination run.
void PlanKernelPrinter::printVectorInterleave(Printer &p) {
  auto [ia, ib] = *k.plan.tiledLoops;
  std::vector<Loop> loops = planLoops();
  const Loop la = loops[ia], lb = loops[ib];
  int64_t w = vec->width, c = vec->rows;
  std::string W = std::to_string(w), C = std::to_string(c);
  // The thread's loops: a in vectors, the others as they are, b dropped.
  std::vector<Loop> outer;
  for (size_t i = 0; i < loops.size(); ++i) {
    if (static_cast<int64_t>(i) == ib)
      continue;
    if (static_cast<int64_t>(i) == ia)
      outer.push_back({la.size / w, w, la.dstStride * w});
    else
      outer.push_back(loops[i]);
  }
  int64_t threads = dstElements / (w * c);
  p.line(signature(name + "_vinterleave"));
  p.line("const " + U + " step = (" + U + ")gridDim.x * blockDim.x;");
  p.line("for (" + U + " i = (" + U + ")blockIdx.x * blockDim.x + " +
         "threadIdx.x; i < " + lit(threads, U) + "; i += step) {");
  p.line(I + " s = 0, d = 0;");
  printDecode(p, outer, "i", "s", "d");
  p.line("// in[j][x]: row j of b, element a + x.");
  p.line(src.c + " in[" + C + "][" + W + "];");
  p.line("for (int j = 0; j < " + C + "; ++j) {");
  printVectorLoad(p, "in[j]", "s + (" + I + ")j * " + lit(lb.srcStride, I));
  p.line("}");
  p.line("// out[x * " + C + " + j]: the destination run from d.");
  p.line(dst.c + " out[" + C + " * " + W + "];");
  p.line("for (int x = 0; x < " + W + "; ++x)");
  p.line("  for (int j = 0; j < " + C + "; ++j)");
  p.line("    out[x * " + C + " + j] = " + convertExpr(src, dst, "in[j][x]") +
         ";");
  p.line("for (int j = 0; j < " + C + "; ++j) {");
  printVectorStore(p, "out + j * " + W, "d + (" + I + ")j * " + W);
  p.line("}");
  p.line("}");
  p.line("}").line();
}

/// Each lane of a warp moves a width x width block of the tiled loops:
/// `width` vector loads along a (rows b..b+width-1 of the source), a
/// transpose in registers, `width` vector stores along b. Lanes
/// lanesA-wide along a make each load instruction read whole sectors of
/// each source row and each store write whole sectors of each destination
/// row, with no shared memory and no barriers; a warp takes one tile per
/// iteration (grid-stride), the other loops decoded from its index.
void PlanKernelPrinter::printVectorTranspose(Printer &p) {
  auto [la, lb, outer] = splitTiled();
  int64_t w = vec->width;
  std::string W = std::to_string(w);
  int64_t tileA = vec->lanesA * w, tileB = vec->lanesB * w;
  int64_t tilesA = ceilDiv(la.size, tileA), tilesB = ceilDiv(lb.size, tileB);
  int64_t tiles = warpTiles(*vec), group = vec->lanesA * vec->lanesB;
  int64_t groups = tilesPerWarp(*vec);
  p.line(signature(name + "_vtranspose"));
  if (groups == 1) {
    p.line("const unsigned lane = threadIdx.x % 32;");
  } else {
    p.line("// " + std::to_string(groups) + " tiles per warp, one per " +
           std::to_string(group) + " lanes.");
    p.line("const unsigned lane = threadIdx.x % " + std::to_string(group) +
           ", group = threadIdx.x % 32 / " + std::to_string(group) + ";");
  }
  p.line("const " + U + " warps = (" + U + ")gridDim.x * (blockDim.x / 32);");
  p.line("for (" + U + " w = (" + U + ")blockIdx.x * (blockDim.x / 32) + " +
         "threadIdx.x / 32; w < " + lit(ceilDiv(tiles, groups), U) +
         "; w += warps) {");
  if (groups == 1) {
    p.line(U + " rest = w;");
  } else {
    p.line("const " + U + " t = w * " + lit(groups, U) + " + group;");
    p.line("if (t >= " + lit(tiles, U) + ")");
    p.line("  continue;");
    p.line(U + " rest = t;");
  }
  p.line("const " + U + " a = rest % " + lit(tilesA, U) + " * " +
         lit(tileA, U) + " + lane % " + std::to_string(vec->lanesA) + "u * " +
         W + "u;");
  p.line("rest /= " + lit(tilesA, U) + ";");
  p.line("const " + U + " b = rest % " + lit(tilesB, U) + " * " +
         lit(tileB, U) + " + lane / " + std::to_string(vec->lanesA) + "u * " +
         W + "u;");
  p.line("rest /= " + lit(tilesB, U) + ";");
  p.line("// Extents are whole vectors: a block is all inside or all out.");
  p.line("if (a >= " + lit(la.size, U) + " || b >= " + lit(lb.size, U) + ")");
  p.line("  continue;");
  p.line(I + " s = " + mulExpr("(" + I + ")b", lb.srcStride) + " + (" + I +
         ")a;");
  p.line(I + " d = " + mulExpr("(" + I + ")a", la.dstStride) + " + (" + I +
         ")b;");
  printDecode(p, outer, "rest", "s", "d");
  p.line("// in[j][i]: source row b + j, element a + i.");
  p.line(src.c + " in[" + W + "][" + W + "];");
  p.line("for (int j = 0; j < " + W + "; ++j) {");
  printVectorLoad(p, "in[j]", "s + (" + I + ")j * " + lit(lb.srcStride, I));
  p.line("}");
  p.line("for (int i = 0; i < " + W + "; ++i) {");
  p.line(dst.c + " out[" + W + "];");
  p.line("for (int j = 0; j < " + W + "; ++j)");
  p.line("  out[j] = " + convertExpr(src, dst, "in[j][i]") + ";");
  printVectorStore(p, "out", "d + (" + I + ")i * " + lit(la.dstStride, I));
  p.line("}");
  p.line("}");
  p.line("}").line();
}

//===----------------------------------------------------------------------===//
// Shared-memory tiles
//===----------------------------------------------------------------------===//

/// A shared-memory tile of the two tiled loops per block iteration: read
/// along the source's unit-stride loop (a), written along the
/// destination's (b), so both sides coalesce; one column of padding keeps
/// the column reads free of bank conflicts. All other loops and the tile
/// coordinates are one flat block index.
void PlanKernelPrinter::printTranspose(Printer &p) {
  auto [la, lb, outer] = splitTiled();
  int64_t tilesA = ceilDiv(la.size, gpu().tile);
  int64_t tilesB = ceilDiv(lb.size, gpu().tile);
  int64_t tiles = tilesA * tilesB *
                  product(llvm::to_vector(
                      llvm::map_range(outer, [](Loop l) { return l.size; })));
  gridSize = std::clamp<int64_t>(tiles, 1, gpu().maxBlocks);
  std::string T = std::to_string(gpu().tile);
  p.line(signature(name + "_transpose"));
  p.line("__shared__ " + src.c + " tile[" + T + "][" + T + " + 1];");
  std::string tilesAt = lit(tilesA, U), tilesBt = lit(tilesB, U),
              tilesT = lit(tiles, U);
  if (runtime) {
    // Tiles along a and b, and in all (x.n elements fill n / (a * b)
    // planes; none when x.n is 0, which the launcher does not launch).
    auto count = [&](const Loop &l) {
      return "(" + sizeOf(l, U) + " + " + lit(gpu().tile - 1, U) + ") / " +
             lit(gpu().tile, U);
    };
    p.line("const " + U + " tilesA = " + count(la) + ", tilesB = " + count(lb) +
           ";");
    p.line("const " + U + " tiles = tilesA * tilesB * (" + num(0, "n", U) +
           " / (" + sizeOf(la, U) + " * " + sizeOf(lb, U) + "));");
    tilesAt = "tilesA";
    tilesBt = "tilesB";
    tilesT = "tiles";
  }
  p.line("for (" + U + " t = blockIdx.x; t < " + tilesT +
         "; t += gridDim.x) {");
  p.line(U + " rest = t;");
  p.line("const " + U + " a0 = rest % " + tilesAt + " * " + T + ";");
  p.line("rest /= " + tilesAt + ";");
  p.line("const " + U + " b0 = rest % " + tilesBt + " * " + T + ";");
  p.line("rest /= " + tilesBt + ";");
  p.line(I + " s = 0, d = 0;");
  printDecode(p, outer, "rest", "s", "d");
  p.line("// Read: threadIdx.x runs along the source's unit stride.");
  p.line("for (unsigned r = threadIdx.y; r < " + T + "; r += blockDim.y) {");
  p.line("const " + U + " a = a0 + threadIdx.x, b = b0 + r;");
  p.line("if (a < " + sizeOf(la, U) + " && b < " + sizeOf(lb, U) + ")");
  p.line("  tile[r][threadIdx.x] = src[s + " +
         mulExpr("(" + I + ")a", la, true) + " + " +
         mulExpr("(" + I + ")b", lb, true) + "];");
  p.line("}");
  p.line("__syncthreads();");
  p.line("// Write: threadIdx.x runs along the destination's unit stride.");
  p.line("for (unsigned r = threadIdx.y; r < " + T + "; r += blockDim.y) {");
  p.line("const " + U + " a = a0 + r, b = b0 + threadIdx.x;");
  p.line("if (a < " + sizeOf(la, U) + " && b < " + sizeOf(lb, U) + ")");
  p.line("  dst[d + " + mulExpr("(" + I + ")a", la, false) + " + " +
         mulExpr("(" + I + ")b", lb, false) +
         "] = " + convertExpr(src, dst, "tile[threadIdx.x][r]") + ";");
  p.line("}");
  p.line("// The next tile overwrites this one.");
  p.line("__syncthreads();");
  p.line("}");
  p.line("}").line();
}
