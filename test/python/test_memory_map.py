"""layoutc.memory_map and its SVG drawing (python/layoutc/_svg.py).

The drawing is parsed as XML and checked cell by cell against the counts and
offsets computed here from the results' sizes, strides and offsets."""

import inspect
import itertools
import os
import subprocess
import time
import xml.etree.ElementTree as ET

import numpy as np
import pytest
import torch

import layoutc
from layoutc import _toolchain
from layoutc._svg import render

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True)
def _cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("LAYOUTC_CACHE_DIR", str(tmp_path / "cache"))


# -- helpers ----------------------------------------------------------------

def parse(svg):
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    w, h = int(root.get("width")), int(root.get("height"))
    assert w > 0 and h > 0
    assert root.get("viewBox") == f"0 0 {w} {h}"
    return root


def results(root):
    """{(function, result index): <g class="result">}."""
    out = {}
    for g in root.iter(SVG + "g"):
        if g.get("class") == "result":
            out[(g.get("data-function"), int(g.get("data-result")))] = g
    return out


def of_class(elem, cls, tag="rect"):
    return [e for e in elem.iter(SVG + tag) if e.get("class") == cls]


def texts(elem):
    return ["".join(t.itertext()) for t in elem.iter(SVG + "text")]


def storage(g):
    """[(offset, count)] of a result's storage cells, in drawing order."""
    return [(int(c.get("data-offset")), int(c.get("data-count")))
            for c in of_class(g, "storage-cell")]


def index_cells(g):
    """{index tuple: offset} of a result's logical cells."""
    cells = {}
    for c in of_class(g, "index-cell"):
        text = c.get("data-index")
        key = tuple(int(i) for i in text.split(",")) if text else ()
        assert key not in cells, f"index {key} drawn twice"
        cells[key] = int(c.get("data-offset"))
    return cells


def brute_counts(sizes, strides, offset):
    """{storage offset: count} by enumerating every logical index."""
    counts = {}
    for index in itertools.product(*[range(s) for s in sizes]):
        k = offset + sum(i * st for i, st in zip(index, strides))
        counts[k] = counts.get(k, 0) + 1
    return counts


def check_result(g, sizes, strides, offset):
    """The storage strip covers lo..hi, one cell each, with exact counts;
    the grid has one cell per logical element, with its storage offset."""
    counts = brute_counts(sizes, strides, offset)
    lo, hi = min(counts), max(counts)
    strip = storage(g)
    assert [k for k, _ in strip] == list(range(lo, hi + 1))
    assert strip == [(k, counts.get(k, 0)) for k in range(lo, hi + 1)]
    cells = index_cells(g)
    expected = {index: offset + sum(i * st for i, st in zip(index, strides))
                for index in itertools.product(*[range(s) for s in sizes])}
    assert cells == expected
    # The count is printed in every cell read by several indices.
    labels = [int(t) for t in texts(g) if t.isdigit()]
    for k, n in strip:
        if n >= 2:
            assert n in labels
    return strip


# -- a traced function: expand, transpose, unfold, a stepped slice, a copy --

def views(x, m):
    a = x.unsqueeze(0).expand(3, 4)        # each element read 3 times
    b = m.t()                              # a permutation: all 1s
    c = x.unfold(0, 2, 1)                  # windows overlap: 1 2 2 1
    d = x[::2]                             # every other element: 1 0 1
    e = m.t().contiguous()                 # COPY LINE
    return a, b, c, d, e


def _copy_line():
    lines, first = inspect.getsourcelines(views)
    return first + next(i for i, l in enumerate(lines) if "COPY LINE" in l)


@pytest.fixture(scope="module")
def views_map():
    return layoutc.memory_map(views, torch.randn(4), torch.randn(3, 5))


def test_svg_is_a_standalone_document(views_map):
    svg = views_map.svg
    assert svg.lstrip().startswith("<svg")
    assert 'xmlns="http://www.w3.org/2000/svg"' in svg
    root = parse(svg)
    assert views_map._repr_svg_() == svg
    assert set(results(root)) == {("views", i) for i in range(5)}


def test_expand_reads_each_element_three_times(views_map):
    g = results(parse(views_map.svg))[("views", 0)]
    strip = check_result(g, [3, 4], [0, 1], 0)
    assert strip == [(0, 3), (1, 3), (2, 3), (3, 3)]


def test_transpose_reads_each_element_once(views_map):
    g = results(parse(views_map.svg))[("views", 1)]
    strip = check_result(g, [5, 3], [1, 5], 0)
    assert [n for _, n in strip] == [1] * 15
    assert index_cells(g)[(4, 2)] == 14


