#!/usr/bin/env python3
"""exec_test.py's programs in dynamic form (every size `?`), run through
dynamic_exec.py's machinery against eager PyTorch 1.13.

Programs.  Every function exec_test.py builds (all of hand_cases(), and the
random chains of random_fn() / random_large_fn() drawn as build_cases()
draws them for the same --seed, --count and --count-large as exec.test; a
seeded subset with --random-sample) is recorded op by op while exec_test
builds it (Fn's methods are wrapped here; exec_test.py is unchanged) and
rebuilt as a dynamic_exec.Prog: the same ops (each torch_views.Op by its
syntax() and its PyTorch meaning, layout.to / copy / reduce by Prog.to /
copy / reduce), every argument with every size `?` (see Arguments), the same
data kinds.  layout.flip is a view in layoutc (negative strides) and a copy in
PyTorch: its values are torch.flip's, and after a flip what stays a view of
the argument follows torch_views.py's model (the static test's oracle): a
`view` the model rejects there raises PyTorch's message, a layout.copy into
a flipped view is scattered into the argument at the model's positions, and
a result reported as such a view must hold PyTorch's values at the model's
layout (view_in below, installed as dynamic_exec.view_in for this run).

Arguments.  A row-major argument is `!layout.tensor<?x...xT>`.  One that
exec_test.py declares with other strides, an offset or negative strides
(StridePattern) gets `strided<[...]>` with `?` for every stride but the
innermost one where that is 1, and `offset: ?` where exec_test.py declared
an offset (passed as the DLTensor's byte_offset in elements, `data` at the
storage's start: abi.md; at other sizes it grows with what negative strides
reach back, and as_strided over it reads that storage).  At other sizes it
is passed with the same pattern: the dims in the same order of stride
magnitude (innermost first), the same sign per dim, the same gap past what
the smaller strides reach (0: dense), the same number of storage elements
before the lowest one it reaches; its buffer (PatternBuffer, through
dynamic_exec.Runner.arg_buffer) is that storage with random bytes outside
the view, and PyTorch's reference takes it as that view of a storage of
that size (Tensor.set_, checked as torch.as_strided; negative strides,
which PyTorch cannot hold: a new tensor of its values, and the ops after
it follow torch_views.py's model, as after a flip; such an argument must
not be written).  A `!layout.storage` argument is `!layout.storage<?xT>`,
its length varied as a 1-D size.  as_strided keeps its static sizes,
strides and offset over the dynamic operand: such programs run at their own
shape, at operands large enough (PyTorch accepts) and at one too small
where a candidate gives one (PyTorch's setStorage message).  Skipped, with
the reason: an argument whose strides follow no such pattern (none today).
Functions whose arguments are all rank 0 have nothing to make dynamic and
run at their one shape.

Shapes.  Every program runs at its own static shape and at >= 3 more: the
candidates (an extent 0, extents 1, odd extents 3 ... 63 that are not
multiples of a tile, substituted for one extent value across all arguments
or at one position, shapes with the same element count for view / reshape
programs, and seeded random ones) are tried with the PyTorch reference
first.  Up to 4 shapes PyTorch accepts are taken (one with a 0, one with a
1 and one with an odd extent >= 17 where the program allows them); where
fewer than 3 are found, shapes PyTorch rejects fill up, and every program
with such a shape runs at least one: the call must return `<function>:
<PyTorch's message>` and write nothing.

Checks are dynamic_exec.py's (its Runner): PyTorch's values bit for bit
(float sum / mean / prod within exec_test.py's reduce_oracle tolerance),
written arguments over their whole storage, guard bytes, read-only
arguments untouched, `<result>_view` reports, explain's aliases.
exec_test.py holds the static kernels to the same PyTorch values bit for
bit, so this compares the dynamic kernels with the static ones.

Compilation: types level by level (dynamic_exec.resolve_types), then
`--emit=header` finds the functions code generation rejects (the same
checks, without building objects), then each module of --batch functions
is compiled once with `--emit=obj,header`, --jobs modules at a time.

Rejections: dynamic_exec.py's known limitations (KNOWN: L1, L2) and the
errors the documentation states for dynamic programs (DOCUMENTED: D1, D3,
D4, D6) are listed with every function and counted, not run (--strict:
failures).  A program rejected for a squeeze of a dynamic dim (D1) is
converted again with its arguments' dims of size 1 static (1 at every
shape); where that compiles and some size is still `?`, it runs so.
Anything else layoutc rejects, a crash, a wrong value or a wrong status is
a failure, printed with the dynamic and the static function.

An argument whose strides would be `strided<[?, ..., ?, 1]>` at offset 0
is written with `?` for its unit stride too: that type is the row-major one
(language.md, "Dynamic sizes"), which the call checks.  as_strided over a
dynamic operand runs at a shape whose operand is too small where PyTorch
rejects one ("setStorage: ... out of bounds"), which must fail the same way
and write nothing.

Prints `FAIL ...` per failure, the counts, and `N passed, M failed`; exits
non-zero on any failure.

  /usr/bin/python3 test/execution/exec_dynamic_form.py --layoutc build/bin/layoutc \\
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
import time
from typing import Dict, List, Optional

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import dynamic_exec as de  # noqa: E402  (Prog, types, compilation, Runner)
import exec_test as ex  # noqa: E402  (the static programs)

tv = ex.tv

# Rejections the documentation states as errors of dynamic programs
# (docs/language.md "Dynamic sizes", docs/abi.md "Dynamic sizes"):
# key -> (what, a piece of layoutc's message).
DOCUMENTED = {
    "D1": ("squeeze of a dynamic dim: the rank would depend on the size (language.md)", r"'layout\.squeeze' op squeeze"),
    "D3": ("a PyTorch check that no size can pass is an error at the op (language.md)",
           r"out of range for tensor of size"),
    "D4": ("a returned as_strided of a result that PyTorch copies for some sizes and views for others is an error "
           "at the return (abi.md)", r"is an as_strided of a tensor that PyTorch copies for some sizes"),
    "D6": ("a returned view of part of a new tensor, for every size: dynamic code generation returns only whole "
           "new tensors (abi.md 'Dynamic sizes')", r"views part of a new tensor"),
}
ODD = [3, 5, 7, 17, 33, 63]
POOL = [0, 1, 2, 3, 5, 7, 9, 17, 33, 63]
MAX_NUMEL = 40000          # generated shapes: elements per argument (the program's own shape may be larger)


# ---------------------------------------------------------------------------
# Recording what exec_test.py's Fn builds.
# ---------------------------------------------------------------------------

def _install_recorder():
    Fn = ex.Fn
    if getattr(Fn, "_form_recorded", False):
        return
    orig = {k: getattr(Fn, k) for k in ("tensor", "storage", "op", "to", "copy", "reduce", "ret")}

    def trace(self):
        return self.__dict__.setdefault("trace", [])

    def tensor(self, dt, sizes, strides=None, offset=0, kind="any"):
        v = orig["tensor"](self, dt, sizes, strides, offset, kind)
        trace(self).append(("arg", v.name, v.dt.name, tuple(v.layout.sizes), tuple(v.layout.strides),
                            v.layout.offset, kind))
        return v

    def storage(self, dt, n, kind="any"):
        v = orig["storage"](self, dt, n, kind)
        trace(self).append(("storage", v.name, v.dt.name, n, kind))
        return v

    def op(self, v, o):
        out = orig["op"](self, v, o)
        n = self.counter
        names = [f"%v{n}"] if o.results == 1 else [f"%v{n}_{k}" for k in range(o.results)]
        trace(self).append(("op", o, v.name, names))
        return out

    def to(self, v, dt):
        out = orig["to"](self, v, dt)
        trace(self).append(("to", v.name, out.dt.name, out.name))
        return out

    def copy(self, src, dst):
        orig["copy"](self, src, dst)
        trace(self).append(("copy", src.name, dst.name))

    def reduce(self, v, kind, dims, keepdim=False):
        out = orig["reduce"](self, v, kind, dims, keepdim)
        trace(self).append(("reduce", v.name, kind, list(dims), keepdim, out.name))
        return out

    def ret(self, *vals):
        orig["ret"](self, *vals)
        trace(self).append(("ret", [v.name for v in vals]))

    for k, f in [("tensor", tensor), ("storage", storage), ("op", op), ("to", to), ("copy", copy),
                 ("reduce", reduce), ("ret", ret)]:
        setattr(Fn, k, f)
    Fn._form_recorded = True


_install_recorder()


# ---------------------------------------------------------------------------
# Programs in dynamic form.
# ---------------------------------------------------------------------------

VIEW_MESSAGE = ("view size is not compatible with input tensor's size and stride (at least one dimension spans "
                "across two contiguous subspaces). Use .reshape(...) instead.")


class StridePattern:
    """A non-row-major argument's layout as a pattern over sizes: the dims
    in the order of their strides' magnitudes (innermost first), the sign
    of each stride, and the gap each stride leaves past what the smaller
    ones reach (0: dense in that order), as exec_test.py declared it at its
    own shape.  At other sizes the argument gets the same order, signs and
    gaps, and the same number of storage elements before the lowest one it
    reaches (its offset grows with what negative strides reach back)."""

    def __init__(self, sizes, strides, offset):
        self.rank = len(sizes)
        self.static_offset = offset
        # Size-1 dims (whose strides no check compares) go inside the dims
        # of the same stride magnitude, so that every gap is >= 0.
        self.order = sorted(range(self.rank), key=lambda d: (abs(strides[d]), sizes[d] > 1, -d))
        self.sign = [-1 if st < 0 else 1 for st in strides]
        self.gaps = [0] * self.rank
        base = 1
        for d in self.order:
            gap = abs(strides[d]) - base
            if gap < 0:
                raise ValueError("overlapping strides")
            self.gaps[d] = gap
            base = abs(strides[d]) * max(sizes[d], 1)
        lo = ex.reach(sizes, strides)[0] if math.prod(sizes) else 0
        self.lead = offset + lo        # storage elements before the lowest one reached
        # A stride stays static in the type where it is 1 at every size:
        # the innermost dim's, where it is 1 and positive.
        self.unit = {d for d in self.order[:1] if strides[d] == 1}
        # `strided<[?, ..., ?, 1]>` at offset 0 is the row-major type
        # (language.md, "Dynamic sizes"): such a type is written with `?`
        # for the unit stride too.
        self.collapses = self.rank >= 2 and self.unit == {self.rank - 1} and offset == 0
        l = self.layout(sizes)
        if l.offset != offset or any(s > 1 and a != b for s, a, b in zip(sizes, l.strides, strides)):
            raise ValueError("the pattern does not give the declared layout back")

    def strides(self, sizes):
        out, base = [0] * self.rank, 1
        for d in self.order:
            st = base + self.gaps[d]
            out[d] = self.sign[d] * st
            base = st * max(sizes[d], 1)
        return out

    def layout(self, sizes) -> "tv.Layout":
        """The argument's layout at these sizes, in a storage of its own."""
        strides = self.strides(sizes)
        lo, hi = ex.reach(sizes, strides) if math.prod(sizes) else (0, 0)
        offset = self.lead - lo
        # The storage is what the view reaches (language.md): nothing when
        # it has no elements, whatever its offset.
        n = offset + hi + 1 if math.prod(sizes) else 0
        return tv.Layout(tuple(sizes), tuple(strides), offset, n, True)

    def type(self, dt: de.DType, dims=None) -> str:
        # A declared offset becomes `offset: ?` (the caller passes it as the
        # DLTensor's byte_offset, abi.md): at other sizes it grows with what
        # negative strides reach back.  `dims`: a static size per dim, None
        # where it is `?`.
        unit = set() if self.collapses else self.unit
        strides = ", ".join("1" if d in unit else "?" for d in range(self.rank))
        sizes = "".join(("?" if dims is None or dims[d] is None else str(dims[d])) + "x"
                        for d in range(self.rank))
        return (f"!layout.tensor<{sizes}{dt.name}, strided<[{strides}]"
                + (", offset: ?>>" if self.static_offset else ">>"))


