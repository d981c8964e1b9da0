#!/usr/bin/env python3
"""Execution tests of the code layoutc generates, against PyTorch 1.13.

Every case is one function of a layout program.  The script computes what
the function must produce (its inputs are random; the values of every view
come from test/differential/torch_views.py's model of PyTorch's view
arithmetic, cross-checked against PyTorch's own view ops wherever PyTorch can
express the view; conversions, copies and reductions are PyTorch's), batches
the functions into modules of --batch functions, compiles each module with
`layoutc --emit=obj,header`, links it with a generic C driver (driver.c) and
the runtime, runs every case with num_threads 1 and 2 (and some through the
raw entry point or with NULL options), and compares:

  * copies, conversions, integer reductions, amax/amin/argmax/argmin:
    bit-exact;
  * float sum/mean: |got - ref| <= ulp_out(ref) + max(r, 4 sqrt(n) u) * sum|x|
    (divided by n for mean), ref computed in f64, u the unit roundoff of the
    accumulator (f32 for f16/bf16/f32, f64 for f64), r = 1e-5 (f32) or 1e-13
    (f64), ulp_out one unit in the last place of the output dtype (so f16 and
    bf16 results may be 1 ulp from the correctly rounded f32-accumulated sum);
  * float prod: |got - ref| <= (2n + 4) u |ref| + ulp_out(ref);
  * every run with more threads (or through the raw entry point) must give
    exactly the bytes of the num_threads = 1 run;
  * arguments the function does not write stay bit-identical, written
    arguments change exactly where the written view lies, outputs are
    written only at their elements, and guard bytes around every buffer stay
    untouched;
  * the header: the expected C prototypes of both entry points
    (const-ness included), valid as C++, and the `<fn>_result<N>_sizes /
    _strides / _offset` arrays of view results;
  * `--emit=explain`: which argument each result aliases.

Cases: the CASES.md benchmark cases at small sizes (and a few > 300 KiB so
that kernels split across threads), odd extents, size-0/size-1/rank-0,
negative strides (layout.flip, negative-stride arguments), broadcasts,
stepped slices, all ten dtypes for copies and all 90 conversions,
layout.copy into arguments, every reduction kind over inner/outer/middle/
multiple/all dims with keepdim and strided inputs, and --count random view
chains from torch_views.py's generator, each ended by a contiguous, clone,
reshape, to, copy or reduction.  Random programs layoutc rejects are skipped
(and counted); hand-written ones it rejects fail.

Prints one line per failure (module file:line of the function, the case,
the run, the first mismatching index) and `N passed, M failed`; exits
non-zero on any failure.  Run with the interpreter that sees torch:

  /usr/bin/python3 test/execution/exec_test.py --layoutc build/bin/layoutc \\
      --rt-lib build/runtime/liblayout_rt.a --rt-include runtime/include
"""

import argparse
import collections
import concurrent.futures
import dataclasses
import json
import math
import os
import random
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "differential"))
import torch_views as tv  # noqa: E402  (the view-chain generator and the model)

tv.BAD_FRACTION = 0.0  # random chains here are meant to be legal

GUARD = 64               # bytes around every buffer (driver.c)
INPUT_GUARD_FILL = 0x5A
OUTPUT_FILL = 0xA5
RUN_NAMES = {1: "dlpack threads=1", 2: "dlpack threads=2", 3: "raw threads=2", 4: "dlpack options=NULL"}
ROLE_INPUT, ROLE_WRITTEN, ROLE_OUTPUT = 0, 1, 2


# ---------------------------------------------------------------------------
# Element types.
# ---------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class DType:
    name: str
    torch: torch.dtype
    code: int        # DLPack type code (i1 is {6 (kDLBool), 8, 1}, see runtime entry.h)
    bits: int
    ctype: str       # the raw entry point's C type

    @property
    def size(self) -> int:
        return self.bits // 8

    @property
    def is_float(self) -> bool:
        return self.torch.is_floating_point


DTYPES: Dict[str, DType] = {d.name: d for d in [
    DType("i1", torch.bool, 6, 8, "bool"),
    DType("i8", torch.int8, 0, 8, "int8_t"),
    DType("i16", torch.int16, 0, 16, "int16_t"),
    DType("i32", torch.int32, 0, 32, "int32_t"),
    DType("i64", torch.int64, 0, 64, "int64_t"),
    DType("ui8", torch.uint8, 1, 8, "uint8_t"),
    DType("f16", torch.float16, 2, 16, "uint16_t"),
    DType("bf16", torch.bfloat16, 4, 16, "uint16_t"),
    DType("f32", torch.float32, 2, 32, "float"),
    DType("f64", torch.float64, 2, 64, "double"),
]}
FLOATS = ["f16", "bf16", "f32", "f64"]
INTS = ["i1", "i8", "i16", "i32", "i64", "ui8"]
# Mantissa bits and log2 of the smallest subnormal, for ulp().
MANTISSA = {"f16": (10, -24), "bf16": (7, -133), "f32": (23, -149), "f64": (52, -1074)}
NP_INT = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "ui8": np.uint8}


def make_data(rng: np.random.Generator, dt: DType, n: int, kind: str = "any") -> torch.Tensor:
    """n random storage elements.  kinds: any (floats: mixed magnitudes below
    64 with some zeros, so summation order matters and conversions to every
    integer type stay defined; integers: their full range), unit (floats in
    [-1, 1]), nonneg (floats in [0, 100): conversion to ui8), f32exact
    (f64 values that are f32 values: f64 -> f16/bf16 rounds once in PyTorch),
    small24 (integers below 2^24 in magnitude: int -> f16/bf16 rounds once),
    prod (near +-1), ties (few distinct values)."""
    if dt.name == "i1":
        return torch.from_numpy(rng.integers(0, 2, n).astype(np.bool_))
    if dt.is_float:
        if kind == "prod":
            v = rng.uniform(0.8, 1.25, n) * rng.choice([-1.0, 1.0], n)
        elif kind == "ties":
            v = rng.choice([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0, 3.0], n)
        elif kind == "nonneg":
            v = rng.uniform(0.0, 100.0, n)
        elif kind == "unit":
            v = rng.uniform(-1.0, 1.0, n)
        else:
            v = rng.uniform(-1.0, 1.0, n) * np.exp2(rng.integers(-6, 7, n))
            v[rng.random(n) < 0.08] = 0.0
        t = torch.from_numpy(v)
        if kind == "f32exact" or dt.name != "f64":
            t = t.float()
        return t.to(dt.torch)
    info = np.iinfo(NP_INT[dt.name])
    lo, hi = int(info.min), int(info.max)
    if kind == "prod":
        v = rng.choice([-2, -1, -1, 0, 1, 1, 1, 2], n)
        if dt.name == "ui8":
            v = np.abs(v)
    elif kind == "ties":
        v = rng.integers(max(lo, -3), min(hi, 3) + 1, n)
    else:
        if kind == "small24":
            lo, hi = max(lo, -(1 << 24) + 1), min(hi, (1 << 24) - 1)
        v = rng.integers(lo, hi, n, endpoint=True, dtype=np.int64)
        small = rng.random(n) < 0.3
        v[small] = rng.integers(max(lo, -100), min(hi, 100) + 1, int(small.sum()))
    return torch.from_numpy(np.asarray(v, dtype=np.int64)).to(dt.torch)


def conversion_kind(src: DType, dst: DType) -> str:
    """The data kind under which src -> dst is defined and rounds as PyTorch does."""
    if src.is_float and dst.name == "ui8":
        return "nonneg"
    if src.name == "f64" and dst.name in ("f16", "bf16"):
        return "f32exact"
    if not src.is_float and dst.name in ("f16", "bf16"):
        return "small24"
    return "any"


def ulp(x: torch.Tensor, dt: DType) -> torch.Tensor:
    """One unit in the last place of dtype dt at |x| (x float64)."""
    m, tiny = MANTISSA[dt.name]
    e = torch.floor(torch.log2(x.abs().clamp(min=2.0 ** (tiny + m))))
    return torch.pow(2.0, e - m).clamp(min=2.0 ** tiny)


# ---------------------------------------------------------------------------
# Layout helpers.
# ---------------------------------------------------------------------------

def ints(values) -> str:
    return ", ".join(str(v) for v in values)


def reach(sizes, strides) -> Tuple[int, int]:
    """Lowest and highest element offset a view reaches from its first element."""
    lo = sum(min(0, (s - 1) * st) for s, st in zip(sizes, strides))
    hi = sum(max(0, (s - 1) * st) for s, st in zip(sizes, strides))
    return lo, hi


def indices(l: tv.Layout) -> torch.Tensor:
    """Storage position of every logical index of a view (shape l.sizes)."""
    idx = torch.tensor(l.offset, dtype=torch.int64)
    rank = len(l.sizes)
    for k, (s, st) in enumerate(zip(l.sizes, l.strides)):
        shape = [1] * rank
        shape[k] = s
        idx = idx + (torch.arange(s, dtype=torch.int64) * st).view(shape)
    return idx.expand(tuple(l.sizes)) if rank else idx


def gather(storage: torch.Tensor, l: tv.Layout) -> torch.Tensor:
    return storage[indices(l)]


def type_str(l: tv.Layout, dt: DType) -> str:
    elem = "x".join(str(s) for s in l.sizes) + "x" + dt.name if l.sizes else dt.name
    if l.offset == 0 and tuple(l.strides) == tv.contiguous_strides(l.sizes):
        return f"!layout.tensor<{elem}>"
    return f"!layout.tensor<{elem}, strided<[{ints(l.strides)}], offset: {l.offset}>>"


class Illegal(Exception):
    """A case the language rejects (random programs drop it)."""


class OracleError(Exception):
    """The model and PyTorch disagree on a view's values: a bug of this script."""


def model_with_spy(op: tv.Op, l: tv.Layout):
    """op.model(l), plus the (sizes, strides) of the new storage it allocates, if any."""
    created = []
    original = tv.new_storage

    def spy(sizes, strides):
        created.append((tuple(sizes), tuple(strides)))
        return original(sizes, strides)

    tv.new_storage = spy
    try:
        out = op.model(l)
    except tv.ViewError as e:
        raise Illegal(str(e))
    finally:
        tv.new_storage = original
    return out, (created[0] if created else None)


# ---------------------------------------------------------------------------
# Building functions: MLIR text and expected values together.
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class Val:
    """An SSA value: a view (layout) of a storage whose values are known."""
    name: str
    layout: tv.Layout
    dt: DType
    storage: torch.Tensor            # 1-D, the storage the view reads
    arg: Optional[int]               # index of the argument whose storage it is
    tview: Optional[torch.Tensor]    # the same view through PyTorch's own ops
    is_storage: bool = False
    check: Optional[Tuple[torch.Tensor, torch.Tensor]] = None  # (ref f64, tol) of a float reduction

    def type(self) -> str:
        if self.is_storage:
            return f"!layout.storage<{self.layout.sizes[0]}x{self.dt.name}>"
        return type_str(self.layout, self.dt)


@dataclasses.dataclass
class Arg:
    val: Val
    type: str
    initial: torch.Tensor     # storage contents before the call
    final: torch.Tensor       # expected contents after it
    written: bool = False


