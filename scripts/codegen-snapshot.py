#!/usr/bin/env python3
"""Snapshots what a layoutc build generates, so that a restructuring can show
that behaviour is unchanged.

  codegen-snapshot.py --layoutc BUILD/bin/layoutc --out DIR
      For every input below, writes DIR/<input>.<kind> for the kinds
        v3.ll     --emit=llvm --mcpu=x86-64-v3
        v4.ll     --emit=llvm --mcpu=x86-64-v4
        cu        --target=cuda --emit=cuda
        explain   --emit=explain
      (a failing command writes its exit status and stderr instead). Inputs:
        every bench case (bench/cases/*.mlir), every execution-test module
        (test/execution/Inputs and the modules exec_test.py draws for
        exec.test, exec-avx512.test and exec-cuda.test), every .mlir under
        test/Target/CPU and test/Target/CUDA, and the all-dtypes program of
        test/Target/CUDA/gen_dtypes.py.
  codegen-snapshot.py --compare OLD NEW
      Lists the files that differ or exist on one side only; exits 1 if any.

Both layoutc builds must run on this machine.
"""
import argparse
import concurrent.futures
import filecmp
import glob
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = "/usr/bin/python3"

KINDS = {
    "v3.ll": ["--emit=llvm", "--mcpu=x86-64-v3"],
    "v4.ll": ["--emit=llvm", "--mcpu=x86-64-v4"],
    "cu": ["--target=cuda", "--emit=cuda"],
    "explain": ["--emit=explain"],
}

# exec_test.py draws (seed, count, count-large, target) as the lit tests do.
EXEC_DRAWS = [("0", "320", "80", "cpu"), ("1", "160", "40", "cpu"),
              ("0", "320", "80", "cuda")]


def exec_modules(layoutc, work):
    """The modules exec_test.py writes for the execution tests' draws."""
    found = {}
    for seed, count, large, target in EXEC_DRAWS:
        wd = os.path.join(work, f"exec-{target}-{seed}")
        cmd = [PY, os.path.join(ROOT, "test/execution/exec_test.py"),
               "--layoutc", layoutc, "--explain-only", "--keep",
               "--workdir", wd, "--seed", seed, "--count", count,
               "--count-large", large, "--target", target,
               "--rt-lib", os.path.join(ROOT, "build/runtime/liblayout_rt.a"),
               "--rt-include", os.path.join(ROOT, "runtime/include"),
               "--cuda-include", os.path.join(ROOT, "runtime/cuda/include")]
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for path in sorted(glob.glob(os.path.join(wd, "**/*.mlir"),
                                     recursive=True)):
            rel = os.path.relpath(path, wd)
            found[f"exec-{target}-{seed}/{rel}"] = path
    return found


def inputs(layoutc, work):
    found = {}
    for pattern in ["bench/cases/*.mlir", "test/execution/Inputs/*.mlir",
                    "test/Target/CPU/**/*.mlir", "test/Target/CUDA/**/*.mlir"]:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern),
                                     recursive=True)):
            # Named as before the tests moved under test/Target, so that
            # snapshots of older builds compare.
            rel = os.path.relpath(path, ROOT).replace("test/Target/", "test/")
            found[rel] = path
    dtypes = os.path.join(work, "dtypes")
    os.makedirs(dtypes, exist_ok=True)
    subprocess.run([PY, os.path.join(ROOT, "test/Target/CUDA/gen_dtypes.py"), dtypes],
                   check=True, stdout=subprocess.DEVNULL)
    found["gen_dtypes/dtypes.mlir"] = os.path.join(dtypes, "dtypes.mlir")
    found.update(exec_modules(layoutc, work))
    return found


def snapshot_one(layoutc, name, path, out):
    for kind, flags in KINDS.items():
        dest = os.path.join(out, f"{name}.{kind}")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        proc = subprocess.run([layoutc, path, *flags, "-o", dest],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            # The path names the input's location on this machine; keep only
            # what layoutc says about the program.
            err = proc.stderr.replace(path, "<input>")
            with open(dest, "w") as f:
                f.write(f"exit {proc.returncode}\n{err}")
        elif kind == "explain":
            with open(dest) as f:
                text = f.read().replace(path, "<input>")
            with open(dest, "w") as f:
                f.write(text)


def snapshot(layoutc, out):
    layoutc = os.path.abspath(layoutc)
    with tempfile.TemporaryDirectory() as work:
        found = inputs(layoutc, work)
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            jobs = [pool.submit(snapshot_one, layoutc, n, p, out)
                    for n, p in found.items()]
            for j in jobs:
                j.result()
    print(f"{len(found)} inputs x {len(KINDS)} kinds -> {out}")
    return 0


def compare(old, new):
    def files(root):
        return {os.path.relpath(p, root)
                for p in glob.glob(os.path.join(root, "**/*"), recursive=True)
                if os.path.isfile(p)}
    a, b = files(old), files(new)
    bad = 0
    for rel in sorted(a | b):
        if rel not in b:
            print(f"only in old: {rel}")
        elif rel not in a:
            print(f"only in new: {rel}")
        elif filecmp.cmp(os.path.join(old, rel), os.path.join(new, rel),
                         shallow=False):
            continue
        else:
            print(f"differs: {rel}")
        bad += 1
    print(f"{len(a | b)} files, {bad} different")
    return 1 if bad else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--layoutc")
    parser.add_argument("--out")
    parser.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if not args.layoutc or not args.out:
        parser.error("--layoutc and --out, or --compare OLD NEW")
    return snapshot(args.layoutc, args.out)


if __name__ == "__main__":
    sys.exit(main())
