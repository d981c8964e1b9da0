"""Compiles a CUDA source with nvcc -c for sm_80 and sm_90 and lists what the
objects' fat binaries hold.

Usage: nvcc_build.py NVCC SOURCE INCLUDE_DIR OUTPUT_BASE. cuobjdump is not
part of every toolkit (this machine's has none), so the .nv_fatbin section is
read directly: a 16-byte header (magic 0xba55ed50, version, header size,
payload size), then entries of kind 1 (PTX) or 2 (cubin) with their header
size, size and SM number.
"""
import os
import struct
import subprocess
import sys
import tempfile

KINDS = {1: "ptx", 2: "cubin"}


def fatbin_entries(obj):
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "fatbin")
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin",
                        obj, raw], check=True)
        data = open(raw, "rb").read()
    entries = []
    start = 0
    while start + 16 <= len(data):
        magic, _, header, size = struct.unpack_from("<IHHQ", data, start)
        if magic != 0xBA55ED50:
            break
        off, end = start + header, start + header + size
        while off < end:
            kind, _, entry_header, entry_size = struct.unpack_from("<HHIQ", data, off)
            arch = struct.unpack_from("<I", data, off + 28)[0]
            entries.append("%s sm_%d" % (KINDS.get(kind, "kind%d" % kind), arch))
            off += entry_header + entry_size
        start = end
    return entries


def main():
    nvcc, source, include, base = sys.argv[1:5]
    for arch in ("sm_80", "sm_90"):
        obj = "%s.%s.o" % (base, arch)
        subprocess.run([nvcc, "-std=c++17", "-c", "-arch=" + arch, "-I", include,
                        "-Werror", "all-warnings", source, "-o", obj], check=True)
        print("%s: %s" % (arch, ", ".join(fatbin_entries(obj))))


if __name__ == "__main__":
    main()