def test_overlapping_unfold_reads_elements_twice(views_map):
    g = results(parse(views_map.svg))[("views", 2)]
    strip = check_result(g, [3, 2], [1, 1], 0)
    assert strip == [(0, 1), (1, 2), (2, 2), (3, 1)]


def test_stepped_slice_leaves_unread_elements(views_map):
    g = results(parse(views_map.svg))[("views", 3)]
    strip = check_result(g, [2], [2], 0)
    assert strip == [(0, 1), (1, 0), (2, 1)]
    unread = [c for c in of_class(g, "storage-cell")
              if c.get("data-count") == "0"]
    assert [c.get("fill") for c in unread] == ["#ffffff"]


def test_copy_is_marked_at_the_users_line(views_map):
    root = parse(views_map.svg)
    copies = [g for g in root.iter(SVG + "g") if g.get("class") == "copy"]
    assert len(copies) == 1
    copy = copies[0]
    line = _copy_line()
    assert copy.get("data-op") == "layout.clone"
    assert copy.get("data-loc").startswith(os.path.abspath(__file__) + ":")
    assert copy.get("data-loc").split(":")[-2] == str(line)
    assert copy.get("data-kernel") == "transpose"
    label = " ".join(texts(copy))
    assert f"test_memory_map.py:{line}:" in label
    assert "layout.clone" in label and copy.get("data-reason") in label
    assert "(transpose" in label


def test_new_storage_result_is_marked_as_made_by_the_copy(views_map):
    root = parse(views_map.svg)
    by_result = results(root)
    g = by_result[("views", 4)]
    assert g.get("data-aliases") == "none"
    made = [e for e in g.iter(SVG + "g") if e.get("class") == "made-by-copy"]
    assert len(made) == 1
    header = " ".join(texts(g))
    assert "new storage" in header
    assert f"made by the copy layout.clone at test_memory_map.py:" \
           f"{_copy_line()}:" in header
    check_result(g, [5, 3], [3, 1], 0)
    for i in range(4):
        view = by_result[("views", i)]
        assert view.get("data-aliases") in ("0", "1")
        assert not [e for e in view.iter(SVG + "g")
                    if e.get("class") == "made-by-copy"]
        assert "a view of argument" in " ".join(texts(view))


def test_headers_give_the_layout(views_map):
    g = results(parse(views_map.svg))[("views", 2)]
    header = texts(g)[0]
    assert header == ("@views result 2: f32 sizes [3, 2] strides [1, 1] "
                      "offset 0")
    assert "a view of argument 0's storage" in texts(g)


def test_text_is_layoutcs_memory_map(views_map):
    program = layoutc.trace(views, torch.randn(4), torch.randn(3, 5)).mlir
    assert views_map.text == _toolchain.run_layoutc(
        program, ["--emit=memory-map"])
    assert str(views_map) == views_map.text


def test_save_writes_the_svg(views_map, tmp_path):
    path = tmp_path / "map.svg"
    views_map.save(path)
    assert path.read_text(encoding="utf-8") == views_map.svg
    parse(path.read_text(encoding="utf-8"))


# -- programs ---------------------------------------------------------------

PROGRAM = """\
func.func @prog(%x: !layout.tensor<4x3xf32>, %s: !layout.storage<40xf32>)
    -> (!layout.tensor<4x3xf32, strided<[-3, 1], offset: 9>>,
        !layout.tensor<f32, strided<[], offset: 5>>,
        !layout.tensor<3x4xf32, strided<[3, 2], offset: 1>>,
        !layout.tensor<2x3xf32>) {
  %f = layout.flip %x [0] : !layout.tensor<4x3xf32>
  %e = layout.select %x dim 0 index 1 : !layout.tensor<4x3xf32>
  %sc = layout.select %e dim 0 index 2 : !layout.tensor<3xf32, strided<[1], offset: 3>>
  %w = layout.as_strided %s [3, 4] strides [3, 2] offset 1 : !layout.storage<40xf32>
  %n = layout.slice %x dim 0 [1 : 3] : !layout.tensor<4x3xf32>
  %c = layout.clone %n : !layout.tensor<2x3xf32, strided<[3, 1], offset: 3>>
  return %f, %sc, %w, %c : !layout.tensor<4x3xf32, strided<[-3, 1], offset: 9>>, !layout.tensor<f32, strided<[], offset: 5>>, !layout.tensor<3x4xf32, strided<[3, 2], offset: 1>>, !layout.tensor<2x3xf32>
}
"""


@pytest.fixture(scope="module")
def program_map(tmp_path_factory):
    path = tmp_path_factory.mktemp("prog") / "prog.mlir"
    path.write_text(PROGRAM)
    return layoutc.memory_map(str(path)), str(path)


