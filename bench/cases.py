#!/usr/bin/env python3
"""The CPU benchmark cases of shared/bench/CASES.md: the single source of truth.

Every case is one input tensor x (row-major), a view of it (a permute, a
strided slice or a broadcast) and an action on the view: a contiguous copy
(optionally converting the dtype) or a reduction. Each case runs at the sizes
of CASES.md ("full", ~50-64 MiB per tensor), at a cache-resident size
("small", ~256 KiB) and with odd extents ("odd"); --quick uses a subset at
"quick" sizes (~16 MiB) plus "small".

  cases.py --write-mlir DIR        layout programs, one file per case
  ... --suite hptt                 the HPTT-style suite instead (full sizes
                                   only; bench.sh --suite hptt)
  cases.py --spec [--quick] [--cases P1,R2]
                                   one line per (case, variant), read by
                                   driver.cpp, halide_gen.cpp and peers.py
  cases.py --layoutc-table OUT.cpp [--dynamic-cases P1,R2 --headers DIR]
                                   [--tuned-cases P1] [selection]
                                   C++ wrappers around the generated f_raw
                                   entry points, for driver.cpp (fn,
                                   fn@dyn for the dynamic functions, and
                                   fn@tuned for those planned with a
                                   tuning file)
  cases.py --tuned-mlir SRC OUT    the case program with its functions
                                   renamed fn_tuned
  cases.py --dynamic-mlir OUT.mlir [selection]
                                   the selection with every size of x "?":
                                   one function per case (per variant where
                                   an attribute depends on the size)

Spec line: id variant fn din dout shape view action dims
  view   = permute:P | slice2 (x[:, ::2]) | expand:S (from [1, n])
  action = copy | sum | amax;  dims = reduced view dims (comma list, "-" none,
  "all" for every dim).
"""
import argparse
import os
import re
import sys

BYTES = {"f32": 4, "f16": 2, "i8": 1}
CTYPE = {"f32": "float", "f16": "uint16_t", "i8": "int8_t"}


def case(cid, din, view, action, shapes, dout=None, dims=None, desc=""):
    return dict(id=cid, din=din, dout=dout or din, view=view, action=action,
                shapes=shapes, dims=dims, desc=desc)