@dataclasses.dataclass
class PatternArg(de.ArgSpec):
    """A tensor argument with every size `?` whose strides (`?`, or 1) follow
    a StridePattern."""
    pattern: Optional[StridePattern] = None

    def type(self):
        return self.pattern.type(self.dt, self.dims)


@dataclasses.dataclass
class StorageArg(de.ArgSpec):
    """A `!layout.storage<?xT>` argument: a 1-D tensor of n elements."""

    def type(self):
        return f"!layout.storage<?x{self.dt.name}>"


class PatternBuffer(de.Buffer):
    """A PatternArg's buffer: its own storage (GUARD bytes either side, the
    elements outside the view random bytes, or zeros as in the reference
    where as_strided may read them), the DLTensor pointing at the
    view's first element with the pattern's strides (never NULL): `data` at
    the storage's start and the offset in `byte_offset` where the type's
    offset is `?` (dynamic_offset), else `data` at the first element."""

    def __init__(self, dt: de.DType, layout, rng: np.random.Generator, dynamic_offset=False, zeros=False):
        self.dt, self.host, self.layout = dt, None, layout
        self.sizes, self.strides = tuple(layout.sizes), tuple(layout.strides)
        self.n = layout.storage
        self.nbytes = self.n * dt.size
        self.raw = torch.full((self.nbytes + 2 * de.GUARD,), de.GUARD_FILL, dtype=torch.uint8)
        self.storage = self.raw[de.GUARD:de.GUARD + self.nbytes]
        if zeros:
            self.storage.zero_()
        else:
            self.storage.copy_(torch.from_numpy(rng.integers(0, 256, self.nbytes, dtype=np.uint8)))
        if dt.name == "i1":
            self.storage.bitwise_and_(1)
        self.shape_arr = (ctypes.c_int64 * max(len(self.sizes), 1))(*self.sizes)
        self.stride_arr = (ctypes.c_int64 * max(len(self.sizes), 1))(*self.strides)
        self.dl = de.DLTensor()
        at = 0 if dynamic_offset else layout.offset * dt.size
        self.dl.data = self.raw.data_ptr() + de.GUARD + at
        self.dl.device = de.DLDevice(1, 0)
        self.dl.ndim = len(self.sizes)
        self.dl.dtype = de.DLDataType(dt.code, dt.bits, 1)
        self.dl.shape = self.shape_arr
        self.dl.strides = self.stride_arr
        self.dl.byte_offset = layout.offset * dt.size - at

    def typed(self) -> torch.Tensor:
        """The view's values (a copy: the strides may be negative)."""
        if math.prod(self.sizes) == 0:
            return torch.empty(self.sizes, dtype=self.dt.torch)
        return self.storage.view(self.dt.torch)[ex.indices(self.layout)]

    def fill(self, t: torch.Tensor):
        if math.prod(self.sizes):
            self.storage.view(self.dt.torch)[ex.indices(self.layout)] = t


