#!/usr/bin/env python3
"""Lists the entries of the CUDA fat binary in an object file, one per line:
"elf sm_80" for a cubin (SASS), "ptx compute_90" for PTX. A stand-in for
`cuobjdump --list-elf --list-ptx` where only nvcc is installed.

The .nv_fatbin section holds fat binaries (magic 0xBA55ED50: u32 magic,
u16 version, u16 header size, u64 payload size), each a sequence of entries
(u16 kind: 1 PTX, 2 ELF; u16; u32 header size; u64 payload size; u32; u32;
u16 minor; u16 major; u32 arch).
"""
import struct
import subprocess
import sys
import tempfile

def main():
    with tempfile.NamedTemporaryFile() as section:
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin",
                        sys.argv[1], section.name], check=True)
        data = open(section.name, "rb").read()
    if not data:
        sys.exit("no .nv_fatbin section in " + sys.argv[1])
    entries = []
    offset = 0
    while offset + 16 <= len(data):
        magic, _, header, size = struct.unpack_from("<IHHQ", data, offset)
        if magic != 0xBA55ED50:
            offset += 8  # fat binaries are 8-byte aligned
            continue
        entry, end = offset + header, offset + header + size
        while entry < end:
            kind, _, entry_header, entry_size = struct.unpack_from(
                "<HHIQ", data, entry)
            arch = struct.unpack_from("<I", data, entry + 28)[0]
            if kind == 2:
                entries.append(f"elf sm_{arch}")
            elif kind == 1:
                entries.append(f"ptx compute_{arch}")
            else:
                entries.append(f"kind{kind} {arch}")
            entry += entry_header + entry_size
        offset = end
    print("\n".join(sorted(entries)))
    return 0

if __name__ == "__main__":
    sys.exit(main())
