"""Comparing a compiled function's call with the eager one.

`check_call(fn, compiled, make_args)` calls `fn` eagerly and `compiled` on
two fresh sets of equal arguments (so that each call writes its own
arguments) and asserts that they agree:

* the results' structure: None, one tensor, or a tuple (a list in eager);
* each result's dtype, shape and strides;
* aliasing: a result is a view of argument i in eager exactly when it is a
  view of argument i in the compiled call (same storage, same storage
  offset), and a new tensor otherwise; two results share storage in one
  call exactly when they do in the other;
* values: bit-exact (`torch.equal`, the same NaN positions, and for copies
  and conversions the same sign of zeros), except float sum, mean and
  prod, whose summation order may differ (see `TOLERANCE`);
* the arguments afterwards: their whole storages are equal, so `copy_`
  wrote the same elements in both and nothing else was written.
"""

import numpy as np
import torch

# Float sum and mean: |compiled - eager| <= TOLERANCE * eps * (|eager| + S),
# where eps is the machine epsilon of the result's dtype (f64 2.2e-16,
# f32 1.2e-7, f16 9.8e-4, bf16 7.8e-3) and S the same reduction of |x| in
# float64 (so cancellation is allowed for). prod: |compiled - eager| <=
# TOLERANCE * n * eps * |eager| with n the elements multiplied into each
# output. Non-finite values (NaN, +-inf) must be at the same positions.
TOLERANCE = 8
INEXACT = {"sum", "mean", "prod"}


def outputs(value):
    """(kind, list of tensors or arrays)."""
    if value is None:
        return "none", []
    if isinstance(value, (torch.Tensor, np.ndarray)):
        return "single", [value]
    if isinstance(value, (tuple, list)):
        return "tuple", list(value)
    raise AssertionError(f"unexpected result {type(value).__name__}")


def storage_id(t):
    return t._storage()._cdata


def base_of(t):
    while t._base is not None:
        t = t._base
    return t


def alias_index(result, args):
    for i, a in enumerate(args):
        if isinstance(a, torch.Tensor) and storage_id(a) == storage_id(result):
            return i
    return None


def same_values(e, c, exact_zero_sign=True):
    """Bit-exact comparison of two tensors of equal dtype and shape; returns
    a message or None."""
    if e.dtype.is_floating_point:
        en, cn = torch.isnan(e), torch.isnan(c)
        if not torch.equal(en, cn):
            return "NaN positions differ"
        e0, c0 = e.masked_fill(en, 0), c.masked_fill(cn, 0)
        if not torch.equal(e0, c0):
            return "values differ"
        if exact_zero_sign and not torch.equal(torch.signbit(e0), torch.signbit(c0)):
            return "signs of zeros differ"
        return None
    return None if torch.equal(e, c) else "values differ"


def close_values(e, c, kind, absref, count):
    """The tolerance of float sum, mean and prod (TOLERANCE)."""
    eps = torch.finfo(e.dtype).eps
    ed, cd = e.double(), c.double()
    efin, cfin = torch.isfinite(ed), torch.isfinite(cd)
    if not torch.equal(efin, cfin):
        return "non-finite positions differ"
    if not torch.equal(torch.isnan(ed), torch.isnan(cd)):
        return "NaN positions differ"
    inf = ~efin & ~torch.isnan(ed)
    if not torch.equal(ed[inf], cd[inf]):
        return "infinities differ"
    diff = (ed - cd).abs()[efin]
    if kind == "prod":
        bound = TOLERANCE * max(count, 1) * eps * ed.abs()[efin]
    else:
        bound = TOLERANCE * eps * (ed.abs() + absref.double().reshape(ed.shape))[efin]
    if not bool((diff <= bound).all()):
        worst = int((diff - bound).argmax())
        return (f"{kind}: |difference| {float(diff[worst])} above the tolerance "
                f"{float(bound[worst])} (eager {float(ed[efin][worst])})")
    return None


