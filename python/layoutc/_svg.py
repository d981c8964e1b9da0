"""The memory map as an SVG drawing (layoutc.memory_map(...).svg).

For each function of layoutc's explain report: a band for every copy the
function runs (op, location, reason, kernel), then for each result a header
(dtype, sizes, strides, offset, a view of which argument or new storage), the
storage strip (one cell per storage element from the smallest to the largest
offset the result reaches, coloured by how many logical indices read it) and
the logical grid (one cell per logical index, 2-D slices of the last two dims,
showing the storage offset it reads).

Cells carry machine-readable attributes: storage cells
`class="storage-cell" data-offset="k" data-count="n"`, logical cells
`class="index-cell" data-index="i,j,..." data-offset="k"`, copy bands
`class="copy" data-op data-loc data-reason data-kernel`. Drawings of large
views are truncated, with a note saying so (`class="note"`): at most
MAX_STORAGE storage cells (in a longer strip, runs of more than _GAP unread
elements become one `class="storage-gap" data-offset data-length` cell),
MAX_ROWS x MAX_COLS logical cells per slice, MAX_SLICES slices and
MAX_INDEX_CELLS logical cells in all; views of more than MAX_COUNTED elements
have no strip (counting them would take too long).
"""

import colorsys
import os
import re
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from ._errors import LayoutcError

# Limits of one drawing; render() takes each as a keyword.
MAX_STORAGE = 1024        # storage cells drawn per result
MAX_ROWS = MAX_COLS = 32  # logical cells per 2-D slice
MAX_SLICES = 8            # 2-D slices per result
MAX_INDEX_CELLS = 2048    # logical cells per result, all slices together
MAX_COUNTED = 1 << 25     # larger views are not counted (strip not drawn)
_CHUNK = 1 << 20          # logical indices enumerated at a time
_SPARSE_LIMIT = 1 << 22   # long strips of views up to this elide gaps
_GAP = 16                 # unread runs longer than this are elided
_GAP_UNITS = 3            # the width of an elided run, in cells

_MARGIN = 16
_STRIP_WIDTH = 32         # storage cells per row
_CELL_H = 20              # logical cells
_STRIP_H = 16             # storage cells
_STORAGE_W = 20
_LABEL_W = 64             # offset labels left of the strip / row numbers
_CHAR_W = 7.2             # estimated width of a 12px character
_FLOW_WIDTH = 1100        # slices of a grid flow side by side up to here
_BIG = 1 << 62


def _fmt(v):
    return "?" if v is None else str(v)


def _dims(xs):
    return "[" + ", ".join(_fmt(x) for x in xs) + "]"


def _centred_label(css_class, x, y, count, text):
    """A cell's text, centred at x, in the colour that reads on a cell read
    by `count` indices (black, the default, is left implicit)."""
    colour = _text_colour(count)
    fill = f' fill="{colour}"' if colour != "#000000" else ""
    return (f'<text class="{css_class}" x="{x:g}" y="{y}" '
            f'text-anchor="middle"{fill}>{text}</text>')


def _cells_and_labels(c, group_class, cells, labels, font_size):
    """Writes a group of outlined cells, then their labels above them."""
    c.raw(f'<g class="{group_class}" stroke="#888888" stroke-width="1">')
    c.raw("\n".join(cells))
    c.raw(f'</g>\n<g font-size="{font_size}" font-family="monospace">')
    c.raw("\n".join(labels))
    c.raw("</g>")


def _count_colour(count):
    """0: white; 1: light blue; 2, 3, ...: progressively darker orange."""
    if count is None:
        return "#eeeeee"
    if count == 0:
        return "#ffffff"
    if count == 1:
        return "#cfe2f3"
    lightness = max(0.28, 0.78 - 0.1 * (count - 2))
    r, g, b = colorsys.hls_to_rgb(28 / 360, lightness, 0.85)
    return "#%02x%02x%02x" % (round(r * 255), round(g * 255), round(b * 255))


def _text_colour(count):
    return "#ffffff" if count is not None and count >= 5 else "#000000"


def _offsets(sizes, strides, offset, start, stop):
    """The storage offsets of the logical indices start..stop-1 (row-major
    order), as int64."""
    flat = np.arange(start, stop, dtype=np.int64)
    offs = np.full(flat.shape, offset, dtype=np.int64)
    if sizes:
        for idx, st in zip(np.unravel_index(flat, tuple(sizes)), strides):
            offs += idx * st
    return offs


