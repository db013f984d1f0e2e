#!/usr/bin/env python3
"""Packs GNU Unifont's glyphs (the .hex file of Debian's `unifont` package) into the compact file the
workbook's PNG exports draw non-ASCII titles with: Sources/Pictures/Resources/Unifont/unifont-pages.bin.

Usage: apt-get download unifont && dpkg-deb -x unifont_*.deb x
       Scripts/make_unifont.py x/usr/share/unifont/unifont.hex

Layout (big-endian): "UNIFONT1", u32 page count, then per page (u16 page number = code point >> 8, u32 offset
from the start of the data, u32 length), then the data: one zlib stream per page of 256 code points, each
inflating to 256 records of 33 bytes: the glyph's width (0 where the font has no glyph, 8 or 16) and its
16 rows, one byte per row for a width of 8, two for 16, zero-padded to 32 bytes.
The pages kept: Latin, Greek, Cyrillic; punctuation and symbols; CJK punctuation, kana; CJK ideographs;
Hangul syllables; full-width forms and the replacement character.
"""
import struct
import sys
import zlib

KEPT = [range(0x00, 0x06), range(0x20, 0x24), range(0x30, 0x32), range(0x4E, 0xA0), range(0xAC, 0xD8),
        range(0xFF, 0x100)]

def main(path):
    pages = {}
    for line in open(path):
        code, glyph = line.strip().split(":")
        code = int(code, 16)
        if code > 0xFFFF or not any((code >> 8) in kept for kept in KEPT):
            continue
        pages.setdefault(code >> 8, {})[code & 0xFF] = bytes.fromhex(glyph)
    index, data = b"", b""
    for page in sorted(pages):
        raw = bytearray()
        for low in range(256):
            glyph = pages[page].get(low)
            if glyph is None:
                raw += bytes(33)
            else:
                raw += bytes([8 if len(glyph) == 16 else 16]) + glyph + bytes(32 - len(glyph))
        stream = zlib.compress(bytes(raw), 9)
        index += struct.pack(">HII", page, len(data), len(stream))
        data += stream
    out = "Sources/Pictures/Resources/Unifont/unifont-pages.bin"
    with open(out, "wb") as file:
        file.write(b"UNIFONT1" + struct.pack(">I", len(pages)) + index + data)
    print(f"{out}: {len(pages)} pages, {8 + 4 + len(index) + len(data)} bytes")

if __name__ == "__main__":
    main(sys.argv[1])
