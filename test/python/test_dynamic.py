"""layoutc.compile(program) of functions with `?` sizes: one build serves
every shape; each new shape asks the function's <f>_layouts for the results'
layouts, so outputs get PyTorch's sizes and strides, results PyTorch returns
as views (for some sizes only, too) come back as views of the argument, and
PyTorch's checks on sizes raise LayoutcError with PyTorch's message."""

import os

import numpy as np
import pytest
import torch

import layoutc

NHWC = """
func.func @nhwc(%x: !layout.tensor<?x?x?x?xf32>) -> !layout.tensor<?x?x?x?xf32> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<?x?x?x?xf32>
  %c = layout.contiguous %v : !layout.tensor<?x?x?x?xf32, strided<[?, ?, 1, ?]>>
  return %c : !layout.tensor<?x?x?x?xf32>
}
"""

# A view of the argument (always), a copy PyTorch makes for some sizes
# only, a select whose index PyTorch checks, and a reshape that views or
# copies as PyTorch's computeStride decides.
VIEWS = """
func.func @views(%x: !layout.tensor<?x?xi16>) -> (!layout.tensor<?x?xi16, strided<[1, ?]>>, !layout.tensor<?x?xi16>, !layout.tensor<?xi16, strided<[1], offset: ?>>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<?x?xi16>
  %c = layout.contiguous %t : !layout.tensor<?x?xi16, strided<[1, ?]>>
  %s = layout.select %x dim 0 index 1 : !layout.tensor<?x?xi16>
  return %t, %c, %s : !layout.tensor<?x?xi16, strided<[1, ?]>>, !layout.tensor<?x?xi16>, !layout.tensor<?xi16, strided<[1], offset: ?>>
}

func.func @flat(%x: !layout.tensor<?x?x?xf32>) -> !layout.tensor<?xf32, strided<[?]>> {
  %t = layout.transpose %x 0, 2 : !layout.tensor<?x?x?xf32>
  %r = layout.reshape %t [-1] : !layout.tensor<?x?x?xf32, strided<[1, ?, ?]>>
  return %r : !layout.tensor<?xf32, strided<[?]>>
}

func.func @rowsum(%x: !layout.tensor<?x?xf64>) -> !layout.tensor<?xf64> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<?x?xf64>
  %s = layout.reduce sum %t dims [1] : !layout.tensor<?x?xf64, strided<[1, ?]>>
  return %s : !layout.tensor<?xf64>
}

func.func @fixed(%x: !layout.tensor<2x3xf32>) -> !layout.tensor<3x2xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2x3xf32>
  %c = layout.contiguous %t : !layout.tensor<3x2xf32, strided<[1, 3]>>
  return %c : !layout.tensor<3x2xf32>
}
"""


@pytest.fixture(scope="module")
def nhwc():
    return layoutc.compile(NHWC)


@pytest.fixture(scope="module")
def views():
    return layoutc.compile(VIEWS)


def shares_storage(a, b):
    return a.storage().data_ptr() == b.storage().data_ptr()


@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (8, 3, 17, 33), (1, 1, 1, 1),
                                   (2, 1, 5, 7), (0, 3, 4, 4), (3, 64, 9, 1)])
def test_nhwc_every_shape(nhwc, shape):
    x = torch.randn(shape)
    want = x.permute(0, 2, 3, 1).contiguous()
    got = nhwc(x)
    assert torch.equal(got, want)
    assert got.shape == want.shape
    # PyTorch returns x itself permuted where the permuted view is
    # contiguous already (a size-1 channel dim, no elements); so does
    # layoutc, with PyTorch's strides where there are elements.
    assert shares_storage(got, x) == shares_storage(want, x)
    if want.numel():
        assert got.stride() == want.stride()


def builds():
    """The kernel libraries in the on-disk cache (conftest.py's)."""
    root = os.environ["LAYOUTC_CACHE_DIR"]
    return sorted(d for d in os.listdir(root)
                  if os.path.exists(os.path.join(root, d, "kernels.so")))


