#!/usr/bin/env python3
"""Differential test of layoutc's view ops against PyTorch 1.13.

The script generates seeded random layout programs.  Each is one function
`@f` whose argument (a tensor, or a storage that `layout.as_strided` views)
goes through a chain of 1-6 ops drawn from every view op of docs/language.md plus
reshape, flatten, contiguous and clone; about a quarter of the chains contain
an op that PyTorch rejects.  For each program it computes what the contract
expects (PyTorch's sizes, strides, storage offset, aliasing and contiguity of
the result, or the op where PyTorch raises), runs `layoutc FILE --emit=explain`
and compares.  It ends with the line `N passed, M failed` and exits non-zero on
any disagreement.

Two oracles:
  * PyTorch itself (`torch_outcome`), for every chain without `layout.flip`;
  * `Layout` and the ops' `model` methods, a pure-Python port of ATen's shape
    logic, for chains with `layout.flip`.  flip is an extension (torch.flip
    copies); it is modelled as a view with NumPy's slicing semantics.  The port
    is checked against PyTorch on every flip-free program (the "model
    self-check"), and also guides the generator (where a chain fails).

Run with the Debian interpreter, which sees python3-torch:
  /usr/bin/python3 torch_views.py --oracle-only           # generator statistics
  /usr/bin/python3 torch_views.py --layoutc build/bin/layoutc --jobs 8
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
import shutil
import subprocess
import sys
import tempfile
from typing import List, Optional, Sequence, Tuple

import torch

MAX_RANK = 6          # generated chains never grow tensors beyond this rank
BAD_FRACTION = 0.25   # programs with a deliberately illegal op (more fail by chance)
STORAGE_FRACTION = 0.12  # programs whose argument is a storage


class ViewError(Exception):
    """An op that PyTorch rejects (raised by the model)."""


# ---------------------------------------------------------------------------
# The model: ATen 1.13's shape functions, on plain integers.
# ---------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Layout:
    """A strided view: what one SSA value of a chain is."""
    sizes: Tuple[int, ...]
    strides: Tuple[int, ...]
    offset: int
    storage: int    # element count of the storage the view reads
    aliases: bool   # whether that storage is the function argument's

    @property
    def rank(self) -> int:
        return len(self.sizes)

    @property
    def numel(self) -> int:
        return math.prod(self.sizes)

    def view(self, sizes, strides, offset=None) -> "Layout":
        """A new view of the same storage.  An empty view reached through
        negative strides (flip) could point before the storage; its offset is
        clamped at 0, as layoutc does (PyTorch's views never get there)."""
        offset = self.offset if offset is None else offset
        if offset < 0 and 0 in sizes:
            offset = 0
        return Layout(tuple(sizes), tuple(strides), offset, self.storage,
                      self.aliases)


def new_storage(sizes, strides) -> Layout:
    """A freshly allocated tensor (`empty_strided`): not the argument's storage."""
    return Layout(tuple(sizes), tuple(strides), 0, storage_extent(sizes, strides), False)


def wrap_dim(dim: int, rank: int) -> int:
    """`maybe_wrap_dim` with wrap_scalar: a rank-0 tensor accepts dims 0 and -1."""
    n = max(rank, 1)
    if not -n <= dim < n:
        raise ViewError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


def contiguous_strides(sizes: Sequence[int]) -> Tuple[int, ...]:
    """Row-major strides as `at::empty` computes them (size-0 dims count as 1)."""
    strides, acc = [], 1
    for size in reversed(sizes):
        strides.append(acc)
        acc *= max(size, 1)
    return tuple(reversed(strides))


CHANNELS_LAST_ORDER = {4: (1, 3, 2, 0), 5: (1, 4, 3, 2, 0)}  # innermost dim first


def channels_last_strides(sizes: Sequence[int]) -> Tuple[int, ...]:
    """`get_channels_last_strides_2d/3d` (no max(size, 1) there)."""
    strides, acc = [0] * len(sizes), 1
    for d in CHANNELS_LAST_ORDER[len(sizes)]:
        strides[d] = acc
        acc *= sizes[d]
    return tuple(strides)


def storage_extent(sizes, strides) -> int:
    """`computeStorageNbytes` in elements: one past the furthest element reached."""
    if 0 in sizes:
        return 0
    return 1 + sum((size - 1) * stride for size, stride in zip(sizes, strides))


def is_contiguous(sizes, strides) -> bool:
    """`TensorImpl::compute_contiguous`: empty tensors are contiguous, size-1 dims are ignored."""
    if 0 in sizes:
        return True
    expected = 1
    for size, stride in reversed(list(zip(sizes, strides))):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


def is_channels_last_contiguous(sizes, strides) -> bool:
    """`compute_channels_last_contiguous_2d/3d` (rank 4 resp. 5; no empty shortcut)."""
    if len(sizes) not in CHANNELS_LAST_ORDER:
        return False
    expected = 1
    for d in CHANNELS_LAST_ORDER[len(sizes)]:
        if sizes[d] != 1:
            if strides[d] != expected:
                return False
            expected *= sizes[d]
    return True


def is_non_overlapping_and_dense(sizes, strides) -> bool:
    """The `is_non_overlapping_and_dense_` flag of `TensorImpl::refresh_contiguous`."""
    if is_contiguous(sizes, strides) or is_channels_last_contiguous(sizes, strides):
        return True
    if len(sizes) == 1:
        return sizes[0] < 2 or strides[0] == 1
    # Dims of size >= 2 sorted by stride must form a row-major chain.
    expected = 1
    for d in sorted(range(len(sizes)), key=lambda d: (sizes[d] < 2, strides[d])):
        if sizes[d] < 2:
            return True
        if strides[d] != expected:
            return False
        expected *= sizes[d]
    return True


def infer_dense_strides(sizes, strides) -> Tuple[int, ...]:
    """`infer_dense_strides`: dense strides keeping the operand's stride order."""
    ndim = len(sizes)
    if ndim <= 1:
        return (1,) * ndim

    def should_swap(d0, d1):
        s0, s1 = strides[d0], strides[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return -1 if s0 < s1 else 1
        return 1 if sizes[d0] > sizes[d1] else 0

    perm = list(reversed(range(ndim)))  # innermost first
    for i in range(1, ndim):
        d1 = i
        for j in range(1, i + 1):
            d0 = i - j
            comparison = should_swap(perm[d0], perm[d1])
            if comparison > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif comparison < 0:
                break
    out, acc = [0] * ndim, 1
    for d in perm:
        out[d] = acc
        if sizes[d] > 1:
            acc *= sizes[d]
    return tuple(out)


def infer_size(shape: Sequence[int], numel: int) -> Tuple[int, ...]:
    """`infer_size`: resolve the one -1 of a view/reshape shape."""
    known, infer_at = 1, None
    for i, size in enumerate(shape):
        if size == -1:
            if infer_at is not None:
                raise ViewError("only one dimension can be inferred")
            infer_at = i
        elif size >= 0:
            known *= size
        else:
            raise ViewError(f"invalid shape dimension {size}")
    if numel == known or (infer_at is not None and known > 0 and numel % known == 0):
        result = list(shape)
        if infer_at is not None:
            if known == 0:
                raise ViewError(f"cannot reshape tensor of 0 elements into shape {list(shape)} "
                                "because the unspecified dimension size -1 can be any value")
            result[infer_at] = numel // known
        return tuple(result)
    raise ViewError(f"shape '{list(shape)}' is invalid for input of size {numel}")


def compute_stride(old_sizes, old_strides, new_sizes) -> Optional[Tuple[int, ...]]:
    """`at::detail::computeStride`: the strides of a view, or None when not viewable."""
    if not old_sizes:
        return (1,) * len(new_sizes)
    numel = math.prod(old_sizes)
    if numel == 0 and tuple(old_sizes) == tuple(new_sizes):
        return tuple(old_strides)
    if numel == 0:
        return contiguous_strides(new_sizes)
    new_strides = [0] * len(new_sizes)
    view_d = len(new_sizes) - 1
    chunk_base_stride = old_strides[-1]
    tensor_numel = view_numel = 1
    for tensor_d in reversed(range(len(old_sizes))):
        tensor_numel *= old_sizes[tensor_d]
        if tensor_d == 0 or (old_sizes[tensor_d - 1] != 1 and
                             old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or new_sizes[view_d] == 1):
                new_strides[view_d] = view_numel * chunk_base_stride
                view_numel *= new_sizes[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = old_strides[tensor_d - 1]
                tensor_numel = view_numel = 1
    return tuple(new_strides) if view_d == -1 else None


def model_view(l: Layout, shape) -> Layout:
    """`Tensor.view`."""
    sizes = infer_size(shape, l.numel)
    strides = compute_stride(l.sizes, l.strides, sizes)
    if strides is None:
        raise ViewError("view size is not compatible with input tensor's size and stride; use .reshape(...)")
    return l.view(sizes, strides)


def model_reshape(l: Layout, shape) -> Layout:
    """`Tensor.reshape`: a view when viewable, else a view of a contiguous copy."""
    sizes = infer_size(shape, l.numel)
    if compute_stride(l.sizes, l.strides, sizes) is None:
        l = new_storage(l.sizes, contiguous_strides(l.sizes))
    return model_view(l, sizes)


def model_slice(l: Layout, dim, start, end, step) -> Layout:
    """`at::slice` (what Python's `t[..., start:end:step]` calls)."""
    if l.rank == 0:
        raise ViewError("slice() cannot be applied to a 0-dim tensor.")
    dim = wrap_dim(dim, l.rank)
    if step <= 0:
        raise ViewError("slice step must be positive")
    size = l.sizes[dim]
    start = 0 if start is None else start
    end = size if end is None else end
    if start < 0:
        start += size
    if end < 0:
        end += size
    start = min(max(start, 0), size)
    end = min(max(end, start), size)
    sizes, strides = list(l.sizes), list(l.strides)
    sizes[dim] = (end - start + step - 1) // step
    strides[dim] *= step
    return l.view(sizes, strides, l.offset + start * l.strides[dim])


def model_narrow(l: Layout, dim, start, length) -> Layout:
    """`Tensor.narrow`."""
    if l.rank == 0:
        raise ViewError("narrow() cannot be applied to a 0-dim tensor.")
    size = l.sizes[wrap_dim(dim, l.rank)]
    if start != size:
        start = wrap_dim(start, size)
    if length < 0 or start > size - length:
        raise ViewError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return model_slice(l, dim, start, start + length, 1)


# ---------------------------------------------------------------------------
# Random numbers for the generator.
# ---------------------------------------------------------------------------

def rand_size(rng: random.Random) -> int:
    """A dim size: 0 sometimes, 1 often, else 2-6."""
    return rng.choices([0, 1, 2, 3, 4, 5, 6], weights=[5, 20, 20, 20, 15, 10, 10])[0]


def rand_dim(rng: random.Random, rank: int) -> int:
    """A valid dim of a rank-`rank` tensor (rank 0 accepts 0 and -1), often negative."""
    n = max(rank, 1)
    d = rng.randrange(n)
    return d - n if rng.random() < 0.35 else d


def bad_dim(rng: random.Random, rank: int) -> int:
    """A dim out of range for a rank-`rank` tensor."""
    n = max(rank, 1)
    return rng.choice([n, n + 1, -n - 1, -n - 3])


def factorize(rng: random.Random, n: int, parts: int) -> List[int]:
    """`parts` sizes whose product is n (n = 0: one of them is 0)."""
    if n == 0:
        out = [rng.choice([1, 2, 3]) for _ in range(parts)]
        out[rng.randrange(parts)] = 0
        return out
    out = []
    for _ in range(parts - 1):
        f = rng.choice([d for d in range(1, n + 1) if n % d == 0])
        out.append(f)
        n //= f
    out.append(n)
    rng.shuffle(out)
    return out


def with_inferred(rng: random.Random, shape: List[int], chance: float) -> List[int]:
    """Replace one size by -1 when it is unambiguous (the others multiply to > 0)."""
    if shape and rng.random() < chance:
        i = rng.randrange(len(shape))
        if math.prod(shape[:i] + shape[i + 1:]) > 0:
            shape = shape[:i] + [-1] + shape[i + 1:]
    return shape


def reshape_target(rng: random.Random, sizes: Sequence[int]) -> List[int]:
    """A shape with the same element count: adjacent dims merged or split, or any factorization."""
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
            if rng.random() < 0.1:
                out.append(1)
            i += 1
        if len(out) > MAX_RANK:
            out = [math.prod(out[:len(out) - MAX_RANK + 1])] + out[len(out) - MAX_RANK + 1:]
    else:
        out = factorize(rng, math.prod(sizes), rng.randint(1, 4)) if rng.random() < 0.9 else []
        if math.prod(out) != math.prod(sizes):  # [] (rank 0) only fits one element
            out = [math.prod(sizes)]
    return with_inferred(rng, out, 0.3)


# ---------------------------------------------------------------------------
# The ops.  Each knows its spelling, its PyTorch call, its model, and how to
# draw random operands for a given input layout (legal ones, or with
# bad=True ones PyTorch rejects; None when it cannot).
# ---------------------------------------------------------------------------

def ints(values) -> str:
    return ", ".join(str(v) for v in values)


class Op:
    """One op of a chain; the chain continues with result `pick`."""
    name = ""
    results = 1
    pick = 0

    def syntax(self) -> str:
        """The op's text between its operand and the `:`."""
        raise NotImplementedError

    def label(self) -> str:
        """The name, with the variant where an op has several (for coverage statistics)."""
        return self.name

    def torch(self, t: torch.Tensor) -> torch.Tensor:
        """The op on a PyTorch tensor (raises where PyTorch rejects it)."""
        raise NotImplementedError

    def model(self, l: Layout) -> Layout:
        """The op on the model (raises ViewError where PyTorch rejects it)."""
        raise NotImplementedError

    @classmethod
    def generate(cls, rng: random.Random, l: Layout, bad: bool, after_flip: bool) -> Optional["Op"]:
        """A random instance applied to `l`: legal, or illegal when `bad`; None
        when there is none (e.g. select of a rank-0 tensor).  `after_flip` says
        that the chain has flipped, i.e. the operand may have negative strides."""
        raise NotImplementedError


@dataclasses.dataclass
class AsStrided(Op):
    sizes: List[int]
    strides: List[int]
    offset: int
    name = "as_strided"

    def syntax(self):
        return f"[{ints(self.sizes)}] strides [{ints(self.strides)}] offset {self.offset}"

    def torch(self, t):
        return t.as_strided(self.sizes, self.strides, self.offset)

    def model(self, l):
        if len(self.sizes) != len(self.strides):
            raise ViewError("mismatch in length of strides and shape")
        extent = storage_extent(self.sizes, self.strides)
        if extent > 0 and extent + self.offset > l.storage:
            raise ViewError("setStorage: out of bounds for storage")
        if self.offset < 0:
            raise ViewError(f"Tensor: invalid storage offset {self.offset}")
        return l.view(self.sizes, self.strides, self.offset)

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        while True:
            rank = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])
            sizes = [rand_size(rng) for _ in range(rank)]
            r = rng.random()
            if r < 0.3:
                strides = list(contiguous_strides(sizes))
            elif r < 0.5:
                order = rng.sample(range(rank), rank)
                dense = contiguous_strides([sizes[d] for d in order])
                strides = [0] * rank
                for d, s in zip(order, dense):
                    strides[d] = s
            else:
                strides = [rng.choice([0, 1, 1, 2, 3, 4, 6, 8]) for _ in range(rank)]
            extent = storage_extent(sizes, strides)
            if extent <= l.storage:
                break
        room = l.storage - extent
        offset = rng.randint(0, room + 3 if extent == 0 and rng.random() < 0.2 else room)
        if bad:
            choice = rng.choice(["bounds", "negative", "mismatch"] if extent else ["negative", "mismatch"])
            if choice == "bounds":
                offset = room + rng.randint(1, 2)
            elif choice == "negative":
                offset = -rng.randint(1, 3)
            else:
                strides = strides + [1] if rng.random() < 0.5 or not strides else strides[:-1]
        return cls(sizes, strides, offset)


@dataclasses.dataclass
class View(Op):
    shape: List[int]
    name = "view"

    def syntax(self):
        return f"[{ints(self.shape)}]"

    def torch(self, t):
        return t.view(self.shape)

    def model(self, l):
        return model_view(l, self.shape)

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        # Non-viewable shapes ("use .reshape") are the interesting failures, but
        # most operands are contiguous: also take one by chance in a legal chain.
        viewable, not_viewable = split_targets(rng, l)
        if not_viewable and rng.random() < (0.8 if bad else 0.25):
            return cls(not_viewable[0])
        if not bad:
            return cls((viewable or not_viewable)[0])
        return cls(bad_shape(rng, l, (viewable or not_viewable)[0])) if rng.random() < 0.5 else None


def split_targets(rng: random.Random, l: Layout) -> Tuple[List[List[int]], List[List[int]]]:
    """Random reshape targets of `l`, split into those `view` accepts and those it
    rejects as not viewable (where reshape copies)."""
    viewable, not_viewable = [], []
    for _ in range(10):
        shape = reshape_target(rng, l.sizes)
        try:
            model_view(l, shape)
            viewable.append(shape)
        except ViewError:
            not_viewable.append(shape)
    return viewable, not_viewable


def bad_shape(rng: random.Random, l: Layout, shape: List[int]) -> List[int]:
    """A view/reshape shape that `infer_size` rejects."""
    shape = [l.numel] if not shape else list(shape)
    choices = ["count", "two_inferred", "negative"] + (["ambiguous"] if l.numel == 0 else [])
    choice = rng.choice(choices)
    if choice == "count":
        shape = [max(s, 1) for s in shape]  # no -1, and no 0 (so no match) when numel is 0
        if math.prod(shape) == l.numel:
            shape[rng.randrange(len(shape))] += 1
    elif choice == "two_inferred":
        shape = [-1, -1] + [s for s in shape if s != -1][:2]
    elif choice == "negative":
        shape[rng.randrange(len(shape))] = rng.choice([-2, -3])
    else:
        shape = [0, -1] if rng.random() < 0.5 else [-1, 0, 2]
    return shape


@dataclasses.dataclass
class Reshape(Op):
    shape: List[int]
    name = "reshape"

    def syntax(self):
        return f"[{ints(self.shape)}]"

    def torch(self, t):
        return t.reshape(self.shape)

    def model(self, l):
        return model_reshape(l, self.shape)

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        viewable, not_viewable = split_targets(rng, l)
        if not_viewable and rng.random() < 0.5:
            shape = not_viewable[0]
        else:
            shape = (viewable or not_viewable)[0]
        return cls(bad_shape(rng, l, shape) if bad else shape)


@dataclasses.dataclass
class Flatten(Op):
    start: int
    end: int
    name = "flatten"

    def syntax(self):
        return f"dims {self.start} to {self.end}"

    def torch(self, t):
        return t.flatten(self.start, self.end)

    def model(self, l):
        start, end = wrap_dim(self.start, l.rank), wrap_dim(self.end, l.rank)
        if start > end:
            raise ViewError("flatten() has invalid args: start_dim cannot come after end_dim")
        if l.rank == 0:
            return model_reshape(l, [1])
        if start == end:
            return l
        sizes = l.sizes[:start] + (math.prod(l.sizes[start:end + 1]),) + l.sizes[end + 1:]
        return model_reshape(l, sizes)

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        n = max(l.rank, 1)
        a, b = sorted(rng.randrange(n) for _ in range(2))
        if bad:
            if a == b or rng.random() < 0.4:
                return cls(bad_dim(rng, l.rank), rand_dim(rng, l.rank))
            a, b = b, a
        return cls(a - n if rng.random() < 0.3 else a, b - n if rng.random() < 0.3 else b)


@dataclasses.dataclass
class Permute(Op):
    dims: List[int]
    name = "permute"

    def syntax(self):
        return f"[{ints(self.dims)}]"

    def torch(self, t):
        return t.permute(self.dims)

    def model(self, l):
        if len(self.dims) != l.rank:
            raise ViewError("number of dims don't match in permute")
        dims = [wrap_dim(d, l.rank) for d in self.dims]
        if len(set(dims)) != len(dims):
            raise ViewError("repeated dim in permute")
        return l.view([l.sizes[d] for d in dims], [l.strides[d] for d in dims])

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        r = l.rank
        dims = [d - r if rng.random() < 0.3 else d for d in rng.sample(range(r), r)]
        if bad:
            choice = rng.choice(["duplicate", "count", "range"] if r >= 2 else ["count", "range"])
            if choice == "duplicate":
                dims[0] = dims[1]
            elif choice == "count":
                dims = dims[:-1] if dims and rng.random() < 0.5 else dims + [r]
            else:
                dims = dims[:-1] + [bad_dim(rng, r)] if dims else [bad_dim(rng, r)]
        return cls(dims)


@dataclasses.dataclass
class Transpose(Op):
    dim0: int
    dim1: int
    name = "transpose"

    def syntax(self):
        return f"{self.dim0}, {self.dim1}"

    def torch(self, t):
        return t.transpose(self.dim0, self.dim1)

    def model(self, l):
        d0, d1 = wrap_dim(self.dim0, l.rank), wrap_dim(self.dim1, l.rank)
        sizes, strides = list(l.sizes), list(l.strides)
        if l.rank:
            sizes[d0], sizes[d1] = sizes[d1], sizes[d0]
            strides[d0], strides[d1] = strides[d1], strides[d0]
        return l.view(sizes, strides)

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        dims = [rand_dim(rng, l.rank), rand_dim(rng, l.rank)]
        if bad:
            dims[rng.randrange(2)] = bad_dim(rng, l.rank)
        return cls(*dims)


@dataclasses.dataclass
class Movedim(Op):
    source: int
    destination: int
    name = "movedim"

    def syntax(self):
        return f"{self.source} to {self.destination}"

    def torch(self, t):
        return t.movedim(self.source, self.destination)

    def model(self, l):
        src, dst = wrap_dim(self.source, l.rank), wrap_dim(self.destination, l.rank)
        if l.rank == 0:
            return l.view(l.sizes, l.strides)
        order = [d for d in range(l.rank) if d != src]
        order.insert(dst, src)
        return l.view([l.sizes[d] for d in order], [l.strides[d] for d in order])

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        dims = [rand_dim(rng, l.rank), rand_dim(rng, l.rank)]
        if bad:
            dims[rng.randrange(2)] = bad_dim(rng, l.rank)
        return cls(*dims)


@dataclasses.dataclass
class Slice(Op):
    dim: int
    start: Optional[int]
    end: Optional[int]
    step: Optional[int]
    name = "slice"

    def syntax(self):
        parts = ["" if v is None else str(v) for v in (self.start, self.end)]
        if self.step is not None:
            parts.append(str(self.step))
        return f"dim {self.dim} [{re.sub(' +', ' ', ' : '.join(parts)).strip()}]"

    def torch(self, t):
        return torch.ops.aten.slice(t, self.dim, self.start, self.end,
                                    1 if self.step is None else self.step)

    def model(self, l):
        return model_slice(l, self.dim, self.start, self.end, 1 if self.step is None else self.step)

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        if l.rank == 0 and not bad:
            return None
        dim = rand_dim(rng, l.rank)
        n = l.sizes[dim] if l.rank else 1

        def bound():
            if rng.random() < 0.3:
                return None
            if rng.random() < 0.1:
                return rng.choice([100, -100])
            return rng.randint(-n - 1, n + 1)

        start, end = bound(), bound()
        step = None if rng.random() < 0.4 else rng.choice([1, 1, 2, 3])
        if bad and l.rank:
            if rng.random() < 0.7:
                step = rng.choice([0, -1])
            else:
                dim = bad_dim(rng, l.rank)
        return cls(dim, start, end, step)


@dataclasses.dataclass
class Select(Op):
    dim: int
    index: int
    name = "select"

    def syntax(self):
        return f"dim {self.dim} index {self.index}"

    def torch(self, t):
        return t.select(self.dim, self.index)

    def model(self, l):
        if l.rank == 0:
            raise ViewError("select() cannot be applied to a 0-dim tensor.")
        dim = wrap_dim(self.dim, l.rank)
        size = l.sizes[dim]
        if not -size <= self.index < size:
            raise ViewError(f"select(): index {self.index} out of range")
        index = self.index + size if self.index < 0 else self.index
        return l.view(l.sizes[:dim] + l.sizes[dim + 1:], l.strides[:dim] + l.strides[dim + 1:],
                      l.offset + index * l.strides[dim])

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        dims = [d for d in range(l.rank) if l.sizes[d] > 0]
        if not bad:
            if not dims:
                return None
            dim = rng.choice(dims)
            n = l.sizes[dim]
            return cls(dim - l.rank if rng.random() < 0.3 else dim, rng.randint(-n, n - 1))
        dim = rand_dim(rng, l.rank)
        n = l.sizes[dim] if l.rank else 0
        if l.rank and rng.random() < 0.2:
            return cls(bad_dim(rng, l.rank), 0)
        return cls(dim, rng.choice([n, n + 1, -n - 1]))


@dataclasses.dataclass
class Narrow(Op):
    dim: int
    start: int
    length: int
    name = "narrow"

    def syntax(self):
        return f"dim {self.dim} start {self.start} length {self.length}"

    def torch(self, t):
        return t.narrow(self.dim, self.start, self.length)

    def model(self, l):
        return model_narrow(l, self.dim, self.start, self.length)

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        if l.rank == 0 and not bad:
            return None
        dim = rand_dim(rng, l.rank)
        n = l.sizes[dim] if l.rank else 0
        start = rng.randint(-n, n) if n else 0
        first = start + n if start < 0 else start
        length = rng.randint(0, n - first)
        if bad:
            if rng.random() < 0.7:
                length = n - first + rng.randint(1, 2)
            else:
                start = rng.choice([n + 1, -n - 1]) if n else 1
        return cls(dim, start, length)


@dataclasses.dataclass
class Expand(Op):
    sizes: List[int]
    name = "expand"

    def syntax(self):
        return f"[{ints(self.sizes)}]"

    def torch(self, t):
        return t.expand(self.sizes)

    def model(self, l):
        """`inferExpandGeometry`."""
        ndim = len(self.sizes)
        if ndim < l.rank:
            raise ViewError("expand: the number of sizes provided must be >= the number of dimensions")
        if l.rank == 0:
            if any(s < 0 for s in self.sizes):
                raise ViewError("expand: negative size")
            return l.view(self.sizes, [0] * ndim)
        sizes, strides = [0] * ndim, [0] * ndim
        for i in reversed(range(ndim)):
            dim = l.rank - ndim + i
            size = l.sizes[dim] if dim >= 0 else 1
            stride = l.strides[dim] if dim >= 0 else sizes[i + 1] * strides[i + 1]
            target = self.sizes[i]
            if target == -1:
                if dim < 0:
                    raise ViewError("expand: -1 is not allowed in a leading, non-existing dimension")
                target = size
            if size != target:
                if size != 1:
                    raise ViewError("expand: the expanded size must match the existing size at non-singleton dimension")
                size, stride = target, 0
            sizes[i], strides[i] = size, stride
        if any(s < 0 for s in sizes):
            raise ViewError("expand: negative size")
        return l.view(sizes, strides)

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        lead = rng.choice([0, 0, 1, 1, 2])
        lead = min(lead, MAX_RANK - l.rank)
        sizes = [rng.choice([0, 1, 2, 2, 3, 4]) if rng.random() > 0.05 else 0 for _ in range(lead)]
        for s in l.sizes:
            sizes.append(rng.choice([-1, 1, 2, 3, 5, 0]) if s == 1 else rng.choice([-1, s]))
        if bad:
            fixed = [i for i, s in enumerate(l.sizes) if s != 1]
            choices = (["mismatch"] if fixed else []) + ["leading"] + (["count"] if l.rank else [])
            choice = rng.choice(choices)
            if choice == "mismatch":
                i = lead + rng.choice(fixed)
                sizes[i] = l.sizes[i - lead] + rng.choice([1, 2]) if l.sizes[i - lead] else 2
            elif choice == "leading":
                # A scalar takes the sizes as they are; PyTorch 1.13 then
                # accepts a -1 next to a 0 and makes a size -1 tensor: avoid.
                sizes = [-1] + [s if l.rank or s else 1 for s in sizes]
            else:
                sizes = sizes[lead + 1:]
        return cls(sizes)


@dataclasses.dataclass
class Squeeze(Op):
    dim: Optional[int]
    name = "squeeze"

    def syntax(self):
        return "[]" if self.dim is None else f"[{self.dim}]"

    def label(self):
        return "squeeze []" if self.dim is None else "squeeze [d]"

    def torch(self, t):
        return t.squeeze() if self.dim is None else t.squeeze(self.dim)

    def model(self, l):
        if self.dim is None:
            keep = [d for d in range(l.rank) if l.sizes[d] != 1]
        else:
            dim = wrap_dim(self.dim, l.rank)
            keep = [d for d in range(l.rank) if d != dim or l.sizes[d] != 1]
        return l.view([l.sizes[d] for d in keep], [l.strides[d] for d in keep])

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        if bad:
            return cls(bad_dim(rng, l.rank))
        if rng.random() < 0.45:
            return cls(None)
        ones = [d for d in range(l.rank) if l.sizes[d] == 1]
        dim = rng.choice(ones) if ones and rng.random() < 0.7 else rand_dim(rng, l.rank)
        return cls(dim - l.rank if dim >= 0 and l.rank and rng.random() < 0.3 else dim)


@dataclasses.dataclass
class Unsqueeze(Op):
    dim: int
    name = "unsqueeze"

    def syntax(self):
        return f"dim {self.dim}"

    def torch(self, t):
        return t.unsqueeze(self.dim)

    def model(self, l):
        dim = wrap_dim(self.dim, l.rank + 1)
        stride = 1 if dim >= l.rank else l.sizes[dim] * l.strides[dim]
        return l.view(l.sizes[:dim] + (1,) + l.sizes[dim:], l.strides[:dim] + (stride,) + l.strides[dim:])

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        if bad:
            return cls(bad_dim(rng, l.rank + 1))
        if l.rank >= MAX_RANK:
            return None
        return cls(rand_dim(rng, l.rank + 1))


@dataclasses.dataclass
class Unflatten(Op):
    dim: int
    sizes: List[int]
    name = "unflatten"

    def syntax(self):
        return f"dim {self.dim} [{ints(self.sizes)}]"

    def torch(self, t):
        return t.unflatten(self.dim, self.sizes)

    def model(self, l):
        if l.rank == 0:
            raise ViewError("unflatten: dimension specified as 0 but tensor has no dimensions")
        dim = wrap_dim(self.dim, l.rank)
        if not self.sizes:
            raise ViewError("unflatten: sizes must be non-empty")
        sizes = infer_size(self.sizes, l.sizes[dim])
        return model_view(l, l.sizes[:dim] + sizes + l.sizes[dim + 1:])

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        if l.rank == 0 and not bad:
            return None
        dim = rand_dim(rng, l.rank)
        n = l.sizes[dim] if l.rank else 1
        parts = rng.randint(1, min(3, MAX_RANK - l.rank + 1)) if l.rank < MAX_RANK else 1
        sizes = with_inferred(rng, factorize(rng, n, parts), 0.3)
        if bad:
            choice = rng.choice(["product", "product", "empty", "range"])
            if choice == "product":
                sizes = [s + 1 if s != -1 else s for s in sizes]
                if -1 in sizes or math.prod(sizes) == n:
                    sizes = sizes + [2]
            elif choice == "empty":
                sizes = []
            else:
                dim = bad_dim(rng, l.rank)
        return cls(dim, sizes)


@dataclasses.dataclass
class Diagonal(Op):
    offset: int
    dim1: int
    dim2: int
    name = "diagonal"

    def syntax(self):
        return f"offset {self.offset} dims {self.dim1}, {self.dim2}"

    def torch(self, t):
        return t.diagonal(self.offset, self.dim1, self.dim2)

    def model(self, l):
        d1, d2 = wrap_dim(self.dim1, l.rank), wrap_dim(self.dim2, l.rank)
        if d1 == d2:
            raise ViewError("diagonal dimensions cannot be identical")
        o = self.offset
        if o >= 0:
            size = max(min(l.sizes[d1], l.sizes[d2] - o), 0)
        else:
            size = max(min(l.sizes[d1] + o, l.sizes[d2]), 0)
        offset = l.offset
        if size > 0:
            offset += o * l.strides[d2] if o >= 0 else -o * l.strides[d1]
        keep = [d for d in range(l.rank) if d not in (d1, d2)]
        return l.view([l.sizes[d] for d in keep] + [size],
                      [l.strides[d] for d in keep] + [l.strides[d1] + l.strides[d2]], offset)

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        offset = rng.randint(-3, 3)
        if l.rank >= 2:
            a, b = rng.sample(range(l.rank), 2)
            if bad:
                return cls(offset, a, a - l.rank if rng.random() < 0.5 else a) if rng.random() < 0.5 \
                    else cls(offset, a, bad_dim(rng, l.rank))
            return cls(offset, a - l.rank if rng.random() < 0.3 else a, b - l.rank if rng.random() < 0.3 else b)
        if not bad:
            return None
        return cls(offset, 0, rng.choice([1, -1]))


@dataclasses.dataclass
class Unfold(Op):
    dim: int
    size: int
    step: int
    name = "unfold"

    def syntax(self):
        return f"dim {self.dim} size {self.size} step {self.step}"

    def torch(self, t):
        return t.unfold(self.dim, self.size, self.step)

    def model(self, l):
        dim = wrap_dim(self.dim, l.rank)
        max_size = l.sizes[dim] if l.rank else 1
        if self.size > max_size:
            raise ViewError(f"maximum size for tensor at dimension {dim} is {max_size} but size is {self.size}")
        if self.step <= 0:
            raise ViewError(f"step is {self.step} but must be > 0")
        if self.size < 0:
            raise ViewError("unfold: negative size")
        sizes, strides = list(l.sizes), list(l.strides)
        if l.rank:
            sizes[dim] = (sizes[dim] - self.size) // self.step + 1
            strides[dim] *= self.step
        return l.view(sizes + [self.size], strides + [l.strides[dim] if l.rank else 1])

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        if l.rank >= MAX_RANK and not bad:
            return None
        dim = rand_dim(rng, l.rank)
        n = l.sizes[dim] if l.rank else 1
        size, step = rng.randint(0, n), rng.choice([1, 1, 2, 3])
        if bad:
            choice = rng.choice(["size", "size", "step", "dim"])
            if choice == "size":
                size = n + rng.randint(1, 2)
            elif choice == "step":
                step = rng.choice([0, -1])
            else:
                dim = bad_dim(rng, l.rank)
        return cls(dim, size, step)


@dataclasses.dataclass
class Flip(Op):
    """layout.flip (extension): a view with negative strides.

    PyTorch's torch.flip copies, so there is no `torch` method; the model is
    docs/language.md's: each flipped dim's stride is negated and the offset
    moves to the last element along it (a size-0 dim has no last element, so
    the offset stays).  Dims are checked as torch.flip checks them.  The ops
    after a flip apply ATen's arithmetic to the negative strides as they are,
    except that a view without elements never points before its storage:
    its offset is clamped at 0 (see Layout.view)."""
    dims: List[int]
    name = "flip"

    def syntax(self):
        return f"[{ints(self.dims)}]"

    def model(self, l):
        dims = [wrap_dim(d, l.rank) for d in self.dims]
        if len(set(dims)) != len(dims):
            raise ViewError("dim appears multiple times in the list of dims")
        strides, offset = list(l.strides), l.offset
        for d in set(dims) if l.rank else ():
            if l.sizes[d] > 0:
                offset += (l.sizes[d] - 1) * l.strides[d]
            strides[d] = -strides[d]
        return l.view(l.sizes, strides, offset)

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        n = max(l.rank, 1)
        dims = [d - n if rng.random() < 0.3 else d
                for d in rng.sample(range(n), min(n, rng.choice([0, 1, 1, 1, 2, 2])))]
        if bad:
            dims = dims + [dims[0]] if dims and rng.random() < 0.5 else dims + [bad_dim(rng, l.rank)]
        return cls(dims)


@dataclasses.dataclass
class Split(Op):
    dim: int
    sizes: List[int]
    pick: int
    name = "split"

    @property
    def results(self):
        return len(self.sizes)

    def syntax(self):
        return f"dim {self.dim} [{ints(self.sizes)}]"

    def torch(self, t):
        return t.split_with_sizes(self.sizes, self.dim)[self.pick]

    def model(self, l):
        """`split_with_sizes`: consecutive narrows whose lengths must sum to the dim size."""
        if l.rank == 0:
            raise ViewError("split expects at least a 1-dimensional tensor")
        size = l.sizes[wrap_dim(self.dim, l.rank)]
        start, pieces = 0, []
        for length in self.sizes:
            if length < 0:
                raise ViewError("split_with_sizes expects split_sizes have only non-negative entries")
            pieces.append(model_narrow(l, self.dim, start, length))
            start += length
        if start != size:
            raise ViewError(f"split_with_sizes expects split_sizes to sum exactly to {size}")
        return pieces[self.pick]

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        if l.rank == 0 and not bad:
            return None
        dim = rand_dim(rng, l.rank)
        n = l.sizes[dim] if l.rank else 1
        cuts = sorted(rng.randint(0, n) for _ in range(rng.choice([1, 1, 2])))
        sizes = [b - a for a, b in zip([0] + cuts, cuts + [n])]
        if bad:
            i = rng.randrange(len(sizes))
            if rng.random() < 0.7 or sizes[i] == 0:
                sizes[i] += rng.choice([1, 2]) if sizes[i] == 0 or rng.random() < 0.5 else -1
            else:
                sizes[i], sizes[(i + 1) % len(sizes)] = -1, sizes[(i + 1) % len(sizes)] + sizes[i] + 1
        return cls(dim, sizes, rng.randrange(len(sizes)))


MEMORY_FORMATS = {
    "": torch.contiguous_format,
    "contiguous": torch.contiguous_format,
    "channels_last": torch.channels_last,
    "channels_last_3d": torch.channels_last_3d,
}
FORMAT_RANK = {"channels_last": 4, "channels_last_3d": 5}


def model_copy(l: Layout, memory_format: str) -> Layout:
    """`empty_like(l, memory_format)`: a new row-major or channels-last tensor."""
    if memory_format in FORMAT_RANK:
        if l.rank != FORMAT_RANK[memory_format]:
            raise ViewError(f"required rank {FORMAT_RANK[memory_format]} tensor to use {memory_format} format")
        return new_storage(l.sizes, channels_last_strides(l.sizes))
    return new_storage(l.sizes, contiguous_strides(l.sizes))


@dataclasses.dataclass
class Contiguous(Op):
    memory_format: str   # "", "channels_last" or "channels_last_3d"
    name = "contiguous"

    def syntax(self):
        return self.memory_format

    def label(self):
        return f"contiguous {self.memory_format}".strip()

    def torch(self, t):
        return t.contiguous(memory_format=MEMORY_FORMATS[self.memory_format])

    def model(self, l):
        if self.memory_format:
            if l.rank == FORMAT_RANK[self.memory_format] and is_channels_last_contiguous(l.sizes, l.strides):
                return l
        elif is_contiguous(l.sizes, l.strides):
            return l
        return model_copy(l, self.memory_format)

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        if bad:
            formats = [f for f, rank in FORMAT_RANK.items() if rank != l.rank]
            return cls(rng.choice(formats))
        if l.rank in (4, 5) and rng.random() < 0.6:
            return cls("channels_last" if l.rank == 4 else "channels_last_3d")
        return cls("")


@dataclasses.dataclass
class Clone(Op):
    """layout.clone.  Not generated with `preserve` after a flip: PyTorch never
    sees negative strides there, and the contract does not say what preserving
    them means."""
    memory_format: str   # "" (preserve), "contiguous" or "channels_last"
    name = "clone"

    def syntax(self):
        return self.memory_format

    def label(self):
        return f"clone {self.memory_format or 'preserve'}"

    def torch(self, t):
        fmt = MEMORY_FORMATS[self.memory_format] if self.memory_format else torch.preserve_format
        return t.clone(memory_format=fmt)

    def model(self, l):
        if self.memory_format:
            return model_copy(l, self.memory_format)
        if is_non_overlapping_and_dense(l.sizes, l.strides):
            return new_storage(l.sizes, l.strides)
        return new_storage(l.sizes, infer_dense_strides(l.sizes, l.strides))

    @classmethod
    def generate(cls, rng, l, bad, after_flip):
        if bad:
            return cls("channels_last") if l.rank != 4 else None
        formats = ([] if after_flip else [""]) + ["contiguous"] + (["channels_last"] * 2 if l.rank == 4 else [])
        return cls(rng.choice(formats))


OP_WEIGHTS = {
    AsStrided: 0.6, View: 1.2, Reshape: 1.0, Flatten: 0.8, Permute: 1.0, Transpose: 1.0,
    Movedim: 0.8, Slice: 1.0, Select: 0.8, Narrow: 0.8, Expand: 1.0, Squeeze: 1.0,
    Unsqueeze: 1.0, Unflatten: 0.9, Diagonal: 0.9, Unfold: 0.9, Flip: 1.0, Split: 0.9,
    Contiguous: 1.3, Clone: 1.3,
}
RESHAPING = (View, Reshape, Flatten, Unflatten, Contiguous, Clone)
SCRAMBLING = (AsStrided, Permute, Transpose, Movedim, Slice, Expand, Diagonal, Unfold, Flip)


# ---------------------------------------------------------------------------
# Programs and the two oracles.
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class Program:
    """A function @f: its argument (a tensor of `arg_sizes`, or a storage of
    `storage` elements when `storage` is not None) and its op chain."""
    arg_sizes: Tuple[int, ...]
    storage: Optional[int]
    ops: List[Op]

    def arg(self) -> Layout:
        """The argument as a layout (a storage is a 1-D row-major view of itself)."""
        if self.storage is not None:
            return Layout((self.storage,), (1,), 0, self.storage, True)
        return Layout(self.arg_sizes, contiguous_strides(self.arg_sizes), 0, math.prod(self.arg_sizes), True)

    def has_flip(self) -> bool:
        """Whether the chain needs the model as its oracle."""
        return any(isinstance(op, Flip) for op in self.ops)


def generate_program(rng: random.Random) -> Program:
    """A random program: the chain stops after the first op the model rejects."""
    if rng.random() < STORAGE_FRACTION:
        program = Program((), rng.choice([0, 1]) if rng.random() < 0.1 else rng.randint(2, 48), [])
    else:
        program = Program(tuple(rand_size(rng) for _ in range(rng.choices(range(5), [2, 2, 2, 2, 3])[0])), None, [])
    length = rng.randint(1, 6)
    bad_at = rng.randrange(length) if rng.random() < BAD_FRACTION else None
    l, after_flip = program.arg(), False
    kinds = list(OP_WEIGHTS)
    for i in range(length):
        # Reshaping a row-major tensor is easy: favour ops that scramble a
        # row-major operand and ops that reshape a scrambled one.
        favoured = SCRAMBLING if is_contiguous(l.sizes, l.strides) else RESHAPING
        weights = [w * 2 if kind in favoured else w for kind, w in OP_WEIGHTS.items()]
        op = None
        while op is None:
            kind = AsStrided if i == 0 and program.storage is not None else rng.choices(kinds, weights)[0]
            op = kind.generate(rng, l, i == bad_at, after_flip)
        program.ops.append(op)
        try:
            l = op.model(l)
        except ViewError:
            break
        after_flip = after_flip or isinstance(op, Flip)
    return program


@dataclasses.dataclass
class Outcome:
    """What an oracle says: the layout after each op that succeeded, then
    either the error of the op that failed or the final contiguity flags."""
    trace: List[Layout]
    error: Optional[str] = None
    contiguous: bool = False
    channels_last: bool = False

    def expected(self) -> dict:
        """The `results[0]` entry layoutc's explain must print."""
        l = self.trace[-1]
        return {"sizes": list(l.sizes), "strides": list(l.strides), "offset": l.offset, "dtype": "f32",
                "aliases": 0 if l.aliases else None, "contiguous": self.contiguous,
                "channels_last": self.channels_last}


def torch_outcome(program: Program) -> Outcome:
    """Run the chain on `torch.empty`: the contract's answer."""
    x = torch.empty(program.arg_sizes if program.storage is None else (program.storage,))
    t, trace = x, []
    for op in program.ops:
        try:
            t = op.torch(t)
        except (RuntimeError, IndexError, ValueError) as e:
            return Outcome(trace, str(e).splitlines()[0])
        trace.append(Layout(tuple(t.shape), tuple(t.stride()), t.storage_offset(), t.storage().size(),
                            t is x or t._base is x))
    return Outcome(trace, None, t.is_contiguous(),
                   t.dim() == 4 and t.is_contiguous(memory_format=torch.channels_last))


def model_outcome(program: Program) -> Outcome:
    """Run the chain on the model."""
    l, trace = program.arg(), []
    for op in program.ops:
        try:
            l = op.model(l)
        except ViewError as e:
            return Outcome(trace, str(e))
        trace.append(l)
    return Outcome(trace, None, is_contiguous(l.sizes, l.strides),
                   l.rank == 4 and is_channels_last_contiguous(l.sizes, l.strides))


def same_outcome(a: Outcome, b: Outcome) -> bool:
    """Equal traces, error-ness and flags (error messages differ freely)."""
    return (a.trace == b.trace and (a.error is None) == (b.error is None)
            and a.contiguous == b.contiguous and a.channels_last == b.channels_last)


def type_str(l: Layout) -> str:
    """The tensor type of a layout; the short form when row-major with offset 0."""
    elem = "x".join(str(s) for s in l.sizes) + "xf32" if l.sizes else "f32"
    if l.offset == 0 and l.strides == contiguous_strides(l.sizes):
        return f"!layout.tensor<{elem}>"
    return f"!layout.tensor<{elem}, strided<[{ints(l.strides)}], offset: {l.offset}>>"


@dataclasses.dataclass
class Case:
    """A rendered program with its oracle outcome."""
    index: int
    program: Program
    outcome: Outcome
    text: str
    error_line: Optional[int]   # line of the op PyTorch rejects
    self_check: Optional[bool]  # model == torch (None for flip chains, which only the model sees)


def render(index: int, program: Program, outcome: Outcome) -> Case:
    """The program's MLIR text, cut after the op that fails (if one does)."""
    if program.storage is None:
        operand, operand_type = "%x", type_str(program.arg())
    else:
        operand, operand_type = "%s", f"!layout.storage<{program.storage}xf32>"
    arg = f"{operand}: {operand_type}"
    ops = program.ops[:len(outcome.trace) + (outcome.error is not None)]
    body = []
    for i, op in enumerate(ops):
        names = [f"%v{i}"] if op.results == 1 else [f"%v{i}_{k}" for k in range(op.results)]
        syntax = op.syntax()
        body.append(f"  {', '.join(names)} = layout.{op.name} {operand}{' ' + syntax if syntax else ''}"
                    f" : {operand_type}")
        if i < len(outcome.trace):
            operand, operand_type = names[op.pick], type_str(outcome.trace[i])
    text = "\n".join([f"func.func @f({arg}) -> {operand_type} {{", *body,
                      f"  return {operand} : {operand_type}", "}", ""])
    error_line = len(ops) + 1 if outcome.error is not None else None
    return Case(index, program, outcome, text, error_line, None)


def make_case(seed: int, index: int) -> Case:
    """Program `index` of seed `seed` (each program has its own generator)."""
    program = generate_program(random.Random(seed * 1_000_003 + index))
    if program.has_flip():
        return render(index, program, model_outcome(program))
    outcome = torch_outcome(program)
    case = render(index, program, outcome)
    case.self_check = same_outcome(outcome, model_outcome(program))
    return case


# ---------------------------------------------------------------------------
# Running layoutc.
# ---------------------------------------------------------------------------

DIAGNOSTIC = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): error: ", re.MULTILINE)


