#!/usr/bin/env python3
"""Extracts XNNPACK delegate blobs from .pte files as fuzz seeds (written to
OUT_DIR, never into the repo). XH00 blobs are delimited by their header; a
legacy bare XN00 blob is inline delegate data, whose flatbuffer vector
length precedes it. Usage: xnn_seeds.py OUT_DIR FILE.pte..."""
import hashlib
import os
import struct
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for path in sys.argv[2:]:
    d = open(path, 'rb').read()
    for magic in (b'XH00', b'XN00'):
        i = d.find(magic)
        while i >= 4:
            s = i - 4
            if magic == b'XH00' and s + 30 <= len(d):
                coff, csize = struct.unpack_from('<IQ', d, s + 18)
                blob = d[s:s + coff + csize]
            elif s >= 4:
                n = struct.unpack_from('<I', d, s - 4)[0]
                blob = d[s:s + n] if 30 <= n <= len(d) - s else b''
            else:
                blob = b''
            if len(blob) >= 30:
                open(os.path.join(out, 'seed_' + hashlib.sha256(blob).hexdigest()[:16]), 'wb').write(blob)
            i = d.find(magic, i + 4)
