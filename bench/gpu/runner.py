#!/usr/bin/env python3
"""The GPU runner: checks layoutc's CUDA launchers against PyTorch CUDA and
times them against the copy/read limits, on the GPU cases of
shared/bench/CASES.md (bench/gpu/README.md). Needs torch and the library
`scripts/gpu-bench.sh build` makes; no layoutc.

  runner.py --manifest M --lib L [--cases P1,R2] [--check-only]
            [--sizes small,odd,full] [--runs 20] [--warmup 3] [--json OUT]
  runner.py --manifest M --dry                 no GPU, no library: every
            DLTensor and reference view is built with torch on the CPU (meta
            tensors for the ~1 GiB sizes) and checked against the headers
  runner.py --manifest M --lib L --emulate     the host-emulation library:
            small sizes checked end to end on the CPU; timed only with
            --time-size (which exercises the timing code, nothing more)
  runner.py --manifest M --lib L --symbols-only   every launcher resolves;
            the device code (cubin/PTX per SM) the library holds

Before the cases, the limit kernels are checked; at the small sizes, bad
DLTensors must be rejected (see Checker). On a GPU the checks run on a
non-blocking side stream and the timing on the current stream.

Exit status: 0 when every check passed, 1 when one failed, 2 when the runner
cannot run (no GPU, bad arguments, missing files).
"""
import argparse
import contextlib
import ctypes
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import manifest as mf  # noqa: E402

K_DL_CPU = 1
K_DL_CUDA = 2

# layoutc dtype -> (torch dtype name, DLPack code, bits). i1 uses code 6,
# kDLBool of later DLPack versions (layout_rt/entry.h: LRT_DL_BOOL).
DTYPES = {
    "i1": ("bool", 6, 8), "i8": ("int8", 0, 8), "i16": ("int16", 0, 16),
    "i32": ("int32", 0, 32), "i64": ("int64", 0, 64), "ui8": ("uint8", 1, 8),
    "f16": ("float16", 2, 16), "bf16": ("bfloat16", 4, 16),
    "f32": ("float32", 2, 32), "f64": ("float64", 2, 64),
}
# Same-width integer types: copies are compared bit for bit through them.
BITS_AS = {8: "int8", 16: "int16", 32: "int32", 64: "int64"}

# Sums: |layoutc - float64 reference| <= SUM_RTOL * sum(|x|) over the reduced
# elements + eps(result dtype) * |reference|. SUM_RTOL is ~8 f32 ulps of the
# absolute sum: far above the rounding of any summation order, far below one
# missing or doubled element (|x| ~ 0.5 on average).
SUM_RTOL = 1e-6

# Cycles of torch.cuda._sleep before each timed call: the GPU is busy while
# the host enqueues the start event, the call and the end event, so a sample
# measures the GPU work and not the Python/ctypes launch overhead.
SLEEP_CYCLES = 2_000_000
# ~10 ms at GPU clocks: longer than any check's launch takes on the host.
STREAM_SLEEP_CYCLES = 20_000_000


class RunnerError(Exception):
    pass


def torch_dtype(torch, name):
    return getattr(torch, DTYPES[name][0])


# ---- DLPack through ctypes --------------------------------------------------

class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DL:
    """A DLTensor and the arrays its pointers point into (kept alive)."""

    def __init__(self, data, device_type, device_id, dtype, sizes, strides):
        code, bits = DTYPES[dtype][1], DTYPES[dtype][2]
        n = len(sizes)
        self.shape = (ctypes.c_int64 * max(n, 1))(*sizes)
        self.strides = (ctypes.c_int64 * max(n, 1))(*strides)
        self.t = DLTensor(ctypes.c_void_p(data or None),
                          DLDevice(device_type, device_id), n,
                          DLDataType(code, bits, 1), self.shape, self.strides,
                          0)

    def describe(self):
        """The DLTensor as the launcher reads it."""
        t = self.t
        return dict(device=t.device.device_type, ndim=t.ndim,
                    code=t.dtype.code, bits=t.dtype.bits, lanes=t.dtype.lanes,
                    sizes=[t.shape[i] for i in range(t.ndim)],
                    strides=[t.strides[i] for i in range(t.ndim)],
                    byte_offset=t.byte_offset)


def expected_description(param, device_type=K_DL_CUDA):
    return dict(device=device_type, ndim=len(param["sizes"]),
                code=DTYPES[param["dtype"]][1], bits=DTYPES[param["dtype"]][2],
                lanes=1, sizes=param["sizes"], strides=param["strides"],
                byte_offset=0)