class _Counts:
    """How many logical indices of a strided view read each storage element,
    and the storage strip's items: ("cell", offset, count) and, where the
    span is longer than `limit` cells, ("gap", first offset, length) for
    runs of more than _GAP unread elements. `truncated` when the items stop
    before `hi`; `at(k)` is the count of any offset drawn (in the strip or
    listed in `extra`), None for others."""

    def __init__(self, sizes, strides, offset, lo, hi, limit, extra):
        self.lo, self.hi = lo, hi
        self.items, self.truncated = [], False
        n = int(np.prod(sizes, dtype=object)) if sizes else 1
        span = hi - lo + 1
        if span > limit and n <= _SPARSE_LIMIT:
            offs = _offsets(sizes, strides, offset, 0, n)
            self.uniq, self.ucounts = np.unique(offs, return_counts=True)
            self.dense = None
            self._sparse_items(limit)
            return
        self.uniq = None
        shown = min(span, limit)
        self.dense = np.zeros(shown, dtype=np.int64)
        extra = np.unique(np.asarray(extra, dtype=np.int64))
        self.extra = extra[(extra < lo) | (extra >= lo + shown)]
        self.extra_counts = np.zeros(len(self.extra), dtype=np.int64)
        for start in range(0, n, _CHUNK):
            offs = _offsets(sizes, strides, offset, start,
                            min(n, start + _CHUNK))
            rel = offs - lo
            inside = (rel >= 0) & (rel < shown)
            self.dense += np.bincount(rel[inside], minlength=shown)
            if len(self.extra):
                rest = offs[~inside]
                pos = np.searchsorted(self.extra, rest)
                pos[pos == len(self.extra)] = 0
                hit = self.extra[pos] == rest
                self.extra_counts += np.bincount(pos[hit],
                                                 minlength=len(self.extra))
        self.items = [("cell", lo + i, int(v))
                      for i, v in enumerate(self.dense)]
        self.truncated = shown < span

    def _sparse_items(self, limit):
        uniq, counts = self.uniq, self.ucounts
        big = np.flatnonzero(np.diff(uniq) - 1 > _GAP)
        units, first = 0, 0
        ends = [int(j) for j in big] + [len(uniq) - 1]
        for j in ends:
            a, b = int(uniq[first]), int(uniq[j])
            take = min(b - a + 1, limit - units)
            dense = np.zeros(take, dtype=np.int64)
            sel = uniq[first:j + 1]
            keep = sel < a + take
            dense[sel[keep] - a] = counts[first:j + 1][keep]
            self.items += [("cell", a + i, int(v))
                           for i, v in enumerate(dense)]
            units += take
            if take < b - a + 1:
                self.truncated = True
                return
            if j == len(uniq) - 1:
                return
            if units + _GAP_UNITS > limit:
                self.truncated = True
                return
            nxt = int(uniq[j + 1])
            self.items.append(("gap", b + 1, nxt - b - 1))
            units += _GAP_UNITS
            first = j + 1

    def at(self, k):
        if self.uniq is not None:
            pos = int(np.searchsorted(self.uniq, k))
            if pos < len(self.uniq) and self.uniq[pos] == k:
                return int(self.ucounts[pos])
            return 0 if self.lo <= k <= self.hi else None
        rel = k - self.lo
        if 0 <= rel < len(self.dense):
            return int(self.dense[rel])
        pos = int(np.searchsorted(self.extra, k))
        if pos < len(self.extra) and self.extra[pos] == k:
            return int(self.extra_counts[pos])
        return None


# -- which copy made a result ---------------------------------------------

_SSA = r"%[A-Za-z0-9_.$-]+"
_OP_LINE = re.compile(
    r"^\s*(?P<results>" + _SSA + r"(?::\d+)?(?:\s*,\s*" + _SSA + r")*)\s*=\s*"
    r"(?P<op>\"?(?P<name>[a-z_]+\.[A-Za-z_.]+)\"?)\s*\(?\s*(?P<operand>"
    + _SSA + r"(?:#\d+)?)?")
