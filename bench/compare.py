#!/usr/bin/env python3
"""Runs the kernels two layoutc builds generate for one program side by side
in one process, and reports new/old speed per function and their geomean.

  bench/compare.py --old OLD_LAYOUTC --new NEW_LAYOUTC PROGRAM.mlir
      [--flags "--mcpu=host"] [--old-flags ...] [--new-flags ...]
      [--threads 1] [--runs 11] [--min-ms 2] [--filter REGEX]

Both builds compile the program (its functions renamed with _o and _n
suffixes, so that one driver links both objects); the driver calls each
function's raw entry point old, new, old, new, ... `--runs` times, each
sample repeating the call until it takes at least `--min-ms`, and prints the
median bandwidth of each (bytes read and written once per call) and the
ratio of the medians, new over old: above 1 the new kernel is faster. The
outputs of the two versions must be byte-identical (else MISMATCH and exit
status 1), so this is a differential test of the two compilers as well.

Only functions whose results are all new, caller-allocated tensors are run
(views need no kernel). Inputs are filled with small integers of their
dtype, so reductions see no NaN or overflow.

Environment: CC (default cc), RUNTIME (default build/runtime/liblayout_rt.a).
"""
import argparse
import math
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BYTES = {"f64": 8, "f32": 4, "f16": 2, "bf16": 2, "i64": 8, "i32": 4,
         "i16": 2, "i8": 1, "i1": 1, "ui8": 1}
# C expression storing a small value of `i` into element p[i] of the dtype.
FILL = {
    "f64": "((double *)p)[i] = (double)(int)(i % 61) - 30;",
    "f32": "((float *)p)[i] = (float)(int)(i % 61) - 30;",
    # 1.0 + small integers in bf16 / f16 bits (exact in both).
    "bf16": "((uint16_t *)p)[i] = (uint16_t)(0x3f80 + (i % 61));",
    "f16": "((uint16_t *)p)[i] = (uint16_t)(0x3c00 + (i % 61));",
    "i64": "((int64_t *)p)[i] = (int64_t)(i % 61) - 30;",
    "i32": "((int32_t *)p)[i] = (int32_t)(i % 61) - 30;",
    "i16": "((int16_t *)p)[i] = (int16_t)(i % 61) - 30;",
    "i8": "((int8_t *)p)[i] = (int8_t)(i % 61) - 30;",
    "i1": "((uint8_t *)p)[i] = (uint8_t)(i % 2);",
    "ui8": "((uint8_t *)p)[i] = (uint8_t)(i % 61);",
}
# A parameter's line: its name (the program's, or arg<N> / result<N>), dtype,
# layout and a note; outputs are "(new tensor, caller-allocated)".
TENSOR = re.compile(r"^ \*   (\w+): (\w+) sizes \[([^\]]*)\] "
                    r"strides \[([^\]]*)\](.*)$")


def parse_header(text):
    """{function: [(kind, dtype, sizes, strides, note)]} from the comment
    blocks of a layoutc header."""
    funcs, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^/\* (\w+)$", line)
        if m:
            current = m.group(1)
            funcs[current] = []
            continue
        m = TENSOR.match(line)
        if m and current:
            ints = lambda s: [int(x) for x in s.split(",") if x.strip()]
            kind = "result" if "(new tensor" in m.group(5) else "arg"
            funcs[current].append((kind, m.group(2), ints(m.group(3)),
                                   ints(m.group(4)), m.group(5)))
    return funcs


def span(sizes, strides):
    """(lowest, highest + 1) element offsets a view reaches from its first
    element; (0, 0) when it is empty."""
    if any(n == 0 for n in sizes):
        return 0, 0
    lo = sum((n - 1) * s for n, s in zip(sizes, strides) if s < 0)
    hi = sum((n - 1) * s for n, s in zip(sizes, strides) if s > 0)
    return lo, hi + 1


