#!/usr/bin/env python3
"""Writes a layout program of N distinct functions, for code generation
timing (bench/codegen/README.md).

Each function is drawn, with a fixed seed, from the kinds of work layout
programs do, with random shapes and dtypes, so no two kernels are alike:

  weight  kind
  25%     2-D transpose: contiguous(permute [1, 0])
  20%     rank-3/4 permute, then contiguous
  10%     strided gather: contiguous(x[..., ::k])
  20%     reduction: sum/mean/prod/amax/amin/argmax over some dims
  10%     dtype conversion of a dense tensor
   5%     clone (a dense copy)
  10%     views only (permute + slice, returned as a view: no kernel)

  bench/codegen/gen.py 5000 > big.mlir
  bench/codegen/gen.py --cases 5000 > heavy.mlir   # bench/cases, cycled
"""
import pathlib
import random
import re
import sys

CASES = pathlib.Path(__file__).resolve().parent.parent / "cases"
DTYPES = ["f32", "f16", "bf16", "f64", "i32", "i8"]
FLOATS = ["f32", "f16", "bf16", "f64"]


def row_major(sizes):
    strides, s = [], 1
    for n in reversed(sizes):
        strides.insert(0, s)
        s *= n
    return strides


def ty(sizes, dtype, strides=None):
    shape = "x".join(str(n) for n in sizes) + "x" if sizes else ""
    if strides is None or strides == row_major(sizes):
        return f"!layout.tensor<{shape}{dtype}>"
    return f"!layout.tensor<{shape}{dtype}, strided<[{', '.join(map(str, strides))}]>>"


def contiguous_of(name, sizes, dtype, view, vsizes, vstrides):
    """A function returning contiguous(`view` of a row-major %x), the view
    having sizes `vsizes` and strides `vstrides`."""
    return (f"func.func @{name}(%x: {ty(sizes, dtype)}) -> {ty(vsizes, dtype)} {{\n"
            f"  %v = {view} : {ty(sizes, dtype)}\n"
            f"  %c = layout.contiguous %v : {ty(vsizes, dtype, vstrides)}\n"
            f"  return %c : {ty(vsizes, dtype)}\n}}\n")


def permuted(rng, rank):
    while True:
        perm = list(range(rank))
        rng.shuffle(perm)
        if perm != sorted(perm):
            return perm


def transpose(rng, name, rank):
    dtype = rng.choice(DTYPES)
    hi = 1024 if rank == 2 else (128 if rank == 3 else 40)
    sizes = [rng.randint(2, hi) for _ in range(rank)]
    perm = permuted(rng, rank)
    st = row_major(sizes)
    psizes, pstrides = [sizes[p] for p in perm], [st[p] for p in perm]
    return contiguous_of(name, sizes, dtype,
                         f"layout.permute %x [{', '.join(map(str, perm))}]",
                         psizes, pstrides)