class Fn:
    """One function under construction.  Ops append MLIR lines and compute
    their values immediately."""

    def __init__(self, name: str, seed: int, random_program: bool = False, big: bool = False):
        self.name = re.sub(r"\W", "_", name)
        self.rng = np.random.default_rng(seed)
        self.random_program = random_program
        self.big = big
        self.lines: List[str] = []
        self.args: List[Arg] = []
        self.results: List[Val] = []
        self.counter = 0
        self.copied = 0    # elements layout.copy writes
        self.may_reject = False

    # -- arguments --------------------------------------------------------
    def tensor(self, dt, sizes, strides=None, offset=0, kind="any") -> Val:
        dt = DTYPES[dt] if isinstance(dt, str) else dt
        sizes = tuple(sizes)
        strides = tuple(strides) if strides is not None else tv.contiguous_strides(sizes)
        lo, hi = reach(sizes, strides)
        numel = math.prod(sizes)
        assert numel == 0 or offset + lo >= 0, "argument reaches before its storage"
        n = offset + hi + 1 if numel else offset
        data = make_data(self.rng, dt, n, kind)
        layout = tv.Layout(sizes, strides, offset, n, True)
        tview = data.as_strided(sizes, strides, offset) if all(st >= 0 for st in strides) else None
        val = Val(f"%a{len(self.args)}", layout, dt, data, len(self.args), tview)
        self.args.append(Arg(val, val.type(), data.clone(), data.clone()))
        return val

    def storage(self, dt, n, kind="any") -> Val:
        dt = DTYPES[dt] if isinstance(dt, str) else dt
        data = make_data(self.rng, dt, n, kind)
        layout = tv.Layout((n,), (1,), 0, n, True)
        val = Val(f"%a{len(self.args)}", layout, dt, data, len(self.args), data, is_storage=True)
        self.args.append(Arg(val, val.type(), data.clone(), data.clone()))
        return val

    # -- ops ----------------------------------------------------------------
    def _names(self, count: int) -> List[str]:
        self.counter += 1
        if count == 1:
            return [f"%v{self.counter}"]
        return [f"%v{self.counter}_{k}" for k in range(count)]

    def values(self, v: Val) -> torch.Tensor:
        """The logical values of v; where PyTorch's ops could follow the
        chain, they must agree with the model's view."""
        vals = gather(v.storage, v.layout)
        if v.tview is not None:
            if tuple(v.tview.shape) != tuple(v.layout.sizes) or not torch.equal(v.tview, vals):
                raise OracleError(f"{self.name}: model and PyTorch views differ for {v.name}")
        return vals

    def op(self, v: Val, op: tv.Op) -> Val:
        """A view op (or contiguous/clone/reshape/flatten, which may copy)."""
        out, created = model_with_spy(op, v.layout)
        names = self._names(op.results)
        syntax = op.syntax()
        self.lines.append(f"  {', '.join(names)} = layout.{op.name} {v.name}{' ' + syntax if syntax else ''}"
                          f" : {v.type()}")
        tview = None
        if v.tview is not None and not isinstance(op, tv.Flip):
            try:
                tview = op.torch(v.tview)
            except (RuntimeError, IndexError, ValueError):
                tview = None
        if created is None:
            return Val(names[op.pick], out, v.dt, v.storage, v.arg, tview)
        sizes, strides = created
        new = tv.Layout(sizes, strides, 0, tv.storage_extent(sizes, strides), False)
        storage = torch.zeros(new.storage, dtype=v.dt.torch)
        if new.storage:
            storage[indices(new)] = self.values(v)
        return Val(names[op.pick], out, v.dt, storage, None, tview)

    def to(self, v: Val, dt) -> Val:
        dt = DTYPES[dt] if isinstance(dt, str) else dt
        name = self._names(1)[0]
        self.lines.append(f"  {name} = layout.to {v.name} {dt.name} : {v.type()}")
        if dt == v.dt:
            return Val(name, v.layout, v.dt, v.storage, v.arg, v.tview)
        out, created = model_with_spy(tv.Clone(""), v.layout)   # preserve, as clone
        storage = torch.zeros(out.storage, dtype=dt.torch)
        if out.storage:
            storage[indices(out)] = self.values(v).to(dt.torch)
        tview = v.tview.to(dt.torch) if v.tview is not None else None
        return Val(name, out, dt, storage, None, tview)

    def copy(self, src: Val, dst: Val):
        """layout.copy src, dst: dst.copy_(src) into an argument's storage."""
        if dst.arg is None:
            raise Illegal("copy into a value that is not an argument's storage")
        self.lines.append(f"  layout.copy {src.name}, {dst.name} : {src.type()}, {dst.type()}")
        idx = indices(dst.layout).reshape(-1)
        if idx.numel() != torch.unique(idx).numel():
            raise Illegal("the destination overlaps itself")
        vals = self.values(src).to(dst.dt.torch)
        try:
            vals = vals.expand(tuple(dst.layout.sizes)).reshape(-1)
        except RuntimeError as e:
            raise Illegal(f"not broadcastable: {e}")
        arg = self.args[dst.arg]
        if dst.tview is not None and src.arg != dst.arg:
            # PyTorch's copy_ into the real strided view must agree.
            check = arg.final.clone()
            check.as_strided(dst.layout.sizes, dst.layout.strides, dst.layout.offset).copy_(self.values(src))
        else:
            check = None
        arg.final[idx] = vals
        if check is not None and not torch.equal(check, arg.final):
            raise OracleError(f"{self.name}: copy_ and the model's scatter differ")
        arg.written = True
        arg.type = arg.val.type()
        self.copied += idx.numel()

    def reduce(self, v: Val, kind: str, dims: Sequence[int], keepdim: bool = False) -> Val:
        name = self._names(1)[0]
        self.lines.append(f"  {name} = layout.reduce {kind} {v.name} dims [{ints(dims)}]"
                          f"{' keepdim' if keepdim else ''} : {v.type()}")
        expected, out_dt, check = reduce_oracle(self.values(v), v.dt, kind, list(dims), keepdim)
        sizes = tuple(expected.shape)
        layout = tv.Layout(sizes, tv.contiguous_strides(sizes), 0, max(math.prod(sizes), 0), False)
        return Val(name, layout, out_dt, expected.reshape(-1).clone(), None, None, check=check)

    def ret(self, *vals: Val):
        self.results.extend(vals)

    # -- shorthands for hand-written cases ------------------------------------
    def permute(self, v, dims): return self.op(v, tv.Permute(list(dims)))
    def transpose(self, v, a, b): return self.op(v, tv.Transpose(a, b))
    def slice(self, v, dim, start=None, end=None, step=None): return self.op(v, tv.Slice(dim, start, end, step))
    def select(self, v, dim, index): return self.op(v, tv.Select(dim, index))
    def narrow(self, v, dim, start, length): return self.op(v, tv.Narrow(dim, start, length))
    def expand(self, v, sizes): return self.op(v, tv.Expand(list(sizes)))
    def flip(self, v, dims): return self.op(v, tv.Flip(list(dims)))
    def unsqueeze(self, v, dim): return self.op(v, tv.Unsqueeze(dim))
    def squeeze(self, v, dim=None): return self.op(v, tv.Squeeze(dim))
    def view(self, v, shape): return self.op(v, tv.View(list(shape)))
    def reshape(self, v, shape): return self.op(v, tv.Reshape(list(shape)))
    def contiguous(self, v, fmt=""): return self.op(v, tv.Contiguous(fmt))
    def clone(self, v, fmt=""): return self.op(v, tv.Clone(fmt))
    def as_strided(self, v, sizes, strides, offset): return self.op(v, tv.AsStrided(list(sizes), list(strides), offset))
    def diagonal(self, v, offset, d1, d2): return self.op(v, tv.Diagonal(offset, d1, d2))
    def unfold(self, v, dim, size, step): return self.op(v, tv.Unfold(dim, size, step))

    # -- the result -------------------------------------------------------------
    def text(self) -> str:
        args = ", ".join(f"{a.val.name}: {a.type}" for a in self.args)
        types = [v.type() for v in self.results]
        sig = "" if not types else f" -> {types[0]}" if len(types) == 1 else f" -> ({', '.join(types)})"
        ret = "  return" if not types else f"  return {', '.join(v.name for v in self.results)} : {', '.join(types)}"
        return "\n".join([f"func.func @{self.name}({args}){sig} {{", *self.lines, ret, "}"]) + "\n"


def reduce_oracle(vals: torch.Tensor, dt: DType, kind: str, dims: List[int], keepdim: bool):
    """PyTorch's answer for layout.reduce: (expected values, result dtype,
    (ref, tol) for float sum/mean/prod or None for bit-exact results)."""
    rank = vals.dim()
    n_dims = max(rank, 1)
    wrapped = []
    for d in dims:
        if not -n_dims <= d < n_dims:
            raise Illegal("dim out of range")
        wrapped.append(d % n_dims)
    if len(set(wrapped)) != len(wrapped):
        raise Illegal("repeated dim")
    if kind in ("argmax", "argmin") and len(dims) > 1:
        raise Illegal("argmax/argmin take one dim or []")
    if kind == "mean" and not dt.is_float:
        raise Illegal("mean of integers")
    red = sorted(wrapped) if dims else list(range(rank))
    red = [d for d in red if d < rank]
    keep = [d for d in range(rank) if d not in red]
    n = math.prod(vals.shape[d] for d in red)
    if kind in ("amax", "amin", "argmax", "argmin") and n == 0:
        raise Illegal("reduction over an empty dim")
    keep_sizes = [vals.shape[d] for d in keep]
    x = vals.permute(keep + red).reshape(keep_sizes + [n]) if rank else vals.reshape([1])
    if keepdim:
        out_sizes = [1 if d in red else vals.shape[d] for d in range(rank)]
    else:
        out_sizes = keep_sizes
    check = None
    if kind in ("sum", "prod") and not dt.is_float:
        u = x.to(torch.int64).numpy().astype(np.uint64)   # wraps modulo 2^64, as int64 does
        r = u.sum(axis=-1) if kind == "sum" else np.multiply.reduce(u, axis=-1)
        out = torch.from_numpy(np.ascontiguousarray(r).view(np.int64).copy())
        out_dt = DTYPES["i64"]
    elif kind in ("sum", "mean", "prod"):
        acc_u = 2.0 ** -53 if dt.name == "f64" else 2.0 ** -24
        floor = 1e-13 if dt.name == "f64" else 1e-5
        xd = x.double()
        if kind == "prod":
            ref = xd.prod(-1)
            tol = (2 * n + 4) * acc_u * ref.abs() + ulp(ref, dt)
        else:
            ref = xd.sum(-1)
            tol = max(floor, 4 * math.sqrt(max(n, 1)) * acc_u) * xd.abs().sum(-1)
            if kind == "mean":
                ref, tol = ref / n if n else torch.full_like(ref, math.nan), tol / max(n, 1)
            tol = tol + ulp(ref, dt)
        out = ref.to(dt.torch)
        out_dt = dt
        check = (ref.reshape(out_sizes), tol.reshape(out_sizes))
    elif kind in ("amax", "amin"):
        wide = x.double() if dt.is_float else x.to(torch.int64)
        out = (wide.amax(-1) if kind == "amax" else wide.amin(-1)).to(dt.torch)
        out_dt = dt
    else:
        wide = x.double().numpy() if dt.is_float else x.to(torch.int64).numpy()
        out = torch.from_numpy(np.asarray(np.argmax(wide, axis=-1) if kind == "argmax" else np.argmin(wide, axis=-1)))
        # PyTorch must agree (first occurrence of the extreme value).
        torch_idx = (x.double() if dt.is_float else x.to(torch.int64))
        torch_idx = torch_idx.argmax(-1) if kind == "argmax" else torch_idx.argmin(-1)
        if not torch.equal(torch_idx, out.to(torch.int64)):
            raise OracleError("numpy and PyTorch argmax/argmin disagree")
        out = out.to(torch.int64)
        out_dt = DTYPES["i64"]
    if kind not in ("sum", "mean", "prod", "amax", "amin", "argmax", "argmin"):
        raise ValueError(kind)
    return out.reshape(out_sizes), out_dt, check


def within_tolerance(got: torch.Tensor, ref: torch.Tensor, tol: torch.Tensor, dt: DType) -> torch.Tensor:
    """Which elements of a float sum/mean/prod (got, as float64) pass
    reduce_oracle's check (ref, tol) for the result dtype dt."""
    rounded = ref.to(dt.torch).double()   # the correctly rounded result (inf on overflow) is always right
    return ((got - ref).abs() <= tol) | (torch.isnan(got) & torch.isnan(ref)) | (got == ref) | (got == rounded)