# shapes: full, small (~256 KiB), odd, and quick (the --quick subset only).
CASES = [
    case("P1", "f32", "permute:1,0", "copy",
         dict(full=[4096, 4096], small=[256, 256], odd=[4095, 4097],
              quick=[2048, 2048]), desc="[4096,4096] (1,0)"),
    case("P2", "f32", "permute:0,2,3,1", "copy",
         dict(full=[16, 64, 112, 112], small=[1, 64, 32, 32],
              odd=[15, 63, 111, 113], quick=[4, 64, 112, 112]),
         desc="NCHW->NHWC [16,64,112,112]"),
    case("P3", "f32", "permute:0,3,1,2", "copy",
         dict(full=[16, 112, 112, 64], small=[1, 32, 32, 64],
              odd=[15, 111, 113, 63]), desc="NHWC->NCHW [16,112,112,64]"),
    case("P4", "f32", "permute:2,1,0", "copy",
         dict(full=[256, 256, 256], small=[40, 40, 40], odd=[255, 257, 255]),
         desc="[256,256,256] (2,1,0)"),
    case("P5", "f32", "permute:0,2,1", "copy",
         dict(full=[64, 512, 512], small=[4, 128, 128], odd=[63, 511, 513],
              quick=[16, 512, 512]), desc="[64,512,512] (0,2,1)"),
    case("P6", "f32", "permute:1,0,2", "copy",
         dict(full=[512, 256, 128], small=[32, 16, 128], odd=[511, 255, 129]),
         desc="[512,256,128] (1,0,2)"),
    case("P7", "f32", "permute:3,2,1,0", "copy",
         dict(full=[64, 64, 64, 64], small=[16, 16, 16, 16],
              odd=[63, 65, 63, 65]), desc="[64]^4 (3,2,1,0)"),
    case("P8", "f32", "permute:4,2,0,3,1", "copy",
         dict(full=[32, 32, 32, 16, 32], small=[8, 8, 8, 8, 16],
              odd=[31, 33, 31, 17, 31]), desc="[32,32,32,16,32] (4,2,0,3,1)"),
    case("P9", "f32", "permute:5,3,1,0,2,4", "copy",
         dict(full=[16] * 6, small=[8, 8, 8, 4, 4, 8],
              odd=[15, 17, 15, 17, 15, 17]), desc="[16]^6 (5,3,1,0,2,4)"),
    case("P10", "f16", "permute:1,0", "copy",
         dict(full=[8192, 4096], small=[512, 256], odd=[8191, 4097],
              quick=[4096, 2048]), desc="f16 [8192,4096] (1,0)"),
    case("P11", "i8", "permute:0,2,3,1", "copy",
         dict(full=[16, 3, 1024, 1024], small=[1, 3, 296, 296],
              odd=[15, 3, 1023, 1025]), desc="i8 NCHW->NHWC [16,3,1024,1024]"),
    case("C1", "f32", "permute:0,2,3,1", "copy", dout="f16",
         shapes=dict(full=[16, 64, 112, 112], small=[1, 64, 32, 32],
                     odd=[15, 63, 111, 113], quick=[4, 64, 112, 112]),
         desc="f32->f16 + NCHW->NHWC"),
    case("G1", "f32", "slice2", "copy",
         dict(full=[8192, 8192], small=[256, 512], odd=[8191, 8193],
              quick=[4096, 4096]), desc="x[:, ::2] of [8192,8192]"),
    case("G2", "f32", "expand", "copy",
         dict(full=[1, 8192], small=[1, 256], odd=[1, 8193], quick=[1, 4096]),
         desc="expand [1,8192]->[8192,8192]"),
    case("R1", "f32", "id", "sum", dims=[1],
         shapes=dict(full=[16384, 1024], small=[64, 1024], odd=[16383, 1025],
                     quick=[4096, 1024]), desc="sum dim 1 of [16384,1024]"),
    case("R2", "f32", "id", "sum", dims=[0],
         shapes=dict(full=[16384, 1024], small=[64, 1024], odd=[16383, 1025],
                     quick=[4096, 1024]), desc="sum dim 0 of [16384,1024]"),
    case("R3", "f32", "id", "sum", dims=[2, 3],
         shapes=dict(full=[64, 256, 32, 32], small=[1, 64, 32, 32],
                     odd=[63, 255, 31, 33]), desc="sum (2,3) of [64,256,32,32]"),
    case("R4", "f32", "permute:1,0", "amax", dims=[1],
         shapes=dict(full=[4096, 4096], small=[256, 256], odd=[4095, 4097]),
         desc="amax dim 1 of x.T, [4096,4096]"),
    case("R5", "f16", "id", "sum", dims="all",
         shapes=dict(full=[8192, 8192], small=[256, 512], odd=[8191, 8193],
                     quick=[4096, 4096]), desc="f16 sum of all [8192,8192]"),
]


