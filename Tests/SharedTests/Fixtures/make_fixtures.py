#!/usr/bin/env python3
"""Writes the PNG fixtures of the decoder cross-check and their manifest.

Each fixture is written by the small pure-Python PNG writer below (so every colour type, bit
depth, tRNS form, row filter and Adam7 interlacing can be covered, which Pillow cannot write)
and then decoded by Pillow, the independent decoder. The manifest records, per file, the
pixel hash of Pillow's RGBA (the workbook's Bitmap.contentHash: 64-bit FNV-1a over width and
height as four big-endian bytes each, then the RGBA bytes). For 16-bit images Pillow reduces
samples by truncating (v >> 8) where the workbook rounds, so for those the manifest names a
`.rgba` file holding Pillow's raw RGBA bytes and the test allows a difference of 1 a channel.

Run from this directory: python3 make_fixtures.py  (needs Pillow)
Manifest lines: <file> <width> <height> hash <16 hex digits>   or   <file> <width> <height> raw <file.rgba>
"""
import random
import struct
import zlib

from PIL import Image

ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(samples, depth):
    """Packs a row of samples (one int per sample) at the bit depth."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, current, used = bytearray(), 0, 0
    for s in samples:
        current = (current << depth) | s
        used += depth
        if used == 8:
            out.append(current)
            current, used = 0, 0
    if used:
        out.append(current << (8 - used))
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def filter_rows(rows, bpp, first_filter):
    """Filters packed rows, cycling through filter types 0-4 starting at first_filter."""
    out = bytearray()
    prior = bytes(len(rows[0])) if rows else b""
    for index, row in enumerate(rows):
        kind = (first_filter + index) % 5
        out.append(kind)
        for i, x in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = prior[i]
            c = prior[i - bpp] if i >= bpp else 0
            pred = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
            out.append((x - pred) & 0xFF)
        prior = row
    return bytes(out)


def write_png(path, width, height, depth, ctype, pixels, palette=None, trns=None, interlace=False):
    """pixels[y][x] is a tuple of samples for the colour type."""
    channels = CHANNELS[ctype]
    bpp = max(1, channels * depth // 8)
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    raw = b""
    for number, (x0, y0, dx, dy) in enumerate(passes):
        rows = []
        for y in range(y0, height, dy):
            samples = [s for x in range(x0, width, dx) for s in pixels[y][x]]
            if samples:
                rows.append(pack_row(samples, depth))
        raw += filter_rows(rows, bpp, number)
    data = b"\x89PNG\r\n\x1a\n"
    data += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, ctype, 0, 0, 1 if interlace else 0))
    data += chunk(b"tEXt", b"Comment\x00decoder fixture")
    if palette is not None:
        data += chunk(b"PLTE", b"".join(bytes(c) for c in palette))
    if trns is not None:
        data += chunk(b"tRNS", trns)
    compressed = zlib.compress(raw, 9)
    # Split the image data over several IDAT chunks to exercise their concatenation.
    third = max(1, len(compressed) // 3)
    for start in range(0, len(compressed), third):
        data += chunk(b"IDAT", compressed[start:start + third])
    data += chunk(b"IEND", b"")
    with open(path, "wb") as handle:
        handle.write(data)


def fnv1a64(width, height, rgba):
    value = 0xCBF29CE484222325
    for byte in struct.pack(">II", width, height) + rgba:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % value


def main():
    rng = random.Random(2024)
    manifest = []

    def add(name, width, height, depth, ctype, palette=None, trns=None, interlace=False, sample=None):
        maximum = (1 << depth) - 1
        channels = CHANNELS[ctype]
        if ctype == 3:
            maximum = len(palette) - 1
        if sample is None:
            def sample(x, y, c):
                return rng.randint(0, maximum)
        pixels = [[tuple(sample(x, y, c) for c in range(channels)) for x in range(width)] for y in range(height)]
        path = name + ".png"
        write_png(path, width, height, depth, ctype, pixels, palette, trns, interlace)
        image = Image.open(path)
        rgba = image.convert("RGBA").tobytes()
        if image.mode == "I;16":
            # Pillow's convert clips 16-bit grey to 255; reduce its 16-bit values by truncation instead.
            raw16 = image.tobytes()
            values = struct.unpack("<%dH" % (len(raw16) // 2), raw16)
            alpha = image.info.get("transparency")
            rgba = b"".join(bytes((v >> 8,) * 3 + ((0 if v == alpha else 255),)) for v in values)
        if ctype == 0 and depth < 8 and trns is not None:
            # Pillow compares a low-depth grey key with the scaled-up grey level, so it never
            # matches; apply the key the PNG way, to the sample at its original depth.
            key = struct.unpack(">H", trns)[0] * (255 // maximum)
            grey = image.convert("L").tobytes()
            rgba = b"".join(bytes((g, g, g, 0 if g == key else 255)) for g in grey)
        if depth == 16:
            with open(name + ".rgba", "wb") as handle:
                handle.write(rgba)
            manifest.append("%s %d %d raw %s.rgba" % (path, width, height, name))
        else:
            manifest.append("%s %d %d hash %s" % (path, width, height, fnv1a64(width, height, rgba)))

    palette = [(rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255)) for _ in range(200)]
    for depth in (1, 2, 4, 8, 16):
        add("grey%d" % depth, 13, 7, depth, 0)
        add("grey%d-interlaced" % depth, 11, 10, depth, 0, interlace=True)
    add("grey2-trns", 9, 5, 2, 0, trns=struct.pack(">H", 2))
    add("grey8-trns", 12, 6, 8, 0, trns=struct.pack(">H", 77),
        sample=lambda x, y, c: 77 if (x + y) % 3 == 0 else (x * 19 + y) % 256)
    add("rgb8", 10, 9, 8, 2)
    add("rgb8-interlaced", 17, 13, 8, 2, interlace=True)
    add("rgb8-trns", 8, 8, 8, 2, trns=struct.pack(">HHH", 10, 20, 30),
        sample=lambda x, y, c: (10, 20, 30)[c] if (x * y) % 4 == 1 else (x * 31 + y * 7 + c * 50) % 256)
    add("rgb16", 6, 5, 16, 2)
    add("rgb16-interlaced", 9, 9, 16, 2, interlace=True)
    for depth in (1, 2, 4, 8):
        size = min(len(palette), 1 << depth)
        add("palette%d" % depth, 15, 6, depth, 3, palette=palette[:size])
        add("palette%d-interlaced" % depth, 10, 11, depth, 3, palette=palette[:size], interlace=True)
    alphas = bytes(rng.randint(0, 255) for _ in range(100))
    add("palette8-trns", 14, 9, 8, 3, palette=palette, trns=alphas)
    add("palette4-trns-interlaced", 9, 9, 4, 3, palette=palette[:16], trns=alphas[:5], interlace=True)
    add("grey-alpha8", 11, 6, 8, 4)
    add("grey-alpha16", 7, 4, 16, 4)
    add("rgba8", 12, 10, 8, 6)
    add("rgba8-interlaced", 19, 17, 8, 6, interlace=True)
    add("rgba16", 5, 6, 16, 6)
    add("rgba16-interlaced", 8, 9, 16, 6, interlace=True)
    add("one-pixel", 1, 1, 8, 6)
    add("one-pixel-interlaced", 1, 1, 8, 2, interlace=True)
    add("wide-interlaced", 33, 3, 8, 0, interlace=True)

    # A poster-like image written by Pillow's own encoder (adaptive filters, dynamic Huffman).
    poster = Image.new("RGBA", (45, 67))
    poster.putdata([((x * 5 + rng.randint(0, 9)) % 256, (y * 3) % 256, rng.randint(0, 40), 255 - x)
                    for y in range(67) for x in range(45)])
    poster.save("pillow-poster.png", optimize=True)
    manifest.append("pillow-poster.png 45 67 hash %s" % fnv1a64(45, 67, Image.open("pillow-poster.png").convert("RGBA").tobytes()))
    Image.open("pillow-poster.png").convert("P", palette=Image.ADAPTIVE, colors=50).save("pillow-palette.png")
    manifest.append("pillow-palette.png 45 67 hash %s" % fnv1a64(45, 67, Image.open("pillow-palette.png").convert("RGBA").tobytes()))

    with open("manifest.txt", "w") as handle:
        handle.write("\n".join(manifest) + "\n")


if __name__ == "__main__":
    main()