class FormProg(de.Prog):
    """A Prog whose reference treats layout.flip as the view it is.

    PyTorch's flip copies; layoutc's is a view with negative strides
    (docs/language.md, ext), and the ops after it follow ATen's arithmetic
    on those strides (a `view` of a flipped dim fails, a `reshape` copies).
    The values are torch.flip's either way; what is a view of an argument
    after a flip follows torch_views.py's model (the static test's oracle):
    a view op the model rejects there raises PyTorch's message, and a
    layout.copy into such a view is scattered into the argument at the
    model's positions."""

    def __init__(self, name, random_program=False):
        super().__init__(name, random_program)
        self.natural: Dict[str, List[int]] = {}
        self.origin = ""          # hand, random, random_large
        self.calls = collections.Counter()   # good_ok, good_failed, bad_ok, bad_failed
        self.fn_text = ""
        self.cover = set()        # zero, one, odd: a shape PyTorch accepts with an extent 0 / 1 / odd >= 17
        self.tvops: Dict[int, object] = {}   # op index -> torch_views.Op
        self.result_layouts: Dict[int, object] = {}  # id(result tensor) -> model layout (views of arguments)
        # id(result tensor) -> its strides where a new tensor's preserved
        # strides follow the model (a clone or conversion after a flip).
        self.new_strides: Dict[int, List[int]] = {}

    def has_as_strided(self) -> bool:
        return any(isinstance(o, tv.AsStrided) for o in self.tvops.values())

    def reference(self, inputs: Dict[str, torch.Tensor]):
        lay = {"%" + k: tv.Layout(tuple(v.shape), tv.contiguous_strides(tuple(v.shape)), 0, v.numel(), True)
               for k, v in inputs.items()}
        negative, storages = {}, {}
        for a in self.args:
            if isinstance(a, PatternArg):
                # The argument as the caller passes it: a view of its own
                # storage with the pattern's strides (values elsewhere 0).
                t = inputs[a.name]
                l = a.pattern.layout(tuple(t.shape))
                lay["%" + a.name] = l
                if any(st < 0 for st in l.strides):
                    # PyTorch has no negative strides: a new tensor of its
                    # values stands in (what PyTorch returns of it is a
                    # copy), and the ops after it follow the model, as
                    # after a flip.
                    negative["%" + a.name] = t.clone()
                    continue
                storage = torch.zeros(l.storage, dtype=t.dtype)
                if t.numel():
                    storage[ex.indices(l)] = t
                # As torch.as_strided, but a base tensor itself, so that
                # run_good sees its views (`_base`) as views of it.
                x = torch.empty(0, dtype=t.dtype)
                x.set_(storage.storage(), l.offset, l.sizes, l.strides)
                inputs[a.name] = x
                storages[a.name] = storage
        env = {"%" + k: v for k, v in inputs.items()}
        env.update(negative)
        root = {"%" + k: k for k in inputs}
        flipped = set(negative)
        checks, new_strides = {}, {}
        for i, op in enumerate(self.ops):
            vals = [env[o] for o in op.operands]
            if op.fn is None:
                vals[1].copy_(vals[0])
                dst = op.operands[1]
                if dst in flipped:
                    idx = ex.indices(lay[dst]).reshape(-1)
                    storage = storages.get(root[dst])
                    storage = inputs[root[dst]].view(-1) if storage is None else storage
                    storage[idx] = vals[1].reshape(-1)
                continue
            src, tvop = op.operands[0], self.tvops.get(i)
            out_lay = None
            if src in lay and tvop is not None:
                try:
                    out_lay = tvop.model(lay[src])
                except tv.ViewError:
                    if src in flipped:
                        op.fn(*vals)             # PyTorch's message where it has one
                        raise RuntimeError(VIEW_MESSAGE)
            elif src in lay and op.text.startswith("layout.to ") and op.text.split()[2] == dtype_of(vals[0]):
                out_lay = lay[src]               # to the same dtype: the operand itself
            elif src in lay and op.text.startswith("layout.to "):
                # A conversion: a new tensor, preserve_format of the operand.
                l = lay[src]
                dense = tv.is_non_overlapping_and_dense(l.sizes, l.strides)
                out_lay = tv.Layout(l.sizes, l.strides if dense else tv.infer_dense_strides(l.sizes, l.strides),
                                    0, max(1, math.prod(l.sizes)), False)
            out = op.fn(*vals)
            if op.reduce:
                checks[op.results[0]] = de.oracle_check(vals[0], out, *op.reduce)
            outs = [out] if len(op.results) == 1 else list(out)
            if len(outs) != len(op.results):
                raise RuntimeError("split: wrong number of parts")
            for r, t in zip(op.results, outs):
                env[r] = t
            if out_lay is not None and out_lay.aliases:
                r = op.results[getattr(tvop, "pick", 0) if len(op.results) > 1 else 0]
                lay[r], root[r] = out_lay, root[src]
                if src in flipped or isinstance(tvop, tv.Flip):
                    flipped.add(r)
            elif out_lay is not None and src in flipped and len(op.results) == 1:
                # After a flip, PyTorch's copy has other strides than
                # layoutc's new tensor of the model's view: the model's.
                new_strides[op.results[0]] = list(out_lay.strides)
        self.checks = [checks.get(r) for r in self.rets]
        self.new_strides = {id(env[r]): new_strides[r] for r in self.rets if r in new_strides}
        self.result_layouts = {id(env[r]): (root[r], lay[r]) for r in self.rets if r in lay}
        return [env[r] for r in self.rets]


