// Halide 14 peer, ahead of time: for every case of a spec file, writes two
// pipelines (serial "_s" and parallel "_p"), generic over the extents so
// that one object serves the full, small and odd variants, plus one Halide
// runtime and a table that driver.cpp links.
//
//   halide_gen SPEC OUTDIR ID [ID...]     pipelines of the named cases
//   halide_gen --runtime OUTDIR           hl_runtime.o
//   halide_gen --table OUTDIR ID [ID...]  halide_table.cpp
//
// Schedules (what a Halide user writes for these, not autotuned):
//   copies whose stride-1 dims differ: 2-D tiles of one vector per row
//   (vw x min(vw, 16), vw = 32 bytes of the wider type) over the output's and
//   the input's stride-1 dims, vectorized along the output, rows unrolled;
//   other copies: the output's inner dim vectorized; the parallel variant
//   fuses the outer loops and runs them in parallel.
//   Reductions over the stride-1 dim: rfactor into vw lanes (vectorized);
//   over an outer dim: blocks of 64 outputs, vw-wide vectors, the reduction
//   loop outside them; parallel over output blocks (rows for a full sum).
#include "Halide.h"
#include "spec.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

using namespace Halide;
using bench::Spec;

namespace {

Type halideType(const std::string &d) {
  if (d == "f32")
    return Float(32);
  if (d == "f16")
    return Float(16);
  return Int(8);
}

std::string lower(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Target hostTarget() {
  Target t = get_host_target();
  // Halide 14 takes AVX512-BF16 (Zen 4) for Sapphire Rapids and then emits
  // AVX512-FP16 instructions (vmovw) that such CPUs lack.
  if (t.has_feature(Target::AVX512_SapphireRapids) &&
      !__builtin_cpu_supports("avx512fp16"))
    t = t.without_feature(Target::AVX512_SapphireRapids)
            .with_feature(Target::AVX512_Cannonlake);
  return t;
}

Target target() { return hostTarget().with_feature(Target::NoRuntime); }

// Fuses vars (innermost first, adjacent in the loop nest) into one and
// returns it.
VarOrRVar fuseAll(Stage st, const std::vector<VarOrRVar> &vars) {
  VarOrRVar f = vars[0];
  for (size_t i = 1; i < vars.size(); ++i) {
    Var fused("fused" + std::to_string(i));
    st.fuse(f, vars[i], fused);
    f = fused;
  }
  return f;
}

Func buildCopy(const Spec &s, ImageParam in, bool par, int fixedInner) {
  int r = static_cast<int>(s.shape.size());
  int ro = static_cast<int>(s.vsizes.size());
  std::vector<Var> v;
  for (int j = 0; j < ro; ++j)
    v.push_back(Var("v" + std::to_string(j))); // v[j]: output dim ro-1-j
  std::vector<Expr> args(r);
  int jstar = 0; // output Halide dim read along the input's stride-1 dim
  if (s.isPermute()) {
    for (int m = 0; m < r; ++m) {
      int q = r - 1 - m;
      int k = static_cast<int>(std::find(s.perm.begin(), s.perm.end(), q) -
                               s.perm.begin());
      args[m] = v[ro - 1 - k];
      if (q == r - 1)
        jstar = ro - 1 - k;
    }
  } else if (s.view == "slice2") {
    args = {2 * v[0], v[1]};
  } else {
    args = {v[0], 0};
  }
  Func out("out");
  Expr e = in(args);
  if (s.dout != s.din)
    e = cast(halideType(s.dout), e);
  std::vector<Var> vv(v.begin(), v.end());
  out(vv) = e;

  int vw = 32 / std::max(bench::dtypeBytes(s.din), bench::dtypeBytes(s.dout));
  std::vector<VarOrRVar> order, outer;
  if (fixedInner > 0 && jstar == 1) {
    // The output's stride-1 dim is short and the same in every variant
    // (NHWC with C = 3): unroll it and vectorize along the input's stride-1
    // dim; Halide interleaves the stores.
    Var xo("xo"), xi("xi");
    out.bound(v[0], 0, fixedInner).unroll(v[0]);
    out.split(v[1], xo, xi, vw, TailStrategy::GuardWithIf).vectorize(xi);
    order = {v[0], xi, xo};
    for (int j = 2; j < ro; ++j)
      outer.push_back(v[j]);
  } else if (jstar != 0) {
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
    // At most 16 unrolled rows (i8: 32x16 tiles).
    out.tile(v[0], v[jstar], xo, yo, xi, yi, vw, std::min(vw, 16),
             TailStrategy::GuardWithIf)
        .vectorize(xi)
        .unroll(yi);
    order = {xi, yi, xo};
    for (int j = 1; j < ro; ++j)
      outer.push_back(j == jstar ? VarOrRVar(yo) : VarOrRVar(v[j]));
  } else {
    Var xo("xo"), xi("xi");
    out.split(v[0], xo, xi, vw, TailStrategy::GuardWithIf).vectorize(xi);
    order = {xi, xo};
    for (int j = 1; j < ro; ++j)
      outer.push_back(v[j]);
  }
  order.insert(order.end(), outer.begin(), outer.end());
  out.reorder(order);
  if (par && !outer.empty())
    out.parallel(fuseAll(out, outer));
  return out;
}

Func buildReduce(const Spec &s, ImageParam in, bool par) {
  int r = static_cast<int>(s.shape.size());
  std::vector<int> kept; // view dims kept, in order
  for (int k = 0; k < static_cast<int>(s.vsizes.size()); ++k)
    if (!s.reduced[k])
      kept.push_back(k);
  int nk = static_cast<int>(kept.size());
  std::vector<Var> w;
  for (int j = 0; j < nk; ++j)
    w.push_back(Var("w" + std::to_string(j))); // w[j]: kept[nk-1-j]
  Region ranges;
  std::vector<int> rIndex(r, -1);
  for (int m = 0; m < r; ++m) {
    int q = r - 1 - m;
    int k = static_cast<int>(std::find(s.perm.begin(), s.perm.end(), q) -
                             s.perm.begin());
    if (s.reduced[k]) {
      rIndex[m] = static_cast<int>(ranges.size());
      ranges.push_back(Range(0, in.dim(m).extent()));
    }
  }
  RDom rr(ranges);
  std::vector<Expr> args(r);
  for (int m = 0; m < r; ++m) {
    int q = r - 1 - m;
    int k = static_cast<int>(std::find(s.perm.begin(), s.perm.end(), q) -
                             s.perm.begin());
    if (rIndex[m] >= 0) {
      args[m] = rr[rIndex[m]];
    } else {
      int pos = static_cast<int>(std::find(kept.begin(), kept.end(), k) -
                                 kept.begin());
      args[m] = w[nk - 1 - pos];
    }
  }
  bool isSum = s.action == "sum";
  Type accT = isSum ? Float(32) : halideType(s.din);
  Func acc("acc");
  std::vector<Expr> wv(w.begin(), w.end());
  Expr x = in(args);
  if (isSum) {
    acc(wv) = cast(accT, 0);
    acc(wv) = acc(wv) + cast(accT, x);
  } else {
    acc(wv) = accT.min();
    acc(wv) = max(acc(wv), x);
  }
  int vw = 32 / accT.bytes();
  bool inner = rIndex[0] >= 0; // the stride-1 dim of x is reduced

  // Vectorizes an inner reduction of f over rx into vw lanes.
  auto vectorizeInner = [&](Func f, RVar rx, Var at) {
    RVar rxo("rxo"), rxi("rxi");
    Var u("u");
    f.update().split(rx, rxo, rxi, vw, TailStrategy::GuardWithIf);
    Func intm = f.update().rfactor(rxi, u);
    intm.compute_at(f, at).vectorize(u);
    intm.update().vectorize(u);
  };

  // rfactor first: it must see the update stage before other splits.
  if (nk == 0) {
    // Sum of everything: row sums (rfactor the outer RVar), then their sum.
    Var v("v"), vo("vo"), vi("vi");
    Func rows =
        acc.update().rfactor(rr[static_cast<int>(ranges.size()) - 1], v);
    vectorizeInner(rows, rr[0], par ? vi : v);
    rows.compute_root();
    if (par) {
      rows.split(v, vo, vi, 64, TailStrategy::GuardWithIf).parallel(vo);
      rows.update()
          .split(v, vo, vi, 64, TailStrategy::GuardWithIf)
          .parallel(vo);
    }
    acc.compute_root();
  } else if (inner) {
    Var o("o"), i("i");
    bool splitOuter = par && nk == 1;
    vectorizeInner(acc, rr[0], splitOuter ? i : w[0]);
    if (splitOuter) {
      acc.split(w[0], o, i, 16, TailStrategy::GuardWithIf).parallel(o);
      acc.update().split(w[0], o, i, 16, TailStrategy::GuardWithIf).parallel(o);
    } else if (par) {
      acc.parallel(w[nk - 1]);
      acc.update().parallel(w[nk - 1]);
    }
  } else {
    Var xo("xo"), xi("xi"), xm("xm"), xv("xv");
    acc.split(w[0], xo, xi, 64, TailStrategy::GuardWithIf)
        .vectorize(xi, vw, TailStrategy::GuardWithIf);
    Stage u = acc.update();
    u.split(w[0], xo, xi, 64, TailStrategy::GuardWithIf)
        .split(xi, xm, xv, vw, TailStrategy::GuardWithIf);
    std::vector<VarOrRVar> order = {xv, xm};
    for (int i = 0; i < static_cast<int>(ranges.size()); ++i)
      order.push_back(rr[i]);
    order.push_back(xo);
    for (int j = 1; j < nk; ++j)
      order.push_back(w[j]);
    u.reorder(order).vectorize(xv);
    if (par) {
      acc.parallel(xo);
      u.parallel(xo);
    }
  }
  if (s.dout == (isSum ? "f32" : s.din))
    return acc;
  Func out("out");
  out(wv) = cast(halideType(s.dout), acc(wv));
  acc.compute_root();
  return out;
}

void build(const Spec &s, bool par, int fixedInner, const std::string &dir) {
  ImageParam in(halideType(s.din), static_cast<int>(s.shape.size()), "in");
  Func out =
      s.isCopy() ? buildCopy(s, in, par, fixedInner) : buildReduce(s, in, par);
  std::string name = "hl_" + lower(s.id) + (par ? "_p" : "_s");
  out.compile_to_object(dir + "/" + name + ".o", {in}, name, target());
}

} // namespace

int main(int argc, char **argv) {
  if (argc >= 3 && std::string(argv[1]) == "--runtime") {
    compile_standalone_runtime(std::string(argv[2]) + "/hl_runtime.o",
                               hostTarget());
    return 0;
  }
  if (argc >= 3 && std::string(argv[1]) == "--table") {
    std::string path = std::string(argv[2]) + "/halide_table.cpp";
    FILE *f = std::fopen(path.c_str(), "w");
    std::fprintf(f, "// Generated by halide_gen --table: do not edit.\n"
                    "#include \"halide_table.h\"\n\nextern \"C\" {\n");
    for (int i = 3; i < argc; ++i)
      std::fprintf(f,
                   "int hl_%s_s(halide_buffer_t *, halide_buffer_t *);\n"
                   "int hl_%s_p(halide_buffer_t *, halide_buffer_t *);\n",
                   lower(argv[i]).c_str(), lower(argv[i]).c_str());
    std::fprintf(f, "}\n\nconst HalideEntry kHalideEntries[] = {\n");
    for (int i = 3; i < argc; ++i)
      std::fprintf(f, "    {\"%s\", hl_%s_s, hl_%s_p},\n", argv[i],
                   lower(argv[i]).c_str(), lower(argv[i]).c_str());
    std::fprintf(f, "    {nullptr, nullptr, nullptr}};\n");
    std::fclose(f);
    return 0;
  }
  if (argc < 4) {
    std::fprintf(stderr, "usage: halide_gen SPEC OUTDIR ID...\n");
    return 2;
  }
  std::vector<Spec> specs = bench::readSpecs(argv[1]);
  for (int i = 3; i < argc; ++i) {
    const Spec *found = nullptr;
    // The copy's output stride-1 extent when every variant shares it and it
    // is shorter than a vector, else 0.
    int fixedInner = -1;
    for (const Spec &s : specs) {
      if (s.id != argv[i])
        continue;
      found = found ? found : &s;
      int e = static_cast<int>(s.vsizes.back());
      fixedInner = fixedInner == -1 || fixedInner == e ? e : 0;
    }
    if (!found) {
      std::fprintf(stderr, "halide_gen: no case %s in the spec\n", argv[i]);
      return 2;
    }
    int vw = 32 / std::max(bench::dtypeBytes(found->din),
                           bench::dtypeBytes(found->dout));
    if (fixedInner >= vw)
      fixedInner = 0;
    build(*found, false, fixedInner, argv[2]);
    build(*found, true, fixedInner, argv[2]);
  }
  return 0;
}
