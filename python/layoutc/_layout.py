"""The layout facts the package needs in Python, in one place and without
torch (compiled programs run on NumPy alone): row-major strides, the
elements a view spans, and the element types' names and DLPack codes."""

# NumPy dtype name -> layout element type; bfloat16 has no NumPy dtype.
NUMPY_DTYPES = {"bool": "i1", "int8": "i8", "int16": "i16", "int32": "i32",
                "int64": "i64", "uint8": "ui8", "float16": "f16",
                "float32": "f32", "float64": "f64"}
LAYOUT_TO_NUMPY = {v: k for k, v in NUMPY_DTYPES.items()}

# Layout element type -> DLPack (code, bits); i1 is layout_rt's LRT_DL_BOOL.
DL_CODES = {"i1": (6, 8), "i8": (0, 8), "i16": (0, 16), "i32": (0, 32),
            "i64": (0, 64), "ui8": (1, 8), "f16": (2, 16), "bf16": (4, 16),
            "f32": (2, 32), "f64": (2, 64)}


def row_major(sizes):
    """PyTorch's contiguous strides: size-0 dims count as 1."""
    strides, step = [], 1
    for s in reversed(sizes):
        strides.append(step)
        step *= max(s, 1)
    return strides[::-1]


def storage_size(sizes, strides):
    """Elements from a view's lowest to its highest element, inclusive: 0
    for a view without elements."""
    if any(s == 0 for s in sizes):
        return 0
    return 1 + sum((s - 1) * abs(st) for s, st in zip(sizes, strides))
