"""layoutc.compile: a PyTorch function or a layout program to a callable.

A compiled function is a `_layoutc.Dispatcher`: each call reads its
arguments' layouts in C and runs the kernel compiled for them; the first call
with a new (shapes, strides, dtypes) traces the function for that layout,
compiles it (or finds it in the disk cache) and remembers it.
"""

import functools
import os

from . import _layoutc, _toolchain
from ._errors import LayoutcError
from ._layout import DL_CODES, LAYOUT_TO_NUMPY, storage_size

try:
    import torch
except ImportError:  # NumPy-only use of compiled programs
    torch = None
try:
    import numpy as np
except ImportError:
    np = None

if torch is not None:
    from ._trace import DTYPES as _TORCH_TO_LAYOUT
    from ._trace import TORCH_DTYPES as _TORCH_DTYPES
    _layoutc.init(torch.Tensor,
                  {k: DL_CODES[v] for k, v in _TORCH_TO_LAYOUT.items()},
                  LayoutcError)
else:
    _TORCH_DTYPES = {}
    _layoutc.init(None, {}, LayoutcError)


def _is_torch(x):
    return torch is not None and isinstance(x, torch.Tensor)


def _check_device(args):
    for i, a in enumerate(args):
        if _is_torch(a) and a.device.type != "cpu":
            if a.device.type == "cuda":
                raise LayoutcError(
                    f"argument {i} is a CUDA tensor: layoutc.compile runs "
                    "CPU kernels; the CUDA backend (layoutc --target=cuda, "
                    "docs/cuda.md) is not wired into the Python package yet")
            raise LayoutcError(f"argument {i} is on device {a.device}; "
                               "layoutc.compile runs on the CPU")


def _numpy_dtype(dtype):
    if np is None or dtype not in LAYOUT_TO_NUMPY:
        raise LayoutcError(f"a {dtype} result cannot be a NumPy array")
    return np.dtype(LAYOUT_TO_NUMPY[dtype])


def _numpy_empty(sizes, strides, dtype):
    base = np.empty(storage_size(sizes, strides), dtype)
    return np.lib.stride_tricks.as_strided(
        base, tuple(sizes), tuple(s * dtype.itemsize for s in strides))


class _ArrayView:
    """An __array_interface__ over another array's memory; NumPy keeps it
    (and so the array) alive as the view's base."""

    def __init__(self, base, iface):
        self.base = base
        self.__array_interface__ = iface


def _numpy_view(a, sizes, strides, offset):
    """A NumPy view of argument `a` (an array, a NumPy scalar or another
    __dlpack__ object), read-only when `a` is."""
    if not hasattr(a, "__array_interface__"):
        a = np.from_dlpack(a)
    item = a.dtype.itemsize
    iface = dict(a.__array_interface__)
    iface.update(data=(iface["data"][0] + offset * item, iface["data"][1]),
                 shape=tuple(sizes),
                 strides=tuple(s * item for s in strides))
    iface.pop("mask", None)
    iface.pop("offset", None)
    return np.asarray(_ArrayView(a, iface))


def _torch_view(a, sizes, strides, offset):
    if any(s < 0 for s in strides):
        raise LayoutcError(f"a result view has negative strides {strides}, "
                           "which torch tensors cannot have")
    return a.as_strided(sizes, strides, a.storage_offset() + offset)


def written_args(library, function):
    """The indices of the arguments `function` writes (layout.copy
    destinations; the header declares them non-const). The dispatcher
    refuses read-only arrays there."""
    return library.written[function]


