"""LZ-string ``compress/decompressFromEncodedURIComponent``, identical to the JavaScript library.

Both the client (``api``) and the server use it, so it lives at the top level with no
dependencies: a value compressed by one side must decompress on the other bit for bit.
"""

from __future__ import annotations

URI_SAFE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$"
_URI_INDEX = {char: index for index, char in enumerate(URI_SAFE_ALPHABET)}
_BITS_PER_CHAR = 6


def _code_units(text: str) -> list[str]:
    """``text`` as JavaScript indexes it: one item per UTF-16 code unit."""
    raw = text.encode("utf-16-le", "surrogatepass")
    return [chr(raw[i] | raw[i + 1] << 8) for i in range(0, len(raw), 2)]


def _from_code_units(units: str) -> str:
    """The inverse of :func:`_code_units` (raises ``UnicodeDecodeError`` on lone surrogates)."""
    raw = b"".join(ord(unit).to_bytes(2, "little") for unit in units)
    return raw.decode("utf-16-le", "surrogatepass")


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


class _Reader:
    """Reads bits back out of URI-safe characters, in the order :class:`_Bits` wrote them."""

    _RESET = 1 << (_BITS_PER_CHAR - 1)

    def __init__(self, values: list[int]) -> None:
        self.values = values
        self.value = values[0]
        self.mask = self._RESET
        self.index = 1

    def exhausted(self) -> bool:
        return self.index > len(self.values)

    def take(self, count: int) -> int:
        bits, power = 0, 1
        for _ in range(count):
            bit = self.value & self.mask
            self.mask >>= 1
            if self.mask == 0:
                self.mask = self._RESET
                # Past the end the JS library reads zeros; keep counting so that
                # ``exhausted`` reports the truncation.
                self.value = self.values[self.index] if self.index < len(self.values) else 0
                self.index += 1
            if bit:
                bits |= power
            power <<= 1
        return bits


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


def decompress_from_encoded_uri_component(encoded: str) -> str | None:
    """``LZString.decompressFromEncodedURIComponent``; ``None`` when the input is invalid."""
    if encoded == "":
        return None
    # A '+' that went through form decoding arrives as a space; the JS library undoes that.
    encoded = encoded.replace(" ", "+")
    try:
        values = [_URI_INDEX[char] for char in encoded]
    except KeyError:
        return None
    bits = _Reader(values)
    dictionary: dict[int, str] = {0: "\x00", 1: "\x01", 2: "\x02"}
    enlarge_in, size, width = 4, 4, 3
    first = bits.take(2)
    if first not in (0, 1):  # end of stream (2), or a code no encoder writes first (3)
        return ""
    word = chr(bits.take(8 if first == 0 else 16))
    dictionary[3] = word
    result = [word]
    while True:
        if bits.exhausted():
            return None
        code = bits.take(width)
        if code in (0, 1):
            dictionary[size] = chr(bits.take(8 if code == 0 else 16))
            size += 1
            code = size - 1
            enlarge_in -= 1
        elif code == 2:
            try:
                return _from_code_units("".join(result))
            except UnicodeDecodeError:
                return None
        if enlarge_in == 0:
            enlarge_in, width = 2**width, width + 1
        if code in dictionary:
            entry = dictionary[code]
        elif code == size:
            entry = word + word[0]
        else:
            return None
        result.append(entry)
        dictionary[size] = word + entry[0]
        size += 1
        enlarge_in -= 1
        word = entry
        if enlarge_in == 0:
            enlarge_in, width = 2**width, width + 1
