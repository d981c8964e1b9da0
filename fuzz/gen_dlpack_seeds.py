#!/usr/bin/python3
"""Writes the seed corpus of layoutc-fuzz-dlpack.

    fuzz/gen_dlpack_seeds.py [OUT_DIR]   (default: fuzz/corpus/dlpack)

Each seed is a descriptor and its tensors in the input format documented at
the top of fuzz/FuzzDLPack.cpp: valid bindings (row-major, transposed,
flipped, broadcast inputs, in-place, LRT_ROLE_DISTINCT outputs, empty and
rank-0 tensors, CUDA), and each way a binding is refused (dtype, rank, size,
stride, device, NULL pointers, alignment, overflowing extents, ranges that
wrap the address space, overlaps, malformed descriptors).
"""

import pathlib
import struct
import sys

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
# kSpecials of FuzzDLPack.cpp, in order.
SPECIALS = [
    INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1, INT32_MIN, INT32_MAX,
    (1 << 32) - 1, 1 << 31, 1 << 32, 1 << 40, 1 << 61, 1 << 62, -(1 << 62),
    3037000499, 3037000500, 96, 127, 128, 255, 256, 1000, 4096, 65536,
    1 << 20, -1000, -4096
]
ANY_SIZE = -1
ANY_STRIDE = INT64_MIN
ROLE_INPUT, ROLE_WRITTEN, ROLE_OUTPUT, DISTINCT = 0, 1, 2, 16
INT, UINT, FLOAT, BFLOAT, BOOL = 0, 1, 2, 4, 6
CPU, CUDA = 1, 2
# dataAddress regions.
NULL, LOW, HEAP, TOP, REAL = range(5)


def value(v):
    if 0 <= v < 0x60:
        return bytes([v])
    if -32 <= v < 0:
        return bytes([v + 0x80])
    if v in SPECIALS:
        return bytes([0x80 + SPECIALS.index(v)])
    return b"\xff" + struct.pack("<q", v)


def rank(n):
    if 0 <= n < 8:
        return bytes([n])
    if 40 <= n <= 102:
        return bytes([0xc0 + n - 40])
    return b"\xff" + value(n)


def row_major(sizes):
    strides, running = [], 1
    for s in reversed(sizes):
        strides.insert(0, running)
        running *= max(s, 1)
    return strides


class Param:
    """One descriptor entry and the tensor passed for it."""

    def __init__(self, sizes, strides=None, role=ROLE_INPUT, dtype=(FLOAT, 32),
                 number=0, shape=None, tstrides="same", tdtype=None,
                 device=(CPU, 0), byte_offset=0, region=HEAP, offset=0,
                 lanes=None, null_tensor=False, null_shape=False,
                 null_strides=False, spec_lanes2=False, ndim=None,
                 tndim=None, raw_role=None, capacity=16):
        self.__dict__.update(locals())
        del self.__dict__["self"]
        if self.strides is None:
            self.strides = row_major(sizes)

    def encode(self):
        out = bytearray()
        if self.raw_role is not None:
            out += b"\x80" + value(self.raw_role)
        else:
            out.append((self.role & 3) | (0x10 if self.role & DISTINCT else 0))
        code, bits = self.dtype
        out += bytes([self.number, code, bits])
        ndim = len(self.sizes) if self.ndim is None else self.ndim
        out += rank(ndim)
        if 0 <= ndim <= 64:
            for v in self.sizes + self.strides:
                out += value(v)
        shape = self.sizes if self.shape is None else self.shape
        tstrides = self.strides if self.tstrides == "same" else self.tstrides
        if tstrides is None:
            tstrides = row_major(shape)
        tndim = len(shape) if self.tndim is None else self.tndim
        tflags = ((1 if self.null_tensor else 0) |
                  (2 if self.null_shape else 0) |
                  (4 if self.null_strides else 0) |
                  (16 if self.lanes is not None else 0) |
                  (32 if self.spec_lanes2 else 0))
        # Shape, strides and dtype from the descriptor entry when they match
        # it exactly (the usual case the fuzzer mutates from).
        from_spec = (self.tdtype is None and tndim == ndim and
                     0 <= ndim <= 64 and shape == self.sizes and
                     tstrides == self.strides)
        if from_spec:
            tflags |= 8
        out.append(tflags)
        if not from_spec:
            out += rank(tndim)
        out.append(self.device[0])
        out += value(self.device[1])
        if not from_spec:
            tcode, tbits = self.tdtype or self.dtype
            out += bytes([tcode, tbits])
        if self.lanes is not None:
            out += value(self.lanes)
        out += value(self.byte_offset)
        out.append(self.region)
        out += value(self.offset)
        if not from_spec:
            n = tndim if 0 <= tndim <= 64 else 0
            for v in (shape + [0] * n)[:n] + (tstrides + [0] * n)[:n]:
                out += value(v)
        out.append(self.capacity)
        return bytes(out)


