#!/usr/bin/env python3
"""Per-call overhead of layoutc's entry points on tiny tensors.

  bench/overhead/run.py [--build LABEL=BUILD_DIR ...] [--rounds 3]
      [--repeats 7] [--iterations N] [--workdir DIR]

For each build (default: `build/` alone), compiles prog.mlir (a 4x4 f32
transpose, a 16-element copy) with that build's bin/layoutc
(--emit=obj,header), links it with that build's runtime/liblayout_rt.a and
the driver (driver.c), and times each entry point: the raw one with options
NULL, the DLPack one with options NULL and with num_threads = 1; then, where the
build has the Python package, the same kernels through layoutc.compile from
Python (python_calls.py) and torch's copy_ of the same copy. The builds
run in turn, `--rounds` times (before, after, before, after, ...), so that
they see the same machine state; each figure is the median over rounds of
the driver's median ns per call.

A measurement is a function (build, exe, args) -> {(program, call): ns};
MEASURE lists them and COLUMNS the table's columns. Another way of calling
the same kernels (e.g. through Python) is one more function, returning
{(program, "python"): ns}, and one more column:

  MEASURE.append(measure_python)
  COLUMNS.append(("Python", lambda r, p: r.get((p, "python"))))
"""
import argparse
import os
import pathlib
import re
import statistics
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PROGRAMS = ["transpose4x4", "copy16", "nhwc"]


class Build:
    """One layoutc build: its compiler, runtime library and headers."""

    def __init__(self, label, build_dir):
        self.label = label
        self.dir = pathlib.Path(build_dir).resolve()
        self.layoutc = self.dir / "bin" / "layoutc"
        self.runtime = self.dir / "runtime" / "liblayout_rt.a"
        self.include = source_root(self.dir) / "runtime" / "include"
        for path in (self.layoutc, self.runtime, self.include):
            if not path.exists():
                sys.exit(f"run.py: {label}: {path} does not exist")


def source_root(build_dir):
    """The source tree a CMake build directory was configured from."""
    cache = build_dir / "CMakeCache.txt"
    if cache.exists():
        m = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$",
                      cache.read_text(), re.M)
        if m:
            return pathlib.Path(m.group(1))
    return ROOT


def cpu_name():
    """/proc/cpuinfo's model name, with family and model (which tell AMD's
    and Intel's generations apart where the name does not)."""
    fields = {}
    try:
        for line in open("/proc/cpuinfo"):
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
            if not line.strip():
                break
    except OSError:
        return "unknown CPU"
    name = fields.get("model name", "unknown CPU")
    if "cpu family" in fields and "model" in fields:
        name += f" (family {fields['cpu family']}, model {fields['model']})"
    return name


def compile_driver(build, workdir, cc):
    """Builds the driver against `build`; returns the executable's path."""
    out = workdir / build.label
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(build.layoutc), str(HERE / "prog.mlir"),
                    "--emit=obj,header", "-o", str(out / "prog")], check=True)
    exe = out / "overhead"
    subprocess.run([cc, "-O2", "-std=c11", str(HERE / "driver.c"),
                    str(out / "prog.o"), f"-I{out}", f"-I{build.include}",
                    str(build.runtime), "-lpthread", "-lm", "-o", str(exe)],
                   check=True)
    return exe


def measure_c(build, exe, args):
    """The C driver's calls: raw_null, dlpack_null, dlpack_nt1."""
    text = subprocess.run([str(exe), str(args.iterations), str(args.repeats)],
                          check=True, capture_output=True, text=True).stdout
    result = {}
    for line in text.splitlines():
        f = line.split()
        if f and f[0] == "RESULT":
            result[(f[1], f[2])] = float(f[3])
    return result


def measure_python(build, exe, args):
    """The same kernels through layoutc.compile from Python (the build's
    package in <build>/python), and torch's copy_ of the same copy."""
    package = build.dir / "python"
    if not (package / "layoutc").exists():
        return {}
    env = dict(os.environ, PYTHONPATH=str(package),
               LAYOUTC_CACHE_DIR=str(pathlib.Path(args.workdir).resolve() /
                                     build.label / "cache"))
    text = subprocess.run([args.python, str(HERE / "python_calls.py"),
                           str(args.iterations), str(args.repeats)],
                          check=True, capture_output=True, text=True,
                          env=env).stdout
    return {(f[1], f[2]): float(f[3]) for f in map(str.split,
                                                   text.splitlines())
            if f and f[0] == "RESULT"}


# Every measurement of one build; each returns {(program, call): ns}.
MEASURE = [measure_c, measure_python]


def diff(a, b):
    return lambda r, p: (r[(p, a)] - r[(p, b)]
                         if (p, a) in r and (p, b) in r else None)


# (header, figure of (results, program)), in table order.
COLUMNS = [
    ("raw NULL", lambda r, p: r.get((p, "raw_null"))),
    ("DLPack NULL", lambda r, p: r.get((p, "dlpack_null"))),
    ("DLPack nt=1", lambda r, p: r.get((p, "dlpack_nt1"))),
    ("NULL-raw", diff("dlpack_null", "raw_null")),
    ("nt=1-raw", diff("dlpack_nt1", "raw_null")),
    ("Python", lambda r, p: r.get((p, "python"))),
    ("Python-raw", diff("python", "raw_null")),
    ("torch copy_", lambda r, p: r.get((p, "torch_copy_"))),
]


def run(builds, args):
    workdir = pathlib.Path(args.workdir).resolve()
    cc = os.environ.get("CC", "cc")
    exes = {b.label: compile_driver(b, workdir, cc) for b in builds}
    samples = {b.label: {} for b in builds}
    for _ in range(args.rounds):
        for b in builds:
            for measure in MEASURE:
                for key, ns in measure(b, exes[b.label], args).items():
                    samples[b.label].setdefault(key, []).append(ns)
    return {label: {k: statistics.median(v) for k, v in s.items()}
            for label, s in samples.items()}


def print_table(builds, results, args):
    print(f"# {cpu_name()}, {len(os.sched_getaffinity(0))} CPUs in the "
          f"affinity mask; ns per call, median of {args.rounds} rounds x "
          f"{args.repeats} samples")
    width = max(len(p) for p in PROGRAMS)
    lwidth = max(len(b.label) for b in builds)
    print(f"{'program':<{width}}  {'build':<{lwidth}}" +
          "".join(f"  {h:>11}" for h, _ in COLUMNS))
    for p in PROGRAMS:
        for b in builds:
            cells = []
            for _, figure in COLUMNS:
                v = figure(results[b.label], p)
                cells.append(f"  {'-' if v is None else f'{v:.1f}':>11}")
            print(f"{p:<{width}}  {b.label:<{lwidth}}" + "".join(cells))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", action="append", metavar="LABEL=BUILD_DIR",
                    help="a layoutc build directory to time (repeatable; "
                    "default: build=build)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=7,
                    help="samples per call and round (the driver's median)")
    ap.add_argument("--iterations", type=int, default=0,
                    help="calls per sample (default: about 50 ms' worth)")
    ap.add_argument("--python", default="/usr/bin/python3",
                    help="the interpreter with torch for the Python column")
    ap.add_argument("--workdir", default=str(ROOT / "build-bench" /
                                             "overhead"))
    args = ap.parse_args()
    builds = []
    for spec in args.build or ["build=" + str(ROOT / "build")]:
        label, _, path = spec.partition("=")
        if not path:
            sys.exit(f"run.py: --build {spec}: expected LABEL=BUILD_DIR")
        builds.append(Build(label, path))
    print_table(builds, run(builds, args), args)


if __name__ == "__main__":
    main()
