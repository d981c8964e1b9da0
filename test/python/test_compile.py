"""layoutc.compile beyond the random functions (issue 24): NumPy arguments,
the in-memory and on-disk kernel caches, recompilation for new layouts,
storage offsets, and hand-picked functions the generator does not draw
(writes into an argument's own storage, results returned twice, large
tensors that run on several threads, device no-ops)."""

import numpy as np
import pytest
import torch

import layoutc
from layoutc import _toolchain
from compare import check_call, storage_id


def arange(*shape, dtype=torch.float32):
    n = int(np.prod(shape))
    return torch.arange(n).to(dtype).reshape(shape)


def seeded(make):
    """`make` run under a fixed seed, so both calls get equal values."""
    def run():
        torch.manual_seed(0)
        return make()
    return run


# -- NumPy arrays -------------------------------------------------------------

NUMPY_CASES = [
    ("transpose", lambda x: x.t().contiguous(),
     lambda: np.arange(12, dtype=np.float32).reshape(3, 4)),
    ("view-and-copy", lambda x: (x.t(), x.t().contiguous()),
     lambda: np.arange(24, dtype=np.int16).reshape(4, 6)[:, 1::2]),
    ("bool", lambda x: (x.t().contiguous(), x.sum(0)),
     lambda: np.array([[True, False, True], [False, False, True]])),
    ("uint8-to-f64", lambda x: x.permute(2, 0, 1).double(),
     lambda: np.arange(24, dtype=np.uint8).reshape(2, 3, 4)),
    ("f16-mean", lambda x: x.mean(1, keepdim=True),
     lambda: (np.arange(20, dtype=np.float16) / 7).reshape(4, 5)),
    ("argmax", lambda x: x.argmax(0),
     lambda: np.array([[3, 9, 1], [7, 2, 8]], dtype=np.int64)),
    ("channels-last", lambda x: x.contiguous(memory_format=torch.channels_last),
     lambda: np.arange(120, dtype=np.float64).reshape(2, 3, 4, 5)),
    ("select-view", lambda x: x[1],
     lambda: np.arange(12, dtype=np.int32).reshape(3, 4)),
    ("empty", lambda x: x.t().contiguous(),
     lambda: np.zeros((0, 3), np.float32)),
    ("empty-bool", lambda x: (x.t(), x.unsqueeze(1)),     # strides 0, as NumPy has them
     lambda: np.zeros((0, 3), bool)),
]


@pytest.mark.parametrize("name, fn, make", NUMPY_CASES, ids=[c[0] for c in NUMPY_CASES])
def test_numpy_arguments(name, fn, make):
    """Called with NumPy arrays, a compiled function returns NumPy arrays
    with eager PyTorch's values, dtypes, strides and aliasing."""
    arg = make()
    got = layoutc.compile(fn)(arg)
    eager = fn(torch.from_numpy(make()))
    got = list(got) if isinstance(got, tuple) else [got]
    eager = list(eager) if isinstance(eager, tuple) else [eager]
    assert len(got) == len(eager)
    base = torch.from_numpy(arg)
    for c, e in zip(got, eager):
        assert isinstance(c, np.ndarray)
        expected = e.numpy()
        assert c.dtype == expected.dtype
        assert c.shape == expected.shape
        # (e.numpy() of an empty tensor has strides 0: compare with e's.)
        assert c.strides == tuple(st * c.itemsize for st in e.stride())
        assert np.array_equal(c, expected, equal_nan=c.dtype.kind == "f")
        views = e._base is not None and e.numel() > 0
        assert np.shares_memory(c, arg) == views
        if views:
            offset = c.__array_interface__["data"][0] - arg.__array_interface__["data"][0]
            assert offset == (e.storage_offset() - base.storage_offset()) * c.itemsize


def test_numpy_copy_into_argument():
    f = layoutc.compile(lambda x, y: y[:, 1::2].copy_(x.t()))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.zeros((3, 4), np.float64)
    f(x, y)
    expected = torch.zeros(3, 4, dtype=torch.float64)
    expected[:, 1::2].copy_(torch.from_numpy(x).t())
    assert np.array_equal(y, expected.numpy())


def test_numpy_and_torch_keep_their_kernels():
    """The kind of argument is part of the key: NumPy in, NumPy out."""
    f = layoutc.compile(lambda x: x.t().contiguous())
    assert isinstance(f(np.zeros((2, 3), np.float32)), np.ndarray)
    assert isinstance(f(torch.zeros(2, 3)), torch.Tensor)
    assert isinstance(f(np.zeros((2, 3), np.float32)), np.ndarray)


# -- caches and recompilation -------------------------------------------------

