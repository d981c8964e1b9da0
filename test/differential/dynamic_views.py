#!/usr/bin/env python3
"""Differential test of layoutc's symbolic (dynamic-size) view algebra against
eager PyTorch 1.13.

The script generates seeded random view chains over one argument
`%x: !layout.tensor<?x3x?xf32>` (rank 1-4, each dim dynamic or a small static
size), 1-5 ops each, drawn from permute, transpose, movedim, slice, select,
narrow, expand, unsqueeze, squeeze, unflatten, diagonal, unfold, view,
reshape, flatten, contiguous, clone (mostly preserve_format, whose strides
layoutc decides at run time where it cannot prove the operand dense:
explain's `preserveStrides([sizes], [strides])[k]`, evaluated here with
torch_views.py's model of PyTorch's rule) and split (one part returned).

Types.  Every op names its *operand* type, which is the inferred result type
of the previous op, so the chains are built level by level: all live chains
sit in modules of many functions, each level appends one op to every chain
and `layoutc --no-opt --emit=mlir` prints the inferred types, which the next
op is generated from (rank and the sizes known statically).  layoutc stops at
the first error of a module; the function it names leaves the batch as a
compile-time error (a "declined" one when layoutc says the answer would
depend on run-time sizes, such as squeeze of a dynamic dim), and the rest of
the batch is compiled again.  view/reshape/flatten of dims layoutc cannot
prove mergeable are not declined: layoutc decides them at run time with
PyTorch's computeStride (explain's `computeStride([old sizes], [old strides],
[new sizes])[k]` and `viewable(...)` symbols, evaluated here by
`compute_stride`, a mirror of computeStride in dialect/lib/Utils/ViewOps.cpp),
so a view that is not viewable fails a check and a reshape/flatten copies.

Oracle.  Each surviving chain is compiled with `layoutc --emit=explain`
twice, through the default pipeline and with `--no-opt`, and the `symbolic`
section of each is evaluated at >= 4 concrete argument shapes (dynamic sizes
from {0, 1, 2, 3, 5, 7}; one shape with a 0, one with 1s, and where the
generator finds them shapes that pass every check).  The same chain runs in
PyTorch on `torch.empty(shape)`, and both explains must agree with it:
  * PyTorch raises iff some check fails; the first failing check's message,
    with every expression in it evaluated, must equal PyTorch's message
    (the full text, see `evaluate_message`);
  * otherwise sizes must be equal, and for views with elements the storage
    offset and the strides of dims of size > 1 (docs/internals/symbolic.md:
    the rest is unspecified); where the static result type (explain's
    top-level `results`) states a size, stride or offset it must agree too;
  * aliasing, where PyTorch succeeds and the argument has an element: the
    result views the argument's storage in PyTorch iff no op of the chain
    copies at that shape according to explain's `copies` list ("always",
    "never", or "unless <condition>": copies iff the condition is false);
  * every symbol is derived from the argument's sizes (an opaque input such
    as `%N[k]` means the view was planned as a copy).
Chains that fail to compile for a reason other than "declined" must raise in
PyTorch at every shape tried, and a chain `--no-opt --emit=mlir` accepts must
be explained by both pipelines.  Declined chains are counted, not compared.
Every mismatch is a failure.

Run with the Debian interpreter, which sees python3-torch:
  /usr/bin/python3 dynamic_views.py --layoutc build/bin/layoutc --count 2500
The last line is `N chains, M shapes compared, E errors matched, A aliasing
matched, D declined: P passed, F failed`; the exit status is non-zero on any
failure or when the run is too small to mean anything (see --min-*).
"""

import argparse
import collections
import concurrent.futures
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from typing import Dict, List, Optional

import torch

import torch_views as tv

MAX_RANK = 6
ARG = "x"
RANDOM_SIZES = (0, 1, 2, 3, 5, 7)
SEARCH_SIZES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12)
DECLINED = ("depends on its run-time size", "cannot prove contiguous", "cannot be proven")
DIAGNOSTIC = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$", re.M)
TENSOR_TYPE = re.compile(r"!layout\.tensor<(?:[^<>]|<[^<>]*>)*>")


def ints(values) -> str:
    return ", ".join(str(v) for v in values)


# ---------------------------------------------------------------------------
# Ops: syntax, PyTorch, and generation from what the type says.
# `sizes` is the operand's sizes as the type states them: int or None (`?`).
# ---------------------------------------------------------------------------

class Op:
    name = ""
    results = 1
    pick = 0

    def syntax(self) -> str:
        raise NotImplementedError

    def torch(self, t):
        raise NotImplementedError

    def __repr__(self):
        return f"{self.name} {self.syntax()}"


def rand_dim(rng, rank, negative=0.3):
    d = rng.randrange(rank)
    return d - rank if rng.random() < negative else d


class Permute(Op):
    name = "permute"

    def __init__(self, dims):
        self.dims = dims

    def syntax(self):
        return f"[{ints(self.dims)}]"

    def torch(self, t):
        return t.permute(self.dims)

    @staticmethod
    def generate(rng, sizes):
        dims = list(range(len(sizes)))
        rng.shuffle(dims)
        if dims and rng.random() < 0.03:
            dims[0] = dims[-1]  # duplicate: an error for every size
        return Permute(dims)


class Transpose(Op):
    name = "transpose"

    def __init__(self, a, b):
        self.a, self.b = a, b

    def syntax(self):
        return f"{self.a}, {self.b}"

    def torch(self, t):
        return t.transpose(self.a, self.b)

    @staticmethod
    def generate(rng, sizes):
        if not sizes:
            return None
        return Transpose(rand_dim(rng, len(sizes)), rand_dim(rng, len(sizes)))