def dtype_of(t: torch.Tensor) -> str:
    return de.NAME_OF_TORCH[t.dtype]


def convert(fn: ex.Fn, origin: str, keep_ones=False):
    """(FormProg, None) or (None, the reason it cannot be dynamic today).
    With keep_ones, an argument's dims of size 1 stay static (1)."""
    p = FormProg(fn.name, random_program=fn.random_program)
    p.kept_ones = keep_ones
    p.origin = origin
    p.fn_text = fn.text()
    names = {}
    for e in fn.__dict__.get("trace", []):
        kind = e[0]
        if kind == "storage":
            # !layout.storage<?xT>: its length varies with the shape.
            _, name, dt, n, data = e
            names[name] = p.arg(name[1:], dt, [None], kind=data)
            p.args[-1] = StorageArg(p.args[-1].name, p.args[-1].dt, [None])
            p.types[name] = p.args[-1].type()
            p.natural[name[1:]] = [n]
        elif kind == "arg":
            _, name, dt, sizes, strides, offset, data = e
            dims = [1 if keep_ones and n == 1 else None for n in sizes]
            names[name] = p.arg(name[1:], dt, dims, kind=data)
            p.natural[name[1:]] = list(sizes)
            if tuple(strides) != tuple(tv.contiguous_strides(sizes)) or offset:
                # Non-row-major, offset or negative strides: every size `?`,
                # the strides `?` (1 where it is 1 at every size), the
                # layout at other sizes the declared one's pattern.
                try:
                    pattern = StridePattern(sizes, strides, offset)
                except ValueError as err:
                    return None, f"an argument whose strides follow no pattern ({err})"
                p.args[-1] = PatternArg(p.args[-1].name, p.args[-1].dt, dims, pattern=pattern)
                p.types[name] = p.args[-1].type()
        elif kind == "op":
            _, o, src, outs = e
            if isinstance(o, tv.Split):
                if o.results == 1:
                    f = (lambda t, o=o: t.split_with_sizes(o.sizes, o.dim)[0])
                else:
                    f = (lambda t, o=o: t.split_with_sizes(o.sizes, o.dim))
                res = p.op(f"layout.split {{0}} {o.syntax()}", [names[src]], f, results=o.results, pick=o.pick)
                res = [res] if o.results == 1 else res
            else:
                f = (lambda t, d=list(o.dims): torch.flip(t, d)) if isinstance(o, tv.Flip) else o.torch
                res = [p.view(names[src], o.name, o.syntax(), f)]
            p.tvops[len(p.ops) - 1] = o
            for n, r in zip(outs, res):
                names[n] = r
        elif kind == "to":
            _, src, dt, out = e
            names[out] = p.to(names[src], dt)
        elif kind == "copy":
            p.copy(names[e[1]], names[e[2]])
        elif kind == "reduce":
            _, src, rk, dims, keep, out = e
            names[out] = p.reduce(names[src], rk, dims, keep)
        elif kind == "ret":
            p.ret(*[names[n] for n in e[1]])
    if not p.args:
        return None, "no argument"
    if any(a.written and isinstance(a, PatternArg) and any(g < 0 for g in a.pattern.sign) for a in p.args):
        return None, "a written argument with negative strides (PyTorch cannot hold it)"
    return p, None