def arg_layout(a):
    """(sizes, strides in elements) of a torch tensor or NumPy array (or
    scalar), else None."""
    if _is_torch(a):
        return list(a.shape), list(a.stride())
    strides = getattr(a, "strides", None)
    if isinstance(strides, tuple) and hasattr(a, "dtype"):
        item = a.dtype.itemsize
        return list(a.shape), [s // item for s in strides]
    return None


def _allocator(sizes, strides, dtype, use_torch):
    """A callable that allocates a new result: a torch tensor when
    `use_torch`, else a NumPy array."""
    if use_torch:
        return functools.partial(torch.empty_strided, tuple(sizes),
                                 tuple(strides), dtype=_TORCH_DTYPES[dtype])
    return functools.partial(_numpy_empty, list(sizes), list(strides),
                             _numpy_dtype(dtype))


def _view_spec(args, arg, sizes, strides, offset, use_torch):
    """How to return a view of argument `arg`: made by the argument's own
    kind (a torch view of a torch tensor, a NumPy view of an array); a view
    with the argument's layout at offset 0 is the argument itself."""
    known = arg < len(args)
    if (known and offset == 0 and
            arg_layout(args[arg]) == (list(sizes), list(strides))):
        return (arg, None)
    torch_arg = _is_torch(args[arg]) if known else use_torch
    view = _torch_view if torch_arg else _numpy_view
    return (arg, functools.partial(
        lambda f, s, st, o, a: f(a, s, st, o), view, list(sizes),
        list(strides), offset))


def make_entry(library, function, results, use_torch, args=()):
    """The Dispatcher entry of one function of `library` for arguments like
    `args`: its kernel, one allocator per new result (torch tensors when
    `use_torch`, else NumPy arrays) and how to return each result. `results`
    are explain's result records. A dynamic function's layouts are its
    <f>_layouts' for `args` (then the entry holds for their layouts only)."""
    kernel = _layoutc.Kernel(library.path, library.symbols[function])
    if function in library.layouts:
        return _dynamic_entry(library, function, kernel, results, use_torch,
                              args)
    allocators, specs = [], []
    for r, res in enumerate(results):
        sizes, strides, dtype = res["sizes"], res["strides"], res["dtype"]
        if res["aliases"] is None:
            specs.append(len(allocators))
            allocators.append(_allocator(sizes, strides, dtype, use_torch))
            continue
        specs.append(_view_spec(args, res["aliases"], sizes, strides,
                                library.view_offsets[(function, r)],
                                use_torch))
    return kernel, tuple(allocators), tuple(specs)


def _dynamic_entry(library, function, kernel, results, use_torch, args):
    """make_entry of a dynamic function: each result's layout for `args`
    from <f>_layouts, which also runs the checks PyTorch makes on sizes. An
    output is passed whenever the function has one, also where the result
    is the argument's view for these sizes (its `_view` report then keeps
    the kernel from writing it)."""
    layouts = kernel.layouts(library.layouts[function], tuple(args),
                             len(results))
    allocators, specs = [], []
    for res, layout in zip(results, layouts):
        view_of, has_output, offset, sizes, strides, out_strides = layout
        if has_output:
            allocators.append(_allocator(sizes, out_strides, res["dtype"],
                                         use_torch))
        if view_of < 0:
            specs.append(len(allocators) - 1)
        else:
            specs.append(_view_spec(args, view_of, sizes, strides, offset,
                                    use_torch))
    return kernel, tuple(allocators), tuple(specs)


class CompiledFunction(_layoutc.Dispatcher):
    """A traced PyTorch function compiled per argument layout. Call it with
    torch CPU tensors or NumPy arrays. `traced(*args)` gives the layout
    program for those arguments, `explain(*args)` its report."""

    def __init__(self, fn, flags=()):
        super().__init__()
        self.fn = fn
        self.flags = tuple(flags)
        functools.update_wrapper(self, fn, updated=())

    def traced(self, *args):
        from ._trace import trace
        return trace(self.fn, *args)

    def _miss(self, args):
        from ._trace import trace
        _check_device(args)
        traced = trace(self.fn, *args)
        if traced.uses_as_strided:
            self.offset_sensitive = True
        library = _toolchain.build_library(traced.mlir, self.flags)
        report = library.explain(traced.name)
        use_torch = any(_is_torch(a) for a in args) or not args
        kernel, allocs, specs = make_entry(
            library, traced.name, report["results"], use_torch, args)
        specs = tuple(specs[i] for i in traced.result_indices)
        single = not traced.returns_tuple and traced.num_results == 1
        return (kernel, allocs, specs, single,
                written_args(library, traced.name))


class CompiledProgram:
    """Every function of a layout program, compiled once: attributes (and
    items) by function name, each a callable whose arguments must have the
    declared layouts (a mismatch raises LayoutcError with the runtime's
    message). A program with one function is itself callable."""

    def __init__(self, program=None, source=None, flags=()):
        self.library = _toolchain.build_library(program, tuple(flags), source)
        self.functions = {}
        for name in self.library.params:
            self.functions[name] = _ProgramFunction(self.library, name)

    def __getattr__(self, name):
        try:
            return self.__dict__["functions"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, name):
        return self.functions[name]

    def __call__(self, *args):
        if len(self.functions) != 1:
            raise TypeError("this program has functions "
                            f"{', '.join(self.functions)}: call one by name")
        return next(iter(self.functions.values()))(*args)


class _ProgramFunction(_layoutc.Dispatcher):
    def __init__(self, library, name):
        super().__init__()
        self.library, self.name = library, name
        self.report = library.explain(name)

    def _miss(self, args):
        _check_device(args)
        use_torch = any(_is_torch(a) for a in args) or not args
        # The packed entry point takes the arguments and then the outputs
        # from one array: a wrong count would shift outputs into arguments.
        expected = self.library.arguments[self.name]
        if len(args) != expected:
            raise TypeError(f"{self.name} takes {expected} argument"
                            f"{'' if expected == 1 else 's'}, got {len(args)}")
        kernel, allocs, specs = make_entry(self.library, self.name,
                                           self.report["results"], use_torch,
                                           args)
        return (kernel, allocs, specs, len(specs) == 1,
                written_args(self.library, self.name))


def compile(fn_or_program, *examples, flags=()):
    """layoutc.compile(fn, *examples) or layoutc.compile(program): see
    docs/python.md."""
    if isinstance(fn_or_program, (str, os.PathLike)):
        text = os.fspath(fn_or_program)
        if "func.func" in text:
            return CompiledProgram(program=text, flags=flags)
        return CompiledProgram(source=text, flags=flags)
    if not callable(fn_or_program):
        raise TypeError("layoutc.compile takes a function, MLIR text or the "
                        "path of a .mlir file")
    compiled = CompiledFunction(fn_or_program, flags)
    if examples:
        compiled.prepare(*examples)
    return compiled
