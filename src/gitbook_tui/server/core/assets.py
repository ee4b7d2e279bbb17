"""File assets: content types from file names and image dimensions from bytes."""

from __future__ import annotations

import mimetypes
import re
import struct
from pathlib import PurePosixPath

_EXTRA_TYPES = {
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".svg": "image/svg+xml",
    ".webp": "image/webp",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".csv": "text/csv",
    ".json": "application/json",
}


def content_type_for(name: str) -> str:
    """Content type of a file from its name's extension."""
    suffix = PurePosixPath(name.lower()).suffix
    if suffix in _EXTRA_TYPES:
        return _EXTRA_TYPES[suffix]
    guessed, _ = mimetypes.guess_type(name)
    return guessed or "application/octet-stream"


_SVG_ATTR_RE = re.compile(r"""\b(width|height|viewBox)\s*=\s*["']([^"']*)["']""")
_SVG_TAG_RE = re.compile(rb"<svg\b[^>]*>", re.IGNORECASE | re.DOTALL)


def image_dimensions(data: bytes, content_type: str = "") -> dict[str, float] | None:
    """Width and height of a PNG, GIF, JPEG or SVG image read from its bytes, else ``None``."""
    try:
        if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
            width, height = struct.unpack(">II", data[16:24])
            return {"width": width, "height": height}
        if data[:6] in (b"GIF87a", b"GIF89a"):
            width, height = struct.unpack("<HH", data[6:10])
            return {"width": width, "height": height}
        if data[:2] == b"\xff\xd8":
            return _jpeg_dimensions(data)
        if "svg" in content_type or data.lstrip()[:5] in (b"<?xml", b"<svg ", b"<svg\n"):
            return _svg_dimensions(data)
    except (struct.error, ValueError, IndexError):
        return None
    return None


def _jpeg_dimensions(data: bytes) -> dict[str, float] | None:
    pos = 2
    while pos + 9 < len(data):
        if data[pos] != 0xFF:
            pos += 1
            continue
        marker = data[pos + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            pos += 1 if marker == 0xFF else 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            height, width = struct.unpack(">HH", data[pos + 5 : pos + 9])
            return {"width": width, "height": height}
        pos += 2 + length
    return None


def _svg_dimensions(data: bytes) -> dict[str, float] | None:
    tag = _SVG_TAG_RE.search(data[:65536])
    if tag is None:
        return None
    attrs = dict(_SVG_ATTR_RE.findall(tag.group(0).decode("utf-8", errors="replace")))

    def number(value: str | None) -> float | None:
        match = re.match(r"\s*([0-9]*\.?[0-9]+)\s*(px)?\s*$", value or "")
        return float(match.group(1)) if match else None

    width, height = number(attrs.get("width")), number(attrs.get("height"))
    if (width is None or height is None) and attrs.get("viewBox"):
        parts = re.split(r"[\s,]+", attrs["viewBox"].strip())
        if len(parts) == 4:
            width = width if width is not None else float(parts[2])
            height = height if height is not None else float(parts[3])
    if width is None or height is None:
        return None
    return {
        "width": int(width) if width.is_integer() else width,
        "height": int(height) if height.is_integer() else height,
    }
