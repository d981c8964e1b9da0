#!/usr/bin/env python3
"""Writes the f16/bf16 conversion reference tables of HalfTest.cpp.

References: numpy's float16 for every f16 conversion (numpy rounds float64
straight to float16, no double rounding), torch's bfloat16 for bf16 <-> f32
(exact rational rounding below where torch is missing), and the exact
rounding for f64 -> bf16 (torch goes through f32 there and rounds twice,
unlike CUDA's __double2bfloat16). NaN is compared as a class: CUDA makes it
0x7fff, numpy and torch keep payloads.

Inputs: every one of the 65536 bit patterns for the widening direction; for
the narrowing direction, for every finite 16-bit value v with successor n (in
magnitude): v, the tie (v + n) / 2 and the neighbours of both in the source
precision (the inputs where rounding decides), plus random bit patterns.

Layout (little endian): b"LRTH", then six sections, each a u32 count N and
its arrays: f16->f32 (N u32), f32->f16 (N u32 in, N u16 out), f64->f16
(N u64 in, N u16 out), bf16->f32 (N u32), f32->bf16 (N u32, N u16),
f64->bf16 (N u64, N u16).
"""
import sys
from fractions import Fraction

import numpy as np

try:
    import torch
except ImportError:  # the exact rounding below is a reference too, only slower
    torch = None

RNG = np.random.default_rng(20261123)


def finite_values(dtype_bits, to_float64):
    """float64 values of all finite patterns and of their magnitude successors."""
    bits = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    vals = to_float64(bits)
    ok = np.isfinite(vals)
    bits, vals = bits[ok], vals[ok]
    succ = to_float64((bits + 1).astype(np.uint16))
    # The successor of the largest finite value is "one more ulp": the
    # threshold that rounds to infinity.
    top = ~np.isfinite(succ)
    ulp = np.abs(vals[top]) - np.abs(to_float64((bits[top] - 1).astype(np.uint16)))
    succ[top] = np.sign(vals[top]) * (np.abs(vals[top]) + ulp)
    return vals, succ


def candidates(vals, succ, ftype):
    vals = vals.astype(ftype)
    mid = ((vals.astype(np.float64) + succ) / 2).astype(ftype)
    out = [vals, mid]
    for x in (vals, mid):
        out.append(np.nextafter(x, ftype(np.inf)))
        out.append(np.nextafter(x, ftype(-np.inf)))
    return np.concatenate(out)


def f16_to_f64(bits):
    return bits.view(np.float16).astype(np.float64)


def bf16_to_f64(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def bf16_of_f32(x):
    if torch is None:
        return np.array([exact_bf16(v) for v in x], dtype=np.uint16)
    t = torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))
    return t.to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)


def exact_bf16(x):
    """Round-to-nearest-even of a float64 to bf16, by exact arithmetic."""
    if np.isnan(x):
        return 0x7FC0
    sign = 0x8000 if np.signbit(x) else 0
    if np.isinf(x):
        return sign | 0x7F80
    a = Fraction(abs(float(x)))
    if a == 0:
        return sign
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    q = max(e, -126) - 7  # exponent of the last place
    units = round(a / Fraction(2) ** q)  # Fraction rounds half to even
    value = units * Fraction(2) ** q
    if value >= Fraction(2) ** 128:
        return sign | 0x7F80
    f = np.float32(float(value))  # exact: value is a bf16 value
    return sign | (int(f.view(np.uint32)) >> 16 & 0x7FFF)


def random_f32(n):
    return RNG.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)


def random_f64(n, lo, hi):
    # Random patterns, and random values in the exponent range that matters.
    raw = RNG.integers(0, 2**63, n, dtype=np.int64).astype(np.uint64)
    raw ^= RNG.integers(0, 2, n, dtype=np.uint64) << np.uint64(63)
    pat = raw.view(np.float64)
    near = RNG.uniform(1, 2, n) * np.exp2(RNG.integers(lo, hi, n)).astype(np.float64)
    near *= np.where(RNG.integers(0, 2, n) == 1, -1.0, 1.0)
    return np.concatenate([pat, near])


SPECIALS32 = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-45, -1e-45,
                       3.4e38, -3.4e38], dtype=np.float32)


def main():
    out = sys.argv[1]
    sections = []

    # f16
    all16 = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    sections.append([all16.view(np.float16).astype(np.float32).view(np.uint32)])
    vals, succ = finite_values(16, f16_to_f64)
    in32 = np.concatenate([candidates(vals, succ, np.float32), random_f32(200000),
                           SPECIALS32, np.uint32([0x7F800001, 0xFFC00000]).view(np.float32)])
    sections.append([in32.view(np.uint32), in32.astype(np.float16).view(np.uint16)])
    in64 = np.concatenate([candidates(vals, succ, np.float64), random_f64(100000, -30, 20),
                           SPECIALS32.astype(np.float64)])
    sections.append([in64.view(np.uint64), in64.astype(np.float16).view(np.uint16)])

    # bf16
    sections.append([(all16.astype(np.uint32) << 16)])
    if torch is not None:
        assert np.array_equal(
            torch.from_numpy(all16.view(np.int16)).view(torch.bfloat16).float().numpy().view(np.uint32),
            sections[-1][0])
    vals, succ = finite_values(16, bf16_to_f64)
    in32 = np.concatenate([candidates(vals, succ, np.float32), random_f32(200000), SPECIALS32])
    sections.append([in32.view(np.uint32), bf16_of_f32(in32)])
    in64 = np.concatenate([candidates(vals, succ, np.float64), random_f64(50000, -140, 130),
                           SPECIALS32.astype(np.float64)])
    sections.append([in64.view(np.uint64),
                     np.array([exact_bf16(x) for x in in64], dtype=np.uint16)])

    with open(out, "wb") as f:
        f.write(b"LRTH")
        for arrays in sections:
            f.write(np.uint32(len(arrays[0])).tobytes())
            for a in arrays:
                f.write(np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes())


if __name__ == "__main__":
    # Overflow to inf and NaN casts are the point of the tables.
    with np.errstate(all="ignore"):
        main()
