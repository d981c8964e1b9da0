#!/usr/bin/env python3
"""The Python side of bench/overhead (run.py runs it with a build's package
on PYTHONPATH): each program of prog.mlir called through layoutc.compile on
torch tensors, and PyTorch's own copy_ into a preallocated destination for
the same copy. Prints `RESULT <program> <call> <median ns> <min ns>` like
driver.c, for the calls `python` and `torch_copy_`."""
import pathlib
import sys
import time

import torch

import layoutc

HERE = pathlib.Path(__file__).resolve().parent


def measure(program, call, fn, iterations, repeats):
    for _ in range(1000):  # warm-up
        fn()
    if iterations <= 0:
        n = 1000
        while True:
            t = time.perf_counter()
            for _ in range(n):
                fn()
            t = time.perf_counter() - t
            if t >= 0.01:
                break
            n *= 2
        iterations = int(n * 0.05 / t) + 1
    samples = []
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(iterations):
            fn()
        samples.append((time.perf_counter() - t) * 1e9 / iterations)
    samples.sort()
    print(f"RESULT {program} {call} {samples[len(samples) // 2]:.1f} "
          f"{samples[0]:.1f}", flush=True)


def main():
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    torch.set_num_threads(len(__import__("os").sched_getaffinity(0)))
    prog = layoutc.compile(HERE / "prog.mlir")
    x2, x1 = torch.arange(16.0).reshape(4, 4), torch.arange(16.0)
    x4 = torch.randn(8, 3, 32, 32)
    cases = {
        "transpose4x4": (prog.transpose4x4, x2, torch.empty(4, 4),
                         lambda d, x: d.copy_(x.t())),
        "copy16": (prog.copy16, x1, torch.empty(16),
                   lambda d, x: d.copy_(x)),
        "nhwc": (prog.nhwc, x4,
                 torch.empty(8, 3, 32, 32,
                             memory_format=torch.channels_last),
                 lambda d, x: d.copy_(x)),
    }
    for name, (f, x, dst, copy_) in cases.items():
        expected = copy_(dst, x).clone()
        got = f(x)
        if not torch.equal(got, expected) or got.stride() != expected.stride():
            sys.exit(f"python_calls.py: {name} gave a wrong result")
        measure(name, "python", lambda: f(x), iterations, repeats)
        measure(name, "torch_copy_", lambda: copy_(dst, x), iterations,
                repeats)


if __name__ == "__main__":
    main()
