"""layoutc from Python: trace PyTorch functions into layout programs, explain
their copies, draw their memory maps, and compile them into kernels callable
on torch tensors and NumPy arrays. See docs/python.md.

    import torch, layoutc
    x = torch.randn(8, 3, 32, 32)
    to_nhwc = layoutc.compile(
        lambda t: t.contiguous(memory_format=torch.channels_last), x)
    y = to_nhwc(x)      # the same values and strides as the eager function
"""

from ._errors import LayoutcError, TraceError
from ._compile import CompiledFunction, CompiledProgram, compile
from ._report import Explain, MemoryMap, explain, memory_map
from ._trace import Traced, trace

__all__ = ["LayoutcError", "TraceError", "trace", "explain", "memory_map",
           "compile", "Traced", "Explain", "MemoryMap", "CompiledFunction",
           "CompiledProgram", "__version__"]

from ._config import VERSION as __version__
