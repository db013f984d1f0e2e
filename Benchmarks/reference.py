#!/usr/bin/env python3
"""The references for the workbook's benchmarks, and the large test images.

Run by Benchmarks/run inside its virtual environment (Pillow and numpy from PyPI). Every timing command
prints figure lines in the same tab-separated format as the Swift benchmark (key, unit, median, min, max,
note), so the report can put each Swift figure next to its reference.

  images DIR                  write the test images into DIR, one file per decoder class
  decode SET RUNS FILE...     time Pillow decoding the files to RGBA pixels
  encode SET RUNS FILE...     time Pillow re-encoding the files' images, optimize=True
  sepia RUNS DIR              time numpy's sepia on DIR/sepia-input.rgba; compare with sepia-output.rgba
"""

import io
import statistics
import struct
import sys
import time
import zlib

import numpy as np
from PIL import Image

SIZE = 2048


def emit(key, unit, values, note=""):
    """Prints one figure line: median, minimum and maximum of the values."""
    def fmt(v):
        if v == round(v) and abs(v) < 1e15:
            return str(int(v))
        return f"{v:.1f}" if abs(v) >= 100 else f"{v:.3f}" if abs(v) >= 1 else f"{v:.5f}"
    print("\t".join([key, unit, fmt(statistics.median(values)), fmt(min(values)), fmt(max(values)), note]))


def timed(runs, work):
    """CPU seconds of this thread for each of `runs` runs of work(), after one warm-up run (CPU time, as
    the Swift side and the libpng harness measure, so other processes on the machine do not count)."""
    work()
    samples = []
    for _ in range(runs):
        start = time.thread_time()
        work()
        samples.append(time.thread_time() - start)
    return samples


# Test images ---------------------------------------------------------------------------------------

def photo_like(rng, width=SIZE, height=SIZE):
    """Smooth gradients plus noise, 8-bit RGB, as float for further scaling."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    r = 128 + 90 * np.sin(x / 310.0) * np.cos(y / 270.0) + 30 * (x / width)
    g = 120 + 80 * np.sin((x + y) / 420.0) + 25 * (y / height)
    b = 110 + 70 * np.cos(np.hypot(x - width / 3, y - height / 2) / 180.0)
    image = np.stack([r, g, b], axis=-1)
    image += rng.normal(0, 6, image.shape)
    return np.clip(image, 0, 255)


def png_file(width, height, bit_depth, colour_type, interlace, raw):
    """A PNG file from already filtered scanline bytes (zlib at its default level 6)."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, interlace)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6))
            + chunk(b"IEND", b""))


def sub_filtered(rows, bpp):
    """Scanlines with the Sub filter (type 1): each byte minus the byte one pixel to its left."""
    rows = rows.reshape(rows.shape[0], -1)
    filtered = rows.copy()
    filtered[:, bpp:] = rows[:, bpp:] - rows[:, :-bpp]
    marker = np.ones((rows.shape[0], 1), dtype=np.uint8)
    return np.concatenate([marker, filtered], axis=1).tobytes()


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def rgba_of(photo, rng):
    """The photograph with an alpha channel: a soft vignette from opaque to half transparent, plus noise."""
    height, width = photo.shape[:2]
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    distance = np.hypot((x - width / 2) / width, (y - height / 2) / height)
    alpha = np.clip(255 - 260 * distance + rng.normal(0, 3, distance.shape), 0, 255)
    return np.dstack([photo, alpha]).astype(np.uint8)


def write_images(directory):
    """One PNG per decoder class (the file name is the class):

    rgb-WxH-lN, rgba-WxH-lN   photographs, 1920x1080 and 4000x3000, saved by Pillow at zlib level N
    palette, grey             1920x1080, saved by Pillow (a 256-colour palette; 8-bit greyscale)
    deep16                    16-bit RGB, 2048x2048, Sub-filtered (Pillow cannot write it)
    interlaced                Adam7 RGB, 2048x2048, Sub-filtered (Pillow cannot write it)
    """
    rng = np.random.default_rng(7)
    for width, height in [(1920, 1080), (4000, 3000)]:
        photo = photo_like(rng, width, height).astype(np.uint8)
        rgba = rgba_of(photo, rng)
        for level in (1, 6, 9):
            Image.fromarray(photo, "RGB").save(f"{directory}/rgb-{width}x{height}-l{level}.png",
                                               compress_level=level)
            Image.fromarray(rgba, "RGBA").save(f"{directory}/rgba-{width}x{height}-l{level}.png",
                                                compress_level=level)
        if width == 1920:
            image = Image.fromarray(photo, "RGB")
            image.quantize(256).save(f"{directory}/palette.png")
            image.convert("L").save(f"{directory}/grey.png")

    photo = photo_like(rng, SIZE, SIZE)
    deep = (photo * 257 + rng.integers(0, 64, photo.shape)).clip(0, 65535).astype(">u2")
    rows = deep.reshape(SIZE, SIZE * 3).view(np.uint8)
    with open(f"{directory}/deep16.png", "wb") as f:
        f.write(png_file(SIZE, SIZE, 16, 2, 0, sub_filtered(rows, 6)))

    photo8 = photo.astype(np.uint8)
    raw = b""
    for x0, y0, dx, dy in ADAM7:
        sub = photo8[y0::dy, x0::dx]
        if sub.size:
            raw += sub_filtered(sub, 3)
    with open(f"{directory}/interlaced.png", "wb") as f:
        f.write(png_file(SIZE, SIZE, 8, 2, 1, raw))