# ---------------------------------------------------------------------------
# Cases: what the driver runs and what it must see.
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class Param:
    role: int
    dt: DType
    sizes: Tuple[int, ...]
    strides: Tuple[int, ...]
    storage: int             # elements in the buffer
    first: int               # position of the first element
    flags: int
    initial: bytes = b""     # role != output
    final: bytes = b""       # role != output: expected after the call
    positions: Optional[np.ndarray] = None   # outputs: element positions, logical order
    expected: Optional[torch.Tensor] = None  # outputs: expected values, logical order
    check: Optional[Tuple[torch.Tensor, torch.Tensor]] = None
    result: int = -1         # outputs: result index
    label: str = ""

    @property
    def nbytes(self) -> int:
        return self.storage * self.dt.size


@dataclasses.dataclass
class Case:
    index: int
    name: str
    text: str
    random_program: bool
    big: bool
    params: List[Param]
    views: List[Tuple[int, tv.Layout, int, int]]   # (result index, layout, argument, its first element)
    aliases: List[Optional[int]]               # per result, the argument it views
    raw: bool
    runs: List[int]
    may_reject: bool = False
    module: str = ""
    line: int = 0

    def where(self) -> str:
        return f"{self.module}:{self.line}"


def to_bytes(t: torch.Tensor) -> bytes:
    t = t.contiguous()
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    return t.numpy().tobytes()


def make_case(index: int, fn: Fn) -> Case:
    """Lay out the parameters of a built function (ABI order: arguments, then
    one output per result that is new storage)."""
    params, views, aliases = [], [], []
    for i, a in enumerate(fn.args):
        l = a.val.layout
        row_major = tuple(l.strides) == tv.contiguous_strides(l.sizes)
        flags = (1 if row_major and index % 3 == 0 else 0) | (2 if index % 2 else 0)
        params.append(Param(ROLE_WRITTEN if a.written else ROLE_INPUT, a.val.dt, tuple(l.sizes), tuple(l.strides),
                            a.initial.numel(), l.offset, flags, to_bytes(a.initial), to_bytes(a.final),
                            label=f"argument {i}"))
    for r, v in enumerate(fn.results):
        aliases.append(v.arg)
        if v.arg is not None:
            views.append((r, v.layout, v.arg, fn.args[v.arg].val.layout.offset))
            continue
        l = v.layout
        lo, hi = reach(l.sizes, l.strides)
        numel = math.prod(l.sizes)
        storage = hi - lo + 1 if numel else 0
        rel = tv.Layout(tuple(l.sizes), tuple(l.strides), -lo, storage, False)
        positions = indices(rel).reshape(-1).numpy() if numel else np.zeros(0, dtype=np.int64)
        expected = gather(v.storage, l).reshape(-1)
        row_major = tuple(l.strides) == tv.contiguous_strides(l.sizes)
        flags = (1 if row_major and index % 3 == 0 else 0) | (2 if index % 2 else 0)
        check = None
        if v.check is not None:
            check = (v.check[0].reshape(-1), v.check[1].reshape(-1))
        params.append(Param(ROLE_OUTPUT, v.dt, tuple(l.sizes), tuple(l.strides), storage, -lo, flags,
                            positions=positions, expected=expected, check=check, result=r,
                            label=f"result {r}"))
    raw = index % 3 == 1
    runs = [1, 2] + ([3] if raw else []) + ([4] if index % 7 == 3 else [])
    return Case(index, fn.name, fn.text(), fn.random_program, fn.big, params, views, aliases, raw, runs,
                fn.may_reject)


# ---------------------------------------------------------------------------
# Hand-written cases.
# ---------------------------------------------------------------------------

def seed_of(seed: int, name: str) -> int:
    return seed * 7919 + zlib.crc32(name.encode())


