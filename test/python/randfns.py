"""Random PyTorch functions for the differential tests of layoutc.compile.

`random_function(seed)` draws one function as Python source:

    def f(x, y):
        v1 = x.permute(2, 0, 1)
        v2 = v1[:, -3::2]
        r = v2.sum(dim=(0, -1), keepdim=True)
        return v2, r

a chain of 0-4 view ops on the argument `x` (view, reshape, permute,
transpose, t, movedim, swapaxes, slicing with steps and negative bounds,
select, narrow, expand, unsqueeze, squeeze, diagonal, unfold, as_strided,
unflatten, flatten, split/chunk/unbind elements) ending in a copy
(contiguous, clone, channels-last, flip, a copying reshape), a conversion
(`.to(dtype)`), a reduction (sum, mean, prod, amax, amin, argmax, argmin,
max, min, with dims and keepdim) or a `copy_` into the second argument `y`
or a view of it; the function returns the ending's result, the chain's view
and the result, or (for copy_) nothing or the written view. Every op is
validated eagerly on the real arguments while drawing, so every function
runs in PyTorch 1.13 on the CPU (combinations it rejects, e.g. prod of f16
or argmax of bool, are never drawn).

Arguments are described by an `ArgSpec` (shape, dtype, how the tensor is
laid out: contiguous, permuted, sliced with a step, at a storage offset,
expanded with stride 0; and what values it holds), and made afresh for every
call, so that the eager and the compiled call each write their own `y`.
Everything is drawn from `random.Random(seed)` and `torch.Generator` seeded
from it: the same seed gives the same function, arguments and values.
"""

import dataclasses
import os
import sys
import math
import random
from typing import List, Optional, Tuple

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "differential"))
from torch_views import factorize  # noqa: E402  (the view-chain generator's)

DTYPES = [torch.bool, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.uint8, torch.float16, torch.bfloat16, torch.float32,
          torch.float64]
INT_RANGES = {torch.int8: (-128, 127), torch.int16: (-2**15, 2**15 - 1),
              torch.int32: (-2**31, 2**31 - 1),
              torch.int64: (-2**62, 2**62), torch.uint8: (0, 255)}
MAX_RANK = 5


def dtype_name(dtype):
    return str(dtype).replace("torch.", "")


# ---------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class ArgSpec:
    """How to make one argument: `shape` and `dtype` of the tensor the
    function sees; `layout`: 'contiguous', 'permuted' (a contiguous tensor
    of the shape permuted by `perm`, viewed back), 'sliced' (every `step`-th
    element of dim `dim` of a larger tensor, from `start`), 'offset' (a
    contiguous view at storage offset `start`), 'expanded' (the dims in
    `dims` have stride 0) or 'permuted+sliced'; `values`: 'any' (full range
    for ints, normal floats with NaN/inf/-0.0 sometimes), 'small' (|v| <= 3),
    'intlike' (floats that are integers or halves in [-100, 100]),
    'nonneg' (floats in [0, 200)), 'nearone' (floats of magnitude 0.5-1.5),
    'plain' (normal floats, no specials)."""
    shape: Tuple[int, ...]
    dtype: torch.dtype
    layout: str = "contiguous"
    perm: Tuple[int, ...] = ()
    dim: int = 0
    step: int = 1
    start: int = 0
    dims: Tuple[int, ...] = ()
    values: str = "any"
    seed: int = 0

    def make(self) -> torch.Tensor:
        shape = list(self.shape)
        if "permuted" in self.layout:
            base_shape = [shape[p] for p in self.perm]
        else:
            base_shape = list(shape)
        n = base_shape[self.dim] if base_shape else 0
        if "sliced" in self.layout:
            base_shape[self.dim] = self.start + max(n - 1, 0) * self.step + 1 + self.step
        if self.layout == "expanded":
            base_shape = [1 if d in self.dims else s for d, s in enumerate(shape)]
        numel = math.prod(base_shape)
        extra = self.start if self.layout == "offset" else 0
        flat = fill(numel + extra, self.dtype, self.values, self.seed)
        base = flat[extra:].view(base_shape)
        t = base
        if "sliced" in self.layout:
            t = torch.ops.aten.slice(t, self.dim, self.start,
                                     self.start + max(n - 1, 0) * self.step + 1 if n else self.start,
                                     self.step)
        if "permuted" in self.layout:
            inverse = [self.perm.index(d) for d in range(len(shape))]
            t = t.permute(inverse)
        if self.layout == "expanded":
            t = t.expand(shape)
        assert tuple(t.shape) == tuple(shape), (t.shape, shape, self)
        return t