class Library:
    """libgpucases.so: the launchers, layout_rt's status API and limits.cu."""

    GPUB = {
        "gpub_copy_u4": ([ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                          ctypes.c_void_p], ctypes.c_int),
        "gpub_memcpy_d2d": ([ctypes.c_void_p, ctypes.c_void_p,
                             ctypes.c_size_t, ctypes.c_void_p], ctypes.c_int),
        "gpub_read_sum": ([ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p,
                           ctypes.c_void_p], ctypes.c_int),
        "gpub_read_sum_rows": ([ctypes.c_void_p, ctypes.c_size_t,
                                ctypes.c_void_p, ctypes.c_void_p],
                               ctypes.c_int),
        "gpub_read_sum_scratch_floats": ([], ctypes.c_size_t),
        "gpub_error_string": ([ctypes.c_int], ctypes.c_char_p),
        "gpub_emulated": ([], ctypes.c_int),
        "gpub_malloc": ([ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t],
                        ctypes.c_int),
        "gpub_free": ([ctypes.c_void_p], ctypes.c_int),
        "gpub_memcpy": ([ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                         ctypes.c_int], ctypes.c_int),
        "gpub_synchronize": ([], ctypes.c_int),
        "lrt_status_message": ([ctypes.c_void_p], ctypes.c_char_p),
        "lrt_status_free": ([ctypes.c_void_p], None),
    }

    def __init__(self, path):
        if not os.path.isfile(path):
            raise RunnerError(f"{path} missing: run scripts/gpu-bench.sh "
                              f"build")
        try:
            self.lib = ctypes.CDLL(os.path.abspath(path))
        except OSError as e:
            raise RunnerError(f"cannot load {path}: {e}")
        for name, (args, res) in self.GPUB.items():
            f = self.symbol(name)
            f.argtypes, f.restype = args, res
            setattr(self, name, f)

    def symbol(self, name):
        try:
            return getattr(self.lib, name)
        except AttributeError:
            raise RunnerError(f"the library has no symbol {name}: rebuild it "
                              f"(scripts/gpu-bench.sh build)")

    def launcher(self, e):
        f = self.symbol(e["fn"])
        f.argtypes = [ctypes.POINTER(DLTensor)] * len(e["params"]) + [
            ctypes.c_void_p]
        f.restype = ctypes.c_void_p
        return f

    def call(self, f, dls, stream):
        """None on success, else the status message (the status is freed)."""
        status = f(*[ctypes.byref(d.t) for d in dls], ctypes.c_void_p(stream))
        if not status:
            return None
        message = self.lrt_status_message(status).decode(errors="replace")
        self.lrt_status_free(status)
        return message or "(error status with an empty message)"

    def check(self, what, err):
        if err:
            text = self.gpub_error_string(err).decode(errors="replace")
            raise RunnerError(f"{what}: {text}")


# ---- where the tensors live -------------------------------------------------

class CudaBackend:
    """Real GPU: torch CUDA tensors are the device memory, torch CUDA the
    reference."""
    name = "cuda"

    def __init__(self, torch, lib):
        self.torch, self.lib = torch, lib
        self.device = torch.device("cuda", torch.cuda.current_device())
        self.dl_device = (K_DL_CUDA, self.device.index)

    def stream(self):
        return self.torch.cuda.current_stream().cuda_stream

    def check_stream(self):
        """The checks run on a non-blocking side stream: see Checker.check."""
        if not hasattr(self, "side"):
            self.side = self.torch.cuda.Stream()
        return self.torch.cuda.stream(self.side)

    def upload(self, t):
        return t  # already on the GPU

    def empty(self, dtype, sizes, strides):
        return self.torch.empty_strided(sizes, strides, dtype=dtype,
                                        device=self.device)

    def ptr(self, t):
        return t.data_ptr()

    def download(self, t):
        return t

    def synchronize(self):
        self.torch.cuda.synchronize()

    def release(self, t):
        pass


class EmuBackend:
    """The host emulation: device memory is the emulator's cudaMalloc
    (gpub_malloc), which the launchers accept; torch on the CPU is the
    reference."""
    name = "emu"

    def __init__(self, torch, lib):
        self.torch, self.lib = torch, lib
        self.device = torch.device("cpu")
        self.dl_device = (K_DL_CUDA, 0)

    def stream(self):
        return 0

    def check_stream(self):
        # Every emulated launch runs to completion before it returns.
        return contextlib.nullcontext()

    class Buffer:
        def __init__(self, ptr, like):
            self.ptr, self.like = ptr, like

    def _alloc(self, like):
        p = ctypes.c_void_p()
        self.lib.check("cudaMalloc", self.lib.gpub_malloc(
            ctypes.byref(p), max(storage_bytes(like), 1)))
        return self.Buffer(p.value, like)

    def upload(self, t):
        buf = self._alloc(t)
        self.lib.check("cudaMemcpy H2D", self.lib.gpub_memcpy(
            buf.ptr, t.data_ptr(), storage_bytes(t), 1))
        return buf

    def empty(self, dtype, sizes, strides):
        like = self.torch.empty_strided(sizes, strides, dtype=dtype)
        return self._alloc(like)

    def ptr(self, buf):
        return buf.ptr

    def download(self, buf):
        out = self.torch.empty_strided(buf.like.shape, buf.like.stride(),
                                       dtype=buf.like.dtype)
        self.lib.check("cudaMemcpy D2H", self.lib.gpub_memcpy(
            out.data_ptr(), buf.ptr, storage_bytes(out), 0))
        return out

    def synchronize(self):
        self.lib.check("cudaDeviceSynchronize", self.lib.gpub_synchronize())

    def release(self, buf):
        if isinstance(buf, self.Buffer) and buf.ptr:
            self.lib.check("cudaFree", self.lib.gpub_free(buf.ptr))
            buf.ptr = None


