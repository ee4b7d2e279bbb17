"""Access rules of ``gitbook-tui web``: the access key, its cookie and which hosts may ask.

Light on purpose (no aiohttp): ``run_web`` checks the options with it before importing the
web server, and tests check the rules without one.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from pathlib import Path

__all__ = [
    "COOKIE",
    "MIN_KEY_LENGTH",
    "Access",
    "is_loopback",
    "new_key",
    "read_key_file",
]

COOKIE = "gitbook_tui_access"
"""The cookie a browser gets for a right key (HttpOnly, SameSite=Strict)."""

MIN_KEY_LENGTH = 16
"""A shorter key in --access-key-file is refused: it could be guessed over the network."""

_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback(host: str) -> bool:
    """``host`` (a name or an address, IPv6 with or without brackets) is this machine only."""
    host = host.strip().lower().removeprefix("[").removesuffix("]")
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_name(host_header: str) -> str:
    """The host part of a ``Host`` header (``[::1]:8000`` → ``::1``, ``a:80`` → ``a``)."""
    if host_header.startswith("["):
        return host_header[1:].split("]", 1)[0]
    return host_header.rsplit(":", 1)[0] if host_header.count(":") == 1 else host_header


def new_key() -> str:
    """A fresh access key (32 random bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


def read_key_file(path: Path) -> str:
    """The key in ``path`` (its first line); ValueError saying what is wrong with it."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {path}: {exc}") from exc
    key = lines[0].strip() if lines else ""
    if len(key) < MIN_KEY_LENGTH:
        raise ValueError(f"{path}: the key must be at least {MIN_KEY_LENGTH} characters")
    return key


class Access:
    """Who may use the web server: anyone on this machine (no key), or whoever shows the key
    (``/?key=…`` once, then the cookie it sets).

    Without a key only loopback ``Host`` headers are served: a web page elsewhere cannot
    reach the server through a name it rebinds to 127.0.0.1 (DNS rebinding)."""

    def __init__(self, key: str | None) -> None:
        self._key = key.encode() if key is not None else None
        # The cookie holds a value derived from the key, not the key: a cookie read off a
        # browser's disk does not give the key for another browser's URL.
        self._cookie = (
            hmac.new(self._key, b"gitbook-tui web cookie", hashlib.sha256).hexdigest()
            if self._key is not None
            else None
        )

    @property
    def required(self) -> bool:
        return self._key is not None

    def key_matches(self, given: str) -> bool:
        return self._key is not None and hmac.compare_digest(given.encode(), self._key)

    def cookie_value(self) -> str:
        assert self._cookie is not None
        return self._cookie

    def cookie_matches(self, given: str | None) -> bool:
        if self._cookie is None or given is None:
            return False
        return hmac.compare_digest(given.encode(), self._cookie.encode())

    def host_allowed(self, host_header: str) -> bool:
        """With no key, only a loopback ``Host``; with one, any (the key decides)."""
        return self.required or is_loopback(host_name(host_header))