_RETURN = re.compile(r"^\s*(?:func\.)?return\b(?P<operands>[^:]*)")
_FUNC = re.compile(r"func\.func\s+(?:private\s+)?@(?P<name>[A-Za-z0-9_$.-]+)")
_EXPLICIT_LOC = re.compile(r'loc\("(?P<file>(?:[^"\\]|\\.)*)":(\d+):(\d+)\)')


def _definitions(mlir):
    """{function: ({ssa name: (op, first operand, explicit loc or None, line,
    col)}, [returned names])} of a program's text, as far as its lines show
    (one op per line, as layoutc.trace and most programs write them)."""
    funcs, current = {}, None
    for lineno, line in enumerate(mlir.splitlines(), 1):
        code = line.split("//", 1)[0] if '"' not in line else line
        m = _FUNC.search(code)
        if m:
            current = ({}, [])
            funcs[m.group("name")] = current
            continue
        if current is None:
            continue
        m = _OP_LINE.match(code)
        if m:
            explicit = None
            for lm in _EXPLICIT_LOC.finditer(code):
                explicit = (lm.group("file").replace('\\"', '"')
                            .replace("\\\\", "\\") +
                            f":{lm.group(2)}:{lm.group(3)}")
            operand = m.group("operand")
            record = (m.group("name"), operand and operand.split("#")[0],
                      explicit, lineno, m.start("op") + 1)
            results = [r.strip() for r in m.group("results").split(",")]
            if len(results) == 1 and ":" in results[0]:
                name, count = results[0].split(":")
                results = [f"{name}#{i}" for i in range(int(count))]
                results.append(name)
            for r in results:
                current[0][r] = record
            continue
        m = _RETURN.match(code)
        if m:
            current[1][:] = re.findall(_SSA + r"(?:#\d+)?",
                                       m.group("operands"))
    return funcs


def _loc_matches(loc, record):
    _, _, explicit, line, col = record
    if not loc:
        return False
    if explicit is not None:
        return loc == explicit
    return loc.endswith(f":{line}:{col}")


def _makers(function, definitions):
    """Per result of `function` (an explain record): the copy record (a
    dict) or reduction ("reduce", loc) that made its storage, or None."""
    defs, returned = definitions.get(function["name"], ({}, []))
    makers = []
    for i, result in enumerate(function["results"]):
        maker = None
        if result.get("aliases") is None and i < len(returned):
            name, steps = returned[i], 0
            while name in defs and steps < 10000:
                steps += 1
                record = defs[name]
                copy = next((c for c in function["copies"]
                             if c["op"] == record[0] and
                             _loc_matches(c["loc"], record)), None)
                if copy is not None:
                    maker = copy
                    break
                if record[0] == "layout.reduce":
                    kernel = next((k for k in function.get("kernels") or ()
                                   if k["op"] == "layout.reduce" and
                                   _loc_matches(k["loc"], record)), None)
                    maker = ("reduce", kernel["loc"] if kernel else None)
                    break
                if not record[1]:
                    break
                name = record[1]
        makers.append(maker)
    return makers


def _short_loc(loc):
    """`file.py:12:5` of a location whose file is a path."""
    if not loc:
        return "an unknown location"
    m = re.match(r"^(.*):(\d+):(\d+)$", loc)
    if not m:
        return loc
    return f"{os.path.basename(m.group(1)) or m.group(1)}:{m.group(2)}:" \
           f"{m.group(3)}"


# -- drawing ----------------------------------------------------------------

class _Canvas:
    def __init__(self):
        self.parts = []
        self.width = 0
        self.y = _MARGIN

    def extend(self, right):
        self.width = max(self.width, right)

    def text(self, x, y, s, cls=None, size=12, weight=None, anchor=None,
             fill="#000000", family=None):
        attrs = [f'x="{x:g}"', f'y="{y:g}"', f'font-size="{size}"']
        if cls:
            attrs.insert(0, f'class="{cls}"')
        if weight:
            attrs.append(f'font-weight="{weight}"')
        if anchor:
            attrs.append(f'text-anchor="{anchor}"')
        if family:
            attrs.append(f'font-family="{family}"')
        if fill != "#000000":
            attrs.append(f'fill="{fill}"')
        self.parts.append(f"<text {' '.join(attrs)}>{escape(str(s))}</text>")
        if anchor is None:
            self.extend(x + len(str(s)) * _CHAR_W * size / 12)

    def raw(self, s):
        self.parts.append(s)


