"""layoutc.trace: a PyTorch function to a layout program.

The function runs once on meta tensors (nothing is computed) under a
TorchDispatchMode, which sees every aten op after PyTorch's own
decompositions (`reshape` arrives as `_reshape_alias` or as `clone` +
`_unsafe_view`, `narrow` as `slice`, `movedim` as `permute`). Each op maps to
layout ops whose result types are PyTorch's own (the meta tensors' sizes,
strides and offsets), written out in full, so that layoutc checks its
inference against PyTorch's at every op (layoutc reports a disagreement at
the value's next use, where the type is written again). Each op's location
is the user's source line (`file.py:line:col`); the program's `return` is at
the user's return statement. An op without a layout equivalent, an operand
not derived from the arguments, a result of a dtype layoutc lacks, and an
error PyTorch raises all stop the trace with a TraceError at the user's line.

The meta tensors stand for the CPU tensors of the call, so the trace follows
the CPU where PyTorch's meta kernels differ from it: flip's output strides
(_flip), the checks copy_ makes (_check_copy_), and devices (_Devices: `cpu`
is no device change). The function's own exceptions are not the trace's and
propagate unchanged (_raised_by_pytorch).
"""

import dis
import os
import re
import sys

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

from ._errors import TraceError
from ._layout import NUMPY_DTYPES, row_major, storage_size

DTYPES = {
    torch.bool: "i1", torch.int8: "i8", torch.int16: "i16",
    torch.int32: "i32", torch.int64: "i64", torch.uint8: "ui8",
    torch.float16: "f16", torch.bfloat16: "bf16", torch.float32: "f32",
    torch.float64: "f64",
}
TORCH_DTYPES = {v: k for k, v in DTYPES.items()}

_INT_MAX = 2**63 - 1
_SKIP_DIRS = tuple(os.path.dirname(m.__file__) + os.sep
                   for m in (torch, sys.modules[__name__.rsplit(".", 1)[0]]))
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*$")


def tensor_type(sizes, strides, offset, dtype):
    """`!layout.tensor<...>`; the printer's short form when row-major at 0."""
    shape = "".join(f"{s}x" for s in sizes) + dtype
    if list(strides) == row_major(sizes) and offset == 0:
        return f"!layout.tensor<{shape}>"
    st = ", ".join(str(s) for s in strides)
    return f"!layout.tensor<{shape}, strided<[{st}], offset: {offset}>>"


def type_of(t):
    if t.dtype not in DTYPES:
        raise TraceError(f"dtype {t.dtype} has no layout element type")
    return tensor_type(list(t.shape), list(t.stride()), t.storage_offset(),
                       DTYPES[t.dtype])