def storage_bytes(t):
    """Bytes from t's first element to one past its last (strides >= 0)."""
    if t.numel() == 0:
        return 0
    last = sum((s - 1) * st for s, st in zip(t.shape, t.stride()))
    return (last + 1) * t.element_size()


# ---- cases in torch ---------------------------------------------------------

def random_input(torch, dtype, sizes, device, gen):
    if dtype.is_floating_point:
        # Uniform in [-1, 1), drawn in f32 and rounded to the dtype.
        return (torch.rand(sizes, generator=gen, device=device) * 2 - 1).to(
            dtype)
    if dtype == torch.bool:
        return torch.randint(0, 2, sizes, generator=gen, device=device).bool()
    info = torch.iinfo(dtype)
    return torch.randint(info.min, info.max + 1, sizes, generator=gen,
                         device=device, dtype=dtype)


def build_view(x, view):
    kind = view["kind"]
    if kind == "id":
        return x
    if kind == "permute":
        return x.permute(*view["perm"])
    if kind == "slice":
        index = [slice(None)] * x.dim()
        index[view["dim"]] = slice(None, None, view["step"])
        return x[tuple(index)]
    if kind == "expand":
        return x.expand(*view["sizes"])
    raise RunnerError(f"unknown view kind {kind!r} in the manifest")


def reference(torch, e, v):
    """PyTorch's result of the case on view v (f64 for sums)."""
    dout = torch_dtype(torch, e["result"]["dtype"])
    if e["action"] == "copy":
        r = v.contiguous()
        return r if r.dtype == dout else r.to(dout)
    dims = e["dims"]
    if e["action"] == "sum":
        return v.double().sum(dim=dims) if dims else v.double()
    if e["action"] == "amax":
        return v.amax(dim=dims)
    raise RunnerError(f"unknown action {e['action']!r} in the manifest")


def compare(torch, e, out, ref, v):
    """None when out is right, else what is wrong."""
    if list(out.shape) != list(ref.shape):
        return f"shape {list(out.shape)}, expected {list(ref.shape)}"
    if e["action"] == "sum":
        got = out.double()
        tol = SUM_RTOL * v.double().abs().sum(dim=e["dims"]) + \
            torch.finfo(out.dtype).eps * ref.abs()
        err = (got - ref).abs()
        bad = ~(err <= tol)  # NaN counts as bad
        if bad.any():
            i = int(bad.flatten().nonzero()[0])
            return (f"{int(bad.sum())} of {ref.numel()} sums outside the "
                    f"tolerance, e.g. flat index {i}: {got.flatten()[i]:.9g}"
                    f" vs {ref.flatten()[i]:.9g} (tolerance "
                    f"{tol.flatten()[i]:.3g})")
        return None
    # Copies, conversions and amax are exact: compare the bits.
    ibits = BITS_AS[out.element_size() * 8]
    a = out.contiguous().view(getattr(torch, ibits))
    b = ref.to(out.dtype).contiguous().view(getattr(torch, ibits))
    if not torch.equal(a, b):
        diff = (a != b).flatten()
        i = int(diff.nonzero()[0])
        return (f"{int(diff.sum())} of {a.numel()} elements differ, e.g. "
                f"flat index {i}: {out.flatten()[i].item()} vs "
                f"{ref.flatten()[i].item()}")
    return None


def sentinel_fill(torch, t):
    """Fills with a pattern no kernel writes for our inputs (NaN for floats),
    to see elements a kernel skipped or a rejected call wrote."""
    if t.dtype.is_floating_point:
        t.fill_(float("nan"))
    elif t.dtype == torch.bool:
        t.fill_(True)
    else:
        t.fill_(torch.iinfo(t.dtype).max)
    return t