def describe(t):
    return (f"{tuple(t.shape)} strides {tuple(t.stride())} offset "
            f"{t.storage_offset()} {t.dtype}")


def compare_tensor(i, e, c, eager_args, compiled_args, tolerance=None,
                   exact_zero_sign=True):
    where = f"result {i}"
    assert isinstance(c, torch.Tensor), f"{where}: {type(c).__name__}, eager a tensor"
    assert c.dtype == e.dtype, f"{where}: dtype {c.dtype}, eager {e.dtype}"
    assert tuple(c.shape) == tuple(e.shape), \
        f"{where}: shape {tuple(c.shape)}, eager {tuple(e.shape)}"
    assert c.stride() == e.stride(), \
        f"{where}: strides {c.stride()}, eager {e.stride()} (shape {tuple(e.shape)})"
    ea, ca = alias_index(e, eager_args), alias_index(c, compiled_args)
    assert ea == ca, (f"{where}: aliases argument {ca}, eager argument {ea} "
                      f"(eager {describe(e)}, compiled {describe(c)})")
    if ea is not None:
        assert c.storage_offset() == e.storage_offset(), \
            f"{where}: storage offset {c.storage_offset()}, eager {e.storage_offset()}"
        # (data_ptr() is 0 for a tensor without elements.)
        assert c.numel() == 0 or (c.data_ptr() - compiled_args[ca].data_ptr() ==
                e.data_ptr() - eager_args[ea].data_ptr()), f"{where}: data pointers"
    # The tolerance is for the reduction's result (new storage), never for
    # a view returned beside it.
    inexact = tolerance is not None and ea is None and e.dtype.is_floating_point
    message = (close_values(e, c, *tolerance) if inexact
               else same_values(e, c, exact_zero_sign))
    assert message is None, f"{where}: {message}\neager:\n{e}\ncompiled:\n{c}"


def check_call(fn, compiled, make_args, tolerance=None, exact_zero_sign=True):
    """Calls both and compares (module docstring). `tolerance`: None, or
    (reduction kind, S, n) for float sum/mean/prod (close_values)."""
    eager_args, compiled_args = make_args(), make_args()
    eager = fn(*eager_args)
    got = compiled(*compiled_args)
    ek, eo = outputs(eager)
    ck, co = outputs(got)
    assert ck == ek, f"returned {ck}, eager {ek}"
    if ek == "tuple":
        assert isinstance(got, tuple), f"returned {type(got).__name__}, not a tuple"
    assert len(co) == len(eo), f"{len(co)} results, eager {len(eo)}"
    for i, (e, c) in enumerate(zip(eo, co)):
        compare_tensor(i, e, c, eager_args, compiled_args, tolerance, exact_zero_sign)
    for i in range(len(eo)):
        for j in range(i):
            shared_e = storage_id(eo[i]) == storage_id(eo[j])
            shared_c = storage_id(co[i]) == storage_id(co[j])
            assert shared_e == shared_c, (
                f"results {j} and {i}: {'' if shared_c else 'do not '}share "
                f"storage, in eager they {'do' if shared_e else 'do not'}")
    for i, (e, c) in enumerate(zip(eager_args, compiled_args)):
        eb, cb = base_of(e), base_of(c)
        message = same_values(eb.reshape(-1), cb.reshape(-1))
        assert message is None, f"argument {i} afterwards: {message}\neager:\n{e}\ncompiled:\n{c}"
    return eager, got


def reduction_tolerance(rf):
    """(kind, S, n) for RandomFunction `rf` ending in sum, mean or prod
    (close_values), else None."""
    if rf.ending.kind != "reduce" or rf.ending.op not in INEXACT:
        return None
    v = rf.chain_function()(*rf.make_args())
    absref = eval("v.double().abs()." + rf.ending.call, {"v": v, "torch": torch})
    count = v.numel() // max(absref.numel(), 1)
    return rf.ending.op, absref, count
