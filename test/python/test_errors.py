"""Functions layoutc cannot compile, and calls it refuses (issue 24).

Each traced function below does one thing with no layout equivalent, or
something PyTorch itself rejects, on the line marked `# <- error`. Compiling
and calling it must raise layoutc.TraceError whose message names the aten op
(also in `e.op`), with `e.filename` this file and `e.lineno` the marked line.
Errors raised before any aten op runs (PyTorch's Python-level checks) and
errors about the function's results (located at its return statement) have
`e.op` None and still name the line.

The rest: calls of compiled programs with arguments of other layouts
(LayoutcError with the runtime's message), layoutc's documented limits of
code generation (LayoutcError at the user's line), and arguments the
dispatcher refuses.
"""

import inspect

import numpy as np
import pytest
import torch

import layoutc

CONST = torch.ones(3, 4)
NO_EQUIVALENT = "has no layout equivalent"
NOT_DERIVED = "is not derived from the function's arguments"


def x34():
    return torch.arange(12.0).reshape(3, 4)


def i64(*values):
    return torch.tensor(values)


def marked_line(fn):
    """The line of `fn`'s source marked `# <- error`."""
    lines, first = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if "# <- error" in line:
            return first + i
    raise AssertionError(f"{fn.__name__} has no marked line")


def f_add(x):
    return x + 1  # <- error


def f_mul(x, y):
    return x * y  # <- error


def f_relu(x):
    return torch.relu(x)  # <- error


def f_neg(x):
    return -x  # <- error


def f_add_(x):
    x.add_(1)  # <- error


def f_fill_(x):
    return x.fill_(0)  # <- error


def f_t_(x):
    return x.t_()  # <- error


def f_unsqueeze_(x):
    return x.unsqueeze_(0)  # <- error


def f_resize_(x):
    return x.resize_(2)  # <- error


def f_zeros(x):
    return torch.zeros(3)  # <- error


def f_empty_like(x):
    return torch.empty_like(x)  # <- error


def f_rand_like(x):
    return torch.rand_like(x)  # <- error


def f_item(x):
    x.t()
    return x[0, 0].item()  # <- error


def f_item_many(x):
    return x.item()  # <- error


def f_captured_view(x):
    return CONST.view(-1)  # <- error


def f_captured_copy(x):
    return x.copy_(CONST)  # <- error


def f_view_rejected(x):
    t = x.t()
    return t.view(-1)  # <- error


def f_index_tensor(x, i):
    return x[i]  # <- error


def f_index_select(x, i):
    return x.index_select(0, i)  # <- error


def f_mask(x):
    return x[x > 0]  # <- error


def f_to_cuda(x):
    y = x.t()
    return y.to("cuda")  # <- error


def f_cuda(x):
    return x.cuda()  # <- error


def f_to_device_kw(x):
    return x.to(device="cuda:0", dtype=torch.float16)  # <- error


def f_complex(x):
    return x.to(torch.complex64)  # <- error


def f_sum_complex(x):
    return x.sum(dtype=torch.complex64)  # <- error


def f_cat(x):
    return torch.cat([x, x])  # <- error


def f_max_dim(x):
    return x.max(dim=0)  # <- error


def f_view_dtype(x):
    return x.view(torch.int32)  # <- error


def f_sum_out(x, y):
    return torch.sum(x, 0, out=y)  # <- error


def f_select_range(x):
    return x.select(0, 5)  # <- error


def f_permute_repeat(x):
    return x.permute(0, 0)  # <- error


def f_expand_mismatch(x):
    return x.expand(5, 5)  # <- error


def f_channels_last_rank(x):
    return x.clone(memory_format=torch.channels_last)  # <- error


def f_to_channels_last_rank(x):
    return x.to(torch.float16, memory_format=torch.channels_last)  # <- error


def f_sum_dim_range(x):
    return x.sum(dim=5)  # <- error


def f_as_strided_bounds(x):
    return x.as_strided((10,), (1,), 100)  # <- error


def f_copy_into_expanded(x, y):
    return y[:1].expand(3, 4).copy_(x)  # <- error


def f_copy_broadcast(x, y):
    return y.copy_(x[:2])  # <- error


def f_amax_empty(x):
    return x[:0].amax(0)  # <- error


def f_mean_int(x):
    return x.mean()  # <- error


def f_unfold_size(x):
    return x.unfold(0, 10, 1)  # <- error


def f_flip_repeat(x):
    return torch.flip(x, [0, 0])  # <- error


def f_reshape_size(x):
    y = x.t()
    z = y.reshape(5, -1)  # <- error
    return z


def f_roll(x):
    return x.roll(1)  # <- error


def f_cumsum(x):
    return x.cumsum(0)  # <- error


def f_sort(x):
    return x.sort()  # <- error