def fill(n, dtype, values, seed) -> torch.Tensor:
    """`n` values of `dtype`, drawn from `seed` (see ArgSpec.values)."""
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return torch.randint(0, 2, (n,), generator=g).bool()
    if not dtype.is_floating_point:
        lo, hi = INT_RANGES[dtype]
        if values == "small":
            lo, hi = max(lo, -3), min(hi, 3)
        if dtype == torch.int64 and values != "small":
            # randint takes int64 bounds; draw the high and low halves.
            a = torch.randint(-2**31, 2**31, (n,), generator=g)
            b = torch.randint(0, 2**31, (n,), generator=g)
            return a * 2**31 + b
        return torch.randint(lo, hi + 1, (n,), generator=g).to(dtype)
    if values == "intlike":
        v = torch.randint(-200, 201, (n,), generator=g).double() / 2
    elif values == "nonneg":
        v = torch.rand(n, generator=g, dtype=torch.float64) * 200
    elif values == "nearone":
        v = (torch.rand(n, generator=g, dtype=torch.float64) + 0.5)
        v = torch.where(torch.rand(n, generator=g) < 0.3, -v, v)
    else:
        scale = [1.0, 100.0, 1e4][int(torch.randint(0, 3, (1,), generator=g))]
        v = torch.randn(n, generator=g, dtype=torch.float64) * scale
        if values == "any" and n:
            specials = torch.tensor([math.nan, math.inf, -math.inf, -0.0, 0.0],
                                    dtype=torch.float64)
            pick = torch.rand(n, generator=g) < 0.08
            which = torch.randint(0, len(specials), (n,), generator=g)
            v = torch.where(pick, specials[which], v)
    return v.to(dtype)


def rand_size(rng, big=False):
    if big:
        return rng.choice([1, 7, 16, 31, 33, 64])
    return rng.choices([0, 1, 2, 3, 4, 5, 6], weights=[4, 20, 20, 20, 15, 10, 8])[0]


def random_arg(rng, shape, dtype, values, allow_expanded=True) -> ArgSpec:
    rank = len(shape)
    seed = rng.randrange(2**31)
    kinds = ["contiguous"] * 3
    if rank >= 2:
        kinds += ["permuted"] * 2 + ["permuted+sliced"]
    if rank >= 1:
        kinds += ["sliced"] * 2 + ["offset"]
        if allow_expanded and any(s > 1 for s in shape):
            kinds += ["expanded"]
    layout = rng.choice(kinds)
    spec = ArgSpec(tuple(shape), dtype, layout, values=values, seed=seed)
    if "permuted" in layout:
        spec.perm = tuple(rng.sample(range(rank), rank))
    if "sliced" in layout:
        spec.dim = rng.randrange(rank)
        spec.step = rng.choice([1, 2, 3])
        spec.start = rng.randint(0, 2)
    if layout == "offset":
        spec.start = rng.randint(1, 5)
    if layout == "expanded":
        big = [d for d, s in enumerate(shape) if s > 1]
        spec.dims = tuple(rng.sample(big, rng.randint(1, len(big))))
    return spec


# ---------------------------------------------------------------------------
# View ops: each draws the Python code of one op on the tensor `t` (with
# `{}` for the operand) or None when it has none for that tensor.
# ---------------------------------------------------------------------------

def rand_dim(rng, rank):
    n = max(rank, 1)
    d = rng.randrange(n)
    return d - n if rng.random() < 0.3 else d


def reshape_target(rng, sizes):
    """A shape with as many elements: adjacent dims merged or split, or any
    factorization; sometimes with one -1."""
    sizes = list(sizes)
    if sizes and rng.random() < 0.6:
        out, i = [], 0
        while i < len(sizes):
            r = rng.random()
            if r < 0.3 and i + 1 < len(sizes):
                out.append(sizes[i] * sizes[i + 1])
                i += 2
                continue
            if r < 0.5:
                out.extend(factorize(rng, sizes[i], 2))
            elif not (sizes[i] == 1 and r < 0.6):
                out.append(sizes[i])
            i += 1
    else:
        out = factorize(rng, math.prod(sizes), rng.randint(1, 3))
    if len(out) > MAX_RANK:
        out = [math.prod(out[:len(out) - MAX_RANK + 1])] + out[len(out) - MAX_RANK + 1:]
    if out and rng.random() < 0.3:
        i = rng.randrange(len(out))
        if math.prod(out[:i] + out[i + 1:]) > 0:
            out[i] = -1
    return out