class Movedim(Op):
    name = "movedim"

    def __init__(self, a, b):
        self.a, self.b = a, b

    def syntax(self):
        return f"{self.a} to {self.b}"

    def torch(self, t):
        return t.movedim(self.a, self.b)

    @staticmethod
    def generate(rng, sizes):
        if not sizes:
            return None
        return Movedim(rand_dim(rng, len(sizes)), rand_dim(rng, len(sizes)))


class Slice(Op):
    name = "slice"

    def __init__(self, dim, start, end, step):
        self.dim, self.start, self.end, self.step = dim, start, end, step

    def syntax(self):
        parts = ["" if v is None else str(v) for v in (self.start, self.end)]
        if self.step is not None:
            parts.append(str(self.step))
        return f"dim {self.dim} [{re.sub(' +', ' ', ' : '.join(parts)).strip()}]"

    def torch(self, t):
        return torch.ops.aten.slice(t, self.dim, self.start, self.end,
                                    1 if self.step is None else self.step)

    @staticmethod
    def generate(rng, sizes):
        if not sizes:
            return None

        def bound():
            r = rng.random()
            if r < 0.3:
                return None
            if r < 0.38:
                return rng.choice([100, -100])
            return rng.randint(-5, 6)

        step = None if rng.random() < 0.4 else rng.choice([1, 1, 2, 3, 5])
        if rng.random() < 0.02:
            step = rng.choice([0, -1])
        return Slice(rand_dim(rng, len(sizes)), bound(), bound(), step)


class Select(Op):
    name = "select"

    def __init__(self, dim, index):
        self.dim, self.index = dim, index

    def syntax(self):
        return f"dim {self.dim} index {self.index}"

    def torch(self, t):
        return t.select(self.dim, self.index)

    @staticmethod
    def generate(rng, sizes):
        if not sizes:
            return None
        dim = rand_dim(rng, len(sizes))
        n = sizes[dim]
        if n is not None and n > 0 and rng.random() < 0.85:
            return Select(dim, rng.randint(-n, n - 1))
        return Select(dim, rng.randint(-4, 4))


class Narrow(Op):
    name = "narrow"

    def __init__(self, dim, start, length):
        self.dim, self.start, self.length = dim, start, length

    def syntax(self):
        return f"dim {self.dim} start {self.start} length {self.length}"

    def torch(self, t):
        return t.narrow(self.dim, self.start, self.length)

    @staticmethod
    def generate(rng, sizes):
        if not sizes:
            return None
        dim = rand_dim(rng, len(sizes))
        n = sizes[dim]
        if n is not None and rng.random() < 0.85:
            start = rng.randint(-n, n) if n else 0
            first = start + n if start < 0 else start
            return Narrow(dim, start, rng.randint(0, n - first))
        return Narrow(dim, rng.randint(-3, 3), rng.randint(0, 3))


class Expand(Op):
    name = "expand"

    def __init__(self, sizes):
        self.sizes = sizes

    def syntax(self):
        return f"[{ints(self.sizes)}]"

    def torch(self, t):
        return t.expand(self.sizes)

    @staticmethod
    def generate(rng, sizes):
        lead = min(rng.choice([0, 0, 1, 1, 2]), MAX_RANK - len(sizes))
        out = [rng.choice([0, 1, 2, 3]) for _ in range(lead)]
        for s in sizes:
            if s == 1:
                out.append(rng.choice([-1, 1, 2, 3, 0]))
            elif s is None:
                out.append(rng.choice([-1, -1, -1, 1, 2, 3]))
            else:
                out.append(rng.choice([-1, s]))
        if rng.random() < 0.03 and lead:
            out[0] = -1  # -1 in a new leading dim: an error for every size
        return Expand(out)


class Squeeze(Op):
    name = "squeeze"

    def __init__(self, dims):
        self.dims = dims

    def syntax(self):
        return f"[{ints(self.dims)}]"

    def torch(self, t):
        return t.squeeze() if not self.dims else t.squeeze(self.dims[0])

    @staticmethod
    def generate(rng, sizes):
        ones = [d for d, s in enumerate(sizes) if s == 1]
        static = [d for d, s in enumerate(sizes) if s is not None]
        if len(static) == len(sizes) and rng.random() < 0.3:
            return Squeeze([])
        if ones and rng.random() < 0.8:
            d = rng.choice(ones)
        elif static and rng.random() < 0.5:
            d = rng.choice(static)
        elif sizes:
            d = rng.randrange(len(sizes))  # maybe dynamic: declined
        else:
            return Squeeze([])
        return Squeeze([d - len(sizes) if rng.random() < 0.3 else d])


class Unsqueeze(Op):
    name = "unsqueeze"

    def __init__(self, dim):
        self.dim = dim

    def syntax(self):
        return f"dim {self.dim}"

    def torch(self, t):
        return t.unsqueeze(self.dim)

    @staticmethod
    def generate(rng, sizes):
        if len(sizes) >= MAX_RANK:
            return None
        return Unsqueeze(rand_dim(rng, len(sizes) + 1))


def factor_shape(rng, n):
    """Sizes for unflatten/view of a dim (or numel) whose static size is `n`
    (None when dynamic), maybe with one -1."""
    if n is None:
        return rng.choice([[2, -1], [-1, 2], [1, -1], [-1, 1], [3, -1], [-1, 1, 2],
                           [-1], [2, 2, -1], [-1, 3]])
    divisors = [d for d in range(1, n + 1) if n % d == 0] or [1]
    d = rng.choice(divisors) if n else rng.choice([0, 1, 2])
    rest = n // d if d else rng.choice([0, 3])
    shape = [d, rest]
    if rng.random() < 0.5:
        shape[rng.randrange(2)] = -1
    if rng.random() < 0.1:
        shape.append(1)
    return shape