def f_where(x, y):
    return torch.where(x > 0, x, y)  # <- error


def f_to_sparse(x):
    return x.to_sparse()  # <- error


def f_returns_int(x):
    x.t()
    return 3  # <- error


def f_returns_captured(x):
    return CONST  # <- error


FLOAT = lambda: [x34()]
TWO = lambda: [x34(), x34()]
LONG = lambda: [torch.arange(12).reshape(3, 4)]
INDEX = lambda: [x34(), i64(0, 2)]

# (function, arguments, aten op or None, text the message must contain)
CASES = [
    (f_add, FLOAT, "aten.add.Tensor", NO_EQUIVALENT),
    (f_mul, TWO, "aten.mul.Tensor", NO_EQUIVALENT),
    (f_relu, FLOAT, "aten.relu.default", NO_EQUIVALENT),
    (f_neg, FLOAT, "aten.neg.default", NO_EQUIVALENT),
    (f_add_, FLOAT, "aten.add_.Tensor", NO_EQUIVALENT),
    (f_fill_, FLOAT, "aten.fill_.Scalar", NO_EQUIVALENT),
    (f_t_, FLOAT, "aten.t_.default", NO_EQUIVALENT),
    (f_unsqueeze_, FLOAT, "aten.unsqueeze_.default", NO_EQUIVALENT),
    (f_resize_, FLOAT, "aten.resize_.default", NO_EQUIVALENT),
    (f_zeros, FLOAT, "aten.zeros.default", NO_EQUIVALENT),
    (f_empty_like, FLOAT, "aten.empty_like.default", NO_EQUIVALENT),
    (f_rand_like, FLOAT, "aten.rand_like.default", NO_EQUIVALENT),
    (f_item, FLOAT, "aten._local_scalar_dense.default", NO_EQUIVALENT),
    (f_item_many, FLOAT, None, "ValueError: only one element tensors"),
    (f_captured_view, FLOAT, "aten.view.default", NOT_DERIVED),
    (f_captured_copy, FLOAT, "aten.copy_.default", NOT_DERIVED),
    (f_view_rejected, FLOAT, "aten.view.default",
     "view size is not compatible with input tensor's size and stride"),
    (f_index_tensor, INDEX, "aten.index.Tensor", NO_EQUIVALENT),
    (f_index_select, INDEX, "aten.index_select.default", NO_EQUIVALENT),
    (f_mask, FLOAT, "aten.gt.Scalar", NO_EQUIVALENT),
    (f_to_cuda, FLOAT, "aten._to_copy.default", "to device cuda has no layout equivalent"),
    (f_cuda, FLOAT, "aten._to_copy.default", "to device cuda has no layout equivalent"),
    (f_to_device_kw, FLOAT, "aten._to_copy.default", "to device cuda:0 has no layout equivalent"),
    (f_complex, FLOAT, "aten._to_copy.default", "torch.complex64 has no layout element type"),
    (f_sum_complex, FLOAT, "aten.sum.default", "torch.complex64 has no layout element type"),
    (f_cat, FLOAT, "aten.cat.default", NO_EQUIVALENT),
    (f_max_dim, FLOAT, "aten.max.dim", NO_EQUIVALENT),
    (f_view_dtype, FLOAT, "aten.view.dtype", NO_EQUIVALENT),
    (f_sum_out, lambda: [x34(), torch.empty(4)], "aten.sum.IntList_out", NO_EQUIVALENT),
    (f_select_range, FLOAT, "aten.select.int", "index 5 out of range"),
    (f_permute_repeat, FLOAT, "aten.permute.default", "duplicate dims"),
    (f_expand_mismatch, FLOAT, "aten.expand.default",
     "must match the existing size (4) at non-singleton dimension 1"),
    (f_channels_last_rank, FLOAT, "aten.clone.default", "required rank 4 tensor"),
    (f_to_channels_last_rank, FLOAT, "aten._to_copy.default", "required rank 4 tensor"),
    (f_sum_dim_range, FLOAT, "aten.sum.dim_IntList", "Dimension out of range"),
    (f_as_strided_bounds, FLOAT, "aten.as_strided.default", "out of bounds for storage"),
    (f_copy_into_expanded, TWO, "aten.copy_.default",
     "more than one element of the written-to tensor refers to a single memory location"),
    (f_copy_broadcast, TWO, "aten.copy_.default",
     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0"),
    (f_amax_empty, FLOAT, "aten.amax.default", "Expected reduction dim 0 to have non-zero size"),
    (f_mean_int, LONG, "aten.mean.default", "could not infer output dtype"),
    (f_unfold_size, FLOAT, "aten.unfold.default", "maximum size for tensor at dimension 0 is 3"),
    (f_flip_repeat, FLOAT, "aten.flip.default", "duplicate value in the list of dims"),
    (f_reshape_size, FLOAT, None, "RuntimeError: shape '[5, -1]' is invalid for input of size 12"),
    (f_roll, FLOAT, "aten.roll.default", NO_EQUIVALENT),
    (f_cumsum, FLOAT, "aten.cumsum.default", NO_EQUIVALENT),
    (f_sort, FLOAT, "aten.sort.default", NO_EQUIVALENT),
    (f_where, TWO, "aten.gt.Scalar", NO_EQUIVALENT),
    (f_to_sparse, FLOAT, "aten.to_sparse.default", NO_EQUIVALENT),
    (f_returns_int, FLOAT, None, "the function returned int; layoutc functions return tensors"),
    (f_returns_captured, FLOAT, None, "a returned tensor is not derived from the function's arguments"),
]


@pytest.mark.parametrize("fn, make_args, op, text", CASES,
                         ids=[c[0].__name__[2:] for c in CASES])
def test_trace_error(fn, make_args, op, text):
    compiled = layoutc.compile(fn)
    with pytest.raises(layoutc.TraceError) as info:
        compiled(*make_args())
    e = info.value
    message = str(e)
    assert text in message
    assert e.op == op
    if op is not None:
        assert op in message
    assert e.filename == __file__
    expected = marked_line(fn)
    assert e.lineno == expected, message
    assert message.startswith(f"{__file__}:{expected}: ")
    # layoutc.trace raises the same error.
    with pytest.raises(layoutc.TraceError) as again:
        layoutc.trace(fn, *make_args())
    assert str(again.value) == message


def test_eager_rejects_what_the_trace_rejects():
    """The PyTorch errors above are PyTorch's own on the CPU (where its meta
    kernels do not check, e.g. copy_, the trace checks as the CPU does).
    The meta kernel of flip words its error otherwise: "duplicate value in
    the list of dims" where the CPU says "dim 0 appears multiple times in
    the list of dims"."""
    for fn, make_args, op, text in CASES:
        if text in (NO_EQUIVALENT, NOT_DERIVED) or "returned" in text or "cuda" in text \
                or "complex64" in text or fn is f_item_many:
            continue
        with pytest.raises(Exception) as info:
            fn(*make_args())
        if fn is not f_flip_repeat:
            assert text.split(": ", 1)[-1] in str(info.value), fn.__name__


def test_error_line_in_lambda():
    fn = lambda x: x.t().sum(1) + x.sum(0)  # noqa: E731
    with pytest.raises(layoutc.TraceError) as info:
        layoutc.compile(fn)(x34())
    assert info.value.lineno == fn.__code__.co_firstlineno
    assert info.value.op == "aten.add.Tensor"


def test_error_is_not_cached():
    """A failed trace leaves nothing behind: the next call fails again."""
    compiled = layoutc.compile(f_add)
    for _ in range(2):
        with pytest.raises(layoutc.TraceError):
            compiled(x34())
    assert compiled.cache_size() == 0


def flip_into(x, y):
    y.copy_(x.flip(0))


def test_written_argument_sharing_memory_with_a_read_one_is_refused():
    # The kernel reads x through a flip while it writes y: with x and y one
    # tensor, even the identical view would be read where it is written.
    t = torch.arange(12.0).reshape(3, 4)
    compiled = layoutc.compile(flip_into)
    with pytest.raises(layoutc.LayoutcError) as info:
        compiled(t, t)
    assert ("argument 1 (y): overlaps argument 0 (x)" in str(info.value) and
            "must not share memory with any other argument" in str(info.value))
    assert torch.equal(t, torch.arange(12.0).reshape(3, 4))
    other = torch.zeros(3, 4)
    compiled(t, other)
    assert torch.equal(other, t.flip(0))


# -- compiled programs: arguments of other layouts ---------------------------

PROGRAM = """
func.func @tr(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<4x3xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32>
  %c = layout.contiguous %t : !layout.tensor<4x3xf32, strided<[1, 4]>>
  return %c : !layout.tensor<4x3xf32>
}
"""


@pytest.mark.parametrize("arg, text", [
    (torch.zeros(4, 3), "tr: argument 0 (x): expected size 3 in dimension 0, got 4 "
                        "(expected sizes [3, 4], got [4, 3]"),
    (torch.zeros(4, 3).t(), "expected stride 4 in dimension 0, got 1 "
                            "(expected strides [4, 1], got [1, 3])"),
    (torch.zeros(3, 4, dtype=torch.float64), "expected dtype f32, got f64"),
    (torch.zeros(12), "expected rank 2, got 1"),
    (np.zeros((4, 3), np.float32), "expected sizes [3, 4], got [4, 3]"),
], ids=["sizes", "strides", "dtype", "rank", "numpy"])
def test_program_argument_mismatch(arg, text):
    program = layoutc.compile(PROGRAM)
    assert torch.equal(program(x34()), x34().t())
    with pytest.raises(layoutc.LayoutcError) as info:
        program(arg)
    assert text in str(info.value)
    assert not isinstance(info.value, layoutc.TraceError)


def test_program_argument_count():
    program = layoutc.compile(PROGRAM)
    for args in ([x34(), x34()], []):
        with pytest.raises(TypeError, match="tr takes 1 argument, got"):
            program(*args)


def test_program_diagnostic():
    with pytest.raises(layoutc.LayoutcError, match="view size is not compatible"):
        layoutc.compile(PROGRAM.replace("layout.contiguous %t", "layout.view %t [12]")
                        .replace("-> (!layout.tensor<4x3xf32>)", "-> (!layout.tensor<12xf32>)")
                        .replace("return %c : !layout.tensor<4x3xf32>",
                                 "return %c : !layout.tensor<12xf32>"))


# -- layoutc's documented limits, at the user's line -------------------------

def f_returns_part_of_copy(x):
    c = x.t().contiguous()
    return c[0]  # <- error


def f_returns_copy_and_view(x):
    c = x.t().contiguous()
    return (c,  # <- error
            c.t())


def f_partial_overlap(x):
    return x[1:].copy_(x[:-1])  # <- error


@pytest.mark.parametrize("fn, text", [
    (f_returns_part_of_copy, "views part of a new tensor of 12 elements"),
    (f_returns_copy_and_view, "result #1 views the same new tensor as result #0"),
    (f_partial_overlap, "some elements of the input tensor and the written-to tensor "
                        "refer to a single memory location"),
], ids=["part-of-copy", "copy-and-its-view", "partial-overlap"])
def test_code_generation_limits(fn, text):
    """docs/language.md, Current limits: a returned view of a new tensor
    must cover it, each new tensor is one output; layoutc decides the
    overlap of copy_ itself (PyTorch's CPU copy_ rejects this one too)."""
    with pytest.raises(layoutc.LayoutcError) as info:
        layoutc.compile(fn)(x34())
    message = str(info.value)
    assert text in message
    assert f"{__file__}:{marked_line(fn)}:" in message


# -- arguments the dispatcher refuses ----------------------------------------

def test_unsupported_argument_dtype():
    with pytest.raises(layoutc.LayoutcError, match="layoutc supports the dtypes"):
        layoutc.compile(lambda x: x.clone())(torch.zeros(3, dtype=torch.complex64))


def test_not_a_tensor():
    with pytest.raises(TypeError, match="not int"):
        layoutc.compile(lambda x: x.clone())(3)


def test_keyword_arguments():
    with pytest.raises(TypeError, match="positional arguments only"):
        layoutc.compile(lambda x: x.clone())(x=x34())


def test_wrong_argument_count():
    with pytest.raises(TypeError, match="takes 1 positional argument but 2 were given"):
        layoutc.compile(lambda x: x.clone())(x34(), x34())


def test_read_only_array_written():
    f = layoutc.compile(lambda x, y: y.copy_(x))
    y = np.zeros(4, np.float32)
    f(np.ones(4, np.float32), y)
    assert (y == 1).all()
    y = np.zeros(4, np.float32)
    y.flags.writeable = False
    with pytest.raises(layoutc.LayoutcError, match="argument 1 is a read-only array"):
        f(np.ones(4, np.float32), y)
    assert (y == 0).all()
    x = np.full(4, 2, np.float32)
    x.flags.writeable = False       # read-only sources are fine
    out = np.zeros(4, np.float32)
    f(x, out)
    assert (out == 2).all()


def test_array_strides_not_whole_elements():
    base = np.arange(8, dtype=np.int16)
    odd = np.lib.stride_tricks.as_strided(base, (3,), (3,))
    with pytest.raises(layoutc.LayoutcError, match="not a multiple of the element size"):
        layoutc.compile(lambda x: x.clone())(odd)
    with pytest.raises(layoutc.TraceError, match="not a multiple of the element size"):
        layoutc.trace(lambda x: x.clone(), odd)


def test_negative_strides_array():
    with pytest.raises(layoutc.TraceError, match="negative strides"):
        layoutc.compile(lambda x: x.clone())(np.arange(4.0)[::-1])


def test_own_exception_propagates():
    """An exception the function raises itself is not layoutc's: it comes
    out as it is (PyTorch's, raised out of its calls, are TraceErrors)."""
    def fn(x):
        if x.dim() == 2:
            raise ValueError("not for matrices")
        return x.clone()
    with pytest.raises(ValueError, match="not for matrices"):
        layoutc.compile(fn)(x34())