class Checker:
    def __init__(self, torch, lib, backend, verbose_negatives=True):
        self.torch, self.lib, self.be = torch, lib, backend
        self.gen = torch.Generator(device=backend.device)
        self.gen.manual_seed(0)
        self.shown_negatives = not verbose_negatives
        self.negatives = 0

    def dl(self, ptr, p, device=None):
        dt, did = device or self.be.dl_device
        return DL(ptr, dt, did, p["dtype"], p["sizes"], p["strides"])

    def params_for(self, e, x_dev, out_dev):
        arg, res = e["params"]
        return [self.dl(self.be.ptr(x_dev), arg),
                self.dl(self.be.ptr(out_dev), res)]

    def negative(self, e, f, x_dev, out_dev, x_host):
        """Bad DLTensors must give an error status and write nothing."""
        arg, res = e["params"]
        good_out = self.dl(self.be.ptr(out_dev), res)
        wrong = "f16" if arg["dtype"] != "f16" else "f32"
        cases = [
            ("host tensor (kDLCPU)",
             self.dl(x_host.data_ptr(), arg, (K_DL_CPU, 0)), "device"),
            ("host pointer as kDLCUDA",
             self.dl(x_host.data_ptr(), arg), "device memory"),
            (f"wrong dtype ({wrong})",
             DL(self.be.ptr(x_dev), self.be.dl_device[0],
                self.be.dl_device[1], wrong, arg["sizes"], arg["strides"]),
             "dtype"),
        ]
        if arg["sizes"]:
            cases.append((
                "wrong size",
                DL(self.be.ptr(x_dev), self.be.dl_device[0],
                   self.be.dl_device[1], arg["dtype"],
                   [arg["sizes"][0] + 1] + arg["sizes"][1:], arg["strides"]),
                "size"))
        problems = []
        for what, bad, word in cases:
            msg = self.lib.call(f, [bad, good_out], self.be.stream())
            if msg is None:
                problems.append(f"{what}: accepted")
            elif word not in msg:
                problems.append(f"{what}: message without '{word}': {msg}")
            elif not self.shown_negatives:
                print(f"  negative check, {what}: {msg}")
            self.negatives += 1
        self.shown_negatives = True
        return problems

    def check(self, e):
        """(ok, note) for one entry: negatives, then the real call."""
        torch = self.torch
        f = self.lib.launcher(e)
        din = torch_dtype(torch, e["x"]["dtype"])
        x = random_input(torch, din, e["x"]["sizes"], self.be.device, self.gen)
        x_dev = self.be.upload(x)
        res = e["params"][1]
        out_dev = self.be.empty(torch_dtype(torch, res["dtype"]),
                                res["sizes"], res["strides"])
        try:
            init = sentinel_fill(torch, torch.empty_strided(
                res["sizes"], res["strides"],
                dtype=torch_dtype(torch, res["dtype"]), device=self.be.device))
            if self.be.name == "cuda":
                out_dev.copy_(init)
            else:
                self.lib.check("cudaMemcpy H2D", self.lib.gpub_memcpy(
                    out_dev.ptr, init.data_ptr(), storage_bytes(init), 1))
            problems = []
            # A launcher that wrongly accepted a host pointer would fault on
            # the GPU, so the bad calls use the small sizes only (the checks
            # do not depend on the size).
            if e["variant"] != "full":
                x_host = x.cpu() if x.is_cuda else x
                problems = self.negative(e, f, x_dev, out_dev, x_host)
            self.be.synchronize()
            after = self.be.download(out_dev)
            if not torch.equal(after.view(torch.uint8) if after.dim() else
                               after.reshape(1).view(torch.uint8),
                               init.view(torch.uint8) if init.dim() else
                               init.reshape(1).view(torch.uint8)):
                problems.append("a rejected call wrote the output")
            if problems:
                return False, "; ".join(problems)
            if self.be.name == "cuda":
                # The launcher must enqueue on the stream it is given (here
                # a non-blocking side stream): its input is rewritten on that
                # stream behind a ~10 ms sleep, so a kernel launched on any
                # other stream reads stale data and fails the comparison.
                fresh = random_input(torch, din, e["x"]["sizes"],
                                     self.be.device, self.gen)
                sleep = getattr(torch.cuda, "_sleep", None)
                if sleep is not None:
                    sleep(STREAM_SLEEP_CYCLES)
                x.copy_(fresh)  # x is x_dev on a GPU
                del fresh
            msg = self.lib.call(f, self.params_for(e, x_dev, out_dev),
                                self.be.stream())
            if msg is not None:
                return False, f"error status: {msg}"
            self.be.synchronize()
            out = self.be.download(out_dev)
            v = build_view(x, e["view"])
            bad = compare(torch, e, out, reference(torch, e, v), v)
            return (bad is None), (bad or "ok")
        finally:
            self.be.release(x_dev)
            self.be.release(out_dev)