def seed(params, cuda=False, null_name=False, version=None, bad_count=None,
         null_inputs=False):
    flags = ((1 if cuda else 0) | (2 if null_name else 0) |
             (4 if version is not None else 0) |
             (8 if bad_count is not None else 0) | (16 if null_inputs else 0))
    out = bytearray([flags, len(params)])
    for p in params:
        out += p.encode()
    if version is not None:
        out += value(version)
    if bad_count is not None:
        out += bytes(bad_count)
    return bytes(out)


def seeds():

    def inp(**kw):
        return Param([3, 4], **kw)

    def out(sizes=(4, 3), **kw):
        """An output 1 MiB above the inputs unless told otherwise."""
        kw = {"role": ROLE_OUTPUT, "offset": 1 << 20, **kw}
        return Param(list(sizes), **kw)
    yield "contiguous-copy", seed([inp(), out()])
    yield "transposed-input", seed([Param([4, 3], [1, 4]), out()])
    yield "null-strides", seed([inp(null_strides=True), out()])
    yield "flipped-input", seed([Param([3, 4], [-4, 1], offset=32), out()])
    yield "broadcast-input", seed([Param([5, 4], [0, 1]), out([5, 4])])
    yield "any-size-and-stride", seed([
        Param([ANY_SIZE, 4], [ANY_STRIDE, 1], shape=[7, 4], tstrides=[4, 1]),
        out()])
    yield "in-place", seed([
        Param([3, 4], role=ROLE_WRITTEN),
        Param([3, 4], number=1)])
    yield "in-place-identical-view", seed([
        Param([3, 4]), Param([3, 4], role=ROLE_WRITTEN, number=1)])
    yield "output-overlaps-input", seed([
        inp(), out(offset=16)])
    yield "output-stride-zero", seed([
        inp(), out(strides=[0, 1])])
    yield "output-interleaved", seed([
        inp(), out([2, 3], strides=[3, 2])])
    yield "distinct-output", seed([
        inp(), out([2, 3], strides=[3, 2], role=ROLE_OUTPUT | DISTINCT)])
    yield "distinct-input-malformed", seed([
        inp(role=ROLE_INPUT | DISTINCT), out()])
    yield "dtype-mismatch", seed([inp(tdtype=(FLOAT, 16)), out()])
    yield "bool-and-bf16", seed([
        Param([8], dtype=(BOOL, 8)), Param([8], dtype=(BFLOAT, 16),
                                           role=ROLE_OUTPUT, offset=4096)])
    yield "int-types", seed([
        Param([2, 2], dtype=(INT, 64)), Param([2, 2], dtype=(UINT, 8),
                                              role=ROLE_OUTPUT,
                                              offset=4096)])
    yield "vector-lanes", seed([inp(lanes=4), out()])
    yield "spec-lanes", seed([inp(spec_lanes2=True), out()])
    yield "zero-bits", seed([Param([3], dtype=(FLOAT, 0)), out()])
    yield "sub-byte-bits", seed([Param([3], dtype=(INT, 4)), out()])
    yield "rank-mismatch", seed([inp(shape=[12], tstrides=[1]), out()])
    yield "size-mismatch", seed([inp(shape=[3, 5], tstrides=[5, 1]), out()])
    yield "stride-mismatch", seed([inp(tstrides=[1, 3]), out()])
    yield "size-one-stride-ignored", seed([
        Param([1, 4], [4, 1], tstrides=[99, 1]), out([4, 1])])
    yield "device-mismatch", seed([inp(device=(CUDA, 0)), out()])
    yield "cuda-binding", seed([
        inp(device=(CUDA, 1)), out(device=(CUDA, 1))], cuda=True)
    yield "cuda-binding-cpu-tensor", seed([inp(), out()], cuda=True)
    yield "null-function-name", seed([inp(tdtype=(INT, 32)), out()],
                                     null_name=True)
    yield "null-tensor", seed([inp(null_tensor=True), out()])
    yield "null-shape", seed([inp(null_shape=True), out()])
    yield "null-data", seed([inp(region=NULL), out()])
    yield "null-data-empty", seed([
        Param([0, 4], region=NULL, byte_offset=4), out()])
    yield "empty-output", seed([inp(), out([0, 3], region=NULL)])
    yield "rank-0", seed([Param([]), Param([], role=ROLE_OUTPUT, offset=64)])
    yield "rank-64", seed([Param([1] * 64), out()])
    yield "rank-65", seed([inp(shape=[1] * 65, tstrides=[1] * 65), out()])
    yield "rank-65-descriptor", seed([Param([1] * 65), out()])
    yield "rank-negative", seed([inp(tndim=-1, shape=[], tstrides=[]),
                                 out()])
    yield "rank-int32-min", seed([inp(tndim=INT32_MIN, shape=[],
                                      tstrides=[]), out()])
    yield "negative-size", seed([inp(shape=[-3, 4], tstrides=[4, 1]),
                                 out()])
    yield "numel-overflow", seed([
        Param([ANY_SIZE, ANY_SIZE], [ANY_STRIDE, 1],
              shape=[1 << 32, 1 << 32], tstrides=[1, 1]), out()])
    yield "row-major-stride-overflow", seed([
        Param([ANY_SIZE] * 3, [ANY_STRIDE] * 3, shape=[1 << 40, 1 << 40, 2],
              tstrides=None, null_strides=True), out()])
    yield "extent-overflow", seed([
        Param([2], [ANY_STRIDE], tstrides=[INT64_MAX]), out()])
    yield "stride-int64-min", seed([
        inp(), out([2, 2], strides=[ANY_STRIDE, 1], tstrides=[INT64_MIN, 1])])
    yield "byte-offset-misaligned", seed([inp(byte_offset=2), out()])
    yield "byte-offset-huge", seed([inp(byte_offset=INT64_MAX - 3), out()])
    yield "byte-offset-above-int64", seed([inp(byte_offset=INT64_MIN), out()])
    yield "data-misaligned", seed([inp(offset=2), out()])
    yield "wraps-address-space", seed([inp(region=TOP), out()])
    yield "negative-stride-below-zero", seed([
        inp(), out([4], strides=[-1], region=LOW, offset=0)])
    yield "real-buffer", seed([
        inp(region=REAL), out(region=REAL, offset=64)])
    yield "real-buffer-overlap", seed([
        inp(region=REAL), out(region=REAL, offset=8)])
    yield "descriptor-version", seed([inp(), out()], version=2)
    yield "descriptor-count-high", seed([inp(), out()], bad_count=[0, 3])
    yield "descriptor-count-negative", seed([inp(), out()],
                                            bad_count=[1, 3])
    yield "descriptor-bad-role", seed([inp(raw_role=7), out()])
    yield "descriptor-bad-rank", seed([inp(ndim=-2), out()])
    yield "eight-params", seed(
        [Param([4], number=i, offset=i * 4096) for i in range(4)] +
        [Param([4], role=ROLE_OUTPUT, number=i, offset=(8 + i) * 4096)
         for i in range(4)])
    yield "overlap-null-inputs", seed([out(), inp()], null_inputs=True)
    yield "short-dtype-name", seed([inp(capacity=2), out(capacity=0)])
    yield "no-params", seed([])


def main():
    root = pathlib.Path(__file__).resolve().parent
    out_dir = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else (
        root / "corpus" / "dlpack")
    out_dir.mkdir(parents=True, exist_ok=True)
    names = []
    for name, data in seeds():
        (out_dir / f"{name}.bin").write_bytes(data)
        names.append(name)
    print(f"{len(names)} seeds in {out_dir}")


if __name__ == "__main__":
    main()
