// One benchmark case as bench/cases.py --spec prints it, and what follows
// from it: the view over the input, the result's shape and the bytes the
// metric counts. Shared by driver.cpp and halide_gen.cpp.
#ifndef LAYOUTC_BENCH_SPEC_H
#define LAYOUTC_BENCH_SPEC_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace bench {

inline std::vector<int64_t> parseList(const std::string &s) {
  std::vector<int64_t> out;
  if (s == "-" || s.empty())
    return out;
  std::stringstream ss(s);
  std::string tok;
  while (std::getline(ss, tok, ','))
    out.push_back(std::stoll(tok));
  return out;
}

inline int dtypeBytes(const std::string &d) {
  if (d == "f32")
    return 4;
  if (d == "f16")
    return 2;
  if (d == "i8")
    return 1;
  std::fprintf(stderr, "spec: unknown dtype %s\n", d.c_str());
  std::exit(2);
}

inline std::vector<int64_t> rowMajor(const std::vector<int64_t> &sizes) {
  std::vector<int64_t> st(sizes.size(), 1);
  for (int k = static_cast<int>(sizes.size()) - 2; k >= 0; --k)
    st[k] = st[k + 1] * sizes[k + 1];
  return st;
}

inline int64_t product(const std::vector<int64_t> &v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

struct Spec {
  std::string id, variant, fn, din, dout, view, action;
  std::vector<int64_t> shape; // x, row-major
  std::vector<int64_t> perm;  // view = permute (identity for "id")
  bool reduceAll = false;
  std::vector<int64_t> dims; // reduced view dims

  // Derived.
  std::vector<int64_t> vsizes, vstrides; // the view, strides in x's elements
  std::vector<int> reduced;              // per view dim: 1 if reduced
  std::vector<int64_t> osizes;           // the result (row-major)
  int64_t inElems = 0, outElems = 0;
  int64_t bytesRead = 0, bytesWritten = 0;

  bool isCopy() const { return action == "copy"; }
  bool isPermute() const { return view == "permute" || view == "id"; }
  // Effective-bandwidth bytes: read + written for copies, read for
  // reductions (CASES.md).
  int64_t metricBytes() const {
    return isCopy() ? bytesRead + bytesWritten : bytesRead;
  }
};

inline Spec parseSpec(const std::string &line) {
  Spec s;
  std::stringstream ss(line);
  std::string shape, view, dims;
  ss >> s.id >> s.variant >> s.fn >> s.din >> s.dout >> shape >> view >>
      s.action >> dims;
  if (!ss) {
    std::fprintf(stderr, "spec: malformed line: %s\n", line.c_str());
    std::exit(2);
  }
  s.shape = parseList(shape);
  int r = static_cast<int>(s.shape.size());
  std::vector<int64_t> xst = rowMajor(s.shape);
  std::vector<int64_t> expandTo;
  if (view == "id") {
    s.view = "id";
    for (int k = 0; k < r; ++k)
      s.perm.push_back(k);
  } else if (view.rfind("permute:", 0) == 0) {
    s.view = "permute";
    s.perm = parseList(view.substr(8));
  } else if (view == "slice2") {
    s.view = "slice2";
  } else if (view.rfind("expand:", 0) == 0) {
    s.view = "expand";
    expandTo = parseList(view.substr(7));
  } else {
    std::fprintf(stderr, "spec: unknown view %s\n", view.c_str());
    std::exit(2);
  }
  if (s.isPermute()) {
    for (int64_t p : s.perm) {
      s.vsizes.push_back(s.shape[p]);
      s.vstrides.push_back(xst[p]);
    }
  } else if (s.view == "slice2") {
    s.vsizes = {s.shape[0], (s.shape[1] + 1) / 2};
    s.vstrides = {xst[0], 2};
  } else {
    s.vsizes = expandTo;
    s.vstrides = {0, 1};
  }
  s.inElems = product(s.shape);
  int vr = static_cast<int>(s.vsizes.size());
  s.reduced.assign(vr, 0);
  if (!s.isCopy()) {
    if (dims == "all") {
      s.reduceAll = true;
      s.reduced.assign(vr, 1);
    } else {
      s.dims = parseList(dims);
      for (int64_t d : s.dims)
        s.reduced[d] = 1;
    }
    for (int k = 0; k < vr; ++k)
      if (!s.reduced[k])
        s.osizes.push_back(s.vsizes[k]);
  } else {
    s.osizes = s.vsizes;
  }
  s.outElems = product(s.osizes);
  int64_t viewElems = product(s.vsizes);
  // Bytes read: the distinct elements of x the result depends on (all of x
  // for permutes and reductions, every other column for x[:, ::2], the one
  // row for a broadcast). Bytes written: the result, never write-allocate.
  if (s.view == "slice2")
    s.bytesRead = viewElems * dtypeBytes(s.din);
  else
    s.bytesRead = s.inElems * dtypeBytes(s.din);
  s.bytesWritten = s.outElems * dtypeBytes(s.dout);
  return s;
}

inline std::vector<Spec> readSpecs(const std::string &path) {
  std::vector<Spec> out;
  std::ifstream f(path);
  if (!f) {
    std::fprintf(stderr, "spec: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::string line;
  while (std::getline(f, line))
    if (!line.empty() && line[0] != '#')
      out.push_back(parseSpec(line));
  return out;
}

} // namespace bench

#endif // LAYOUTC_BENCH_SPEC_H