def check_limits(torch, lib, be):
    """The limit kernels must do what they claim, or the ratios mean nothing:
    sizes with a tail that is not a whole vector. Returns problems."""
    gen = torch.Generator(device=be.device)
    gen.manual_seed(2)
    problems = []
    stream = be.stream()
    n = (1 << 20) + 13
    src = torch.randint(0, 256, (n,), dtype=torch.uint8, device=be.device,
                        generator=gen)
    s_dev = be.upload(src)
    for name, fn in (("gpub_copy_u4", lib.gpub_copy_u4),
                     ("gpub_memcpy_d2d", lib.gpub_memcpy_d2d)):
        d_dev = be.empty(torch.uint8, [n], [1])
        try:
            lib.check(name, fn(be.ptr(d_dev), be.ptr(s_dev), n, stream))
            be.synchronize()
            if not torch.equal(be.download(d_dev), src):
                problems.append(f"{name} did not copy {n} bytes")
        finally:
            be.release(d_dev)
    be.release(s_dev)
    count = (1 << 18) + 3
    floats = torch.rand(count, generator=gen, device=be.device) * 2 - 1
    f_dev = be.upload(floats)
    scratch = be.empty(torch.float32, [lib.gpub_read_sum_scratch_floats()],
                       [1])
    try:
        want = float(floats.double().sum())
        tol = SUM_RTOL * float(floats.double().abs().sum())
        for name in ("gpub_read_sum", "gpub_read_sum_rows"):
            lib.check(name, getattr(lib, name)(
                be.ptr(f_dev), count * 4 + 2, be.ptr(scratch), stream))
            be.synchronize()
            got = float(be.download(scratch)[0])
            if not abs(got - want) <= tol:
                problems.append(f"{name} gave {got}, expected {want}")
    finally:
        be.release(f_dev)
        be.release(scratch)
    return problems


# ---- timing -----------------------------------------------------------------

def time_calls(torch, be, fn, runs, warmup):
    """Seconds per call: (median, min, max) of `runs` samples. On a GPU,
    CUDA events around each call on the current stream; under the emulation
    (which runs every launch to completion) the host clock."""
    for _ in range(warmup):
        fn()
    be.synchronize()
    if be.name != "cuda":
        samples = []
        for _ in range(runs):
            t0 = time.perf_counter()
            fn()
            be.synchronize()
            samples.append(time.perf_counter() - t0)
        return statistics.median(samples), min(samples), max(samples)
    sleep = getattr(torch.cuda, "_sleep", None)
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    for s, t in zip(starts, ends):
        if sleep is not None:
            sleep(SLEEP_CYCLES)
        s.record()
        fn()
        t.record()
    torch.cuda.synchronize()
    samples = [s.elapsed_time(t) * 1e-3 for s, t in zip(starts, ends)]
    return statistics.median(samples), min(samples), max(samples)


def time_case(torch, lib, be, e, runs, warmup):
    """{impl: (median, min, max)} for layoutc, PyTorch and the limit, and the
    limit's kind."""
    t = time_impls(torch, lib, be, e, runs, warmup)
    # The case's tensors are gone: the limit has the memory to itself.
    if be.name == "cuda":
        torch.cuda.empty_cache()
    t["limit"], kind = time_limit(torch, lib, be, e, runs, warmup)
    return t, kind


def time_impls(torch, lib, be, e, runs, warmup):
    din = torch_dtype(torch, e["x"]["dtype"])
    dout = torch_dtype(torch, e["result"]["dtype"])
    gen = torch.Generator(device=be.device)
    gen.manual_seed(1)
    x = random_input(torch, din, e["x"]["sizes"], be.device, gen)
    v = build_view(x, e["view"])
    arg, res = e["params"]
    out = torch.empty_strided(res["sizes"], res["strides"], dtype=dout,
                              device=be.device)
    x_dev, out_dev = be.upload(x), be.empty(dout, res["sizes"],
                                            res["strides"])
    f = lib.launcher(e)
    dt, did = be.dl_device
    dls = [DL(be.ptr(x_dev), dt, did, arg["dtype"], arg["sizes"],
              arg["strides"]),
           DL(be.ptr(out_dev), dt, did, res["dtype"], res["sizes"],
              res["strides"])]
    stream = be.stream()

    def layoutc():
        msg = lib.call(f, dls, stream)
        if msg is not None:
            raise RunnerError(f"{e['fn']}: {msg}")

    try:
        t = {"layoutc": time_calls(torch, be, layoutc, runs, warmup)}
    finally:
        be.release(x_dev)
        be.release(out_dev)
    dims = e["dims"]
    if e["action"] == "copy":
        t["torch copy_"] = time_calls(torch, be, lambda: out.copy_(v), runs,
                                      warmup)
        if dout == din:
            alloc = v.contiguous
        else:
            def alloc():
                return v.to(dout, memory_format=torch.contiguous_format)
        t["torch alloc"] = time_calls(torch, be, alloc, runs, warmup)
    else:
        op = torch.sum if e["action"] == "sum" else torch.amax
        t["torch copy_"] = time_calls(
            torch, be, lambda: op(v, dim=dims, out=out), runs, warmup)
        t["torch alloc"] = time_calls(torch, be, lambda: op(v, dim=dims),
                                      runs, warmup)
    return t


