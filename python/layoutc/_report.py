"""layoutc.explain and layoutc.memory_map: the compiler's report as Python
objects."""

import re

from . import _toolchain
from ._trace import trace

_LOC = re.compile(r"^(.*):(\d+):(\d+)$")


class _Record:
    """A JSON object of the explain report with attribute access."""

    def __init__(self, data):
        self._data = data

    def __getattr__(self, key):
        try:
            return self.__dict__["_data"][key]
        except KeyError:
            raise AttributeError(key) from None

    def __getitem__(self, key):
        return self._data[key]

    def to_dict(self):
        return dict(self._data)

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in self._data.items())
        return f"{type(self).__name__}({fields})"


class Result(_Record):
    """A function result: sizes, strides, offset, dtype, aliases (the index
    of the argument it views, or None for new storage), contiguous,
    channels_last."""


class Copy(_Record):
    """A copy that runs: op, loc, bytes, reason, kernel; `filename` and
    `lineno` split loc (the user's source line for traced functions)."""

    @property
    def filename(self):
        m = _LOC.match(self._data["loc"] or "")
        return m.group(1) if m else None

    @property
    def lineno(self):
        m = _LOC.match(self._data["loc"] or "")
        return int(m.group(2)) if m else None


class KernelPlan(_Record):
    """The plan of one copy or reduction kernel (docs/language.md's table):
    op, loc, strategy, loops, vector_width, tile, parallel_dim, chunks,
    index_bits, streaming_stores, accumulator, plan_source ("heuristic", or
    "tuned" by a tuning file), tuned_knobs."""


class FunctionReport:
    def __init__(self, data):
        self.name = data["name"]
        self.results = [Result(r) for r in data["results"]]
        self.copies = [Copy(c) for c in data["copies"]]
        self.kernels = [KernelPlan(k) for k in data["kernels"]]

    def __repr__(self):
        lines = [f"function {self.name}:"]
        for i, r in enumerate(self.results):
            what = ("new storage" if r.aliases is None
                    else f"a view of argument {r.aliases}")
            lines.append(f"  result {i}: {r.dtype} sizes {r.sizes} strides "
                         f"{r.strides} offset {r.offset}: {what}")
        for c in self.copies:
            lines.append(f"  copy at {c.loc}: {c.op} ({c.kernel}, {c.bytes} "
                         f"bytes): {c.reason}")
        if not self.copies:
            lines.append("  no copies")
        return "\n".join(lines)


class Explain:
    """The explain report: `functions` (FunctionReport each, with results,
    copies and kernels); for a traced function, its `results`, `copies` and
    `kernels` directly. `json` is layoutc's report as parsed."""

    def __init__(self, data, mlir=None):
        self.json = data
        self.mlir = mlir
        self.functions = [FunctionReport(f) for f in data["functions"]]

    def _only(self):
        if len(self.functions) != 1:
            raise AttributeError("this report has several functions; use "
                                 ".functions")
        return self.functions[0]

    @property
    def results(self):
        return self._only().results

    @property
    def copies(self):
        return self._only().copies

    @property
    def kernels(self):
        return self._only().kernels

    def __repr__(self):
        return "\n".join(repr(f) for f in self.functions)


def _program(fn_or_program, examples):
    """(MLIR text or None, source path or None) of what the user gave: MLIR
    text, a .mlir path, a function, or a compiled function (its function)."""
    fn_or_program = getattr(fn_or_program, "fn", fn_or_program)
    if isinstance(fn_or_program, str) and "func.func" in fn_or_program:
        return fn_or_program, None
    if isinstance(fn_or_program, str) or hasattr(fn_or_program, "__fspath__"):
        import os
        return None, os.fspath(fn_or_program)
    return trace(fn_or_program, *examples).mlir, None


def explain(fn_or_program, *examples, flags=()):
    """The explain report of a traced function (`explain(fn, *examples)`)
    or of a layout program (MLIR text or a .mlir path)."""
    program, source = _program(fn_or_program, examples)
    text = program if program is not None else open(source).read()
    return Explain(_toolchain.explain_json(program, source, flags), text)


class MemoryMap:
    """layoutc's memory map of a program: `text` (its --emit=memory-map),
    `svg` (the drawing: a standalone SVG document), `report` (the explain
    report it draws, an Explain) and `mlir` (the program)."""

    def __init__(self, text, svg, report=None, mlir=None):
        self.text, self.svg = text, svg
        self.report, self.mlir = report, mlir

    def _repr_svg_(self):
        return self.svg

    def __str__(self):
        return self.text

    def __repr__(self):
        return self.text

    def save(self, path):
        """Writes the SVG drawing to `path`."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)


def memory_map(fn_or_program, *examples):
    """The memory map of a traced function (`memory_map(fn, *examples)`), a
    compiled function, or a layout program (MLIR text or a .mlir path): which
    storage element each logical index of each result reads, as text and as
    an SVG drawing."""
    from ._svg import render
    program, source = _program(fn_or_program, examples)
    text = _toolchain.run_layoutc(program, ["--emit=memory-map"], source)
    report = _toolchain.explain_json(program, source)
    if program is None:
        with open(source, encoding="utf-8") as f:
            program = f.read()
    return MemoryMap(text, render(report, program), Explain(report, program),
                     program)
