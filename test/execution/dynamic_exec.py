#!/usr/bin/env python3
"""Execution tests of *dynamic* layout programs (sizes `?`) against eager
PyTorch 1.13, bit-exact.

Programs (every one a function with row-major `?`-sized arguments):
  * the benchmark cases of bench/cases.py (docs/internals/planner.md) in
    dynamic form: P1-P11, C1 (NCHW->NHWC + f32->f16), G1 (x[:, ::2]),
    G2 (expand [1, n] -> [M, n], M static as expand's sizes must be);
  * copies of every dtype and conversions through `layout.to`;
  * intermediate new tensors (scratch of run-time size) read by two
    conversions, by reductions and by another copy;
  * `layout.copy` into a written argument, with broadcasts and conversions;
  * views returned as results (nothing is written; the call must succeed
    and the header must say "view of");
  * run-time views (runtime_view_programs): reshape, flatten and view of
    dynamic views whose dims layoutc cannot prove mergeable, and contiguous
    of a view contiguous at some sizes only, where PyTorch's computeStride
    (or is_contiguous) decides at run time whether PyTorch views or copies.
    Each runs at shapes of both kinds: returned directly (reshape/flatten
    to [-1], of middle dims, adding a size-1 dim; the `<result>_view`
    report), read by another op (contiguous, transpose + contiguous, a
    reduction, `to` of a contiguous, layout.copy into a second argument, a
    slice/select/transpose then a copy, a second run-time view), `view`
    where computeStride finds no strides (PyTorch's "view size is not
    compatible with input tensor's size and stride ..." as a bad call) and
    a contiguous of a slice with an offset (a view at one row) read through
    a transpose or select;
  * layout.reduce: the benchmark reductions R1-R5 (and in other dtypes),
    every kind (sum, mean, prod, amax, amin, argmax, argmin) in several
    dtypes over inner, outer, middle, several and all dims, with keepdim, of
    arguments and of transposed, permuted, stepped, flipped and expanded
    views (the reduced dim innermost and outermost in memory), and over
    empty dims (sum 0, prod 1, mean NaN; amax/amin/argmax/argmin fail with
    PyTorch's message), also dims of size 0 for every size;
  * --count seeded random view chains (test/differential/dynamic_views.py's
    op generators, plus flip) over an argument of a random dtype and rank,
    each ended by contiguous, clone (contiguous / channels_last), to <dtype>,
    layout.copy into a second argument or a reduction of a random kind.
    view/reshape/flatten of non-mergeable views and contiguous inside a
    chain (run-time views read by the ops after them) are drawn too; not
    `view` after a flip (layoutc's flip is a view with negative strides,
    PyTorch's a dense copy that any `view` accepts).

Types.  Every op names its operand type, the inferred result type of the
op before it, so functions are built level by level: all functions sit in a
few modules, each round `layoutc --no-opt --emit=mlir` prints the result
types of the ops whose operand types are known, and random chains draw their
next op from the type of their last value.  A function layoutc rejects
(types or code generation) fails when it is hand-written and is skipped
(counted) when it is a random chain; a crash of layoutc always fails.

Running.  The modules are compiled with `layoutc --emit=obj,header` (and
`--emit=explain`, which says which results alias an argument), linked with
the whole static runtime into one shared library each, and their DLPack
entry points are called through ctypes with DLTensors over torch buffers
surrounded by guard bytes.  Outputs and written arguments are filled with a
sentinel before every call.  Every program runs at its natural shape and at
>= 3 more: extents of 0 and 1, odd extents (17, 33, 63, 129, ...) and, for
the benchmark cases, a shape above 256 KiB.  Calls alternate options NULL,
num_threads 1 and num_threads 2.

CUDA (--target cuda).  The modules are compiled with `layoutc --target=cuda
--emit=cuda,header`, each .cu built as host C++ against the CUDA emulation
(runtime/cuda/, --cuda-include) and linked with device_cuda.cpp (the device
hooks of exec_test.py's driver) and the runtime into the shared library.
Every call mirrors each buffer, guard bytes included, into the emulation's
device memory (cudaMalloc), passes kDLCUDA tensors and the default stream,
synchronizes and copies every buffer back, so the checks below read what
the kernels left in device memory.  Every other good call goes through
`<function>_raw` (device pointers, the input sizes its prototype names,
the `_view` reports, the stream).  Bad calls also pass a tensor of device
kDLCPU and kDLCUDA tensors over host memory.  --nvcc builds every .cu for
--cuda-arch too, warnings as errors (one check per module).  Kernels CUDA
code generation refuses at the op ("CUDA code generation: ...") are listed
as known limitation L2.  A .cu that does not compile as host C++ fails the
functions the compiler names; the rest of its module is compiled again.
--sample K shortens a run: the bench cases (R1-R5 too), the programs with
malformed-tensor calls or returning views, the run-time views, and every
K-th of the others.

Run-time views.  A result whose copy depends on sizes and whose operand
is a view of an argument (a conditional contiguous, a reshape/flatten
decided at run time) has a `<result>_view` report in the header: every
third call passes NULL (the result is always written), the others ask.  A
reported view must lie in that argument with PyTorch's values, dense or
with PyTorch's strides (a flatten PyTorch views need not be dense), and
leave the output untouched; a result PyTorch returns as a view of an
argument must not be reported written.  A reshape/flatten written is
compared row-major.  Ops reading a run-time view are checked by their
values only: they must read the argument where PyTorch views and the copy
where it copies.

Checks.  A shape PyTorch accepts must return NULL, every new result must
equal PyTorch's bit for bit (floats: NaN where PyTorch has NaN, otherwise
the same bits; a float sum, mean or prod within exec_test.py's
reduce_oracle tolerance instead, whose rule is in exec_test.py's
docstring), a written argument must equal PyTorch's copy_ into it over
its whole storage, and guard bytes must stay.  A bad call (PyTorch raises,
or a tensor does not match: wrong output size or strides, wrong static size,
rank, dtype or device) must return a status whose message is
`<function>: <PyTorch's message>` or names the mismatch as the runtime does
(`expected size N in dimension D, got M`), and must write nothing.

Prints one `FAIL ...` line per failure and `N passed, M failed`; exits
non-zero on any failure.  Run with the interpreter that sees torch:

  /usr/bin/python3 test/execution/dynamic_exec.py --layoutc build/bin/layoutc \\
      --rt-lib build/runtime/liblayout_rt.a --rt-include runtime/include
"""

import argparse
import collections
import concurrent.futures
import ctypes
import dataclasses
import json
import math
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from typing import Callable, Dict, List, Optional

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "differential"))
sys.path.insert(0, HERE)
import dynamic_views as dv  # noqa: E402  (op generators of dynamic view chains)
import exec_test as ex  # noqa: E402  (reduce_oracle: the reductions' reference and tolerance)

GUARD = 64
GUARD_FILL = 0x5A
SENTINEL = 0xA5
TENSOR_TYPE = re.compile(r"!layout\.tensor<(?:[^<>]|<[^<>]*>)*>")
# Known limitations of dynamic code generation: programs it rejects with a
# clear error at the op, listed and not counted (counted as failures with
# --strict). Anything else layoutc rejects or gets wrong is a failure.
KNOWN = {
    "L1": "layout.copy into a dynamic destination that layoutc cannot prove distinct for every size "
          "(an expand followed by a view that merges dims, an unfold whose windows overlap, as_strided "
          "of a dynamic tensor): 'cannot prove that the destination ... does not overlap itself'; views "
          "of an argument that keep indices apart are proven, and an expand is checked at run time",
    "L2": "--target cuda: a kernel CUDA code generation rejects with a clear error at the op "
          "('CUDA code generation: ...')",
}
KNOWN_CODEGEN = {"L1": "does not overlap itself", "L2": "CUDA code generation: "}
DIAGNOSTIC = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$", re.M)


# ---------------------------------------------------------------------------
# Element types.
# ---------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class DType:
    name: str
    torch: torch.dtype
    code: int
    bits: int

    @property
    def size(self):
        return self.bits // 8

    @property
    def is_float(self):
        return self.torch.is_floating_point


DTYPES = {d.name: d for d in [
    DType("i1", torch.bool, 6, 8), DType("i8", torch.int8, 0, 8), DType("ui8", torch.uint8, 1, 8),
    DType("i16", torch.int16, 0, 16), DType("i32", torch.int32, 0, 32), DType("i64", torch.int64, 0, 64),
    DType("f16", torch.float16, 2, 16), DType("bf16", torch.bfloat16, 4, 16),
    DType("f32", torch.float32, 2, 32), DType("f64", torch.float64, 2, 64),
]}
NP_INT = {"i8": np.int8, "ui8": np.uint8, "i16": np.int16, "i32": np.int32, "i64": np.int64}


def data_kind(src: str, dst: str) -> str:
    """Values for which src -> dst is defined and rounds once, as in PyTorch."""
    kind = ex.conversion_kind(ex.DTYPES[src], ex.DTYPES[dst])
    if kind != "any":
        return kind
    s, d = DTYPES[src], DTYPES[dst]
    if s.is_float and not d.is_float:
        return "any"
    if s.is_float and d.is_float and s.name != d.name:
        return "special"
    return "special" if src == dst else "any"


def make_data(rng: np.random.Generator, dt: DType, shape, kind="any") -> torch.Tensor:
    """Random values of a shape.  kinds: any, nonneg, f32exact, small24,
    special (floats with NaN, infinities and -0), nan (floats with NaN and
    infinities, no -0: amax/amin/argmax/argmin, whose ties of -0 and 0 PyTorch
    breaks either way), and exec_test's unit, prod and ties (reductions)."""
    n = math.prod(shape)
    if kind in ("unit", "prod", "ties"):
        return ex.make_data(rng, ex.DTYPES[dt.name], n, kind).reshape(shape)
    if dt.name == "i1":
        return torch.from_numpy(rng.integers(0, 2, n).astype(np.bool_)).reshape(shape)
    if dt.is_float:
        if kind == "nonneg":
            v = rng.uniform(0.0, 100.0, n)
        else:
            v = rng.uniform(-1.0, 1.0, n) * np.exp2(rng.integers(-6, 7, n))
            v[rng.random(n) < 0.08] = 0.0
            if kind in ("special", "nan") and n:
                # NaN, infinities and -0 (copies and float -> float only).
                specials = np.array([np.nan, np.inf, -np.inf] + ([-0.0] if kind == "special" else []))
                pick = rng.random(n) < 0.03
                v[pick] = rng.choice(specials, int(pick.sum()))
        t = torch.from_numpy(v)
        if kind == "f32exact" or dt.name != "f64":
            t = t.float()
        return t.to(dt.torch).reshape(shape)
    info = np.iinfo(NP_INT[dt.name])
    lo, hi = int(info.min), int(info.max)
    if kind == "small24":
        lo, hi = max(lo, -(1 << 24) + 1), min(hi, (1 << 24) - 1)
    v = rng.integers(lo, hi, n, endpoint=True, dtype=np.int64)
    small = rng.random(n) < 0.3
    v[small] = rng.integers(max(lo, -100), min(hi, 100) + 1, int(small.sum()))
    return torch.from_numpy(v).to(dt.torch).reshape(shape)


def row_major(sizes):
    strides, acc = [], 1
    for s in reversed(sizes):
        strides.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(strides))


def torch_message(e: Exception) -> str:
    return str(e).split("\nException raised from")[0].strip()


# ---------------------------------------------------------------------------
# Reductions: PyTorch's result and exec_test's reduce_oracle.
# ---------------------------------------------------------------------------

NAME_OF_TORCH = {d.torch: d.name for d in DTYPES.values()}


def torch_reduce(t: torch.Tensor, kind: str, dims: List[int], keepdim: bool) -> torch.Tensor:
    """PyTorch's layout.reduce (dims [] = all), raising its errors.  Where
    layoutc accepts more than PyTorch 1.13 (docs/language.md, ext): argmax/
    argmin of i1 run on uint8 (False < True), prod of f16/bf16 in f32, prod
    over several dims over the reduced dims flattened."""
    rank = t.dim()
    if kind in ("argmax", "argmin"):
        f = torch.argmax if kind == "argmax" else torch.argmin
        if t.dtype == torch.bool:
            t = t.to(torch.uint8)
        if dims:
            return f(t, dims[0], keepdim)
        r = f(t)
        return r.reshape([1] * rank) if keepdim else r
    if kind == "prod":
        if t.dtype in (torch.float16, torch.bfloat16):
            return torch_reduce(t.float(), kind, dims, keepdim).to(t.dtype)
        n_dims = max(rank, 1)
        red = sorted({d % n_dims for d in dims}) if dims else list(range(rank))
        red = [d for d in red if d < rank]
        keep = [d for d in range(rank) if d not in red]
        n = math.prod(t.shape[d] for d in red)
        r = (t.permute(keep + red).reshape([t.shape[d] for d in keep] + [n]) if rank else t.reshape([1])).prod(-1)
        return r.reshape([1 if d in red else t.shape[d] for d in range(rank)]) if keepdim else r
    f = {"sum": torch.sum, "mean": torch.mean, "amax": torch.amax, "amin": torch.amin}[kind]
    return f(t, dims, keepdim)


def oracle_check(t: torch.Tensor, out: torch.Tensor, kind, dims, keepdim):
    """reduce_oracle's (ref, tol) for a float sum/mean/prod; None for the
    bit-exact kinds, whose PyTorch result must equal the oracle's."""
    expected, out_dt, check = ex.reduce_oracle(t, ex.DTYPES[NAME_OF_TORCH[t.dtype]], kind, dims, keepdim)
    if out.dtype != out_dt.torch or tuple(out.shape) != tuple(expected.shape):
        raise AssertionError(f"reduce {kind} {dims}: PyTorch gives {out.dtype} {tuple(out.shape)}, "
                             f"reduce_oracle {out_dt.torch} {tuple(expected.shape)}")
    if check is None and first_mismatch(out, expected):
        raise AssertionError(f"reduce {kind} {dims}: PyTorch and reduce_oracle differ: "
                             f"{first_mismatch(out, expected)}")
    return check


def tolerance_mismatch(got: torch.Tensor, check, dt: DType) -> Optional[str]:
    """None when a float sum/mean/prod is within reduce_oracle's tolerance."""
    ref, tol = check
    if tuple(got.shape) != tuple(ref.shape):
        return f"shape {tuple(got.shape)} != {tuple(ref.shape)}"
    g = got.double().reshape(-1)
    ok = ex.within_tolerance(g, ref.reshape(-1), tol.reshape(-1), ex.DTYPES[dt.name])
    if bool(ok.all()):
        return None
    k = int((~ok).nonzero()[0])
    idx = list(np.unravel_index(k, tuple(got.shape))) if got.dim() else []
    return (f"{int((~ok).sum())} of {got.numel()} elements outside the tolerance, first at {[int(i) for i in idx]}: "
            f"got {g[k].item()!r}, expected {ref.reshape(-1)[k].item()!r} +- {tol.reshape(-1)[k].item():.3g}")


# ---------------------------------------------------------------------------
# Programs.
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class OpRec:
    results: List[str]          # SSA names of the results ([] for layout.copy)
    text: str                   # "layout.permute {0} [0, 2, 1]" ({k}: operand k)
    operands: List[str]
    fn: Callable                # torch: operand tensors -> tensor or tuple (None for copy)
    pick: int = 0
    reduce: Optional[tuple] = None  # layout.reduce: (kind, dims, keepdim)


@dataclasses.dataclass
class ArgSpec:
    name: str
    dt: DType
    dims: List[Optional[int]]   # static size or None (`?`)
    written: bool = False

    def type(self):
        return "!layout.tensor<" + "".join(("?" if d is None else str(d)) + "x" for d in self.dims) + self.dt.name + ">"


