"""The README's first example is examples/python/nhwc.py, and it works."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def _first_python_block():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return re.search(r"```python\n(.*?)```", f.read(), re.S).group(1)


def test_readme_example_is_the_example_file():
    with open(os.path.join(ROOT, "examples", "python", "nhwc.py"),
              encoding="utf-8") as f:
        example = f.read()
    block = _first_python_block()
    lines = block.strip().splitlines()
    assert lines[0] == "import torch, layoutc"
    # From the import to the compiled conversion: at most 5 lines.
    compiled = next(i for i, l in enumerate(lines) if "to_nhwc(x)" in l)
    assert compiled + 1 <= 5
    # The example file runs the same lines (its checks follow them).
    for line in lines:
        code = line.split("  #")[0].rstrip()
        assert code in example


def test_example_runs(tmp_path):
    env = dict(os.environ, LAYOUTC_CACHE_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, os.path.join(ROOT, "examples", "python", "nhwc.py")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=True,
        cwd=ROOT).stdout.decode()
    assert out.startswith("(3072, 1, 96, 3) True\n")
    assert "layout.clone (transpose" in out
    assert "examples/python/nhwc.py:3:" in out
