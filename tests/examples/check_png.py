#!/usr/bin/env python3
"""Checks the PNG files the diffusion example wrote, with Python's own zlib: the signature, every
chunk's CRC, IHDR (8-bit RGB, the expected size), the IDAT stream inflating to exactly one filter
byte plus 3 bytes a pixel per row, and an image that is not flat (at least two colours).

usage: check_png.py FILE:WIDTHxHEIGHT ...
"""
import struct
import sys
import zlib


def check(path, width, height):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return "not a PNG signature"
    pos, chunks = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            return "bad CRC in chunk %r" % kind
        chunks.append((kind, body))
        pos += 12 + length
    kinds = [k for k, _ in chunks]
    if kinds[0] != b"IHDR" or kinds[-1] != b"IEND":
        return "chunks %r" % kinds
    w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    if (w, h, depth, colour, interlace) != (width, height, 8, 2, 0):
        return "IHDR says %dx%d depth %d colour %d" % (w, h, depth, colour)
    raw = zlib.decompress(b"".join(b for k, b in chunks if k == b"IDAT"))
    row = 1 + 3 * width
    if len(raw) != row * height:
        return "%d bytes of rows, not %d" % (len(raw), row * height)
    pixels = set()
    for y in range(0, height, max(1, height // 50)):
        line = raw[y * row:(y + 1) * row]
        if line[0] != 0:
            return "row %d has filter %d" % (y, line[0])
        pixels.update(line[1 + 3 * x:4 + 3 * x] for x in range(0, width, max(1, width // 50)))
    if len(pixels) < 2:
        return "the image is one flat colour"
    return None


def main():
    failures = 0
    for arg in sys.argv[1:]:
        path, size = arg.rsplit(":", 1)
        width, height = (int(v) for v in size.split("x"))
        problem = check(path, width, height)
        print("%s: %s" % (path, problem or "ok"))
        failures += problem is not None
    return 1 if failures or len(sys.argv) < 2 else 0


if __name__ == "__main__":
    sys.exit(main())
