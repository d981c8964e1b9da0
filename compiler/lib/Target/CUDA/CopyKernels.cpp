//===- CopyKernels.cpp - Memcpy and elementwise copy kernels --------------===//
//
// The kernels of copies that are not tiled transposes. One contiguous run of
// one type (memcpy) moves 16-byte vectors, with a scalar kernel for
// misaligned pointers and conversions; anything else (gathers, broadcasts,
// flips, transposes too narrow to tile) runs elementwise, one thread per
// destination element, or one per vector when the innermost loop is
// unit-stride on both sides. Also the vectors every copy kernel moves:
// which ones both sides allow, and their loads and stores.
//
//===----------------------------------------------------------------------===//

#include "PlanKernelPrinter.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cuda;

/// The unsigned type of `bytes` bytes that vectors travel as, or "".
static std::string vectorType(int64_t bytes) {
  switch (bytes) {
  case 4:
    return "unsigned";
  case 8:
    return "uint2";
  case 16:
    return "uint4";
  default:
    return "";
  }
}

/// The first line of copy kernel `kernel` (src and dst pointers), bounded
/// to the tiled transpose's 32x8 block or block threads.
std::string PlanKernelPrinter::signature(const std::string &kernel) {
  return "static __global__ void __launch_bounds__(" +
         std::to_string(kernel.find("_transpose") != std::string::npos
                            ? gpu().tile * gpu().tileRows
                            : gpu().block) +
         ") " + kernel + "(const " + src.c + " *__restrict__ src, " + dst.c +
         " *__restrict__ dst" + (runtime ? ", const " + extType + " x" : "") +
         ") {";
}

/// Both views are one contiguous run of the same type: 16-byte vectors
/// when both pointers are 16-byte aligned (the launcher checks), the
/// remaining elements one by one.
void PlanKernelPrinter::printVectorMemcpy(Printer &p) {
  int64_t bytes = dstElements * dst.bytes;
  int64_t vectors = bytes / 16;
  gridSize = blocksFor(std::max<int64_t>(vectors, 1), gpu().block);
  p.line(signature(name + "_uint4"));
  p.line("const " + U + " step = (" + U + ")gridDim.x * blockDim.x;");
  p.line("const " + U + " first = (" + U + ")blockIdx.x * blockDim.x + " +
         "threadIdx.x;");
  if (runtime) {
    std::string width = lit(16 / dst.bytes, U);
    p.line("const " + U + " vectors = " + num(0, "n", U) + " / " + width + ";");
    p.line("const uint4 *__restrict__ s = (const uint4 *)src;");
    p.line("uint4 *__restrict__ d = (uint4 *)dst;");
    p.line("for (" + U + " i = first; i < vectors; i += step)");
    p.line("  d[i] = __ldg(s + i);");
    p.line("// The elements after the last whole vector.");
    p.line("for (" + U + " i = vectors * " + width + " + first; i < " +
           num(0, "n", U) + "; i += step)");
    p.line("  dst[i] = src[i];");
    p.line("}").line();
    return;
  }
  if (vectors > 0) {
    p.line("const uint4 *__restrict__ s = (const uint4 *)src;");
    p.line("uint4 *__restrict__ d = (uint4 *)dst;");
    p.line("for (" + U + " i = first; i < " + lit(vectors, U) + "; i += step)");
    p.line("  d[i] = __ldg(s + i);");
  }
  int64_t tail = vectors * 16 / dst.bytes;
  if (tail < dstElements) {
    p.line("// The last " + std::to_string(dstElements - tail) +
           " element(s) do not fill a vector.");
    p.line("for (" + U + " i = " + lit(tail, U) + " + first; i < " +
           lit(dstElements, U) + "; i += step)");
    p.line("  dst[i] = src[i];");
  }
  p.line("}").line();
}

/// One thread per destination element, grid-stride; consecutive threads
/// take consecutive iterations of the innermost loop, which walks the
/// destination's memory order, so stores coalesce.
void PlanKernelPrinter::printElementwise(Printer &p,
                                         const std::string &kernel) {
  gridSize = blocksFor(dstElements, gpu().block);
  std::vector<Loop> loops = planLoops();
  p.line(signature(kernel));
  p.line("const " + U + " step = (" + U + ")gridDim.x * blockDim.x;");
  p.line("for (" + U + " i = (" + U + ")blockIdx.x * blockDim.x + " +
         "threadIdx.x; i < " + num(dstElements, "n", U) + "; i += step) {");
  p.line(I + " s = 0, d = 0;");
  printDecode(p, loops, "i", "s", "d");
  p.line("dst[d] = " + convertExpr(src, dst, load("src", "s")) + ";");
  p.line("}");
  p.line("}").line();
}

//===----------------------------------------------------------------------===//
// Vectors
//===----------------------------------------------------------------------===//

