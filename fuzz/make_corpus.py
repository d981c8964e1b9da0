#!/usr/bin/python3
"""Builds the seed corpus of the layout-program fuzz targets from the tests.

    fuzz/make_corpus.py CANDIDATES_DIR
    fuzz/make_corpus.py CANDIDATES_DIR --merge FUZZ_BINARY CORPUS_DIR

Collects small self-contained layout programs from test/**/*.mlir (split at
`// -----`), the .mlir sections of split-file tests (test/**/*.test),
bench/cases/*.mlir, examples/*.mlir and the ```mlir blocks of README.md and
docs/*.md: every top-level func.func on its own, plus every whole file or
section that holds several functions and fits the targets' input limit.
Comment lines (FileCheck and expected-error annotations) are dropped;
duplicates (up to whitespace) are written once, as
CANDIDATES_DIR/<source>-<function>.mlir.

With --merge, libFuzzer's -merge=1 (a binary of the LAYOUTC_FUZZ build)
keeps the candidates that add coverage and writes them, under the same
readable names, into CORPUS_DIR (which must not hold other files).
"""

import argparse
import hashlib
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
# kMaxProgramBytes in fuzz/ProgramFuzzer.h: larger inputs are refused.
MAX_BYTES = 4096


def strip_comments(text):
    return "\n".join(line for line in text.splitlines()
                     if not line.lstrip().startswith("//"))


def functions(text):
    """Top-level func.func ops of a program (inside a module or not)."""
    result = []
    depth = 0
    current = None
    base = 0
    for line in text.splitlines():
        stripped = line.lstrip()
        if current is None and stripped.startswith("func.func"):
            current, base = [], depth
        if current is not None:
            current.append(line)
        depth += line.count("{") - line.count("}")
        if current is not None and depth <= base:
            result.append("\n".join(current) + "\n")
            current = None
    return result


def function_name(program):
    match = re.search(r"func\.func\s+(?:\w+\s+)*@([\w$.]+)", program)
    return match.group(1) if match else "program"


def sources():
    """(name, program text) for every chunk of every source."""
    for path in sorted(ROOT.glob("test/**/*.mlir")) + sorted(
            ROOT.glob("bench/cases/*.mlir")) + sorted(
                ROOT.glob("examples/*.mlir")):
        rel = path.relative_to(ROOT)
        stem = "-".join(rel.with_suffix("").parts[1:])
        for i, chunk in enumerate(re.split(r"^// -----.*$",
                                           path.read_text(),
                                           flags=re.M)):
            yield (f"{stem}-{i}" if i else stem), chunk
    for path in sorted(ROOT.glob("test/**/*.test")):
        rel = path.relative_to(ROOT)
        stem = "-".join(rel.with_suffix("").parts[1:])
        parts = re.split(r"^(?:#|//)--- (\S+)$", path.read_text(), flags=re.M)
        for name, body in zip(parts[1::2], parts[2::2]):
            if name.endswith(".mlir"):
                yield f"{stem}-{pathlib.Path(name).stem}", body
    for path in [ROOT / "README.md"] + sorted(ROOT.glob("docs/*.md")):
        blocks = re.findall(r"^```mlir\n(.*?)^```", path.read_text(),
                            flags=re.M | re.S)
        for i, block in enumerate(blocks):
            yield f"{path.stem.lower()}-{i}", block


def candidates():
    seen = set()
    for name, chunk in sources():
        chunk = strip_comments(chunk)
        funcs = functions(chunk)
        programs = [(f"{name}-{function_name(f)}", f) for f in funcs]
        if len(funcs) > 1:
            programs.append((name, chunk.strip() + "\n"))
        for program_name, program in programs:
            key = " ".join(program.split())
            if not key or len(program) > MAX_BYTES or key in seen:
                continue
            seen.add(key)
            yield re.sub(r"[^\w.-]", "_", program_name), program


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("candidates", type=pathlib.Path)
    parser.add_argument("--merge", nargs=2, metavar=("FUZZ_BINARY", "CORPUS"))
    args = parser.parse_args()
    args.candidates.mkdir(parents=True, exist_ok=True)
    by_hash = {}
    names = set()
    for name, program in candidates():
        while name in names:
            name += "_"
        names.add(name)
        path = args.candidates / f"{name}.mlir"
        path.write_text(program)
        by_hash[hashlib.sha1(program.encode()).hexdigest()] = path
    print(f"{len(by_hash)} candidates in {args.candidates}")
    if not args.merge:
        return 0
    binary, corpus = args.merge
    corpus = pathlib.Path(corpus)
    corpus.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as merged:
        # libFuzzer names what it keeps by the SHA-1 of its contents.
        subprocess.run([binary, "-merge=1", "-max_len=%d" % MAX_BYTES,
                        "-timeout=10", merged, str(args.candidates)],
                       check=True)
        kept = 0
        for path in pathlib.Path(merged).iterdir():
            source = by_hash.get(path.name)
            if source is None:
                sys.exit(f"merge kept {path.name}, which is no candidate")
            shutil.copy(source, corpus / source.name)
            kept += 1
    print(f"{kept} kept in {corpus}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