class Prog:
    """One function: arguments, ops (with their PyTorch meaning), results,
    and the shapes it is called at."""

    def __init__(self, name: str, random_program=False):
        self.name = re.sub(r"\W", "_", name)
        self.random_program = random_program
        self.args: List[ArgSpec] = []
        self.ops: List[OpRec] = []
        self.types: Dict[str, str] = {}
        self.rets: List[str] = []
        self.counter = 0
        self.status = "building"           # building, built, rejected, failed
        self.error = ""
        self.shapes: List[dict] = []        # {arg name: shape}
        self.bad: List[dict] = []           # bad calls
        self.kinds: Dict[str, str] = {}     # arg name -> data kind
        self.result_dtypes: List[DType] = []
        self.aliases: List[Optional[int]] = []
        self.generator = None               # random chains: next-op callback
        self.view_result = False            # the function returns views only
        self.always = False                 # kept by --sample (run-time views)
        self.view_reports = []              # results with a `_view` report (header)
        self.raw = None                     # CUDA: (<name>_raw, its sizes as [(argument, dim)])
        self.module = ""
        self.checks: List[Optional[tuple]] = []  # set by reference()

    # -- building ---------------------------------------------------------------
    def arg(self, name, dt, dims, kind="any") -> str:
        dt = DTYPES[dt] if isinstance(dt, str) else dt
        self.args.append(ArgSpec(name, dt, list(dims)))
        self.types["%" + name] = self.args[-1].type()
        self.kinds[name] = kind
        return "%" + name

    def op(self, text, operands, fn, results=1, pick=0, reduce=None):
        self.counter += 1
        base = f"%v{self.counter}"
        names = [base] if results == 1 else [f"{base}#{k}" for k in range(results)]
        self.ops.append(OpRec(names, text, list(operands), fn, pick, reduce))
        return names[0] if results == 1 else names

    def view(self, v, name, syntax, fn):
        return self.op(f"layout.{name} {{0}} {syntax}".rstrip(), [v], fn)

    def permute(self, v, dims): return self.view(v, "permute", f"[{dv.ints(dims)}]", lambda t: t.permute(dims))
    def transpose(self, v, a, b): return self.view(v, "transpose", f"{a}, {b}", lambda t: t.transpose(a, b))
    def select(self, v, d, i): return self.view(v, "select", f"dim {d} index {i}", lambda t: t.select(d, i))
    def narrow(self, v, d, s, n): return self.view(v, "narrow", f"dim {d} start {s} length {n}", lambda t: t.narrow(d, s, n))
    def expand(self, v, sizes): return self.view(v, "expand", f"[{dv.ints(sizes)}]", lambda t: t.expand(sizes))
    def unsqueeze(self, v, d): return self.view(v, "unsqueeze", f"dim {d}", lambda t: t.unsqueeze(d))
    def flip(self, v, dims): return self.view(v, "flip", f"[{dv.ints(dims)}]", lambda t: torch.flip(t, dims))
    def diagonal(self, v, o, a, b): return self.view(v, "diagonal", f"offset {o} dims {a}, {b}", lambda t: t.diagonal(o, a, b))
    def unflatten(self, v, d, s): return self.view(v, "unflatten", f"dim {d} [{dv.ints(s)}]", lambda t: t.unflatten(d, s))
    def reshape(self, v, s): return self.view(v, "reshape", f"[{dv.ints(s)}]", lambda t: t.reshape(s))
    def viewop(self, v, s): return self.view(v, "view", f"[{dv.ints(s)}]", lambda t: t.view(s))
    def flatten(self, v, a, b): return self.view(v, "flatten", f"dims {a} to {b}", lambda t: t.flatten(a, b))
    def contiguous(self, v, fmt=""):
        mf = torch.channels_last if fmt else torch.contiguous_format
        return self.view(v, "contiguous", fmt, lambda t: t.contiguous(memory_format=mf))

    def slice(self, v, d, start=None, end=None, step=None):
        op = dv.Slice(d, start, end, step)
        return self.view(v, "slice", op.syntax(), op.torch)

    def split(self, v, d, sizes, pick):
        names = self.op(f"layout.split {{0}} dim {d} [{dv.ints(sizes)}]", [v],
                        lambda t: t.split_with_sizes(sizes, d), results=len(sizes), pick=pick)
        return names[pick]

    def clone(self, v, fmt="contiguous"):
        mf = {"contiguous": torch.contiguous_format, "channels_last": torch.channels_last,
              "preserve": torch.preserve_format}[fmt]
        return self.view(v, "clone", fmt, lambda t: t.clone(memory_format=mf))

    def to(self, v, dt):
        d = DTYPES[dt]
        return self.view(v, "to", dt, lambda t: t.to(d.torch))

    def reduce(self, v, kind, dims, keepdim=False):
        """layout.reduce: PyTorch's result, or its error (an empty reduced
        dim of amax/amin/argmax/argmin); reference() adds reduce_oracle's
        tolerance for float sum/mean/prod."""
        dims = list(dims)
        text = f"layout.reduce {kind} {{0}} dims [{dv.ints(dims)}]" + (" keepdim" if keepdim else "")
        return self.op(text, [v], lambda t: torch_reduce(t, kind, dims, keepdim), reduce=(kind, dims, keepdim))

    def copy(self, src, dst):
        self.ops.append(OpRec([], "layout.copy {0}, {1}", [src, dst], None))
        for a in self.args:
            if dst == "%" + a.name or self.root(dst) == a.name:
                a.written = True

    def root(self, v):
        """The argument a value views (through ops), for copy destinations."""
        for op in self.ops:
            if v in op.results:
                return self.root(op.operands[0])
        return v[1:]

    def ret(self, *vals):
        self.rets = list(vals)

    # -- text -------------------------------------------------------------------
    def known(self, op):
        return all(o in self.types for o in op.operands)

    def resolved(self, op):
        return all(r in self.types for r in op.results)

    def op_line(self, op):
        if not op.results:
            lhs = ""
        elif len(op.results) == 1:
            lhs = f"{op.results[0]} = "
        else:
            lhs = f"{op.results[0].split('#')[0]}:{len(op.results)} = "
        return f"  {lhs}{op.text.format(*op.operands)} : {', '.join(self.types[o] for o in op.operands)}"

    def text(self, upto=None, with_return=True) -> List[str]:
        ops = self.ops if upto is None else self.ops[:upto]
        types = [self.types[r] for r in self.rets] if with_return else []
        sig = "" if not types else f" -> {types[0]}" if len(types) == 1 else f" -> ({', '.join(types)})"
        args = ", ".join(f"%{a.name}: {a.type()}" for a in self.args)
        lines = [f"func.func @{self.name}({args}){sig} {{"] + [self.op_line(op) for op in ops]
        lines.append(f"  return {', '.join(self.rets)} : {', '.join(types)}" if types else "  return")
        return lines + ["}"]

    # -- PyTorch ----------------------------------------------------------------
    def reference(self, inputs: Dict[str, torch.Tensor]):
        """The results (arguments written in place in `inputs`), or raises
        what PyTorch raises.  Sets self.checks: per result, reduce_oracle's
        (ref, tol) of a float sum/mean/prod, else None (bit-exact)."""
        env = {"%" + k: v for k, v in inputs.items()}
        checks = {}
        for op in self.ops:
            vals = [env[o] for o in op.operands]
            if op.fn is None:
                vals[1].copy_(vals[0])
                continue
            out = op.fn(*vals)
            if op.reduce:
                checks[op.results[0]] = oracle_check(vals[0], out, *op.reduce)
            if len(op.results) == 1:
                env[op.results[0]] = out
            else:
                if len(out) != len(op.results):
                    raise RuntimeError("split: wrong number of parts")
                for r, t in zip(op.results, out):
                    env[r] = t
        self.checks = [checks.get(r) for r in self.rets]
        return [env[r] for r in self.rets]


# ---------------------------------------------------------------------------
# layoutc.
# ---------------------------------------------------------------------------

def run_layoutc(layoutc, lines, path, flags, timeout=600):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return subprocess.run([layoutc, path] + flags, capture_output=True, text=True, timeout=timeout)


def compile_groups(layoutc, progs, workdir, tag, flags, text_of, jobs):
    """Compile progs in one module per group; a function layoutc names in
    its first error leaves the group (returned in `errors` with the
    message); the rest is compiled again.  Returns ([(group, proc, path)], errors)."""
    done, errors = [], []
    pending = [list(progs)]
    attempt = [0]

    def one(group):
        attempt[0] += 1
        lines, owner = [], []
        for p in group:
            for line in text_of(p):
                lines.append(line)
                owner.append(p)
        path = os.path.join(workdir, f"{tag}-{attempt[0]}.mlir")
        return group, owner, path, run_layoutc(layoutc, lines, path, flags(path))

    while pending:
        batch, pending = pending, []
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            outs = list(pool.map(one, [g for g in batch if g]))
        for group, owner, path, proc in outs:
            if proc.returncode == 0:
                done.append((group, proc, path))
                continue
            m = DIAGNOSTIC.search(proc.stderr)
            if proc.returncode < 0 or not m or not 1 <= int(m["line"]) <= len(owner):
                if len(group) == 1:
                    errors.append((group[0], f"layoutc exited with {proc.returncode}: {proc.stderr.strip()[:1500]}"))
                else:
                    pending += [group[:len(group) // 2], group[len(group) // 2:]]
                continue
            bad = owner[int(m["line"]) - 1]
            errors.append((bad, m["msg"]))
            pending.append([p for p in group if p is not bad])
    return done, errors


split_functions = dv.split_functions


def crashed(msg: str) -> bool:
    """layoutc died of a signal: a failure, for random chains too."""
    return msg.startswith("layoutc exited with -")


def resolve_types(args, progs: List[Prog], workdir):
    """Level by level until every op of every program has its result types."""
    level = 0
    while True:
        active = []
        for p in progs:
            if p.status != "building":
                continue
            # Random chains draw their next op once every type is known.
            while p.generator and all(p.resolved(op) for op in p.ops):
                if not p.generator(p):
                    break
            if all(p.resolved(op) for op in p.ops):
                p.status = "built"
                continue
            active.append(p)
        if not active:
            return
        upto = {}
        for p in active:
            k = 0
            while k < len(p.ops) and p.known(p.ops[k]):
                k += 1
            upto[p.name] = k
        chunks = [active[i:i + args.batch] for i in range(0, len(active), args.batch)]
        done, errors = [], []
        for ci, chunk in enumerate(chunks):
            d, e = compile_groups(args.layoutc, chunk, workdir, f"types{level}-{ci}",
                                  lambda path: ["--no-opt", "--emit=mlir"],
                                  lambda p: p.text(upto[p.name], with_return=False), args.jobs)
            done += d
            errors += e
        for p, msg in errors:
            p.status = "failed" if crashed(msg) else "rejected"
            p.error = msg
        for group, proc, _ in done:
            funcs = split_functions(proc.stdout)
            for p in group:
                body = [l for l in funcs.get(p.name, []) if "layout." in l and "=" in l.split("layout.")[0]
                        or l.strip().startswith("layout.")]
                ops = p.ops[:upto[p.name]]
                if len(body) != len(ops):
                    p.status = "failed"
                    p.error = f"printed {len(body)} ops, expected {len(ops)}"
                    continue
                for op, line in zip(ops, body):
                    if not op.results:
                        continue
                    types = TENSOR_TYPE.findall(line.rsplit(" -> ", 1)[1])
                    for r, t in zip(op.results, types):
                        p.types[r] = t
        level += 1
        if level > 40:
            for p in active:
                p.status, p.error = "failed", "types did not resolve"
            return


# ---------------------------------------------------------------------------
# DLPack through ctypes.
# ---------------------------------------------------------------------------

class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


MAX_NDIM = 64  # LRT_MAX_NDIM


class LrtLayout(ctypes.Structure):
    """layout_rt's lrt_layout_t (<function>_layouts)."""
    _fields_ = [("ndim", ctypes.c_int32), ("has_output", ctypes.c_int32), ("view_of", ctypes.c_int32),
                ("reserved", ctypes.c_int32), ("offset", ctypes.c_int64),
                ("sizes", ctypes.c_int64 * MAX_NDIM), ("strides", ctypes.c_int64 * MAX_NDIM),
                ("output_strides", ctypes.c_int64 * MAX_NDIM)]


def strided_view(b, sizes, strides, offset) -> torch.Tensor:
    """The view of Buffer b's storage with these sizes and strides (negative
    ones too) whose first element is `offset` elements from b's (at
    byte_offset, for an argument of dynamic offset)."""
    if math.prod(sizes) == 0:
        return torch.empty(sizes, dtype=b.dt.torch)
    offset += b.dl.byte_offset // b.dt.size
    flipped = [d for d, st in enumerate(strides) if st < 0]
    for d in flipped:
        offset += (sizes[d] - 1) * strides[d]
    pos = [abs(st) for st in strides]
    flat = b.raw.view(b.dt.torch)
    v = flat.as_strided(tuple(sizes), tuple(pos), GUARD // b.dt.size + offset)
    return v.flip(flipped) if flipped else v


class ExecOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("num_threads", ctypes.c_int32)]


def extent(sizes, strides) -> int:
    if math.prod(sizes) == 0:
        return 0
    return 1 + sum((s - 1) * st for s, st in zip(sizes, strides))


class Buffer:
    """A tensor's storage with GUARD bytes either side, and its DLTensor."""

    def __init__(self, dt: DType, sizes, strides=None, null_strides=False, host=None):
        self.dt = dt
        # --target cuda: None (the call mirrors the buffer into device
        # memory), or the DLPack device type of a tensor whose data stays in
        # host memory (bad calls).
        self.host = host
        self.sizes = tuple(sizes)
        self.strides = tuple(strides) if strides is not None else row_major(sizes)
        self.n = extent(self.sizes, self.strides)
        self.nbytes = self.n * dt.size
        self.raw = torch.full((self.nbytes + 2 * GUARD,), GUARD_FILL, dtype=torch.uint8)
        self.storage = self.raw[GUARD:GUARD + self.nbytes]
        self.shape_arr = (ctypes.c_int64 * max(len(sizes), 1))(*self.sizes)
        self.stride_arr = (ctypes.c_int64 * max(len(sizes), 1))(*self.strides)
        self.dl = DLTensor()
        self.dl.data = self.raw.data_ptr() + GUARD
        self.dl.device = DLDevice(1, 0)
        self.dl.ndim = len(self.sizes)
        self.dl.dtype = DLDataType(dt.code, dt.bits, 1)
        self.dl.shape = self.shape_arr
        self.dl.strides = None if null_strides else self.stride_arr
        self.dl.byte_offset = 0

    def typed(self) -> torch.Tensor:
        """The logical tensor over the buffer."""
        if self.n == 0:
            return torch.empty(self.sizes, dtype=self.dt.torch)
        flat = self.storage.view(self.dt.torch)
        return flat.as_strided(self.sizes, self.strides, GUARD // self.dt.size)

    def fill(self, t: torch.Tensor):
        if self.n:
            self.typed().copy_(t)

    def fill_sentinel(self):
        self.storage.fill_(SENTINEL)

    def guards_ok(self) -> bool:
        return bool((self.raw[:GUARD] == GUARD_FILL).all() and (self.raw[GUARD + self.nbytes:] == GUARD_FILL).all())

    def snapshot(self) -> torch.Tensor:
        return self.raw.clone()


def bits_of(t: torch.Tensor) -> torch.Tensor:
    t = t.contiguous()
    if t.dtype == torch.bool:
        return t.view(torch.uint8)
    if t.dtype.is_floating_point:
        return t.view({2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()])
    return t


def view_in(arg: torch.Tensor, want: torch.Tensor, strides) -> bool:
    """Whether a view of `arg`'s row-major buffer with `want`'s sizes, these
    strides and some offset holds `want`'s values, bit for bit."""
    if want.numel() == 0:
        return True
    flat = bits_of(arg.contiguous().view(-1))
    target = bits_of(want)
    span = sum((n - 1) * abs(st) for n, st in zip(want.shape, strides))
    for o in (flat == target.reshape(-1)[0]).nonzero().flatten().tolist():
        if o + span < flat.numel() and torch.equal(
                torch.as_strided(flat, tuple(want.shape), tuple(strides), o), target):
            return True
    return False


def first_mismatch(got: torch.Tensor, want: torch.Tensor) -> Optional[str]:
    """None when equal bit for bit (NaNs: NaN on both sides); else a description."""
    if tuple(got.shape) != tuple(want.shape):
        return f"shape {tuple(got.shape)} != {tuple(want.shape)}"
    if got.numel() == 0:
        return None
    same = bits_of(got) == bits_of(want)
    if want.dtype.is_floating_point:
        same = same | (torch.isnan(got) & torch.isnan(want))
    if bool(same.all()):
        return None
    idx = tuple(int(i) for i in (~same).nonzero()[0])
    n = int((~same).sum())
    return f"{n} of {got.numel()} elements differ, first at {list(idx)}: got {got[idx].item()!r}, expected {want[idx].item()!r}"


class Library:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.lib.lrt_status_message.restype = ctypes.c_char_p
        self.lib.lrt_status_message.argtypes = [ctypes.c_void_p]
        self.lib.lrt_status_free.argtypes = [ctypes.c_void_p]
        self.lib.lrt_status_free.restype = None

    def entry(self, name, nparams):
        f = getattr(self.lib, name)
        f.restype = ctypes.c_void_p
        f.argtypes = [ctypes.c_void_p] * (nparams + 1)
        return f

    def call(self, f, bufs: List[Buffer], options, reports=(), sizes=None) -> Optional[str]:
        """The DLPack entry point f on the buffers' DLTensors or, with
        `sizes`, a raw one (CudaLibrary) on their data pointers and these
        dynamic sizes.  `reports`: per `<result>_view` parameter, a
        ctypes.c_int32 or None (NULL)."""
        if sizes is None:
            ptrs = [ctypes.cast(ctypes.pointer(b.dl), ctypes.c_void_p) for b in bufs]
        else:
            ptrs = [b.dl.data for b in bufs] + list(sizes)
        ptrs += [None if r is None else ctypes.cast(ctypes.pointer(r), ctypes.c_void_p) for r in reports]
        opt = None if options is None else ctypes.cast(ctypes.pointer(options), ctypes.c_void_p)
        st = f(*ptrs, opt)
        if not st:
            return None
        msg = self.lib.lrt_status_message(st).decode()
        self.lib.lrt_status_free(st)
        return msg


KDL_CPU, KDL_CUDA = 1, 2


class ExecDevice(ctypes.Structure):
    """driver.h's exec_device_t: device_cuda.cpp's hooks, linked into every
    CUDA library (the emulation's allocation table is the library's own)."""
    _fields_ = [("device_type", ctypes.c_int),
                ("alloc", ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_size_t)),
                ("release", ctypes.CFUNCTYPE(None, ctypes.c_void_p)),
                ("to_device", ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)),
                ("to_host", ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)),
                ("sync", ctypes.CFUNCTYPE(None))]