def _count_layoutc_runs(monkeypatch):
    runs = []
    real = _toolchain.run_layoutc

    def counting(*args, **kwargs):
        runs.append(args)
        return real(*args, **kwargs)
    monkeypatch.setattr(_toolchain, "run_layoutc", counting)
    return runs


def cache_fn(x):
    return x.transpose(0, 1).contiguous(), x.sum(-1)


def test_memory_cache(monkeypatch):
    runs = _count_layoutc_runs(monkeypatch)
    f = layoutc.compile(cache_fn)
    assert f.cache_size() == 0
    check_call(cache_fn, f, lambda: [arange(3, 4, 5)])
    assert f.cache_size() == 1
    compiled_runs = len(runs)
    assert compiled_runs > 0
    for _ in range(3):
        check_call(cache_fn, f, lambda: [arange(3, 4, 5)])
    assert f.cache_size() == 1
    assert len(runs) == compiled_runs       # no trace, no layoutc run
    # The same layout at another storage offset: the same kernel.
    check_call(cache_fn, f, lambda: [arange(70)[10:].view(3, 4, 5)])
    assert f.cache_size() == 1
    assert len(runs) == compiled_runs


@pytest.mark.parametrize("make", [
    lambda: arange(4, 3, 5),                               # new sizes
    lambda: arange(5, 4, 3).permute(2, 1, 0),              # new strides
    lambda: arange(3, 4, 5, dtype=torch.float64),          # new dtype
    lambda: arange(3, 4, 5, 2)[..., 0],                    # new strides, same sizes
], ids=["sizes", "permuted", "dtype", "strided"])
def test_new_layout_recompiles(monkeypatch, make):
    runs = _count_layoutc_runs(monkeypatch)
    f = layoutc.compile(cache_fn)
    check_call(cache_fn, f, lambda: [arange(3, 4, 5)])
    before = len(runs)
    check_call(cache_fn, f, lambda: [make()])
    assert f.cache_size() == 2
    assert len(runs) > before
    # Both layouts stay in memory.
    after = len(runs)
    check_call(cache_fn, f, lambda: [arange(3, 4, 5)])
    check_call(cache_fn, f, lambda: [make()])
    assert len(runs) == after and f.cache_size() == 2


def test_disk_cache_reused(monkeypatch):
    """A second CompiledFunction of the same function finds the kernel on
    disk: no layoutc run (run_layoutc fails if called)."""
    first = layoutc.compile(cache_fn)
    check_call(cache_fn, first, lambda: [arange(2, 3, 7)])

    def refuse(*args, **kwargs):
        raise AssertionError("layoutc ran: the disk cache was not used")
    monkeypatch.setattr(_toolchain, "run_layoutc", refuse)
    second = layoutc.compile(cache_fn)
    check_call(cache_fn, second, lambda: [arange(2, 3, 7)])
    assert second.cache_size() == 1
    # A layout never compiled does need layoutc.
    with pytest.raises(AssertionError, match="the disk cache was not used"):
        second(arange(2, 3, 8))


def test_prepare_with_examples(monkeypatch):
    f = layoutc.compile(cache_fn, arange(3, 2, 2))
    assert f.cache_size() == 1
    runs = _count_layoutc_runs(monkeypatch)
    check_call(cache_fn, f, lambda: [arange(3, 2, 2)])
    assert not runs


def as_strided_fn(x):
    return x.as_strided((2, 2), (1, 2), 1).contiguous(), x.as_strided((3,), (2,), 0)


def test_as_strided_offsets():
    """as_strided offsets are absolute in the storage: the storage offset of
    the argument is part of the key."""
    f = layoutc.compile(as_strided_fn)
    check_call(as_strided_fn, f, lambda: [arange(12)[2:8]])
    check_call(as_strided_fn, f, lambda: [arange(12)[1:7]])
    assert f.cache_size() == 2
    check_call(as_strided_fn, f, lambda: [arange(30)[1:7]])
    assert f.cache_size() == 2


def test_argument_at_offset():
    f = layoutc.compile(lambda x: (x[1:, ::2], x.flip(0), x.t().contiguous()))
    for start in (0, 3, 7):
        check_call(lambda x: (x[1:, ::2], x.flip(0), x.t().contiguous()), f,
                   lambda: [arange(40)[start:start + 12].view(3, 4)])
    assert f.cache_size() == 1


# -- hand-picked functions ----------------------------------------------------

def copy_disjoint_rows(x):
    return x[0].copy_(x[1])


def copy_self(x):
    return x.copy_(x)


def copy_into_clone(x):
    c = x.clone()
    c[0].copy_(x[2])
    return c


def copy_then_read(x, y):
    y.copy_(x)
    return y.t().contiguous(), y.sum(0)


def read_then_copy(x, y):
    r = y.t().contiguous()
    y.copy_(x)
    return r


