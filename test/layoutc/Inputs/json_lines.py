"""Checks that stdin is layoutc's --emit=explain JSON and prints it one fact
per line for FileCheck:

  function NAME
  result {"sizes": ..., "strides": ..., ...}      (json.dumps, keys in order)
  copy {"op": ..., "loc": ..., ...}
  kernel {"op": ..., "loc": ..., "strategy": ..., ...}  (with --kernels)

Exits non-zero when the JSON does not parse or a key is missing, extra or out
of the order docs/language.md lists them in.
"""
import json
import sys

RESULT_KEYS = ["sizes", "strides", "offset", "dtype", "aliases", "contiguous",
               "channels_last"]
COPY_KEYS = ["op", "loc", "bytes", "reason", "kernel"]
KERNEL_KEYS = ["op", "loc", "strategy", "loops", "vector_width", "tile",
               "parallel_dim", "chunks", "index_bits", "streaming_stores",
               "accumulator", "plan_source", "tuned_knobs"]
DYNAMIC_KERNEL_KEYS = ["loc", "strategy", "loops", "tiled_loops",
                       "square_edge", "vector_width", "parallel_dim", "accumulator", "chunks",
                       "index_bits", "plan_source"]


def expect_keys(obj, keys, what):
    if list(obj.keys()) != keys:
        sys.exit(f"{what} has keys {list(obj.keys())}, expected {keys}")


doc = json.load(sys.stdin)
expect_keys(doc, ["functions"], "document")
for func in doc["functions"]:
    # A function with dynamic layouts adds its symbolic section last.
    expect_keys(func, ["name", "results", "copies", "kernels"]
                + (["symbolic"] if "symbolic" in func else []), "function")
    if "symbolic" in func:
        expect_keys(func["symbolic"], ["symbols", "results", "copies",
                                       "checks", "kernels", "kernels_error"],
                    "symbolic")
        # Planned for every size, or null with the reason.
        kernels = func["symbolic"]["kernels"]
        if (kernels is None) == (func["symbolic"]["kernels_error"] is None):
            sys.exit(f"{func['name']}: kernels and kernels_error: one of them is null")
        for kernel in kernels or []:
            expect_keys(kernel, DYNAMIC_KERNEL_KEYS, "dynamic kernel")
    print("function", func["name"])
    for result in func["results"]:
        expect_keys(result, RESULT_KEYS, "result")
        print("result", json.dumps(result))
    for copy in func["copies"]:
        expect_keys(copy, COPY_KEYS, "copy")
        print("copy", json.dumps(copy))
    for kernel in func["kernels"]:
        expect_keys(kernel, KERNEL_KEYS, "kernel")
        if "--kernels" in sys.argv[1:]:
            print("kernel", json.dumps(kernel))
