"""Random PyTorch functions, compiled with layoutc.compile and compared with
eager PyTorch on real CPU tensors (issue 24).

Each test draws one function with `randfns.random_function(seed)` (a view
chain ending in a copy, a conversion, a reduction or a copy_ into an
argument, over every dtype; see randfns.py), compiles it, calls it twice on
fresh arguments and compares both calls with eager PyTorch
(`compare.check_call`: structure, dtype, shape, strides, aliasing, values,
and the arguments afterwards). Float sum, mean and prod are compared within
compare.TOLERANCE; everything else must be bit-exact.

The seeds are fixed, so every run tests the same functions; a failure
prints the function's source and its arguments' recipe, which reproduce it:

    import sys; sys.path.insert(0, "test/python")
    import randfns; print(randfns.random_function(SEED))
"""

import collections

import pytest
import torch

import layoutc
from compare import check_call, reduction_tolerance
from randfns import DTYPES, REDUCTIONS, random_function

COUNT = 800   # random functions; each compiles one kernel (~0.15-0.25 s)


@pytest.mark.parametrize("seed", range(COUNT))
def test_random_function(seed):
    rf = random_function(seed)
    fn = rf.function()
    compiled = layoutc.compile(fn)
    tolerance = reduction_tolerance(rf)
    exact_zero_sign = rf.ending.kind != "reduce"
    try:
        check_call(fn, compiled, rf.make_args, tolerance, exact_zero_sign)
        # Again, on new arguments of the same layouts: the kernel in memory.
        check_call(fn, compiled, rf.make_args, tolerance, exact_zero_sign)
        assert compiled.cache_size() == 1
    except (AssertionError, layoutc.LayoutcError) as e:
        raise AssertionError(f"{rf}\n{type(e).__name__}: {e}") from e


def _features(rf):
    """What a random function exercises, for test_generator_coverage."""
    found = set()
    found.add(("dtype", rf.input_dtype))
    found.add(("ending", rf.ending.kind))
    if rf.ending.kind == "reduce":
        found.add(("reduction", rf.ending.op))
    if rf.ending.target is not None:
        found.add(("target", rf.ending.target))
    x = rf.make_args()[0]
    if 0 in x.shape:
        found.add(("size", 0))
    if 1 in x.shape:
        found.add(("size", 1))
    found.add(("layout", rf.args[0].layout))
    if not x.is_contiguous():
        found.add(("noncontiguous", True))
    for line in rf.chain:
        for op in ("view", "reshape", "permute", "transpose", "swapaxes", ".t()",
                   ".mT", "movedim", "[", "select", "narrow", "expand",
                   "unsqueeze", "squeeze", "diagonal", "unfold", "as_strided",
                   "unflatten", "flatten", "split", "chunk", "unbind"):
            if op in line:
                found.add(("op", op))
        if "::" in line or ":2" in line or ":3" in line:
            found.add(("op", "step"))
        if "[-" in line or ":-" in line:
            found.add(("op", "negative bound"))
    source = rf.source
    for ending in ("contiguous()", "clone()", "channels_last)", "channels_last_3d)",
                   "flip", "reshape(-1)", "copy_("):
        if ending in source.splitlines()[-2] or ending in source.splitlines()[-1]:
            found.add(("copy", ending))
    if "return" in source.splitlines()[-1] and (
            f"{rf.chain_name}," in source or f", {rf.chain_name}" in source):
        found.add(("returns view", True))
    return found


def test_generator_coverage():
    """The seeds above cover what issue 24 asks for: every dtype, every
    ending and reduction, size-0 and size-1 dims, non-contiguous arguments,
    every view op, views returned beside the result."""
    seen = collections.Counter()
    for seed in range(COUNT):
        for feature in _features(random_function(seed)):
            seen[feature] += 1
    wanted = ([("dtype", d) for d in DTYPES] + [("target", d) for d in DTYPES]
              + [("ending", k) for k in ("copy", "to", "reduce", "copy_")]
              + [("reduction", r) for r in REDUCTIONS]
              + [("size", 0), ("size", 1), ("noncontiguous", True),
                 ("returns view", True), ("op", "step"), ("op", "negative bound")]
              + [("layout", k) for k in ("contiguous", "permuted", "sliced",
                                          "offset", "expanded", "permuted+sliced")]
              + [("op", op) for op in ("view", "reshape", "permute", "transpose",
                                       "swapaxes", ".t()", ".mT", "movedim", "[",
                                       "select", "narrow", "expand", "unsqueeze",
                                       "squeeze", "diagonal", "unfold", "as_strided",
                                       "unflatten", "flatten", "split", "chunk",
                                       "unbind")]
              + [("copy", e) for e in ("contiguous()", "clone()", "channels_last)",
                                       "channels_last_3d)", "flip", "reshape(-1)",
                                       "copy_(")])
    missing = [w for w in wanted if seen[w] < 2]
    assert not missing, f"features drawn fewer than twice: {missing}"


def test_random_functions_are_reproducible():
    a, b = random_function(7), random_function(7)
    assert a.source == b.source
    for x, y in zip(a.make_args(), b.make_args()):
        assert x.stride() == y.stride() and x.storage_offset() == y.storage_offset()
        assert torch.equal(torch.nan_to_num(x.double()), torch.nan_to_num(y.double()))