def test_negative_strides(program_map):
    g = results(parse(program_map[0].svg))[("prog", 0)]
    strip = check_result(g, [4, 3], [-3, 1], 9)
    assert strip == [(k, 1) for k in range(12)]
    assert index_cells(g)[(0, 0)] == 9 and index_cells(g)[(3, 2)] == 2


def test_scalar_view(program_map):
    g = results(parse(program_map[0].svg))[("prog", 1)]
    assert storage(g) == [(5, 1)]
    assert index_cells(g) == {(): 5}


def test_overlapping_as_strided(program_map):
    g = results(parse(program_map[0].svg))[("prog", 2)]
    strip = check_result(g, [3, 4], [3, 2], 1)
    assert strip[0] == (1, 1) and strip[-1] == (13, 1)
    assert [k for k, n in strip if n == 2] == [7]
    assert [k for k, n in strip if n == 0] == [2, 12]


def test_copy_in_a_program_file(program_map):
    mm, path = program_map
    root = parse(mm.svg)
    (copy,) = [g for g in root.iter(SVG + "g") if g.get("class") == "copy"]
    line = next(i for i, l in enumerate(PROGRAM.splitlines(), 1)
                if "layout.clone" in l)
    assert copy.get("data-loc").startswith(path + f":{line}:")
    assert f"prog.mlir:{line}:" in " ".join(texts(copy))
    g = results(root)[("prog", 3)]
    assert "made by the copy layout.clone at prog.mlir:" in \
        " ".join(texts(g))
    check_result(g, [2, 3], [3, 1], 0)
    assert mm.mlir == PROGRAM


def test_program_text_and_escaping(tmp_path):
    # A path with XML's special characters lands in the copy's location.
    path = tmp_path / "a&b<c>'\".mlir"
    path.write_text(PROGRAM)
    svg = layoutc.memory_map(str(path)).svg
    root = parse(svg)
    (copy,) = [g for g in root.iter(SVG + "g") if g.get("class") == "copy"]
    assert copy.get("data-loc").startswith(str(path) + ":")
    assert "a&b<c>'\".mlir:" in " ".join(texts(copy))
    # MLIR text gives the same drawing but for the file name.
    root2 = parse(layoutc.memory_map(PROGRAM).svg)
    assert [storage(g) for g in results(root2).values()] == \
        [storage(g) for g in results(root).values()]


def test_no_copies_and_several_functions():
    program = """\
func.func @one(%x: !layout.tensor<2x3xf32>) -> !layout.tensor<3x2xf32, strided<[1, 3]>> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2x3xf32>
  return %t : !layout.tensor<3x2xf32, strided<[1, 3]>>
}
func.func @two(%x: !layout.tensor<6xf32>) -> !layout.tensor<2x3xf32> {
  %v = layout.view %x [2, 3] : !layout.tensor<6xf32>
  return %v : !layout.tensor<2x3xf32>
}
"""
    root = parse(layoutc.memory_map(program).svg)
    assert set(results(root)) == {("one", 0), ("two", 0)}
    assert not [g for g in root.iter(SVG + "g") if g.get("class") == "copy"]
    assert "no copies" in texts(root)
    check_result(results(root)[("one", 0)], [3, 2], [1, 3], 0)
    check_result(results(root)[("two", 0)], [2, 3], [3, 1], 0)


def test_reduction_result():
    mm = layoutc.memory_map(lambda x: x.sum(1), torch.randn(3, 4))
    root = parse(mm.svg)
    (g,) = results(root).values()
    assert "made by the reduction at test_memory_map.py:" in \
        " ".join(texts(g))
    check_result(g, [3], [1], 0)


# -- render() directly: limits, large and odd views -------------------------

def report(sizes, strides, offset=0, aliases=0, copies=()):
    return {"functions": [{"name": "g", "results": [
        {"sizes": sizes, "strides": strides, "offset": offset,
         "dtype": "f32", "aliases": aliases, "contiguous": False,
         "channels_last": False}], "copies": list(copies), "kernels": []}]}


def only(svg):
    (g,) = results(parse(svg)).values()
    return g


def test_numpy_counts_match_brute_force():
    rng = np.random.default_rng(7)
    for _ in range(40):
        rank = int(rng.integers(0, 4))
        sizes = [int(s) for s in rng.integers(1, 5, rank)]
        strides = [int(s) for s in rng.integers(-4, 5, rank)]
        offset = sum(max(0, -(s - 1) * st) for s, st in zip(sizes, strides))
        g = only(render(report(sizes, strides, offset)))
        check_result(g, sizes, strides, offset)


