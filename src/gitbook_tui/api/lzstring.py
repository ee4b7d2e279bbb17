"""The client's name for the shared LZ-string codec (see :mod:`gitbook_tui.lzstring`)."""

from __future__ import annotations

from ..lzstring import (
    URI_SAFE_ALPHABET,
    compress_to_encoded_uri_component,
    decompress_from_encoded_uri_component,
)

__all__ = [
    "URI_SAFE_ALPHABET",
    "compress_to_encoded_uri_component",
    "decompress_from_encoded_uri_component",
]