def hand_cases(seed: int) -> List[Fn]:
    fns: List[Fn] = []

    def new(name, big=False) -> Fn:
        f = Fn(name, seed_of(seed, name), big=big)
        fns.append(f)
        return f

    def permute_case(name, dt, sizes, perm, big=False):
        f = new(name, big)
        f.ret(f.contiguous(f.permute(f.tensor(dt, sizes), perm)))

    # CASES.md at small sizes (odd extents), and a few > 300 KiB.
    permute_case("P1_37x45", "f32", [37, 45], [1, 0])
    permute_case("P1_16x32", "f32", [16, 32], [1, 0])
    permute_case("P1_1x45", "f32", [1, 45], [1, 0])
    permute_case("P1_45x1", "f32", [45, 1], [1, 0])
    permute_case("P2_nchw_nhwc", "f32", [2, 5, 7, 9], [0, 2, 3, 1])
    permute_case("P3_nhwc_nchw", "f32", [2, 7, 9, 5], [0, 3, 1, 2])
    permute_case("P4", "f32", [7, 9, 11], [2, 1, 0])
    permute_case("P5_batched", "f32", [3, 17, 19], [0, 2, 1])
    permute_case("P6_inner_kept", "f32", [9, 7, 13], [1, 0, 2])
    permute_case("P7", "f32", [3, 5, 4, 7], [3, 2, 1, 0])
    permute_case("P8", "f32", [3, 2, 5, 2, 3], [4, 2, 0, 3, 1])
    permute_case("P9", "f32", [2, 3, 2, 3, 2, 3], [5, 3, 1, 0, 2, 4])
    permute_case("P10_f16", "f16", [33, 65], [1, 0])
    permute_case("P11_i8", "i8", [2, 3, 17, 19], [0, 2, 3, 1])
    # Destination or source rows shorter than the tile: narrower square
    # tiles (4, 2) with remainders.
    permute_case("P9_narrow", "f32", [8, 8, 8, 4, 4, 8], [5, 3, 1, 0, 2, 4])
    permute_case("narrow_b5_f32", "f32", [5, 9, 37], [2, 1, 0])
    permute_case("narrow_b3_f16", "f16", [3, 7, 70], [2, 1, 0])
    permute_case("narrow_b6_i8", "i8", [6, 5, 40], [2, 1, 0])
    permute_case("narrow_b3_f64", "f64", [3, 4, 9], [2, 1, 0])
    permute_case("narrow_a3_f32", "f32", [40, 6, 3], [2, 0, 1])
    permute_case("narrow_a3_2d_f32", "f32", [41, 3], [1, 0])
    # Destination rows past the last full tile by a square or more: single
    # squares, then scalars (63 = 48 + 8 + 7 floats, 61 halves = 32 + 24 + 5,
    # 120 bytes = 64 + 56, 15 doubles = 8 + 4 + 3).
    permute_case("squares_c63_f32", "f32", [2, 63, 5, 7], [0, 2, 3, 1])
    permute_case("squares_f16", "f16", [61, 70], [1, 0])
    permute_case("squares_i8", "i8", [120, 33], [1, 0])
    permute_case("squares_f64", "f64", [15, 9], [1, 0])
    # Squares of 8-byte rows go through pairs of rows in 16-byte vectors
    # (f16 squares narrowed to 4, i8 squares of 8); tiles along b first
    # (rowsFirst) with a split a, whose rows past the last wide tile take
    # the narrow tiles only.
    permute_case("paired_f16_n4", "f16", [6, 3, 50], [2, 1, 0])
    permute_case("rowsfirst_split_i8", "i8", [82, 70, 68], [2, 0, 1], big=True)
    permute_case("P1_big", "f32", [300, 301], [1, 0], big=True)
    permute_case("P2_big", "f32", [2, 33, 40, 41], [0, 2, 3, 1], big=True)
    permute_case("P10_big_f16", "f16", [450, 401], [1, 0], big=True)
    permute_case("P11_big_i8", "i8", [2, 3, 333, 335], [0, 2, 3, 1], big=True)
    for name, sizes, big in [("C1", [2, 5, 7, 9], False), ("C1_big", [2, 24, 47, 49], True)]:
        f = new(name + "_to_contig", big)
        f.ret(f.contiguous(f.to(f.permute(f.tensor("f32", sizes), [0, 2, 3, 1]), "f16")))
        f = new(name + "_contig_to", big)
        f.ret(f.to(f.contiguous(f.permute(f.tensor("f32", sizes), [0, 2, 3, 1])), "f16"))
    for name, sizes, big in [("G1", [37, 45], False), ("G1_big", [300, 601], True)]:
        f = new(name, big)
        f.ret(f.contiguous(f.slice(f.tensor("f32", sizes), 1, None, None, 2)))
    for name, n, big in [("G2", 45, False), ("G2_big", 401, True)]:
        f = new(name, big)
        f.ret(f.contiguous(f.expand(f.tensor("f32", [1, n]), [n - 8, n])))
    for name, sizes, big in [("R1", [37, 45], False), ("R1_big", [600, 257], True)]:
        f = new(name, big)
        f.ret(f.reduce(f.tensor("f32", sizes), "sum", [1]))
    for name, sizes, big in [("R2", [37, 45], False), ("R2_big", [601, 255], True)]:
        f = new(name, big)
        f.ret(f.reduce(f.tensor("f32", sizes), "sum", [0]))
    for name, sizes, big in [("R3", [2, 5, 7, 9], False), ("R3_big", [4, 32, 33, 35], True)]:
        f = new(name, big)
        f.ret(f.reduce(f.tensor("f32", sizes), "sum", [2, 3]))
    for name, sizes, big in [("R4", [37, 45], False), ("R4_big", [390, 397], True)]:
        f = new(name, big)
        f.ret(f.reduce(f.transpose(f.tensor("f32", sizes), 0, 1), "amax", [1]))
    for name, sizes, big in [("R5", [45, 37], False), ("R5_big", [600, 531], True)]:
        f = new(name, big)
        f.ret(f.reduce(f.tensor("f16", sizes, kind="unit"), "sum", []))
    f = new("R1_big_argmax", True)
    f.ret(f.reduce(f.tensor("f32", [513, 301], kind="ties"), "argmax", [1]))
    f = new("R2_big_mean_f64", True)
    f.ret(f.reduce(f.tensor("f64", [301, 257]), "mean", [0], keepdim=True))
    f = new("flip_big", True)
    f.ret(f.contiguous(f.flip(f.tensor("f32", [311, 307]), [0, 1])))
    f = new("convert_big_bf16", True)
    f.ret(f.to(f.tensor("f32", [403, 397]), "bf16"))

    # Copies of every dtype: transposed, stepped 3-D slice (clone preserve), flip.
    for dt in DTYPES:
        f = new(f"copy_T_{dt}")
        f.ret(f.contiguous(f.transpose(f.tensor(dt, [13, 19]), 0, 1)))
        f = new(f"clone_sliced_{dt}")
        x = f.tensor(dt, [5, 9, 11])
        f.ret(f.clone(f.slice(f.slice(x, 2, 1, None, 3), 0, None, None, 2)))
        f = new(f"copy_flip_{dt}")
        f.ret(f.contiguous(f.flip(f.tensor(dt, [6, 7, 5]), [1])))

    # Every conversion, from strided views.
    for i, (src, dst) in enumerate((s, d) for s in DTYPES for d in DTYPES if s != d):
        f = new(f"to_{src}_{dst}")
        kind = conversion_kind(DTYPES[src], DTYPES[dst])
        form = i % 3
        if form == 0:     # permuted dense view: preserved strides
            f.ret(f.to(f.permute(f.tensor(src, [5, 3, 7], kind=kind), [2, 0, 1]), dst))
        elif form == 1:   # converted and made contiguous (fused)
            f.ret(f.contiguous(f.to(f.transpose(f.tensor(src, [9, 11], kind=kind), 0, 1), dst)))
        else:             # stepped slice: dense strides in the operand's order
            f.ret(f.to(f.slice(f.tensor(src, [7, 13], kind=kind), 1, 1, None, 2), dst))
    # Every conversion again on a contiguous operand of 323 elements: the
    # vectorized (convert+memcpy) loop with a remainder.
    for src, dst in ((s, d) for s in DTYPES for d in DTYPES if s != d):
        f = new(f"to_{src}_{dst}_contig")
        f.ret(f.to(f.tensor(src, [17, 19], kind=conversion_kind(DTYPES[src], DTYPES[dst])), dst))
    f = new("copy_ui8_into_i1_contig")
    x = f.tensor("i1", [31, 57])
    f.copy(f.tensor("ui8", [31, 57]), x)
    f = new("to_same_dtype_view")
    f.ret(f.to(f.transpose(f.tensor("f32", [4, 6]), 0, 1), "f32"))

    # Negative strides.
    f = new("flip0")
    f.ret(f.contiguous(f.flip(f.tensor("f32", [5, 7]), [0])))
    f = new("flip1")
    f.ret(f.contiguous(f.flip(f.tensor("f32", [5, 7]), [1])))
    f = new("flip_both_T")
    f.ret(f.contiguous(f.transpose(f.flip(f.tensor("f32", [9, 17]), [0, 1]), 0, 1)))
    f = new("flip_middle")
    f.ret(f.contiguous(f.flip(f.tensor("f64", [3, 5, 7]), [-2])))
    f = new("flip_slice_step")
    f.ret(f.contiguous(f.slice(f.flip(f.tensor("i32", [23, 6]), [0]), 0, 1, None, 3)))
    f = new("flip_sum_inner")
    f.ret(f.reduce(f.flip(f.tensor("f32", [6, 37]), [1]), "sum", [1]))
    f = new("flip_argmax")
    f.ret(f.reduce(f.flip(f.tensor("i16", [6, 37], kind="ties"), [1]), "argmax", [1]))
    f = new("flip_to_f16")
    f.ret(f.to(f.flip(f.tensor("f32", [5, 7]), [0]), "f16"))
    f = new("flip_clone_preserve")
    f.ret(f.clone(f.flip(f.tensor("f32", [5, 7]), [1])))
    f = new("flip_empty")
    f.ret(f.contiguous(f.flip(f.tensor("f32", [0, 7]), [0, 1])))
    f = new("arg_negative_stride")
    f.ret(f.contiguous(f.tensor("f32", [5, 7], strides=[-7, 1], offset=28)))
    f = new("arg_negative_stride_sum")
    f.ret(f.reduce(f.tensor("f64", [5, 7], strides=[1, -5], offset=30), "sum", [0]))
    f = new("arg_strided_offset")
    f.ret(f.contiguous(f.tensor("f32", [4, 6], strides=[1, 9], offset=5)))
    f = new("arg_gapped_mean")
    f.ret(f.reduce(f.tensor("bf16", [4, 6], strides=[13, 2], offset=3), "mean", [1]))
    # as_strided's offset counts from the argument's storage, before its
    # own offset.
    f = new("as_strided_of_offset_arg")
    f.ret(f.contiguous(f.as_strided(f.tensor("f32", [4, 6], strides=[1, 9], offset=5), [3, 4], [2, 7], 1)))
    # A reshape of an argument with an offset that views it for some sizes
    # only (a dim of size 1), read by a conversion.
    f = new("reshape_of_offset_arg")
    f.ret(f.to(f.reshape(f.transpose(f.tensor("f32", [1, 6], strides=[9, 1], offset=5), 0, 1), [6]), "f64"))

    # Transposes whose a spans more than two panels (2048 rows each) and
    # whose destination rows are not whole lines: the run-time-extent tiles
    # go panel by panel.
    f = new("transpose_panels_f32")
    f.ret(f.contiguous(f.transpose(f.tensor("f32", [20, 4111]), 0, 1)))
    f = new("transpose_panels_f16_from_f32")
    f.ret(f.to(f.contiguous(f.transpose(f.tensor("f32", [37, 4500]), 0, 1)), "f16"))

    # Slices with steps, select, narrow, diagonal, unfold.
    f = new("slice_steps_2d")
    f.ret(f.contiguous(f.slice(f.slice(f.tensor("f32", [31, 29]), 0, 1, 30, 3), 1, -20, None, 4)))
    f = new("slice_step_inner_i16")
    f.ret(f.contiguous(f.slice(f.tensor("i16", [3, 50]), 1, 3, None, 5)))
    f = new("select_narrow")
    f.ret(f.contiguous(f.narrow(f.select(f.tensor("f32", [4, 9, 10]), 1, -2), 1, 2, 7)))
    f = new("diagonal")
    f.ret(f.contiguous(f.diagonal(f.tensor("f32", [6, 7]), 1, 0, 1)))
    f = new("unfold_overlapping")
    f.ret(f.contiguous(f.unfold(f.tensor("f32", [23]), 0, 5, 2)))
    f = new("unfold_sum")
    f.ret(f.reduce(f.unfold(f.tensor("i32", [4, 19]), 1, 4, 3), "sum", [2]))

    # Size 0, size 1, rank 0.
    f = new("empty_T")
    f.ret(f.contiguous(f.transpose(f.tensor("f32", [0, 5]), 0, 1)))
    f = new("empty_clone")
    f.ret(f.clone(f.tensor("f32", [3, 0, 4])))
    f = new("empty_sum_to_zeros")
    f.ret(f.reduce(f.tensor("f32", [5, 0]), "sum", [1]))
    f = new("empty_prod_to_ones")
    f.ret(f.reduce(f.tensor("i32", [5, 0]), "prod", [1]))
    f = new("empty_mean_nan")
    f.ret(f.reduce(f.tensor("f32", [4, 0]), "mean", [1]))
    f = new("empty_result_sum")
    f.ret(f.reduce(f.tensor("f32", [0, 5]), "sum", [1]))
    f = new("empty_amax_kept")
    f.ret(f.reduce(f.tensor("f32", [0, 5]), "amax", [1]))
    f = new("empty_to")
    f.ret(f.to(f.tensor("f32", [2, 0]), "i64"))
    f = new("ones_T")
    f.ret(f.contiguous(f.transpose(f.tensor("f32", [1, 1, 1]), 0, 2)))
    f = new("size1_dims_copy")
    f.ret(f.contiguous(f.permute(f.tensor("f32", [1, 7, 1, 5]), [3, 2, 1, 0])))
    f = new("rank0_clone")
    f.ret(f.clone(f.tensor("f64", [])))
    f = new("rank0_to")
    f.ret(f.to(f.tensor("f32", []), "bf16"))
    f = new("rank0_sum")
    f.ret(f.reduce(f.tensor("i8", []), "sum", []))
    f = new("rank0_argmax_keep")
    f.ret(f.reduce(f.tensor("f32", []), "argmax", [], keepdim=True))
    f = new("select_to_rank0")
    f.ret(f.contiguous(f.select(f.select(f.tensor("f32", [3, 4]), 0, 2), 0, 1)))
    f = new("len1_sum")
    f.ret(f.reduce(f.tensor("f32", [7, 1]), "sum", [1]))

    # Broadcasts.
    f = new("expand_rows")
    f.ret(f.contiguous(f.expand(f.tensor("f32", [1, 13]), [11, 13])))
    f = new("expand_cols")
    f.ret(f.contiguous(f.expand(f.tensor("i64", [9, 1]), [9, 17])))
    f = new("expand_new_dims")
    f.ret(f.contiguous(f.expand(f.tensor("f16", [5]), [3, 4, 5])))
    f = new("expand_scalar")
    f.ret(f.contiguous(f.expand(f.tensor("i8", []), [6, 7])))
    f = new("expand_to_f32")
    f.ret(f.to(f.expand(f.tensor("f16", [1, 7]), [5, 7]), "f32"))
    f = new("expand_sum_broadcast_dim")
    f.ret(f.reduce(f.expand(f.tensor("f32", [1, 7]), [33, 7]), "sum", [0]))
    f = new("expand_argmin_ties")
    f.ret(f.reduce(f.expand(f.tensor("i32", [5, 1]), [5, 9]), "argmin", [1]))

    # layout.copy into arguments.
    f = new("copy_into_stepped")
    x = f.tensor("f32", [4, 9])
    f.copy(f.tensor("f32", [4, 5]), f.slice(x, 1, None, None, 2))
    f = new("copy_into_transposed_convert")
    x = f.tensor("f32", [6, 5])
    f.copy(f.tensor("i32", [5, 6]), f.transpose(x, 0, 1))
    f = new("copy_broadcast_row")
    x = f.tensor("f64", [7, 5])
    f.copy(f.tensor("f64", [5]), f.narrow(x, 0, 1, 4))
    f = new("copy_into_flipped")
    x = f.tensor("i16", [5, 8])
    f.copy(f.tensor("i16", [5, 8]), f.flip(x, [0, 1]))
    f = new("copy_within_arg")
    x = f.tensor("f32", [4, 6])
    f.copy(f.select(x, 0, 1), f.select(x, 0, 3))
    f = new("copy_into_storage")
    s = f.storage("f32", 40)
    f.copy(f.tensor("f32", [3, 4]), f.as_strided(s, [3, 4], [1, 5], 7))
    f = new("copy_f32_to_f16_view")
    x = f.tensor("f16", [3, 10])
    f.copy(f.tensor("f32", [3, 5]), f.slice(x, 1, 1, None, 2))
    f = new("copy_f32_to_bf16_T")
    x = f.tensor("bf16", [7, 6])
    f.copy(f.tensor("f32", [6, 7]), f.transpose(x, 0, 1))
    f = new("copy_int_to_bool")
    x = f.tensor("i1", [6, 6])
    f.copy(f.tensor("i32", [6, 3], kind="ties"), f.slice(x, 1, None, None, 2))
    f = new("copy_bool_to_f32_diag")
    x = f.tensor("f32", [6, 6])
    f.copy(f.tensor("i1", [6]), f.diagonal(x, 0, 0, 1))
    f = new("copy_scalar_fill")
    x = f.tensor("i64", [5, 7])
    f.copy(f.tensor("i64", []), f.slice(f.slice(x, 0, 1, 4), 1, 2, 6))
    f = new("copy_out_of_chain")
    x = f.tensor("f32", [6, 9])
    y = f.tensor("f64", [9, 3])
    f.copy(f.slice(f.transpose(x, 0, 1), 1, None, None, 2), y)
    f = new("copy_two_args_written")
    x = f.tensor("f32", [4, 4])
    y = f.tensor("i8", [4, 4])
    z = f.tensor("f32", [4])
    f.copy(z, f.select(x, 1, 2))
    f.copy(z, f.select(y, 0, 0))
    f = new("copy_into_empty")
    x = f.tensor("f32", [3, 4])
    f.copy(f.tensor("f32", [0, 4]), f.narrow(x, 0, 1, 0))

    # Reductions: every kind over inner, outer, middle, multiple, all dims,
    # keepdim, transposed and strided inputs, across dtypes.
    patterns = [
        ("inner", [5, 13], None, [1], False),
        ("outer", [13, 5], None, [0], False),
        ("middle", [3, 11, 5], None, [1], False),
        ("multi", [3, 4, 5, 6], None, [0, 2], False),
        ("all", [6, 7], None, [], False),
        ("keep_inner", [5, 13], None, [-1], True),
        ("keep_all", [4, 5], None, [], True),
        ("T_inner", [9, 7], "T", [1], False),
        ("T_outer_keep", [9, 7], "T", [0], True),
        ("stepped_multi", [8, 5, 9], "step", [1, 2], False),
        ("perm_middle", [3, 5, 7], "perm", [1], False),
        ("neg_last_two", [4, 5, 6], None, [-1, -2], True),
    ]
    kind_dtypes = {
        "sum": list(DTYPES),
        "mean": FLOATS,
        "prod": ["f32", "f64", "i32", "i64", "f16", "i8", "bf16", "ui8"],
        "amax": list(DTYPES),
        "amin": list(DTYPES),
        "argmax": list(DTYPES),
        "argmin": list(DTYPES),
    }
    for kind, dts in kind_dtypes.items():
        for i, (pname, sizes, form, dims, keep) in enumerate(patterns):
            if kind in ("argmax", "argmin") and len(dims) > 1:
                continue
            dt = dts[i % len(dts)]
            data_kind = "prod" if kind == "prod" else "ties" if kind.startswith("arg") and i % 2 else "any"
            if kind == "prod" and dims == [] or kind == "prod" and pname == "multi":
                sizes = [min(s, 3) for s in sizes]   # keep products short
            f = new(f"reduce_{kind}_{pname}_{dt}")
            x = f.tensor(dt, sizes, kind=data_kind)
            if form == "T":
                x = f.transpose(x, 0, 1)
            elif form == "step":
                x = f.slice(f.slice(x, 0, 1, None, 2), 2, None, None, 3)
            elif form == "perm":
                x = f.permute(x, [2, 0, 1])
            f.ret(f.reduce(x, kind, dims, keepdim=keep))
    for kind in ["argmax", "argmin"]:
        f = new(f"reduce_{kind}_all_keep_ties")
        f.ret(f.reduce(f.tensor("i32", [4, 6], kind="ties"), kind, [], keepdim=True))
    f = new("reduce_sum_i64_wraps")
    f.ret(f.reduce(f.tensor("i64", [3, 40]), "sum", [1]))
    f = new("reduce_sum_bool")
    f.ret(f.reduce(f.tensor("i1", [7, 9]), "sum", [0]))

    # Several results, views of arguments, views of copies.
    f = new("two_results_view_and_copy")
    x = f.tensor("f32", [3, 4])
    t = f.transpose(x, 0, 1)
    f.ret(t, f.contiguous(t))
    f = new("two_copies")
    x = f.tensor("f32", [5, 6])
    f.ret(f.reduce(x, "sum", [0]), f.contiguous(f.transpose(x, 0, 1)))
    f = new("view_result_of_storage")
    s = f.storage("f32", 30)
    f.ret(f.as_strided(s, [4, 3], [1, 5], 2))
    f = new("view_of_a_copy")
    f.may_reject = True   # docs/abi.md does not say whether such an output is supported
    x = f.tensor("f32", [5, 6])
    f.ret(f.select(f.contiguous(f.transpose(x, 0, 1)), 0, 2))
    f = new("reshape_copy")
    f.ret(f.reshape(f.transpose(f.tensor("f32", [4, 6]), 0, 1), [3, 8]))
    f = new("reshape_view")
    f.ret(f.reshape(f.tensor("f32", [4, 6]), [2, 12]))
    f = new("clone_channels_last")
    f.ret(f.clone(f.tensor("f32", [2, 3, 4, 5]), "channels_last"))
    f = new("contiguous_channels_last_3d")
    f.ret(f.contiguous(f.tensor("f32", [2, 3, 2, 4, 5]), "channels_last_3d"))
    return fns