def _attr(name, value):
    return f"{name}={quoteattr(str(value))}"


def _legend(c):
    c.text(_MARGIN, c.y + 12, "cells are coloured by how many logical "
           "indices read the storage element:", size=11)
    c.y += 20
    x = _MARGIN
    for count, label in ((0, "0"), (1, "1"), (2, "2"), (3, "3"), (4, "4"),
                         (5, "5"), (6, "6"), (7, "7+")):
        c.raw(f'<rect x="{x}" y="{c.y}" width="{_STORAGE_W}" '
              f'height="{_CELL_H}" fill="{_count_colour(count)}" '
              f'stroke="#888888"/>')
        c.text(x + _STORAGE_W / 2, c.y + 14, label, size=10, anchor="middle",
               fill=_text_colour(count), family="monospace")
        x += _STORAGE_W + 6
    c.extend(x)
    c.y += _CELL_H + 14


def _copy_band(c, copy):
    loc = copy.get("loc")
    kernel = copy.get("kernel")
    label = (f"copy: {copy.get('op')} at {_short_loc(loc)} \u2014 "
             f"{copy.get('reason') or 'no reason given'}"
             + (f" ({kernel}" + (f", {copy['bytes']} bytes" if
                                 copy.get("bytes") is not None else "")
                + ")" if kernel else ""))
    width = len(label) * _CHAR_W + 16
    attrs = " ".join(_attr(k, v) for k, v in (
        ("data-op", copy.get("op")), ("data-loc", loc or ""),
        ("data-reason", copy.get("reason") or ""),
        ("data-kernel", kernel or ""),
        ("data-bytes", _fmt(copy.get("bytes")))))
    c.raw(f'<g class="copy" {attrs}><title>{escape(f"{loc}")}</title>')
    c.raw(f'<rect x="{_MARGIN}" y="{c.y}" width="{width:g}" height="22" '
          f'rx="4" fill="#fde2e1" stroke="#d9534f"/>')
    c.text(_MARGIN + 8, c.y + 15, label, fill="#8a1c17")
    c.raw("</g>")
    c.extend(_MARGIN + width)
    c.y += 28


def _header(c, fname, index, result, maker):
    sizes, strides = result.get("sizes"), result.get("strides")
    c.text(_MARGIN, c.y + 14,
           f"@{fname} result {index}: {result.get('dtype')} sizes "
           f"{_dims(sizes or [])} strides {_dims(strides or [])} offset "
           f"{_fmt(result.get('offset'))}",
           cls="result-header", size=13, weight="bold")
    c.y += 20
    aliases = result.get("aliases")
    if aliases is not None:
        c.text(_MARGIN, c.y + 13, f"a view of argument {aliases}'s storage",
               cls="result-storage")
        c.y += 20
        return
    if isinstance(maker, dict):
        what = (f"new storage, made by the copy {maker.get('op')} at "
                f"{_short_loc(maker.get('loc'))}")
    elif isinstance(maker, tuple):
        what = f"new storage, made by the reduction at {_short_loc(maker[1])}"
    else:
        what = "new storage, made by a copy or reduction of this function"
    badge = "copy" if not isinstance(maker, tuple) else "reduce"
    c.raw(f'<g class="made-by-copy"><rect x="{_MARGIN}" y="{c.y + 2}" '
          f'width="48" height="16" rx="3" fill="#d9534f"/>')
    c.text(_MARGIN + 24, c.y + 14, badge, size=11, anchor="middle",
           fill="#ffffff", weight="bold")
    c.raw("</g>")
    c.text(_MARGIN + 56, c.y + 14, what, cls="result-storage",
           fill="#8a1c17")
    c.y += 22


def _note(c, s, indent=0):
    c.text(_MARGIN + indent, c.y + 12, s, cls="note", size=11,
           fill="#555555")
    c.y += 16


