"""pytest configuration of the Python package's tests (test/python/).

Run from the repository root with the build's package on the path:

    PYTHONPATH=build/python /usr/bin/python3 -m pytest -q test/python

Kernels are cached in a temporary directory made for the session (removed
at its end), so that the tests neither read nor fill ~/.cache/layoutc; a
LAYOUTC_CACHE_DIR already set (scripts/test.sh sets one under the build
directory) is used as it is.
"""

import os
import shutil
import tempfile

_made = None


def pytest_configure(config):
    global _made
    if not os.environ.get("LAYOUTC_CACHE_DIR"):
        _made = tempfile.mkdtemp(prefix="layoutc-test-cache-")
        os.environ["LAYOUTC_CACHE_DIR"] = _made


def pytest_unconfigure(config):
    if _made is not None:
        os.environ.pop("LAYOUTC_CACHE_DIR", None)
        shutil.rmtree(_made, ignore_errors=True)
