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

llvm_config.add_tool_substitutions(["layout-opt", "layoutc"],
                                   [config.layout_tools_dir])
