#!/usr/bin/env python3
"""Checks that `layoutc --emit=explain` reports exactly the plans that
layout-plan-kernels attached (`#layout.plan` in `--emit=mlir`), kernel by
kernel, for every program given.

  explain_matches_plan.py --layoutc BIN [--flags "--mcpu=x86-64-v4"] PROG...

Prints one line per program ("<prog>: N kernels agree") and exits 1 on the
first disagreement, naming the kernel and the key.
"""
import argparse
import json
import re
import shlex
import subprocess
import sys


class Parser:
    """The attribute syntax MLIR prints inside #layout.plan<{...}>."""

    def __init__(self, text):
        self.s, self.i = text, 0

    def skip(self):
        while self.i < len(self.s) and self.s[self.i] in " \n":
            self.i += 1

    def eat(self, token):
        self.skip()
        if not self.s.startswith(token, self.i):
            raise ValueError(f"expected {token!r} at {self.s[self.i:self.i + 30]!r}")
        self.i += len(token)

    def value(self):
        self.skip()
        c = self.s[self.i]
        if c == "{":
            return self.dict()
        if c == "[":
            self.eat("[")
            items = []
            self.skip()
            while self.s[self.i] != "]":
                items.append(self.value())
                self.skip()
                if self.s[self.i] == ",":
                    self.i += 1
                self.skip()
            self.eat("]")
            return items
        if c == '"':
            end = self.s.index('"', self.i + 1)
            v = self.s[self.i + 1:end]
            self.i = end + 1
            return v
        if self.s.startswith("array<i64", self.i):
            end = self.s.index(">", self.i)
            body = self.s[self.i + len("array<i64"):end].lstrip(":")
            self.i = end + 1
            return [int(x) for x in body.split(",") if x.strip()]
        m = re.compile(r"(true|false|-?\d+)( : i64)?").match(self.s, self.i)
        if not m:
            raise ValueError(f"unknown value at {self.s[self.i:self.i + 30]!r}")
        self.i = m.end()
        return {"true": True, "false": False}.get(m.group(1), None) \
            if m.group(1) in ("true", "false") else int(m.group(1))

    def dict(self):
        self.eat("{")
        out = {}
        self.skip()
        while self.s[self.i] != "}":
            m = re.compile(r"[a-z_][a-z0-9_]*").match(self.s, self.i)
            key = m.group(0)
            self.i = m.end()
            self.eat("=")
            out[key] = self.value()
            self.skip()
            if self.s[self.i] == ",":
                self.i += 1
            self.skip()
        self.eat("}")
        return out


def plans_in(mlir):
    out = []
    for m in re.finditer(r"layout\.plan = #layout\.plan<", mlir):
        p = Parser(mlir)
        p.i = m.end()
        out.append(p.dict())
    return out


def expected_explain(plan):
    """What explain must say of a kernel with this plan."""
    strategy = plan["strategy"]
    if plan["convert"] and "accumulator" not in plan:
        strategy = "convert+" + strategy
    return {
        "strategy": strategy,
        "loops": [{"size": l[0], "src_stride": l[1], "dst_stride": l[2]}
                  for l in plan["loops"]],
        "vector_width": plan["vector_width"],
        "tile": plan["tile"] or None,
        "parallel_dim": plan.get("parallel_dim"),
        "chunks": plan["chunks"],
        "index_bits": plan["index_bits"],
        "streaming_stores": plan["streaming_stores"],
        "accumulator": plan.get("accumulator"),
        "plan_source": "tuned" if "tuned" in plan else "heuristic",
        "tuned_knobs": plan.get("tuned"),
    }


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}\n{proc.stderr}")
    return proc.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layoutc", required=True)
    ap.add_argument("--flags", default="")
    ap.add_argument("programs", nargs="+")
    args = ap.parse_args()
    flags = shlex.split(args.flags)
    for prog in args.programs:
        plans = plans_in(run([args.layoutc, prog, "--emit=mlir", *flags]))
        explain = json.loads(run([args.layoutc, prog, "--emit=explain", *flags]))
        kernels = [k for f in explain["functions"] for k in f["kernels"]]
        if len(kernels) != len(plans):
            sys.exit(f"FAIL {prog}: explain shows {len(kernels)} kernels, "
                     f"the IR has {len(plans)} plans")
        for n, (kernel, plan) in enumerate(zip(kernels, plans)):
            for key, want in expected_explain(plan).items():
                if kernel[key] != want:
                    sys.exit(f"FAIL {prog}: kernel {n} ({kernel['loc']}): "
                             f"explain says {key} = {kernel[key]!r}, the plan "
                             f"{want!r}")
        name = prog.rsplit("/", 1)[-1]
        print(f"{name}: {len(plans)} kernels agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