def test_one_build_for_every_shape(nhwc):
    before_builds = builds()
    before = nhwc.nhwc.cache_size()
    for n in (3, 5, 7):
        x = torch.randn(n, 2, n, 4)
        assert torch.equal(nhwc(x), x.permute(0, 2, 3, 1).contiguous())
    # A layout per shape in memory, and no new build (a traced function
    # builds one per shape).
    assert nhwc.nhwc.cache_size() == before + 3
    assert builds() == before_builds
    assert os.path.dirname(nhwc.library.path) in [
        os.path.join(os.environ["LAYOUTC_CACHE_DIR"], d) for d in builds()]


def test_nhwc_numpy(nhwc):
    x = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    got = nhwc(x)
    assert isinstance(got, np.ndarray)
    assert np.array_equal(got, x.transpose(0, 2, 3, 1))
    assert got.strides == (240, 60, 12, 4)


@pytest.mark.parametrize("shape", [(3, 4), (2, 1), (5, 1), (2, 0), (7, 33)])
def test_views_and_run_time_copies(views, shape):
    x = torch.arange(int(np.prod(shape)), dtype=torch.int16).reshape(shape)
    t, c, s = views.views(x)
    assert torch.equal(t, x.t()) and shares_storage(t, x)
    # An empty tensor's strides are free (docs/abi.md): compared where
    # there are elements.
    if x.numel():
        assert t.stride() == x.t().stride()
    want = x.t().contiguous()
    assert torch.equal(c, want)
    # Where PyTorch's contiguous() returns the transpose itself, so does
    # layoutc; elsewhere a new tensor.
    assert shares_storage(c, x) == shares_storage(want, x)
    assert torch.equal(s, x[1]) and shares_storage(s, x)
    if x.numel():
        assert s.storage_offset() == x[1].storage_offset()


@pytest.mark.parametrize("shape, views_x", [((1, 1, 5), True), ((3, 1, 1), True),
                                            ((2, 3, 4), False), ((1, 4, 5), False)])
def test_reshape_decided_at_run_time(views, shape, views_x):
    x = torch.randn(shape)
    want = x.transpose(0, 2).reshape(-1)
    assert shares_storage(want, x) == views_x
    got = views.flat(x)
    assert torch.equal(got, want)
    assert shares_storage(got, x) == views_x


@pytest.mark.parametrize("shape", [(3, 4), (1, 9), (0, 5), (6, 0), (129, 17)])
def test_reduction(views, shape):
    x = torch.randn(shape, dtype=torch.float64)
    got = views.rowsum(x)
    assert got.shape == (shape[1],)
    assert torch.allclose(got, x.t().sum(1), rtol=1e-12, atol=1e-12)


def test_static_function_beside_dynamic_ones(views):
    x = torch.randn(2, 3)
    assert torch.equal(views.fixed(x), x.t().contiguous())


@pytest.mark.parametrize("arg, text", [
    (torch.zeros(1, 3, dtype=torch.int16),
     "views: select(): index 1 out of range for tensor of size [1, 3] at dimension 0"),
    (torch.zeros(3, 4, dtype=torch.int32), "views: argument 0 (x): expected dtype i16, got i32"),
    (torch.zeros(3, 4, 2, dtype=torch.int16), "views: argument 0 (x): expected rank 2, got 3"),
    (torch.zeros(4, 3, dtype=torch.int16).t(), "views: argument 0 (x): expected stride"),
], ids=["select-index", "dtype", "rank", "strides"])
def test_bad_arguments(views, arg, text):
    with pytest.raises(layoutc.LayoutcError) as info:
        views.views(arg)
    assert text in str(info.value)


def test_argument_count(views):
    with pytest.raises(TypeError, match="views takes 1 argument, got 2"):
        views.views(torch.zeros(2, 2, dtype=torch.int16),
                    torch.zeros(2, 2, dtype=torch.int16))
