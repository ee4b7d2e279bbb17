"""LZ-string ``compressToEncodedURIComponent``, output identical to the JavaScript library."""

from __future__ import annotations

URI_SAFE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$"
_BITS_PER_CHAR = 6


def _code_units(text: str) -> list[str]:
    """``text`` as JavaScript indexes it: one item per UTF-16 code unit."""
    raw = text.encode("utf-16-le", "surrogatepass")
    return [chr(raw[i] | raw[i + 1] << 8) for i in range(0, len(raw), 2)]


class _Bits:
    """Packs bits (least significant of each value first) into URI-safe characters."""

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.value = 0
        self.position = 0

    def put(self, value: int, count: int) -> None:
        for _ in range(count):
            self.value = (self.value << 1) | (value & 1)
            value >>= 1
            if self.position == _BITS_PER_CHAR - 1:
                self.chars.append(URI_SAFE_ALPHABET[self.value])
                self.position = self.value = 0
            else:
                self.position += 1

    def finish(self) -> str:
        while True:
            self.value <<= 1
            if self.position == _BITS_PER_CHAR - 1:
                self.chars.append(URI_SAFE_ALPHABET[self.value])
                return "".join(self.chars)
            self.position += 1


def compress_to_encoded_uri_component(text: str) -> str:
    """Compress ``text`` the way ``LZString.compressToEncodedURIComponent`` does."""
    dictionary: dict[str, int] = {}
    pending: set[str] = set()  # single characters not yet sent literally
    size = 3  # codes 0, 1, 2: 8-bit literal, 16-bit literal, end of stream
    width = 2
    enlarge_in = 2
    out = _Bits()

    def count_code() -> None:
        nonlocal enlarge_in, width
        enlarge_in -= 1
        if enlarge_in == 0:
            enlarge_in = 2**width
            width += 1

    def emit(word: str) -> None:
        if word in pending:
            code = ord(word)
            if code < 256:
                out.put(0, width)
                out.put(code, 8)
            else:
                out.put(1, width)
                out.put(code, 16)
            count_code()
            pending.discard(word)
        else:
            out.put(dictionary[word], width)
        count_code()

    word = ""
    for char in _code_units(text):
        if char not in dictionary:
            dictionary[char] = size
            size += 1
            pending.add(char)
        extended = word + char
        if extended in dictionary:
            word = extended
            continue
        emit(word)
        dictionary[extended] = size
        size += 1
        word = char
    if word:
        emit(word)
    out.put(2, width)
    return out.finish()