def driver(funcs):
    out = ['#include <stdint.h>', '#include <stdio.h>', '#include <stdlib.h>',
           '#include <string.h>', '#include <time.h>',
           '#include "layout_rt/layout_rt.h"',
           'static double now(void) { struct timespec t;',
           '  clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }',
           'static int cmpd(const void *a, const void *b) {',
           '  double x = *(const double *)a, y = *(const double *)b;',
           '  return x < y ? -1 : x > y; }',
           'static int runs = 11; static double minSeconds = 0.002;',
           'static lrt_exec_options_t opt;',
           'static int failures;',
           'static double logSum; static int measured;',
           'static void check(lrt_status_t s, const char *name) {',
           '  if (s) { fprintf(stderr, "%s: %s\\n", name, lrt_status_message(s)); exit(2); } }']
    mains = []
    for name, tensors in funcs:
        args = [t for t in tensors if t[0] == "arg"]
        results = [t for t in tensors if t[0] == "result"]
        params = ["const void *"] * len(args) + ["void *"] * len(results)
        for v in ("o", "n"):
            out.append(f"lrt_status_t {name}_{v}_raw({', '.join(params)}, "
                       "const lrt_exec_options_t *);")
        body = [f"static void run_{name}(void) {{", "  char *p; int64_t i;"]
        traffic = 0
        for k, (kind, dt, sizes, strides, _) in enumerate(tensors):
            lo, hi = span(sizes, strides)
            count = hi - lo
            traffic += math.prod(sizes) * BYTES[dt]
            copies = ["x"] if kind == "arg" else ["yo", "yn"]
            for c in copies:
                # Page-aligned, so that both versions see the same
                # alignment (streaming stores and cache sets depend on it).
                body.append(f"  char *{c}{k}base = 0; if (posix_memalign((void **)&{c}{k}base, 4096, "
                            f"{max(count, 1)} * {BYTES[dt]})) exit(2);")
                body.append(f"  char *{c}{k} = {c}{k}base + ({-lo}) * {BYTES[dt]};")
                if kind == "arg":
                    body.append(f"  p = {c}{k}base; for (i = 0; i < {count}; ++i) "
                                f"{{ {FILL[dt]} }}")
                else:
                    fillByte = 0 if c == "yo" else 0x5a
                    body.append(f"  memset({c}{k}base, {fillByte}, {max(count, 1)} * "
                                f"{BYTES[dt]});")
        def call(v):
            ptrs = [f"x{k}" if t[0] == "arg" else f"y{v}{k}"
                    for k, t in enumerate(tensors)]
            return f"check({name}_{v}_raw({', '.join(ptrs)}, &opt), \"{name}\")"
        body += [
            f"  {call('o')}; {call('n')};",
            "  int reps = 1;",
            f"  for (;;) {{ double t0 = now(); for (int r = 0; r < reps; ++r) {call('o')};",
            "    if (now() - t0 >= minSeconds || reps >= (1 << 20)) break; reps *= 2; }",
            "  double to[101], tn[101];",
            "  for (int s = 0; s < runs; ++s) {",
            f"    double t0 = now(); for (int r = 0; r < reps; ++r) {call('o')};",
            f"    double t1 = now(); for (int r = 0; r < reps; ++r) {call('n')};",
            "    double t2 = now(); to[s] = (t1 - t0) / reps; tn[s] = (t2 - t1) / reps; }",
            "  qsort(to, runs, sizeof(double), cmpd); qsort(tn, runs, sizeof(double), cmpd);",
            "  int same = 1;"]
        for k, (kind, dt, sizes, strides, _) in enumerate(tensors):
            if kind != "result":
                continue
            lo, hi = span(sizes, strides)
            # Compare only the elements of the view: strided results leave
            # gaps that neither version writes.
            body.append(f"  {{ int64_t idx[{max(len(sizes), 1)}] = {{0}}; "
                        f"int64_t sizes[] = {{{', '.join(map(str, sizes)) or '1'}}}, "
                        f"strides[] = {{{', '.join(map(str, strides)) or '0'}}}; "
                        f"int rank = {len(sizes)};")
            body.append(f"    for (int64_t e = 0; e < {math.prod(sizes)}; ++e) {{ "
                        "int64_t off = 0; for (int d = 0; d < rank; ++d) "
                        "off += idx[d] * strides[d];")
            body.append(f"      if (memcmp(yo{k} + off * {BYTES[dt]}, yn{k} + off * "
                        f"{BYTES[dt]}, {BYTES[dt]})) {{ same = 0; break; }}")
            body.append("      for (int d = rank - 1; d >= 0; --d) "
                        "{ if (++idx[d] < sizes[d]) break; idx[d] = 0; } } }")
        body += [
            "  double mo = to[runs / 2], mn = tn[runs / 2];",
            f"  printf(\"%-28s %9.2f %9.2f %6.2f  %s\\n\", \"{name}\", "
            f"{traffic} / mo / 1e9, {traffic} / mn / 1e9, mo / mn, "
            "same ? \"same\" : \"MISMATCH\");",
            "  if (!same) ++failures;",
            "  logSum += __builtin_log(mo / mn); ++measured;"]
        for k, t in enumerate(tensors):
            for c in (["x"] if t[0] == "arg" else ["yo", "yn"]):
                body.append(f"  free({c}{k}base);")
        body.append("}")
        out += body
        mains.append(f"  run_{name}();")
    out += ["int main(int argc, char **argv) {",
            "  opt.struct_size = sizeof opt;",
            "  opt.num_threads = argc > 1 ? atoi(argv[1]) : 1;",
            "  if (argc > 2) runs = atoi(argv[2]);",
            "  if (runs < 1 || runs > 101) runs = 11;",
            "  if (argc > 3) minSeconds = atof(argv[3]) / 1000;",
            "  printf(\"%-28s %9s %9s %6s\\n\", \"function\", \"old GB/s\", "
            "\"new GB/s\", \"new/old\");"]
    out += mains
    out += ["  if (measured) printf(\"geomean new/old over %d functions: %.3f\\n\", "
            "measured, __builtin_exp(logSum / measured));",
            "  return failures ? 1 : 0;", "}"]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("program")
    ap.add_argument("--flags", default="--mcpu=host")
    ap.add_argument("--old-flags")
    ap.add_argument("--new-flags")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--min-ms", type=float, default=2.0)
    ap.add_argument("--filter", default="")
    a = ap.parse_args()
    text = pathlib.Path(a.program).read_text()
    names = re.findall(r"^func\.func @(\w+)\(", text, re.M)
    keep = [n for n in names if re.search(a.filter, n)]
    if not keep:
        sys.exit("compare.py: no function matches")
    cc = os.environ.get("CC", "cc")
    runtime = os.environ.get("RUNTIME",
                             str(ROOT / "build/runtime/liblayout_rt.a"))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        objects, headers = [], {}
        for v, layoutc, flags in (("o", a.old, a.old_flags or a.flags),
                                  ("n", a.new, a.new_flags or a.flags)):
            renamed = text
            for n in names:
                renamed = re.sub(rf"^func\.func @{n}\(",
                                 f"func.func @{n}_{v}(", renamed, flags=re.M)
            src = tmp / f"{v}.mlir"
            src.write_text(renamed)
            obj, hdr = tmp / f"{v}.o", tmp / f"{v}.h"
            for emit, path in (("obj", obj), ("header", hdr)):
                subprocess.run([layoutc, str(src), f"--emit={emit}", "-o",
                                str(path)] + shlex.split(flags), check=True)
            objects.append(str(obj))
            headers[v] = parse_header(hdr.read_text())
        funcs = []
        for n in keep:
            tensors = headers["o"].get(f"{n}_o")
            if not tensors or tensors != headers["n"].get(f"{n}_n"):
                print(f"# {n}: skipped (no raw entry or the two layouts differ)")
                continue
            if not any(t[0] == "result" for t in tensors) or any(
                    t[0] == "result" and "new tensor" not in t[4] for t in tensors):
                print(f"# {n}: skipped (returns views)")
                continue
            funcs.append((n, tensors))
        (tmp / "driver.c").write_text(driver(funcs))
        exe = tmp / "driver"
        subprocess.run([*shlex.split(cc), "-O2", str(tmp / "driver.c"), *objects,
                        f"-I{ROOT / 'runtime/include'}", runtime, "-lpthread",
                        "-lm", "-o", str(exe)], check=True)
        cpu = next((l.split(":", 1)[1].strip() for l in
                    open("/proc/cpuinfo") if l.startswith("model name")), "?")
        print(f"# {cpu}; {a.threads} thread(s); medians of {a.runs}; "
              f"old: {a.old} {a.old_flags or a.flags}; new: {a.new} "
              f"{a.new_flags or a.flags}")
        sys.stdout.flush()
        return subprocess.run([str(exe), str(a.threads), str(a.runs),
                               str(a.min_ms)]).returncode


if __name__ == "__main__":
    sys.exit(main())
