"""Writes a layout program of tensors above and at PyTorch's summarizing
threshold (1000 elements) and what torch prints for the same expressions on
torch.arange inputs; `layoutc --run` must print the same text.

  run_summary.py OUT_DIR   writes OUT_DIR/summary.mlir, OUT_DIR/expected.txt
"""
import os
import sys

import torch

DTYPES = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16,
          "i32": torch.int32, "i8": torch.int8, "i1": torch.bool}


def iota(dtype, shape):
    """What --run passes: storage element i holds i in the dtype."""
    n = 1
    for s in shape:
        n *= s
    if dtype == "i1":
        x = (torch.arange(n) % 2).bool()
    elif dtype == "i8":
        x = torch.arange(n).to(torch.int8)  # wraps, as --run's truncation
    else:
        x = torch.arange(n, dtype=torch.float32 if dtype == "f16" else None
                         ).to(DTYPES[dtype])
    return x.reshape(shape)


def ty(dtype, shape, strides=None):
    t = "x".join(map(str, shape)) + "x" + dtype
    if strides:
        t += ", strided<[" + ", ".join(map(str, strides)) + "]>"
    return "!layout.tensor<" + t + ">"


def main():
    out = sys.argv[1]
    funcs, expected = [], []
    # Clones: the printed tensor is the input.
    clones = [("f32", [2000]), ("f32", [1000]), ("f32", [30, 100]),
              ("i32", [10, 10, 20]), ("f16", [1001]), ("f32", [5, 300]),
              ("i8", [3, 4, 100]), ("f64", [7, 7, 7, 7]), ("i1", [40, 40]),
              ("f32", [2, 600]), ("f32", [1, 1001]), ("i32", [7, 1, 200])]
    for k, (dtype, shape) in enumerate(clones):
        t = ty(dtype, shape)
        funcs.append(f"func.func @clone{k}(%x: {t}) -> {t} {{\n"
                     f"  %c = layout.clone %x : {t}\n"
                     f"  return %c : {t}\n}}\n")
        expected.append(f"@clone{k} result 0: new tensor\n"
                        f"{iota(dtype, shape)}\n")
    # A strided view of the argument: x.t() of [40, 30].
    t, v = ty("f32", [40, 30]), ty("f32", [30, 40], [1, 30])
    funcs.append(f"func.func @view(%x: {t}) -> {v} {{\n"
                 f"  %t = layout.transpose %x 0, 1 : {t}\n"
                 f"  return %t : {v}\n}}\n")
    expected.append(f"@view result 0: view of argument 0\n"
                    f"{iota('f32', [40, 30]).t()}\n")
    # Fractional values: x.mean(1) of [1500, 2].
    t, r = ty("f32", [1500, 2]), ty("f32", [1500])
    funcs.append(f"func.func @mean(%x: {t}) -> {r} {{\n"
                 f"  %m = layout.reduce mean %x dims [1] : {t}\n"
                 f"  return %m : {r}\n}}\n")
    expected.append(f"@mean result 0: new tensor\n"
                    f"{iota('f32', [1500, 2]).mean(1)}\n")
    with open(os.path.join(out, "summary.mlir"), "w") as f:
        f.write("\n".join(funcs))
    with open(os.path.join(out, "expected.txt"), "w") as f:
        f.write("".join(expected))


if __name__ == "__main__":
    main()