class Unflatten(Op):
    name = "unflatten"

    def __init__(self, dim, sizes):
        self.dim, self.sizes = dim, sizes

    def syntax(self):
        return f"dim {self.dim} [{ints(self.sizes)}]"

    def torch(self, t):
        return t.unflatten(self.dim, self.sizes)

    @staticmethod
    def generate(rng, sizes):
        if not sizes or len(sizes) >= MAX_RANK - 1:
            return None
        dim = rand_dim(rng, len(sizes))
        return Unflatten(dim, factor_shape(rng, sizes[dim]))


class Diagonal(Op):
    name = "diagonal"

    def __init__(self, offset, a, b):
        self.offset, self.a, self.b = offset, a, b

    def syntax(self):
        return f"offset {self.offset} dims {self.a}, {self.b}"

    def torch(self, t):
        return t.diagonal(self.offset, self.a, self.b)

    @staticmethod
    def generate(rng, sizes):
        if len(sizes) < 2:
            return None
        a, b = rng.sample(range(len(sizes)), 2)
        if rng.random() < 0.3:
            a -= len(sizes)
        return Diagonal(rng.randint(-3, 3), a, b)


class Unfold(Op):
    name = "unfold"

    def __init__(self, dim, size, step):
        self.dim, self.size, self.step = dim, size, step

    def syntax(self):
        return f"dim {self.dim} size {self.size} step {self.step}"

    def torch(self, t):
        return t.unfold(self.dim, self.size, self.step)

    @staticmethod
    def generate(rng, sizes):
        if not sizes or len(sizes) >= MAX_RANK:
            return None
        return Unfold(rand_dim(rng, len(sizes)), rng.choice([0, 1, 1, 2, 2, 3]), rng.choice([1, 1, 2, 3]))


def reshape_shape(rng, sizes):
    """A target shape for view/reshape: keep the static sizes, at most one -1."""
    known = math.prod(s for s in sizes if s is not None)
    dynamic = [d for d, s in enumerate(sizes) if s is None]
    r = rng.random()
    if r < 0.3:
        return [-1]
    if r < 0.55 and len(dynamic) <= 1:
        shape = [(-1 if s is None else s) for s in sizes]
        if rng.random() < 0.5 and len(shape) < MAX_RANK:
            shape.insert(rng.randrange(len(shape) + 1), 1)
        return shape
    if r < 0.8:
        return rng.choice([[2, -1], [-1, 2], [-1, 1], [1, -1], [3, -1], [-1, 2, 2]])
    return factor_shape(rng, None if dynamic else known)


class View(Op):
    name = "view"

    def __init__(self, shape):
        self.shape = shape

    def syntax(self):
        return f"[{ints(self.shape)}]"

    def torch(self, t):
        return t.view(self.shape)

    @classmethod
    def generate(cls, rng, sizes):
        return cls(reshape_shape(rng, sizes))


class Reshape(View):
    name = "reshape"

    def torch(self, t):
        return t.reshape(self.shape)


class Flatten(Op):
    name = "flatten"

    def __init__(self, a, b):
        self.a, self.b = a, b

    def syntax(self):
        return f"dims {self.a} to {self.b}"

    def torch(self, t):
        return t.flatten(self.a, self.b)

    @staticmethod
    def generate(rng, sizes):
        if not sizes:
            return Flatten(0, -1)
        a = rng.randrange(len(sizes))
        b = rng.randrange(a, len(sizes))
        return Flatten(a - len(sizes) if rng.random() < 0.2 else a, b)


class WithFormat(Op):
    """An op whose syntax is its memory format ("" for the default)."""

    def __init__(self, fmt):
        self.fmt = fmt

    def syntax(self):
        return self.fmt


class Contiguous(WithFormat):
    name = "contiguous"

    def torch(self, t):
        return t.contiguous(memory_format=torch.channels_last if self.fmt else torch.contiguous_format)

    @staticmethod
    def generate(rng, sizes):
        return Contiguous("channels_last" if len(sizes) == 4 and rng.random() < 0.3 else "")


class Clone(WithFormat):
    """layout.clone: preserve_format (PyTorch's rule runs at run time where
    layoutc cannot decide it), or a given format."""
    name = "clone"

    def torch(self, t):
        return t.clone(memory_format={"": torch.preserve_format, "contiguous": torch.contiguous_format,
                                      "channels_last": torch.channels_last}[self.fmt])

    @staticmethod
    def generate(rng, sizes):
        r = rng.random()
        if len(sizes) == 4 and r < 0.2:
            return Clone("channels_last")
        return Clone("contiguous" if r > 0.8 else "")


class Split(Op):
    name = "split"

    def __init__(self, dim, sizes, pick):
        self.dim, self.sizes, self.pick = dim, sizes, pick
        self.results = len(sizes)

    def syntax(self):
        return f"dim {self.dim} [{ints(self.sizes)}]"

    def torch(self, t):
        return t.split_with_sizes(self.sizes, self.dim)[self.pick]

    @staticmethod
    def generate(rng, sizes):
        if not sizes:
            return None
        dim = rand_dim(rng, len(sizes))
        n = sizes[dim]
        if n is not None:
            cuts = sorted(rng.randint(0, n) for _ in range(rng.choice([1, 1, 2])))
            parts = [b - a for a, b in zip([0] + cuts, cuts + [n])]
        else:
            parts = [rng.choice([0, 1, 1, 2, 3]) for _ in range(rng.choice([1, 2, 2, 3]))]
        return Split(dim, parts, rng.randrange(len(parts)))