# ---------------------------------------------------------------------------
# Shapes: candidates tried with the PyTorch reference.
# ---------------------------------------------------------------------------

def try_shape(p: FormProg, shape):
    """'ok', ('err', PyTorch's message), or None (unusable: too large, or
    what this script's reduction oracle cannot take)."""
    inputs = {a.name: torch.zeros(shape[a.name], dtype=a.dt.torch) for a in p.args}
    try:
        p.reference(inputs)
    except (RuntimeError, IndexError, ValueError) as e:
        return ("err", de.torch_message(e))
    except (ex.Illegal, ex.OracleError, AssertionError):
        return None
    return "ok"


def factorizations(n: int, rank: int, rng: random.Random, count=6):
    """A few shapes of `rank` dims with n elements."""
    out = []
    if rank == 0 or n == 0:
        return out
    divisors = [d for d in range(1, n + 1) if n % d == 0]
    for _ in range(count * 3):
        rest, dims = n, []
        for _ in range(rank - 1):
            ds = [d for d in divisors if rest % d == 0]
            d = rng.choice(ds)
            dims.append(d)
            rest //= d
        dims.append(rest)
        rng.shuffle(dims)
        if dims not in out:
            out.append(dims)
        if len(out) >= count:
            break
    return out


def candidates(p: FormProg, rng: random.Random):
    nat = p.natural
    names = [a.name for a in p.args]
    values = sorted({s for n in names for s in nat[n]})
    big = [v for v in values if v > 1] or values

    def subst(m):
        return {n: [m.get(s, s) for s in nat[n]] for n in names}

    def at(n, d, v):
        s = {k: list(nat[k]) for k in names}
        s[n][d] = v
        return s

    out = []
    for v in big:                                   # one extent value -> 0
        out.append(subst({v: 0}))
    out.append(subst({v: 1 for v in values}))        # every extent 1
    for v in big:                                   # one extent value -> 1
        out.append(subst({v: 1}))
    for t in (17, 33, 63, 5, 3, 7):                 # odd extents
        for v in big:
            out.append(subst({v: t}))
    odd_map = {v: ODD[(i + 2) % len(ODD)] for i, v in enumerate(big)}
    out.append(subst(odd_map))
    for n in names:                                 # one position at a time
        for d in range(len(nat[n])):
            for v in (0, 1, 17, 33, 3):
                out.append(at(n, d, v))
    for n in names:                                 # same element count (view, reshape, unflatten)
        numel = math.prod(nat[n])
        for dims in factorizations(numel, len(nat[n]), rng):
            s = {k: list(nat[k]) for k in names}
            s[n] = dims
            out.append(s)
        if len(nat[n]) >= 2:
            perm = list(nat[n])
            rng.shuffle(perm)
            s = {k: list(nat[k]) for k in names}
            s[n] = perm
            out.append(s)
    for _ in range(60):                             # random substitutions and positions
        if rng.random() < 0.5:
            out.append(subst({v: rng.choice(POOL + [v, v]) for v in values}))
        else:
            out.append({n: [rng.choice(POOL) if rng.random() < 0.6 else s for s in nat[n]] for n in names})
    return out


def features(shape, nat):
    flat = [s for n in shape for s in shape[n]]
    natf = [s for n in nat for s in nat[n]]
    has0 = 0 in flat
    has1 = any(s == 1 and (s != t or all(x == 1 for x in flat)) for s, t in zip(flat, natf))
    odd = any(s % 2 and s >= 17 and s != t for s, t in zip(flat, natf))
    odd_small = any(s % 2 and s >= 3 and s != t for s, t in zip(flat, natf))
    return has0, has1, odd, odd_small


