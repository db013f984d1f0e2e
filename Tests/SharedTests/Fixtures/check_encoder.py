#!/usr/bin/env python3
"""Checks PNGEncoder output against independent decoders (Pillow and zlib). Run by hand.

    mkdir -p /tmp/png-fixtures
    PNG_ENCODER_FIXTURE_DIR=/tmp/png-fixtures swift test --filter PNGEncoderTests
    python3 Tests/SharedTests/Fixtures/check_encoder.py /tmp/png-fixtures

For every NAME.png next to a NAME.rgba (the bitmap's raw RGBA bytes) in the directory:
- Pillow must decode the PNG to exactly those pixels;
- the IHDR colour type must be 2 (RGB) when every alpha is 255, else 6 (RGBA);
- Python's zlib must inflate the joined IDAT data (it verifies the Adler-32) to
  height * (1 + width * channels) bytes, and the script prints the size of that
  stream next to zlib level 6's and level 9's for the same filtered bytes.
Exits with status 1 on any mismatch. Needs Pillow (pip install pillow).
"""
import pathlib
import struct
import sys
import zlib

from PIL import Image


def chunks(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "bad signature"
    offset = 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in {kind!r}"
        yield kind, body
        offset += 12 + length


def check(png_path):
    raw = png_path.with_suffix(".rgba").read_bytes()
    data = png_path.read_bytes()
    parts = list(chunks(data))
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", parts[0][1])
    opaque = all(raw[i] == 255 for i in range(3, len(raw), 4))
    assert (depth, interlace) == (8, 0), "unexpected depth or interlace"
    assert colour == (2 if opaque else 6), f"colour type {colour} for opaque={opaque}"
    with Image.open(png_path) as image:
        image.load()
        assert image.size == (width, height)
        assert image.convert("RGBA").tobytes() == raw, "pixels differ"
    stream = b"".join(body for kind, body in parts if kind == b"IDAT")
    scanlines = zlib.decompress(stream)
    channels = 3 if opaque else 4
    assert len(scanlines) == height * (1 + width * channels), "wrong inflated size"
    return len(stream), len(zlib.compress(scanlines, 6)), len(zlib.compress(scanlines, 9))


def main():
    directory = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    failures = 0
    total = [0, 0, 0]
    files = sorted(directory.glob("*.png"))
    for png_path in files:
        try:
            sizes = check(png_path)
        except AssertionError as error:
            failures += 1
            print(f"FAIL {png_path.name}: {error}")
            continue
        total = [a + b for a, b in zip(total, sizes)]
        print(f"ok   {png_path.name}: zlib stream {sizes[0]} bytes, zlib -6 {sizes[1]}, zlib -9 {sizes[2]}")
    if total[1]:
        print(f"{len(files) - failures}/{len(files)} ok; stream total {total[0]} vs zlib -6 {total[1]}"
              f" ({total[0] / total[1]:.3f}x) and -9 {total[2]} ({total[0] / total[2]:.3f}x)")
    sys.exit(1 if failures or not files else 0)


if __name__ == "__main__":
    main()