def ints(xs):
    return ", ".join(str(x) for x in xs)


def op_view(rng, t, ctx):
    shape = reshape_target(rng, t.shape)
    return rng.choice(["{}.view(%s)", "{}.reshape(%s)", "{}.view([%s])"]) % ints(shape) \
        if shape else rng.choice(["{}.view([])", "{}.reshape(())"])


def op_permute(rng, t, ctx):
    r = t.dim()
    if r < 2:
        return None
    dims = [d - r if rng.random() < 0.3 else d for d in rng.sample(range(r), r)]
    return f"{{}}.permute({ints(dims)})"


def op_transpose(rng, t, ctx):
    r = t.dim()
    a, b = rand_dim(rng, r), rand_dim(rng, r)
    if r <= 2 and rng.random() < 0.3:
        return "{}.t()"
    if r >= 2 and rng.random() < 0.2:
        return "{}.mT"
    return rng.choice(["{}.transpose(%d, %d)", "{}.swapaxes(%d, %d)"]) % (a, b)


def op_movedim(rng, t, ctx):
    r = t.dim()
    return f"{{}}.movedim({rand_dim(rng, r)}, {rand_dim(rng, r)})"


def op_slice(rng, t, ctx):
    r = t.dim()
    if r == 0:
        return None
    dim = rng.randrange(r)
    n = t.shape[dim]

    def bound():
        if rng.random() < 0.3:
            return ""
        if rng.random() < 0.1:
            return str(rng.choice([100, -100]))
        return str(rng.randint(-n - 1, n + 1))

    start, end = bound(), bound()
    step = rng.choice(["", "", ":2", ":3", ":1"])
    index = f"{start}:{end}{step}"
    if dim == r - 1 and rng.random() < 0.5:
        return f"{{}}[..., {index}]"
    return "{}[" + ", ".join([":"] * dim + [index]) + "]"


def op_select(rng, t, ctx):
    dims = [d for d in range(t.dim()) if t.shape[d] > 0]
    if not dims:
        return None
    dim = rng.choice(dims)
    n = t.shape[dim]
    i = rng.randint(-n, n - 1)
    if dim == 0 and rng.random() < 0.5:
        return f"{{}}[{i}]"
    d = dim - t.dim() if rng.random() < 0.3 else dim
    return f"{{}}.select({d}, {i})"


def op_narrow(rng, t, ctx):
    r = t.dim()
    if r == 0:
        return None
    dim = rand_dim(rng, r)
    n = t.shape[dim]
    start = rng.randint(-n, n) if n else 0
    first = start + n if start < 0 else start
    return f"{{}}.narrow({dim}, {start}, {rng.randint(0, n - first)})"


def op_expand(rng, t, ctx):
    lead = min(rng.choice([0, 0, 1, 1, 2]), MAX_RANK - t.dim())
    sizes = [rng.choice([1, 2, 3, 4]) for _ in range(lead)]
    for s in t.shape:
        sizes.append(rng.choice([-1, 1, 2, 3, 5, 0]) if s == 1 else rng.choice([-1, s]))
    if rng.random() < 0.15 and lead == 0:
        return "{}.expand_as({})"
    return f"{{}}.expand({ints(sizes)})" if sizes else "{}.expand(())"


def op_unsqueeze(rng, t, ctx):
    if t.dim() >= MAX_RANK:
        return None
    r = rng.random()
    if r < 0.2:
        return "{}[None]"
    if r < 0.3:
        return "{}[..., None]"
    return f"{{}}.unsqueeze({rand_dim(rng, t.dim() + 1)})"


def op_squeeze(rng, t, ctx):
    if rng.random() < 0.4:
        return "{}.squeeze()"
    ones = [d for d in range(t.dim()) if t.shape[d] == 1]
    dim = rng.choice(ones) if ones and rng.random() < 0.7 else rand_dim(rng, t.dim())
    return f"{{}}.squeeze({dim})"


