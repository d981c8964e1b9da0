"""python3 -m layoutc (python/layoutc/__main__.py), run in a subprocess on
small scripts written to a temporary directory."""

import json
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

import pytest

import layoutc

PYTHONPATH = os.path.dirname(os.path.dirname(os.path.abspath(
    layoutc.__file__)))

SCRIPT = textwrap.dedent("""\
    import torch
    import helper

    def to_nhwc(x):
        return x.contiguous(memory_format=torch.channels_last)

    def views(x, y):
        return x.t(), y[::2]

    def bad_op(x):
        return x.sin()

    def raises(x):
        return helper.boom(x)

    not_a_function = 3

    if __name__ == "__main__":
        open(__file__ + ".main-ran", "w").close()
        raise SystemExit("the main block ran")
    """)

HELPER = textwrap.dedent("""\
    def boom(x):
        raise ValueError("no good")
    """)

PROGRAM = textwrap.dedent("""\
    func.func @transpose(%t: !layout.tensor<3x4xf32>)
        -> (!layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>) {
      %tt = layout.transpose %t 0, 1 : !layout.tensor<3x4xf32>
      %c = layout.contiguous %tt : !layout.tensor<4x3xf32, strided<[1, 4]>>
      return %tt, %c : !layout.tensor<4x3xf32, strided<[1, 4]>>, !layout.tensor<4x3xf32>
    }
    """)

NCHW = "torch.randn(2, 3, 4, 5)"


@pytest.fixture
def work(tmp_path):
    (tmp_path / "model.py").write_text(SCRIPT)
    (tmp_path / "helper.py").write_text(HELPER)
    (tmp_path / "prog.mlir").write_text(PROGRAM)
    return tmp_path


def run(work, *args):
    env = dict(os.environ)
    env["PYTHONPATH"] = PYTHONPATH + os.pathsep + env.get("PYTHONPATH", "")
    env["LAYOUTC_CACHE_DIR"] = str(work / "cache")
    # Another directory than the script's: loading must not depend on it.
    cwd = work / "elsewhere"
    cwd.mkdir(exist_ok=True)
    return subprocess.run([sys.executable, "-m", "layoutc", *map(str, args)],
                          cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=300)


