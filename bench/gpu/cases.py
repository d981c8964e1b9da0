#!/usr/bin/env python3
"""The GPU benchmark cases of shared/bench/CASES.md.

The CPU cases of bench/cases.py (P1-P11, C1, G1, G2, R1-R5) with the same
permutations, views, actions and dtypes, scaled to ~1 GiB per tensor, plus
the GPU-only cases: A1, the bf16 attention permute (0, 2, 1, 3) of
[8, 32, 4096, 128], and R6 / R7, sums of 2^28 f32 elements over the inner and
over the outer dim. Every case also has a `small` (~1 MiB) and an `odd`
(~1 MiB, extents that are not multiples of any vector width or tile) size
for the correctness check.

The case model, the layout-program writer and the function names are
bench/cases.py's (loaded by path, since both files are called cases.py);
this file only adds the GPU sizes and the manifest entries.

  cases.py --write-mlir DIR        one program per case (<id>.mlir), one
                                   function per size: p1, p1_small, p1_odd
  cases.py --list [--cases P1,R2]  one line per (case, size): id size fn
  cases.py --manifest-entries      the case part of the manifest, as JSON
"""
import argparse
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _load_cpu_cases():
    path = os.path.join(HERE, os.pardir, "cases.py")
    spec = importlib.util.spec_from_file_location("layoutc_cpu_cases", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


cpu = _load_cpu_cases()

VARIANTS = ("full", "small", "odd")
BYTES = {"f32": 4, "f16": 2, "bf16": 2, "i8": 1}

# GPU sizes of every CPU case: full ~1 GiB (2^28 f32 elements where the
# shape allows it), small ~1 MiB, odd ~1 MiB with extents that are not
# multiples of 2, 4, 8 or 32.
GPU_SHAPES = {
    "P1": dict(full=[16384, 16384], small=[512, 512], odd=[511, 513]),
    "P2": dict(full=[320, 64, 112, 112], small=[4, 64, 32, 32],
               odd=[3, 63, 37, 35]),
    "P3": dict(full=[320, 112, 112, 64], small=[4, 32, 32, 64],
               odd=[3, 37, 35, 63]),
    "P4": dict(full=[640, 640, 640], small=[64, 64, 64], odd=[63, 65, 63]),
    "P5": dict(full=[1024, 512, 512], small=[4, 256, 256], odd=[3, 255, 257]),
    "P6": dict(full=[2048, 1024, 128], small=[64, 32, 128],
               odd=[63, 31, 129]),
    "P7": dict(full=[128, 128, 128, 128], small=[32, 32, 16, 16],
               odd=[31, 33, 15, 17]),
    "P8": dict(full=[64, 64, 64, 16, 64], small=[16, 16, 16, 4, 16],
               odd=[15, 17, 15, 5, 15]),
    "P9": dict(full=[32, 32, 32, 32, 16, 16], small=[8] * 6,
               odd=[7, 9, 7, 9, 7, 9]),
    "P10": dict(full=[32768, 16384], small=[1024, 512], odd=[1023, 513]),
    "P11": dict(full=[320, 3, 1024, 1024], small=[1, 3, 592, 592],
                odd=[1, 3, 591, 593]),
    "C1": dict(full=[320, 64, 112, 112], small=[4, 64, 32, 32],
               odd=[3, 63, 37, 35]),
    "G1": dict(full=[16384, 16384], small=[512, 512], odd=[511, 515]),
    # expand [1, n] -> [n, n]: the result is the ~1 GiB tensor.
    "G2": dict(full=[1, 16384], small=[1, 512], odd=[1, 513]),
    "R1": dict(full=[262144, 1024], small=[256, 1024], odd=[255, 1025]),
    "R2": dict(full=[262144, 1024], small=[256, 1024], odd=[255, 1025]),
    "R3": dict(full=[1024, 256, 32, 32], small=[1, 256, 32, 32],
               odd=[3, 63, 31, 33]),
    "R4": dict(full=[16384, 16384], small=[512, 512], odd=[511, 513]),
    "R5": dict(full=[32768, 16384], small=[1024, 512], odd=[1023, 513]),
}

GPU_ONLY = [
    cpu.case("A1", "bf16", "permute:0,2,1,3", "copy",
             dict(full=[8, 32, 4096, 128], small=[1, 8, 512, 128],
                  odd=[1, 7, 511, 129]),
             desc="bf16 attention [8,32,4096,128] (0,2,1,3)"),
    cpu.case("R6", "f32", "id", "sum", dims=[1],
             shapes=dict(full=[16384, 16384], small=[512, 512],
                         odd=[511, 513]),
             desc="sum dim 1 of [16384,16384] (2^28, inner)"),
    cpu.case("R7", "f32", "id", "sum", dims=[0],
             shapes=dict(full=[16384, 16384], small=[512, 512],
                         odd=[511, 513]),
             desc="sum dim 0 of [16384,16384] (2^28, outer)"),
]


def _dims(xs):
    return "[" + ",".join(map(str, xs)) + "]"


def _gpu_desc(c):
    # The CPU descriptions quote the CPU sizes; these quote the full GPU size.
    shape = c["shapes"]["full"]
    v, din = c["view"], c["din"]
    if v.startswith("permute:"):
        text = f"{din} {_dims(shape)} ({v.split(':')[1]})"
        if c["dout"] != din:
            text = f"{din}->{c['dout']} + {_dims(shape)} ({v.split(':')[1]})"
    elif v == "slice2":
        text = f"x[:, ::2] of {din} {_dims(shape)}"
    elif v == "expand":
        text = f"expand [1,{shape[1]}]->[{shape[1]},{shape[1]}] {din}"
    else:
        text = f"{din} {_dims(shape)}"
    if c["action"] != "copy":
        dims = "all" if c["dims"] == "all" else ",".join(map(str, c["dims"]))
        of = "x.T, " if v.startswith("permute:") else ""
        text = f"{c['action']} dims {dims} of {of}{din} {_dims(shape)}"
    return text


def _gpu_case(c):
    g = dict(c)
    g["shapes"] = GPU_SHAPES[c["id"]]
    g["desc"] = _gpu_desc(g)
    return g


CASES = [_gpu_case(c) for c in cpu.CASES] + GPU_ONLY


def _check_cases():
    # A CPU case without GPU sizes would silently drop out of the GPU suite.
    missing = [c["id"] for c in cpu.CASES if c["id"] not in GPU_SHAPES]
    if missing:
        sys.exit(f"bench/gpu/cases.py: no GPU sizes for {','.join(missing)}")
    for c in CASES:
        if sorted(c["shapes"]) != sorted(VARIANTS):
            sys.exit(f"bench/gpu/cases.py: {c['id']} needs exactly the sizes "
                     f"{', '.join(VARIANTS)}")


_check_cases()


def by_id(ids):
    """The cases named in `ids` (all when empty), in suite order."""
    known = {c["id"] for c in CASES}
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise ValueError("unknown case(s) " + ",".join(unknown) +
                         "; known: " + ",".join(c["id"] for c in CASES))
    return [c for c in CASES if not ids or c["id"] in ids]


def parse_ids(text):
    return [s.strip().upper() for s in (text or "").split(",") if s.strip()]


def row_major(sizes):
    strides = [1] * len(sizes)
    for k in range(len(sizes) - 2, -1, -1):
        strides[k] = strides[k + 1] * sizes[k + 1]
    return strides


def numel(sizes):
    n = 1
    for s in sizes:
        n *= s
    return n


def view_desc(c, shape):
    """The view as torch can rebuild it from x."""
    v = c["view"]
    if v == "id":
        return {"kind": "id"}
    if v.startswith("permute:"):
        return {"kind": "permute",
                "perm": [int(t) for t in v.split(":")[1].split(",")]}
    if v == "slice2":
        return {"kind": "slice", "dim": 1, "step": 2}
    if v == "expand":
        return {"kind": "expand", "sizes": cpu.view_sizes_strides(c, shape)[0]}
    raise ValueError(v)


def entry(c, variant):
    """One manifest entry, from the case alone (prepare adds what layoutc
    says about the parameters and checks that both agree)."""
    shape = c["shapes"][variant]
    vs, vst = cpu.view_sizes_strides(c, shape)
    if c["action"] == "copy":
        rdims = []
        rsizes = list(vs)
    else:
        rdims = cpu.reduce_dims(c, len(vs))
        rsizes = [s for k, s in enumerate(vs) if k not in rdims]
    # Bytes read are the distinct elements of x the result depends on: all
    # of x, except every other column for G1 and the one row for G2.
    read_elems = numel(shape)
    if c["view"] == "slice2":
        read_elems = numel(vs)
    bytes_read = read_elems * BYTES[c["din"]]
    bytes_written = numel(rsizes) * BYTES[c["dout"]]
    # CASES.md: copies count read + written, reductions only what they read.
    metric_bytes = bytes_read + (bytes_written if c["action"] == "copy" else 0)
    return {
        "id": c["id"],
        "variant": variant,
        "fn": cpu.fn_name(c, variant),
        "program": c["id"].lower(),
        "desc": c["desc"],
        "x": {"dtype": c["din"], "sizes": list(shape),
              "strides": row_major(shape)},
        "view": dict(view_desc(c, shape), sizes=vs, strides=vst),
        "action": c["action"],
        "dims": rdims,
        "result": {"dtype": c["dout"], "sizes": rsizes,
                   "strides": row_major(rsizes)},
        "bytes_read": bytes_read,
        "bytes_written": bytes_written,
        "bytes": metric_bytes,
    }


def entries(ids=()):
    return [entry(c, v) for c in by_id(list(ids)) for v in VARIANTS]


def program_text(c):
    funcs = [cpu.mlir_func(c, v) for v in VARIANTS]
    return (f"// {c['id']}: {c['desc']} (shared/bench/CASES.md, GPU sizes).\n"
            f"// Generated by bench/gpu/cases.py --write-mlir; one function"
            f" per size\n// (full ~1 GiB, _small ~1 MiB, _odd ~1 MiB with odd"
            f" extents).\n\n" + "\n\n".join(funcs) + "\n")


def write_mlir(outdir, ids=()):
    os.makedirs(outdir, exist_ok=True)
    for c in by_id(list(ids)):
        with open(os.path.join(outdir, c["id"].lower() + ".mlir"), "w") as f:
            f.write(program_text(c))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write-mlir", metavar="DIR")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--manifest-entries", action="store_true")
    ap.add_argument("--cases", default="")
    a = ap.parse_args()
    try:
        ids = parse_ids(a.cases)
        by_id(ids)
    except ValueError as e:
        sys.exit(f"bench/gpu/cases.py: {e}")
    if a.write_mlir:
        write_mlir(a.write_mlir, ids)
    if a.list:
        for e in entries(ids):
            print(e["id"], e["variant"], e["fn"])
    if a.manifest_entries:
        json.dump(entries(ids), sys.stdout, indent=1)
        print()


if __name__ == "__main__":
    main()
