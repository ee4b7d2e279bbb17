"""File assets: content types from file names and image dimensions from bytes."""

from __future__ import annotations

import io
import mimetypes
import re
from pathlib import PurePosixPath

import imagesize

_EXTRA_TYPES = {
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".svg": "image/svg+xml",
    ".webp": "image/webp",
    ".avif": "image/avif",
    ".heic": "image/heic",
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
    """Width and height of an image read from its header bytes (PNG, GIF, JPEG, WebP, AVIF,
    HEIC, BMP, TIFF… through ``imagesize``; SVG from its root element), else ``None``."""
    if "svg" in content_type or data.lstrip()[:5] in (b"<?xml", b"<svg ", b"<svg\n"):
        try:
            return _svg_dimensions(data)
        except (ValueError, IndexError):
            return None
    try:
        # Bytes only, never a path or URL: imagesize would open or fetch those itself.
        width, height = imagesize.get(io.BytesIO(data))
    except Exception:  # a truncated or hostile header must not fail the upload
        return None
    if width <= 0 or height <= 0:
        return None
    return {"width": int(width), "height": int(height)}


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