def copy_twice(x, y):
    y.copy_(x)
    y[1].copy_(x.flip(0)[0])
    return y


def returned_twice(x):
    r = x.t().contiguous()
    return r, r


def argument_returned(x):
    return x, x.t(), x


def to_cpu(x):
    return x.to("cpu"), x.cpu(), x.to("cpu", torch.float64)


def same_dtype(x):
    return x.to(torch.float32), x.float(), x.to(torch.float32, copy=True)


def sum_dtypes(x):
    return x.sum(1, dtype=torch.float64), x.long().sum(0, dtype=torch.int8), x.mean(1, dtype=torch.float64)


def scalar_reductions(x):
    return x.sum(0), x.amax(), x.argmax(), x.argmax(0, keepdim=True), x.prod()


def keepdim_all(x):
    return x.sum((0, 1), keepdim=True), x.amax((), keepdim=True), x.sum([])


def flip_layouts(x):
    return x.flip(0), x.flip(-1), torch.flip(x, [0, 1])


SPECIAL = [
    ("copy-disjoint-rows", copy_disjoint_rows, lambda: [arange(3, 4)]),
    ("copy-self", copy_self, lambda: [arange(3, 4)]),
    # torch.flip copies, so this reads a copy (the trace clones the flip).
    ("copy-own-flip", lambda x: x.copy_(x.flip(0)), lambda: [arange(4, 4)]),
    ("copy-own-sum", lambda x: x[0].copy_(x[1:].sum(0)), lambda: [arange(4, 4)]),
    ("copy-into-clone", copy_into_clone, lambda: [arange(3, 4)]),
    ("copy-then-read", copy_then_read, lambda: [arange(3, 4), torch.zeros(3, 4)]),
    ("read-then-copy", read_then_copy, lambda: [arange(3, 4), arange(3, 4) + 7]),
    ("copy-twice", copy_twice, lambda: [arange(4), torch.zeros(2, 4)]),
    ("returned-twice", returned_twice, lambda: [arange(3, 4)]),
    ("argument-returned", argument_returned, lambda: [arange(3, 4)]),
    ("same-tensor-twice", lambda x, y: (x.t().contiguous(), y.sum(0)),
     lambda: [arange(3, 4)] * 2),
    ("to-cpu", to_cpu, lambda: [arange(3, 4)]),
    ("same-dtype", same_dtype, lambda: [arange(3, 4).t()]),
    ("sum-dtypes", sum_dtypes, lambda: [arange(3, 4)]),
    ("scalar", scalar_reductions, lambda: [torch.tensor(2.5)]),
    ("keepdim-all", keepdim_all, lambda: [arange(3, 4)]),
    ("flip-dense", flip_layouts, lambda: [arange(3, 4)]),
    ("flip-permuted", flip_layouts, lambda: [arange(4, 3).t()]),
    ("flip-sliced", flip_layouts, lambda: [arange(6, 5)[::2, 1:4]]),
    ("flip-expanded", flip_layouts, lambda: [arange(1, 3).expand(4, 3)]),
    ("flip-size-1-dim", lambda x: x.flip(1), lambda: [arange(2, 3, 4)[:, :1].permute(2, 1, 0)]),
    ("flip-channels-last", lambda x: x.flip(1),
     lambda: [arange(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)]),
    ("expanded-argument", lambda x: (x.contiguous(), x.reshape(-1), x.sum(0)),
     lambda: [arange(3).expand(4, 3)]),
    ("nan-reductions", lambda x: (x.amax(1), x.amin(0), x.argmax(1), x.argmin(0), x.max()),
     lambda: [torch.tensor([[1.0, float("nan"), 3.0], [-0.0, 0.0, -1.0]])]),
    ("ties", lambda x: (x.argmax(1), x.argmin(1), x.argmax()),
     lambda: [torch.tensor([[2, 5, 5, 1], [0, 0, 0, 0]], dtype=torch.int8)]),
    ("int-conversions", lambda x: (x.to(torch.int8), x.to(torch.uint8), x.to(torch.float16), x.bool()),
     lambda: [torch.tensor([300, -129, 255, 65519, 65521, 2**40 + 1, 0])]),
    # PyTorch converts f64 and i64 to f16/bf16 through f32 (two roundings).
    ("double-rounding", lambda x: (x.half(), x.bfloat16()),
     lambda: [torch.tensor([1 + 2**-11 + 2**-40, -(1 + 2**-8 + 2**-40), 65519.99,
                            2.0**-25 + 2**-50], dtype=torch.float64)]),
    ("int64-double-rounding", lambda x: (x.bfloat16(), x.float(), x.double()),
     lambda: [torch.tensor([2**24 + 2**16 + 1, -(2**24 + 2**16 + 1), 2**53 + 1,
                            2**62 + 2**40 + 1])]),
    ("float-conversions", lambda x: (x.half(), x.bfloat16(), x.float(), x.bool()),
     lambda: [torch.tensor([1e300, -1e-300, 65520.0, 3.0000001, float("nan"), -0.0, 1 / 3],
                           dtype=torch.float64)]),
]