def time_limit(torch, lib, be, e, runs, warmup):
    """The copy limit (copies) or the read limit (reductions) for e's bytes
    (check_limits has verified the kernels)."""
    stream = be.stream()
    if e["action"] != "copy":
        n = max(e["bytes_read"] // 16 * 16, 16)
        src = be.upload(torch.ones(n // 4, dtype=torch.float32,
                                   device=be.device))
        scratch = be.empty(torch.float32,
                           [lib.gpub_read_sum_scratch_floats()], [1])

        def read(fn):
            return lambda: lib.check("read limit", fn(
                be.ptr(src), n, be.ptr(scratch), stream))

        try:
            a = time_calls(torch, be, read(lib.gpub_read_sum), runs, warmup)
            b = time_calls(torch, be, read(lib.gpub_read_sum_rows), runs,
                           warmup)
            return (a, "rd") if a[0] <= b[0] else (b, "rw")
        finally:
            be.release(src)
            be.release(scratch)
    # The same traffic as the case: n bytes read and n bytes written.
    n = max(e["bytes"] // 2 // 16 * 16, 16)
    src = be.empty(torch.uint8, [n], [1])
    dst = be.empty(torch.uint8, [n], [1])

    def u4():
        lib.check("uint4 copy", lib.gpub_copy_u4(be.ptr(dst), be.ptr(src), n,
                                                 stream))

    def mc():
        lib.check("cudaMemcpyAsync", lib.gpub_memcpy_d2d(
            be.ptr(dst), be.ptr(src), n, stream))

    try:
        a = time_calls(torch, be, u4, runs, warmup)
        b = time_calls(torch, be, mc, runs, warmup)
    finally:
        be.release(src)
        be.release(dst)
    return (a, "u4") if a[0] <= b[0] else (b, "mc")


def fatbin_images(path):
    """{"cubin sm_80": count, "ptx sm_90": count, ...} in a library's
    .nv_fatbin section (read directly: cuobjdump is not in every toolkit).
    The section is a run of fat binaries: a 16-byte header (magic
    0xba55ed50, version, header size, payload size), then entries with a
    kind (1 PTX, 2 cubin), their header size and size, and the SM at 28."""
    import struct
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "fatbin")
        r = subprocess.run(["objcopy", "-O", "binary",
                            "--only-section=.nv_fatbin", path, raw],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode != 0 or not os.path.exists(raw):
            raise RunnerError(f"cannot read .nv_fatbin of {path}: "
                              f"{r.stderr.decode(errors='replace').strip()}")
        with open(raw, "rb") as f:
            data = f.read()
    images = {}
    start = 0
    while start + 16 <= len(data):
        magic, _, header, size = struct.unpack_from("<IHHQ", data, start)
        if magic != 0xBA55ED50:
            start += 8  # fat binaries are 8-byte aligned in the section
            continue
        off, end = start + header, start + header + size
        while off + 32 <= end:
            kind, _, entry_header, entry_size = struct.unpack_from(
                "<HHIQ", data, off)
            arch = struct.unpack_from("<I", data, off + 28)[0]
            name = {1: "ptx", 2: "cubin"}.get(kind, f"kind{kind}")
            key = f"{name} sm_{arch}"
            images[key] = images.get(key, 0) + 1
            off += entry_header + entry_size
        start = end
    return images


# ---- modes ------------------------------------------------------------------

def select(entries, ids, sizes):
    known = {e["id"] for e in entries}
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise RunnerError(f"unknown case(s) {','.join(unknown)}; the manifest "
                          f"has {','.join(sorted(known))}")
    return [e for e in entries
            if (not ids or e["id"] in ids) and e["variant"] in sizes]


def headers_of(manifest_path, entries):
    d = os.path.dirname(os.path.abspath(manifest_path))
    out = {}
    for h in sorted({e["header"] for e in entries}):
        try:
            with open(os.path.join(d, h)) as f:
                out[h] = mf.parse_header(f.read())
        except (OSError, mf.HeaderError) as err:
            raise RunnerError(f"{h}: {err}")
    return out


def dry(torch, entries, manifest_path):
    """Everything but the calls, on the CPU: returns the failure count."""
    headers = headers_of(manifest_path, entries)
    gen = torch.Generator()
    gen.manual_seed(0)
    fails = 0
    for e in entries:
        problems = []
        params = headers[e["header"]].get(e["fn"])
        if params != e["params"]:
            problems.append(f"header declares {params}, manifest says "
                            f"{e['params']}")
        problems += mf.check_entry(e, e["params"])
        # The ~1 GiB sizes on the meta device: layouts without memory.
        device = "meta" if e["variant"] == "full" else "cpu"
        din = torch_dtype(torch, e["x"]["dtype"])
        if device == "meta":
            x = torch.empty(e["x"]["sizes"], dtype=din, device="meta")
        else:
            x = random_input(torch, din, e["x"]["sizes"], "cpu", gen)
        if list(x.stride()) != e["x"]["strides"]:
            problems.append(f"x strides {list(x.stride())}")
        v = build_view(x, e["view"])
        if [list(v.shape), list(v.stride())] != [e["view"]["sizes"],
                                                 e["view"]["strides"]]:
            problems.append(f"torch's view is {list(v.shape)} strides "
                            f"{list(v.stride())}, manifest "
                            f"{e['view']['sizes']} strides "
                            f"{e['view']['strides']}")
        ref = reference(torch, e, v)
        res = e["result"]
        if list(ref.shape) != res["sizes"]:
            problems.append(f"torch's result has shape {list(ref.shape)}, "
                            f"the launcher {res['sizes']}")
        want = torch_dtype(torch, res["dtype"])
        if e["action"] != "sum" and ref.dtype != want:
            problems.append(f"torch's result is {ref.dtype}, the launcher "
                            f"{want}")
        if e["action"] == "sum" and device == "cpu":
            # The tolerance must pass torch's own f32/f16 sum and reject
            # the sum with one element dropped.
            own = v.sum(dim=e["dims"]) if e["dims"] else v
            if compare(torch, e, own.to(want), ref, v) is not None:
                problems.append("torch's own sum fails the tolerance")
            if e["dims"]:
                idx = [slice(None)] * v.dim()
                idx[e["dims"][0]] = slice(1, None)
                short = v[tuple(idx)].double().sum(dim=e["dims"]).to(want)
                if compare(torch, e, short, ref, v) is None:
                    problems.append("the tolerance accepts a sum with "
                                    "elements dropped")
        for p, t in zip(e["params"], [x, torch.empty_strided(
                res["sizes"], res["strides"], dtype=want, device=device)]):
            d = DL(t.data_ptr() if device == "cpu" else 0, K_DL_CUDA, 0,
                   p["dtype"], list(t.shape), list(t.stride()))
            if d.describe() != expected_description(p):
                problems.append(f"{p['name']}: DLTensor {d.describe()}, "
                                f"expected {expected_description(p)}")
        if problems:
            fails += 1
            print(f"dry: {e['fn']}: FAIL: " + "; ".join(problems))
    print(f"dry: {len(entries)} functions, {fails} failed")
    return fails


def fmt_rate(b, t):
    return f"{b / t / 1e9:8.1f}"


def print_table(rows, device_name):
    print(f"\nDevice: {device_name}. GB/s = (bytes read + written; "
          f"reductions: read) / median time; ratio = GB/s / limit GB/s.")
    head = (f"{'case':<5} {'size':<5} {'kernel':<20} {'MB':>7} "
            f"{'limit GB/s':>14} {'layoutc':>8} {'ratio':>6} "
            f"{'torch copy_':>11} {'ratio':>6} {'torch alloc':>11} "
            f"{'ratio':>6}  check")
    print(head)
    print("-" * len(head))
    noisy = []
    for r in rows:
        e = r["entry"]
        line = (f"{e['id']:<5} {e['variant']:<5} "
                f"{'+'.join(e['kernels'])[:20]:<20} {e['bytes'] / 1e6:7.0f} ")
        t = r.get("times")
        if t:
            lim = e["bytes"] / t["limit"][0]
            line += f"{fmt_rate(e['bytes'], t['limit'][0])} ({r['kind']}) "
            for impl in ("layoutc", "torch copy_", "torch alloc"):
                med, lo, hi = t[impl]
                rate = e["bytes"] / med
                w = 8 if impl == "layoutc" else 11
                line += f"{rate / 1e9:{w}.1f} {rate / lim:6.2f} "
                if hi / lo > 1.25:
                    noisy.append(f"{e['fn']} {impl}: {lo * 1e3:.3f}-"
                                 f"{hi * 1e3:.3f} ms")
        else:
            line += f"{r.get('time_note', 'not timed'):>76} "
        line += f" {r['check']}"
        print(line)
    if noisy:
        print("noisy (slowest/fastest > 1.25), min-max:")
        for n in noisy:
            print("  " + n)


def main():
    ap = argparse.ArgumentParser(
        description="GPU runner of layoutc's CUDA backend")
    ap.add_argument("--manifest", default=os.path.join(
        HERE, "generated", "manifest.json"))
    ap.add_argument("--lib", default=os.path.join(HERE, "build",
                                                  "libgpucases.so"))
    ap.add_argument("--cases", default="", help="comma list, e.g. P1,R2")
    ap.add_argument("--sizes", default=None,
                    help="sizes to check (default small,odd,full; "
                         "small,odd with --check-only or --emulate)")
    ap.add_argument("--time-size", default=None,
                    help="the size that is timed (default full; none with "
                         "--emulate)")
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--dry", action="store_true")
    ap.add_argument("--emulate", action="store_true")
    ap.add_argument("--symbols-only", action="store_true")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--json", metavar="OUT")
    a = ap.parse_args()
    if a.runs < 10:
        ap.error("--runs must be at least 10 (medians of >= 10 runs)")
    try:
        return run(a)
    except RunnerError as e:
        print(f"runner: {e}", file=sys.stderr)
        return 2


def run(a):
    try:
        entries = mf.load(a.manifest)
    except mf.ManifestError as e:
        raise RunnerError(str(e))
    ids = [s.strip().upper() for s in a.cases.split(",") if s.strip()]
    light = a.check_only or a.emulate
    sizes = (a.sizes or ("small,odd" if light else "small,odd,full")).split(
        ",")
    # Timed: the full size on a GPU; under the emulation only when asked
    # (its times say nothing about a GPU; they exercise the timing code).
    time_size = a.time_size or (None if light else "full")
    bad = [s for s in sizes + [time_size or "full"]
           if s not in ("small", "odd", "full")]
    if bad:
        raise RunnerError(f"unknown size(s) {','.join(bad)} (small, odd, "
                          f"full)")
    if time_size and not a.check_only and time_size not in sizes:
        sizes.append(time_size)
    if a.symbols_only:
        lib = Library(a.lib)
        sel = select(entries, ids, ("small", "odd", "full"))
        for e in sel:
            lib.launcher(e)
        print(f"symbols: {len(sel)} launchers and the limit kernels "
              f"resolve in {a.lib}")
        if not lib.gpub_emulated():
            images = fatbin_images(a.lib)
            print("device code: " + ", ".join(
                f"{k} x{n}" for k, n in sorted(images.items())))
        return 0
    try:
        import torch
    except ImportError:
        raise RunnerError(f"{sys.executable} has no torch: set PYTHON to a "
                          f"python3 with PyTorch")
    if a.dry:
        return 1 if dry(torch, select(entries, ids, sizes), a.manifest) else 0

    if not a.emulate and not torch.cuda.is_available():
        raise RunnerError(f"no GPU: torch {torch.__version__} "
                          f"({sys.executable}) sees no CUDA device. Run on a "
                          f"machine with an NVIDIA GPU and PyTorch built with "
                          f"CUDA, or use --dry / --emulate")
    lib = Library(a.lib)
    if a.emulate:
        if not lib.gpub_emulated():
            raise RunnerError(f"{a.lib} is the CUDA build; --emulate needs "
                              f"scripts/gpu-bench.sh build-emu's library")
        backend = EmuBackend(torch, lib)
        device_name = "host emulation (layout_rt/cuda_emu.h)"
    else:
        if lib.gpub_emulated():
            raise RunnerError(f"{a.lib} is the host-emulation build; run "
                              f"with --emulate or build the CUDA one")
        backend = CudaBackend(torch, lib)
        device_name = torch.cuda.get_device_name()
    checker = Checker(torch, lib, backend)
    sel = select(entries, ids, sizes)
    rows, fails = [], 0
    print(f"runner: {len(sel)} functions on {device_name}")
    problems = check_limits(torch, lib, backend)
    for p in problems:
        print(f"  limit kernels: FAIL: {p}")
    if problems:
        fails += 1
    else:
        print("  limit kernels: the uint4 copy, cudaMemcpyAsync and the read "
              "sum are correct")
    for e in sel:
        try:
            with backend.check_stream():
                ok, note = checker.check(e)
        except (RunnerError, RuntimeError) as err:
            ok, note = False, f"ERROR: {err}"
        if not ok:
            fails += 1
            print(f"  {e['fn']}: FAIL: {note}")
        row = {"entry": e, "check": "ok" if ok else "FAIL"}
        if not a.check_only and e["variant"] == time_size:
            try:
                row["times"], row["kind"] = time_case(torch, lib, backend, e,
                                                      a.runs, a.warmup)
            except (RunnerError, RuntimeError) as err:
                row["time_note"] = f"timing failed: {str(err)[:60]}"
                fails += 1
                print(f"  {e['fn']}: timing failed: {err}")
        rows.append(row)
        if backend.name == "cuda":
            torch.cuda.empty_cache()
    print(f"runner: {len(sel) - sum(r['check'] != 'ok' for r in rows)} of "
          f"{len(sel)} functions match PyTorch; {checker.negatives} bad "
          f"calls rejected")
    timed = [r for r in rows if "times" in r or "time_note" in r]
    if timed:
        print_table(timed, device_name)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"device": device_name, "rows": [
                {"fn": r["entry"]["fn"], "id": r["entry"]["id"],
                 "variant": r["entry"]["variant"],
                 "bytes": r["entry"]["bytes"], "check": r["check"],
                 "limit_kind": r.get("kind"),
                 "times": r.get("times")} for r in rows]}, f, indent=1)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