@dataclasses.dataclass
class Verdict:
    """How layoutc did on one program: `kind` is None when it agrees with the
    oracle, else the class of disagreement (`detail` says more)."""
    kind: Optional[str]
    detail: str = ""
    proc: Optional[subprocess.CompletedProcess] = None


def check(layoutc: str, path: str, case: Case) -> Verdict:
    """Compile one program with `--emit=explain` and compare with the oracle."""
    try:
        proc = subprocess.run([layoutc, path, "--emit=explain"], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return Verdict("layoutc timed out")
    except OSError as e:
        return Verdict("layoutc could not be run", str(e))
    if proc.returncode < 0:
        return Verdict("layoutc crashed", f"signal {-proc.returncode}", proc)
    if case.outcome.error is not None:
        if proc.returncode == 0:
            return Verdict("layoutc accepts a program PyTorch rejects", "", proc)
        m = DIAGNOSTIC.search(proc.stderr)
        if not m:
            return Verdict("no `file:line:col: error:` diagnostic", "", proc)
        if os.path.basename(m["file"]) != os.path.basename(path) or int(m["line"]) != case.error_line:
            return Verdict("error diagnostic at the wrong place",
                           f"{m['file']}:{m['line']}, expected line {case.error_line}", proc)
        return Verdict(None)
    if proc.returncode != 0:
        return Verdict("layoutc rejects a program PyTorch accepts", "", proc)
    try:
        got = json.loads(proc.stdout)["functions"][0]["results"][0]
    except (ValueError, KeyError, IndexError, TypeError) as e:
        return Verdict("unreadable explain output", str(e), proc)
    expected = case.outcome.expected()
    diffs = [k for k in expected if got.get(k) != expected[k]]
    if diffs:
        return Verdict("different " + ", ".join(diffs), "", proc)
    return Verdict(None)


def describe(case: Case, verdict: Verdict) -> str:
    """A disagreement, for the log."""
    o = case.outcome
    oracle = "model (flip chain)" if case.self_check is None else "torch"
    expect = f"error at line {case.error_line}: {o.error}" if o.error is not None else json.dumps(o.expected())
    lines = [f"=== program {case.index}: {verdict.kind}{': ' + verdict.detail if verdict.detail else ''}",
             case.text.rstrip(), f"--- {oracle}: {expect}"]
    if verdict.proc is not None:
        lines.append(f"--- layoutc (exit {verdict.proc.returncode}):")
        for stream in (verdict.proc.stdout, verdict.proc.stderr):
            if stream.strip():
                lines.append(stream.strip().replace("\0", "")[:2000])  # LLVM's stack dumps hold NULs
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Statistics and the driver.
# ---------------------------------------------------------------------------

def statistics(cases: List[Case]) -> str:
    """Generator statistics: legality, argument forms, op coverage, model self-check."""
    illegal = sum(c.outcome.error is not None for c in cases)
    storage = sum(c.program.storage is not None for c in cases)
    ranks = collections.Counter(len(c.program.arg_sizes) for c in cases if c.program.storage is None)
    empty = sum(c.program.storage is None and 0 in c.program.arg_sizes for c in cases)
    flips = sum(c.self_check is None for c in cases)
    checked = [c for c in cases if c.self_check is not None]
    used, failing = collections.Counter(), collections.Counter()
    for c in cases:
        ops = c.program.ops[:len(c.outcome.trace) + (c.outcome.error is not None)]
        used.update(op.label() for op in ops)
        if c.outcome.error is not None:
            failing[ops[-1].label()] += 1
    lines = [
        f"programs: {len(cases)}: {len(cases) - illegal} legal, {illegal} illegal "
        f"({100 * illegal / max(len(cases), 1):.1f}%)",
        f"arguments: {len(cases) - storage} tensors (rank " +
        ", ".join(f"{r}: {ranks[r]}" for r in sorted(ranks)) + f"; {empty} with a size-0 dim), "
        f"{storage} storages",
        f"flip chains (model oracle): {flips}",
        f"model self-check: {sum(c.self_check for c in checked)}/{len(checked)} flip-free programs "
        "agree with PyTorch",
        "op coverage (occurrences / failing op of an illegal program):",
    ]
    lines += [f"  {label:<28}{used[label]:>6}{failing[label]:>6}" for label in sorted(used)]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=2000, help="number of programs (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count(), help="parallel layoutc runs")
    parser.add_argument("--layoutc", default="/work/main/build/bin/layoutc", help="layoutc binary (or name on PATH)")
    parser.add_argument("--write-dir", help="write the programs here (kept) instead of a temporary directory")
    parser.add_argument("--oracle-only", action="store_true",
                        help="only generate and evaluate programs, print statistics")
    parser.add_argument("--show", type=int, default=5, help="disagreements printed in full (default 5)")
    args = parser.parse_args(argv)

    cases = [make_case(args.seed, i) for i in range(args.count)]
    print(statistics(cases))
    mismatched = [c for c in cases if c.self_check is False]
    for c in mismatched[:args.show]:
        print(f"=== model self-check failed on program {c.index}\n{c.text.rstrip()}\n"
              f"--- torch: {c.outcome}\n--- model: {model_outcome(c.program)}")
    if args.oracle_only:
        return 1 if mismatched else 0

    layoutc = shutil.which(args.layoutc)
    if layoutc is None:
        print(f"error: layoutc not found: {args.layoutc}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.write_dir or tmp
        os.makedirs(directory, exist_ok=True)
        paths = []
        for c in cases:
            paths.append(os.path.join(directory, f"prog{c.index:05d}.mlir"))
            with open(paths[-1], "w") as f:
                f.write(c.text)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
            verdicts = list(pool.map(lambda pc: check(layoutc, *pc), zip(paths, cases)))
    failures = [(c, v) for c, v in zip(cases, verdicts) if v.kind is not None]
    if failures:
        print("disagreements by kind:")
        for kind, n in collections.Counter(v.kind for _, v in failures).most_common():
            print(f"  {n:>6}  {kind}")
    for c, v in failures[:args.show]:
        print(describe(c, v))
    print(f"{len(cases) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