class CudaLibrary(Library):
    """The CUDA launchers built as host C++ against the emulation: each call
    mirrors every buffer (guard bytes included) into device memory, passes
    kDLCUDA tensors over it and the default stream, synchronizes and copies
    every buffer back, so the host-side checks see device memory."""

    def __init__(self, path):
        super().__init__(path)
        self.device = ctypes.POINTER(ExecDevice).in_dll(self.lib, "exec_device").contents

    def raw_entry(self, name, npointers, nsizes, nreports):
        f = getattr(self.lib, name)
        f.restype = ctypes.c_void_p
        f.argtypes = [ctypes.c_void_p] * npointers + [ctypes.c_int64] * nsizes + [ctypes.c_void_p] * (nreports + 1)
        return f

    def call(self, f, bufs: List[Buffer], options, reports=(), sizes=None) -> Optional[str]:
        mirrors = []
        for b in bufs:
            if b.host is not None:
                b.dl.device = DLDevice(b.host, 0)
                continue
            n = b.raw.numel()
            d = self.device.alloc(n)
            self.device.to_device(d, b.raw.data_ptr(), n)
            mirrors.append((b, d, n))
            b.dl.data = d + GUARD
            b.dl.device = DLDevice(KDL_CUDA, 0)
        try:
            return super().call(f, bufs, None, reports, sizes)
        finally:
            self.device.sync()
            for b, d, n in mirrors:
                self.device.to_host(b.raw.data_ptr(), d, n)
                self.device.release(d)
                b.dl.data = b.raw.data_ptr() + GUARD


# ---------------------------------------------------------------------------
# Hand-written programs.
# ---------------------------------------------------------------------------

def permute_prog(name, dt, dims, perm):
    p = Prog(name)
    v = p.permute(p.arg("x", dt, dims, kind="special" if DTYPES[dt].is_float else "any"), perm)
    p.ret(p.clone(v) if len(perm) % 2 else p.contiguous(v))
    return p


def shapes_of(*shapes):
    return [{"x": list(s)} for s in shapes]


def bench_programs() -> List[Prog]:
    progs = []

    def add(p, shapes):
        p.shapes = shapes_of(*shapes)
        progs.append(p)
        return p

    q4 = [None] * 4
    add(permute_prog("P1", "f32", [None, None], [1, 0]),
        [[256, 256], [0, 5], [1, 129], [17, 1], [63, 33], [300, 301]])
    add(permute_prog("P2", "f32", q4, [0, 2, 3, 1]),
        [[1, 64, 32, 32], [2, 0, 3, 3], [1, 1, 1, 1], [3, 17, 5, 33], [1, 63, 1, 129], [2, 33, 40, 41]])
    add(permute_prog("P3", "f32", q4, [0, 3, 1, 2]),
        [[1, 32, 32, 64], [0, 3, 3, 3], [1, 1, 1, 17], [2, 5, 33, 17], [2, 40, 41, 33]])
    add(permute_prog("P4", "f32", [None] * 3, [2, 1, 0]),
        [[40, 40, 40], [0, 4, 4], [1, 1, 129], [17, 33, 7], [45, 47, 49]])
    add(permute_prog("P5", "f32", [None] * 3, [0, 2, 1]),
        [[4, 128, 128], [3, 0, 5], [1, 1, 1], [3, 17, 33], [5, 129, 127]])
    add(permute_prog("P6", "f32", [None] * 3, [1, 0, 2]),
        [[32, 16, 128], [4, 4, 0], [1, 17, 1], [17, 33, 63], [33, 17, 129]])
    # [33, 29, 31, 27] (6 MiB of traffic, beyond L2, rows not whole lines):
    # the run-time tiles with the loop continuing the source rows inside
    # each b-block (rtBlocks).
    add(permute_prog("P7", "f32", q4, [3, 2, 1, 0]),
        [[16, 16, 16, 16], [3, 0, 2, 2], [1, 1, 1, 1], [3, 17, 5, 7], [17, 19, 21, 23],
         [33, 29, 31, 27]])
    add(permute_prog("P8", "f32", [None] * 5, [4, 2, 0, 3, 1]),
        [[8, 8, 8, 8, 16], [2, 2, 0, 2, 2], [1, 1, 1, 1, 1], [3, 5, 1, 17, 7], [9, 7, 9, 11, 13]])
    add(permute_prog("P9", "f32", [None] * 6, [5, 3, 1, 0, 2, 4]),
        [[8, 8, 8, 4, 4, 8], [2, 2, 2, 0, 2, 2], [1, 1, 1, 1, 1, 1], [3, 1, 5, 7, 2, 17], [7, 5, 9, 7, 5, 9]])
    add(permute_prog("P10", "f16", [None, None], [1, 0]),
        [[512, 256], [0, 0], [1, 33], [63, 129], [401, 450]])
    add(permute_prog("P11", "i8", [None, 3, None, None], [0, 2, 3, 1]),
        [[1, 3, 296, 296], [0, 3, 5, 5], [1, 3, 1, 1], [2, 3, 17, 33], [1, 3, 333, 335]])
    # NCHW -> NHWC with every size dynamic (the interleaves for 2, 3 and 4
    # channels chosen at run time, else the general tiles), and with a
    # static channel count: only that interleave (2 to 4), or none (5).
    add(permute_prog("P11_all_dynamic", "i8", q4, [0, 2, 3, 1]),
        [[1, 3, 33, 35], [2, 4, 17, 9], [1, 2, 5, 129], [2, 17, 9, 9], [0, 3, 4, 4], [1, 1, 3, 3]])
    add(permute_prog("P11_c4_f32", "f32", [None, 4, None, None], [0, 2, 3, 1]),
        [[2, 4, 17, 33], [1, 4, 1, 1], [0, 4, 3, 3], [3, 4, 40, 41]])
    add(permute_prog("P11_c2_f16", "f16", [None, 2, None, None], [0, 2, 3, 1]),
        [[2, 2, 17, 33], [1, 2, 1, 1], [0, 2, 3, 3], [3, 2, 40, 41]])
    add(permute_prog("P11_c5", "i8", [None, 5, None, None], [0, 2, 3, 1]),
        [[2, 5, 17, 33], [1, 5, 1, 1], [0, 5, 2, 2], [3, 5, 40, 41]])
    # C1 (NCHW -> NHWC converted to f16): a new tensor that is not a result
    # (to + contiguous) is not supported by dynamic code generation, so the
    # converting transpose is a layout.copy into an f16 argument, and `to` of
    # the permuted view (preserve: a converted dense copy in the permuted
    # order) runs too.
    p = Prog("C1_copy")
    x = p.arg("x", "f32", q4)
    p.copy(p.permute(x, [0, 2, 3, 1]), p.arg("y", "f16", q4))
    nchw = [[1, 64, 32, 32], [1, 0, 3, 3], [1, 1, 1, 1], [2, 17, 33, 5], [2, 33, 40, 41]]
    p.shapes = [{"x": s, "y": [s[0], s[2], s[3], s[1]]} for s in nchw]
    progs.append(p)
    p = Prog("C1_to_preserve")
    p.ret(p.to(p.permute(p.arg("x", "f32", q4), [0, 2, 3, 1]), "f16"))
    add(p, nchw)
    p = Prog("G1")
    p.ret(p.clone(p.slice(p.arg("x", "f32", [None, None]), 1, None, None, 2)))
    add(p, [[256, 512], [0, 7], [5, 1], [1, 0], [17, 33], [63, 129], [300, 601]])
    p = Prog("G1_contiguous")
    p.ret(p.contiguous(p.slice(p.arg("x", "f32", [None, None]), 1, None, None, 2)))
    add(p, [[256, 512], [3, 1], [1, 2], [0, 4], [33, 17], [300, 601]])
    p = Prog("G2")
    p.ret(p.contiguous(p.expand(p.arg("x", "f32", [1, None]), [256, -1])))
    add(p, [[1, 256], [1, 0], [1, 1], [1, 129], [1, 300]])
    p = Prog("G2_dynamic_rows")    # x[0] must be 1 or 256: a run-time check
    p.ret(p.contiguous(p.expand(p.arg("x", "f32", [None, None]), [256, -1])))
    add(p, [[1, 256], [1, 0], [1, 1], [1, 129], [256, 17], [1, 300]])
    p = Prog("G2_unsqueeze")
    p.ret(p.clone(p.expand(p.unsqueeze(p.arg("x", "f32", [None]), 0), [45, -1])))
    add(p, [[45], [0], [1], [17], [2049]])
    return progs


