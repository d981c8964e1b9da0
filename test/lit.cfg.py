# -*- Python -*-
import os
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "LAYOUT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unit",
                   "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.layout_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.layout_tools_dir, append_path=True)

config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%layout_src", config.layout_src_root))
config.substitutions.append(("%layout_bin", config.layout_tools_dir))
config.substitutions.append(("%layout_rt_lib", config.layout_rt_lib))
config.substitutions.append(("%layout_rt_include", config.layout_rt_include))

# The PyTorch oracle is Debian's python3-torch, seen only by /usr/bin/python3.
if subprocess.call([config.python_executable, "-c", "import torch, numpy"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
    config.available_features.add("torch")

# Execution tests of code for AVX-512 targets (--mattr=+avx512f) need a CPU
# that runs it.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        if any(line.startswith("flags") and " avx512f" in line
               for line in cpuinfo):
            config.available_features.add("avx512f")
except OSError:
    pass

# taskset runs a test under a smaller CPU affinity mask (layout_rt's default
# thread count honours it); some sandboxes refuse to set the mask.
if subprocess.call(["taskset", "-c", "0", "true"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL) == 0:
    config.available_features.add("taskset")

llvm_config.add_tool_substitutions(["layout-opt", "layoutc",
                                    "layoutc-fuzz-pipeline",
                                    "layoutc-fuzz-codegen",
                                    "layoutc-fuzz-dlpack"],
                                   [config.layout_tools_dir])

# CUDA backend. nvcc: $CUDACXX, else /usr/local/cuda/bin/nvcc (what layoutc
# runs for --target=cuda --emit=obj); no GPU is needed to compile. The host
# emulation of layout_rt/cuda.h runs generated kernels without one.
nvcc = os.environ.get("CUDACXX") or "/usr/local/cuda/bin/nvcc"
if os.access(nvcc, os.X_OK):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc))
    cuda_home = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    config.substitutions.append(("%cuda_lib", os.path.join(cuda_home, "lib64")))
    cuobjdump = os.path.join(os.path.dirname(nvcc), "cuobjdump")
    if os.access(cuobjdump, os.X_OK):
        config.available_features.add("cuobjdump")
        config.substitutions.append(("%cuobjdump", cuobjdump))
    if os.path.exists(os.path.join(cuda_home, "lib64", "libcudart.so")):
        config.available_features.add("cudart")
cuda_emu_include = os.path.join(config.layout_src_root, "runtime", "cuda",
                                "include")
config.substitutions.append(("%cuda_emu_include", cuda_emu_include))
if os.path.exists(os.path.join(cuda_emu_include, "layout_rt", "cuda.h")):
    config.available_features.add("cuda-emu")