def gather(rng, name):
    dtype = rng.choice(DTYPES)
    rank = rng.randint(1, 3)
    sizes = [rng.randint(4, 512 if rank < 3 else 64) for _ in range(rank)]
    dim, step = rng.randrange(rank), rng.randint(2, 3)
    st = row_major(sizes)
    ssizes = list(sizes)
    ssizes[dim] = -(-sizes[dim] // step)
    sstrides = list(st)
    sstrides[dim] *= step
    return contiguous_of(name, sizes, dtype,
                         f"layout.slice %x dim {dim} [: : {step}]",
                         ssizes, sstrides)


def reduction(rng, name):
    dtype = rng.choice(FLOATS)
    rank = rng.randint(1, 3)
    sizes = [rng.randint(2, 1024 if rank == 1 else 256) for _ in range(rank)]
    kind = rng.choice(["sum", "mean", "prod", "amax", "amin", "argmax"])
    if kind == "argmax":
        dims = [rng.randrange(rank)]
    else:
        dims = sorted(rng.sample(range(rank), rng.randint(1, rank)))
    out = [n for i, n in enumerate(sizes) if i not in dims]
    odt = "i64" if kind == "argmax" else dtype
    return (f"func.func @{name}(%x: {ty(sizes, dtype)}) -> {ty(out, odt)} {{\n"
            f"  %r = layout.reduce {kind} %x dims [{', '.join(map(str, dims))}] : {ty(sizes, dtype)}\n"
            f"  return %r : {ty(out, odt)}\n}}\n")


def conversion(rng, name):
    src, dst = rng.sample(DTYPES, 2)
    sizes = [rng.randint(2, 256) for _ in range(rng.randint(1, 3))]
    return (f"func.func @{name}(%x: {ty(sizes, src)}) -> {ty(sizes, dst)} {{\n"
            f"  %c = layout.to %x {dst} : {ty(sizes, src)}\n"
            f"  return %c : {ty(sizes, dst)}\n}}\n")


def clone(rng, name):
    dtype = rng.choice(DTYPES)
    sizes = [rng.randint(2, 512) for _ in range(rng.randint(1, 3))]
    return (f"func.func @{name}(%x: {ty(sizes, dtype)}) -> {ty(sizes, dtype)} {{\n"
            f"  %c = layout.clone %x : {ty(sizes, dtype)}\n"
            f"  return %c : {ty(sizes, dtype)}\n}}\n")


def views(rng, name):
    dtype = rng.choice(DTYPES)
    sizes = [rng.randint(2, 64) for _ in range(3)]
    perm = permuted(rng, 3)
    st = row_major(sizes)
    psizes, pstrides = [sizes[p] for p in perm], [st[p] for p in perm]
    ssizes, sstrides = list(psizes), list(pstrides)
    ssizes[0] = -(-psizes[0] // 2)
    sstrides[0] *= 2
    return (f"func.func @{name}(%x: {ty(sizes, dtype)}) -> {ty(ssizes, dtype, sstrides)} {{\n"
            f"  %v = layout.permute %x [{', '.join(map(str, perm))}] : {ty(sizes, dtype)}\n"
            f"  %s = layout.slice %v dim 0 [: : 2] : {ty(psizes, dtype, pstrides)}\n"
            f"  return %s : {ty(ssizes, dtype, sstrides)}\n}}\n")


KINDS = [(25, lambda r, n: transpose(r, n, 2)),
         (20, lambda r, n: transpose(r, n, r.randint(3, 4))),
         (10, gather), (20, reduction), (10, conversion), (5, clone),
         (10, views)]


def mixed(n):
    rng = random.Random(20261126)
    weights = [w for w, _ in KINDS]
    out = [f"// {n} functions: bench/codegen/gen.py {n}\n"]
    for i in range(n):
        make = rng.choices([k for _, k in KINDS], weights)[0]
        out.append(make(rng, f"f{i}"))
    return out


def cycled_cases(n):
    funcs = []
    for path in sorted(CASES.glob("*.mlir")):
        for m in re.finditer(r"^func\.func @(\w+)\(.*?^}\n", path.read_text(),
                             re.M | re.S):
            funcs.append((m.group(1), m.group(0)))
    out = [f"// {n} functions cycling through the {len(funcs)} of bench/cases: "
           f"bench/codegen/gen.py --cases {n}\n"]
    for i in range(n):
        name, text = funcs[i % len(funcs)]
        out.append(text.replace(f"@{name}(", f"@f{i}_{name}(", 1))
    return out


def main():
    args = sys.argv[1:]
    cases = bool(args) and args[0] == "--cases"
    if cases:
        args = args[1:]
    if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
        sys.exit("usage: gen.py [--cases] N   (N >= 1 functions)")
    n = int(args[0])
    sys.stdout.write("\n".join(cycled_cases(n) if cases else mixed(n)))


if __name__ == "__main__":
    main()