def fails(proc, *needles):
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("layoutc: error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in proc.stderr
    return proc.stderr


def test_help():
    proc = subprocess.run([sys.executable, "-m", "layoutc", "--help"],
                          env={**os.environ, "PYTHONPATH": PYTHONPATH},
                          stdout=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 0
    for command in ("explain", "trace", "memory-map", "compile"):
        assert command in proc.stdout


def test_no_command_is_a_usage_error(work):
    proc = run(work)
    assert proc.returncode == 2
    assert "usage:" in proc.stderr


def test_explain(work):
    script = work / "model.py"
    proc = run(work, "explain", f"{script}:to_nhwc", "--example", NCHW)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("function to_nhwc:\n")
    assert "result 0: f32 sizes [2, 3, 4, 5] strides [60, 1, 15, 3]" in out
    assert "new storage" in out
    assert f"copy at {script}:5:" in out
    assert "layout.clone" in out
    assert not (work / "model.py.main-ran").exists()


def test_explain_json(work):
    proc = run(work, "explain", work / "model.py:to_nhwc", "-e", NCHW,
               "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    (function,) = report["functions"]
    assert function["name"] == "to_nhwc"
    assert function["results"][0]["strides"] == [60, 1, 15, 3]
    assert function["results"][0]["channels_last"] is True
    (copy,) = function["copies"]
    assert copy["loc"] == f"{work / 'model.py'}:5:12"


def test_explain_passes_layoutc_flags(work):
    proc = run(work, "explain", work / "prog.mlir", "--json",
               "--layoutc-arg=--no-opt")
    assert proc.returncode == 0, proc.stderr
    # --no-opt runs no pipeline: the contiguous is neither a copy nor a
    # kernel yet (docs/language.md lists only explicit copies then).
    assert json.loads(proc.stdout)["functions"][0]["kernels"] == []
    proc = run(work, "explain", work / "prog.mlir", "--json")
    (kernel,) = json.loads(proc.stdout)["functions"][0]["kernels"]
    assert kernel["strategy"] == "transpose"


def test_several_examples_and_numpy(work):
    proc = run(work, "explain", work / "model.py:views",
               "--example", "torch.randn(3, 4)",
               "--example", "np.zeros((6,), dtype=np.float64)")
    assert proc.returncode == 0, proc.stderr
    assert "result 0: f32 sizes [4, 3] strides [1, 4]" in proc.stdout
    assert "result 1: f64 sizes [3] strides [2]" in proc.stdout
    assert "no copies" in proc.stdout


def test_trace_prints_the_program(work):
    proc = run(work, "trace", work / "model.py:to_nhwc", "-e", NCHW)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("func.func @to_nhwc(%x: "
                                  "!layout.tensor<2x3x4x5xf32>)")
    assert "layout.clone %x channels_last" in proc.stdout
    assert f'loc("{work / "model.py"}":5:12)' in proc.stdout


def test_memory_map_text_and_svg(work):
    svg = work / "out" / "map.svg"
    svg.parent.mkdir()
    proc = run(work, "memory-map", work / "model.py:views",
               "-e", "torch.randn(3, 4)", "-e", "torch.randn(6)",
               "--svg", svg)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("@views result 0: sizes [4, 3], strides "
                                  "[1, 4], offset 0, f32, a view of argument "
                                  "0's storage\n")
    assert "@views result 1: sizes [3], strides [2]" in proc.stdout
    root = ET.parse(svg).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    cells = [e for e in root.iter("{http://www.w3.org/2000/svg}rect")
             if e.get("class") == "storage-cell"]
    # 12 elements of x, then elements 0..4 of y (every other one read).
    assert [c.get("data-count") for c in cells] == \
        ["1"] * 12 + ["1", "0", "1", "0", "1"]


def test_memory_map_without_svg_writes_nothing(work):
    proc = run(work, "memory-map", work / "prog.mlir")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("@transpose result 0:")
    assert sorted(p.name for p in (work / "elsewhere").iterdir()) == []


def test_mlir_file(work):
    proc = run(work, "explain", work / "prog.mlir")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("function transpose:\n")
    assert f"copy at {work / 'prog.mlir'}:4:" in proc.stdout
    svg = work / "prog.svg"
    proc = run(work, "memory-map", work / "prog.mlir", "--svg", svg)
    assert proc.returncode == 0, proc.stderr
    assert "layout.contiguous at prog.mlir:4:" in svg.read_text()


def test_compile(work):
    out = work / "build"
    proc = run(work, "compile", work / "model.py:to_nhwc", "-e", NCHW,
               "-o", out)
    assert proc.returncode == 0, proc.stderr
    names = sorted(p.name for p in out.iterdir())
    assert names == ["to_nhwc.h", "to_nhwc.mlir", "to_nhwc.o"]
    assert "to_nhwc(" in (out / "to_nhwc.h").read_text()
    assert (out / "to_nhwc.mlir").read_text().startswith("func.func @to_nhwc")
    assert (out / "to_nhwc.o").stat().st_size > 0
    assert proc.stdout.split() == [str(out / n) for n in
                                   ("to_nhwc.mlir", "to_nhwc.o", "to_nhwc.h")]


def test_compile_an_mlir_file(work):
    out = work / "build"
    proc = run(work, "compile", work / "prog.mlir", "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["prog.h", "prog.o"]
    assert "transpose(" in (out / "prog.h").read_text()


# -- errors ---------------------------------------------------------------

def test_missing_function(work):
    fails(run(work, "explain", work / "model.py:nope", "-e", NCHW),
          "has no function 'nope'")


def test_not_a_function(work):
    fails(run(work, "trace", work / "model.py:not_a_function", "-e", NCHW),
          "not_a_function is a int, not a function")


def test_missing_script(work):
    fails(run(work, "explain", work / "absent.py:f", "-e", NCHW),
          "absent.py: no such file")


def test_target_without_function(work):
    fails(run(work, "explain", work / "model.py", "-e", NCHW),
          "expected script.py:function")


def test_bad_example(work):
    fails(run(work, "explain", work / "model.py:to_nhwc", "-e",
              "torch.randn(2, 3"), "--example 'torch.randn(2, 3'",
          "SyntaxError")
    fails(run(work, "explain", work / "model.py:to_nhwc", "-e", "nope(1)"),
          "NameError")


def test_wrong_number_of_examples(work):
    fails(run(work, "explain", work / "model.py:to_nhwc"),
          "calling it on the examples raised TypeError")


def test_trace_error_names_the_users_line(work):
    err = fails(run(work, "explain", work / "model.py:bad_op", "-e", NCHW),
                "aten.sin.default has no layout equivalent")
    assert err.startswith(f"layoutc: error: {work / 'model.py'}:11: ")


def test_exception_in_the_function(work):
    fails(run(work, "trace", work / "model.py:raises", "-e", NCHW),
          "raised ValueError: no good", f"{work / 'helper.py'}:2")


def test_layoutc_error(work):
    (work / "broken.mlir").write_text("func.func @f(\n")
    fails(run(work, "memory-map", work / "broken.mlir"), "broken.mlir:")


def test_mlir_with_examples_or_trace(work):
    fails(run(work, "explain", work / "prog.mlir", "-e", NCHW),
          "takes no --example")
    fails(run(work, "trace", work / "prog.mlir"),
          "trace takes script.py:function")
    fails(run(work, "explain", work / "absent.mlir"),
          "absent.mlir: no such file")


def test_script_that_fails_to_load(work):
    (work / "broken.py").write_text("import torch\nraise RuntimeError('x')\n")
    fails(run(work, "trace", work / "broken.py:f", "-e", NCHW),
          "loading it raised RuntimeError: x")
