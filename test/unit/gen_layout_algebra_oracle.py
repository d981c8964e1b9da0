#!/usr/bin/python3
"""Generates the PyTorch oracle table of LayoutAlgebraTest.cpp.

Run with Debian's interpreter, the one that sees python3-torch (PyTorch 1.13):

    /usr/bin/python3 test/unit/gen_layout_algebra_oracle.py > /tmp/oracle.inc

and paste the output between the "BEGIN ORACLE" / "END ORACLE" markers of
LayoutAlgebraTest.cpp. The cases are random but seeded, so the output is
reproducible. Each case applies one op to a random strided view (built with
as_strided over a large enough storage) and records the resulting sizes,
strides and storage offset, or that PyTorch raised.
"""

import random

import torch

FORMATS = [torch.contiguous_format, torch.channels_last,
           torch.channels_last_3d, torch.preserve_format]


def storage_for(sizes, strides, offset):
    if any(s == 0 for s in sizes):
        return torch.arange(offset + 1)
    n = offset + sum((s - 1) * st for s, st in zip(sizes, strides)) + 1
    return torch.arange(n)


def make(sizes, strides, offset):
    return storage_for(sizes, strides, offset).as_strided(sizes, strides,
                                                           offset)


def rand_size(r):
    x = r.randrange(12)
    return 0 if x == 0 else 1 if x < 4 else r.randint(2, 4)


def rand_layout(r, min_rank=0, max_rank=4, allow_empty=True):
    rank = r.randint(min_rank, max_rank)
    sizes = [rand_size(r) for _ in range(rank)]
    if not allow_empty:
        sizes = [max(s, 1) for s in sizes]
    # Dense in a random dim order, then perturbed.
    order = list(range(rank))
    r.shuffle(order)
    strides = [0] * rank
    running = 1
    for d in reversed(order):
        strides[d] = running
        running *= max(sizes[d], 1)
    for d in range(rank):
        x = r.random()
        if x < 0.15:
            strides[d] *= r.randint(2, 3)
        elif x < 0.22:
            strides[d] = 0
        elif x < 0.30:
            strides[d] = r.randint(0, 9)
    offset = r.choice([0, 0, 1, 3, 7])
    return sizes, strides, offset


def layout_of(t):
    return list(t.shape), list(t.stride()), t.storage_offset()


def same_storage(a, b):
    return a.storage().data_ptr() == b.storage().data_ptr()


def rand_dim(r, rank, extra=1):
    lo = -max(rank, 1) - extra
    hi = max(rank, 1) - 1 + extra
    return r.randint(lo, hi)


def cxx(v):
    return "{" + ", ".join(str(x) for x in v) + "}"


def emit(op, inp, args, result):
    sizes, strides, offset = inp
    if result is None:
        print("    {\"%s\", %s, %s, %d, %s, false, {}, {}, 0, -1},"
              % (op, cxx(sizes), cxx(strides), offset, cxx(args)))
        return
    (osz, ost, ooff), copies = result
    print("    {\"%s\", %s, %s, %d, %s, true, %s, %s, %d, %d},"
          % (op, cxx(sizes), cxx(strides), offset, cxx(args), cxx(osz),
             cxx(ost), ooff, copies))


def run(op, inp, args, fn):
    t = make(*inp)
    try:
        result = fn(t)
    except (RuntimeError, IndexError, ValueError, TypeError):
        result = None
    emit(op, inp, args, result)


def view_only(t, r):
    return layout_of(r), -1


def maybe_copy(t, r):
    return layout_of(r), 0 if same_storage(t, r) else 1


def rand_shape(r, numel, rank):
    """A shape for `numel` elements (sometimes wrong, sometimes with -1)."""
    shape = []
    rest = numel
    for _ in range(rank - 1):
        divisors = [d for d in range(1, 5) if rest % d == 0] if rest else [0, 1, 2]
        d = r.choice(divisors)
        shape.append(d)
        rest = rest // d if d else 0
    shape.append(rest)
    if r.random() < 0.3 and shape:
        shape[r.randrange(len(shape))] = -1
    if r.random() < 0.1 and shape:
        shape[r.randrange(len(shape))] += 1
    return shape


