"""Where a Git Sync folder is read from: a folder on disk or a base URL over HTTP."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol
from urllib.parse import quote, urljoin, urlparse

from ..core.fetch import Fetched, FetchError, fetch_url
from ..core.url_guard import FetchPolicy, local_path


class ContentImportError(ValueError):
    """An import that cannot be done; ``message`` is meant for the API client."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class FileTooLarge(ContentImportError):
    """One file over the size limit: the import skips it (with a warning) and goes on."""


# -- reading a folder (local or over HTTP) -------------------------------------------------------


class Source(Protocol):
    def read(self, rel: str) -> bytes | None: ...

    def assets(self, folder: str) -> list[str]: ...

    def describe(self, rel: str) -> str: ...


@dataclass
class FolderSource:
    """A Git Sync folder on disk."""

    root: Path
    max_bytes: int = 50 * 1024 * 1024

    def read(self, rel: str) -> bytes | None:
        path = (self.root / rel).resolve()
        try:
            path.relative_to(self.root.resolve())
        except ValueError:
            return None
        try:
            if not path.is_file():
                return None
            if path.stat().st_size > self.max_bytes:
                raise FileTooLarge(f"{rel}: larger than {self.max_bytes} bytes")
            return path.read_bytes()
        except OSError as exc:
            raise ContentImportError(f"{rel}: cannot be read ({exc.strerror or exc})") from exc

    def assets(self, folder: str) -> list[str]:
        base = self.root / folder
        if not base.is_dir():
            return []
        return sorted(
            p.relative_to(self.root).as_posix()
            for p in base.rglob("*")
            if p.is_file() and not p.name.startswith(".")
        )

    def describe(self, rel: str) -> str:
        return str(self.root / rel)


@dataclass
class HttpSource:
    """A Git Sync folder served over HTTP; every file is fetched by its relative URL."""

    base: str
    timeout: float
    max_bytes: int
    policy: FetchPolicy = field(default_factory=FetchPolicy)

    def url(self, rel: str) -> str:
        return urljoin(self.base, quote(rel))

    def fetch(self, rel: str) -> Fetched:
        """GET one file of the folder (FetchError when it fails)."""
        return fetch_url(
            self.url(rel), timeout=self.timeout, max_bytes=self.max_bytes, policy=self.policy
        )

    def read(self, rel: str) -> bytes | None:
        try:
            return self.fetch(rel).body
        except FetchError as exc:
            if exc.code == "FETCH_HTTP_ERROR" or (
                exc.code == "FETCH_FAILED" and "no such file" in exc.message
            ):
                return None
            if exc.code == "FETCH_TOO_LARGE":
                raise FileTooLarge(f"{rel}: {_reason(exc)}") from exc
            raise ContentImportError(f"{self.url(rel)}: {_reason(exc)}", exc.status) from exc

    def assets(self, folder: str) -> list[str]:
        return []  # an HTTP folder cannot be listed: assets come from page references

    def describe(self, rel: str) -> str:
        return self.url(rel)


def _reason(exc: FetchError) -> str:
    if exc.code == "FETCH_TIMEOUT":
        return "timed out (" + exc.message + ")"
    if exc.code == "FETCH_TOO_LARGE":
        return "too large (" + exc.message + ")"
    return exc.message


# -- naming a folder by URL -------------------------------------------------------------------


def is_loopback(url: str) -> bool:
    host = (urlparse(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def folder_base(url: str) -> str | None:
    """The folder URL a URL may name (``…/``, ``…/.gitbook.yaml``, ``…/SUMMARY.md`` or a
    path without an extension), else ``None``."""
    parsed = urlparse(url)
    path = parsed.path or "/"
    last = path.rsplit("/", 1)[-1]
    if last in (".gitbook.yaml", "SUMMARY.md"):
        path = path[: -len(last)]
    elif last and "." in last:
        return None
    elif not path.endswith("/"):
        path += "/"
    return parsed._replace(path=path, query="", fragment="").geturl()


def local_folder(url: str, policy: FetchPolicy) -> Path | None:
    """The folder a ``file://`` URL names when it is a Git Sync folder (UrlRefused when the
    path is not under one of ``policy``'s import roots)."""
    parsed = urlparse(url)
    if parsed.scheme != "file":
        return None
    path = local_path(url, policy)
    if path.is_file() and path.name in (".gitbook.yaml", "SUMMARY.md"):
        path = path.parent
    if path.is_dir():
        return path
    return None
