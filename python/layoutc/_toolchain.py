"""Running layoutc and building loadable kernels, with the on-disk cache.

A program is compiled by the `layoutc` binary of the build this package
belongs to (`--emit=obj,header`), then linked by the system C compiler with
a small wrapper into a shared object that links the shared `layout_rt`, so
that every loaded kernel shares one thread pool. Shared objects are cached
under `$LAYOUTC_CACHE_DIR` (default `$XDG_CACHE_HOME/layoutc`, else
`~/.cache/layoutc`), keyed by the program text, the flags and the identity of
the compiler and runtime, as Triton caches its kernels.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile

from . import _config
from ._errors import LayoutcError


def layoutc_binary():
    """The layoutc executable: `$LAYOUTC`, else the one of this build."""
    return os.environ.get("LAYOUTC") or _config.LAYOUTC


def cache_dir():
    if os.environ.get("LAYOUTC_CACHE_DIR"):
        return os.environ["LAYOUTC_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "layoutc")


def run_layoutc(program, args, source=None):
    """Runs layoutc on `program` (MLIR text) or on the file `source`, and
    returns its standard output. A failure raises LayoutcError with layoutc's
    diagnostics, which name the program's locations."""
    cmd = [layoutc_binary(), source or "-", *args]
    try:
        proc = subprocess.run(cmd, input=None if source else program.encode(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        raise LayoutcError(f"cannot run layoutc ({cmd[0]}): {e}") from None
    if proc.returncode != 0:
        message = proc.stderr.decode(errors="replace").strip()
        raise LayoutcError(message or f"layoutc exited with {proc.returncode}")
    return proc.stdout.decode()


def explain_json(program, source=None, flags=()):
    return json.loads(run_layoutc(program, ["--emit=explain", *flags], source))


def _file_identity(path):
    try:
        st = os.stat(path)
        return f"{os.path.realpath(path)}:{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        return path


def _c_compiler():
    return os.environ.get("CC") or "cc"


# `lrt_status_t f(const DLTensor *x, DLTensor *result0, const
# lrt_exec_options_t *options);` in the generated header.
_PROTOTYPE = re.compile(
    r"^lrt_status_t (\w+)\(([^)]*)const lrt_exec_options_t \*options\);$",
    re.M)
_VIEW_OFFSET = re.compile(
    r"^static const int64_t (\w+)_result(\d+)_offset\b[^=]*= (-?\d+);$", re.M)


_PARAM = re.compile(r"(const )?DLTensor \*(\w+)")
# A dynamic function's `_view` reports and its `<f>_layouts`.
_VIEW_PARAM = re.compile(r"int32_t \*\w+_view\b")
_LAYOUTS = re.compile(
    r"^lrt_status_t (\w+)_layouts\([^)]*lrt_layout_t \*layouts\);$", re.M)


def _entry_points(header):
    """(name, [(written, parameter name)], number of `_view` reports) of
    each DLPack entry point, in the header's order; raw entry points
    (`<f>_raw`) are skipped. Arguments come first, then outputs
    (`result<N>`); arguments the function writes are the non-const ones."""
    entries = []
    for m in _PROTOTYPE.finditer(header):
        name = m.group(1)
        if name.endswith("_raw") and any(e[0] == name[:-4] for e in entries):
            continue
        entries.append((name, [(not const, p) for const, p in
                               _PARAM.findall(m.group(2))],
                        len(_VIEW_PARAM.findall(m.group(2)))))
    return entries


def _dynamic_functions(header):
    """The functions the header declares a `<f>_layouts` for."""
    return set(_LAYOUTS.findall(header))


def _is_output(param):
    return re.match(r"result\d+$", param) is not None


class Library:
    """A built shared object: `path`, and per function its number of
    DLPack tensor parameters (`params`) and of arguments among them
    (`arguments`), the arguments it writes (`written`), the packed entry
    point's symbol (`symbols`), a dynamic function's packed <f>_layouts
    (`layouts`), and each view result's offset in elements from its
    argument's first element (`view_offsets[(function, result)]`)."""

    def __init__(self, path, header, report):
        self.path = path
        self.report = report
        self.params = {}
        self.arguments = {}
        self.symbols = {}
        self.written = {}
        self.layouts = {}
        dynamic = _dynamic_functions(header)
        for i, (name, params, _) in enumerate(_entry_points(header)):
            self.params[name] = len(params)
            self.arguments[name] = sum(not _is_output(p) for _, p in params)
            self.symbols[name] = f"layoutc__packed_{i}"
            if name in dynamic:
                self.layouts[name] = f"layoutc__layouts_{i}"
            self.written[name] = tuple(
                k for k, (written, p) in enumerate(params)
                if written and not _is_output(p))
        self.view_offsets = {(m.group(1), int(m.group(2))): int(m.group(3))
                             for m in _VIEW_OFFSET.finditer(header)}

    def explain(self, function):
        """The explain record of `function` (--emit=explain)."""
        for f in self.report["functions"]:
            if f["name"] == function:
                return f
        raise KeyError(function)


def _load(directory):
    with open(os.path.join(directory, "kernels.h"), encoding="utf-8") as f:
        header = f.read()
    with open(os.path.join(directory, "explain.json"), encoding="utf-8") as f:
        report = json.load(f)
    return Library(os.path.join(directory, "kernels.so"), header, report)


def _wrapper_source(header_name, header):
    """One packed entry point per function: the DLPack entry point with its
    tensors in an array, so that the extension calls every function alike.
    Its names contain `__`, which layoutc rejects in function names, so they
    cannot clash with the program's."""
    lines = [f'#include "{header_name}"', ""]
    dynamic = _dynamic_functions(header)
    for i, (name, tensors, views) in enumerate(_entry_points(header)):
        params = "".join(f"(DLTensor *)lc__t[{k}], "
                         for k in range(len(tensors)))
        # A dynamic function's `_view` reports: layoutc.compile knows from
        # <f>_layouts which results are views, so it ignores them.
        reports = "".join(f"&lc__v[{k}], " for k in range(views))
        proto = (f"lrt_status_t layoutc__packed_{i}(void *const *lc__t, "
                 "const lrt_exec_options_t *lc__o)")
        lines += [proto + ";", proto + " {", "  (void)lc__t;"]
        if views:
            lines.append(f"  int32_t lc__v[{views}];")
        lines += [f"  return {name}({params}{reports}lc__o);", "}", ""]
        if name not in dynamic:
            continue
        args = "".join(f"(DLTensor *)lc__t[{k}], "
                       for k, (_, p) in enumerate(tensors)
                       if not _is_output(p))
        proto = (f"lrt_status_t layoutc__layouts_{i}(void *const *lc__t, "
                 "lrt_layout_t *lc__l)")
        lines += [proto + ";", proto + " {", "  (void)lc__t;",
                  f"  return {name}_layouts({args}lc__l);", "}", ""]
    return "\n".join(lines)


def build_library(program, flags=(), source=None):
    """Compiles `program` (or the file `source`) to a loadable shared object,
    or finds it in the disk cache. Returns a Library."""
    text = program if source is None else open(source, encoding="utf-8").read()
    key = hashlib.sha256("\0".join([
        "layoutc-kernel-v3", text, *flags,
        _file_identity(layoutc_binary()),
        _file_identity(os.path.join(_config.RUNTIME_LIB_DIR,
                                    "liblayout_rt.so")),
        _c_compiler()]).encode()).hexdigest()[:32]
    final = os.path.join(cache_dir(), key)
    so = os.path.join(final, "kernels.so")
    if os.path.exists(so):
        return _load(final)
    os.makedirs(cache_dir(), exist_ok=True)
    work = tempfile.mkdtemp(prefix="build-", dir=cache_dir())
    try:
        base = os.path.join(work, "kernels")
        if source is None:
            # Beside the kernels, where it stays: a diagnostic that points
            # into the program text (not at a traced op's user line) names a
            # file the user can open.
            source = os.path.join(cache_dir(), key + ".mlir")
            with open(source, "w", encoding="utf-8") as f:
                f.write(program)
        run_layoutc(None, ["--emit=obj,header", "-o", base, *flags], source)
        with open(base + ".h", encoding="utf-8") as f:
            header = f.read()
        with open(os.path.join(work, "explain.json"), "w",
                  encoding="utf-8") as f:
            f.write(run_layoutc(None, ["--emit=explain", *flags], source))
        with open(os.path.join(work, "packed.c"), "w", encoding="utf-8") as f:
            f.write(_wrapper_source("kernels.h", header))
        cmd = [_c_compiler(), "-shared", "-fPIC", "-O2", "-o", base + ".so",
               os.path.join(work, "packed.c"), base + ".o",
               "-I" + work, "-I" + _config.RUNTIME_INCLUDE_DIR,
               "-I" + _config.DLPACK_INCLUDE_DIR,
               "-L" + _config.RUNTIME_LIB_DIR, "-llayout_rt",
               "-Wl,-rpath," + _config.RUNTIME_LIB_DIR]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
        if proc.returncode != 0:
            raise LayoutcError("linking the kernels failed: " + " ".join(cmd) +
                               "\n" + proc.stdout.decode(errors="replace"))
        try:
            os.replace(work, final)  # atomic: another process may race us
        except OSError:
            if not os.path.exists(so):
                raise
        else:
            work = None
        return _load(final)
    finally:
        if work:
            shutil.rmtree(work, ignore_errors=True)
