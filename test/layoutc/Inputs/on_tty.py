"""Runs a command with its standard output on a pseudo-terminal, as if a
user ran it in a terminal, and reports its exit status and how many bytes
it wrote there; its standard error passes through.

  on_tty.py COMMAND [ARG...]
"""
import os
import pty
import subprocess
import sys
import threading

master, slave = pty.openpty()
written = []


def drain():
    # Read while the command runs, so that it never blocks on a full pty.
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the slave side is closed
            return
        if not data:
            return
        written.append(len(data))


reader = threading.Thread(target=drain)
reader.start()
status = subprocess.call(sys.argv[1:], stdout=slave)
os.close(slave)
reader.join()
print(f"exit {status}, {sum(written)} bytes on the terminal")