/// The vectors both sides allow: 16 bytes of the wider element, or
/// nullopt when a vector would be under 4 bytes on either side.
std::optional<VectorSpec> PlanKernelPrinter::vectorSpec() const {
  VectorSpec v;
  v.width = 16 / std::max(src.bytes, dst.bytes);
  v.loadBytes = v.width * src.bytes;
  v.storeBytes = v.width * dst.bytes;
  if (v.width < 2 || vectorType(v.loadBytes).empty() ||
      vectorType(v.storeBytes).empty())
    return std::nullopt;
  return v;
}

/// Every vector starts `width` elements apart on both sides when every
/// stride but those of the vectors' own loops (`skipSrc` on the source
/// side, `skipDst` on the destination's) is a multiple of the width.
bool PlanKernelPrinter::stridesAligned(ArrayRef<Loop> loops, int64_t width,
                                       ArrayRef<int64_t> skipSrc,
                                       ArrayRef<int64_t> skipDst) {
  for (auto [i, l] : llvm::enumerate(loops)) {
    if (l.size == 1)
      continue;
    int64_t at = static_cast<int64_t>(i);
    if (!llvm::is_contained(skipSrc, at) && l.srcStride % width != 0)
      return false;
    if (!llvm::is_contained(skipDst, at) && l.dstStride % width != 0)
      return false;
  }
  return true;
}

/// Elementwise copies whose innermost loop is unit-stride on both sides
/// move one vector per thread.
std::optional<VectorSpec> PlanKernelPrinter::vectorElementwise() const {
  std::vector<Loop> loops = planLoops();
  std::optional<VectorSpec> v = vectorSpec();
  if (!v || loops.empty())
    return std::nullopt;
  int64_t width = v->width, inner = loops.size() - 1;
  if (loops[inner].srcStride != 1 || loops[inner].dstStride != 1 ||
      loops[inner].size % width != 0 ||
      !stridesAligned(loops, width, inner, inner))
    return std::nullopt;
  v->grid = blocksFor(ceilDiv(dstElements / width, gpu().vectorsPerThread),
                      gpu().block);
  return v;
}

/// The first storeBytes bytes of `from` (an array of dst.c) stored as one
/// vector at dst + `off`.
void PlanKernelPrinter::printVectorStore(Printer &p, const std::string &from,
                                         const std::string &off) {
  std::string T = vectorType(vec->storeBytes);
  p.line(T + " bits;");
  p.line("memcpy(&bits, " + from + ", " + std::to_string(vec->storeBytes) +
         ");");
  p.line("*(" + T + " *)(dst + " + off + ") = bits;");
}

/// `width` source elements at src + `off` into the array `into`.
void PlanKernelPrinter::printVectorLoad(Printer &p, const std::string &into,
                                        const std::string &off) {
  std::string T = vectorType(vec->loadBytes);
  p.line("const " + T + " bits = __ldg((const " + T + " *)(src + " + off +
         "));");
  p.line("memcpy(" + into + ", &bits, " + std::to_string(vec->loadBytes) +
         ");");
}

/// One thread per destination vector, vectorsPerThread of them loaded
/// before any is stored (grid-stride), so that each thread has that many
/// loads in flight.
void PlanKernelPrinter::printVectorElementwise(Printer &p) {
  int64_t w = vec->width;
  std::string W = std::to_string(w);
  std::vector<Loop> loops = planLoops();
  loops.back() = {loops.back().size / w, w, w};
  int64_t vectors = dstElements / w;
  p.line(signature(name + "_velementwise"));
  p.line("const " + U + " step = (" + U + ")gridDim.x * blockDim.x;");
  p.line("for (" + U + " i0 = (" + U + ")blockIdx.x * blockDim.x + " +
         "threadIdx.x; i0 < " + lit(vectors, U) +
         "; i0 += " + std::to_string(gpu().vectorsPerThread) + " * step) {");
  p.line(src.c + " x[" + std::to_string(gpu().vectorsPerThread) + "][" + W +
         "];");
  std::string K = std::to_string(gpu().vectorsPerThread);
  p.line(I + " d[" + K + "] = {0};");
  p.line("bool live[" + K + "] = {false};");
  for (int64_t u = 0; u < gpu().vectorsPerThread; ++u) {
    std::string i = "i" + std::to_string(u), U1 = std::to_string(u);
    if (u > 0)
      p.line("const " + U + " " + i + " = i0 + " + U1 + " * step;");
    p.line(
        std::string(u > 0 ? "if (" + i + " < " + lit(vectors, U) + ") " : "") +
        "{");
    p.line("live[" + U1 + "] = true;");
    p.line(I + " s = 0;");
    printDecode(p, loops, i, "s", "d[" + U1 + "]");
    printVectorLoad(p, "x[" + U1 + "]", "s");
    p.line("}");
  }
  for (int64_t u = 0; u < gpu().vectorsPerThread; ++u) {
    std::string U1 = std::to_string(u);
    p.line("if (live[" + U1 + "]) {");
    p.line(dst.c + " y[" + W + "];");
    p.line("for (int j = 0; j < " + W + "; ++j)");
    p.line("  y[j] = " + convertExpr(src, dst, "x[" + U1 + "][j]") + ";");
    printVectorStore(p, "y", "d[" + U1 + "]");
    p.line("}");
  }
  p.line("}");
  p.line("}").line();
}