# ---------------------------------------------------------------------------
# Random programs: torch_views.py's view chains, ended by an op that runs.
# ---------------------------------------------------------------------------

TERMINALS = {"contiguous": 2.0, "clone": 1.5, "reshape": 1.5, "to": 2.0, "copy_into": 1.5,
             "copy_out": 1.0, "reduce": 3.0}


def random_fn(seed: int, index: int, attempt: int) -> Optional[Fn]:
    """Random program `index` (None when the draw is illegal; the caller redraws)."""
    rng = random.Random((seed * 1_000_003 + index) * 131 + attempt + 17)
    program = tv.generate_program(rng)
    l = program.arg()
    for op in program.ops:
        try:
            l = op.model(l)
        except tv.ViewError:
            return None
    dt = DTYPES[rng.choice(list(DTYPES))]
    terminal = rng.choices(list(TERMINALS), list(TERMINALS.values()))[0]
    dt2 = DTYPES[rng.choice([d for d in DTYPES if d != dt.name])]
    kind = "any"
    reduce_kind = None
    if terminal in ("to", "copy_out"):
        kind = conversion_kind(dt, dt2)
    elif terminal == "reduce":
        kinds = ["sum", "prod", "amax", "amin", "argmax", "argmin"] + (["mean"] if dt.is_float else [])
        reduce_kind = rng.choice(kinds)
        kind = "prod" if reduce_kind == "prod" else "ties" if rng.random() < 0.3 else "any"
    fn = Fn(f"r{index}", seed_of(seed, f"r{index}.{attempt}"), random_program=True)
    try:
        x = (fn.storage(dt, program.storage, kind) if program.storage is not None
             else fn.tensor(dt, program.arg_sizes, kind=kind))
        v = x
        for op in program.ops:
            v = fn.op(v, op)
        l = v.layout
        if terminal == "contiguous":
            fmt = {4: "channels_last", 5: "channels_last_3d"}.get(l.rank, "") if rng.random() < 0.4 else ""
            v = fn.contiguous(v, fmt)
        elif terminal == "clone":
            fmt = rng.choice(["", "contiguous"] + (["channels_last"] if l.rank == 4 else []))
            v = fn.clone(v, fmt)
        elif terminal == "reshape":
            v = fn.reshape(v, tv.reshape_target(rng, l.sizes))
        elif terminal == "to":
            v = fn.to(v, dt2)
        elif terminal == "copy_into":
            if v.arg is None:
                return None
            src_sizes = list(l.sizes)
            if src_sizes and rng.random() < 0.3:
                src_sizes = src_sizes[rng.randint(1, len(src_sizes)):]
            src_sizes = [1 if s > 1 and rng.random() < 0.2 else s for s in src_sizes]
            y = fn.tensor(dt2, src_sizes, kind=conversion_kind(dt2, dt))
            fn.copy(y, v)
            v = None
        elif terminal == "copy_out":
            sizes = list(l.sizes)
            if len(sizes) >= 2 and rng.random() < 0.5:  # a transposed destination
                strides = list(tv.contiguous_strides(sizes[::-1]))[::-1]
                y = fn.tensor(dt2, sizes, strides=strides)
            else:
                y = fn.tensor(dt2, sizes)
            fn.copy(v, y)
            v = None
        else:
            if reduce_kind in ("argmax", "argmin"):
                dims = [] if l.rank == 0 or rng.random() < 0.3 else [tv.rand_dim(rng, l.rank)]
            else:
                count = rng.randint(0, max(l.rank, 0))
                dims = rng.sample(range(l.rank), count) if l.rank else rng.choice([[], [0], [-1]])
                dims = [d - l.rank if l.rank and rng.random() < 0.3 else d for d in dims]
            v = fn.reduce(v, reduce_kind, dims, keepdim=rng.random() < 0.3)
        if v is not None:
            fn.ret(v)
    except Illegal:
        return None
    moved = fn.copied + sum(math.prod(r.layout.sizes) for r in fn.results if r.arg is None)
    if moved == 0 and rng.random() < 0.8:
        return None   # mostly programs that move data: redraw
    return fn


