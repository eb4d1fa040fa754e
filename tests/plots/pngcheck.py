#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""pngcheck.py FILE WIDTH HEIGHT: is FILE a PNG of WIDTH x HEIGHT pixels
(from its IHDR) with something drawn on it?  "Something" means at least 4
distinct colours and at least 1% of the pixels not the background (the
most common colour).  Prints one line; exit 0 yes, 1 no.  Standard library
only: zlib and the PNG row filters."""
import struct, sys, zlib
from collections import Counter


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def pixels(w, h, depth, ctype, data):
    bpp = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    stride = w * bpp
    out, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f, row = data[i], bytearray(data[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = row[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            row[x] = (row[x] + (0, a, b, (a + b) // 2, paeth(a, b, c))[f]) & 255
        out.extend(bytes(row[x:x + bpp]) for x in range(0, stride, bpp))
        prev = row
    return out


def main(path, want_w, want_h):
    with open(path, "rb") as fh:
        blob = fh.read()
    if blob[:8] != b"\x89PNG\r\n\x1a\n":
        return f"{path}: not a PNG"
    pos, idat, ihdr = 8, b"", None
    while pos < len(blob):
        n, kind = struct.unpack(">I4s", blob[pos:pos + 8])
        body = blob[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if not ihdr:
        return f"{path}: no IHDR"
    w, h, depth, ctype, _, _, interlace = ihdr
    if (w, h) != (want_w, want_h):
        return f"{path}: {w}x{h}, want {want_w}x{want_h}"
    if depth != 8 or interlace:
        return None if len(idat) > 4096 else f"{path}: {len(idat)} bytes of image data"
    px = pixels(w, h, depth, ctype, zlib.decompress(idat))
    counts = Counter(px)
    bg = counts.most_common(1)[0][1]
    drawn = 1 - bg / len(px)
    if len(counts) < 4 or drawn < 0.01:
        return f"{path}: blank: {len(counts)} colours, {100 * drawn:.2f}% drawn"
    print(f"{path}: {w}x{h}, {len(counts)} colours, {100 * drawn:.1f}% drawn")
    return None


if __name__ == "__main__":
    err = main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
    if err:
        print(err)
        sys.exit(1)