def dtype_programs() -> List[Prog]:
    progs = []
    names = list(DTYPES)
    for dt in names:
        # Copies: transposed, stepped slice (clone), flip, NCHW -> NHWC.
        p = Prog(f"copyT_{dt}")
        p.ret(p.contiguous(p.transpose(p.arg("x", dt, [None, None], kind="special"), 0, 1)))
        p.shapes = shapes_of([13, 19], [0, 3], [1, 1], [33, 17], [129, 63])
        progs.append(p)
        p = Prog(f"clone_sliced_{dt}")
        x = p.arg("x", dt, [None, None, None], kind="special")
        p.ret(p.clone(p.slice(p.slice(x, 2, 1, None, 3), 0, None, None, 2)))
        p.shapes = shapes_of([5, 9, 11], [0, 2, 2], [1, 1, 1], [17, 3, 33], [7, 5, 129])
        progs.append(p)
        p = Prog(f"flip_{dt}")
        x = p.arg("x", dt, [None, None], kind="special")
        p.ret(p.contiguous(p.flip(x, [0, 1])))
        p.shapes = shapes_of([7, 9], [0, 4], [1, 1], [17, 33])
        progs.append(p)
        p = Prog(f"nhwc_{dt}")
        x = p.arg("x", dt, [None] * 4, kind="special")
        p.ret(p.clone(p.permute(x, [0, 2, 3, 1]), "contiguous"))
        p.shapes = shapes_of([2, 3, 5, 7], [1, 0, 2, 2], [1, 1, 1, 1], [1, 17, 3, 33])
        progs.append(p)
    # Every conversion, through a permuted view (to, then contiguous), and
    # to of a row-major argument (no view: a plain conversion).
    for i, src in enumerate(names):
        for j, dst in enumerate(names):
            if src == dst:
                continue
            # to of a permuted view (preserve), and a converting 1-D copy
            # of a stepped slice into an argument.
            p = Prog(f"conv_{src}_{dst}")
            x = p.arg("x", src, [None, None, None], kind=data_kind(src, dst))
            p.ret(p.to(p.permute(x, [2, 0, 1]), dst))
            p.shapes = shapes_of([3, 5, 7], [0, 3, 3], [1, 1, 1], [2, 17, 33])
            progs.append(p)
            p = Prog(f"copyconv_{src}_{dst}")
            x = p.arg("x", src, [None], kind=data_kind(src, dst))
            p.copy(p.slice(x, 0, 1, None, 2), p.arg("y", dst, [None]))
            p.shapes = [{"x": [n], "y": [n // 2]} for n in (9, 0, 1, 2, 66)]
            progs.append(p)
        dst = names[(i + 3) % len(names)]
        p = Prog(f"to_rowmajor_{src}_{dst}")
        p.ret(p.to(p.arg("x", src, [None, None], kind=data_kind(src, dst)), dst))
        p.shapes = shapes_of([7, 9], [0, 5], [1, 1], [33, 63], [129, 17])
        progs.append(p)
    # preserve of a permuted argument keeps the permuted (dense) strides.
    p = Prog("to_preserve_perm")
    p.ret(p.to(p.permute(p.arg("x", "f32", [None] * 4), [0, 3, 1, 2]), "f16"))
    p.shapes = shapes_of([2, 3, 4, 5], [0, 1, 2, 3], [1, 1, 1, 1], [1, 17, 3, 33])
    progs.append(p)
    p = Prog("clone_preserve_perm")
    p.ret(p.clone(p.permute(p.arg("x", "i16", [None] * 3), [2, 0, 1]), "preserve"))
    p.shapes = shapes_of([2, 3, 4], [0, 1, 2], [1, 1, 1], [17, 3, 33])
    progs.append(p)
    # preserve of a view dense for some sizes only: PyTorch's rule at run
    # time (the operand's strides where it is dense, else dense strides in
    # its stride order), at sizes where it is dense and where it is not.
    p = Prog("clone_preserve_slice")
    p.ret(p.clone(p.slice(p.arg("x", "f32", [None] * 2), 1, 0, 5), "preserve"))
    p.shapes = shapes_of([3, 9], [3, 5], [0, 7], [1, 33], [17, 1], [4, 3])
    progs.append(p)
    p = Prog("to_preserve_step_slice")
    p.ret(p.to(p.transpose(p.slice(p.arg("x", "i16", [None] * 3), 2, None, None, 2), 0, 1), "f32"))
    p.shapes = shapes_of([2, 3, 8], [2, 3, 1], [0, 4, 4], [1, 1, 33], [17, 3, 2])
    progs.append(p)
    p = Prog("clone_preserve_expand")
    p.ret(p.clone(p.expand(p.unsqueeze(p.slice(p.arg("x", "i8", [None] * 2), 0, 1), 1), [-1, 3, -1]),
                  "preserve"))
    p.shapes = shapes_of([4, 5], [2, 1], [1, 6], [0, 3], [18, 33])
    progs.append(p)
    p = Prog("clone_channels_last")
    p.ret(p.clone(p.arg("x", "f32", [None] * 4), "channels_last"))
    p.shapes = shapes_of([2, 3, 4, 5], [0, 1, 2, 3], [1, 1, 1, 1], [1, 17, 3, 33], [2, 1, 5, 7])
    progs.append(p)
    p = Prog("contiguous_channels_last")
    p.ret(p.contiguous(p.permute(p.arg("x", "bf16", [None] * 4), [0, 2, 1, 3]), "channels_last"))
    p.shapes = shapes_of([2, 3, 4, 5], [0, 1, 2, 3], [1, 1, 1, 1], [1, 17, 3, 33])
    progs.append(p)
    # Two results, one a view and one new.
    p = Prog("two_results")
    x = p.arg("x", "f32", [None, None])
    t = p.transpose(x, 0, 1)
    p.ret(p.contiguous(t), p.to(t, "f64"))
    p.shapes = shapes_of([5, 7], [0, 2], [1, 1], [17, 33])
    progs.append(p)
    # Intermediate new tensors (scratch of run-time size): a copy read by
    # two conversions, by a reduction, and by another copy.
    p = Prog("scratch_two_readers")
    c = p.clone(p.transpose(p.arg("x", "f32", [None, None]), 0, 1))
    p.ret(p.to(c, "f16"), p.to(c, "f64"))
    p.shapes = shapes_of([5, 7], [0, 2], [1, 1], [17, 33], [129, 257])
    progs.append(p)
    p = Prog("scratch_reduced")
    c = p.contiguous(p.permute(p.arg("x", "bf16", [None, None, None]), [2, 0, 1]))
    p.ret(p.reduce(p.to(c, "f32"), "sum", [2]), p.reduce(c, "amax", [0, 1]))
    p.shapes = shapes_of([2, 3, 4], [1, 5, 7], [3, 1, 9], [9, 17, 33])
    progs.append(p)
    p = Prog("scratch_copied")
    x = p.arg("x", "i16", [None, None, None])
    c = p.clone(p.flip(x, [1]))
    p.ret(p.contiguous(p.permute(c, [2, 1, 0])), p.reduce(c, "sum", []))
    p.shapes = shapes_of([2, 3, 4], [0, 3, 4], [1, 1, 1], [5, 33, 17])
    progs.append(p)
    return progs


def view_ops_programs() -> List[Prog]:
    """Copies of the other view ops, with PyTorch's run-time checks."""
    progs = []

    def add(p, shapes, bad=()):
        p.shapes = shapes_of(*shapes)
        p.bad = [{"shape": {"x": list(s)}, "why": "pytorch"} for s in bad]
        progs.append(p)

    p = Prog("select_copy")
    p.ret(p.contiguous(p.select(p.arg("x", "f32", [None, None, None]), 1, 3)))
    add(p, [[2, 4, 5], [0, 4, 0], [1, 17, 1], [3, 33, 17]], bad=[[2, 3, 5], [0, 0, 0], [4, 1, 4]])
    p = Prog("select_neg")
    p.ret(p.clone(p.select(p.arg("x", "i32", [None, None]), 0, -2)))
    add(p, [[2, 4], [2, 0], [17, 33]], bad=[[1, 4], [0, 3]])
    p = Prog("narrow_copy")
    p.ret(p.contiguous(p.narrow(p.arg("x", "f16", [None, None]), 1, 2, 3)))
    add(p, [[4, 5], [0, 5], [1, 17], [33, 63]], bad=[[4, 4], [3, 1], [2, 0]])
    p = Prog("narrow_neg_start")
    p.ret(p.contiguous(p.narrow(p.arg("x", "ui8", [None, None]), 0, -3, 2)))
    add(p, [[3, 5], [4, 0], [17, 1], [33, 17]], bad=[[2, 5]])
    p = Prog("expand_copy")
    p.ret(p.contiguous(p.expand(p.arg("x", "i64", [None, None]), [3, 7, -1])))
    add(p, [[1, 5], [7, 0], [1, 1], [7, 17], [1, 33]], bad=[[2, 5], [8, 3]])
    p = Prog("view_copy")
    p.ret(p.contiguous(p.transpose(p.viewop(p.arg("x", "f32", [None, None]), [2, -1]), 0, 1)))
    add(p, [[2, 5], [4, 3], [0, 3], [1, 2], [6, 17]], bad=[[1, 5], [3, 3]])
    p = Prog("reshape_copy")
    p.ret(p.contiguous(p.permute(p.reshape(p.arg("x", "i16", [None, None, None]), [-1, 3, 2]), [2, 1, 0])))
    add(p, [[2, 3, 2], [0, 3, 4], [1, 1, 6], [5, 17, 6]], bad=[[1, 1, 5], [2, 2, 2]])
    p = Prog("flatten_copy")
    p.ret(p.contiguous(p.transpose(p.flatten(p.arg("x", "f64", [None, None, None]), 1, 2), 0, 1)))
    add(p, [[2, 3, 5], [0, 3, 3], [1, 1, 1], [3, 17, 7]])
    p = Prog("unflatten_copy")
    p.ret(p.contiguous(p.transpose(p.unflatten(p.arg("x", "f32", [None, None]), 1, [-1, 4]), 1, 2)))
    add(p, [[3, 8], [2, 0], [1, 4], [5, 68]], bad=[[3, 6], [2, 1]])
    p = Prog("diagonal_copy")
    p.ret(p.contiguous(p.diagonal(p.arg("x", "f32", [None, None, None]), 1, 0, 2)))
    add(p, [[4, 3, 5], [0, 2, 2], [1, 1, 1], [17, 2, 33], [5, 3, 1]])
    # Variants whose checks the planner's representative sizes pass.
    p = Prog("expand_lead_copy")
    p.ret(p.contiguous(p.expand(p.arg("x", "i64", [None, None]), [3, -1, -1])))
    add(p, [[1, 5], [7, 0], [1, 1], [7, 17], [2, 33]])
    p = Prog("view_static_copy")
    p.ret(p.contiguous(p.transpose(p.viewop(p.arg("x", "f32", [None, 6]), [-1, 3]), 0, 1)))
    add(p, [[2, 6], [0, 6], [1, 6], [17, 6]])
    p = Prog("unflatten_static_copy")
    p.ret(p.contiguous(p.transpose(p.unflatten(p.arg("x", "f32", [None, 8]), 1, [-1, 4]), 1, 2)))
    add(p, [[3, 8], [0, 8], [1, 8], [33, 8]])
    p = Prog("split_static_copy")
    p.ret(p.contiguous(p.transpose(p.split(p.arg("x", "f32", [None, 5]), 1, [2, 3], 1), 0, 1)))
    add(p, [[4, 5], [0, 5], [1, 5], [17, 5]])
    p = Prog("flatten_view_copy")
    p.ret(p.contiguous(p.flip(p.viewop(p.arg("x", "i32", [None, None]), [-1]), [0])))
    add(p, [[3, 5], [0, 4], [1, 1], [17, 33]])
    p = Prog("split_copy")
    p.ret(p.contiguous(p.transpose(p.split(p.arg("x", "f32", [None, None]), 1, [2, 3], 1), 0, 1)))
    add(p, [[4, 5], [0, 5], [1, 5], [17, 5]], bad=[[4, 4], [2, 6], [1, 0]])
    p = Prog("slice_neg_step_flip")
    x = p.arg("x", "i8", [None, None, None])
    p.ret(p.contiguous(p.flip(p.slice(x, 2, -5, None, 2), [0, 2])))
    add(p, [[3, 4, 9], [0, 2, 2], [1, 1, 1], [5, 3, 33], [2, 17, 3]])
    p = Prog("slice_clamped_copy")   # x[:, :100]: contiguous for x[1] <= 100 only
    p.ret(p.clone(p.slice(p.arg("x", "f32", [None, None]), 1, None, 100)))
    add(p, [[3, 41], [2, 150], [0, 5], [1, 1], [17, 100], [5, 101]])
    p = Prog("narrow_empty_copy")   # no elements for every size
    p.ret(p.contiguous(p.transpose(p.narrow(p.arg("x", "f32", [None, None]), 1, 1, 0), 0, 1)))
    add(p, [[3, 4], [0, 2], [1, 1], [17, 33]], bad=[[3, 0]])
    p = Prog("unsqueeze_expand_chain")
    x = p.arg("x", "bf16", [None, None])
    v = p.expand(p.unsqueeze(p.transpose(x, 0, 1), 1), [-1, 4, -1])
    p.ret(p.contiguous(v))
    add(p, [[3, 5], [0, 2], [1, 1], [33, 17]])
    return progs


def copy_programs() -> List[Prog]:
    """layout.copy into an argument (it is written): plain, converting,
    broadcast, into a view (slice / transpose) of the argument."""
    progs = []

    def add(p, shapes, bad=()):
        p.shapes = shapes
        p.bad = [{"shape": s, "why": "pytorch"} for s in bad]
        progs.append(p)

    p = Prog("copy_T")
    x = p.arg("x", "f32", [None, None])
    y = p.arg("y", "f32", [None, None])
    p.copy(p.transpose(x, 0, 1), y)
    add(p, [{"x": [5, 7], "y": [7, 5]}, {"x": [0, 3], "y": [3, 0]}, {"x": [1, 1], "y": [1, 1]},
            {"x": [17, 33], "y": [33, 17]}],
        bad=[{"x": [5, 7], "y": [5, 7]}, {"x": [2, 3], "y": [3, 3]}])
    p = Prog("copy_convert")
    x = p.arg("x", "f32", [None, None, None], kind=data_kind("f32", "bf16"))
    y = p.arg("y", "bf16", [None, None, None])
    p.copy(p.permute(x, [0, 2, 1]), y)
    add(p, [{"x": [2, 3, 4], "y": [2, 4, 3]}, {"x": [0, 3, 4], "y": [0, 4, 3]}, {"x": [1, 1, 1], "y": [1, 1, 1]},
            {"x": [3, 17, 33], "y": [3, 33, 17]}],
        bad=[{"x": [2, 3, 4], "y": [2, 3, 4]}])
    p = Prog("copy_broadcast_row")
    x = p.arg("x", "i32", [None])
    y = p.arg("y", "i32", [None, None])
    p.copy(x, y)
    add(p, [{"x": [5], "y": [3, 5]}, {"x": [1], "y": [4, 7]}, {"x": [0], "y": [3, 0]}, {"x": [33], "y": [17, 33]},
            {"x": [5], "y": [0, 5]}],
        bad=[{"x": [4], "y": [3, 5]}, {"x": [2], "y": [2, 1]}])
    p = Prog("copy_broadcast_col")
    x = p.arg("x", "f16", [None, 1])
    y = p.arg("y", "f16", [None, None, None])
    p.copy(x, p.transpose(y, 1, 2))
    add(p, [{"x": [3, 1], "y": [2, 5, 3]}, {"x": [1, 1], "y": [3, 4, 5]}, {"x": [0, 1], "y": [2, 2, 0]},
            {"x": [17, 1], "y": [2, 33, 17]}],
        bad=[{"x": [2, 1], "y": [2, 5, 3]}])
    p = Prog("copy_into_slice")
    x = p.arg("x", "i1", [None, None])
    y = p.arg("y", "i1", [None, None])
    p.copy(x, p.slice(y, 1, 1, None, 2))
    add(p, [{"x": [3, 2], "y": [3, 5]}, {"x": [2, 0], "y": [2, 1]}, {"x": [1, 1], "y": [1, 2]},
            {"x": [17, 16], "y": [17, 33]}],
        bad=[{"x": [3, 3], "y": [3, 5]}, {"x": [3, 2], "y": [4, 5]}])
    p = Prog("copy_into_select")
    x = p.arg("x", "f64", [None], kind="special")
    y = p.arg("y", "f64", [None, None])
    p.copy(x, p.select(y, 1, 2))
    add(p, [{"x": [4], "y": [4, 3]}, {"x": [0], "y": [0, 5]}, {"x": [1], "y": [1, 3]}, {"x": [33], "y": [33, 17]}],
        bad=[{"x": [4], "y": [4, 2]}, {"x": [3], "y": [4, 3]}])
    # Destinations whose elements are distinct for every size: views of a
    # row-major argument that keep indices apart (diagonal, windows of an
    # unfold that do not overlap) ...
    p = Prog("copy_into_diagonal")
    x = p.arg("x", "i32", [None])
    y = p.arg("y", "i32", [None, None])
    p.copy(x, p.diagonal(y, 1, 0, 1))
    add(p, [{"x": [3], "y": [3, 4]}, {"x": [0], "y": [0, 5]}, {"x": [1], "y": [1, 2]}, {"x": [17], "y": [33, 18]}],
        bad=[{"x": [4], "y": [3, 4]}])
    p = Prog("copy_into_unfold")
    x = p.arg("x", "f32", [None, None, None])
    y = p.arg("y", "f32", [None, None])
    p.copy(x, p.view(y, "unfold", "dim 1 size 2 step 3", lambda t: t.unfold(1, 2, 3)))
    add(p, [{"x": [2, 3, 2], "y": [2, 8]}, {"x": [0, 2, 2], "y": [0, 5]}, {"x": [1, 1, 2], "y": [1, 2]},
            {"x": [17, 11, 2], "y": [17, 33]}],
        bad=[{"x": [2, 2, 2], "y": [2, 8]}])
    # ... and an expand, whose destination PyTorch refuses at run time where
    # an expanded dim repeats elements (a size-1 dim expanded to 3).
    p = Prog("copy_into_expanded")
    x = p.arg("x", "f64", [None, None])
    y = p.arg("y", "f64", [None, None])
    p.copy(x, p.transpose(p.expand(y, [3, -1]), 0, 1))
    add(p, [{"x": [5, 3], "y": [3, 5]}, {"x": [0, 3], "y": [1, 0]}, {"x": [0, 3], "y": [3, 0]},
            {"x": [33, 3], "y": [3, 33]}],
        bad=[{"x": [5, 3], "y": [1, 5]}, {"x": [1, 3], "y": [1, 1]}, {"x": [5, 3], "y": [2, 5]}])
    # 1-D destinations.
    p = Prog("copy1d_convert")
    x = p.arg("x", "f64", [None, None], kind="f32exact")
    p.copy(p.select(x, 1, 1), p.arg("y", "f16", [None]))
    add(p, [{"x": [5, 3], "y": [5]}, {"x": [0, 2], "y": [0]}, {"x": [1, 2], "y": [1]}, {"x": [129, 2], "y": [129]}],
        bad=[{"x": [5, 3], "y": [4]}, {"x": [5, 1], "y": [5]}, {"x": [3, 2], "y": [0]}])
    p = Prog("copy1d_broadcast")
    x = p.arg("x", "i16", [1])
    p.copy(x, p.arg("y", "i16", [None]))
    add(p, [{"x": [1], "y": [5]}, {"x": [1], "y": [0]}, {"x": [1], "y": [1]}, {"x": [1], "y": [63]}])
    p = Prog("copy1d_dynamic_broadcast")
    x = p.arg("x", "i1", [None])
    p.copy(x, p.arg("y", "i1", [None]))
    add(p, [{"x": [5], "y": [5]}, {"x": [1], "y": [7]}, {"x": [0], "y": [0]}, {"x": [1], "y": [1]},
            {"x": [33], "y": [33]}],
        bad=[{"x": [4], "y": [5]}, {"x": [2], "y": [1]}, {"x": [0], "y": [3]}])
    p = Prog("copy1d_scalar")
    x = p.arg("x", "bf16", [], kind="special")
    p.copy(x, p.arg("y", "bf16", [None]))
    add(p, [{"x": [], "y": [5]}, {"x": [], "y": [0]}, {"x": [], "y": [1]}, {"x": [], "y": [129]}])
    p = Prog("copy1d_flip_diagonal")
    x = p.arg("x", "ui8", [None, None])
    p.copy(p.flip(p.diagonal(x, -1, 0, 1), [0]), p.arg("y", "f32", [None]))
    add(p, [{"x": [4, 3], "y": [3]}, {"x": [1, 3], "y": [0]}, {"x": [2, 1], "y": [1]}, {"x": [33, 17], "y": [17]}],
        bad=[{"x": [4, 3], "y": [4]}])
    p = Prog("copy_expand_scalar")
    x = p.arg("x", "ui8", [])
    y = p.arg("y", "ui8", [None, None])
    p.copy(x, y)
    add(p, [{"x": [], "y": [3, 5]}, {"x": [], "y": [0, 5]}, {"x": [], "y": [1, 1]}, {"x": [], "y": [17, 63]}])
    return progs


def view_result_programs() -> List[Prog]:
    """Functions that return views of their arguments: nothing is written."""
    progs = []

    def add(p, shapes, bad=()):
        p.view_result = True
        p.shapes = shapes_of(*shapes)
        p.bad = [{"shape": {"x": list(s)}, "why": "pytorch"} for s in bad]
        progs.append(p)

    p = Prog("ret_transpose")
    p.ret(p.transpose(p.arg("x", "f32", [None, None]), 0, 1))
    add(p, [[3, 5], [0, 2], [1, 1], [17, 33]])
    p = Prog("ret_select")
    p.ret(p.select(p.arg("x", "i8", [None, None]), 1, 2))
    add(p, [[3, 5], [0, 3], [1, 17]], bad=[[3, 2], [2, 0]])
    p = Prog("ret_permute_slice")
    x = p.arg("x", "f16", [None, None, None])
    p.ret(p.slice(p.permute(x, [2, 0, 1]), 0, 1, None, 2))
    add(p, [[2, 3, 4], [0, 3, 4], [1, 1, 1], [17, 5, 33]])
    p = Prog("ret_expand")
    p.ret(p.expand(p.arg("x", "i64", [None, None]), [4, -1, -1]))
    add(p, [[3, 5], [1, 0], [1, 1]])
    p = Prog("ret_narrow_two")
    x = p.arg("x", "f32", [None, None])
    p.ret(p.narrow(x, 0, 1, 2), p.diagonal(x, 0, 0, 1))
    add(p, [[3, 5], [4, 0], [17, 33]], bad=[[2, 5], [0, 1]])
    p = Prog("ret_contiguous_noop")
    p.ret(p.contiguous(p.arg("x", "f32", [None, None])))
    add(p, [[3, 5], [0, 0], [1, 1]])
    return progs


def runtime_view_programs() -> List[Prog]:
    """Run-time views: reshape, flatten, view and contiguous of dynamic
    views whose dims layoutc cannot prove mergeable (or contiguous) for
    every size, so that PyTorch's computeStride decides at run time whether
    they are views.  Every program runs at shapes where PyTorch views and
    shapes where it copies (extents 0, 1 and odd ones):
      * returned directly: the `<result>_view` report says whether the
        result is the argument's view (then it must lie there with
        PyTorch's values, as PyTorch's strides say or dense) or was written;
      * read by other ops (contiguous, transpose + contiguous, a reduction,
        `to` of a contiguous, layout.copy into a second argument, a slice /
        select / transpose then a copy, another reshape): readers read the
        argument's storage where PyTorch views and the copy where it copies;
      * `view` succeeds where computeStride finds strides and otherwise
        fails with PyTorch's message, writing nothing (bad calls);
      * a contiguous of a slice with an offset (a view at one row, a copy
        otherwise) read through a later transpose / select."""
    progs = []

    def add(p, shapes, view_result=False, y=None):
        """shapes: x's shapes; y (a function of the PyTorch view copied into
        y, or None) gives the second argument's shape.  Shapes PyTorch
        rejects run as bad calls (run_good hands them to run_bad)."""
        p.view_result = view_result
        p.always = True
        p.shapes = []
        for s in shapes:
            shape = {"x": list(s)}
            if y is not None:
                try:
                    shape["y"] = list(y(torch.zeros(s)).shape)
                except (RuntimeError, IndexError, ValueError):
                    shape["y"] = [1] * len(p.args[1].dims)
            p.shapes.append(shape)
        progs.append(p)
        return p

    q2, q3, q4 = [None] * 2, [None] * 3, [None] * 4
    # x.t() flattened: a view iff a dim is 1 (or no elements).
    s2 = [[3, 5], [1, 7], [7, 1], [1, 1], [0, 3], [4, 0], [17, 33], [1, 129], [33, 1]]
    # x.permute(2, 0, 1) / x.transpose(0, 2) (flattened): views for some 1s.
    s3 = [[2, 3, 4], [1, 1, 5], [3, 5, 1], [1, 3, 5], [3, 1, 5], [0, 2, 3], [1, 1, 1], [17, 3, 1],
          [1, 17, 33], [5, 7, 9]]
    # x.permute(0, 2, 1, 3) with dims 1, 2 flattened: a view iff x[1] or x[2] is 1.
    s4 = [[2, 3, 4, 5], [2, 1, 4, 5], [2, 3, 1, 5], [0, 3, 4, 5], [1, 1, 1, 1], [3, 17, 1, 7], [2, 5, 3, 0],
          [1, 3, 5, 7], [1, 1, 33, 3]]

    def T(p, v): return p.transpose(v, 0, 1)
    def T02(p, v): return p.transpose(v, 0, 2)
    def P201(p, v): return p.permute(v, [2, 0, 1])
    def P0213(p, v): return p.permute(v, [0, 2, 1, 3])

    # -- returned directly (the `<result>_view` report) -------------------------
    p = Prog("rv_ret_T_reshape_flat")
    p.ret(p.reshape(T(p, p.arg("x", "f32", q2)), [-1]))
    add(p, s2)
    p = Prog("rv_ret_T_reshape_flat_i8")
    p.ret(p.reshape(T(p, p.arg("x", "i8", q2)), [-1]))
    add(p, s2)
    p = Prog("rv_ret_perm_reshape_flat_f16")
    p.ret(p.reshape(P201(p, p.arg("x", "f16", q3, kind="special")), [-1]))
    add(p, s3)
    p = Prog("rv_ret_perm_flatten_all")
    p.ret(p.flatten(P201(p, p.arg("x", "i32", q3)), 0, -1))
    add(p, s3)
    p = Prog("rv_ret_flatten_mid")
    p.ret(p.flatten(P0213(p, p.arg("x", "f32", q4)), 1, 2))
    add(p, s4)
    p = Prog("rv_ret_flatten_mid_f16")
    p.ret(p.flatten(P0213(p, p.arg("x", "f16", q4, kind="special")), 1, 2))
    add(p, s4)
    # x.transpose(0, 2).flatten(1, 2): where it is a view (x[0] or x[1]
    # is 1) the view is not dense (strides [1, x[2]] at x[0] = 1).
    p = Prog("rv_ret_flatten_T_tail")
    p.ret(p.flatten(T02(p, p.arg("x", "f32", q3)), 1, 2))
    add(p, s3)
    p = Prog("rv_ret_flatten_T_tail_i8")
    p.ret(p.flatten(T02(p, p.arg("x", "i8", q3)), -2, -1))
    add(p, s3)
    # Only a size-1 dim added: a view for every size.
    p = Prog("rv_ret_reshape_add1_static")
    p.ret(p.reshape(T(p, p.arg("x", "f32", [None, 3])), [3, 1, -1]))
    add(p, [[5, 3], [0, 3], [1, 3], [17, 3]])
    p = Prog("rv_ret_reshape_add1_step")
    p.ret(p.reshape(p.slice(p.arg("x", "i16", [None, 4]), 1, None, None, 2), [-1, 1, 2]))
    add(p, [[5, 4], [0, 4], [1, 4], [33, 4]])
    p = Prog("rv_ret_T_reshape_lead1")
    p.ret(p.reshape(T(p, p.arg("x", "f32", q2)), [1, -1]))
    add(p, s2)
    p = Prog("rv_ret_T_reshape_trail1")
    p.ret(p.reshape(T(p, p.arg("x", "bf16", q2)), [-1, 1]))
    add(p, s2)
    # A slice with an offset flattened: a view (offset 1) at one row.
    p = Prog("rv_ret_slice_offset_flat")
    p.ret(p.reshape(p.slice(p.arg("x", "f32", q2), 1, 1, None), [-1]))
    add(p, [[1, 6], [1, 2], [1, 1], [3, 6], [0, 4], [5, 2], [17, 33], [1, 129], [5, 1]])
    # A chain of two run-time views: flatten then reshape of a permute.
    p = Prog("rv_ret_chain")
    p.ret(p.reshape(p.flatten(p.permute(p.arg("x", "f32", q3), [2, 1, 0]), 1, 2), [-1]))
    add(p, s3 + [[1, 5, 1], [5, 1, 1]])
    p = Prog("rv_ret_chain_i8")
    p.ret(p.reshape(p.flatten(p.permute(p.arg("x", "i8", q3), [2, 1, 0]), 1, 2), [-1]))
    add(p, s3 + [[1, 5, 1], [5, 1, 1]])
    # Two results: a run-time view and a copy of the same transpose.
    p = Prog("rv_ret_two")
    t = T(p, p.arg("x", "f32", q2))
    p.ret(p.contiguous(t), p.flatten(t, 0, 1))
    add(p, s2)

    # -- read by other ops ------------------------------------------------------
    p = Prog("rv_reshape_contiguous")
    p.ret(p.contiguous(p.reshape(T(p, p.arg("x", "f32", q2)), [-1])))
    add(p, s2)
    p = Prog("rv_flatten_T_tail_contiguous")
    p.ret(p.contiguous(p.flatten(T02(p, p.arg("x", "f32", q3)), 1, 2)))
    add(p, s3)
    p = Prog("rv_flatten_T_tail_contiguous_f16")
    p.ret(p.contiguous(p.flatten(T02(p, p.arg("x", "f16", q3, kind="special")), 1, 2)))
    add(p, s3)
    p = Prog("rv_flatten_transpose_contiguous")
    p.ret(p.contiguous(p.transpose(p.flatten(P0213(p, p.arg("x", "f32", q4)), 1, 2), 0, 2)))
    add(p, s4)
    p = Prog("rv_flatten_transpose_contiguous_i8")
    p.ret(p.contiguous(p.transpose(p.flatten(P0213(p, p.arg("x", "i8", q4)), 1, 2), 0, 1)))
    add(p, s4)
    p = Prog("rv_flatten_sum")
    p.ret(p.reduce(p.flatten(T02(p, p.arg("x", "f32", q3)), 1, 2), "sum", [1]))
    add(p, s3)
    p = Prog("rv_flatten_sum_outer")
    p.ret(p.reduce(p.flatten(T02(p, p.arg("x", "f64", q3)), 1, 2), "sum", [0], True))
    add(p, s3)
    p = Prog("rv_reshape_amax_i8")
    p.ret(p.reduce(p.reshape(P201(p, p.arg("x", "i8", q3)), [-1]), "amax", [0]))
    add(p, s3)
    p = Prog("rv_reshape_argmin_f16")
    p.ret(p.reduce(p.flatten(P0213(p, p.arg("x", "f16", q4, kind="ties")), 1, 2), "argmin", [1]))
    add(p, s4)
    # `to` of a contiguous / clone of the run-time view, itself a run-time
    # view (contiguous) or a copy (clone); and `to` (preserve) of the
    # run-time view itself, whose strides PyTorch's rule gives at run time.
    p = Prog("rv_reshape_to_f64")
    p.ret(p.to(p.contiguous(p.reshape(T(p, p.arg("x", "f32", q2, kind=data_kind("f32", "f64"))), [-1])), "f64"))
    add(p, s2)
    p = Prog("rv_flatten_to_f16")
    p.ret(p.to(p.contiguous(p.flatten(T02(p, p.arg("x", "f32", q3, kind=data_kind("f32", "f16"))), 1, 2)), "f16"))
    add(p, s3)
    p = Prog("rv_flatten_to_f64_preserve")
    p.ret(p.to(p.flatten(T02(p, p.arg("x", "f32", q3, kind=data_kind("f32", "f64"))), 1, 2), "f64"))
    add(p, s3)
    p = Prog("rv_flatten_to_i32_from_i8")
    p.ret(p.to(p.clone(p.flatten(P0213(p, p.arg("x", "i8", q4)), 1, 2), "contiguous"), "i32"))
    add(p, s4)
    p = Prog("rv_reshape_copy1d")
    x = p.arg("x", "f32", q2)
    p.copy(p.reshape(T(p, x), [-1]), p.arg("y", "f32", [None]))
    add(p, s2, y=lambda t: t.t().reshape(-1))
    p = Prog("rv_flatten_copy2d_convert")
    x = p.arg("x", "i8", q3)
    p.copy(p.flatten(T02(p, x), 1, 2), p.arg("y", "f32", q2))
    add(p, s3, y=lambda t: t.transpose(0, 2).flatten(1, 2))
    p = Prog("rv_flatten_copy_transposed_dst")
    x = p.arg("x", "f16", q3, kind="special")
    y = p.arg("y", "f16", q2)
    p.copy(p.flatten(T02(p, x), 1, 2), T(p, y))
    add(p, s3, y=lambda t: t.transpose(0, 2).flatten(1, 2).t())

    # -- a run-time view viewed again, then copied ------------------------------
    p = Prog("rv_reshape_slice_contiguous")
    p.ret(p.contiguous(p.slice(p.reshape(T(p, p.arg("x", "f32", q2)), [-1]), 0, 1, None, 2)))
    add(p, s2)
    p = Prog("rv_flatten_select_clone")
    p.ret(p.clone(p.select(p.flatten(T02(p, p.arg("x", "i32", q3)), 1, 2), 1, 1)))
    add(p, s3 + [[1, 1, 4]])          # x[0] * x[1] < 2: select's error
    p = Prog("rv_flatten_select_first_dim")
    p.ret(p.contiguous(p.select(p.flatten(P0213(p, p.arg("x", "f32", q4)), 1, 2), 0, -1)))
    add(p, s4)
    p = Prog("rv_flatten_transpose_copy")
    x = p.arg("x", "f32", q3)
    p.copy(T(p, p.flatten(T02(p, x), 1, 2)), p.arg("y", "f32", q2))
    add(p, s3, y=lambda t: t.transpose(0, 2).flatten(1, 2).t())
    p = Prog("rv_reshape_unflatten_flip")
    x = p.arg("x", "f32", q2)
    p.ret(p.contiguous(p.flip(p.unflatten(p.reshape(T(p, x), [-1]), 0, [-1, 1]), [0])))
    add(p, s2)

    # -- two run-time views, read -----------------------------------------------
    p = Prog("rv_chain_contiguous")
    p.ret(p.contiguous(p.reshape(p.flatten(p.permute(p.arg("x", "f32", q3), [2, 1, 0]), 1, 2), [-1])))
    add(p, s3 + [[1, 5, 1], [5, 1, 1]])
    p = Prog("rv_chain_slice_sum")
    v = p.reshape(p.flatten(p.permute(p.arg("x", "f64", q3), [2, 1, 0]), 1, 2), [-1, 1])
    p.ret(p.reduce(p.slice(v, 0, None, None, 2), "sum", [0]))
    add(p, s3 + [[1, 5, 1], [5, 1, 1]])
    p = Prog("rv_chain_to_i16")
    v = p.flatten(p.reshape(p.permute(p.arg("x", "i8", q3), [1, 2, 0]), [-1, 1]), 0, 1)
    p.ret(p.to(p.contiguous(v), "i16"))
    add(p, s3)

    # A view of one returned: over the output (the copy's layout) where
    # PyTorch copies, its `_view` report (the argument's view) elsewhere.
    p = Prog("rv_ret_T_of_flatten_mid")
    p.ret(T(p, p.flatten(P0213(p, p.arg("x", "f32", q4)), 1, 2)))
    add(p, s4)
    p = Prog("rv_ret_perm_of_reshape_i16")
    p.ret(p.permute(p.reshape(T(p, p.arg("x", "i16", q2)), [-1, 1]), [1, 0]))
    add(p, s2)
    p = Prog("rv_ret_unsqueeze_T_of_reshape_u8")
    p.ret(p.unsqueeze(T(p, p.reshape(P201(p, p.arg("x", "ui8", q3)), [-1, 1])), 0))
    add(p, s3)

    # A run-time view without elements for every size (a narrow of length
    # 0 reshaped), read by layout.copy and by a reduction.
    p = Prog("rv_empty_reshape_copy")
    x = p.arg("x", "f32", q2)
    p.copy(p.reshape(p.narrow(x, 1, 0, 0), [-1]), p.arg("y", "f32", [None]))
    add(p, [[3, 4], [0, 2], [1, 1], [17, 33]], y=lambda t: t.narrow(1, 0, 0).reshape(-1))
    p = Prog("rv_empty_reshape_sum")
    x = p.arg("x", "f16", q2)
    p.ret(p.reduce(p.reshape(p.narrow(T(p, x), 1, 0, 0), [-1]), "sum", []))
    add(p, [[3, 4], [0, 2], [1, 1], [17, 33]])

    # -- view of a non-mergeable dynamic view: PyTorch's error where it copies --
    p = Prog("rv_ret_view_T")
    p.ret(p.viewop(T(p, p.arg("x", "f32", q2)), [-1]))
    add(p, s2, view_result=True)
    p = Prog("rv_ret_view_T_f16")
    p.ret(p.viewop(T(p, p.arg("x", "f16", q2)), [1, -1]))
    add(p, s2, view_result=True)
    # view [-1, 2]: an odd element count is view's shape error first.
    p = Prog("rv_ret_view_perm_pairs")
    p.ret(p.viewop(P201(p, p.arg("x", "f32", q3)), [-1, 2]))
    add(p, [[1, 1, 4], [2, 3, 1], [2, 1, 3], [1, 3, 2], [3, 5, 1], [2, 3, 4], [0, 3, 5], [1, 1, 2], [1, 5, 7]],
        view_result=True)
    p = Prog("rv_view_T_contiguous")
    p.ret(p.contiguous(T(p, p.viewop(T(p, p.arg("x", "f32", q2)), [-1, 1]))))
    add(p, s2)
    p = Prog("rv_view_T_sum_i8")
    p.ret(p.reduce(p.viewop(T02(p, p.arg("x", "i8", q3)), [-1]), "sum", []))
    add(p, s3 + [[1, 5, 1], [5, 1, 1], [1, 1, 129]])
    p = Prog("rv_view_flatten_copy")
    x = p.arg("x", "f32", q4)
    p.copy(p.viewop(P0213(p, x), [-1]), p.arg("y", "f32", [None]))
    add(p, s4, y=lambda t: t.permute(0, 2, 1, 3).reshape(-1))

    # -- contiguous of a slice with an offset, read through a later view --------
    # (a view, offset included, where x has one row; a copy otherwise)
    sc = [[1, 6], [1, 2], [1, 1], [3, 6], [0, 4], [5, 2], [17, 33], [1, 129], [2, 3]]
    p = Prog("rv_contiguous_offset_T")
    x = p.arg("x", "f32", q2)
    p.ret(p.contiguous(T(p, p.contiguous(p.slice(x, 1, 1, None)))))
    add(p, sc)
    p = Prog("rv_contiguous_offset_T_i8")
    x = p.arg("x", "i8", q2)
    p.ret(p.contiguous(T(p, p.contiguous(p.slice(x, 1, 1, None)))))
    add(p, sc)
    p = Prog("rv_contiguous_offset_select_clone")
    x = p.arg("x", "f16", q2, kind="special")
    p.ret(p.clone(p.select(p.contiguous(p.slice(x, 1, 2, None)), 1, -1)))
    add(p, sc + [[1, 3], [4, 3]])
    p = Prog("rv_contiguous_offset_select_copy")
    x = p.arg("x", "f32", q2)
    p.copy(p.select(p.contiguous(p.slice(x, 1, 1, None)), 0, 0), p.arg("y", "f32", [None]))
    add(p, sc, y=lambda t: t[:, 1:][0])
    p = Prog("rv_contiguous_offset_T_copy")
    x = p.arg("x", "i16", q2)
    p.copy(T(p, p.contiguous(p.slice(x, 1, 1, None))), p.arg("y", "i16", q2))
    add(p, sc, y=lambda t: t[:, 1:].t())
    p = Prog("rv_contiguous_step_offset_sum")
    x = p.arg("x", "f32", q2)
    p.ret(p.reduce(p.contiguous(p.slice(x, 1, 1, None, 2)), "sum", [0]))
    add(p, sc + [[1, 3], [4, 3]])
    p = Prog("rv_contiguous_offset_reshape")
    x = p.arg("x", "f32", q3)
    p.ret(p.contiguous(p.reshape(T(p, p.contiguous(p.slice(x, 2, 1, None))), [-1])))
    add(p, [[1, 1, 6], [1, 1, 2], [2, 1, 3], [1, 3, 2], [2, 3, 4], [0, 2, 3], [1, 1, 1], [3, 5, 1], [1, 5, 3]])
    return progs


def reduction_programs() -> List[Prog]:
    """layout.reduce: the bench reductions R1-R5, every kind over inner,
    outer, middle, several and all dims of arguments and of permuted,
    transposed, stepped, flipped and expanded views, keepdim, and reductions
    over empty dims (sum 0, mean NaN, amax/argmax PyTorch's error)."""
    progs = []

    def add(p, shapes, bad=()):
        p.shapes = shapes_of(*shapes)
        p.bad = [{"shape": {"x": list(s)}, "why": "pytorch"} for s in bad]
        progs.append(p)
        return p

    def red(name, dt, dims, kind, rdims, keepdim=False, data="any", form=None):
        p = Prog(name)
        v = p.arg("x", dt, dims, kind=data)
        if form:
            v = form(p, v)
        p.ret(p.reduce(v, kind, rdims, keepdim))
        return p

    q2, q3, q4 = [None] * 2, [None] * 3, [None] * 4
    # R1-R5 (bench/cases/r*.mlir) at their _small shape, 0/1 and odd extents
    # and one > 256 KiB.
    add(red("R1", "f32", q2, "sum", [1]), [[64, 1024], [5, 0], [0, 7], [1, 1], [17, 33], [129, 1025]])
    add(red("R2", "f32", q2, "sum", [0]), [[64, 1024], [0, 5], [3, 0], [1, 1], [33, 17], [257, 301]])
    add(red("R3", "f32", q4, "sum", [2, 3]),
        [[1, 64, 32, 32], [2, 3, 0, 5], [0, 3, 2, 2], [1, 1, 1, 1], [3, 5, 7, 9], [5, 17, 31, 33]])
    r4 = red("R4", "f32", q2, "amax", [1], form=lambda p, v: p.permute(v, [1, 0]))
    add(r4, [[256, 256], [5, 0], [1, 1], [17, 33], [257, 259]], bad=[[0, 5], [0, 0]])
    add(red("R5", "f16", q2, "sum", [], data="unit"), [[256, 512], [0, 7], [1, 1], [17, 33], [301, 515]])
    # The same in other dtypes.
    add(red("R1_f64", "f64", q2, "sum", [1]), [[64, 128], [5, 0], [1, 1], [17, 33], [63, 1025]])
    add(red("R1_i8", "i8", q2, "sum", [1]), [[64, 1024], [5, 0], [1, 1], [17, 33], [129, 2049]])
    add(red("R2_bf16", "bf16", q2, "sum", [0], data="unit"), [[64, 1024], [0, 5], [1, 1], [33, 17], [257, 513]])
    add(red("R2_i64", "i64", q2, "sum", [0]), [[64, 128], [0, 5], [1, 1], [33, 17], [129, 257]])
    add(red("R3_mean_f64", "f64", q4, "mean", [2, 3]),
        [[1, 64, 32, 32], [2, 3, 0, 5], [1, 1, 1, 1], [3, 5, 7, 9], [3, 17, 31, 33]])
    add(red("R4_argmax_i32", "i32", q2, "argmax", [1], data="ties", form=lambda p, v: p.permute(v, [1, 0])),
        [[256, 256], [5, 0], [1, 1], [17, 33], [255, 257]], bad=[[0, 5]])
    add(red("R4_amin_bf16", "bf16", q2, "amin", [1], data="nan", form=lambda p, v: p.permute(v, [1, 0])),
        [[256, 256], [5, 0], [1, 1], [17, 33], [257, 511]], bad=[[0, 3]])
    add(red("R5_f32", "f32", q2, "sum", [], keepdim=True), [[256, 512], [0, 7], [1, 1], [17, 33], [301, 515]])
    add(red("R5_i32", "i32", q2, "sum", []), [[256, 512], [7, 0], [1, 1], [17, 33], [301, 257]])

    # Every kind over the patterns, dtypes in turn (exec_test's matrix).
    def transpose(p, v): return p.transpose(v, 0, 1)
    def perm(p, v): return p.permute(v, [2, 0, 1])
    def step(p, v): return p.slice(p.slice(v, 0, 1, None, 2), 2, None, None, 3)
    def flip(p, v): return p.flip(v, [0, 1])
    def expand(p, v): return p.expand(p.unsqueeze(v, 1), [-1, 5, -1])

    s2 = [[5, 7], [0, 3], [3, 0], [1, 1], [17, 33]]
    s3 = [[3, 5, 7], [0, 2, 3], [2, 0, 3], [2, 3, 0], [1, 1, 1], [3, 17, 33]]
    patterns = [  # name, rank, view, dims, keepdim; what lies innermost in memory
        ("inner", 2, None, [1], False),           # the reduced dim
        ("outer", 2, None, [0], True),            # a kept dim
        ("middle", 3, None, [1], False),
        ("multi", 3, None, [0, 2], False),
        ("all", 2, None, [], False),
        ("all_keep", 3, None, [], True),
        ("T_inner", 2, transpose, [1], False),    # reduced dim outermost in memory
        ("T_outer", 2, transpose, [0], False),    # reduced dim innermost in memory
        ("perm", 3, perm, [0], True),             # reduced dim innermost in memory
        ("perm_multi", 3, perm, [1, 2], False),
        ("step", 3, step, [2], False),
        ("flip", 2, flip, [1], False),
        ("expand", 2, expand, [1], False),        # a stride-0 reduced dim
        ("expand_kept", 2, expand, [2], True),    # a stride-0 kept dim
        ("neg", 3, None, [-1], True),
    ]
    kind_dtypes = {
        "sum": ["f32", "f64", "f16", "bf16", "i8", "i32", "i64", "i16", "ui8", "i1"],
        "mean": ["f32", "f64", "f16", "bf16"],
        "prod": ["f32", "f64", "i32", "i64", "f16", "i8", "bf16", "ui8"],
        "amax": ["f32", "f64", "f16", "bf16", "i8", "i32", "i64", "i16", "ui8", "i1"],
        "amin": ["f64", "f16", "bf16", "i8", "i32", "i64", "i16", "ui8", "i1", "f32"],
        "argmax": ["f32", "i32", "f16", "i64", "bf16", "i8", "f64", "ui8", "i16", "i1"],
        "argmin": ["i32", "f32", "i64", "bf16", "i8", "f16", "ui8", "f64", "i1", "i16"],
    }
    for kind, dts in kind_dtypes.items():
        for i, (pname, rank, form, dims, keep) in enumerate(patterns):
            if kind in ("argmax", "argmin") and len(dims) > 1:
                continue
            dt = dts[i % len(dts)]
            if kind == "prod":
                data = "prod"
            elif kind.startswith("arg") or kind.startswith("am"):
                data = "ties" if i % 2 else "nan" if DTYPES[dt].is_float else "any"
            else:
                data = "unit" if dt in ("f16", "bf16") else "any"
            add(red(f"reduce_{kind}_{pname}_{dt}", dt, [None] * rank, kind, dims, keep, data, form),
                s2 if rank == 2 else s3)
    # Larger: thread splits along kept and reduced loops, odd remainders.
    for kind, dt in [("sum", "f32"), ("mean", "bf16"), ("amax", "i16"), ("argmin", "f64")]:
        for pname, form, dims in [("inner", None, [1]), ("outer", None, [0]), ("T", transpose, [1])]:
            add(red(f"reduce_big_{kind}_{pname}_{dt}", dt, q2, kind, dims,
                    data="unit" if dt == "bf16" else "any", form=form),
                [[301, 257], [1, 70001], [70001, 1], [3, 33333]])
    # Static dims among dynamic ones, rank 1 and rank 0.
    add(red("reduce_static_dim", "f32", [None, 3, None], "sum", [1]), [[2, 3, 5], [0, 3, 1], [1, 3, 1], [17, 3, 33]])
    add(red("reduce_over_static", "i32", [4, None], "argmax", [0], data="ties"), [[4, 5], [4, 0], [4, 1], [4, 33]])
    add(red("reduce_rank1", "f64", [None], "mean", [0]), [[7], [0], [1], [129]])
    add(red("reduce_rank1_amax", "i8", [None], "amax", [0]), [[7], [1], [129]], bad=[[0]])
    add(red("reduce_rank1_argmin_keep", "f32", [None], "argmin", [], True), [[7], [1], [129]], bad=[[0]])
    p = Prog("reduce_rank0")
    p.ret(p.reduce(p.arg("x", "f32", []), "sum", []))
    p.shapes = shapes_of([])
    progs.append(p)
    # Reductions over empty dims: sum 0, prod 1, mean NaN; amax/amin/argmax/
    # argmin fail with PyTorch's message and write nothing.
    add(red("empty_sum", "f32", q3, "sum", [1, 2]), [[3, 0, 4], [2, 5, 0], [0, 0, 0], [2, 3, 4]])
    add(red("empty_prod", "i64", q2, "prod", [0], data="prod"), [[0, 5], [0, 0], [3, 4]])
    add(red("empty_mean", "f16", q2, "mean", [1], keepdim=True, data="unit"), [[4, 0], [0, 0], [3, 5]])
    add(red("empty_amax", "f32", q2, "amax", [1]), [[3, 4], [0, 4]], bad=[[3, 0], [0, 0]])
    add(red("empty_amin_multi", "i16", q3, "amin", [0, 2]), [[2, 3, 4], [2, 0, 4]],
        bad=[[0, 3, 4], [2, 3, 0], [0, 3, 0]])
    add(red("empty_amin_order", "f32", q3, "amin", [2, 0]), [[2, 3, 4], [2, 0, 4]], bad=[[0, 3, 4], [0, 3, 0]])
    add(red("empty_argmax", "f64", q2, "argmax", [0], keepdim=True), [[3, 4], [3, 0]], bad=[[0, 4]])
    add(red("empty_argmin_neg", "i8", q2, "argmin", [-1]), [[3, 4], [0, 4]], bad=[[3, 0]])
    add(red("empty_amax_all", "f32", q2, "amax", []), [[3, 4]], bad=[[3, 0], [0, 0]])
    add(red("empty_argmax_all", "i32", q2, "argmax", []), [[3, 4]], bad=[[0, 4]])
    # A dim of size 0 for every size (a narrow of length 0): sum writes
    # zeros, prod ones, mean NaN; a kept empty dim leaves nothing to write.
    def empty_narrow(p, v): return p.narrow(v, 1, 0, 0)
    add(red("static_empty_sum", "f32", q2, "sum", [1], form=empty_narrow), [[3, 4], [0, 2], [1, 1], [17, 33]])
    add(red("static_empty_prod", "i32", q3, "prod", [1, 2], True, form=empty_narrow),
        [[3, 4, 2], [0, 2, 2], [1, 1, 1], [17, 3, 5]])
    add(red("static_empty_mean", "bf16", q2, "mean", [1], form=empty_narrow), [[3, 4], [1, 1], [17, 33]])
    add(red("static_empty_kept", "f64", q2, "sum", [0], form=empty_narrow), [[3, 4], [0, 1], [17, 33]])
    add(red("static_empty_kept_argmax", "i8", q3, "argmax", [2], form=empty_narrow), [[3, 4, 5], [0, 1, 1], [1, 1, 0]],
        bad=[[3, 4, 0]])
    # Loops that look contiguous at the planner's representative sizes but
    # are not for every size (x[:, :100] has size x[1] below 100 only).
    def clamp(p, v): return p.slice(v, 1, None, 100)
    clamp_shapes = [[3, 41], [2, 150], [0, 5], [1, 1], [17, 100], [5, 101]]
    add(red("clamped_sum_all", "f32", q2, "sum", [], form=clamp), clamp_shapes)
    add(red("clamped_argmin_all", "i16", q2, "argmin", [], data="ties", form=clamp), clamp_shapes[:2] + clamp_shapes[3:],
        bad=[[0, 5], [3, 0]])

    def diag(p, v):
        v = p.diagonal(p.view(p.expand(v, [2, -1, -1]), "movedim", "1 to 0", lambda t: t.movedim(1, 0)), -1, 0, 1)
        return p.permute(v, [1, 0])
    add(red("expanded_diagonal_prod_all", "i1", [None, None, 2], "prod", [], form=diag),
        [[2, 3, 2], [1, 4, 2], [2, 0, 2], [1, 1, 2], [2, 17, 2]], bad=[[3, 3, 2]])
    # Two reductions of one argument.
    p = Prog("reduce_two_results")
    x = p.arg("x", "f32", q2)
    p.ret(p.reduce(x, "sum", [0]), p.reduce(p.transpose(x, 0, 1), "argmax", [0], True))
    add(p, [[5, 7], [0, 3], [1, 1], [17, 33]], bad=[[3, 0]])
    return progs


# ---------------------------------------------------------------------------
# Random chains.
# ---------------------------------------------------------------------------

class Flip(dv.Op):
    name = "flip"

    def __init__(self, dims):
        self.dims = dims

    def syntax(self):
        return f"[{dv.ints(self.dims)}]"

    def torch(self, t):
        return torch.flip(t, self.dims)

    @staticmethod
    def generate(rng, sizes):
        if not sizes:
            return None
        return Flip(rng.sample(range(len(sizes)), rng.randint(1, len(sizes))))


class StaticSqueeze(dv.Squeeze):
    """squeeze of a static dim only (a dynamic one is declined)."""

    @staticmethod
    def generate(rng, sizes):
        static = [d for d, s in enumerate(sizes) if s is not None]
        if not static:
            return None
        return StaticSqueeze([rng.choice(static)])


# view / reshape / flatten of dims layoutc cannot prove mergeable, and a
# contiguous inside the chain, are decided at run time (run-time views read
# by the ops after them), so they are drawn often.
OP_WEIGHTS = {dv.Permute: 5, dv.Transpose: 5, dv.Movedim: 2, dv.Slice: 8, dv.Select: 4, dv.Narrow: 4,
              dv.Expand: 4, dv.Unsqueeze: 3, StaticSqueeze: 1, dv.Unflatten: 3, dv.Diagonal: 2, Flip: 4,
              dv.View: 3, dv.Reshape: 4, dv.Flatten: 4, dv.Contiguous: 3, dv.Split: 3}
ENDINGS = ["contiguous", "contiguous", "contiguous", "clone", "clone", "clone_cl", "to", "copy", "copy_bcast",
           "reduce", "reduce", "reduce"]
REDUCE_KINDS = ["sum", "sum", "mean", "prod", "amax", "amin", "argmax", "argmin"]


def sizes_of_type(t: str) -> List[Optional[int]]:
    return dv.parse_type(t)


def type_strides(t: str, sizes) -> List[int]:
    """A tensor type's strides at `sizes`: its `strided<[...]>`, row-major
    where it has none or a stride is `?`."""
    strides = list(row_major(sizes))
    m = re.search(r"strided<\[([^\]]*)\]", t)
    if m:
        for d, st in enumerate(m.group(1).split(",")):
            if st.strip() != "?":
                strides[d] = int(st)
    return strides


def dtype_of_type(t: str) -> str:
    body = t[len("!layout.tensor<"):].split(",")[0].rstrip(">")
    return body.split("x")[-1]


def random_program(index: int, seed: int) -> Prog:
    rng = random.Random(seed * 1000003 + index)
    p = Prog(f"chain{index}", random_program=True)
    dt = rng.choice(list(DTYPES))
    rank = rng.choice([1, 2, 2, 3, 3, 4, 4])
    dims = [None if rng.random() < 0.8 else rng.choice([1, 2, 3]) for _ in range(rank)]
    length = rng.randint(1, 4)
    ending = rng.choice(ENDINGS)
    out_dt = rng.choice(list(DTYPES)) if ending in ("to", "copy", "copy_bcast") else dt
    kind = data_kind(dt, out_dt)
    if ending == "reduce":
        reduce_kind = rng.choice(REDUCE_KINDS)
        if reduce_kind == "mean" and not DTYPES[dt].is_float:
            reduce_kind = "sum"
        kind = ("prod" if reduce_kind == "prod" else "ties" if rng.random() < 0.3 else
                "unit" if dt in ("f16", "bf16") and reduce_kind in ("sum", "mean") else
                "nan" if DTYPES[dt].is_float and reduce_kind not in ("sum", "mean") else "any")
    p.arg("x", dt, dims, kind=kind)
    state = {"value": "%x", "n": 0, "done": False}
    p.chain_rng = rng

    def gen(prog):
        if state["done"]:
            return False
        v = state["value"]
        t = prog.types[v]
        sizes = sizes_of_type(t)
        if state["n"] < length:
            op = None
            kinds, weights = list(OP_WEIGHTS), list(OP_WEIGHTS.values())
            flipped = any(isinstance(o, Flip) for o in prog.chain_ops)
            while op is None:
                op = rng.choices(kinds, weights)[0].generate(rng, sizes)
                if flipped and type(op) is dv.View:
                    # layoutc's flip is a view (negative strides, docs/
                    # language.md "ext"), PyTorch's a copy: a later `view`
                    # merging a flipped dim fails in layoutc (at run time;
                    # static sizes: at compile time) where PyTorch's
                    # succeeds on its dense copy.
                    op = None
            state["n"] += 1
            if op.results == 1:
                state["value"] = prog.view(v, op.name, op.syntax(), op.torch)
            else:
                names = prog.op(f"layout.{op.name} {{0}} {op.syntax()}", [v],
                                lambda t, op=op: t.split_with_sizes(op.sizes, op.dim),
                                results=op.results, pick=op.pick)
                state["value"] = names[op.pick]
            prog.chain_ops.append(op)
            return True
        state["done"] = True
        if ending == "contiguous":
            prog.ret(prog.contiguous(v))
        elif ending == "clone":
            prog.ret(prog.clone(v))
        elif ending == "clone_cl":
            prog.ret(prog.clone(v, "channels_last") if len(sizes) == 4 else prog.contiguous(v))
        elif ending == "to":
            prog.ret(prog.to(v, out_dt))
        elif ending == "reduce":
            rank = len(sizes)
            if reduce_kind in ("argmax", "argmin"):
                rdims = [] if rank == 0 or rng.random() < 0.3 else [rng.randrange(-rank, rank)]
            else:
                rdims = rng.sample(range(rank), rng.randint(0, rank))
                rdims = [d - rank if rng.random() < 0.3 else d for d in rdims]
            prog.ret(prog.reduce(v, reduce_kind, rdims, keepdim=rng.random() < 0.3))
        else:
            lead = [None] if ending == "copy_bcast" else []
            prog.copy_lead = len(lead)
            y = prog.arg("y", out_dt, lead + [None] * len(sizes))
            prog.copy(v, y)
        return True

    p.chain_ops = []
    p.copy_lead = 0
    p.generator = gen
    return p


POOL = [0, 1, 2, 3, 5, 7, 17, 33, 63, 129]


def random_shapes(p: Prog, rng: random.Random, limit=60000):
    """>= 4 shapes for a random chain: one with a 0, one with 1s, and shapes
    PyTorch accepts with odd extents; at most one that PyTorch rejects is
    kept as a bad call."""
    x = p.args[0]
    dyn = [d for d, s in enumerate(x.dims) if s is None]

    def make(vals):
        it = iter(vals)
        return [next(it) if s is None else s for s in x.dims]

    def outcome(shape):
        try:
            full = dict(x=torch.zeros(shape, dtype=x.dt.torch))
            v = torch_view(p, full)
            return True, v
        except (RuntimeError, IndexError, ValueError) as e:
            return False, e

    good, bad, seen = [], [], set()
    cands = []
    if dyn:
        z = [rng.choice(POOL[:7]) for _ in dyn]
        z[rng.randrange(len(dyn))] = 0
        cands.append(make(z))
        cands.append(make([1] * len(dyn)))
        o = [rng.choice([1, 1, 2, 3]) for _ in dyn]
        cands.append(make(o))
    else:
        cands.append(make([]))
    for _ in range(80):
        cands.append(make([rng.choice(POOL) for _ in dyn]))
    for s in cands:
        key = tuple(s)
        if key in seen or math.prod(s) > limit:
            continue
        seen.add(key)
        ok, _ = outcome(s)
        if ok:
            good.append(s)
        elif len(bad) < 1:
            bad.append(s)
        if len(good) >= 5:
            break
    return good, bad


def torch_view(p: Prog, inputs):
    """The chain's last view (before its ending) in PyTorch."""
    t = inputs["x"]
    for op in p.chain_ops:
        t = op.torch(t)
    return t


# ---------------------------------------------------------------------------
# Running.
# ---------------------------------------------------------------------------

class Runner:
    def __init__(self, args):
        self.args = args
        self.passed = 0
        self.failed = 0
        self.calls = 0
        self.raw_calls = 0                  # CUDA: good calls through <function>_raw
        self.view_reports = 0               # calls whose result was reported a view
        self.bad_calls = 0
        self.layout_checks = 0              # good calls whose <function>_layouts was checked
        self.known_bugs: Dict[str, List[str]] = {}
        self.rng = np.random.default_rng(args.seed)

    def known(self, p: Prog, key: str, what: str):
        self.known_bugs.setdefault(key, []).append(f"{p.name}: {what}")
        if self.args.strict:
            self.fail(p, f"known limitation {key}: {KNOWN[key]}: {what}")

    def fail(self, p: Prog, what: str):
        self.failed += 1
        print(f"FAIL {p.module}: {p.name}: {what}", flush=True)

    def options(self):
        self.calls += 1
        k = self.calls % 3
        if k == 0:
            return None
        return ExecOptions(ctypes.sizeof(ExecOptions), k)

    def inputs_for(self, p: Prog, shape: dict):
        vals = {}
        for a in p.args:
            s = shape[a.name]
            kind = "any" if a.written else p.kinds[a.name]
            vals[a.name] = make_data(self.rng, a.dt, s, kind)
        return vals

    def arg_buffer(self, p: Prog, a: ArgSpec, sizes, null_strides=False) -> Buffer:
        """The buffer argument `a` is passed in at these sizes: row-major
        (strides NULL where asked).  A hook for callers whose arguments have
        other layouts (exec_dynamic_form.py)."""
        return Buffer(a.dt, sizes, null_strides=null_strides)

    def out_buffers(self, p: Prog, results, sizes_override=None, shape=None):
        bufs = []
        for r, (res, dt) in enumerate(zip(results, p.result_dtypes)):
            if p.aliases[r] is not None:
                continue
            sizes = list(res.shape)
            strides = list(res.stride())
            producer = next((op for op in p.ops if p.rets[r] in op.results), None)
            reshaped = producer is not None and re.match(r"layout\.(reshape|flatten|view) ", producer.text)
            t = p.types[p.rets[r]]
            model = getattr(p, "new_strides", {}).get(id(res))
            if model is None and producer is not None and producer.text.startswith("layout.to ") and \
                    any(isinstance(o, Flip) for o in getattr(p, "chain_ops", [])) and "?" in t and \
                    shape is not None:
                # A conversion (preserve_format) after a flip, which is a
                # view in layoutc and a copy in PyTorch: PyTorch has no
                # strides to compare, so the output takes those explain
                # states (its values are compared with PyTorch's all the
                # same; SymbolicTest holds those strides to the static
                # algebra's).
                model = dv.evaluate(p.symbolic, shape["x"])["strides"]
            if model is not None and "?" in t:
                # The reference's model of layoutc's strides (a new tensor
                # of a flipped view: exec_dynamic_form.py); a size-1 dim's
                # stride, which may be negative there, is not compared.
                strides = [st if s > 1 else rm for s, st, rm in zip(sizes, model, row_major(sizes))]
            elif "?" not in t and min(type_strides(t, sizes), default=0) >= 0:
                # A static result type is the layout the header states (it
                # differs from PyTorch's after a flip, layoutc's view).
                strides = type_strides(t, sizes)
            elif reshaped:
                # A reshape / flatten PyTorch views (any strides) is
                # written row-major where layoutc copies.
                strides = list(row_major(sizes))
            elif res.numel() and not res.is_contiguous() and not res.is_contiguous(memory_format=torch.channels_last):
                # preserve of a permuted view: dense in the permuted order.
                order = sorted(range(len(sizes)), key=lambda d: -strides[d])
                strides = [0] * len(sizes)
                acc = 1
                for d in reversed(order):
                    strides[d] = acc
                    acc *= sizes[d]
            else:
                strides = [st if s > 1 else rm for s, st, rm in zip(sizes, strides, row_major(sizes))]
            if sizes_override is not None and r in sizes_override:
                sizes, strides = sizes_override[r]
            bufs.append((r, Buffer(dt, sizes, strides)))
        return bufs

    def placeholder_outputs(self, p: Prog, shape: dict):
        """Outputs for a call PyTorch rejects: the result types' static sizes, 1 elsewhere."""
        bufs = []
        for r, dt in enumerate(p.result_dtypes):
            if p.aliases[r] is not None:
                continue
            t = p.types[p.rets[r]]
            sizes = [0 if s is None else s for s in sizes_of_type(t)]
            bufs.append((r, Buffer(dt, sizes, type_strides(t, sizes))))
        return bufs

    def run_good(self, p: Prog, f, lib: Library, shape: dict):
        inputs = self.inputs_for(p, shape)
        ref_inputs = {k: v.clone() for k, v in inputs.items()}
        try:
            results = p.reference(ref_inputs)
        except (RuntimeError, IndexError, ValueError) as e:
            return self.run_bad(p, f, lib, shape, inputs, "pytorch", torch_message(e))
        arg_bufs = []
        for a in p.args:
            b = self.arg_buffer(p, a, shape[a.name], null_strides=(self.calls % 4 == 1))
            b.fill(inputs[a.name])
            arg_bufs.append(b)
        outs = self.out_buffers(p, results, shape=shape)
        for _, b in outs:
            b.fill_sentinel()
        unwritten = [(a, b, b.snapshot()) for a, b in zip(p.args, arg_bufs) if not a.written]
        # Results whose copy depends on sizes (`<result>_view`): every third
        # call passes NULL (always written), the others ask for the report.
        reports = [None if self.calls % 3 == 0 else ctypes.c_int32(99) for _ in p.view_reports]
        out_snaps = {r: b.snapshot() for r, b in outs}
        bufs = arg_bufs + [b for _, b in outs]
        where = f"shape {shape}"
        if p.raw and self.calls % 2:
            # CUDA: every other call through <function>_raw (device
            # pointers, then the input sizes the header lists).
            where += " through _raw"
            self.raw_calls += 1
            msg = lib.call(p.raw[0], bufs, self.options(), reports, [shape[a][d] for a, d in p.raw[1]])
        else:
            msg = lib.call(f, bufs, self.options(), reports)
        if msg is not None:
            return self.fail(p, f"{where}: PyTorch accepts, the call returns an error: {msg}")
        problems = []
        as_view = set()
        out_strides = dict((r, b.strides) for r, b in outs)
        for r, report in zip(p.view_reports, reports):
            if report is None:
                continue
            res = results[r]
            aliased = [a.name for a in p.args if res is ref_inputs[a.name] or res._base is ref_inputs[a.name]]
            if report.value == -1:
                if aliased:
                    problems.append(f"result {r}: reported written, but PyTorch returns a view of {aliased[0]}")
                continue
            if not 0 <= report.value < len(p.args):
                problems.append(f"result {r}: result{r}_view reports {report.value}, not -1 or an argument")
                continue
            # layoutc's views are PyTorch's and more (flip is a view): the
            # reported view must hold PyTorch's values, laid out as the
            # result (dense) or, where PyTorch returns a view (a reshape or
            # flatten decided at run time), with PyTorch's strides,
            # somewhere in that argument.
            name = p.args[report.value].name
            layouts = [out_strides[r]] + ([tuple(res.stride())] if aliased else [])
            if not any(view_in(inputs[name], res, st) for st in layouts):
                problems.append(f"result {r}: reported a view of {name}, which holds no such view")
                continue
            as_view.add(r)
            self.view_reports += 1
        for r, b in outs:
            if r in as_view:
                if not torch.equal(b.raw, out_snaps[r]):
                    problems.append(f"result {r}: reported as a view, but the output was written")
                continue
            if p.checks[r] is not None:
                bad = tolerance_mismatch(b.typed(), p.checks[r], p.result_dtypes[r])
            else:
                bad = first_mismatch(b.typed(), results[r].contiguous())
            if bad:
                problems.append(f"result {r}: {bad}")
            if not b.guards_ok():
                problems.append(f"result {r}: guard bytes overwritten")
        for a, b in zip(p.args, arg_bufs):
            if a.written:
                bad = first_mismatch(b.typed(), ref_inputs[a.name])
                if bad:
                    problems.append(f"written argument {a.name}: {bad}")
            if not b.guards_ok():
                problems.append(f"argument {a.name}: guard bytes overwritten")
        for a, b, snap in unwritten:
            if not torch.equal(b.raw, snap):
                problems.append(f"argument {a.name} (read only) was modified")
        reported = {r: rep.value for r, rep in zip(p.view_reports, reports) if rep is not None}
        self.check_layouts(p, lib, arg_bufs, dict(outs), results, ref_inputs, reported, problems)
        if problems:
            return self.fail(p, f"{where}: " + "; ".join(problems))
        self.passed += 1

    def check_layouts(self, p: Prog, lib: Library, arg_bufs, outs, results, ref_inputs, reported, problems):
        """<function>_layouts on the call's arguments: each result's sizes
        PyTorch's; an output where the call took one, with the strides it
        accepted (size-1 dims and empty tensors aside); a view of the
        argument explain names, or for a run-time view the one the call's
        `_view` report gave (`reported`; else at least where PyTorch
        views), holding PyTorch's values at its strides and offset."""
        if not p.has_layouts:
            return
        fn = getattr(lib.lib, p.name + "_layouts")
        fn.restype = ctypes.c_void_p
        fn.argtypes = [ctypes.c_void_p] * (len(arg_bufs) + 1)
        layouts = (LrtLayout * max(len(p.rets), 1))()
        saved = [b.dl.device for b in arg_bufs]
        for b in arg_bufs:
            b.dl.device = DLDevice(KDL_CUDA if isinstance(lib, CudaLibrary) else KDL_CPU, 0)
        try:
            st = fn(*[ctypes.cast(ctypes.pointer(b.dl), ctypes.c_void_p) for b in arg_bufs],
                    ctypes.cast(layouts, ctypes.c_void_p))
        finally:
            for b, d in zip(arg_bufs, saved):
                b.dl.device = d
        msg = None
        if st:
            msg = lib.lib.lrt_status_message(st).decode()
            lib.lib.lrt_status_free(st)
        if msg is not None:
            return problems.append(f"{p.name}_layouts fails where the call succeeds: {msg}")
        self.layout_checks += 1
        for r, res in enumerate(results):
            l = layouts[r]
            sizes, strides = list(l.sizes[:l.ndim]), list(l.strides[:l.ndim])
            if sizes != list(res.shape):
                problems.append(f"{p.name}_layouts: result {r} sizes {sizes}, PyTorch's {list(res.shape)}")
                continue
            if bool(l.has_output) != (r in outs):
                problems.append(f"{p.name}_layouts: result {r} has_output {l.has_output}, "
                                f"the entry point {'takes' if r in outs else 'takes no'} an output")
                continue
            # An empty tensor's strides are free (the entry points check none).
            if r in outs and res.numel() and any(n > 1 and st != want for n, st, want in
                                 zip(sizes, l.output_strides[:l.ndim], outs[r].strides)):
                problems.append(f"{p.name}_layouts: result {r} output strides {list(l.output_strides[:l.ndim])}, "
                                f"the output passed has {list(outs[r].strides)}")
            aliased = [i for i, a in enumerate(p.args)
                       if res is ref_inputs[a.name] or res._base is ref_inputs[a.name]]
            # layoutc's views are PyTorch's and more (a flip): without a
            # report, PyTorch's view must be one; a result without a `_view`
            # parameter is always written (docs/abi.md).
            want = (p.aliases[r] if p.aliases[r] is not None else
                    -1 if r not in p.view_reports else
                    reported.get(r, aliased[0] if aliased else None))
            # want None: either answer (a reported view's values are checked).
            if want is not None and l.view_of != want:
                problems.append(f"{p.name}_layouts: result {r} view_of {l.view_of}, expected {want}")
                continue
            if l.view_of >= 0:
                bad = first_mismatch(strided_view(arg_bufs[l.view_of], sizes, strides, l.offset), res)
                if bad:
                    problems.append(f"{p.name}_layouts: result {r}, the view of {p.args[l.view_of].name} at "
                                    f"strides {strides} offset {l.offset}: {bad}")

    def run_bad(self, p: Prog, f, lib: Library, shape: dict, inputs=None, why="pytorch", expected=None,
                arg_override=None, out_override=None):
        """A call that must fail with `expected` (a message or a regex
        via re.search) and write nothing."""
        self.bad_calls += 1
        if inputs is None:
            inputs = self.inputs_for(p, shape)
        if expected is None and why == "pytorch":
            try:
                p.reference({k: v.clone() for k, v in inputs.items()})
            except (RuntimeError, IndexError, ValueError) as e:
                expected = torch_message(e)
            else:
                return self.fail(p, f"shape {shape}: meant as a bad call, but PyTorch accepts it (a bug of this test)")
        arg_bufs = []
        for a in p.args:
            if arg_override and a.name in arg_override:
                b = arg_override[a.name]()
                b.fill_sentinel()
            else:
                b = self.arg_buffer(p, a, shape[a.name])
                b.fill(inputs[a.name])
            arg_bufs.append(b)
        outs = out_override() if out_override else self.placeholder_outputs(p, shape)
        for _, b in outs:
            b.fill_sentinel()
        snaps = [b.snapshot() for b in arg_bufs] + [b.snapshot() for _, b in outs]
        reports = [ctypes.c_int32(99) for _ in p.view_reports]
        msg = lib.call(f, arg_bufs + [b for _, b in outs], self.options(), reports)
        if any(r.value != 99 for r in reports):
            return self.fail(p, f"bad call ({why}) at shape {shape}: a view report was written by the failing call")
        where = f"bad call ({why}) at shape {shape}"
        if msg is None:
            return self.fail(p, f"{where}: returns success, expected the error {expected!r}")
        problems = []
        if why == "pytorch":
            if msg != f"{p.name}: {expected}":
                problems.append(f"message {msg!r}, expected {p.name + ': ' + expected!r} (PyTorch's)")
        elif not re.search(expected, msg) or not msg.startswith(p.name + ": "):
            problems.append(f"message {msg!r} does not match {expected!r}")
        for b, snap in zip(arg_bufs + [b for _, b in outs], snaps):
            if not torch.equal(b.raw, snap):
                problems.append("a buffer was written by the failing call")
                break
        if problems:
            return self.fail(p, f"{where}: " + "; ".join(problems))
        self.passed += 1

    # -- a program -------------------------------------------------------------
    def cuda_raw_entry(self, p: Prog, lib: CudaLibrary, header: str, params: str, npointers: int):
        """The CUDA launchers end with the stream; <function>_raw takes the
        device pointers, the input sizes it names `<argument>_size<dim>`,
        the `_view` reports and the stream.  Sets p.raw."""
        raw = re.search(rf"^lrt_status_t {p.name}_raw\((.*)\);$", header, re.M)
        raw_params = raw.group(1).split(", ") if raw else []
        last = params.split(", ")[-1 - len(p.view_reports):]   # the `_view` reports and the stream
        sizes = [re.fullmatch(r"int64_t (\w+)_size(\d+)", q) for q in raw_params[npointers:-len(last)]]
        names = [a.name for a in p.args]
        if last[-1] != "cudaStream_t stream" or len(raw_params) < npointers + len(last) or \
                raw_params[-len(last):] != last or not all(m and m.group(1) in names for m in sizes):
            return self.fail(p, f"the launchers' prototypes are not the CUDA ABI's: {p.name}({params}), "
                                f"{p.name}_raw({raw.group(1) if raw else 'missing'})")
        p.raw = (lib.raw_entry(p.name + "_raw", npointers, len(sizes), len(p.view_reports)),
                 [(m.group(1), int(m.group(2))) for m in sizes])

    def run_program(self, p: Prog, lib: Library, header: str):
        n_out = sum(1 for a in p.aliases if a is None)
        sig = re.search(rf"^lrt_status_t {p.name}\((.*)\);$", header, re.M)
        p.view_reports = [int(r) for r in re.findall(r"int32_t \*result(\d+)_view", sig.group(1) if sig else "")]
        f = lib.entry(p.name, len(p.args) + n_out + len(p.view_reports))
        # Functions with a dynamic layout (all but a few static controls).
        p.has_layouts = re.search(rf"^lrt_status_t {p.name}_layouts\(", header, re.M) is not None
        if not p.has_layouts and any("?" in line for line in p.text(with_return=False)):
            self.fail(p, f"the header declares no {p.name}_layouts")
        if isinstance(lib, CudaLibrary):
            self.cuda_raw_entry(p, lib, header, sig.group(1) if sig else "", len(p.args) + n_out)
        if p.view_result:
            if any(a is None for a in p.aliases):
                self.fail(p, f"returns a view, but explain says a result is new storage: aliases {p.aliases}")
            block = re.search(rf"/\* {p.name}\n(.*?)\*/", header, re.S)
            if not block or "view of x" not in block.group(1):
                self.fail(p, "the header does not document the returned view ('view of x')")
        for shape in p.shapes:
            self.run_good(p, f, lib, shape)
        for bad in p.bad:
            self.run_bad(p, f, lib, bad["shape"], why=bad["why"])
        for extra in getattr(p, "extra_bad", []):
            extra(self, p, f, lib)


def header_aliases(header: str, p: Prog) -> List[Optional[int]]:
    """Per result, the index of the argument the header says it views
    ("view of x"), or None for a new tensor (an output parameter)."""
    block = re.search(rf"/\* {p.name}\n(.*?)\*/", header, re.S)
    out = []
    for r in range(len(p.rets)):
        m = re.search(rf"^ \*   result{r}: (.*)$", block.group(1) if block else "", re.M)
        v = re.match(r"view of (\w+)", m.group(1)) if m else None
        names = [a.name for a in p.args]
        out.append(names.index(v.group(1)) if v and v.group(1) in names else None)
    return out


def runtime_bad_cases(progs: Dict[str, Prog], cuda: bool):
    """Malformed tensors: wrong output size / strides, a wrong static size,
    rank or dtype of an argument; for the CUDA launchers also tensors of
    device kDLCPU and kDLCUDA tensors whose data is host memory."""

    def wrong_output(shape, r, sizes, strides, pattern, host=None):
        def run(runner, p, f, lib):
            runner.run_bad(p, f, lib, shape, why="runtime", expected=pattern,
                           out_override=lambda: [(r, Buffer(p.result_dtypes[r], sizes, strides, host=host))])
        return run

    def wrong_arg(shape, name, dt, sizes, pattern, host=None, strides=None):
        def run(runner, p, f, lib):
            good = {a.name: shape[a.name] for a in p.args}
            inputs = runner.inputs_for(p, good)
            try:
                results = p.reference({k: v.clone() for k, v in inputs.items()})
            except RuntimeError:
                results = None
            runner.run_bad(p, f, lib, shape, inputs=inputs, why="runtime", expected=pattern,
                           arg_override={name: lambda: Buffer(DTYPES[dt], sizes, strides, host=host)},
                           out_override=lambda: runner.out_buffers(p, results) if results else [])
        return run

    def size_msg(n, d, m):
        return rf"expected size {n} in dimension {d}, got {m} "

    cases = {
        "P1": [wrong_output({"x": [5, 7]}, 0, [7, 6], None, size_msg(5, 1, 6)),
               wrong_output({"x": [5, 7]}, 0, [5, 7], None, size_msg(7, 0, 5)),
               wrong_output({"x": [5, 7]}, 0, [7, 5], [1, 7], r"expected stride 1 in dimension 1, got 7 "),
               wrong_output({"x": [5, 7]}, 0, [7, 5], [6, 1], r"expected stride 5 in dimension 0, got 6 "),
               wrong_output({"x": [5, 7]}, 0, [7], None, r"expected rank 2, got 1"),
               wrong_arg({"x": [5, 7]}, "x", "f16", [5, 7], r"argument 0 \(x\): expected dtype f32, got f16"),
               # A row-major argument's strides are checked, the one that is
               # a single size (x[1]) included.
               wrong_arg({"x": [5, 7]}, "x", "f32", [5, 7], r"argument 0 \(x\): expected stride 7 in dimension 0, got 9 ",
                         strides=[9, 1])],
        "P2": [wrong_output({"x": [2, 3, 4, 5]}, 0, [2, 4, 5, 4], None, size_msg(3, 3, 4)),
               wrong_output({"x": [2, 3, 4, 5]}, 0, [2, 3, 4, 5], None, size_msg(4, 1, 3)),
               wrong_arg({"x": [2, 3, 4, 5]}, "x", "f32", [2, 3, 4], r"argument 0 \(x\): expected rank 4, got 3"),
               wrong_arg({"x": [2, 3, 4, 5]}, "x", "f32", [2, 3, 4, 5],
                         r"argument 0 \(x\): expected stride 5 in dimension 2, got 6 ", strides=[60, 20, 6, 1])],
        "P8": [wrong_output({"x": [2, 3, 4, 5, 6]}, 0, [6, 4, 2, 5, 4], None, size_msg(3, 4, 4))],
        "P9": [wrong_output({"x": [2, 3, 2, 3, 2, 3]}, 0, [3, 3, 3, 2, 2, 3], None, size_msg(2, 5, 3))],
        "P10": [wrong_output({"x": [33, 17]}, 0, [17, 34], None, size_msg(33, 1, 34))],
        "P11": [wrong_output({"x": [2, 3, 5, 7]}, 0, [2, 5, 7, 4], None, size_msg(3, 3, 4)),
                wrong_arg({"x": [2, 3, 5, 7]}, "x", "i8", [2, 4, 5, 7], size_msg(3, 1, 4))],
        "C1_to_preserve": [wrong_output({"x": [1, 3, 4, 5]}, 0, [1, 4, 5, 3], [60, 15, 3, 1],
                                        r"expected stride 1 in dimension 2, got 3 "),
                           wrong_output({"x": [1, 3, 4, 5]}, 0, [1, 4, 5, 3], [60, 5, 1, 21],
                                        r"expected stride 20 in dimension 3, got 21 ")],
        "G1": [wrong_output({"x": [4, 9]}, 0, [4, 4], None, size_msg(5, 1, 4)),
               wrong_output({"x": [4, 0]}, 0, [4, 1], None, size_msg(0, 1, 1))],
        "G2": [wrong_output({"x": [1, 7]}, 0, [255, 7], None, size_msg(256, 0, 255))],
        "copy_T": [wrong_arg({"x": [5, 7], "y": [7, 5]}, "y", "f64", [7, 5],
                             r"argument 1 \(y\): expected dtype f32, got f64")],
        "R1": [wrong_output({"x": [5, 7]}, 0, [6], None, size_msg(5, 0, 6)),
               wrong_output({"x": [5, 7]}, 0, [5, 1], None, r"expected rank 1, got 2"),
               wrong_output({"x": [0, 7]}, 0, [1], None, size_msg(0, 0, 1)),
               wrong_arg({"x": [5, 7]}, "x", "f64", [5, 7], r"argument 0 \(x\): expected dtype f32, got f64")],
        "R2": [wrong_output({"x": [5, 7]}, 0, [5], None, size_msg(7, 0, 5))],
        "R3": [wrong_output({"x": [2, 3, 4, 5]}, 0, [3, 2], None, size_msg(2, 0, 3)),
               wrong_output({"x": [2, 3, 4, 5]}, 0, [2, 3], [4, 1], r"expected stride 3 in dimension 0, got 4 ")],
        "R1_f64": [wrong_output({"x": [5, 7]}, 0, [5], [2], r"expected stride 1 in dimension 0, got 2 ")],
        "reduce_sum_outer_f64": [wrong_output({"x": [5, 7]}, 0, [1, 7], [9, 2], r"expected stride 1 in dimension 1, got 2 ")],
        "R4_argmax_i32": [wrong_arg({"x": [5, 7]}, "x", "i32", [5, 7, 1], r"argument 0 \(x\): expected rank 2, got 3")],
        "R5": [wrong_output({"x": [3, 4]}, 0, [1], None, r"expected rank 0, got 1")],
    }
    if cuda:
        host_data = r"data is not device memory \(host pointer\?\)"
        cases["P1"] += [wrong_arg({"x": [5, 7]}, "x", "f32", [5, 7], r"argument 0 \(x\): expected device cuda, got cpu",
                                  host=KDL_CPU),
                        wrong_arg({"x": [5, 7]}, "x", "f32", [5, 7], r"argument 0 \(x\): " + host_data, host=KDL_CUDA),
                        wrong_output({"x": [5, 7]}, 0, [7, 5], None, r"argument 1 \(result0\): " + host_data,
                                     host=KDL_CUDA)]
        cases["copy_T"] += [wrong_arg({"x": [5, 7], "y": [7, 5]}, "y", "f32", [7, 5],
                                      r"argument 1 \(y\): expected device cuda, got cpu", host=KDL_CPU)]
        cases["R1"] += [wrong_output({"x": [5, 7]}, 0, [5], None, r"argument 1 \(result0\): " + host_data,
                                     host=KDL_CUDA)]
    for name, runs in cases.items():
        if name in progs:
            progs[name].extra_bad = runs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layoutc", default="layoutc")
    parser.add_argument("--rt-lib", required=True, help="liblayout_rt.a (built with -fPIC)")
    parser.add_argument("--rt-include", required=True)
    parser.add_argument("--cc", default="cc", help="C compiler (with flags) that links the shared library")
    ex.add_target_arguments(parser)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=320, help="random view chains (default 320)")
    parser.add_argument("--sample", type=int, default=1,
                        help="hand-written programs: the bench cases (R1-R5 too), those with malformed-tensor calls, "
                             "those returning views, the run-time views, and every K-th of the others "
                             "(default 1: all)")
    parser.add_argument("--batch", type=int, default=80, help="functions per module")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--workdir", help="keep modules and libraries here")
    parser.add_argument("--strict", action="store_true", help="count the known limitations as failures")
    parser.add_argument("--min-random", type=int, default=100, help="random chains that must run (default 100)")
    parser.add_argument("--min-bad", type=int, default=30, help="bad calls that must be checked (default 30)")
    parser.add_argument("--min-views", type=int, default=20,
                        help="calls whose result must be reported as a view (default 20)")
    args = parser.parse_args(argv)
    args.layoutc = shutil.which(args.layoutc) or args.layoutc
    # A sanitizer-instrumented library cannot be loaded into python.
    cc, cxx = ([w for w in shlex.split(c) if not w.startswith("-fsanitize")] for c in (args.cc, args.cxx))
    torch.manual_seed(args.seed)
    cuda = args.target == "cuda"
    if cuda and not (args.cuda_include and os.path.isdir(args.cuda_include)):
        parser.error("--target cuda needs --cuda-include (runtime/cuda/include)")

    bench = bench_programs()
    hand = (bench + dtype_programs() + view_ops_programs() + copy_programs() + view_result_programs()
            + runtime_view_programs() + reduction_programs())
    runtime_bad_cases({p.name: p for p in hand}, cuda)
    # --sample: every K-th of the programs other than the bench cases (with
    # R1-R5), those with malformed-tensor calls, those returning views and
    # the run-time views (runtime_view_programs).
    others = [p for p in hand[len(bench):]
              if not (re.fullmatch(r"R\d", p.name) or getattr(p, "extra_bad", None) or p.view_result
                      or p.always)]
    hand = [p for p in hand if p not in others or p in others[::args.sample]]
    randoms = [random_program(i, args.seed) for i in range(args.count)]
    progs = hand + randoms

    tmp = None
    if args.workdir:
        workdir = args.workdir
        os.makedirs(workdir, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory()
        workdir = tmp.name
    runner = Runner(args)
    settings = ex.Settings(args.layoutc, os.path.abspath(args.rt_lib), os.path.abspath(args.rt_include), cc, [], "",
                           600, 0, target=args.target, cxx=cxx)
    if cuda:
        proc = settings.use_cuda(args, workdir, "-fPIC")
        if proc.returncode != 0:
            print(f"FAIL device_cuda.cpp does not compile: {proc.stderr}")
            print("0 passed, 1 failed")
            return 1

    resolve_types(args, progs, workdir)
    skipped = []
    for p in progs:
        if p.status in ("rejected", "failed"):
            if p.random_program and p.status == "rejected":
                skipped.append(p)
            else:
                p.module = "types"
                runner.fail(p, f"layoutc rejects the program: {p.error}\n" + "\n".join(p.text(with_return=False)))

    built = [p for p in progs if p.status == "built"]
    for p in built:
        p.result_dtypes = [DTYPES[dtype_of_type(p.types[r])] for r in p.rets]

    # Code generation: obj (CUDA: the .cu) + header, and explain for the aliases.
    def flags(path):
        return settings.emit_kinds() + ["-o", path[:-5]]

    chunks = [built[i:i + args.batch] for i in range(0, len(built), args.batch)]
    compiled = []
    for ci, chunk in enumerate(chunks):
        done, errors = compile_groups(args.layoutc, chunk, workdir, f"module{ci}", flags, lambda p: p.text(), args.jobs)
        for p, msg in errors:
            key = next((k for k, m in KNOWN_CODEGEN.items() if m in msg), None)
            if key:
                p.status = "known"
                runner.known(p, key, msg)
            elif p.random_program and not crashed(msg):
                p.status = "rejected"
                p.error = msg
                skipped.append(p)
            else:
                p.module = "codegen"
                runner.fail(p, f"layoutc {' '.join(settings.emit_kinds())} rejects it: {msg}\n" + "\n".join(p.text()))
        compiled += done

    def link(item):
        group, _, path = item
        base = path[:-5]
        explain = subprocess.run([args.layoutc, path, "--emit=explain"] + (["--target=cuda"] if cuda else []),
                                 capture_output=True, text=True)
        lib = base + ".so"
        objects = [base + ".o"]
        if cuda:
            # The .cu as host C++ against the emulation, with the device hooks.
            proc = settings.compile_cuda(base, "-fPIC")
            if proc.returncode != 0:
                proc.stderr = f"{base}.cu does not compile as host C++: {proc.stderr}"
                return group, path, base, explain, proc, lib
            objects += [settings.device_obj] + ([settings.emu_lib] if settings.emu_lib else [])
        link_cmd = (cxx if cuda else cc) + ["-shared", "-o", lib] + objects + [
            "-Wl,--whole-archive", args.rt_lib, "-Wl,--no-whole-archive", "-lpthread", "-lm"]
        proc = subprocess.run(link_cmd, capture_output=True, text=True)
        return group, path, base, explain, proc, lib

    # Modules run as soon as they are linked; nvcc builds them meanwhile.
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
    linking = [pool.submit(link, item) for item in compiled]
    nvcc = [pool.submit(settings.nvcc_check, os.path.basename(path[:-5]), path[:-5])
            for _, _, path in compiled if settings.nvcc]

    def culprits(group, stderr):
        """The functions of a module whose generated code the host compiler
        names in its errors (`In function '<f>_raw(...)'`, '<f>__k0...')."""
        named = set(re.findall(r"In function [‘'][^‘’'(]*?\b(\w+)\(", stderr))
        return [p for p in group if any(n in (p.name, p.name + "_raw") or n.startswith(p.name + "__") for n in named)]

    random_ran = 0
    retries = 0
    while linking:
        group, path, base, explain, proc, libpath = linking.pop(0).result()
        for p in group:
            p.module = os.path.basename(path)
        bad = culprits(group, proc.stderr) if "does not compile as host C++" in proc.stderr else []
        if bad and len(bad) < len(group):
            # One function's code breaks the module: it fails, the others
            # are compiled again without it.
            for p in bad:
                runner.fail(p, f"link failed: {proc.stderr.strip()[:800]}")
            retries += 1
            rest = [p for p in group if p not in bad]
            done, errors = compile_groups(args.layoutc, rest, workdir, f"retry{retries}", flags,
                                          lambda p: p.text(), args.jobs)
            for p, msg in errors:
                p.module = "codegen"
                runner.fail(p, f"layoutc {' '.join(settings.emit_kinds())} rejects it: {msg}")
            linking += [pool.submit(link, item) for item in done]
            continue
        if proc.returncode != 0 or explain.returncode != 0:
            for p in group:
                runner.fail(p, f"link or explain failed: {proc.stderr.strip()[:800]} {explain.stderr.strip()[:800]}")
            continue
        info = {fn["name"]: fn for fn in json.loads(explain.stdout)["functions"]}
        with open(base + ".h") as fh:
            header = fh.read()
        lib = (CudaLibrary if cuda else Library)(libpath)
        for p in group:
            p.aliases = header_aliases(header, p)
            p.symbolic = info[p.name].get("symbolic")
            explained = [r["aliases"] for r in info[p.name]["results"]]
            if explained != p.aliases:
                runner.fail(p, f"explain says aliases {explained}, the header {p.aliases}")
            if p.random_program:
                rng = random.Random(f"{args.seed}-{p.name}")
                good, bad = random_shapes(p, rng)
                if len(good) < 3:
                    skipped.append(p)
                    continue
                shapes = []
                for s in good + bad:
                    shape = {"x": s}
                    if len(p.args) > 1:
                        try:
                            v = torch_view(p, {"x": torch.zeros(s, dtype=p.args[0].dt.torch)})
                            shape["y"] = [2] * p.copy_lead + list(v.shape)
                        except (RuntimeError, IndexError, ValueError):
                            shape["y"] = [2] * p.copy_lead + [1] * (len(p.args[1].dims) - p.copy_lead)
                    shapes.append(shape)
                p.shapes = shapes[:len(good)]
                p.bad = [{"shape": s, "why": "pytorch"} for s in shapes[len(good):]]
                random_ran += 1
            runner.run_program(p, lib, header)

    for future in nvcc:
        name, failure = future.result()
        if failure:
            runner.failed += 1
            print(f"FAIL {name}: {failure}")
        else:
            runner.passed += 1
    pool.shutdown()

    n_skipped = len(skipped)
    reasons = collections.Counter(re.sub(r"'[^']*'|\d+", "_", p.error)[:90] if p.error else "fewer than 3 shapes PyTorch accepts"
                                  for p in skipped)
    for why, n in reasons.most_common():
        print(f"skipped {n}: {why}")
    for key, items in sorted(runner.known_bugs.items()):
        funcs = len({item.split(":")[0] for item in items})
        print(f"known limitation {key} ({len(items)} cases in {funcs} functions, e.g. {items[0]}): {KNOWN[key]}")
    print(f"programs: {len(hand)} hand-written, {random_ran} random chains run "
          f"({n_skipped} random chains skipped: rejected by layoutc or without 3 shapes PyTorch accepts); "
          f"{runner.bad_calls} bad calls")
    if random_ran < args.min_random:
        print(f"FAIL too few random chains ran: {random_ran} < {args.min_random}")
        runner.failed += 1
    print(f"{runner.view_reports} calls reported a result as its operand's view (<result>_view), found in that argument with PyTorch's values")
    if runner.view_reports < args.min_views:
        print(f"FAIL too few view reports: {runner.view_reports} < {args.min_views}")
        runner.failed += 1
    print(f"{runner.layout_checks} calls' <function>_layouts checked against the results")
    if runner.layout_checks < args.min_views:
        print(f"FAIL too few <function>_layouts checks: {runner.layout_checks} < {args.min_views}")
        runner.failed += 1
    if cuda:
        print(f"{runner.raw_calls} calls through <function>_raw")
    if runner.bad_calls < args.min_bad:
        print(f"FAIL too few bad calls: {runner.bad_calls} < {args.min_bad}")
        runner.failed += 1
    print(f"{runner.passed} passed, {runner.failed} failed")
    if tmp is not None:
        tmp.cleanup()
    return 1 if runner.failed else 0


if __name__ == "__main__":
    sys.exit(main())