def random_large_fn(seed: int, index: int, attempt: int) -> Optional[Fn]:
    """Random program `index` of the second family: a few thousand elements
    (one in eight > 300 KiB) with odd extents, scrambled by permutes,
    stepped slices, flips and broadcasts, then copied, converted or reduced:
    the vector remainders, transpose tiles and thread splits the small
    chains of torch_views.py never reach."""
    rng = random.Random((seed * 1_000_033 + index) * 257 + attempt + 5)
    big = index % 8 == 7
    dt = DTYPES[rng.choice(list(DTYPES))]
    rank = rng.choice([1, 2, 2, 3, 3, 3, 4, 4])
    budget = rng.randint(400_000, 900_000) // dt.size if big else rng.randint(200, 6000)
    sizes = [1] * rank
    while math.prod(sizes) * 2 <= budget:   # grow random dims to the budget, odd sizes favoured
        d = rng.randrange(rank)
        sizes[d] = sizes[d] * 2 + rng.choice([1, 1, 1, 3, -1]) if sizes[d] > 1 else rng.randint(2, 9)
        sizes[d] = max(sizes[d], 1)
    terminal = rng.choices(["contiguous", "clone", "to", "reduce", "copy_out"], [3, 1, 2, 3, 1])[0]
    dt2 = DTYPES[rng.choice([d for d in DTYPES if d != dt.name])]
    kind, reduce_kind = "any", None
    if terminal in ("to", "copy_out"):
        kind = conversion_kind(dt, dt2)
    elif terminal == "reduce":
        reduce_kind = rng.choice(["sum", "sum", "amax", "amin", "argmax", "argmin"] +
                                 (["mean", "sum"] if dt.is_float else []) + (["prod"] if not big else []))
        kind = "prod" if reduce_kind == "prod" else "ties" if rng.random() < 0.3 else \
            "unit" if dt.name in ("f16", "bf16") and reduce_kind in ("sum", "mean") else "any"
    fn = Fn(f"q{index}", seed_of(seed, f"q{index}.{attempt}"), random_program=True, big=big)
    try:
        if rng.random() < 0.25 and rank >= 2:   # a permuted argument type
            order = rng.sample(range(rank), rank)
            dense = tv.contiguous_strides([sizes[d] for d in order])
            strides = [0] * rank
            for d, st in zip(order, dense):
                strides[d] = st
            v = fn.tensor(dt, sizes, strides=strides, kind=kind)
        else:
            v = fn.tensor(dt, sizes, kind=kind)
        for _ in range(rng.randint(1, 3)):
            r = v.layout.rank
            choice = rng.choice(["permute", "permute", "slice", "flip", "expand", "transpose"])
            if choice == "permute" and r >= 2:
                v = fn.permute(v, rng.sample(range(r), r))
            elif choice == "transpose" and r >= 2:
                v = fn.transpose(v, *rng.sample(range(r), 2))
            elif choice == "slice" and r >= 1:
                d = rng.randrange(r)
                n = v.layout.sizes[d]
                v = fn.slice(v, d, rng.randint(0, max(n // 4, 0)) or None, None, rng.choice([1, 2, 3, 5]))
            elif choice == "flip" and r >= 1:
                v = fn.flip(v, rng.sample(range(r), rng.randint(1, r)))
            elif choice == "expand" and r <= 3 and math.prod(v.layout.sizes) * 8 <= budget:
                d = rng.randint(0, r)
                v = fn.expand(fn.unsqueeze(v, d), [rng.randint(2, 7) if i == d else -1 for i in range(r + 1)])
        l = v.layout
        if terminal == "contiguous":
            v = fn.contiguous(v, "channels_last" if l.rank == 4 and rng.random() < 0.3 else "")
        elif terminal == "clone":
            v = fn.clone(v, rng.choice(["", "contiguous"]))
        elif terminal == "to":
            v = fn.to(v, dt2)
        elif terminal == "copy_out":
            y = fn.tensor(dt2, list(l.sizes))
            fn.copy(v, y)
            v = None
        else:
            if reduce_kind in ("argmax", "argmin"):
                dims = [rng.randrange(l.rank)] if l.rank and rng.random() < 0.8 else []
            else:
                dims = rng.sample(range(l.rank), rng.randint(1, l.rank)) if l.rank and rng.random() < 0.85 else []
            if reduce_kind == "prod":
                dims = [d for d in dims if l.sizes[d] <= 40][:1] or [min(range(l.rank), key=lambda d: l.sizes[d])]
            v = fn.reduce(v, reduce_kind, dims, keepdim=rng.random() < 0.3)
        if v is not None:
            fn.ret(v)
    except Illegal:
        return None
    return fn


# ---------------------------------------------------------------------------
# Running layoutc, the C compiler and the driver.
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class Settings:
    layoutc: str
    rt_lib: str
    rt_include: str
    cc: List[str]
    layoutc_flags: List[str]
    driver_obj: str
    timeout: int
    show: int
    explain_only: bool = False
    # --target cuda: the CUDA launchers, built as host C++ against the
    # emulation of runtime/cuda/ (and, with nvcc set, also by nvcc).
    target: str = "cpu"
    cxx: List[str] = dataclasses.field(default_factory=lambda: ["c++"])
    cuda_include: str = ""
    emu_lib: str = ""
    nvcc: str = ""
    cuda_archs: Tuple[str, ...] = ("sm_80", "sm_90")
    device_obj: str = ""

    @property
    def cuda(self) -> bool:
        return self.target == "cuda"

    def includes(self, *dirs: str) -> List[str]:
        out = []
        for d in list(dirs) + [self.rt_include] + ([self.cuda_include] if self.cuda else []):
            out += ["-I", d]
        return out

    def emit_kinds(self) -> List[str]:
        if self.cuda:
            return ["--target=cuda", "--emit=cuda,header"]
        return ["--emit=obj,header"]

    def use_cuda(self, args, workdir: str, *flags: str) -> subprocess.CompletedProcess:
        """--target cuda: the CUDA settings of the command line (add_target_arguments),
        and device_cuda.cpp (the driver's device hooks) built into workdir with `flags`."""
        self.cuda_include = os.path.abspath(args.cuda_include)
        self.emu_lib = os.path.abspath(args.cuda_emu_lib) if args.cuda_emu_lib else ""
        self.nvcc = args.nvcc or ""
        self.cuda_archs = tuple(a for a in args.cuda_arch.split(",") if a)
        self.device_obj = os.path.join(workdir, "device_cuda.o")
        return run(self.cxx + ["-std=c++17", "-O1", "-Wall", *flags, "-c", os.path.join(HERE, "device_cuda.cpp"),
                   "-o", self.device_obj] + self.includes(HERE), self.timeout)

    def compile_cuda(self, base: str, *flags: str) -> subprocess.CompletedProcess:
        """The generated base.cu as host C++ against the CUDA emulation (base.o)."""
        return run(self.cxx + ["-std=c++17", "-O1", *flags, "-x", "c++", "-c", base + ".cu", "-o", base + ".o"]
                   + self.includes(os.path.dirname(base)), self.timeout)

    def nvcc_check(self, name: str, base: str) -> Tuple[str, Optional[str]]:
        """nvcc builds the generated base.cu for every architecture (no GPU
        needed), warnings as errors: (name of the check, its failure or None)."""
        gencode = []
        for arch in self.cuda_archs:
            gencode += ["-gencode", f"arch=compute_{arch[3:]},code={arch}"]
        proc = run([self.nvcc, "-std=c++17", "--Werror", "all-warnings", "-c", base + ".cu", "-o", base + ".nvcc.o"]
                   + gencode + self.includes(os.path.dirname(base)), max(self.timeout, 600))
        return f"{name} nvcc {','.join(self.cuda_archs)}", None if proc.returncode == 0 else tail(proc.stderr)


def add_target_arguments(parser: argparse.ArgumentParser):
    """--target and the CUDA options (Settings.use_cuda reads them)."""
    parser.add_argument("--target", choices=["cpu", "cuda"], default="cpu",
                        help="cpu: --emit=obj,header; cuda: the CUDA launchers (--target=cuda --emit=cuda,header) "
                             "built as host C++ against the emulation and run on it")
    parser.add_argument("--cxx", default="c++", help="C++ compiler (headers; CUDA target) (default c++)")
    parser.add_argument("--cuda-include", help="the CUDA runtime support headers (runtime/cuda/include)")
    parser.add_argument("--cuda-emu-lib", help="the emulation's static library, if it has one")
    parser.add_argument("--nvcc", help="also build every generated .cu with this nvcc (a check per module)")
    parser.add_argument("--cuda-arch", default="sm_80,sm_90", help="architectures for --nvcc (default sm_80,sm_90)")


@dataclasses.dataclass
class Outcome:
    case: Case
    failures: List[str]
    skipped: Optional[str] = None   # random programs layoutc rejects
    strategies: List[str] = dataclasses.field(default_factory=list)
    chunks: int = 0


def run(cmd, timeout, **kw) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(cmd, -999, e.stdout or "", f"timed out after {timeout} s")


def tail(text: str, lines: int = 6) -> str:
    return " | ".join(text.strip().replace("\0", "").splitlines()[-lines:])


DIAG = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$", re.MULTILINE)


class Module:
    """A batch of cases in one .mlir file."""

    def __init__(self, index: int, cases: List[Case], workdir: str, settings: Settings):
        self.index = index
        self.dir = os.path.join(workdir, f"m{index:03d}")
        os.makedirs(self.dir, exist_ok=True)
        self.settings = settings
        self.cases = list(cases)
        self.outcomes: Dict[int, Outcome] = {c.index: Outcome(c, []) for c in cases}
        self.extra: List[Tuple[str, Optional[str]]] = []   # module-level checks: (name, failure)

    # -- helpers ---------------------------------------------------------------
    def fail(self, case: Case, message: str):
        self.outcomes[case.index].failures.append(message)

    def drop(self, case: Case, message: str, diagnosed: bool = False):
        """Take the case out of the module.  A rejection with a located
        diagnostic skips random programs (and hand-written ones marked
        may_reject, whose support the contract leaves open); anything else fails."""
        if diagnosed and (case.random_program or case.may_reject):
            self.outcomes[case.index].skipped = message
        else:
            self.fail(case, message)
        self.cases = [c for c in self.cases if c.index != case.index]

    def write(self, cases: List[Case], path: str, record: bool = True):
        line = 1
        with open(path, "w") as f:
            for c in cases:
                if record:
                    c.module, c.line = path, line
                f.write(c.text + "\n")
                line += c.text.count("\n") + 1

    def case_at(self, cases: List[Case], line: int) -> Optional[Case]:
        found = None
        for c in cases:
            if c.line <= line:
                found = c
        return found

    def culprits(self, stderr: str, path: str, cases: List[Case]) -> Dict[int, str]:
        out = {}
        for m in DIAG.finditer(stderr):
            if os.path.basename(m["file"]) != os.path.basename(path):
                continue
            c = self.case_at(cases, int(m["line"]))
            if c is not None and c.index not in out:
                out[c.index] = f"{m['file']}:{m['line']}:{m['col']}: {m['msg']}"
        return out

    def isolate(self, cmd_for, what: str) -> bool:
        """Compile every case alone (after a failure without a location); drop
        those that fail.  Returns whether any was dropped."""
        dropped = False
        for c in list(self.cases):
            path = os.path.join(self.dir, f"alone_{c.name}.mlir")
            self.write([c], path, record=False)
            proc = run(cmd_for(path), self.settings.timeout)
            if proc.returncode != 0:
                self.drop(c, f"{what} (alone, exit {proc.returncode}): {tail(proc.stderr)}")
                dropped = True
        self.write(self.cases, self.mlir)
        return dropped

    def layoutc_loop(self, cmd_for, what: str) -> Optional[subprocess.CompletedProcess]:
        """Run layoutc on the module, dropping the cases it rejects, until it succeeds."""
        for _ in range(len(self.cases) + 2):
            if not self.cases:
                return None
            self.write(self.cases, self.mlir)
            proc = run(cmd_for(self.mlir), self.settings.timeout)
            if proc.returncode == 0:
                return proc
            bad = self.culprits(proc.stderr, self.mlir, self.cases)
            if bad and proc.returncode > 0:
                for c in list(self.cases):
                    if c.index in bad:
                        self.drop(c, f"{what}: {bad[c.index]}", diagnosed=True)
                continue
            if not self.isolate(cmd_for, what + f" (module exit {proc.returncode}: {tail(proc.stderr, 3)})"):
                for c in list(self.cases):
                    self.drop(c, f"{what}: module fails (exit {proc.returncode}) but no function alone does: "
                                 f"{tail(proc.stderr)}")
                return None
        return None

    # -- the pipeline -----------------------------------------------------------
    def process(self) -> List[Outcome]:
        s = self.settings
        self.mlir = os.path.join(self.dir, "module.mlir")
        # 1. --emit=explain: the front end accepts the program; aliasing.
        explain = self.layoutc_loop(lambda p: [s.layoutc, p, "--emit=explain"],
                                    "layoutc rejects the program (--emit=explain)")
        if explain is not None:
            self.check_explain(explain.stdout)
        if self.settings.explain_only:
            return list(self.outcomes.values())
        # 2. --emit=obj,header (CUDA: --emit=cuda,header, then the host
        # compiler against the emulation, and nvcc when asked).
        base = os.path.join(self.dir, "module")
        what = " ".join(s.emit_kinds())
        compiled = self.layoutc_loop(lambda p: [s.layoutc, p] + s.emit_kinds() + ["-o",
                                                os.path.splitext(p)[0]] + s.layoutc_flags,
                                     f"layoutc {what} fails")
        if compiled is None or not self.cases:
            return list(self.outcomes.values())
        made = base + (".cu" if s.cuda else ".o")
        if not (os.path.exists(made) and os.path.exists(base + ".h")):
            for c in list(self.cases):
                self.drop(c, f"layoutc {what} -o {base} wrote no {made} / {base}.h")
            return list(self.outcomes.values())
        if s.cuda:
            if s.nvcc:
                self.extra.append(s.nvcc_check(f"module {self.index}", base))
            proc = s.compile_cuda(base)
            if proc.returncode != 0:
                for c in list(self.cases):
                    self.fail(c, f"the generated {base}.cu does not compile as host C++: {tail(proc.stderr)}")
                return list(self.outcomes.values())
        # 3. The header.
        self.check_header(base + ".h")
        # 4. Link and run.
        if self.cases:
            self.link_and_run(base)
        return list(self.outcomes.values())

    def build(self, mlir: str, base: str) -> subprocess.CompletedProcess:
        """layoutc on one module file, and for CUDA the host compile."""
        s = self.settings
        proc = run([s.layoutc, mlir] + s.emit_kinds() + ["-o", base] + s.layoutc_flags, s.timeout)
        if proc.returncode == 0 and s.cuda:
            proc = s.compile_cuda(base)
        return proc

    def check_explain(self, stdout: str):
        try:
            functions = {f["name"]: f for f in json.loads(stdout)["functions"]}
        except (ValueError, KeyError, TypeError) as e:
            self.extra.append((f"module {self.index} explain", f"unreadable --emit=explain output: {e}"))
            return
        for c in self.cases:
            f = functions.get(c.name)
            if f is None:
                self.fail(c, "--emit=explain does not list the function")
                continue
            got = [r.get("aliases") for r in f.get("results", [])]
            if got != c.aliases:
                self.fail(c, f"--emit=explain: results alias arguments {got}, expected {c.aliases}")
            kernels = f.get("kernels", [])
            o = self.outcomes[c.index]
            o.strategies = [k.get("strategy", "?") for k in kernels]
            o.chunks = max([k.get("chunks") or 1 for k in kernels], default=0)
        self.cases = [c for c in self.cases if not self.outcomes[c.index].failures]

    def prototypes(self, c: Case) -> Tuple[List[str], List[str]]:
        dl, raw = [], []
        for p in c.params:
            dl.append("const DLTensor *" if p.role == ROLE_INPUT else "DLTensor *")
            raw.append(f"const {p.dt.ctype} *" if p.role == ROLE_INPUT else f"{p.dt.ctype} *")
        last = "cudaStream_t" if self.settings.cuda else "const lrt_exec_options_t *"
        return dl + [last], raw + [last]

    def check_header(self, header: str):
        s = self.settings
        with open(header) as f:
            text = f.read()
        arrays = {}
        for m in re.finditer(r"static\s+const\s+int64_t\s+(\w+)\s*(\[\s*\d*\s*\])?\s*(?:\w+\s*)?=\s*(\{[^}]*\}|-?\d+)\s*;", text):
            body = m.group(3).strip("{} \n")
            arrays[m.group(1)] = [int(v) for v in body.split(",") if v.strip()]
        for c in list(self.cases):
            for r, l, arg, first in c.views:
                # The offset counts from the argument's first element (docs/abi.md).
                expect = {"sizes": list(l.sizes), "strides": list(l.strides), "offset": [l.offset - first]}
                for key, value in expect.items():
                    name = f"{c.name}_result{r}_{key}"
                    if name not in arrays:
                        if l.rank == 0 and key != "offset":
                            continue   # C has no empty arrays
                        self.fail(c, f"header: no `static const int64_t {name}` for view result {r}")
                    elif arrays[name] != value:
                        self.fail(c, f"header: {name} = {arrays[name]}, expected {value}")
            for p in c.params:   # outputs: arrays, if the header states them, must agree
                if p.role != ROLE_OUTPUT:
                    continue
                for key, value in (("sizes", list(p.sizes)), ("strides", list(p.strides))):
                    name = f"{c.name}_result{p.result}_{key}"
                    if name in arrays and arrays[name] != value:
                        self.fail(c, f"header: {name} = {arrays[name]}, expected {value}")
        # The prototypes, as C (const-ness included) and the header as C++.
        lines = [f'#include "{os.path.basename(header)}"']
        owners = {}
        for c in self.cases:
            dl, raw = self.prototypes(c)
            owners[len(lines) + 1] = c
            lines.append(f"lrt_status_t (*const check_{c.name})({', '.join(dl)}) = {c.name};")
            owners[len(lines) + 1] = c
            lines.append(f"lrt_status_t (*const check_{c.name}_raw)({', '.join(raw)}) = {c.name}_raw;")
        # The CUDA header is C++ (it includes the CUDA runtime's or the
        # emulation's declarations).
        check_c = os.path.join(self.dir, "header_check.cc" if s.cuda else "header_check.c")
        with open(check_c, "w") as f:
            f.write("\n".join(lines) + "\n")
        if s.cuda:
            cmd = s.cxx + ["-std=c++17", "-fsyntax-only", check_c]
        else:
            cmd = s.cc + ["-std=c11", "-fsyntax-only", "-Werror=incompatible-pointer-types",
                   "-Werror=implicit-function-declaration", check_c]
        proc = run(cmd + s.includes(self.dir), self.settings.timeout)
        if proc.returncode != 0:
            blamed = set()
            for m in re.finditer(r"header_check\.cc?:(\d+):\d+: error: (.*)", proc.stderr):
                c = owners.get(int(m.group(1)))
                if c is not None and c.index not in blamed:
                    blamed.add(c.index)
                    self.fail(c, f"header: prototype differs from the ABI: {m.group(2)} "
                                 f"(expected {open(check_c).read().splitlines()[int(m.group(1)) - 1]})")
            if not blamed:
                self.extra.append((f"module {self.index} header", f"header does not compile: {tail(proc.stderr)}"))
                for c in list(self.cases):
                    self.fail(c, "header does not compile")
        cxx = os.path.join(self.dir, "header_twice.cc")
        with open(cxx, "w") as f:
            f.write(f'#include "{os.path.basename(header)}"\n#include "{os.path.basename(header)}"\n')
        proc = run(s.cxx + ["-std=c++17", "-fsyntax-only", cxx] + s.includes(self.dir),
                   self.settings.timeout)
        self.extra.append((f"module {self.index} header as C++ (included twice)",
                           None if proc.returncode == 0 else tail(proc.stderr)))
        self.cases = [c for c in self.cases if not self.outcomes[c.index].failures]

    def entries_c(self, cases: List[Case]) -> str:
        """The entry table: C for the CPU ABI; for CUDA, C++ whose adapters
        pass a stream of their own (the driver synchronizes the device)."""
        cuda = self.settings.cuda
        out = ["#include <stdbool.h>", "#include <stdint.h>", '#include "driver.h"']
        if cuda:
            out += ['#include "layout_rt/cuda.h"', "",
                    "static cudaStream_t exec_stream() {",
                    "  static cudaStream_t stream = [] { cudaStream_t s = 0; cudaStreamCreate(&s); return s; }();",
                    "  return stream;", "}", 'extern "C" {']
        out.append("")
        last = "exec_stream()" if cuda else "o"
        unused = "(void)o; " if cuda else ""
        table = []
        for c in cases:
            dl, raw = self.prototypes(c)
            n = len(c.params)
            out.append(f"lrt_status_t {c.name}({', '.join(dl)});")
            call = ", ".join([f"p[{i}]" for i in range(n)] + [last])
            out.append(f"static lrt_status_t dl_{c.name}(DLTensor *const *p, const lrt_exec_options_t *o) "
                       f"{{ {'(void)p; ' if n == 0 else ''}{unused}return {c.name}({call}); }}")
            raw_name = "NULL"
            if c.raw:
                out.append(f"lrt_status_t {c.name}_raw({', '.join(raw)});")
                rcall = ", ".join([f"({raw[i]})p[{i}]" for i in range(n)] + [last])
                out.append(f"static lrt_status_t raw_{c.name}(void *const *p, const lrt_exec_options_t *o) "
                           f"{{ {'(void)p; ' if n == 0 else ''}{unused}return {c.name}_raw({rcall}); }}")
                raw_name = f"raw_{c.name}"
            table.append(f'  {{"{c.name}", dl_{c.name}, {raw_name}}},')
        out += ["", "const exec_entry_t exec_entries[] = {"] + (table or ['  {"none", 0, 0},']) + ["};",
                f"const int exec_num_entries = {len(cases)};", ""]
        if cuda:
            out.append('}  // extern "C"')
        return "\n".join(out)

    def link(self, cases: List[Case], obj: str, exe: str) -> subprocess.CompletedProcess:
        """Compile the entry table of `cases` and link it with the driver, obj and the runtime."""
        s = self.settings
        entries = os.path.splitext(exe)[0] + ("_entries.cc" if s.cuda else "_entries.c")
        with open(entries, "w") as f:
            f.write(self.entries_c(cases))
        compiler = s.cxx + ["-std=c++17"] if s.cuda else s.cc + ["-std=c11"]
        proc = run(compiler + ["-O1", "-c", entries, "-o", entries + ".o"] + s.includes(HERE), s.timeout)
        if proc.returncode != 0:
            proc.stderr = f"{os.path.basename(entries)} does not compile: " + proc.stderr
            return proc
        objects = [s.driver_obj, entries + ".o", obj]
        if s.cuda:
            objects += [s.device_obj] + ([s.emu_lib] if s.emu_lib else [])
        return run((s.cxx if s.cuda else s.cc) + ["-o", exe] + objects + [s.rt_lib, "-lpthread", "-lm"], s.timeout)

    def link_and_run(self, base: str):
        s = self.settings
        exe = os.path.join(self.dir, "run")
        for _ in range(len(self.cases) + 1):
            if not self.cases:
                return
            proc = self.link(self.cases, base + ".o", exe)
            if proc.returncode == 0:
                break
            missing = set(re.findall(r"undefined reference to `(\w+)'", proc.stderr))
            blamed = [c for c in self.cases if c.name in missing or c.name + "_raw" in missing]
            for c in blamed:
                self.drop(c, "link: the object does not define " +
                          ", ".join(sorted(n for n in missing if n in (c.name, c.name + "_raw"))))
            if blamed:
                continue
            # Something else (e.g. a symbol the object needs): link every case alone.
            module_error = tail(proc.stderr, 3)
            for c in list(self.cases):
                alone = os.path.join(self.dir, f"alone_{c.name}")
                self.write([c], alone + ".mlir", record=False)
                comp = self.build(alone + ".mlir", alone)
                linked = self.link([c], alone + ".o", alone + ".exe") if comp.returncode == 0 else comp
                if linked.returncode != 0:
                    self.drop(c, f"link fails (function alone): {tail(linked.stderr, 3)}")
            self.write(self.cases, self.mlir)
            proc = self.build(self.mlir, base)
            if proc.returncode != 0:
                for c in list(self.cases):
                    self.drop(c, f"module no longer compiles: {tail(proc.stderr)}")
                return
            if self.link(self.cases, base + ".o", exe).returncode != 0:
                for c in list(self.cases):
                    self.drop(c, f"link fails for the module but for no function alone: {module_error}")
                return
            break
        else:
            return
        # Manifest and data.
        manifest = os.path.join(self.dir, "manifest.txt")
        data = os.path.join(self.dir, "data.bin")
        with open(manifest, "w") as m, open(data, "wb") as d:
            m.write(f"layout-exec-manifest 1\n{len(self.cases)}\n")
            for entry, c in enumerate(self.cases):
                m.write(f"case {c.index} {entry} {len(c.params)} {len(c.runs)} {' '.join(map(str, c.runs))}\n")
                for p in c.params:
                    m.write(f"param {p.role} {p.dt.code} {p.dt.bits} {len(p.sizes)} "
                            f"{' '.join(map(str, p.sizes))} {' '.join(map(str, p.strides))} "
                            f"{p.storage} {p.first} {p.flags}\n")
                    if p.role != ROLE_OUTPUT:
                        d.write(p.initial)
        # Run, restarting after a crash.
        by_index = {c.index: c for c in self.cases}
        order = [c.index for c in self.cases]
        start, attempt = order[0], 0
        while True:
            results = os.path.join(self.dir, f"results{attempt}.bin")
            proc = run([exe, manifest, data, results, str(start)], s.timeout)
            statuses = collections.defaultdict(dict)
            for m in re.finditer(r"^STATUS (\d+) (\d+) (\d+) (.*)$", proc.stdout, re.MULTILINE):
                statuses[int(m.group(1))][int(m.group(2))] = (int(m.group(3)), m.group(4))
            done = self.read_results(results, by_index, statuses)
            started = [int(v) for v in re.findall(r"^CASE (\d+)$", proc.stdout, re.MULTILINE)]
            if proc.returncode == 0 and "DONE" in proc.stdout:
                missing = [i for i in order if i >= start and i not in done]
                for i in missing:
                    self.fail(by_index[i], "the driver produced no results")
                return
            crashed = started[-1] if started else start
            how = (f"signal {-proc.returncode}" if proc.returncode < 0 and proc.returncode != -999
                   else f"exit {proc.returncode}")
            self.fail(by_index[crashed], f"the run crashed or hung ({how}): {tail(proc.stderr, 3)}")
            later = [i for i in order if i > crashed]
            if not later:
                return
            start, attempt = later[0], attempt + 1

    def read_results(self, path: str, by_index: Dict[int, Case], statuses) -> set:
        done = set()
        if not os.path.exists(path):
            return done
        with open(path, "rb") as f:
            blob = f.read()
        pos = 0
        while pos + 8 <= len(blob):
            index, nruns = struct.unpack_from("<ii", blob, pos)
            c = by_index[index]
            size = 8 + nruns * (8 + sum(2 * GUARD + p.nbytes for p in c.params))
            if pos + size > len(blob):
                break   # truncated by a crash
            pos += 8
            runs = []
            for _ in range(nruns):
                run_code, status = struct.unpack_from("<ii", blob, pos)
                pos += 8
                buffers = []
                for p in c.params:
                    n = 2 * GUARD + p.nbytes
                    buffers.append(blob[pos:pos + n])
                    pos += n
                runs.append((run_code, status, buffers))
            self.compare(c, runs, statuses.get(index, {}))
            done.add(index)
        return done

    # -- comparisons -------------------------------------------------------------
    def compare(self, c: Case, runs, statuses):
        first = None
        for run_code, status, buffers in runs:
            label = RUN_NAMES.get(run_code, str(run_code))
            if status != 0:
                code, message = statuses.get(run_code, (status, "?"))
                self.fail(c, f"[{label}] returned status {code}: {message}")
                continue
            if first is None:
                first = (label, buffers)
                for p, buf in zip(c.params, buffers):
                    problem = check_param(p, buf)
                    if problem:
                        self.fail(c, f"[{label}] {p.label}: {problem}")
            else:
                for p, a, b in zip(c.params, first[1], buffers):
                    if a != b:
                        self.fail(c, f"[{label}] {p.label}: bytes differ from the {first[0]} run "
                                     f"{describe_byte_diff(p, a, b)}")


def element_view(p: Param, body: bytes) -> np.ndarray:
    """The storage as an array of p.dt (float types as float64, for printing)."""
    raw = np.frombuffer(body, dtype=np.uint8)
    if p.dt.name == "bf16":
        return (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    npd = {"i1": np.uint8, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "ui8": np.uint8,
           "f16": np.float16, "f32": np.float32, "f64": np.float64}[p.dt.name]
    return raw.view(npd)


def logical_index(sizes, k: int) -> str:
    return str(tuple(int(i) for i in np.unravel_index(k, sizes))) if sizes else "()"


def storage_index(p: Param, pos: int) -> str:
    """Where storage element `pos` of an argument is, relative to its first element."""
    return f"storage element {pos} (first element at {p.first})"


def describe_byte_diff(p: Param, a: bytes, b: bytes) -> str:
    k = next(i for i in range(min(len(a), len(b))) if a[i] != b[i])
    if k < GUARD or k >= GUARD + p.nbytes:
        return f"in the guard bytes (byte {k - GUARD} relative to the buffer)"
    e = (k - GUARD) // p.dt.size
    if p.positions is not None:
        where = np.nonzero(p.positions == e)[0]
        if len(where):
            return (f"at index {logical_index(p.sizes, int(where[0]))}: "
                    f"{element_view(p, a[GUARD:GUARD + p.nbytes])[e]} vs {element_view(p, b[GUARD:GUARD + p.nbytes])[e]}")
        return f"at storage element {e}, which is no element of the result"
    return f"at {storage_index(p, e)}"


def check_param(p: Param, buf: bytes) -> Optional[str]:
    """What is wrong with one parameter's buffer after the threads=1 run."""
    head, body, foot = buf[:GUARD], buf[GUARD:GUARD + p.nbytes], buf[GUARD + p.nbytes:]
    fill = OUTPUT_FILL if p.role == ROLE_OUTPUT else INPUT_GUARD_FILL
    if head != bytes([fill]) * GUARD:
        return "wrote before the buffer (guard bytes changed)"
    if foot != bytes([fill]) * GUARD:
        return "wrote after the buffer (guard bytes changed)"
    if p.role != ROLE_OUTPUT:
        if body == p.final:
            return None
        k = next(i for i in range(len(body)) if body[i] != p.final[i])
        e = k // p.dt.size
        got, want = element_view(p, body)[e], element_view(p, p.final)[e]
        what = "written argument differs" if p.role == ROLE_WRITTEN else "read-only argument was modified"
        untouched = "" if p.initial[k] == p.final[k] or p.role == ROLE_INPUT else ""
        if p.role == ROLE_WRITTEN and p.initial[e * p.dt.size:(e + 1) * p.dt.size] == \
                p.final[e * p.dt.size:(e + 1) * p.dt.size]:
            untouched = " (an element outside the written view)"
        return f"{what} at {storage_index(p, e)}{untouched}: got {got}, expected {want}"
    esize = p.dt.size
    arr = np.frombuffer(body, dtype=np.uint8).reshape(-1, esize) if p.nbytes else np.zeros((0, esize), np.uint8)
    # Gaps inside the output's extent stay untouched.
    mask = np.ones(p.storage, dtype=bool)
    mask[p.positions] = False
    if mask.any() and not (arr[mask] == OUTPUT_FILL).all():
        e = int(np.nonzero(mask & ~(arr == OUTPUT_FILL).all(axis=1))[0][0])
        return f"wrote storage element {e}, which is no element of the result (a gap between its elements)"
    if p.expected.numel() == 0:
        return None
    got_bytes = arr[p.positions]
    if p.check is None:
        want = np.frombuffer(to_bytes(p.expected), dtype=np.uint8).reshape(-1, esize)
        bad = np.nonzero((got_bytes != want).any(axis=1))[0]
        if len(bad) == 0:
            return None
        k = int(bad[0])
        got = element_view(p, got_bytes[k].tobytes())[0]
        exp = element_view(p, want[k].tobytes())[0]
        return (f"{len(bad)} of {len(p.positions)} elements differ; first at index "
                f"{logical_index(p.sizes, k)}: got {got} (0x{got_bytes[k][::-1].tobytes().hex()}), "
                f"expected {exp} (0x{want[k][::-1].tobytes().hex()})")
    got = torch.from_numpy(element_view(p, got_bytes.tobytes()).astype(np.float64))
    ref, tol = p.check
    bad = torch.nonzero(~within_tolerance(got, ref, tol, p.dt)).reshape(-1)
    if len(bad) == 0:
        return None
    k = int(bad[0])
    return (f"{len(bad)} of {len(p.positions)} elements outside the tolerance; first at index "
            f"{logical_index(p.sizes, k)}: got {got[k].item()!r}, expected {ref[k].item()!r} "
            f"+- {tol[k].item():.3g}")


# ---------------------------------------------------------------------------
# Main.
# ---------------------------------------------------------------------------

def build_cases(args) -> Tuple[List[Case], int]:
    fns = hand_cases(args.seed)
    random_fns, redraws = [], 0
    for i in range(args.count):
        for attempt in range(1000):
            fn = random_fn(args.seed, i, attempt)
            if fn is not None:
                break
            redraws += 1
        random_fns.append(fn)
    for i in range(args.count_large):
        for attempt in range(1000):
            fn = random_large_fn(args.seed, i, attempt)
            if fn is not None:
                break
            redraws += 1
        random_fns.append(fn)
    fns += random_fns
    if args.filter:
        fns = [f for f in fns if re.search(args.filter, f.name)]
    names = collections.Counter(f.name for f in fns)
    assert all(n == 1 for n in names.values()), [k for k, n in names.items() if n > 1]
    return [make_case(i, f) for i, f in enumerate(fns)], redraws


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layoutc", default="layoutc", help="layoutc binary (or name on PATH)")
    parser.add_argument("--rt-lib", help="path of liblayout_rt.a")
    parser.add_argument("--rt-include", help="the runtime's include directory (holds layout_rt/)")
    parser.add_argument("--cc", default="cc", help="C compiler for the driver, with any flags (default cc)")
    add_target_arguments(parser)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=320, help="random programs (default 320)")
    parser.add_argument("--count-large", type=int, default=80,
                        help="random programs of the second family: larger, odd extents (default 80)")
    parser.add_argument("--batch", type=int, default=40, help="functions per module (default 40)")
    parser.add_argument("--jobs", type=int, default=2, help="modules processed at once (default 2)")
    parser.add_argument("--filter", help="only cases whose name matches this regex")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("--workdir", help="work directory (kept; default: a temporary one)")
    parser.add_argument("--layoutc-flag", action="append", default=[],
                        help="extra flag for --emit=obj,header (repeatable), e.g. -O0 or --mcpu=host")
    parser.add_argument("--show", type=int, default=3, help="failing programs printed in full (default 3)")
    parser.add_argument("--timeout", type=int, default=120, help="seconds per command (default 120)")
    parser.add_argument("--oracle-only", action="store_true",
                        help="build the cases and their expected values, print statistics, run nothing")
    parser.add_argument("--explain-only", action="store_true",
                        help="only check that layoutc --emit=explain accepts the cases and agrees on aliasing")
    parser.add_argument("--print-programs", action="store_true", help="print every program (with --oracle-only)")
    args = parser.parse_args(argv)
    # Compilers may carry flags ("cc -fsanitize=address,undefined").
    args.cc, args.cxx = shlex.split(args.cc), shlex.split(args.cxx)

    try:
        cases, redraws = build_cases(args)
    except OracleError as e:
        print(f"FAIL oracle self-check: {e}")
        print("0 passed, 1 failed")
        return 1
    hand = sum(not c.random_program for c in cases)
    print(f"cases: {len(cases)} ({hand} hand-written, {len(cases) - hand} random; "
          f"{redraws} illegal random draws redrawn); "
          f"{sum(c.big for c in cases)} larger than 300 KiB; {sum(c.raw for c in cases)} also through _raw")
    if args.oracle_only:
        if args.print_programs:
            for c in cases:
                print(c.text)
                for p in c.params:
                    if p.role == ROLE_OUTPUT:
                        print(f"// result {p.result}: {p.expected.reshape(p.sizes) if p.sizes else p.expected}")
        print(f"{len(cases)} passed, 0 failed")
        return 0

    layoutc = shutil.which(args.layoutc)
    missing = [what for what, path in (("--layoutc", layoutc), ("--rt-lib", args.rt_lib),
                                       ("--rt-include", args.rt_include)) if not path or not os.path.exists(path)]
    if missing:
        print(f"error: missing or not found: {', '.join(missing)}", file=sys.stderr)
        return 2
    workdir = args.workdir or tempfile.mkdtemp(prefix="layout-exec-")
    os.makedirs(workdir, exist_ok=True)
    driver_obj = os.path.join(workdir, "driver.o")
    proc = run(args.cc + ["-std=c11", "-O1", "-Wall", "-c", "-I", HERE, "-I", args.rt_include,
                os.path.join(HERE, "driver.c"), "-o", driver_obj], args.timeout)
    if proc.returncode != 0:
        print(f"FAIL driver.c does not compile: {proc.stderr}")
        print("0 passed, 1 failed")
        return 1
    settings = Settings(layoutc, os.path.abspath(args.rt_lib), os.path.abspath(args.rt_include), args.cc,
                        args.layoutc_flag, driver_obj, args.timeout, args.show, args.explain_only,
                        target=args.target, cxx=args.cxx)
    if settings.cuda:
        if not args.cuda_include or not os.path.isdir(args.cuda_include):
            print("error: --target cuda needs --cuda-include (runtime/cuda/include)", file=sys.stderr)
            return 2
        proc = settings.use_cuda(args, workdir)
        if proc.returncode != 0:
            print(f"FAIL device_cuda.cpp does not compile: {proc.stderr}")
            print("0 passed, 1 failed")
            return 1
    batches = [cases[i:i + args.batch] for i in range(0, len(cases), args.batch)]
    modules = [Module(i, b, workdir, settings) for i, b in enumerate(batches)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        outcome_lists = list(pool.map(lambda m: m.process(), modules))

    outcomes = sorted((o for lst in outcome_lists for o in lst), key=lambda o: o.case.index)
    passed = failed = 0
    shown = 0
    skipped = [o for o in outcomes if o.skipped and not o.failures]
    for o in outcomes:
        if o.skipped and not o.failures:
            continue
        if o.failures:
            failed += 1
            for f in o.failures:
                print(f"FAIL {o.case.where()}: {o.case.name}: {f}")
            if shown < args.show:
                shown += 1
                print("    | " + o.case.text.rstrip().replace("\n", "\n    | "))
        else:
            passed += 1
    for m in modules:
        for name, failure in m.extra:
            if failure:
                failed += 1
                print(f"FAIL {name}: {failure}")
            else:
                passed += 1
    randoms = [o for o in outcomes if o.case.random_program]
    skipped_random = [o for o in skipped if o.case.random_program]
    if skipped:
        reasons = collections.Counter(re.sub(r"\d+", "N", o.skipped.split(": ", 2)[-1])[:100] for o in skipped)
        print(f"skipped {len(skipped)} programs that layoutc rejects with a diagnostic "
              f"({sum(o.case.random_program for o in skipped)} of {len(randoms)} random ones):")
        for reason, n in reasons.most_common(5):
            print(f"  {n:>4}  {reason}")
    if randoms and len(skipped_random) > 0.1 * len(randoms):
        failed += 1
        print(f"FAIL more than 10% of the random programs were rejected ({len(skipped_random)}/{len(randoms)})")
    strategies = collections.Counter(s for o in outcomes for s in o.strategies)
    print("kernel strategies run: " + ", ".join(f"{k} {v}" for k, v in sorted(strategies.items())))
    bigs = [o for o in outcomes if o.case.big and not o.failures]
    print(f"large cases split into > 1 chunk (explain): {sum(o.chunks > 1 for o in bigs)}/{len(bigs)}")
    if passed == 0:
        failed += 1
        print("FAIL nothing passed")
    if args.keep or args.workdir:
        print(f"work directory kept: {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