# Codec references ----------------------------------------------------------------------------------

def decode(name, runs, files):
    inputs = [open(f, "rb").read() for f in files]
    pixels = sum(Image.open(io.BytesIO(b)).size[0] * Image.open(io.BytesIO(b)).size[1] for b in inputs)
    total = sum(len(b) for b in inputs)

    def work():
        # Stops at the decoded RGBA pixels in Pillow's memory, as the Swift side stops at its Bitmap.
        for b in inputs:
            image = Image.open(io.BytesIO(b))
            image.load()
            if image.mode != "RGBA":
                image.convert("RGBA")
    seconds = timed(runs, work)
    note = f"{len(files)} files, {total} bytes, {pixels} px"
    emit(f"decode.{name}.MBps", "MB/s", [total / 1e6 / s for s in seconds], note)
    emit(f"decode.{name}.Mpxps", "Mpx/s", [pixels / 1e6 / s for s in seconds], note)


def encode(name, runs, files):
    """Re-encodes each file's image in the mode Pillow reads it in (palette stays palette, grey stays grey,
    16-bit becomes 8-bit), with optimize=True: the smallest output Pillow offers."""
    images = []
    for path in files:
        image = Image.open(path)
        image.load()
        images.append(image)
    pixels = sum(i.size[0] * i.size[1] for i in images)

    def encode_one(image):
        out = io.BytesIO()
        image.save(out, "PNG", optimize=True)
        return out.getbuffer().nbytes

    output = sum(encode_one(i) for i in images)
    seconds = timed(runs, lambda: [encode_one(i) for i in images])
    note = f"{len(images)} images, {pixels} px"
    emit(f"encode.{name}.Mpxps", "Mpx/s", [pixels / 1e6 / s for s in seconds], note)
    emit(f"encode.{name}.bytes", "bytes", [output], note)


# Sepia reference -----------------------------------------------------------------------------------

def sepia(pixels, k=205):
    """The exact integer formula of SepiaFilter.swift's doc comment, at intensity 0.8 (k = 205)."""
    p = pixels.reshape(-1, 4)
    r, g, b = (p[:, i].astype(np.int32) for i in range(3))
    sr = np.minimum(255, (402 * r + 787 * g + 194 * b + 512) >> 10)
    sg = np.minimum(255, (357 * r + 702 * g + 172 * b + 512) >> 10)
    sb = np.minimum(255, (279 * r + 547 * g + 134 * b + 512) >> 10)
    out = np.empty_like(p)
    out[:, 0] = r + (((sr - r) * k + 128) >> 8)
    out[:, 1] = g + (((sg - g) * k + 128) >> 8)
    out[:, 2] = b + (((sb - b) * k + 128) >> 8)
    out[:, 3] = p[:, 3]
    return out.reshape(-1)


def sepia_reference(runs, directory, width=1920, height=1080):
    source = np.fromfile(f"{directory}/sepia-input.rgba", dtype=np.uint8)
    swift = np.fromfile(f"{directory}/sepia-output.rgba", dtype=np.uint8)
    result = sepia(source)
    seconds = timed(runs, lambda: sepia(source))
    emit("sepia.Mpxps", "Mpx/s", [width * height / 1e6 / s for s in seconds], f"{width}x{height}, numpy int32")
    differences = np.flatnonzero(result != swift) if result.shape == swift.shape else np.array([0])
    if differences.size == 0:
        emit("sepia.agree", "-", [1], "agree")
    else:
        index = int(differences[0])
        pixel, channel = divmod(index, 4)
        x, y = pixel % width, pixel // width
        emit("sepia.agree", "-", [0],
             f"first difference at x={x} y={y} channel {'RGBA'[channel]}: "
             f"Swift {int(swift[index]) if index < swift.size else 'none'}, numpy {int(result[index])}")


def main(args):
    command, rest = args[0], args[1:]
    if command == "images":
        write_images(rest[0])
    elif command == "decode":
        decode(rest[0], int(rest[1]), rest[2:])
    elif command == "encode":
        encode(rest[0], int(rest[1]), rest[2:])
    elif command == "sepia":
        sepia_reference(int(rest[0]), rest[1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