@pytest.mark.parametrize("name, fn, make", SPECIAL, ids=[c[0] for c in SPECIAL])
def test_special(name, fn, make):
    # amax/amin of -0.0 and 0.0 may give either zero (as in the random tests).
    check_call(fn, layoutc.compile(fn), make, exact_zero_sign=name != "nan-reductions")


LARGE = [
    ("transpose", lambda x: x.t().contiguous(), lambda: torch.randn(1024, 777)),
    ("reductions", lambda x: (x.sum(0), x.sum(1), x.amax(0), x.argmax(1)),
     lambda: torch.randint(-5, 5, (1000, 999))),
    ("channels-last", lambda x: x.contiguous(memory_format=torch.channels_last),
     lambda: torch.randn(8, 63, 33, 35)),
    ("convert", lambda x: x.t().half(), lambda: torch.randn(1000, 1001)),
    ("float-sum", lambda x: (x.sum(), x.mean(0)), lambda: torch.randn(513, 1023)),
    ("gather", lambda x: x[::3, 1::2].clone(), lambda: torch.randn(1500, 800).to(torch.bfloat16)),
]


@pytest.mark.parametrize("name, fn, make", LARGE, ids=[c[0] for c in LARGE])
def test_large(name, fn, make):
    """Tensors large enough for several chunks on the thread pool."""
    from compare import TOLERANCE
    inexact = name == "float-sum"
    make_args = seeded(lambda: [make()])
    tolerance = None
    if inexact:
        # sum() and mean(0) both: compare with the looser of the two bounds.
        x = make_args()[0]
        absref = x.double().abs().sum()
        tolerance = ("sum", absref, x.numel())
        e = fn(x)
        c = layoutc.compile(fn)(make_args()[0])
        eps = torch.finfo(torch.float32).eps
        assert abs(float(c[0]) - float(e[0])) <= TOLERANCE * eps * (abs(float(e[0])) + float(absref))
        bound = TOLERANCE * eps * (e[1].double().abs() + x.double().abs().mean(0))
        assert bool(((c[1].double() - e[1].double()).abs() <= bound).all())
        assert c[0].stride() == e[0].stride() and c[1].stride() == e[1].stride()
        return
    check_call(fn, layoutc.compile(fn), make_args, tolerance)


def test_results_are_new_each_call():
    """Each call allocates its own outputs."""
    f = layoutc.compile(lambda x: x.t().contiguous())
    a, b = f(arange(3, 4)), f(arange(3, 4))
    assert storage_id(a) != storage_id(b)


def test_numpy_views_follow_their_argument():
    """With torch and NumPy arguments, new results are torch tensors and a
    view is of its argument's kind; a result that is an argument is that
    argument; views of a read-only array are read-only."""
    f = layoutc.compile(lambda x, y: (x.t(), y.t(), x.t().contiguous(), x, y))
    a, t = np.arange(6.0).reshape(2, 3), torch.arange(6.0).reshape(2, 3)
    xv, yv, copy, x, y = f(a, t)
    assert isinstance(xv, np.ndarray) and np.shares_memory(xv, a)
    assert xv.strides == (8, 24) and np.array_equal(xv, a.T)
    assert isinstance(yv, torch.Tensor) and storage_id(yv) == storage_id(t)
    assert isinstance(copy, torch.Tensor) and torch.equal(copy, torch.from_numpy(a).t())
    assert x is a and y is t
    read_only = np.broadcast_to(np.arange(3.0), (2, 3))
    view = layoutc.compile(lambda x: x.t())(read_only)
    assert np.shares_memory(view, read_only) and not view.flags.writeable


def test_numpy_scalar():
    f = layoutc.compile(lambda x: (x, x.unsqueeze(0), x.double()))
    s = np.float32(2.5)
    same, view, converted = f(s)
    assert same is s
    assert view.shape == (1,) and view[0] == 2.5
    assert converted.dtype == np.float64 and converted == 2.5


@pytest.mark.parametrize("flags", [("-O0",), ("--mcpu=host",)], ids=["O0", "host"])
def test_flags(flags):
    """layoutc flags change the code, not the results."""
    x = seeded(lambda: [torch.randn(33, 17, 9)])
    plain = layoutc.compile(cache_fn)(*x())
    flagged = layoutc.compile(cache_fn, flags=flags)(*x())
    for a, b in zip(plain, flagged):
        assert a.stride() == b.stride() and torch.equal(a, b)