OP_WEIGHTS = {Permute: 4, Transpose: 4, Movedim: 3, Slice: 8, Select: 5, Narrow: 5, Expand: 5,
              Unsqueeze: 4, Squeeze: 3, Unflatten: 4, Diagonal: 3, Unfold: 3, View: 3,
              Reshape: 3, Flatten: 3, Contiguous: 3, Clone: 3, Split: 4}


def parse_type(t: str) -> List[Optional[int]]:
    """Sizes of a printed `!layout.tensor<...>` type (None for `?`)."""
    body = t[len("!layout.tensor<"):].split(",")[0].rstrip(">")
    dims = body.split("x")[:-1]
    return [None if d == "?" else int(d) for d in dims]


# ---------------------------------------------------------------------------
# Chains and building them with layoutc.
# ---------------------------------------------------------------------------

class Chain:
    def __init__(self, index, arg_sizes, length):
        self.index = index
        self.name = f"f{index}"
        self.arg_sizes = arg_sizes            # int, or None for `?`
        self.arg_type = "!layout.tensor<" + "".join(("?" if s is None else str(s)) + "x" for s in arg_sizes) + "f32>"
        self.length = length
        self.ops: List[Op] = []
        self.lines: List[str] = []            # op lines, in order
        self.value = "%" + ARG
        self.type = self.arg_type             # the type of `value`
        self.status = "building"              # building, built, error, declined
        self.error = None                     # compile-time message
        self.explain = None                   # explain JSON (default pipeline)
        self.explain_noopt = None             # explain JSON with --no-opt

    def text(self, with_return: bool) -> List[str]:
        result = f" -> {self.type}" if with_return else ""
        body = [f"func.func @{self.name}(%{ARG}: {self.arg_type}){result} {{"]
        body += ["  " + line for line in self.lines]
        body.append(f"  return {self.value} : {self.type}" if with_return else "  return")
        body.append("}")
        return body

    def program(self) -> str:
        return "\n".join(self.text(True)) + "\n"


def add_op(chain: Chain, op: Op):
    k = len(chain.ops)
    lhs = f"%v{k}" if op.results == 1 else f"%v{k}:{op.results}"
    chain.lines.append(f"{lhs} = layout.{op.name} {chain.value} {op.syntax()} : {chain.type}".replace("  ", " "))
    chain.ops.append(op)
    chain.value = f"%v{k}" if op.results == 1 else f"%v{k}#{op.pick}"


def run_layoutc(layoutc, text, workdir, tag, flags):
    path = os.path.join(workdir, f"{tag}.mlir")
    with open(path, "w") as f:
        f.write(text)
    proc = subprocess.run([layoutc, path] + flags, capture_output=True, text=True, timeout=300)
    return path, proc


def compile_batch(layoutc, chains: List[Chain], workdir, tag, flags, with_return):
    """Compile the chains in modules; returns ({chain: stdout-part}, [(chain, msg)] errors,
    [(chain, problem)] failures).  A failing module is split at the function
    layoutc names: that one is an error, the others are compiled again."""
    results, errors, problems = {}, [], []
    pending = [list(chains)]
    attempt = 0
    while pending:
        group = pending.pop()
        if not group:
            continue
        attempt += 1
        lines, owner = [], []
        for c in group:
            for line in c.text(with_return):
                lines.append(line)
                owner.append(c)
        _, proc = run_layoutc(layoutc, "\n".join(lines) + "\n", workdir, f"{tag}-{attempt}", flags)
        if proc.returncode == 0:
            results[id(group)] = (group, proc.stdout)
            continue
        m = DIAGNOSTIC.search(proc.stderr)
        if proc.returncode < 0 or not m or not 1 <= int(m["line"]) <= len(owner):
            if len(group) == 1:
                problems.append((group[0], f"layoutc exited with {proc.returncode}: {proc.stderr.strip()[:2000]}"))
            else:
                half = len(group) // 2
                pending += [group[:half], group[half:]]
            continue
        bad = owner[int(m["line"]) - 1]
        i = group.index(bad)
        errors.append((bad, m["msg"], int(m["line"]) - owner.index(bad)))
        pending.append(group[:i] + group[i + 1:])
    return list(results.values()), errors, problems


def split_functions(output: str) -> Dict[str, List[str]]:
    """`--emit=mlir` output: the lines of each function's body, by name."""
    funcs, current = {}, None
    for line in output.splitlines():
        m = re.match(r"\s*func\.func @(\w+)\(", line)
        if m:
            current = funcs.setdefault(m[1], [])
        elif current is not None:
            current.append(line)
    return funcs