def test_large_grid_is_truncated_with_a_note():
    g = only(render(report([10, 40, 50], [2000, 50, 1])))
    cells = index_cells(g)
    assert len(cells) <= 2048
    assert max(i[1] for i in cells) == 31 and max(i[2] for i in cells) == 31
    notes = [t for t in texts(g) if "truncated" in t]
    assert any("32 of 40 rows" in t and "32 of 50 columns" in t
               for t in notes)
    assert any("slices drawn" in t for t in notes)
    strip = storage(g)
    assert len(strip) == 1024
    assert strip == [(k, 1) for k in range(1024)]
    assert any("drawn up to storage element 1023 of 0\u202619999" in t
               for t in notes)
    for index, k in cells.items():
        assert k == index[0] * 2000 + index[1] * 50 + index[2]


def test_limits_are_keywords():
    svg = render(report([6, 7], [7, 1]), max_storage=10, max_rows=2,
                 max_cols=3)
    g = only(svg)
    assert len(storage(g)) == 10
    assert set(index_cells(g)) == {(r, q) for r in range(2) for q in range(3)}


def test_sparse_view_elides_unread_runs():
    g = only(render(report([5, 2], [1000000, 1])))
    strip = storage(g)
    assert strip == [(k * 1000000 + j, 1) for k in range(5) for j in (0, 1)]
    gaps = of_class(g, "storage-gap")
    assert [(int(e.get("data-offset")), int(e.get("data-length")))
            for e in gaps] == [(k * 1000000 + 2, 999998) for k in range(4)]
    assert any("elided" in t for t in texts(g))
    assert index_cells(g)[(4, 1)] == 4000001


def test_index_cells_outside_a_cut_strip_are_still_counted():
    # A broadcast over a long row: the strip is cut, the grid shows the row
    # twice, coloured as read twice.
    g = only(render(report([2, 5000], [0, 1])))
    assert storage(g) == [(k, 2) for k in range(1024)]
    fills = {c.get("fill") for c in of_class(g, "index-cell")}
    assert len(fills) == 1 and fills != {"#eeeeee"}


def test_huge_views_are_refused_quickly():
    start = time.monotonic()
    g = only(render(report([1 << 20, 1 << 20], [1 << 20, 1])))
    assert time.monotonic() - start < 5
    assert storage(g) == []
    assert any("storage strip not drawn" in t for t in texts(g))
    assert len(index_cells(g)) == 32 * 32
    g = only(render(report([3, 5], [1 << 61, 1 << 61])))
    assert storage(g) == []
    assert any("out of range" in t for t in texts(g))


def test_a_few_million_elements_are_counted():
    start = time.monotonic()
    g = only(render(report([4, 1000, 1000], [0, 1000, 1])))
    assert time.monotonic() - start < 20
    assert storage(g) == [(k, 4) for k in range(1024)]


def test_dynamic_and_empty_views():
    g = only(render(report([None, 3], [None, 1], None)))
    assert storage(g) == [] and index_cells(g) == {}
    assert "dynamic layout: no map" in texts(g)
    g = only(render(report([0, 3], [3, 1])))
    assert storage(g) == [] and index_cells(g) == {}
    assert "no elements" in texts(g)


def test_copy_band_without_mlir():
    copy = {"op": "layout.contiguous", "loc": "/x/y/m.py:12:5", "bytes": 96,
            "reason": "operand strides [1, 4] are not row-major",
            "kernel": "transpose"}
    root = parse(render(report([4, 3], [3, 1], aliases=None,
                               copies=[copy])))
    (band,) = [g for g in root.iter(SVG + "g") if g.get("class") == "copy"]
    assert " ".join(texts(band)) == (
        "copy: layout.contiguous at m.py:12:5 \u2014 operand strides [1, 4] "
        "are not row-major (transpose, 96 bytes)")
    (g,) = results(root).values()
    assert "made by a copy or reduction" in " ".join(texts(g))


def test_not_a_report():
    with pytest.raises(layoutc.LayoutcError):
        render({"no": "functions"})


def test_browser_renderer_accepts_it(views_map, tmp_path):
    # librsvg (librsvg2-bin, from scripts/install-deps.sh) renders SVG as
    # browsers do; a document it rejects would not display.
    import shutil
    tool = shutil.which("rsvg-convert")
    assert tool, "rsvg-convert is missing: run scripts/install-deps.sh"
    src = tmp_path / "m.svg"
    views_map.save(src)
    out = tmp_path / "m.png"
    subprocess.run([tool, str(src), "-o", str(out)], check=True)
    assert out.stat().st_size > 1000