def meta_like(x, index):
    """A meta tensor with the layout of argument `x` (a torch tensor, a NumPy
    array or another __dlpack__ object): sizes, strides and, for torch,
    the storage offset, over a storage that ends where the view does. A view
    without elements has no storage (layoutc's argument model, and PyTorch's
    computeStorageNbytes: its data pointer is null), whatever its offset,
    so that as_strided cannot read elements before it."""
    if isinstance(x, torch.Tensor):
        if x.dtype not in DTYPES:
            raise TraceError(f"argument {index}: dtype {x.dtype} has no layout "
                             "element type")
        sizes, strides = list(x.shape), list(x.stride())
        offset, dtype = x.storage_offset(), x.dtype
    elif hasattr(x, "__array_interface__"):
        iface = x.__array_interface__
        name = str(getattr(x, "dtype", ""))
        if name not in NUMPY_DTYPES:
            raise TraceError(f"argument {index}: dtype {name or '?'} has no "
                             "layout element type")
        itemsize = x.dtype.itemsize
        sizes = list(iface["shape"])
        # An ndarray's own strides: __array_interface__ leaves them out
        # (None) for C-contiguous arrays, whose strides need not be
        # row-major (NumPy gives empty arrays strides 0, as
        # torch.from_numpy then does).
        byte_strides = (x.strides if isinstance(getattr(x, "strides", None),
                                                tuple)
                        else iface.get("strides"))
        if any(s % itemsize for s in byte_strides or ()):
            raise TraceError(f"argument {index}: byte strides "
                             f"{list(byte_strides)} are not a multiple of "
                             f"the element size ({itemsize} bytes)")
        strides = ([s // itemsize for s in byte_strides]
                   if byte_strides else row_major(sizes))
        offset, dtype = 0, TORCH_DTYPES[NUMPY_DTYPES[name]]
    else:
        raise TraceError(f"argument {index}: layoutc.trace takes torch tensors "
                         f"and NumPy arrays, not {type(x).__name__}")
    if any(s < 0 for s in strides):
        raise TraceError(f"argument {index}: negative strides {strides}: "
                         "PyTorch tensors cannot have them; pass a copy")
    reach = storage_size(sizes, strides)
    storage = torch.empty(offset + reach if reach else 0, dtype=dtype,
                          device="meta")
    return storage.as_strided(sizes, strides, offset)


def user_location():
    """(file, line, col) of the innermost frame outside torch and layoutc."""
    frame = sys._getframe(1)
    while frame and frame.f_code.co_filename.startswith(_SKIP_DIRS):
        frame = frame.f_back
    if frame is None:
        return ("<unknown>", 0, 0)
    line, col = frame.f_lineno, 0
    try:
        positions = list(frame.f_code.co_positions())
        pos = positions[frame.f_lasti // 2]
        if pos[0] is not None:
            line = pos[0]
        col = (pos[2] or 0) + 1 if pos[2] is not None else 0
    except (AttributeError, IndexError):
        pass
    return (frame.f_code.co_filename, line, col)


def mlir_loc(where):
    path = where[0].replace("\\", "\\\\").replace('"', '\\"')
    return f'loc("{path}":{where[1]}:{where[2]})'


class Value:
    __slots__ = ("name", "tensor", "type")

    def __init__(self, name, tensor):
        self.name, self.tensor, self.type = name, tensor, type_of(tensor)


class Traced:
    """The result of layoutc.trace: `mlir` (the program's text), `name` (its
    one function), `arg_names`, `returns_tuple` (whether the function
    returned a tuple or list), `num_results` (how many tensors it returned),
    `result_indices` (for each of them, the index of the program's result
    it is: a tensor returned twice is returned once by the program, since
    code generation gives every new tensor one output), and
    `uses_as_strided` (whose offsets are absolute in an argument's
    storage)."""

    def __init__(self, mlir, name, arg_names, returns_tuple, num_results,
                 uses_as_strided, result_indices=None):
        self.mlir, self.name, self.arg_names = mlir, name, arg_names
        self.returns_tuple, self.num_results = returns_tuple, num_results
        self.uses_as_strided = uses_as_strided
        self.result_indices = (tuple(range(num_results))
                               if result_indices is None
                               else tuple(result_indices))

    def __str__(self):
        return self.mlir

    def __repr__(self):
        return f"<layoutc.Traced {self.name}>\n{self.mlir}"


class _Tracer(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.values = {}  # id(tensor) -> Value; the Values keep them alive
        self.lines = []
        self.counter = 0
        self.uses_as_strided = False

    # -- values ------------------------------------------------------------
    def bind(self, tensor, name=None):
        if name is None:
            name = f"%v{self.counter}"
            self.counter += 1
        value = Value(name, tensor)
        self.values[id(tensor)] = value
        return value

    def alias(self, tensor, value):
        """`tensor` (a new tensor object with the layout of `value`, e.g.
        from aten.alias) is `value`; the Value holds `tensor`, which keeps
        its id from being reused while the trace runs."""
        self.values[id(tensor)] = Value(value.name, tensor)

    def value(self, tensor, op, where):
        v = self.values.get(id(tensor))
        if v is None or v.tensor is not tensor:
            raise TraceError(
                f"{op}: an operand is not derived from the function's "
                "arguments (tensors created inside the function or captured "
                "from outside it have no layout equivalent)", op, *where[:2])
        return v

    # -- emission ----------------------------------------------------------
    def emit(self, text, operand, out, where):
        result = self.bind(out)
        self.lines.append(f"  {result.name} = {text} : {operand.type} -> "
                          f"{result.type} {mlir_loc(where)}")
        return result

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        op = str(func)
        where = user_location()
        handler = _HANDLERS.get(op)
        if handler is None:
            raise TraceError(f"{op} has no layout equivalent (layoutc traces "
                             "view ops, clone/contiguous/to/copy_ and the "
                             "reductions sum, mean, prod, amax, amin, argmax "
                             "and argmin)", op, *where[:2])
        operands = [self.value(a, op, where) for a in _tensors(args, kwargs)]
        check = _CHECKS.get(op)
        if check is not None:
            kwargs = check(func, args, kwargs, op, where)
        bound = _bind(func, args, kwargs)
        try:
            out = func(*args, **kwargs)
        except Exception as e:
            raise TraceError(f"{op}: {e}", op, *where[:2]) from None
        for o in out if isinstance(out, (tuple, list)) else [out]:
            if isinstance(o, torch.Tensor) and o.dtype not in DTYPES:
                raise TraceError(f"{op}: its result's dtype {o.dtype} has no "
                                 "layout element type", op, *where[:2])
        # A handler returns a replacement for `out` where PyTorch's meta
        # kernel gives another layout than its CPU kernel (flip).
        replaced = handler(self, bound, operands, out, op, where)
        return out if replaced is None else replaced


class _Devices(TorchFunctionMode):
    """Device changes, seen where the user wrote them. The trace runs on
    meta tensors standing for CPU tensors, so `x.to('cpu')`, `x.to(device=
    'cpu', ...)` and `x.cpu()` are what they are in eager on a CPU tensor:
    no device change (`x.cpu()` is `x`; `to` then converts only what else
    it was asked to, and returns `x` when nothing). Any other device
    (`x.cuda()`, `x.to('cuda')`) is a TraceError naming aten._to_copy, the
    op that would move the data, at the user's line."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if func is torch.Tensor.cpu:
            return args[0]
        if func is torch.Tensor.cuda:
            self._refuse("cuda")
        if (func is torch.Tensor.type and len(args) > 1 and
                "cuda" in str(args[1])):
            self._refuse("cuda")
        if func is torch.Tensor.to:
            rest = list(args[1:])
            device = kwargs.pop("device", None)
            if rest and isinstance(rest[0], (str, torch.device, int)):
                device = rest.pop(0)
            if device is not None:
                if torch.device(device).type not in ("cpu", "meta"):
                    self._refuse(device)
                args = (args[0], *rest)
        return func(*args, **kwargs)

    @staticmethod
    def _refuse(device):
        op = "aten._to_copy.default"
        where = user_location()
        raise TraceError(f"{op}: moving a tensor to device {device} has no "
                         "layout equivalent (layoutc.compile runs CPU "
                         "kernels)", op, *where[:2])


def _check_to_copy(func, args, kwargs, op, where):
    """Before aten._to_copy: a device other than the CPU (e.g. from
    `x.type(torch.cuda.FloatTensor)`, which _Devices does not see) or a
    layout other than strided is a TraceError; the CPU is the meta device
    the trace runs on."""
    device = kwargs.get("device")
    if device is not None and torch.device(device).type not in ("cpu",
                                                                "meta"):
        raise TraceError(f"{op}: moving a tensor to device {device} has no "
                         "layout equivalent (layoutc.compile runs CPU "
                         "kernels)", op, *where[:2])
    if kwargs.get("layout") not in (None, torch.strided):
        raise TraceError(f"{op}: layout {kwargs['layout']} has no layout "
                         "equivalent (layoutc converts strided tensors)",
                         op, *where[:2])
    if device is not None:
        kwargs = dict(kwargs, device=torch.device("meta"))
    return kwargs


def _check_copy_(func, args, kwargs, op, where):
    """Before aten.copy_: PyTorch's CPU checks that its meta kernel skips,
    with the CPU's messages: `src` must broadcast to `self`'s shape, and
    `self` must not have stride 0 on a dim of size > 1 (TensorIterator's
    "more than one element of the written-to tensor refers to a single
    memory location"). Overlaps between `src` and `self` that PyTorch can
    only sometimes see are left to layoutc, which decides them exactly."""
    dst, src = args[0], args[1]
    if torch._debug_has_internal_overlap(dst) == 1:
        raise TraceError(f"{op}: unsupported operation: more than one element "
                         "of the written-to tensor refers to a single memory "
                         "location. Please clone() the tensor before "
                         "performing the operation.", op, *where[:2])
    try:
        torch.empty(dst.shape, device="meta").add_(
            torch.empty(src.shape, device="meta"))
    except RuntimeError as e:
        raise TraceError(f"{op}: {e}", op, *where[:2]) from None
    return kwargs


_CHECKS = {"aten._to_copy.default": _check_to_copy,
           "aten.copy_.default": _check_copy_}


def _bind(func, args, kwargs):
    bound = {}
    for i, a in enumerate(func._schema.arguments):
        if i < len(args):
            bound[a.name] = args[i]
        elif a.name in kwargs:
            bound[a.name] = kwargs[a.name]
        else:
            bound[a.name] = a.default_value if a.has_default_value() else None
    return bound


def _tensors(args, kwargs):
    for a in list(args) + list(kwargs.values()):
        if isinstance(a, torch.Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from (t for t in a if isinstance(t, torch.Tensor))


def _ints(xs):
    return ", ".join(str(int(x)) for x in xs)


# -- handlers: (tracer, bound schema args, operand Values, out, op, where) --

def _view(t, b, ops, out, op, where):
    t.emit(f"layout.view {ops[0].name} [{_ints(out.shape)}]", ops[0], out,
           where)


def _identity(t, b, ops, out, op, where):
    t.alias(out, ops[0])


def _permute(t, b, ops, out, op, where):
    t.emit(f"layout.permute {ops[0].name} [{_ints(b['dims'])}]", ops[0], out,
           where)


def _transpose(t, b, ops, out, op, where):
    t.emit(f"layout.transpose {ops[0].name} {int(b['dim0'])}, "
           f"{int(b['dim1'])}", ops[0], out, where)


def _t(t, b, ops, out, op, where):
    if ops[0].tensor.dim() < 2:
        t.emit(f"layout.view {ops[0].name} [{_ints(out.shape)}]", ops[0],
               out, where)
    else:
        t.emit(f"layout.transpose {ops[0].name} 0, 1", ops[0], out, where)


def _slice(t, b, ops, out, op, where):
    start = "" if b["start"] is None else str(int(b["start"]))
    end = "" if b["end"] is None or b["end"] >= _INT_MAX else str(int(b["end"]))
    step = int(b["step"] if b["step"] is not None else 1)
    parts = [start, end] + ([str(step)] if step != 1 else [])
    bounds = " : ".join(parts).replace("  ", " ").strip()
    t.emit(f"layout.slice {ops[0].name} dim {int(b['dim'])} [{bounds}]",
           ops[0], out, where)


def _select(t, b, ops, out, op, where):
    t.emit(f"layout.select {ops[0].name} dim {int(b['dim'])} index "
           f"{int(b['index'])}", ops[0], out, where)


def _expand(t, b, ops, out, op, where):
    t.emit(f"layout.expand {ops[0].name} [{_ints(b['size'])}]", ops[0], out,
           where)


def _unsqueeze(t, b, ops, out, op, where):
    t.emit(f"layout.unsqueeze {ops[0].name} dim {int(b['dim'])}", ops[0], out,
           where)


def _squeeze(t, b, ops, out, op, where):
    dims = b.get("dim")
    dims = [] if dims is None else ([dims] if isinstance(dims, int) else dims)
    t.emit(f"layout.squeeze {ops[0].name} [{_ints(dims)}]", ops[0], out, where)


def _diagonal(t, b, ops, out, op, where):
    t.emit(f"layout.diagonal {ops[0].name} offset {int(b['offset'])} dims "
           f"{int(b['dim1'])}, {int(b['dim2'])}", ops[0], out, where)


def _unfold(t, b, ops, out, op, where):
    t.emit(f"layout.unfold {ops[0].name} dim {int(b['dimension'])} size "
           f"{int(b['size'])} step {int(b['step'])}", ops[0], out, where)


def _as_strided(t, b, ops, out, op, where):
    t.uses_as_strided = True
    offset = b["storage_offset"]
    if offset is None:
        offset = ops[0].tensor.storage_offset()
    t.emit(f"layout.as_strided {ops[0].name} [{_ints(b['size'])}] strides "
           f"[{_ints(b['stride'])}] offset {int(offset)}", ops[0], out, where)


def _split(t, b, ops, out, op, where):
    dim = int(b["dim"])
    sizes = [o.shape[dim] for o in out]
    results = [t.bind(o) for o in out]
    names = ", ".join(r.name for r in results)
    types = ", ".join(r.type for r in results)
    t.lines.append(f"  {names} = layout.split {ops[0].name} dim {dim} "
                   f"[{_ints(sizes)}] : {ops[0].type} -> {types} "
                   f"{mlir_loc(where)}")


def _unbind(t, b, ops, out, op, where):
    for i, o in enumerate(out):
        t.emit(f"layout.select {ops[0].name} dim {int(b['dim'])} index {i}",
               ops[0], o, where)


_FORMATS = {None: "", torch.preserve_format: "",
            torch.contiguous_format: " contiguous",
            torch.channels_last: " channels_last",
            torch.channels_last_3d: " channels_last_3d"}


def _format_of(b, op, where):
    fmt = b.get("memory_format")
    if fmt not in _FORMATS:
        raise TraceError(f"{op}: memory format {fmt} has no layout equivalent",
                         op, *where[:2])
    return _FORMATS[fmt]


def _clone(t, b, ops, out, op, where):
    t.emit(f"layout.clone {ops[0].name}{_format_of(b, op, where)}", ops[0],
           out, where)


def _to_copy(t, b, ops, out, op, where):
    fmt = _format_of(b, op, where)
    if out.dtype == ops[0].tensor.dtype:
        t.emit(f"layout.clone {ops[0].name}{fmt}", ops[0], out, where)
        return
    if not fmt:
        t.emit(f"layout.to {ops[0].name} {DTYPES[out.dtype]}", ops[0], out,
               where)
        return
    # _to_copy always allocates with the format's exact strides (size-1
    # dims included), as clone does; layout.contiguous would return the
    # converted tensor where it is already in that format ignoring size-1
    # dims. layout.to is not fused into a clone: this moves the data twice.
    mid = torch.empty_like(ops[0].tensor, dtype=out.dtype)
    converted = t.emit(f"layout.to {ops[0].name} {DTYPES[out.dtype]}", ops[0],
                       mid, where)
    t.emit(f"layout.clone {converted.name}{fmt}", converted, out, where)


def _copy_(t, b, ops, out, op, where):
    dst, src = ops[0], ops[1]
    t.lines.append(f"  layout.copy {src.name}, {dst.name} : {src.type}, "
                   f"{dst.type} {mlir_loc(where)}")


def _flip(t, b, ops, out, op, where):
    """torch.flip copies into `empty_like(self)`: the operand's strides when
    it is non-overlapping and dense, else dense strides in its dim order.
    PyTorch 1.13's meta kernel of flip keeps the operand's strides even when
    they are not dense ((5, 20, 1) where the CPU gives (3, 12, 1)), so the
    trace takes the CPU's layout from `torch.empty_like` of the meta operand
    (which is right) and returns a meta tensor with it in place of flip's,
    so that later ops see what eager sees.

    layout.flip is a view with negative strides. Its values go into the
    output by `clone contiguous` or `clone channels_last` when the output is
    row-major or channels-last; otherwise by `layout.copy` into a
    `layout.clone` of the operand (whose preserved strides are empty_like's),
    which moves the data twice but is exact for every layout, size-1 dims'
    strides included."""
    x = ops[0]
    xt = x.tensor
    fixed = torch.empty_like(xt)
    strides = list(fixed.stride())
    dims = sorted({int(d) % max(xt.dim(), 1) for d in b["dims"]})
    src = x
    if xt.numel() > 0 and xt.dim() > 0 and dims:
        sizes = list(xt.shape)
        offset = xt.storage_offset() + sum((sizes[d] - 1) * xt.stride(d)
                                           for d in dims)
        flipped = [-s if d in dims else s for d, s in enumerate(xt.stride())]
        name = f"%v{t.counter}"
        t.counter += 1
        src = Value.__new__(Value)
        src.name, src.tensor = name, None
        src.type = tensor_type(sizes, flipped, offset, DTYPES[xt.dtype])
        t.lines.append(f"  {name} = layout.flip {x.name} [{_ints(dims)}] : "
                       f"{x.type} -> {src.type} {mlir_loc(where)}")
    channels_last = xt.dim() == 4 and strides == list(torch.empty(
        xt.shape, device="meta", memory_format=torch.channels_last).stride())
    if strides == row_major(list(xt.shape)):
        t.emit(f"layout.clone {src.name} contiguous", src, fixed, where)
    elif channels_last:
        t.emit(f"layout.clone {src.name} channels_last", src, fixed, where)
    else:
        dst = t.emit(f"layout.clone {x.name}", x, fixed, where)
        if src is not x:
            t.lines.append(f"  layout.copy {src.name}, {dst.name} : "
                           f"{src.type}, {dst.type} {mlir_loc(where)}")
    return fixed


_REDUCE_OPS = {"sum": "sum", "mean": "mean", "prod": "prod", "amax": "amax",
               "amin": "amin", "argmax": "argmax", "argmin": "argmin",
               "max": "amax", "min": "amin"}


def _reduce_dtype(kind, dtype):
    if kind in ("argmax", "argmin"):
        return torch.int64
    if kind in ("sum", "prod") and not dtype.is_floating_point:
        return torch.int64
    return dtype


def _reduce(t, b, ops, out, op, where):
    kind = _REDUCE_OPS[op.split(".")[1]]
    x = ops[0]
    dtype = b.get("dtype")
    if dtype is not None and dtype != x.tensor.dtype:
        x = t.emit(f"layout.to {x.name} {DTYPES[dtype]}", x,
                   torch.empty_like(x.tensor, dtype=dtype), where)
    dims = b.get("dim")
    dims = [] if dims is None else ([dims] if isinstance(dims, int) else dims)
    keep = " keepdim" if b.get("keepdim") else ""
    text = f"layout.reduce {kind} {x.name} dims [{_ints(dims)}]{keep}"
    natural = _reduce_dtype(kind, x.tensor.dtype)
    if natural == out.dtype:
        t.emit(text, x, out, where)
        return
    # e.g. sum(dtype=torch.int32): an i64 sum wraps to the same i32 value.
    r = t.emit(text, x, torch.empty_like(out, dtype=natural), where)
    t.emit(f"layout.to {r.name} {DTYPES[out.dtype]}", r, out, where)


_HANDLERS = {
    "aten.view.default": _view,
    "aten._unsafe_view.default": _view,
    "aten._reshape_alias.default": _view,
    "aten.alias.default": _identity,
    "aten.detach.default": _identity,
    "aten.permute.default": _permute,
    "aten.transpose.int": _transpose,
    "aten.t.default": _t,
    "aten.slice.Tensor": _slice,
    "aten.select.int": _select,
    "aten.expand.default": _expand,
    "aten.unsqueeze.default": _unsqueeze,
    "aten.squeeze.default": _squeeze,
    "aten.squeeze.dim": _squeeze,
    "aten.squeeze.dims": _squeeze,
    "aten.diagonal.default": _diagonal,
    "aten.unfold.default": _unfold,
    "aten.as_strided.default": _as_strided,
    "aten.split.Tensor": _split,
    "aten.split_with_sizes.default": _split,
    "aten.unbind.int": _unbind,
    "aten.clone.default": _clone,
    "aten._to_copy.default": _to_copy,
    "aten.copy_.default": _copy_,
    "aten.sum.default": _reduce,
    "aten.sum.dim_IntList": _reduce,
    "aten.mean.default": _reduce,
    "aten.mean.dim": _reduce,
    "aten.prod.default": _reduce,
    "aten.prod.dim_int": _reduce,
    "aten.amax.default": _reduce,
    "aten.amin.default": _reduce,
    "aten.argmax.default": _reduce,
    "aten.argmin.default": _reduce,
    "aten.max.default": _reduce,
    "aten.min.default": _reduce,
    "aten.flip.default": _flip,
}


def _function_name(fn, name):
    if name is not None:
        return name
    base = getattr(fn, "__name__", "")
    return base if _IDENT.match(base) and "__" not in base else "fn"


def _arg_names(fn, count):
    try:
        code = fn.__code__
        names = list(code.co_varnames[:code.co_argcount])
    except AttributeError:
        names = []
    out = []
    for i in range(count):
        n = names[i] if i < len(names) else ""
        if not _IDENT.match(n) or re.match(r"v\d+$", n) or n in out:
            n = f"arg{i}"
        out.append(n)
    return out


class _ReturnWatch:
    """Records the line of each `return` of the code object `code` while
    the trace runs (sys.setprofile's return events), so that errors about
    the function's results, and the program's `return`, are located at the
    user's return statement. Only where no profiler is installed (one would
    be displaced) and `code` is known; otherwise they are located at the
    function's first line."""

    def __init__(self, code, lines):
        self.code, self.lines, self.active = code, lines, False

    def _profile(self, frame, event, arg):
        if event == "return" and frame.f_code is self.code:
            line = frame.f_lineno
            try:  # the statement's first line, as user_location
                start = list(self.code.co_positions())[frame.f_lasti // 2][0]
                line = start if start is not None else line
            except (AttributeError, IndexError):
                pass
            self.lines.append(line)

    def __enter__(self):
        self.active = self.code is not None and sys.getprofile() is None
        if self.active:
            sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc):
        if self.active:
            sys.setprofile(None)
        return False


_TORCH_DIR = _SKIP_DIRS[0]
_RAISES = {dis.opmap["RAISE_VARARGS"], dis.opmap["RERAISE"]}


def _raised_by_pytorch(error):
    """Whether `error` comes from PyTorch: raised in torch's Python code,
    or out of a call (a C function: PyTorch's bindings) rather than by a
    `raise` in the user's code or another library's; _Devices calls torch
    functions for the user, so what they raise there is PyTorch's too. An
    error raised in layoutc's own frames (fn called with the wrong number
    of arguments) is not."""
    tb = error.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    if (code.co_filename.startswith(_TORCH_DIR) or
            code is _Devices.__torch_function__.__code__):
        return True
    if code.co_filename.startswith(_SKIP_DIRS):
        return False
    return code.co_code[tb.tb_lasti] not in _RAISES


def _raised_at(error):
    """(file, line) of the innermost frame of `error`'s traceback outside
    torch and layoutc, or None."""
    found = None
    tb = error.__traceback__
    while tb is not None:
        if not tb.tb_frame.f_code.co_filename.startswith(_SKIP_DIRS):
            found = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    return found


def trace(fn, *examples, name=None):
    """Traces `fn(*examples)` into a layout program (a Traced; str() is its
    MLIR). The examples give the arguments' sizes, strides and dtypes; their
    values are never read."""
    if not callable(fn):
        raise TypeError("layoutc.trace: fn must be callable")
    metas = [meta_like(x, i) for i, x in enumerate(examples)]
    fname = _function_name(fn, name)
    names = _arg_names(fn, len(metas))
    tracer = _Tracer()
    args = [tracer.bind(m, f"%{n}") for m, n in zip(metas, names)]
    code = getattr(fn, "__code__", None)
    returned_at = []
    try:
        with tracer, _Devices(), _ReturnWatch(code, returned_at):
            out = fn(*metas)
    except TraceError:
        raise
    except Exception as e:
        # PyTorch's checks that run before any aten op (reshape's shape,
        # item() of several elements, an in-place detach of a view) become
        # TraceErrors at the user's line; the function's own exceptions
        # (and calling it with the wrong arguments) stay what they are.
        where = _raised_at(e) if _raised_by_pytorch(e) else None
        if where is None:
            raise
        raise TraceError(f"{type(e).__name__}: {e}", None, *where) from e
    defined = (getattr(code, "co_filename", "<unknown>"),
               getattr(code, "co_firstlineno", 0), 1)
    where = (defined[0], returned_at[-1], 1) if returned_at else defined
    returns_tuple = (isinstance(out, (tuple, list)) and
                     not isinstance(out, torch.Size))
    outs = [] if out is None else (list(out) if returns_tuple else [out])
    results = []
    for o in outs:
        if not isinstance(o, torch.Tensor):
            raise TraceError(f"the function returned {type(o).__name__}; "
                             "layoutc functions return tensors", None,
                             *where[:2])
        v = tracer.values.get(id(o))
        if v is None or v.tensor is not o:
            raise TraceError("a returned tensor is not derived from the "
                             "function's arguments", None, *where[:2])
        results.append(v)
    unique, indices = [], []
    for v in results:
        seen = [u.name for u in unique]
        if v.name not in seen:
            seen.append(v.name)
            unique.append(v)
        indices.append(seen.index(v.name))
    outs_count, results = len(results), unique
    params = ", ".join(f"{a.name}: {a.type}" for a in args)
    rtypes = ", ".join(r.type for r in results)
    sig = f" -> ({rtypes})" if results else ""
    body = "\n".join(tracer.lines)
    ret = (f"  return {', '.join(r.name for r in results)} : {rtypes} "
           if results else "  return ")
    mlir = (f"func.func @{fname}({params}){sig} {{\n"
            + (body + "\n" if body else "")
            + ret + mlir_loc(where) + "\n"
            + f"}} {mlir_loc(defined)}\n")
    return Traced(mlir, fname, names, returns_tuple, outs_count,
                  tracer.uses_as_strided, indices)