def build_chains(args, rng_for, chains: List[Chain], workdir, log):
    """Grow all chains level by level; record compile errors."""
    failures = []
    level = 0

    def do_chunk(chunk, tag):
        return compile_batch(args.layoutc, chunk, workdir, tag, ["--no-opt", "--emit=mlir"], False)

    while True:
        active = [c for c in chains if c.status == "building"]
        if not active:
            break
        for c in active:
            rng = rng_for(c)
            sizes = parse_type(c.type)
            op = None
            kinds, weights = list(OP_WEIGHTS), list(OP_WEIGHTS.values())
            while op is None:
                op = rng.choices(kinds, weights)[0].generate(rng, sizes)
            add_op(c, op)
        chunks = [active[i:i + args.batch] for i in range(0, len(active), args.batch)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            outs = list(pool.map(lambda ic: do_chunk(ic[1], f"L{level}-{ic[0]}"), enumerate(chunks)))
        for groups, errors, problems in outs:
            for c, msg, rel_line in errors:
                if rel_line != len(c.lines) + 1:  # +1: the func line
                    failures.append((c, f"error at line {rel_line} of the function, not at its last op: {msg}"))
                    c.status = "failed"
                    continue
                c.error = msg
                c.status = "declined" if any(d in msg for d in DECLINED) else "error"
            for c, problem in problems:
                failures.append((c, problem))
                c.status = "failed"
            for group, out in groups:
                funcs = split_functions(out)
                for c in group:
                    body = [l for l in funcs.get(c.name, []) if l.strip().startswith("%")]
                    if not body:
                        failures.append((c, "no op in the printed function"))
                        c.status = "failed"
                        continue
                    types = TENSOR_TYPE.findall(body[-1].rsplit(" -> ", 1)[1])
                    c.type = types[c.ops[-1].pick]
                    if len(c.ops) >= c.length:
                        c.status = "built"
        log(f"level {level}: {len(active)} chains")
        level += 1
    return failures


def explain_chains(args, chains: List[Chain], workdir):
    """`--emit=explain` of the built chains, with the default pipeline and
    with --no-opt; returns failures."""
    failures = []

    def run(chunk, tag, flags, key):
        groups, errors, problems = compile_batch(args.layoutc, chunk, workdir, tag, flags, True)
        for group, text in groups:
            try:
                funcs = {f["name"]: f for f in json.loads(text)["functions"]}
            except (ValueError, KeyError, TypeError) as e:
                problems += [(c, f"unreadable explain output: {e}") for c in group]
                continue
            for c in group:
                if c.name in funcs:
                    setattr(c, key, funcs[c.name])
                else:
                    problems.append((c, f"no function {c.name} in the explain output"))
        return errors, problems

    built = [c for c in chains if c.status == "built"]
    chunks = [built[i:i + args.batch] for i in range(0, len(built), args.batch)]
    jobs = [(chunk, f"E{k}-{i}", flags, key) for i, chunk in enumerate(chunks)
            for k, (flags, key) in enumerate([(["--emit=explain"], "explain"),
                                              (["--no-opt", "--emit=explain"], "explain_noopt")])]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        outs = list(pool.map(lambda job: (job[3],) + run(*job), jobs))
    for key, errors, problems in outs:
        for c, problem in problems:
            failures.append((c, problem))
            c.status = "failed"
        for c, msg, _ in errors:
            flags = "--emit=explain" if key == "explain" else "--no-opt --emit=explain"
            failures.append((c, f"`{flags}` rejects a chain that `--no-opt --emit=mlir` accepts: {msg}"))
            c.status = "failed"
    return failures


# ---------------------------------------------------------------------------
# Evaluating the symbolic section.
# ---------------------------------------------------------------------------

TOKEN = re.compile(r"\s*(?:(?P<num>\d+)|(?P<sym>%?\w+(?:\.stride)?\[\d+\]|%?\w+\.offset|s\d+)"
                   r"|(?P<fn>min|max|floordiv|ceildiv|computeStride|viewable|preserveStrides)(?=\()"
                   r"|(?P<op>>=|<=|==|!=|&&|\|\||[-+*()\[\]?:,!<>]))")


def compute_stride(old_sizes: List[int], old_strides: List[int],
                   new_sizes: List[int]) -> Optional[List[int]]:
    """PyTorch's at::detail::computeStride (torch_views.py's model, checked
    against PyTorch there): the strides that view (old_sizes, old_strides)
    with new_sizes, or None where PyTorch's reshape copies. The sizes here
    are small, so layoutc's i64 overflow rule never applies."""
    strides = tv.compute_stride(tuple(old_sizes), tuple(old_strides), tuple(new_sizes))
    return None if strides is None else list(strides)


class EvalError(Exception):
    pass


def tokenize(s: str):
    pos, out = 0, []
    s = s.rstrip()
    while pos < len(s):
        m = TOKEN.match(s, pos)
        if not m or m.end() == pos:
            raise EvalError(f"cannot tokenize {s!r} at {pos}")
        pos = m.end()
        kind = m.lastgroup
        out.append((kind, m[kind]))
    return out


class Evaluator:
    """Recursive descent over the expression/condition syntax of explain:
    ternary > || > && > ! > comparison > +,- > * > unary - > atom."""

    def __init__(self, env: Dict[str, int]):
        self.env = env

    def eval(self, s: str):
        self.toks, self.i = tokenize(s), 0
        v = self.ternary()
        if self.i != len(self.toks):
            raise EvalError(f"trailing tokens in {s!r}")
        return v

    def peek(self):
        return self.toks[self.i][1] if self.i < len(self.toks) else None

    def take(self, want=None):
        if self.i >= len(self.toks):
            raise EvalError("unexpected end")
        tok = self.toks[self.i]
        if want is not None and tok[1] != want:
            raise EvalError(f"expected {want!r}, got {tok[1]!r}")
        self.i += 1
        return tok

    def ternary(self):
        c = self.lor()
        if self.peek() == "?":
            self.take()
            a = self.ternary()
            self.take(":")
            b = self.ternary()
            return a if c else b
        return c

    def lor(self):
        v = self.land()
        while self.peek() == "||":
            self.take()
            w = self.land()
            v = bool(v) or bool(w)
        return v

    def land(self):
        v = self.unary_not()
        while self.peek() == "&&":
            self.take()
            w = self.unary_not()
            v = bool(v) and bool(w)
        return v

    def unary_not(self):
        if self.peek() == "!":
            self.take()
            return not self.unary_not()
        return self.comparison()

    def comparison(self):
        a = self.sum()
        op = self.peek()
        if op in (">=", "<=", "==", "!=", "<", ">"):
            self.take()
            b = self.sum()
            return {">=": a >= b, "<=": a <= b, "==": a == b, "!=": a != b, "<": a < b, ">": a > b}[op]
        return a

    def sum(self):
        v = self.product()
        while self.peek() in ("+", "-"):
            op = self.take()[1]
            w = self.product()
            v = v + w if op == "+" else v - w
        return v

    def product(self):
        v = self.negation()
        while self.peek() == "*":
            self.take()
            v = v * self.negation()
        return v

    def negation(self):
        if self.peek() == "-":
            self.take()
            return -self.negation()
        return self.atom()

    def int_list(self) -> List[int]:
        """`[e, e, ...]` (maybe empty): the values of the expressions."""
        self.take("[")
        out = []
        if self.peek() != "]":
            out.append(self.ternary())
            while self.peek() == ",":
                self.take()
                out.append(self.ternary())
        self.take("]")
        return out

    def atom(self):
        kind, text = self.take()
        if kind == "num":
            return int(text)
        if kind == "sym":
            if text not in self.env:
                raise EvalError(f"unknown symbol {text}")
            return self.env[text]
        if kind == "fn" and text in ("computeStride", "viewable"):
            # computeStride(old sizes, old strides, new sizes)[k]: the k-th
            # stride, 0 where not viewable; viewable(...): 1 or 0.
            self.take("(")
            lists = [self.int_list()]
            for _ in range(2):
                self.take(",")
                lists.append(self.int_list())
            self.take(")")
            old_sizes, old_strides, new_sizes = lists
            if len(old_sizes) != len(old_strides):
                raise EvalError(f"{text}: {len(old_sizes)} old sizes, {len(old_strides)} old strides")
            strides = compute_stride(old_sizes, old_strides, new_sizes)
            if text == "viewable":
                return 0 if strides is None else 1
            self.take("[")
            k = self.take()
            if k[0] != "num":
                raise EvalError(f"computeStride: index {k[1]!r}")
            self.take("]")
            k = int(k[1])
            if k >= len(new_sizes):
                raise EvalError(f"computeStride: index {k} of {len(new_sizes)} strides")
            return 0 if strides is None else strides[k]
        if kind == "fn" and text == "preserveStrides":
            # preserveStrides(sizes, strides)[k]: clone(preserve_format)'s
            # stride of dim k (torch_views.py's model).
            self.take("(")
            sizes = self.int_list()
            self.take(",")
            strides = self.int_list()
            self.take(")")
            if len(sizes) != len(strides):
                raise EvalError(f"{text}: {len(sizes)} sizes, {len(strides)} strides")
            self.take("[")
            k = self.take()
            self.take("]")
            if k[0] != "num" or int(k[1]) >= len(sizes):
                raise EvalError(f"{text}: index {k[1]!r} of {len(sizes)} strides")
            if tv.is_non_overlapping_and_dense(tuple(sizes), tuple(strides)):
                return strides[int(k[1])]
            return tv.infer_dense_strides(tuple(sizes), tuple(strides))[int(k[1])]
        if kind == "fn":
            self.take("(")
            a = self.ternary()
            self.take(",")
            b = self.ternary()
            self.take(")")
            if text == "min":
                return min(a, b)
            if text == "max":
                return max(a, b)
            if b <= 0:
                raise EvalError(f"{text} by {b}")
            return a // b if text == "floordiv" else -((-a) // b)
        if text == "(":
            v = self.ternary()
            self.take(")")
            return v
        raise EvalError(f"unexpected token {text!r}")


MESSAGE_EXPR = re.compile(
    r"(?<![\w\]])(?:-\s*)?(?:\d+|[A-Za-z_]\w*\[\d+\]|\bs\d+\b)(?:\s*\*\s*(?:\d+|[A-Za-z_]\w*\[\d+\]|\bs\d+\b))*"
    r"(?:\s*[-+]\s*(?:\d+|[A-Za-z_]\w*\[\d+\]|\bs\d+\b)(?:\s*\*\s*(?:\d+|[A-Za-z_]\w*\[\d+\]|\bs\d+\b))*)*")
SYMBOL_IN_TEXT = re.compile(r"[A-Za-z_]\w*\[\d+\]|\bs\d+\b")


def evaluate_message(message: str, env) -> str:
    """The message a failing check gives at run time: each maximal
    polynomial in it that names a symbol (`x[1]*s0 - 2`, `-s0`) replaced by
    its value; spans without a symbol are left as written."""
    def repl(m):
        text = m[0]
        if not SYMBOL_IN_TEXT.search(text):
            return text
        return str(Evaluator(env).eval(text))
    return MESSAGE_EXPR.sub(repl, message)


def evaluate(symbolic, shape) -> dict:
    env = {}
    for name, definition in symbolic["symbols"].items():
        m = re.fullmatch(r"(\w+)\[(\d+)\]", name)
        if m and definition == name and m[1] == ARG:
            env[name] = shape[int(m[2])]
        elif definition == name:
            raise EvalError(f"opaque symbol {name}: not derived from the argument's sizes")
        else:
            env[name] = Evaluator(env).eval(definition)
    failed = None
    for check in symbolic["checks"]:
        if not Evaluator(env).eval(check["requires"]):
            failed = check
            break
    if failed is not None:
        return {"error": evaluate_message(failed["message"], env), "template": failed["message"]}
    res = symbolic["results"][0]
    ev = Evaluator(env)
    return {"error": None,
            "sizes": [ev.eval(e) for e in res["sizes"]],
            "strides": [ev.eval(e) for e in res["strides"]],
            "offset": ev.eval(res["offset"]),
            "copies": [(c["op"], c["loc"]) for c in copies_list(symbolic) if copies(c["copies"], env)]}


def copies_list(symbolic):
    if not isinstance(symbolic.get("copies"), list):
        raise EvalError("no `copies` list in the symbolic section")
    return symbolic["copies"]


def copies(when: str, env) -> bool:
    """Whether an entry of explain's `copies` list copies at these sizes:
    "always", "never" or "unless <condition>"."""
    if when == "always":
        return True
    if when == "never":
        return False
    if when.startswith("unless "):
        return not Evaluator(env).eval(when[len("unless "):])
    raise EvalError(f"unknown copies entry {when!r}")


def checks_pass(symbolic, shape) -> bool:
    try:
        return evaluate(symbolic, shape)["error"] is None
    except EvalError:
        return False


def choose_shapes(rng, chain: Chain, count: int, explain):
    dyn = [d for d, s in enumerate(chain.arg_sizes) if s is None]

    def make(values):
        it = iter(values)
        return tuple(next(it) if s is None else s for s in chain.arg_sizes)

    def rand(pool):
        return make(rng.choice(pool) for _ in dyn)

    shapes = []
    if dyn:
        with_zero = [rng.choice(RANDOM_SIZES) for _ in dyn]
        with_zero[rng.randrange(len(dyn))] = 0
        shapes.append(make(with_zero))
        with_one = [rng.choice([1, 1, 2, 3]) for _ in dyn]
        with_one[rng.randrange(len(dyn))] = 1
        shapes.append(make(with_one))
    else:
        shapes.append(make([]))
    symbolic = explain.get("symbolic") if explain else None
    if symbolic is not None and dyn:
        passing = []
        for _ in range(40):
            s = rand(SEARCH_SIZES)
            if s not in shapes and s not in passing and checks_pass(symbolic, s):
                passing.append(s)
                if len(passing) == 2:
                    break
        shapes += passing
    tries = 0
    while len(shapes) < count and dyn and tries < 50:
        tries += 1
        s = rand(RANDOM_SIZES)
        if s not in shapes:
            shapes.append(s)
    return shapes


# ---------------------------------------------------------------------------
# Comparing with PyTorch.
# ---------------------------------------------------------------------------

def torch_run(chain: Chain, shape):
    x = t = torch.empty(shape)
    for i, op in enumerate(chain.ops):
        try:
            t = op.torch(t)
        except (RuntimeError, IndexError) as e:
            return {"error": str(e).split("\nException raised from")[0], "failed_op": i}
    # Whether the result views x's storage: only meaningful where x has an
    # element (an empty storage may have no address).
    aliases = t.storage().data_ptr() == x.storage().data_ptr() if x.numel() > 0 else None
    return {"error": None, "sizes": list(t.size()), "strides": list(t.stride()), "offset": t.storage_offset(),
            "aliases": aliases}


def verdict(symbolic, static, expected):
    """(kind, detail) where layoutc's symbolic section disagrees with
    PyTorch's outcome `expected`, None where they agree."""
    if symbolic is None:
        return "no symbolic section in explain", ""
    try:
        got = evaluate(symbolic, expected["shape"])
    except EvalError as e:
        return "cannot evaluate the symbolic section", str(e)
    if expected["error"] is not None or got["error"] is not None:
        if expected["error"] is None:
            return "a check fails, PyTorch accepts", f"{got['template']!r} -> {got['error']!r}"
        if got["error"] is None:
            return "every check passes, PyTorch raises", f"at op {expected['failed_op']}: {expected['error']!r}"
        if got["error"] != expected["error"]:
            return ("different messages", f"layoutc {got['error']!r} (template {got['template']!r}), "
                                          f"PyTorch {expected['error']!r}")
        return None
    diffs = []
    nonempty = math.prod(expected["sizes"]) > 0
    if got["sizes"] != expected["sizes"]:
        diffs.append("sizes")
    elif nonempty:
        if got["offset"] != expected["offset"]:
            diffs.append("offset")
        if any(n > 1 and a != b for n, a, b in zip(expected["sizes"], got["strides"], expected["strides"])):
            diffs.append("strides")
    # The static projection (explain's top-level result) must agree where it states a number.
    if len(static["sizes"]) != len(expected["sizes"]) or \
            any(s is not None and s != e for s, e in zip(static["sizes"], expected["sizes"])):
        diffs.append("static sizes")
    elif nonempty:
        if static["offset"] is not None and static["offset"] != expected["offset"]:
            diffs.append("static offset")
        if any(s is not None and n > 1 and s != e
               for n, s, e in zip(expected["sizes"], static["strides"], expected["strides"])):
            diffs.append("static strides")
    if diffs:
        return ("different " + ", ".join(diffs),
                f"layoutc sizes {got['sizes']} strides {got['strides']} offset {got['offset']} "
                f"(static: {static['sizes']} {static['strides']} {static['offset']}), PyTorch sizes "
                f"{expected['sizes']} strides {expected['strides']} offset {expected['offset']}")
    # The result shares the argument's storage iff no op of the chain copies.
    if expected["aliases"] is not None and (not got["copies"]) != expected["aliases"]:
        if expected["aliases"]:
            return "different aliasing", "layoutc copies at " + ", ".join(
                f"{op} ({loc})" for op, loc in got["copies"]) + ", PyTorch's result views the argument"
        return "different aliasing", "layoutc copies nowhere, PyTorch's result does not view the argument"
    return None


def classify(chain: Chain, shape):
    """("ok", what matched: "layout", "aliasing" (a layout and whether it
    views the argument) or "error") or ("fail", why) for one shape: the
    explains of both pipelines must agree with PyTorch."""
    expected = torch_run(chain, shape)
    expected["shape"] = shape
    if chain.status == "error":
        if expected["error"] is None:
            return "fail", f"layoutc rejects the chain at compile time ({chain.error}), PyTorch accepts it"
        return "ok", "error"
    for flags, explain in (("--emit=explain", chain.explain), ("--no-opt --emit=explain", chain.explain_noopt)):
        wrong = verdict(explain.get("symbolic"), explain["results"][0], expected)
        if wrong is not None:
            kind, detail = wrong
            return "fail", f"{kind} (`{flags}`): {detail}"
    if expected["error"] is not None:
        return "ok", "error"
    return "ok", "layout" if expected["aliases"] is None else "aliasing"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=2500, help="number of chains (default 2500)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--shapes", type=int, default=6, help="concrete shapes per chain (default 6)")
    parser.add_argument("--layoutc", default="layoutc", help="layoutc binary (or name on PATH)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel layoutc runs")
    parser.add_argument("--batch", type=int, default=150, help="functions per module")
    parser.add_argument("--write-dir", help="keep the modules here instead of a temporary directory")
    parser.add_argument("--show", type=int, default=10, help="disagreements printed in full (default 10)")
    parser.add_argument("--min-chains", type=int, default=2000)
    parser.add_argument("--min-shapes", type=int, default=6000)
    parser.add_argument("--min-errors", type=int, default=300)
    parser.add_argument("--min-aliasing", type=int, default=1000)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)

    layoutc = shutil.which(args.layoutc)
    if layoutc is None:
        print(f"error: layoutc not found: {args.layoutc}", file=sys.stderr)
        return 2
    args.layoutc = layoutc
    log = (lambda s: print(s, file=sys.stderr)) if args.verbose else (lambda s: None)

    master = random.Random(args.seed)
    chains, rngs = [], {}
    for i in range(args.count):
        rng = random.Random(master.getrandbits(64))
        rank = rng.choice([1, 2, 2, 3, 3, 4])
        sizes = [None if rng.random() < 0.75 else rng.choice([1, 1, 2, 3, 4]) for _ in range(rank)]
        if all(s is not None for s in sizes):
            sizes[rng.randrange(rank)] = None
        chains.append(Chain(i, sizes, rng.randint(1, 5)))
        rngs[i] = rng

    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.write_dir or tmp
        os.makedirs(workdir, exist_ok=True)
        failures += build_chains(args, lambda c: rngs[c.index], chains, workdir, log)
        failures += explain_chains(args, chains, workdir)
        if args.write_dir:
            for c in chains:
                with open(os.path.join(workdir, f"chain{c.index:05d}.mlir"), "w") as f:
                    f.write(c.program())

    stats = collections.Counter()
    details = [(c, None, why) for c, why in failures]
    failed = {c.index for c, _ in failures}
    for c in chains:
        if c.status not in ("built", "error"):
            continue
        rng = random.Random(f"{args.seed}-{c.index}")
        for shape in choose_shapes(rng, c, args.shapes, c.explain):
            outcome, what = classify(c, shape)
            stats["shapes"] += 1
            if outcome == "ok":
                if what == "aliasing":
                    stats["aliasing matched"] += 1
                    what = "layout"
                stats[what + "s matched"] += 1
            elif c.index not in failed:
                failed.add(c.index)
                details.append((c, shape, what))

    statuses = collections.Counter(c.status for c in chains)
    ops = collections.Counter(op.name for c in chains for op in c.ops)
    print("chains: " + ", ".join(f"{n} {k}" for k, n in sorted(statuses.items())))
    print("ops: " + ", ".join(f"{k} {n}" for k, n in sorted(ops.items())))
    print(f"shapes: {stats['layouts matched']} layouts matched ({stats['aliasing matched']} with aliasing), "
          f"{stats['errors matched']} errors matched")
    kinds = collections.Counter(re.sub(r"[:(].*", "", why) for _, _, why in details)
    for kind, n in kinds.most_common():
        print(f"  {n:>5}  {kind}")
    for c, shape, why in details[:args.show]:
        print(f"=== chain {c.index} at shape {shape}: {why}\n{c.program().rstrip()}")
    n_chains = len([c for c in chains if c.status != "declined"])
    declined = statuses["declined"]
    print(f"{n_chains} chains, {stats['shapes']} shapes compared, {stats['errors matched']} errors matched, "
          f"{stats['aliasing matched']} aliasing matched, {declined} declined: "
          f"{n_chains - len(failed)} passed, {len(failed)} failed")
    too_small = []
    if n_chains < args.min_chains:
        too_small.append(f"{n_chains} chains < {args.min_chains}")
    if stats["shapes"] < args.min_shapes:
        too_small.append(f"{stats['shapes']} shapes < {args.min_shapes}")
    if stats["errors matched"] < args.min_errors:
        too_small.append(f"{stats['errors matched']} errors matched < {args.min_errors}")
    if stats["aliasing matched"] < args.min_aliasing:
        too_small.append(f"{stats['aliasing matched']} aliasing matched < {args.min_aliasing}")
    if too_small:
        print("run too small: " + "; ".join(too_small))
    return 1 if failed or too_small else 0


if __name__ == "__main__":
    sys.exit(main())
