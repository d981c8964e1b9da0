#!/usr/bin/env python3
"""Negative ABI test: builds bad_dltensor.c against the code layoutc generates
for a small program and runs it (see bad_dltensor.c for the checks).  Prints
the C test's lines and its final `N passed, M failed`; exits non-zero on any
failure, including a build failure.  Needs no PyTorch.

  python3 test/execution/bad_dltensor.py --layoutc build/bin/layoutc \\
      --rt-lib build/runtime/liblayout_rt.a --rt-include runtime/include
"""

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

PROGRAM = """\
func.func @transpose_copy(%x: !layout.tensor<4x6xf32>) -> !layout.tensor<6x4xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x6xf32>
  %c = layout.contiguous %t : !layout.tensor<6x4xf32, strided<[1, 6], offset: 0>>
  return %c : !layout.tensor<6x4xf32>
}

func.func @two_outputs(%x: !layout.tensor<4x6xf32>) -> (!layout.tensor<6x4xf32>, !layout.tensor<4xf32>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4x6xf32>
  %c = layout.contiguous %t : !layout.tensor<6x4xf32, strided<[1, 6], offset: 0>>
  %s = layout.reduce sum %x dims [1] : !layout.tensor<4x6xf32>
  return %c, %s : !layout.tensor<6x4xf32>, !layout.tensor<4xf32>
}

func.func @copy_into(%dst: !layout.tensor<4x6xf32>, %src: !layout.tensor<6x4xf32>) {
  %t = layout.transpose %dst 0, 1 : !layout.tensor<4x6xf32>
  layout.copy %src, %t : !layout.tensor<6x4xf32>, !layout.tensor<6x4xf32, strided<[1, 6], offset: 0>>
  return
}
"""


def step(cmd) -> bool:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"FAIL `{' '.join(cmd)}` exited with {proc.returncode}:\n{proc.stdout}{proc.stderr}")
        return False
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layoutc", default="layoutc")
    parser.add_argument("--rt-lib", required=True, help="path of liblayout_rt.a")
    parser.add_argument("--rt-include", required=True, help="the runtime's include directory")
    parser.add_argument("--cc", default="cc")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    args = parser.parse_args(argv)
    args.cc = shlex.split(args.cc)  # may carry flags (sanitizers)
    layoutc = shutil.which(args.layoutc) or args.layoutc
    work = tempfile.mkdtemp(prefix="layout-bad-dltensor-")
    try:
        prog = os.path.join(work, "bad_prog.mlir")
        with open(prog, "w") as f:
            f.write(PROGRAM)
        exe = os.path.join(work, "bad_dltensor")
        ok = (step([layoutc, prog, "--emit=obj,header", "-o", os.path.join(work, "bad_prog")]) and
              step(args.cc + ["-std=c11", "-O1", "-Wall", "-I", work, "-I", args.rt_include,
                    os.path.join(HERE, "bad_dltensor.c"), os.path.join(work, "bad_prog.o"), args.rt_lib,
                    "-lpthread", "-lm", "-o", exe]))
        if not ok:
            print("0 passed, 1 failed")
            return 1
        proc = subprocess.run([exe], capture_output=True, text=True, timeout=120)
        sys.stdout.write(proc.stdout)
        if proc.returncode not in (0, 1) or not proc.stdout.rstrip().endswith("failed"):
            print(f"FAIL bad_dltensor crashed (exit {proc.returncode}): {proc.stderr}")
            print("0 passed, 1 failed")
            return 1
        return proc.returncode
    finally:
        if args.keep:
            print(f"work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
