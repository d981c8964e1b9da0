#!/usr/bin/env python3
"""Generates bench/gpu/generated/: the GPU cases' layout programs, what
`layoutc --target=cuda --emit=cuda,header` makes of them, and manifest.json,
the description of every case the GPU runner reads (it has no layoutc).

  manifest.py --layoutc BIN --out DIR [--cases P1,R2]

Per program <id>.mlir: <id>.cu (kernels + launchers) and <id>.h (their
declarations). Per function, the manifest has the case (input x, the view as
torch rebuilds it, the action, the reduced dims, bytes read/written and the
metric's bytes, see cases.py) and `params`: the launcher's tensor parameters
in call order, as the generated header declares them (name, role, dtype,
sizes, strides); the stream comes last and is not listed. `prepare` fails
when the header and the case disagree, so the runner can trust both.

Nothing in the output depends on where or when it was generated, so a
regeneration into another directory diffs clean (the self-test relies on it).
Only the standard library: the GPU machine imports parse_header too.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

MANIFEST_VERSION = 1

_PROTO = re.compile(r"^lrt_status_t (\w+)\((.*)\);$")
# A parameter's layout comment: its name (the program's, e.g. x, or
# arg<N> / result<N>), dtype, layout and note ("(written)", "(new tensor,
# caller-allocated)").
_PARAM_DOC = re.compile(
    r"^\s*\*\s+(\w+): (\w+) sizes \[([-\d, ]*)\] "
    r"strides \[([-\d, ]*)\](.*)$")
_FUNC_DOC = re.compile(r"^/\* (\w+)$")


def _ints(text):
    return [int(t) for t in text.split(",") if t.strip()]


class HeaderError(Exception):
    pass


class ManifestError(Exception):
    pass


def parse_header(text):
    """{function: [param]} from a generated CUDA header, params in call order:
    {name, role ("input" | "output"), dtype, sizes, strides}. Raises
    HeaderError when a DLPack launcher lacks the layout comment of one of its
    parameters, since the runner could not build its DLTensors then."""
    docs = {}
    current = None
    for line in text.splitlines():
        m = _FUNC_DOC.match(line)
        if m:
            current = docs.setdefault(m.group(1), {})
            continue
        m = _PARAM_DOC.match(line)
        if m and current is not None:
            name, dtype, sizes, strides, rest = m.groups()
            current[name] = dict(dtype=dtype, sizes=_ints(sizes),
                                 strides=_ints(strides),
                                 written="(written)" in rest)
        elif line.startswith(" */"):
            current = None
    funcs = {}
    for line in text.splitlines():
        m = _PROTO.match(line.strip())
        if not m or m.group(1).endswith("_raw"):
            continue
        fn, args = m.groups()
        parts = [p.strip() for p in args.split(",")]
        if not parts or not re.match(r"cudaStream_t \w+$", parts[-1]):
            raise HeaderError(f"{fn}: the last parameter is not a "
                              f"cudaStream_t: {args}")
        params = []
        for p in parts[:-1]:
            m2 = re.match(r"(const )?DLTensor \*(\w+)$", p)
            if not m2:
                raise HeaderError(f"{fn}: unexpected parameter '{p}'")
            name = m2.group(2)
            doc = docs.get(fn, {}).get(name)
            if doc is None:
                raise HeaderError(f"{fn}: no layout comment for {name}")
            role = "input" if m2.group(1) else (
                "written" if doc["written"] else "output")
            params.append(dict(name=name, role=role, dtype=doc["dtype"],
                               sizes=doc["sizes"], strides=doc["strides"]))
        funcs[fn] = params
    return funcs


def _strategies(explain, fn):
    for f in explain["functions"]:
        if f["name"] == fn:
            return [k["strategy"] for k in f["kernels"]]
    raise RuntimeError(f"layoutc --emit=explain has no function {fn}")


def check_entry(e, params):
    """Differences between a case's own idea of its launcher and the header's
    (empty when they agree)."""
    want = [dict(name="x", role="input", dtype=e["x"]["dtype"],
                 sizes=e["x"]["sizes"], strides=e["x"]["strides"]),
            dict(name="result0", role="output", dtype=e["result"]["dtype"],
                 sizes=e["result"]["sizes"],
                 strides=e["result"]["strides"])]
    if params == want:
        return []
    return [f"{e['fn']}: header declares {params}, the case expects {want}"]


def generate(layoutc, out, ids=()):
    import cases

    os.makedirs(out, exist_ok=True)
    cases.write_mlir(out, ids)
    manifest = []
    problems = []
    for c in cases.by_id(list(ids)):
        stem = c["id"].lower()
        # Relative paths, so that nothing generated depends on `out`.
        _run_in(out, [layoutc, stem + ".mlir", "--target=cuda",
                      "--emit=cuda,header", "-o", stem])
        explain = json.loads(_run_in(out, [layoutc, stem + ".mlir",
                                           "--emit=explain"]))
        with open(os.path.join(out, stem + ".h")) as f:
            header = parse_header(f.read())
        for v in cases.VARIANTS:
            e = cases.entry(c, v)
            if e["fn"] not in header:
                problems.append(f"{stem}.h does not declare {e['fn']}")
                continue
            e["params"] = header[e["fn"]]
            e["header"] = stem + ".h"
            e["kernels"] = _strategies(explain, e["fn"])
            problems += check_entry(e, e["params"])
            manifest.append(e)
    if problems:
        raise RuntimeError("the generated launchers do not match the "
                           "cases:\n  " + "\n  ".join(problems))
    # One case per line: small, and a regenerated case diffs as one line.
    with open(os.path.join(out, "manifest.json"), "w") as f:
        f.write(f'{{"version": {MANIFEST_VERSION}, "generated_by": '
                f'"scripts/gpu-bench.sh prepare", "cases": [\n')
        f.write(",\n".join(json.dumps(e) for e in manifest))
        f.write("\n]}\n")
    return manifest


def _run_in(cwd, cmd):
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({r.returncode}):\n"
                           f"{r.stderr.strip()}")
    return r.stdout


def load(path):
    """The manifest's case list; a clear error for a missing or foreign
    file."""
    try:
        with open(path) as f:
            m = json.load(f)
    except OSError as e:
        raise ManifestError(f"cannot read the manifest {path}: {e.strerror}; "
                            f"run scripts/gpu-bench.sh prepare (needs "
                            f"layoutc)")
    except ValueError as e:
        raise ManifestError(f"{path} is not JSON: {e}")
    if not isinstance(m, dict) or m.get("version") != MANIFEST_VERSION:
        raise ManifestError(f"{path}: expected manifest version "
                            f"{MANIFEST_VERSION}; rerun scripts/gpu-bench.sh "
                            f"prepare")
    return m["cases"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--layoutc", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cases", default="")
    ap.add_argument("--clean", action="store_true",
                    help="remove OUT's generated files first")
    a = ap.parse_args()
    import cases
    try:
        ids = cases.parse_ids(a.cases)
        cases.by_id(ids)
    except ValueError as e:
        sys.exit(f"manifest.py: {e}")
    if a.clean and os.path.isdir(a.out):
        for name in os.listdir(a.out):
            if re.search(r"\.(mlir|cu|h|json)$", name):
                os.remove(os.path.join(a.out, name))
    try:
        m = generate(os.path.abspath(a.layoutc), a.out, ids)
    except RuntimeError as e:
        sys.exit(f"manifest.py: {e}")
    print(f"manifest.py: {len(m)} functions in {a.out}")


if __name__ == "__main__":
    main()