def _strip(c, counts, aliases):
    """The storage strip: a cell per storage element from lo to hi (runs of
    unread elements elided and the strip cut when it is long)."""
    lo, hi, items = counts.lo, counts.hi, counts.items
    whose = ("argument %s's storage" % aliases if aliases is not None
             else "the new storage")
    c.text(_MARGIN, c.y + 12, f"storage elements {lo}\u2026{hi} of {whose}: "
           "how many logical indices read each", cls="strip-label", size=11)
    c.y += 18
    x0 = _MARGIN + _LABEL_W
    cells, labels = [], []
    col, row, right = 0, 0, x0
    for kind, k, n in items:
        width = 1 if kind == "cell" else _GAP_UNITS
        if col + width > _STRIP_WIDTH:
            col, row = 0, row + 1
        x, y = x0 + col * _STORAGE_W, c.y + row * _STRIP_H
        if col == 0:
            labels.append(f'<text x="{x0 - 6}" y="{y + 12}" '
                          f'text-anchor="end" fill="#555555">{k}</text>')
        col += width
        right = max(right, x + width * _STORAGE_W)
        if kind == "gap":
            cells.append(
                f'<rect class="storage-gap" data-offset="{k}" '
                f'data-length="{n}" x="{x}" y="{y}" '
                f'width="{_GAP_UNITS * _STORAGE_W}" height="{_STRIP_H}" '
                f'fill="#f2f2f2" stroke-dasharray="2,2"><title>{n} unread '
                f'elements, {k}\u2026{k + n - 1}</title></rect>')
            label = f"\u2026{n}\u2026" if len(str(n)) <= 7 else "\u2026"
            labels.append(f'<text class="gap-label" '
                          f'x="{x + _GAP_UNITS * _STORAGE_W / 2:g}" '
                          f'y="{y + 12}" text-anchor="middle" '
                          f'fill="#555555">{label}</text>')
            continue
        cells.append(
            f'<rect class="storage-cell" data-offset="{k}" '
            f'data-count="{n}" x="{x}" y="{y}" width="{_STORAGE_W}" '
            f'height="{_STRIP_H}" fill="{_count_colour(n)}"><title>'
            f'storage {k}: read by {n} logical '
            f'ind{"ex" if n == 1 else "ices"}</title></rect>')
        if n >= 2:
            labels.append(_centred_label("count-label", x + _STORAGE_W / 2,
                                         y + 12, n, n))
    _cells_and_labels(c, "storage-strip", cells, labels, 10)
    c.extend(right)
    c.y += (row + 1) * _STRIP_H + 4 if items else 0
    notes = []
    if any(kind == "gap" for kind, _, _ in items):
        notes.append(f"runs of more than {_GAP} unread elements are elided: "
                     "\u2026n\u2026 stands for n of them")
    if counts.truncated:
        last = items[-1][1] + (items[-1][2] - 1 if items[-1][0] == "gap"
                               else 0)
        notes.append(f"\u2026 truncated: drawn up to storage element {last} "
                     f"of {lo}\u2026{hi}")
    for note in notes:
        _note(c, note, _LABEL_W)