# The HPTT-style suite (--suite hptt): the 57 f32 transpositions of HPTT's
# published benchmark (its benchmark/benchmark.sh), ~200 MiB each, as
# "rank, permutation, sizes" in HPTT's column-major convention (dim 0 has
# stride 1; the output's dim j is the input's dim perm[j]).
HPTT_SPECS = """
2 1 0 7264 7264
2 1 0 43408 1216
2 1 0 1216 43408
3 0 2 1 368 384 384
3 0 2 1 2144 64 384
3 0 2 1 368 64 2307
3 1 0 2 384 384 355
3 1 0 2 2320 384 59
3 1 0 2 384 2320 59
3 2 1 0 384 355 384
3 2 1 0 2320 59 384
3 2 1 0 384 59 2320
4 0 3 2 1 80 96 75 96
4 0 3 2 1 464 16 75 96
4 0 3 2 1 80 16 75 582
4 2 1 3 0 96 75 96 75
4 2 1 3 0 608 12 96 75
4 2 1 3 0 96 12 608 75
4 2 0 3 1 96 75 96 75
4 2 0 3 1 608 12 96 75
4 2 0 3 1 96 12 608 75
4 1 0 3 2 96 96 75 75
4 1 0 3 2 608 96 12 75
4 1 0 3 2 96 608 12 75
4 3 2 1 0 96 75 75 96
4 3 2 1 0 608 12 75 96
4 3 2 1 0 96 12 75 608
5 0 4 2 1 3 32 48 28 28 48
5 0 4 2 1 3 176 8 28 28 48
5 0 4 2 1 3 32 8 28 28 298
5 3 2 1 4 0 48 28 28 48 28
5 3 2 1 4 0 352 4 28 48 28
5 3 2 1 4 0 48 4 28 352 28
5 2 0 4 1 3 48 28 48 28 28
5 2 0 4 1 3 352 4 48 28 28
5 2 0 4 1 3 48 4 352 28 28
5 1 3 0 4 2 48 48 28 28 28
5 1 3 0 4 2 352 48 4 28 28
5 1 3 0 4 2 48 352 4 28 28
5 4 3 2 1 0 48 28 28 28 48
5 4 3 2 1 0 352 4 28 28 48
5 4 3 2 1 0 48 4 28 28 352
6 0 3 2 5 4 1 16 32 15 32 15 15
6 0 3 2 5 4 1 48 10 15 32 15 15
6 0 3 2 5 4 1 16 10 15 103 15 15
6 3 2 0 5 1 4 32 15 15 32 15 15
6 3 2 0 5 1 4 112 5 15 32 15 15
6 3 2 0 5 1 4 32 5 15 112 15 15
6 2 0 4 1 5 3 32 15 32 15 15 15
6 2 0 4 1 5 3 112 5 32 15 15 15
6 2 0 4 1 5 3 32 5 112 15 15 15
6 3 2 5 1 0 4 32 15 15 32 15 15
6 3 2 5 1 0 4 112 5 15 32 15 15
6 3 2 5 1 0 4 32 5 15 112 15 15
6 5 4 3 2 1 0 32 15 15 15 15 32
6 5 4 3 2 1 0 112 5 15 15 15 32
6 5 4 3 2 1 0 32 5 15 15 15 112
"""


def hptt_case(k, line):
    """HPTT's transposition `line` as a row-major case: x's sizes reversed,
    and the output's dim j the input's dim n-1-perm[n-1-j]."""
    v = [int(t) for t in line.split()]
    n = v[0]
    perm, sizes = v[1:1 + n], v[1 + n:]
    q = [n - 1 - perm[n - 1 - j] for j in range(n)]
    return case(f"H{k:02d}", "f32", "permute:" + ",".join(map(str, q)), "copy",
                dict(full=sizes[::-1]),
                desc=f"rank {n}, HPTT perm ({','.join(map(str, perm))}) "
                     f"sizes [{','.join(map(str, sizes))}]")


HPTT = [hptt_case(k + 1, line)
        for k, line in enumerate(HPTT_SPECS.strip().splitlines())]
SUITES = {"cases": CASES, "hptt": HPTT}
ALL = CASES + HPTT