def choose_shapes(p: FormProg, seed: int, want=4):
    """p.shapes (its own shape first, then those PyTorch accepts) and p.bad."""
    nat = {n: list(s) for n, s in p.natural.items()}
    p.shapes = [nat]
    p.bad = []
    if all(len(s) == 0 for s in nat.values()):
        return
    rng = random.Random(f"{seed}-{p.name}")
    nat_numel = max(math.prod(s) for s in nat.values())
    limit = max(MAX_NUMEL, nat_numel)
    seen = {json.dumps(nat, sort_keys=True)}
    good, bad, bad_msgs = [], [], set()
    need = {"zero": None, "one": None, "odd": None, "odd_small": None}
    # A program with an as_strided runs at least one operand too small for
    # it (PyTorch's setStorage message) where a candidate gives one.
    strided_op = p.has_as_strided()
    too_small = None
    static = [(a.name, d, n) for a in p.args for d, n in enumerate(a.dims) if n is not None]
    for cand in candidates(p, rng):
        key = json.dumps(cand, sort_keys=True)
        if key in seen or any(math.prod(s) > limit for s in cand.values()) or \
                any(cand[a][d] != n for a, d, n in static):
            continue
        seen.add(key)
        r = try_shape(p, cand)
        if r is None:
            continue
        if r == "ok":
            has0, has1, odd, odd_small = features(cand, nat)
            for k, f in (("zero", has0), ("one", has1), ("odd", odd), ("odd_small", odd_small)):
                if f and need[k] is None:
                    need[k] = key
            good.append((key, cand))
        else:
            if strided_op and too_small is None and r[1].startswith("setStorage: "):
                too_small = (cand, r[1])
            if r[1] not in bad_msgs and len(bad) < 3:
                bad_msgs.add(r[1])
                bad.append((cand, r[1]))
        if all(need[k] for k in ("zero", "one", "odd")) and len(good) >= 2 * want and bad and \
                (not strided_op or too_small):
            break
    picked = []
    for k in ("zero", "one", "odd", "odd_small"):
        if need[k] and need[k] not in picked:
            picked.append(need[k])
    for key, _ in good:
        if len(picked) >= want:
            break
        if key not in picked:
            picked.append(key)
    by_key = dict(good)
    p.shapes += [by_key[k] for k in picked[:want]]
    p.cover = {k for k in ("zero", "one", "odd") if need[k] and need[k] in picked[:want]}
    extra = len(p.shapes) - 1
    n_bad = max(3 - extra, 1 if bad else 0)
    if too_small is not None and too_small not in bad[:n_bad]:
        bad = [too_small] + [b for b in bad if b is not too_small]
    p.bad = [{"shape": s, "why": "pytorch", "msg": m} for s, m in bad[:n_bad]]


# ---------------------------------------------------------------------------
# Running.
# ---------------------------------------------------------------------------

class Runner(de.Runner):
    """dynamic_exec's Runner, counting per program the calls at shapes
    PyTorch accepts and those it rejects (bad calls), and which passed."""

    in_good = False
    current: Optional[FormProg] = None

    def run_good(self, p, f, lib, shape):
        bad, failed = self.bad_calls, self.failed
        self.in_good = True
        Runner.current = p
        try:
            super().run_good(p, f, lib, shape)
        finally:
            self.in_good = False
            Runner.current = None
        self.count(p, self.bad_calls != bad, self.failed == failed)

    def arg_buffer(self, p, a, sizes, null_strides=False):
        """A PatternArg is passed with its pattern's layout at these sizes."""
        if isinstance(a, PatternArg):
            # as_strided may read the storage outside the view, which the
            # reference holds as zeros.
            return PatternBuffer(a.dt, a.pattern.layout(tuple(sizes)), self.rng,
                                 dynamic_offset=a.pattern.static_offset != 0, zeros=p.has_as_strided())
        return super().arg_buffer(p, a, sizes, null_strides)

    def run_bad(self, p, f, lib, shape, *a, **kw):
        if self.in_good:
            return super().run_bad(p, f, lib, shape, *a, **kw)
        failed = self.failed
        super().run_bad(p, f, lib, shape, *a, **kw)
        self.count(p, True, self.failed == failed)

    @staticmethod
    def count(p, bad, ok):
        key = ("bad" if bad else "good") + ("_ok" if ok else "_failed")
        p.calls[key] += 1


_dense_view_in = de.view_in


def view_in(arg: torch.Tensor, want: torch.Tensor, strides) -> bool:
    """dynamic_exec.view_in (a dense or PyTorch-strided view of the reported
    argument holds the result's values), and also the model's view where the
    result views its argument through a flip: negative strides, which
    dynamic_exec.view_in does not try.  main() installs it as
    dynamic_exec.view_in for this script's run."""
    if _dense_view_in(arg, want, strides):
        return True
    p = Runner.current
    found = p.result_layouts.get(id(want)) if p is not None else None
    if found is None:
        return False
    name, l = found
    spec = next((a for a in p.args if a.name == name), None)
    if isinstance(spec, PatternArg):
        # The argument's values in its own storage (the pattern's layout).
        al = spec.pattern.layout(tuple(arg.shape))
        storage = torch.zeros(al.storage, dtype=arg.dtype)
        if arg.numel():
            storage[ex.indices(al)] = arg
        if tuple(l.sizes) != tuple(want.shape) or l.storage != al.storage:
            return False
        return de.first_mismatch(ex.gather(storage, l), want) is None
    if tuple(l.sizes) != tuple(want.shape) or l.storage != arg.numel():
        return False
    return de.first_mismatch(ex.gather(arg.contiguous().view(-1), l), want) is None