def _slices_shown(sizes, max_rows, max_cols, max_slices, max_cells):
    rank = len(sizes)
    rows = sizes[-2] if rank >= 2 else 1
    cols = sizes[-1] if rank >= 1 else 1
    shown_rows, shown_cols = min(rows, max_rows), min(cols, max_cols)
    slices = int(np.prod(sizes[:-2], dtype=object)) if rank > 2 else 1
    per_slice = max(1, shown_rows * shown_cols)
    shown_slices = max(1, min(slices, max_slices, max_cells // per_slice))
    return rows, cols, shown_rows, shown_cols, slices, shown_slices


def _grid(c, sizes, strides, offset, counts, limits):
    """The logical grid: 2-D slices of the last two dims, side by side while
    they fit in _FLOW_WIDTH, each cell showing the storage offset it reads."""
    max_rows, max_cols, max_slices, max_cells = limits
    rank = len(sizes)
    rows, cols, shown_rows, shown_cols, slices, shown_slices = _slices_shown(
        sizes, max_rows, max_cols, max_slices, max_cells)
    row_stride = strides[-2] if rank >= 2 else 0
    col_stride = strides[-1] if rank >= 1 else 0
    lead_sizes, lead_strides = sizes[:-2], strides[:-2]
    c.text(_MARGIN, c.y + 12, "logical index \u2192 storage offset",
           cls="grid-label", size=11)
    c.y += 18
    bases, leads = [], []
    for lead in range(shown_slices):
        lead_index = ([int(i) for i in np.unravel_index(lead, lead_sizes)]
                      if rank > 2 else [])
        leads.append(lead_index)
        bases.append(offset + sum(i * s for i, s in zip(lead_index,
                                                        lead_strides)))
    # The widest offset drawn sets the cell width (offsets are monotonic
    # along each dim, so the corners of each slice bound them).
    digits = max(len(str(b + r * row_stride + q * col_stride))
                 for b in bases for r in (0, shown_rows - 1)
                 for q in (0, shown_cols - 1))
    cell_w = max(28, int(digits * 7.5) + 10)
    truncated = shown_rows < rows or shown_cols < cols
    block_w = _LABEL_W + shown_cols * cell_w + 24
    block_h = ((16 if rank > 2 else 0) + (16 if rank >= 1 else 0) +
               shown_rows * _CELL_H + (16 if truncated else 0) + 12)
    per_row = max(1, int((_FLOW_WIDTH - _MARGIN) // block_w))
    top = c.y
    for s, (lead_index, base) in enumerate(zip(leads, bases)):
        left = _MARGIN + (s % per_row) * block_w
        c.y = top + (s // per_row) * block_h
        x0 = left + _LABEL_W
        if rank > 2:
            c.text(left, c.y + 12, "[" + ", ".join(
                str(i) for i in lead_index) + ", :, :]", cls="slice-label",
                size=11, family="monospace")
            c.y += 16
        if rank >= 1:  # column numbers
            c.raw('<g font-size="10" font-family="monospace" '
                  'text-anchor="middle" fill="#555555">' + "".join(
                      f'<text x="{x0 + q * cell_w + cell_w / 2:g}" '
                      f'y="{c.y + 12}">{q}</text>'
                      for q in range(shown_cols)) + "</g>")
            c.y += 16
        cells, labels = [], []
        for r in range(shown_rows):
            y = c.y + r * _CELL_H
            if rank >= 2:
                labels.append(f'<text x="{x0 - 6}" y="{y + 14}" '
                              f'text-anchor="end" font-size="10" '
                              f'fill="#555555">{r}</text>')
            for q in range(shown_cols):
                k = base + r * row_stride + q * col_stride
                index = lead_index + ([r] if rank >= 2 else []) + \
                    ([q] if rank >= 1 else [])
                n = counts.at(k) if counts is not None else None
                x = x0 + q * cell_w
                cells.append(
                    f'<rect class="index-cell" data-index='
                    f'"{",".join(map(str, index))}" data-offset="{k}" '
                    f'x="{x}" y="{y}" width="{cell_w}" height="{_CELL_H}" '
                    f'fill="{_count_colour(n)}"><title>'
                    f'({", ".join(map(str, index))}) \u2192 storage {k}'
                    f'</title></rect>')
                labels.append(_centred_label("offset-label", x + cell_w / 2,
                                             y + 14, n, k))
        _cells_and_labels(c, "logical-grid", cells, labels, 11)
        c.extend(x0 + shown_cols * cell_w)
        c.y += shown_rows * _CELL_H + 4
        if truncated:
            notes = []
            if shown_rows < rows:
                notes.append(f"{shown_rows} of {rows} rows")
            if shown_cols < cols:
                notes.append(f"{shown_cols} of {cols} columns")
            c.text(x0, c.y + 12, "\u2026 truncated: " + ", ".join(notes) +
                   " drawn", cls="note", size=11, fill="#555555")
    c.y = top + ((shown_slices + per_row - 1) // per_row) * block_h
    if shown_slices < slices:
        _note(c, f"\u2026 truncated: {shown_slices} of {slices} slices drawn")


def _result(c, fname, index, result, maker, limits):
    _header(c, fname, index, result, maker)
    sizes, strides = result.get("sizes"), result.get("strides")
    offset = result.get("offset")
    if (sizes is None or strides is None or offset is None or
            any(v is None for v in list(sizes) + list(strides))):
        _note(c, "dynamic layout: no map")
        return
    sizes, strides, offset = list(sizes), list(strides), int(offset)
    n = int(np.prod(sizes, dtype=object)) if sizes else 1
    if n == 0:
        _note(c, "no elements")
        return
    lo = offset + sum(min(0, (s - 1) * st) for s, st in zip(sizes, strides))
    hi = offset + sum(max(0, (s - 1) * st) for s, st in zip(sizes, strides))
    max_storage, max_counted = limits[0], limits[1]
    grid_limits = limits[2:]
    counts = None
    if max(abs(lo), abs(hi)) >= _BIG:
        _note(c, f"storage strip not drawn: offsets {lo}\u2026{hi} are out "
              "of range")
    elif n > max_counted:
        _note(c, f"storage strip not drawn: the view has {n} logical "
              f"elements (more than {max_counted} are not counted)")
    else:
        drawn = (_drawn_offsets(sizes, strides, offset, grid_limits)
                 if hi - lo + 1 > max_storage else [])
        counts = _Counts(sizes, strides, offset, lo, hi, max_storage, drawn)
        _strip(c, counts, result.get("aliases"))
    c.y += 4
    _grid(c, sizes, strides, offset, counts, grid_limits)


def _drawn_offsets(sizes, strides, offset, limits):
    """The storage offsets of the logical cells the grid draws."""
    rank = len(sizes)
    _, _, shown_rows, shown_cols, _, shown_slices = _slices_shown(
        sizes, *limits)
    row_stride = strides[-2] if rank >= 2 else 0
    col_stride = strides[-1] if rank >= 1 else 0
    out = []
    for lead in range(shown_slices):
        lead_index = np.unravel_index(lead, sizes[:-2]) if rank > 2 else ()
        base = offset + sum(int(i) * s for i, s in zip(lead_index,
                                                       strides[:-2]))
        r = np.arange(shown_rows, dtype=np.int64)[:, None] * row_stride
        q = np.arange(shown_cols, dtype=np.int64)[None, :] * col_stride
        out.append((base + r + q).ravel())
    return np.concatenate(out) if out else []


def render(report, mlir=None, *, max_storage=MAX_STORAGE, max_rows=MAX_ROWS,
           max_cols=MAX_COLS, max_slices=MAX_SLICES,
           max_index_cells=MAX_INDEX_CELLS, max_counted=MAX_COUNTED):
    """The SVG document (a str) of the memory map of `report`, layoutc's
    parsed --emit=explain JSON. `mlir`, the program's text, lets new-storage
    results name the copy that made them."""
    if not isinstance(report, dict) or "functions" not in report:
        raise LayoutcError("memory map: not an explain report")
    try:
        definitions = _definitions(mlir) if mlir else {}
    except (ValueError, TypeError):
        definitions = {}
    limits = (max_storage, max_counted, max_rows, max_cols, max_slices,
              max_index_cells)
    c = _Canvas()
    c.text(_MARGIN, c.y + 16, "layoutc memory map", cls="title", size=16,
           weight="bold")
    c.y += 26
    _legend(c)
    for function in report["functions"]:
        fname = function.get("name", "?")
        c.raw(f'<g class="function" {_attr("data-name", fname)}>')
        c.text(_MARGIN, c.y + 16, f"function @{fname}", cls="function-name",
               size=15, weight="bold")
        c.y += 24
        copies = function.get("copies") or []
        for copy in copies:
            _copy_band(c, copy)
        if not copies:
            c.text(_MARGIN, c.y + 13, "no copies", cls="no-copies",
                   fill="#2e7d32")
            c.y += 20
        c.y += 6
        makers = _makers(function, definitions)
        results = function.get("results") or []
        for i, result in enumerate(results):
            aliases = result.get("aliases")
            c.raw(f'<g class="result" data-function={quoteattr(fname)} '
                  f'data-result="{i}" data-aliases='
                  f'"{"none" if aliases is None else aliases}">')
            _result(c, fname, i, result, makers[i], limits)
            c.raw("</g>")
            c.y += 14
        if not results:
            c.text(_MARGIN, c.y + 13, "no results", cls="note", size=11)
            c.y += 20
        c.raw("</g>")
        c.y += 10
    width = int(c.width + _MARGIN) + 1
    height = int(c.y + _MARGIN)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}" '
            'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">\n'
            f'<rect width="{width}" height="{height}" fill="#ffffff"/>\n')
    return head + "\n".join(c.parts) + "\n</svg>\n"