def view_of(c, shape):
    """(sizes, strides) of the view, strides in elements of x."""
    rank = len(shape)
    strides = [1] * rank
    for k in range(rank - 2, -1, -1):
        strides[k] = strides[k + 1] * shape[k + 1]
    v = c["view"]
    if v == "id":
        return list(shape), strides
    if v.startswith("permute:"):
        p = [int(t) for t in v.split(":")[1].split(",")]
        return [shape[i] for i in p], [strides[i] for i in p]
    if v == "slice2":
        return [shape[0], (shape[1] + 1) // 2], [strides[0], 2]
    raise ValueError(v)


def expand_target(shape):
    # [1, n] -> [n, n]; the odd variant [1, 8193] -> [8191, 8193].
    n = shape[1]
    return [8191 if n == 8193 else n, n]


def view_sizes_strides(c, shape):
    if c["view"] == "expand":
        return expand_target(shape), [0, 1]
    return view_of(c, shape)


def dynamic_view(c, shape):
    """(sizes, strides) of the view's type when every size of x is "?"."""
    rank = len(shape)
    strides = row_major(["?"] * rank)
    v = c["view"]
    if v.startswith("permute:"):
        p = [int(t) for t in v.split(":")[1].split(",")]
        return ["?"] * rank, [strides[i] for i in p]
    if v == "slice2":
        return ["?", "?"], ["?", 2]
    if v == "expand":  # the target's first size is an attribute
        return [expand_target(shape)[0], "?"], ["?", 1]
    return ["?"] * rank, strides


def dynamic_fn(c, variant):
    """The dynamic function that runs (c, variant): one per case, or one per
    variant where the view's attributes depend on the size (expand)."""
    if c["view"] == "expand":
        return fn_name(c, variant) + "_dyn"
    return c["id"].lower() + "_dyn"


def reduce_dims(c, rank):
    if c["dims"] == "all":
        return list(range(rank))
    return list(c["dims"] or [])


def variants(quick):
    return ["quick", "small"] if quick else ["full", "small", "odd"]


def selected(quick, only, suite="cases"):
    out = []
    for c in SUITES[suite]:
        if only and c["id"] not in only:
            continue
        if quick and "quick" not in c["shapes"] and not only:
            continue  # --quick: the cases with a quick size, unless named
        for v in variants(quick):
            if v in c["shapes"]:
                out.append((c, v))
    return out


def fn_name(c, variant):
    base = c["id"].lower()
    return base if variant == "full" else f"{base}_{variant}"


def spec_line(c, variant):
    shape = c["shapes"][variant]
    view = c["view"]
    if view == "expand":
        view = "expand:" + ",".join(map(str, expand_target(shape)))
    dims = "-"
    if c["action"] != "copy":
        dims = "all" if c["dims"] == "all" else ",".join(map(str, c["dims"]))
    return " ".join([c["id"], variant, fn_name(c, variant), c["din"], c["dout"],
                     ",".join(map(str, shape)), view, c["action"], dims])


# ---- layout programs ------------------------------------------------------

def row_major(sizes):
    """Row-major strides; "?" where a later size is "?" (dynamic)."""
    row = [1] * len(sizes)
    for k in range(len(sizes) - 2, -1, -1):
        known = row[k + 1] != "?" and sizes[k + 1] != "?"
        row[k] = row[k + 1] * sizes[k + 1] if known else "?"
    return row


def ttype(sizes, dtype, strides=None):
    body = "x".join(map(str, sizes)) + "x" + dtype if sizes else dtype
    if strides is not None:
        if strides != row_major(sizes):
            body += ", strided<[" + ", ".join(map(str, strides)) + "]>"
    return f"!layout.tensor<{body}>"


def mlir_func(c, variant, dynamic=False):
    """The case's layout program at `variant`'s sizes, or with every size of
    x dynamic ("?")."""
    shape = c["shapes"][variant]
    din, dout = c["din"], c["dout"]
    if dynamic:
        xt = ttype(["?"] * len(shape), din)
        vs, vst = dynamic_view(c, shape)
    else:
        xt = ttype(shape, din)
        vs, vst = view_sizes_strides(c, shape)
    vt = ttype(vs, din, vst)
    lines = []
    v = c["view"]
    if v == "id":
        src = "%x"
    elif v.startswith("permute:"):
        p = v.split(":")[1].replace(",", ", ")
        lines.append(f"  %v = layout.permute %x [{p}] : {xt}")
        src = "%v"
    elif v == "slice2":
        lines.append(f"  %v = layout.slice %x dim 1 [: : 2] : {xt}")
        src = "%v"
    elif v == "expand":
        last = -1 if vs[1] == "?" else vs[1]
        lines.append(f"  %v = layout.expand %x [{vs[0]}, {last}] : {xt}")
        src = "%v"
    if c["action"] == "copy":
        lines.append(f"  %c = layout.contiguous {src} : {vt}")
        rt = ttype(vs, din)
        res = "%c"
        if dout != din:
            lines.append(f"  %h = layout.to %c {dout} : {rt}")
            rt = ttype(vs, dout)
            res = "%h"
    else:
        rd = reduce_dims(c, len(vs))
        kept = [s for k, s in enumerate(vs) if k not in rd]
        lines.append(f"  %r = layout.reduce {c['action']} {src} dims "
                     f"[{', '.join(map(str, rd if c['dims'] != 'all' else []))}]"
                     f" : {vt}")
        rt = ttype(kept, dout)
        res = "%r"
    lines.append(f"  return {res} : {rt}")
    name = dynamic_fn(c, variant) if dynamic else fn_name(c, variant)
    head = f"func.func @{name}(%x: {xt}) -> {rt} {{"
    return "\n".join([head] + lines + ["}"])


def write_mlir(outdir, suite="cases"):
    os.makedirs(outdir, exist_ok=True)
    for c in SUITES[suite]:
        funcs = [mlir_func(c, v) for v in ("full", "small", "odd", "quick")
                 if v in c["shapes"]]
        source = ("shared/bench/CASES.md" if suite == "cases" else
                  "the HPTT-style suite, bench/cases.py")
        text = (f"// {c['id']}: {c['desc']} ({source}).\n"
                f"// Generated by bench/cases.py --write-mlir; one function per"
                f" size variant\n// (full, _small ~256 KiB, _odd extents,"
                f" _quick for --quick).\n\n" + "\n\n".join(funcs) + "\n")
        with open(os.path.join(outdir, c["id"].lower() + ".mlir"), "w") as f:
            f.write(text)


def write_dynamic_mlir(path, sel):
    """One file of the dynamic functions that run the selection."""
    seen, funcs = set(), []
    for c, v in sel:
        name = dynamic_fn(c, v)
        if name not in seen:
            seen.add(name)
            funcs.append(mlir_func(c, v, dynamic=True))
    text = ("// Generated by bench/cases.py --dynamic-mlir: every case with all "
            "sizes of x\n// dynamic, compiled once for every variant.\n\n" +
            "\n\n".join(funcs) + "\n")
    with open(path, "w") as f:
        f.write(text)


def view_params(header_dir, c, fn):
    """How many `<result>_view` report pointers the dynamic function's raw
    entry point takes (its header, in `header_dir`, says)."""
    with open(os.path.join(header_dir, c["id"].lower() + "_dyn.h")) as f:
        m = re.search(rf"lrt_status_t {fn}_raw\(([^)]*)\)", f.read())
    return m.group(1).count("_view,") if m else 0


def layoutc_table(path, sel, dynamic=(), header_dir=".", tuned=()):
    """Wrappers of the f_raw entry points; of the dynamic functions' for
    the cases in `dynamic` (named "fn@dyn"), which pass x's sizes and NULL
    for each view report (the output is always written, as the static
    kernel's is; their headers are in `header_dir`); and of the functions
    planned with a tuning file for the cases in `tuned` ("fn@tuned", whose
    functions are named fn_tuned: tuned_mlir)."""
    out = ["// Generated by bench/cases.py --layoutc-table: do not edit.",
           "#include \"layoutc_table.h\"", ""]
    headers = sorted({c["id"].lower() for c, _ in sel})
    headers += sorted({c["id"].lower() + "_dyn" for c, _ in sel
                       if c["id"] in dynamic})
    headers += sorted({c["id"].lower() + "_tuned" for c, _ in sel
                       if c["id"] in tuned})
    for h in headers:
        out.append(f"#include \"{h}.h\"")
    out.append("")
    entries = []

    def wrapper(name, c, call, sizes=()):
        ti, to = CTYPE[c["din"]], CTYPE[c["dout"]]
        args = "".join(f"{n}, " for n in sizes)
        w = "w_" + name.replace("@", "_")
        out.append(f"static lrt_status_t {w}(const void *a, void *r,\n"
                   f"    const lrt_exec_options_t *o) {{\n"
                   f"  return {call}_raw(static_cast<const {ti} *>(a), "
                   f"static_cast<{to} *>(r), {args}o);\n}}")
        entries.append((name, w))

    for c, v in sel:
        fn = fn_name(c, v)
        wrapper(fn, c, fn)
        if c["id"] in dynamic:
            dfn = dynamic_fn(c, v)
            extra = ["nullptr"] * view_params(header_dir, c, dfn)
            wrapper(fn + "@dyn", c, dfn, c["shapes"][v] + extra)
        if c["id"] in tuned:
            wrapper(fn + "@tuned", c, fn + "_tuned")
    out.append("")
    out.append("const LayoutcEntry kLayoutcEntries[] = {")
    for name, w in entries:
        out.append(f"    {{\"{name}\", {w}}},")
    out.append("    {nullptr, nullptr}};")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def tuned_mlir(src, path):
    """The case program at `src` with every function renamed fn_tuned, so
    that its tuned object links beside the default one."""
    with open(src) as f:
        text = f.read()
    text = re.sub(r"func\.func @([A-Za-z0-9_]+)\(", r"func.func @\1_tuned(",
                  text)
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write-mlir", metavar="DIR")
    ap.add_argument("--spec", action="store_true")
    ap.add_argument("--layoutc-table", metavar="OUT")
    ap.add_argument("--dynamic-mlir", metavar="OUT")
    ap.add_argument("--dynamic-cases", default="",
                    help="--layoutc-table: cases with dynamic functions")
    ap.add_argument("--headers", default=".",
                    help="--layoutc-table: where the dynamic headers are")
    ap.add_argument("--tuned-cases", default="",
                    help="--layoutc-table: cases with tuned functions")
    ap.add_argument("--tuned-mlir", nargs=2, metavar=("SRC", "OUT"),
                    help="the case program SRC with its functions renamed "
                         "fn_tuned, into OUT")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--cases", default="")
    ap.add_argument("--suite", choices=sorted(SUITES), default="cases",
                    help="the CASES.md cases, or the HPTT-style suite")
    a = ap.parse_args()
    only = [s.strip().upper() for s in a.cases.split(",") if s.strip()]
    unknown = [s for s in only if s not in {c["id"] for c in SUITES[a.suite]}]
    if unknown:
        sys.exit(f"cases.py: unknown case(s) {','.join(unknown)}")
    sel = selected(a.quick, only, a.suite)
    if a.write_mlir:
        write_mlir(a.write_mlir, a.suite)
    if a.spec:
        for c, v in sel:
            print(spec_line(c, v))
    if a.dynamic_mlir:
        write_dynamic_mlir(a.dynamic_mlir, sel)
    if a.tuned_mlir:
        tuned_mlir(*a.tuned_mlir)
    if a.layoutc_table:
        dyn = {t.strip().upper() for t in a.dynamic_cases.split(",")}
        tuned = {t.strip().upper() for t in a.tuned_cases.split(",")}
        layoutc_table(a.layoutc_table, sel, dyn, a.headers, tuned)


if __name__ == "__main__":
    main()
