#!/usr/bin/python3
"""NumPy and PyTorch on the cases of a spec file (cases.py --spec).

Prints RESULT lines in driver.cpp's format (impl numpy, torch_out, torch);
run with the Python that has torch and numpy (/usr/bin/python3 on Debian).

  numpy      np.ascontiguousarray(view) (astype(f16, order="C") for C1),
             np.sum / np.amax; single-threaded: measured with 1 thread only
  torch_out  out.copy_(view) into a preallocated result; for reductions
             torch.sum / torch.amax with out=
  torch      view.contiguous() (allocates; .to(f16, contiguous) for C1),
             view.sum(dims) / view.amax(dims)

  peers.py SPEC [--threads 1,2] [--min-runs 5]
"""
import argparse
import statistics
import sys
import time

import numpy as np
import torch

NP = {"f32": np.float32, "f16": np.float16, "i8": np.int8}
TORCH = {"f32": torch.float32, "f16": torch.float16, "i8": torch.int8}
BYTES = {"f32": 4, "f16": 2, "i8": 1}


def parse(line):
    f = line.split()
    s = dict(id=f[0], variant=f[1], fn=f[2], din=f[3], dout=f[4],
             shape=[int(t) for t in f[5].split(",")], view=f[6],
             action=f[7], dims=f[8])
    return s


def prod(v):
    p = 1
    for x in v:
        p *= x
    return p


def sizes(s):
    """(view sizes, reduced view dims, bytes counted by the metric)."""
    shape, view = s["shape"], s["view"]
    if view == "id":
        vs = list(shape)
    elif view.startswith("permute:"):
        p = [int(t) for t in view.split(":")[1].split(",")]
        vs = [shape[i] for i in p]
    elif view == "slice2":
        vs = [shape[0], (shape[1] + 1) // 2]
    else:
        vs = [int(t) for t in view.split(":")[1].split(",")]
    if s["action"] == "copy":
        red = []
    elif s["dims"] == "all":
        red = list(range(len(vs)))
    else:
        red = [int(t) for t in s["dims"].split(",")]
    out = [n for k, n in enumerate(vs) if k not in red]
    read = (prod(vs) if view == "slice2" else prod(shape)) * BYTES[s["din"]]
    written = prod(out) * BYTES[s["dout"]]
    return vs, red, (read + written if s["action"] == "copy" else read)


def view_np(s, a):
    v = s["view"]
    if v == "id":
        return a
    if v.startswith("permute:"):
        return a.transpose([int(t) for t in v.split(":")[1].split(",")])
    if v == "slice2":
        return a[:, ::2]
    return np.broadcast_to(a, [int(t) for t in v.split(":")[1].split(",")])


def view_torch(s, x):
    v = s["view"]
    if v == "id":
        return x
    if v.startswith("permute:"):
        return x.permute(*[int(t) for t in v.split(":")[1].split(",")])
    if v == "slice2":
        return x[:, ::2]
    return x.expand(*[int(t) for t in v.split(":")[1].split(",")])


def time_it(f, min_runs):
    """As driver.cpp: warm-up, then >= min_runs samples of >= 2 ms each."""
    f()
    t0 = time.perf_counter()
    f()
    t1 = max(time.perf_counter() - t0, 1e-7)
    reps = int(-(-2e-3 // t1)) if t1 < 2e-3 else 1
    runs = min_runs
    sample = t1 * reps
    if sample * runs < 0.4:
        runs = min(21, max(runs, int(0.4 / sample)))
    if runs % 2 == 0:
        runs += 1
    v = []
    for _ in range(runs):
        t = time.perf_counter()
        for _ in range(reps):
            f()
        v.append((time.perf_counter() - t) / reps)
    return statistics.median(v), min(v), max(v), runs


def emit(s, T, impl, st, nbytes, status):
    med, lo, hi, runs = st if st else (0, 0, 0, 0)
    print("\t".join(["RESULT", s["id"], s["variant"], str(T), impl,
                     f"{med:.9g}", f"{lo:.9g}", f"{hi:.9g}", str(runs),
                     str(nbytes), status]), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("spec")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--min-runs", type=int, default=5)
    a = ap.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    rng = np.random.default_rng(1)
    with open(a.spec) as f:
        specs = [parse(l) for l in f if l.strip() and not l.startswith("#")]
    for s in specs:
        print(f"peers: {s['id']} {s['variant']}", file=sys.stderr)
        vs, red, nbytes = sizes(s)
        if s["din"] == "i8":
            a_np = rng.integers(-128, 128, size=s["shape"], dtype=np.int8)
        else:
            a_np = rng.uniform(-1, 1, size=s["shape"]).astype(NP[s["din"]])
        x = torch.from_numpy(a_np)
        vn, vt = view_np(s, a_np), view_torch(s, x)
        dout_np, dout_t = NP[s["dout"]], TORCH[s["dout"]]
        conv = s["dout"] != s["din"]
        axes = tuple(red)
        if s["action"] == "copy":
            out = torch.empty(vs, dtype=dout_t)
            if conv:
                f_np = lambda: vn.astype(dout_np, order="C")
                f_alloc = lambda: vt.to(dout_t,
                                        memory_format=torch.contiguous_format)
            else:
                f_np = lambda: np.ascontiguousarray(vn)
                f_alloc = lambda: vt.contiguous()
            f_out = lambda: out.copy_(vt)
        else:
            keep = [n for k, n in enumerate(vs) if k not in red]
            out = torch.empty(keep, dtype=dout_t)
            if s["action"] == "sum":
                acc = np.float32 if s["din"] == "f16" else None
                f_np = lambda: np.sum(vn, axis=axes, dtype=acc)
                f_alloc = lambda: vt.sum(dim=axes)
                f_out = lambda: torch.sum(vt, dim=axes, out=out)
            else:
                f_np = lambda: np.amax(vn, axis=axes)
                f_alloc = lambda: vt.amax(dim=axes)
                f_out = lambda: torch.amax(vt, dim=axes, out=out)
        for T in threads:
            torch.set_num_threads(T)
            for impl, fn in (("numpy", f_np), ("torch_out", f_out),
                             ("torch", f_alloc)):
                if impl == "numpy" and T != 1:
                    emit(s, T, impl, None, nbytes, "n/a: single-threaded")
                    continue
                try:
                    emit(s, T, impl, time_it(fn, a.min_runs), nbytes, "ok")
                except (RuntimeError, TypeError, ValueError) as e:
                    msg = str(e).splitlines()[0][:120].replace("\t", " ")
                    emit(s, T, impl, None, nbytes, "error: " + msg)
        del x, vt, vn, out, a_np


if __name__ == "__main__":
    main()