def op_diagonal(rng, t, ctx):
    r = t.dim()
    if r < 2:
        return None
    a, b = rng.sample(range(r), 2)
    if rng.random() < 0.3:
        a -= r
    return f"{{}}.diagonal({rng.randint(-3, 3)}, {a}, {b})"


def op_unfold(rng, t, ctx):
    if t.dim() >= MAX_RANK:
        return None
    dim = rand_dim(rng, t.dim())
    n = t.shape[dim] if t.dim() else 1
    return f"{{}}.unfold({dim}, {rng.randint(0, n)}, {rng.choice([1, 1, 2, 3])})"


def op_as_strided(rng, t, ctx):
    """as_strided within the argument's storage as layoutc sees it (from its
    first element to the last one the argument's view reaches); only before
    the chain copies (the offset is absolute in the argument's storage)."""
    if ctx.copied:
        return None
    limit = ctx.storage_limit
    for _ in range(20):
        rank = rng.choice([0, 1, 1, 2, 2, 3])
        sizes = [rand_size(rng) for _ in range(rank)]
        strides = [rng.choice([0, 1, 1, 2, 3, 4, 6]) for _ in range(rank)]
        extent = 0 if 0 in sizes else 1 + sum((s - 1) * st for s, st in zip(sizes, strides))
        if extent <= limit:
            offset = rng.randint(0, limit - extent) if limit >= extent else 0
            return f"{{}}.as_strided(({ints(sizes)}{',' if rank == 1 else ''}), ({ints(strides)}{',' if rank == 1 else ''}), {offset})"
    return None


def op_unflatten(rng, t, ctx):
    r = t.dim()
    if r == 0 or r >= MAX_RANK:
        return None
    dim = rand_dim(rng, r)
    parts = factorize(rng, t.shape[dim], rng.randint(1, 3))
    if rng.random() < 0.3 and math.prod(parts) > 0:
        parts[rng.randrange(len(parts))] = -1
    return f"{{}}.unflatten({dim}, ({ints(parts)},))"


def op_flatten(rng, t, ctx):
    r = max(t.dim(), 1)
    a, b = sorted(rng.randrange(r) for _ in range(2))
    if rng.random() < 0.3:
        return "{}.flatten()"
    return f"{{}}.flatten({a - r if rng.random() < 0.3 else a}, {b})"


