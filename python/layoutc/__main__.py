"""python3 -m layoutc: trace, explain, draw and compile from the shell.

    python3 -m layoutc explain model.py:to_nhwc --example "torch.randn(8, 3, 32, 32)"
    python3 -m layoutc trace model.py:to_nhwc --example "torch.randn(8, 3, 32, 32)"
    python3 -m layoutc memory-map model.py:to_nhwc --example ... --svg map.svg
    python3 -m layoutc compile model.py:to_nhwc --example ... -o out/

`script.py:fn` names a function of a Python file (loaded by path, without
running its `if __name__ == "__main__":` block); explain, memory-map and
compile also take a layout program, a `.mlir` file, instead. Each
`--example` is a Python expression, evaluated with `torch` and `numpy` (as
`np` too) in scope, giving one argument's sizes, strides and dtype.
"""

import argparse
import importlib.util
import json
import os
import re
import sys

from ._errors import LayoutcError

_PROG = "python3 -m layoutc"
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*$")  # a program's function name


class _Fail(Exception):
    """An error the CLI reports as `layoutc: error: ...` (exit status 1)."""


def _exception_text(e):
    text = str(e)
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def _load_function(spec):
    """The function `fn` of `script.py:fn` (attributes may be dotted)."""
    if ":" not in spec:
        raise _Fail(f"{spec}: expected script.py:function or a .mlir file")
    path, _, attr = spec.rpartition(":")
    if not attr or not path:
        raise _Fail(f"{spec}: expected script.py:function")
    if not os.path.isfile(path):
        raise _Fail(f"{path}: no such file")
    directory = os.path.dirname(os.path.abspath(path))
    name = "__layoutc_script__"
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise _Fail(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module  # dataclasses and pickling look it up
    sys.path.insert(0, directory)  # the script's own imports
    try:
        module_spec.loader.exec_module(module)
    except SystemExit as e:
        raise _Fail(f"{path}: exited while loading (status {e.code})") \
            from None
    except BaseException as e:  # noqa: B902 - the user's module raised
        if isinstance(e, KeyboardInterrupt):
            raise
        raise _Fail(f"{path}: loading it raised {_exception_text(e)}") \
            from None
    obj = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise _Fail(f"{path} has no function {attr!r}") from None
    if not callable(obj):
        raise _Fail(f"{path}: {attr} is a {type(obj).__name__}, not a "
                    "function")
    return obj, attr.split(".")[-1]


def _where(e):
    """` (at file.py:12)`: the innermost frame of `e` outside torch and
    layoutc, or nothing."""
    import traceback
    import torch
    skip = tuple(os.path.dirname(m.__file__) + os.sep
                 for m in (torch, sys.modules[__package__]))
    frames = [f for f in traceback.extract_tb(e.__traceback__)
              if not f.filename.startswith(skip)]
    if not frames:
        return ""
    return f" (at {frames[-1].filename}:{frames[-1].lineno})"


def _examples(expressions):
    import numpy
    import torch
    scope = {"torch": torch, "numpy": numpy, "np": numpy}
    values = []
    for i, expr in enumerate(expressions):
        try:
            values.append(eval(expr, dict(scope)))  # noqa: S307 - by design
        except BaseException as e:  # noqa: B902
            if isinstance(e, KeyboardInterrupt):
                raise
            raise _Fail(f"--example {expr!r}: {_exception_text(e)}") from None
    return values


def _is_mlir(target):
    return target.endswith(".mlir")


def _program(args, command):
    """(MLIR text, .mlir path or None, function name) of the command's
    target: a traced function or a .mlir file."""
    if _is_mlir(args.target):
        if args.example:
            raise _Fail(f"{args.target}: a layout program takes no --example "
                        "(its arguments' layouts are in its signature)")
        if not os.path.isfile(args.target):
            raise _Fail(f"{args.target}: no such file")
        if command == "trace":
            raise _Fail(f"{args.target}: trace takes script.py:function (a "
                        ".mlir file is a program already)")
        with open(args.target, encoding="utf-8") as f:
            text = f.read()
        base = os.path.splitext(os.path.basename(args.target))[0]
        return text, args.target, base
    fn, attr = _load_function(args.target)
    examples = _examples(args.example)
    from ._trace import trace
    # The program's function is named after the attribute (lambdas too).
    name = attr if _IDENT.match(attr) and "__" not in attr else None
    try:
        traced = trace(fn, *examples, name=name)
    except LayoutcError:
        raise
    except BaseException as e:  # noqa: B902 - the user's function raised
        if isinstance(e, KeyboardInterrupt):
            raise
        raise _Fail(f"{args.target}: calling it on the examples raised "
                    f"{_exception_text(e)}{_where(e)}") from None
    return traced.mlir, None, traced.name


def _explain(args):
    from . import _toolchain
    from ._report import Explain
    text, path, _ = _program(args, "explain")
    flags = list(args.layoutc_arg)
    out = _toolchain.run_layoutc(None if path else text,
                                 ["--emit=explain", *flags], path)
    if args.json:
        sys.stdout.write(out)
    else:
        print(repr(Explain(json.loads(out), text)))


def _trace(args):
    text, _, _ = _program(args, "trace")
    sys.stdout.write(text)


def _memory_map(args):
    from ._report import memory_map
    text, path, _ = _program(args, "memory-map")
    mm = memory_map(path if path else text)
    sys.stdout.write(mm.text)
    if args.svg:
        try:
            mm.save(args.svg)
        except OSError as e:
            raise _Fail(f"{args.svg}: {e.strerror or e}") from None
        print(f"wrote {args.svg}", file=sys.stderr)


def _compile(args):
    from . import _toolchain
    text, path, name = _program(args, "compile")
    try:
        os.makedirs(args.output, exist_ok=True)
    except OSError as e:
        raise _Fail(f"{args.output}: {e.strerror or e}") from None
    base = os.path.join(args.output, name)
    if path is None:
        path = base + ".mlir"
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    _toolchain.run_layoutc(None, ["--emit=obj,header", "-o", base,
                                  *args.layoutc_arg], path)
    for suffix in (".mlir", ".o", ".h"):
        if os.path.exists(base + suffix):
            print(base + suffix)


def _parser():
    parser = argparse.ArgumentParser(
        prog=_PROG,
        description="Trace PyTorch functions into layout programs, explain "
        "their copies, draw their memory maps and compile them with layoutc.",
        epilog="TARGET is script.py:function (the script is loaded by path; "
        "its `if __name__ == \"__main__\":` block does not run) or, for "
        "explain, memory-map and compile, a layout program (.mlir). Each "
        "--example is a Python expression with torch and numpy (np) in "
        "scope, e.g. --example \"torch.randn(8, 3, 32, 32)\".")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def command(name, help_text, fn):
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("target", metavar="TARGET",
                       help="script.py:function" + (
                           "" if name == "trace" else " or program.mlir"))
        p.add_argument("--example", "-e", action="append", default=[],
                       metavar="EXPR",
                       help="an example argument, as a Python expression "
                       "(repeat for each argument, in order)")
        p.set_defaults(run=fn)
        return p

    p = command("explain", "print the explain report: each result's layout "
                "and every copy, with its reason and source line", _explain)
    p.add_argument("--json", action="store_true",
                   help="print layoutc's JSON (--emit=explain) instead")
    p.add_argument("--layoutc-arg", action="append", default=[],
                   metavar="FLAG", help="pass FLAG to layoutc, e.g. "
                   "--layoutc-arg=--no-opt (repeatable)")
    command("trace", "print the traced layout program (MLIR)", _trace)
    p = command("memory-map", "print the memory map (which storage element "
                "each logical index reads)", _memory_map)
    p.add_argument("--svg", metavar="FILE",
                   help="also write the memory map as an SVG drawing")
    p = command("compile", "compile to an object file and a C header",
                _compile)
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="write DIR/<function>.mlir, .o and .h")
    p.add_argument("--layoutc-arg", action="append", default=[],
                   metavar="FLAG", help="pass FLAG to layoutc, e.g. "
                   "--layoutc-arg=--mcpu=native (repeatable)")
    return parser


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        args.run(args)
    except (_Fail, LayoutcError) as e:
        sys.stdout.flush()
        print(f"layoutc: error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # e.g. | head
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