def main():
    r = random.Random(1913)
    n = 24
    for _ in range(40):
        inp = rand_layout(r)
        numel = 1
        for s in inp[0]:
            numel *= s
        shape = rand_shape(r, numel, r.randint(0, 4) if numel == 1 else
                           r.randint(1, 4))
        run("view", inp, shape, lambda t: view_only(t, t.view(shape)))
        run("reshape", inp, shape, lambda t: maybe_copy(t, t.reshape(shape)))
    for _ in range(n):
        inp = rand_layout(r)
        rank = len(inp[0])
        a, b = rand_dim(r, rank, 0), rand_dim(r, rank, 0)
        if r.random() < 0.1:
            a = rand_dim(r, rank, 1)
        run("flatten", inp, [a, b],
            lambda t: maybe_copy(t, t.flatten(a, b)))
    for _ in range(n):
        inp = rand_layout(r)
        rank = len(inp[0])
        perm = list(range(rank))
        r.shuffle(perm)
        perm = [p - rank if r.random() < 0.3 else p for p in perm]
        if r.random() < 0.1 and perm:
            perm[0] = perm[-1]
        run("permute", inp, perm, lambda t: view_only(t, t.permute(perm)))
    for _ in range(n):
        inp = rand_layout(r)
        rank = len(inp[0])
        a, b = rand_dim(r, rank), rand_dim(r, rank)
        run("transpose", inp, [a, b],
            lambda t: view_only(t, t.transpose(a, b)))
        run("movedim", inp, [a, b], lambda t: view_only(t, t.movedim(a, b)))
    for _ in range(2 * n):
        inp = rand_layout(r, 1)
        rank = len(inp[0])
        d = rand_dim(r, rank, 0)
        has_start, has_end = r.random() < 0.8, r.random() < 0.8
        start, end = r.randint(-6, 6), r.randint(-6, 6)
        step = r.choice([1, 1, 2, 3, 5])
        s0 = start if has_start else None
        e0 = end if has_end else None
        run("slice", inp,
            [d, int(has_start), start if has_start else 0, int(has_end),
             end if has_end else 0, step],
            lambda t: view_only(t, torch.ops.aten.slice(t, d, s0, e0, step)))
    for _ in range(n):
        inp = rand_layout(r)
        rank = len(inp[0])
        d, i = rand_dim(r, rank, 0), r.randint(-5, 4)
        run("select", inp, [d, i], lambda t: view_only(t, t.select(d, i)))
    for _ in range(n):
        inp = rand_layout(r)
        rank = len(inp[0])
        d, s, ln = rand_dim(r, rank, 0), r.randint(-4, 4), r.randint(0, 4)
        run("narrow", inp, [d, s, ln],
            lambda t: view_only(t, t.narrow(d, s, ln)))
    for _ in range(n):
        inp = rand_layout(r, 0, 3)
        sizes = inp[0]
        extra = r.randint(0, 2)
        target = [r.choice([1, 2, 3]) for _ in range(extra)]
        for s in sizes:
            x = r.random()
            target.append(-1 if x < 0.3 else r.randint(0, 3) if s == 1 and x < 0.7
                          else s)
        run("expand", inp, target, lambda t: view_only(t, t.expand(target)))
    for _ in range(n):
        inp = rand_layout(r)
        rank = len(inp[0])
        dims = [] if r.random() < 0.3 else [rand_dim(r, rank, 0)]
        run("squeeze", inp, dims,
            lambda t: view_only(t, t.squeeze(*dims)))
        d = r.randint(-rank - 1, rank)
        run("unsqueeze", inp, [d], lambda t: view_only(t, t.unsqueeze(d)))
    for _ in range(n):
        inp = rand_layout(r, 1)
        rank = len(inp[0])
        d = rand_dim(r, rank, 0)
        size = inp[0][d]
        parts = rand_shape(r, size, r.randint(1, 3))
        run("unflatten", inp, [d] + parts,
            lambda t: view_only(t, t.unflatten(d, parts)))
    for _ in range(n):
        inp = rand_layout(r, 2)
        rank = len(inp[0])
        off = r.randint(-4, 4)
        a, b = rand_dim(r, rank, 0), rand_dim(r, rank, 0)
        run("diagonal", inp, [off, a, b],
            lambda t: view_only(t, t.diagonal(off, a, b)))
    for _ in range(n):
        inp = rand_layout(r)
        rank = len(inp[0])
        d = rand_dim(r, rank, 0)
        size, step = r.randint(0, 4), r.randint(1, 3)
        run("unfold", inp, [d, size, step],
            lambda t: view_only(t, t.unfold(d, size, step)))
    for _ in range(n):
        inp = rand_layout(r, 1)
        rank = len(inp[0])
        d = rand_dim(r, rank, 0)
        size = inp[0][d]
        parts = []
        rest = size
        while rest > 0:
            p = r.randint(0, rest)
            parts.append(p)
            rest -= p
        if r.random() < 0.3:
            parts.append(0)
        if r.random() < 0.15:
            parts.append(1)

        # Split has several results: outSizes holds their sizes one after
        # the other, outStrides their strides followed by their offsets.
        t = make(*inp)
        try:
            outs = torch.split(t, parts, d)
            print("    {\"split\", %s, %s, %d, %s, true, %s, %s, %d, %d},"
                  % (cxx(inp[0]), cxx(inp[1]), inp[2], cxx([d] + parts),
                     cxx(sum((list(o.shape) for o in outs), [])),
                     cxx(sum((list(o.stride()) for o in outs), [])
                         + [o.storage_offset() for o in outs]),
                     0, -1))
        except (RuntimeError, IndexError):
            emit("split", inp, [d] + parts, None)
    for _ in range(n):
        inp = rand_layout(r, 3, 5)
        f = r.randrange(4)
        run("contiguous", inp, [f],
            lambda t: maybe_copy(t, t.contiguous(memory_format=FORMATS[f])))
        run("clone", inp, [f],
            lambda t: (layout_of(t.clone(memory_format=FORMATS[f])), 1))
        run("to", inp, [],
            lambda t: (layout_of(t.to(torch.float16)), 1))
    for _ in range(n):
        inp = rand_layout(r, 0, 3)
        sizes = inp[0]
        dst = [r.choice([1, 2, 3]) for _ in range(r.randint(0, 2))]
        for s in sizes:
            x = r.random()
            dst.append(r.randint(1, 3) if s == 1 and x < 0.5 else
                       r.randint(0, 3) if x < 0.1 else s)
        if r.random() < 0.1 and dst:
            dst = dst[1:]

        def bcast(t):
            torch.empty(dst, dtype=t.dtype).copy_(t)
            return layout_of(t.expand(dst)), -1
        run("broadcast", inp, dst, bcast)


if __name__ == "__main__":
    main()