def op_split(rng, t, ctx):
    r = t.dim()
    if r == 0:
        return None
    dim = rand_dim(rng, r)
    n = t.shape[dim]
    kind = rng.choice(["split", "sizes", "chunk", "unbind", "torch.split"])
    if kind == "unbind":
        if n == 0:
            return None
        return f"{{}}.unbind({dim})[{rng.randrange(n)}]"
    if kind in ("split", "torch.split"):
        size = rng.randint(1, max(n, 1))
        pieces = max(-(-n // size), 1)
        call = f"{{}}.split({size}, {dim})" if kind == "split" else f"torch.split({{}}, {size}, dim={dim})"
        return f"{call}[{rng.randrange(pieces) - (pieces if rng.random() < 0.3 else 0)}]"
    if kind == "chunk":
        chunks = rng.randint(1, 4)
        got = len(torch.empty(t.shape, device="meta").chunk(chunks, dim))
        return f"{{}}.chunk({chunks}, {dim})[{rng.randrange(got)}]"
    cuts = sorted(rng.randint(0, n) for _ in range(rng.choice([1, 2])))
    sizes = [b - a for a, b in zip([0] + cuts, cuts + [n])]
    return f"{{}}.split([{ints(sizes)}], {dim})[{rng.randrange(len(sizes))}]"


VIEW_OPS = [(op_view, 1.2), (op_permute, 1.0), (op_transpose, 1.0),
            (op_movedim, 0.6), (op_slice, 1.2), (op_select, 0.8),
            (op_narrow, 0.6), (op_expand, 0.8), (op_unsqueeze, 0.8),
            (op_squeeze, 0.8), (op_diagonal, 0.6), (op_unfold, 0.6),
            (op_as_strided, 0.5), (op_unflatten, 0.6), (op_flatten, 0.6),
            (op_split, 0.8)]


# ---------------------------------------------------------------------------
# Endings
# ---------------------------------------------------------------------------

REDUCTIONS = ["sum", "mean", "prod", "amax", "amin", "argmax", "argmin",
              "max", "min"]
EXACT_REDUCTIONS = {"amax", "amin", "argmax", "argmin", "max", "min"}


def reduction_code(rng, kind, t):
    r = t.dim()
    keep = rng.random() < 0.4
    kd = ", keepdim=True" if keep else ""
    if kind in ("max", "min"):
        return f"{{}}.{kind}()"
    if kind in ("argmax", "argmin", "prod"):
        if rng.random() < 0.3:
            return f"{{}}.{kind}()"
        return f"{{}}.{kind}({rand_dim(rng, r)}{kd})"
    if kind in ("amax", "amin") and rng.random() < 0.15:
        return f"{{}}.{kind}()"
    if kind in ("sum", "mean") and rng.random() < 0.2:
        return f"{{}}.{kind}()"
    n = max(r, 1)
    count = rng.randint(1, n)
    dims = [d - n if rng.random() < 0.3 else d for d in rng.sample(range(n), count)]
    if rng.random() < 0.05:
        dims = []
    spelled = f"({ints(dims)},)" if len(dims) == 1 and rng.random() < 0.5 else (
        str(dims[0]) if len(dims) == 1 and kind in ("sum", "mean") else f"[{ints(dims)}]")
    return f"{{}}.{kind}(dim={spelled}{kd})"


@dataclasses.dataclass
class Ending:
    kind: str            # 'copy', 'to', 'reduce', 'copy_'
    code: str            # the expression (or for copy_, the statement) on `{}`
    op: str = ""         # reduction kind / conversion dtype
    target: Optional[torch.dtype] = None
    call: str = ""       # reductions: the method call without dtype=


def copy_ending(rng, t):
    choices = ["{}.contiguous()", "{}.clone()",
               "{}.clone(memory_format=torch.contiguous_format)",
               "torch.clone({})"]
    if t.dim() == 4:
        choices += ["{}.contiguous(memory_format=torch.channels_last)",
                    "{}.clone(memory_format=torch.channels_last)"] * 2
    if t.dim() == 5:
        choices += ["{}.contiguous(memory_format=torch.channels_last_3d)",
                    "{}.clone(memory_format=torch.channels_last_3d)"] * 2
    if t.dim() >= 1:
        dims = rng.sample(range(t.dim()), rng.randint(1, t.dim()))
        choices.append(f"torch.flip({{}}, [{ints(dims)}])")
        choices.append(f"{{}}.flip({dims[0] - t.dim()})")
        choices.append("{}.reshape(-1)")
        choices.append("{}.flatten()")
    return rng.choice(choices)


# ---------------------------------------------------------------------------
# Functions
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class RandomFunction:
    seed: int
    source: str          # `def f(x[, y]): ...`
    args: List[ArgSpec]
    ending: Ending
    input_dtype: torch.dtype
    chain: List[str] = dataclasses.field(default_factory=list)
    chain_name: str = "x"   # the value the ending reads

    def make_args(self):
        return [a.make() for a in self.args]

    def function(self):
        namespace = {"torch": torch}
        code = compile(self.source, f"<random function {self.seed}>", "exec")
        exec(code, namespace)
        fn = namespace["f"]
        fn.__qualname__ = f"random_{self.seed}"
        return fn

    def chain_function(self):
        """`g(x)`: the chain alone, returning the tensor the ending reads."""
        namespace = {"torch": torch}
        source = "def g(x, y=None):\n" + "".join(
            f"    {line}\n" for line in self.chain) + f"    return {self.chain_name}\n"
        exec(compile(source, f"<chain of random function {self.seed}>", "exec"), namespace)
        return namespace["g"]

    def __str__(self):
        args = "\n".join(f"  {name} = {spec}" for name, spec in zip("xy", self.args))
        return f"random function {self.seed}:\n{self.source}with\n{args}"


class _Ctx:
    def __init__(self, x):
        self.storage = x._storage()._cdata
        # What layoutc (and the trace) take the argument's storage to be:
        # up to its last element, none when it has no elements.
        self.storage_limit = 0 if 0 in x.shape else x.storage_offset() + 1 + sum(
            (s - 1) * st for s, st in zip(x.shape, x.stride()))
        self.copied = False


def _try(code, t):
    try:
        return code, eval(code.format("t"), {"torch": torch, "t": t})
    except (RuntimeError, IndexError, ValueError, TypeError):
        return None, None


def _draw_shape(rng):
    big = rng.random() < 0.08
    rank = rng.choices([0, 1, 2, 3, 4, 5], weights=[1, 3, 5, 5, 4, 1])[0]
    if big:
        rank = max(rank, 2)
    return tuple(rand_size(rng, big and rng.random() < 0.7) for _ in range(rank))


def _values_for(dtype, ending_kind, reduce_kind, target):
    if not dtype.is_floating_point:
        return "small" if reduce_kind == "prod" else "any"
    if reduce_kind == "prod":
        return "nearone"
    if target is not None and target != torch.bool and not target.is_floating_point:
        return "nonneg" if target == torch.uint8 else "intlike"
    return "any"


def random_function(seed) -> RandomFunction:
    """The function of `seed`, validated eagerly (redrawn until PyTorch
    runs it)."""
    rng = random.Random(seed)
    for _ in range(200):
        fn = _draw(rng, seed)
        if fn is not None:
            return fn
    raise AssertionError(f"no valid random function for seed {seed}")


def _draw(rng, seed):
    dtype = rng.choice(DTYPES)
    kind = rng.choices(["copy", "to", "reduce", "copy_"], weights=[3, 2, 3, 2])[0]
    reduce_kind = None
    if kind == "reduce":
        # mean takes floats only; sum and mean are the inexact ones.
        weights = {"sum": 2.5, "mean": 2.5 if dtype.is_floating_point else 0,
                   "prod": 1.2, "amax": 1.2, "argmax": 1.2}
        reduce_kind = rng.choices(REDUCTIONS, [weights.get(r, 1) for r in REDUCTIONS])[0]
    target = rng.choice(DTYPES) if kind in ("to", "copy_") else None
    if kind == "copy_" and rng.random() < 0.4:
        target = dtype
    shape = _draw_shape(rng)
    x_spec = random_arg(rng, shape, dtype, _values_for(dtype, kind, reduce_kind, target))
    x = x_spec.make()
    ctx = _Ctx(x)
    lines, cur, name = [], x, "x"
    for i in range(rng.choices([0, 1, 2, 3, 4], weights=[1, 3, 3, 2, 1])[0]):
        for _ in range(10):
            gen = rng.choices([g for g, _ in VIEW_OPS], weights=[w for _, w in VIEW_OPS])[0]
            code = gen(rng, cur, ctx)
            if code is None:
                continue
            code = code.replace("{}", "{0}")
            code, out = _try(code, cur)
            if code is None or out.numel() > 50000:
                continue
            lines.append(f"v{i + 1} = {code.format(name)}")
            cur, name = out, f"v{i + 1}"
            if cur._storage()._cdata != ctx.storage:
                ctx.copied = True
            break
    view_is_returnable = not ctx.copied and name != "x"
    ending = None
    if kind == "copy":
        code = copy_ending(rng, cur).replace("{}", "{0}")
        ending = Ending("copy", code)
    elif kind == "to":
        form = rng.random()
        tname = dtype_name(target)
        short = {torch.float32: "float", torch.float64: "double",
                 torch.float16: "half", torch.bool: "bool", torch.int32: "int",
                 torch.int64: "long", torch.int16: "short", torch.uint8: "byte",
                 torch.int8: "char", torch.bfloat16: "bfloat16"}[target]
        if form < 0.5:
            code = f"{{0}}.to(torch.{tname})"
        elif form < 0.7:
            code = f"{{0}}.{short}()"
        elif form < 0.8:
            code = f"{{0}}.to(dtype=torch.{tname}, copy=True)"
        elif form < 0.9 and cur.dim() in (4, 5):
            fmt = "channels_last" if cur.dim() == 4 else "channels_last_3d"
            code = f"{{0}}.to(torch.{tname}, memory_format=torch.{fmt})"
        elif form < 0.9:
            code = f"{{0}}.to(torch.{tname}, memory_format=torch.contiguous_format)"
        else:
            code = f"{{0}}.type(torch.{tname})"
        ending = Ending("to", code, tname, target)
    elif kind == "reduce":
        call = reduction_code(rng, reduce_kind, cur)[len("{}."):]
        code = "{0}." + call
        if reduce_kind in ("sum", "prod") and rng.random() < 0.12:
            widen = {torch.float16: "float32", torch.bfloat16: "float32",
                     torch.float32: "float64", torch.int8: "int16",
                     torch.int16: "int32", torch.int32: "int64",
                     torch.bool: "int32", torch.uint8: "int32"}.get(dtype, dtype_name(dtype))
            code = code[:-1] + (", " if code[-2] != "(" else "") + f"dtype=torch.{widen})"
        ending = Ending("reduce", code, reduce_kind, call=call)
    code = ending and ending.code
    args = [x_spec]
    if kind == "copy_":
        y_spec, dst = _copy_target(rng, cur, target)
        args.append(y_spec)
        y = y_spec.make()
        try:
            eval(f"({dst}).copy_(t)", {"torch": torch, "t": cur, "y": y})
        except RuntimeError:
            return None
        ret = rng.choice(["none", "dst", "both", "y"] if view_is_returnable else ["none", "dst", "y"])
        body = lines + [f"{dst}.copy_({name})" if ret == "none" else f"w = {dst}.copy_({name})"]
        if ret == "dst":
            body.append("return w")
        elif ret == "both":
            body.append(f"return w, {name}")
        elif ret == "y":
            body.append("return y")
        ending = Ending("copy_", dst, target=target)
        return _finish(seed, body, args, ending, dtype, lines, name)
    try:
        out = eval(code.format("t"), {"torch": torch, "t": cur})
    except (RuntimeError, IndexError, ValueError, TypeError):
        return None
    if out.numel() > 200000:
        return None
    if ctx.copied and out._storage()._cdata == cur._storage()._cdata and not covers(out):
        return None   # a view of part of a new tensor: a documented limit

    body = lines + [f"r = {code.format(name)}"]
    r = rng.random()
    if view_is_returnable and r < 0.35:
        body.append(f"return {name}, r" if rng.random() < 0.7 else f"return [r, {name}]")
    elif r < 0.45:
        body.append("return (r,)")
    else:
        body.append("return r")
    return _finish(seed, body, args, ending, dtype, lines, name)


def covers(t):
    """Whether `t` reads every element of its storage exactly once (what
    layoutc's code generation needs of a returned view of a new tensor)."""
    n = t.storage().size()
    if t.numel() != n:
        return False
    offsets = torch.zeros((), dtype=torch.int64) + t.storage_offset()
    for size, stride in zip(t.shape, t.stride()):
        offsets = offsets[..., None] + torch.arange(size) * stride
    return bool(torch.equal(offsets.reshape(-1).sort().values, torch.arange(n)))


def _copy_target(rng, src, dtype):
    """(y's ArgSpec, the code of the view of y that `src` is copied into):
    y itself or a view of it (permuted back, a select, every other element)
    whose shape `src` broadcasts to."""
    shape = list(src.shape)
    if rng.random() < 0.3:
        shape = [rng.choice([1, 2, 3])] + shape
    shape = [rng.choice([1, 2, 3]) if s == 1 and rng.random() < 0.4 else s for s in shape]
    values = "any" if dtype.is_floating_point else "small"
    form = rng.choice(["plain", "plain", "permute", "select", "step"])
    if form == "permute" and len(shape) >= 2:
        perm = rng.sample(range(len(shape)), len(shape))
        y_shape = [shape[p] for p in perm]
        inverse = [perm.index(d) for d in range(len(shape))]
        dst = f"y.permute({ints(inverse)})"
    elif form == "select":
        y_shape = [rng.choice([2, 3])] + shape
        dst = f"y[{rng.choice([0, 1, -1])}]"
    elif form == "step" and shape:
        y_shape = shape[:-1] + [2 * shape[-1]]
        dst = "y[..., 1::2]"
    else:
        y_shape, dst = shape, "y"
    spec = random_arg(rng, tuple(y_shape), dtype, values, allow_expanded=False)
    return spec, dst


def _finish(seed, body, args, ending, dtype, chain, chain_name):
    params = "x, y" if len(args) == 2 else "x"
    source = f"def f({params}):\n" + "".join(f"    {line}\n" for line in body)
    return RandomFunction(seed, source, args, ending, dtype, chain, chain_name)