def classify(msg: str):
    """('known', key), ('documented', key) or None (a failure)."""
    if de.crashed(msg):
        return None
    for k, m in de.KNOWN_CODEGEN.items():
        if m in msg:
            return "known", k
    for k, (_, pattern) in DOCUMENTED.items():
        if re.search(pattern, msg):
            return "documented", k
    return None


def build_fns(args):
    """exec_test.py's functions: (fn, origin) for the hand cases and the random chains (build_cases' draws)."""
    out = [(f, "hand") for f in ex.hand_cases(args.seed)]
    for count, draw, origin in ((args.count, ex.random_fn, "random"),
                                (args.count_large, ex.random_large_fn, "random_large")):
        for i in range(count):
            for attempt in range(1000):
                fn = draw(args.seed, i, attempt)
                if fn is not None:
                    out.append((fn, origin))
                    break
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layoutc", default="layoutc")
    parser.add_argument("--rt-lib", required=True, help="liblayout_rt.a (built with -fPIC)")
    parser.add_argument("--rt-include", required=True)
    parser.add_argument("--cc", default="cc", help="C compiler (with flags) that links the shared library")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=320, help="exec_test.py's random chains (as exec.test)")
    parser.add_argument("--count-large", type=int, default=80, help="exec_test.py's large random chains (as exec.test)")
    parser.add_argument("--random-sample", type=int, default=0,
                        help="run a seeded subset of this many random chains (0: all)")
    parser.add_argument("--batch", type=int, default=80, help="functions per module")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--workdir", help="keep modules and libraries here")
    parser.add_argument("--filter", help="only functions whose name matches this regex")
    parser.add_argument("--strict", action="store_true", help="count known and documented rejections as failures")
    parser.add_argument("--min-programs", type=int, default=300, help="converted programs that must run (default 300)")
    args = parser.parse_args(argv)
    args.layoutc = shutil.which(args.layoutc) or args.layoutc
    args.target = "cpu"
    de.view_in = view_in
    cc = [w for w in shlex.split(args.cc) if not w.startswith("-fsanitize")]
    torch.manual_seed(args.seed)
    t0 = time.time()

    fns = build_fns(args)
    if args.filter:
        fns = [(f, o) for f, o in fns if re.search(args.filter, f.name)]
    skipped = collections.defaultdict(list)
    progs: List[FormProg] = []
    for fn, origin in fns:
        p, why = convert(fn, origin)
        if p is None:
            skipped[why].append(fn.name)
        else:
            progs.append(p)
    hand = [p for p in progs if p.origin == "hand"]
    randoms = [p for p in progs if p.origin != "hand"]
    n_random_converted = len(randoms)
    if args.random_sample and len(randoms) > args.random_sample:
        keep = set(p.name for p in random.Random(args.seed).sample(randoms, args.random_sample))
        randoms = [p for p in randoms if p.name in keep]
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
                           600, 0)
    listed = collections.defaultdict(list)     # known / documented rejections: key -> [(name, msg)]

    def rejected(p, stage, msg):
        c = classify(msg)
        if c is not None and not args.strict:
            p.status = c[0]
            listed[c[1]].append((p.name, msg))
            return
        p.module, p.status = stage, "failed"
        text = p.text(with_return=stage != "types")
        runner.fail(p, f"layoutc rejects the dynamic form ({stage}): {msg}\n" + "\n".join(text)
                    + f"\n  static form (exec_test.py):\n{p.fn_text}")

    de.resolve_types(args, progs, workdir)
    # A squeeze of a dim whose size is `?` is an error (D1: the rank would
    # depend on it). Such a program runs with its arguments' dims of size 1
    # static, where that is enough and some size stays `?`, every other
    # size `?`.
    by_name = {fn.name: (fn, origin) for fn, origin in fns}
    again = []
    for i, p in enumerate(progs):
        if p.status in ("rejected", "failed") and classify(p.error) == ("documented", "D1"):
            q, _ = convert(*by_name[p.name], keep_ones=True)
            if q is not None:
                again.append((i, q))
    de.resolve_types(args, [q for _, q in again], workdir)
    for i, q in again:
        # Only where a size stays `?`: else it would be the static program.
        if q.status == "built" and any(d is None for a in q.args for d in a.dims):
            progs[i] = q
    for p in progs:
        if p.status in ("rejected", "failed"):
            rejected(p, "types", p.error)
    built = [p for p in progs if p.status == "built"]
    for p in built:
        p.result_dtypes = [de.DTYPES[de.dtype_of_type(p.types[r])] for r in p.rets]
    t_types = time.time()

    def flags(path):
        return settings.emit_kinds() + ["-o", path[:-5]]

    def compile_chunks(progs, tag, flags):
        """dynamic_exec.compile_groups on modules of --batch functions, --jobs at a time."""
        chunks = [progs[i:i + args.batch] for i in range(0, len(progs), args.batch)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            outs = list(pool.map(lambda c: de.compile_groups(args.layoutc, c[1], workdir, f"{tag}{c[0]}", flags,
                                                             lambda p: p.text(), 1), enumerate(chunks)))
        done, errors = [], []
        for d, e in outs:
            done += d
            errors += e
        return done, errors

    # The functions code generation rejects, found with --emit=header (which
    # runs the same checks in a fraction of the time), leave first, so that
    # each module is compiled to an object once.
    _, errors = compile_chunks(built, "check", lambda path: ["--emit=header", "-o", path[:-5] + ".h"])
    for p, msg in errors:
        rejected(p, "codegen", msg)
    compiled, errors = compile_chunks([p for p in built if p.status == "built"], "form", flags)
    for p, msg in errors:
        rejected(p, "codegen", msg)
    t_codegen = time.time()

    def link(item):
        group, _, path = item
        base = path[:-5]
        explain = subprocess.run([args.layoutc, path, "--emit=explain"], capture_output=True, text=True)
        lib = base + ".so"
        proc = subprocess.run(cc + ["-shared", "-o", lib, base + ".o", "-Wl,--whole-archive", args.rt_lib,
                                    "-Wl,--no-whole-archive", "-lpthread", "-lm"], capture_output=True, text=True)
        return group, path, base, explain, proc, lib

    # Shapes are chosen (PyTorch's reference) while the modules link.
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
    linking = [pool.submit(link, item) for item in compiled]
    for group, _, _ in compiled:
        for p in group:
            choose_shapes(p, args.seed)
    ran = []
    for future in linking:
        group, path, base, explain, proc, libpath = future.result()
        for p in group:
            p.module = os.path.basename(path)
        if proc.returncode != 0 or explain.returncode != 0:
            for p in group:
                runner.fail(p, f"link or explain failed: {proc.stderr.strip()[:800]} {explain.stderr.strip()[:800]}")
            continue
        info = {fn["name"]: fn for fn in json.loads(explain.stdout)["functions"]}
        with open(base + ".h") as fh:
            header = fh.read()
        lib = de.Library(libpath)
        for p in group:
            p.aliases = de.header_aliases(header, p)
            explained = [r["aliases"] for r in info[p.name]["results"]]
            if explained != p.aliases:
                runner.fail(p, f"explain says aliases {explained}, the header {p.aliases}")
            failed = runner.failed
            runner.run_program(p, lib, header)
            if runner.failed != failed:
                print(f"  static form (exec_test.py) of {p.name}:\n{p.fn_text}", end="", flush=True)
            ran.append(p)
    pool.shutdown()

    # -- counts ------------------------------------------------------------------
    n_skip = sum(len(v) for v in skipped.values())
    print(f"programs: {len(fns)} from exec_test.py ({sum(1 for _, o in fns if o == 'hand')} hand-written, "
          f"{sum(1 for _, o in fns if o != 'hand')} random chains); {len(fns) - n_skip} converted "
          f"({len(hand)} hand-written, {n_random_converted} random chains, of which {len(randoms)} run); "
          f"{n_skip} skipped")
    for why, items in sorted(skipped.items(), key=lambda kv: -len(kv[1])):
        print(f"skipped {len(items)}: {why}: {', '.join(items[:8])}{' ...' if len(items) > 8 else ''}")
    for key, items in sorted(listed.items()):
        what = de.KNOWN[key] if key in de.KNOWN else DOCUMENTED[key][0]
        kind = "known limitation" if key in de.KNOWN else "documented rejection"
        print(f"{kind} {key} ({len(items)} functions, e.g. {items[0][0]}: {items[0][1][:200]}): {what}")
        print(f"  {key}: {', '.join(n for n, _ in items)}")
    kept = [p.name for p in ran if p.kept_ones]
    if kept:
        print(f"ran {len(kept)} programs with a squeeze with their arguments' size-1 dims static (D1 with every "
              f"size `?`): {', '.join(kept)}")
    static_only = [p for p in ran if all(not s for s in p.natural.values())]
    tot = collections.Counter()
    for p in ran:
        tot.update(p.calls)
    good = tot["good_ok"] + tot["good_failed"]
    bad = tot["bad_ok"] + tot["bad_failed"]
    dist = collections.Counter((p.calls["good_ok"] + p.calls["good_failed"], p.calls["bad_ok"] + p.calls["bad_failed"])
                               for p in ran if p not in static_only)
    few = [p.name for p in ran if p not in static_only and sum(p.calls.values()) < 4]
    n_hand = sum(1 for p in ran if p.origin == "hand")
    print(f"ran {len(ran)} programs ({n_hand} hand-written, {len(ran) - n_hand} random chains; "
          f"{len(static_only)} with rank-0 arguments only, at their one shape): "
          f"{good + bad} calls: {good} at shapes PyTorch accepts ({tot['good_ok']} right), {bad} at shapes "
          f"it rejects ({tot['bad_ok']} returned PyTorch's error and wrote nothing); programs by (accepted, "
          f"rejected) shapes: " + ", ".join(f"{k}: {n}" for k, n in sorted(dist.items())))
    cover = collections.Counter(k for p in ran if p not in static_only for k in p.cover)
    print(f"programs with a shape PyTorch accepts that has an extent 0: {cover['zero']}, extents 1: {cover['one']}, "
          f"an odd extent >= 17: {cover['odd']} (of {len(ran) - len(static_only)})")
    if few:
        print(f"FAIL fewer than 4 shapes: {', '.join(few)}")
        runner.failed += 1
    print(f"{runner.view_reports} calls reported a result as its operand's view")
    if len(ran) < args.min_programs:
        print(f"FAIL too few programs ran: {len(ran)} < {args.min_programs}")
        runner.failed += 1
    print(f"time: {time.time() - t0:.0f}s (programs and types {t_types - t0:.0f}s, code generation "
          f"{t_codegen - t_types:.0f}s, shapes, linking and calls {time.time() - t_codegen:.0f}s)")
    print(f"{runner.passed} passed, {runner.failed} failed")
    if tmp is not None:
        tmp.cleanup()
    return 1 if runner.failed else 0


if __name__ == "__main__":
    sys.exit(main())
