"""Issues of the compiler (layoutc itself, not the Python package) that the
Python tests run into, each marked xfail with the reason until it is fixed
in dialect/ or compiler/. The tracer writes every op's result type out in
full (`-> type`), so that layoutc checks its inference against PyTorch's."""

import pytest

import layoutc

# %t's declared type has strides [7, 1]; layoutc infers [1, 4].
DECLARED = ('%t = layout.transpose %x 0, 1 : !layout.tensor<3x4xf32> -> '
            '!layout.tensor<4x3xf32, strided<[7, 1]>> loc("user.py":12:5)')
USED_LATER = f"""func.func @f(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<4x3xf32, strided<[7, 1]>>) {{
  {DECLARED}
  return %t : !layout.tensor<4x3xf32, strided<[7, 1]>> loc("user.py":13:5)
}}
"""
UNUSED = f"""func.func @f(%x: !layout.tensor<3x4xf32>) -> (!layout.tensor<3x4xf32>) {{
  {DECLARED}
  return %x : !layout.tensor<3x4xf32> loc("user.py":13:5)
}}
"""
EXPECTED = ("user.py:12:5: error: 'layout.transpose' op declared result type "
            "'!layout.tensor<4x3xf32, strided<[7, 1]>>' does not match the inferred type "
            "'!layout.tensor<4x3xf32, strided<[1, 4]>>'")


def test_declared_type_mismatch_unused_value():
    with pytest.raises(layoutc.LayoutcError) as info:
        layoutc.compile(UNUSED)
    assert EXPECTED in str(info.value)


@pytest.mark.xfail(strict=True, reason=(
    "layoutc: an op whose declared result type (`-> T`) differs from the inferred "
    "one is reported at the value's next use, by MLIR's parser ('use of value '%t' "
    "expects different type than prior uses'), located in the program text (for "
    "layoutc.compile the <key>.mlir kept in the kernel cache) instead of at the op's "
    "loc with the verifier's 'declared result type ... does not match the inferred "
    "type' (as when the value is unused): the custom parsers give the result the "
    "inferred type rather than the declared one"))
def test_declared_type_mismatch_reported_at_the_op():
    with pytest.raises(layoutc.LayoutcError) as info:
        layoutc.compile(USED_LATER)
    assert EXPECTED in str(info.value)
