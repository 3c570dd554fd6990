# q7pred-numpy-oracle-protocol: 1
# SPDX-License-Identifier: BSD-3-Clause
"""A numpy oracle program that misbehaves, for the tests (no numpy needed).
It covers ltu_1_8_8 only; what it does is chosen by the name it is run
under (a link to this file):
  dies.py  answers its first batch with zeros (wrong where a < b), then
           exits 3 on the second;
  deaf.py  answers correctly, but ignores QUIT, the end of its input and
           SIGTERM (it sleeps until killed);
  mute.py  never answers a batch (it says so on stderr and sleeps)."""
import os
import signal
import struct
import sys
import time

role = os.path.splitext(os.path.basename(sys.argv[0]))[0]
if role == "deaf":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
inp, out = sys.stdin.buffer, sys.stdout.buffer
out.write(b"READY %s numpy\n" % role.encode()); out.flush()
batches = 0
while True:
    line = inp.readline()
    if not line or line.startswith(b"QUIT"):
        if role == "deaf":
            while True:
                time.sleep(3600)
        sys.exit(0)
    w = line.split()
    if w[0] == b"COVERS":
        out.write(b"YES\n" if w[1] == b"ltu_1_8_8" else b"NO %s\n" % role.encode())
        out.flush()
        continue
    n, iw, ow = int(w[2]), int(w[3]), int(w[4])
    words = struct.unpack("<%dI" % (n * iw), inp.read(4 * n * iw))
    batches += 1
    if role == "mute":
        sys.stderr.write("mute: no answer\n"); sys.stderr.flush()
        while True:
            time.sleep(3600)
    if role == "dies" and batches == 2:
        sys.exit(3)
    if role == "deaf":
        answer = struct.pack("<%dI" % n, *[int(a < b) for a, b in zip(words[:n], words[n:2 * n])])
    else:
        answer = bytes(4 * n * ow)
    out.write(b"OK\n" + answer)
    out.flush()
