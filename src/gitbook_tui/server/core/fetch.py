"""Outbound fetches of the local server (imports, OpenAPI sources, dev tunnels) with limits."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

import httpx


class FetchError(Exception):
    """A fetch that failed; ``code`` is a stable machine-readable reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Fetched:
    url: str
    status: int
    content_type: str
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


def fetch_url(url: str, *, timeout: float, max_bytes: int, allow_file: bool = False) -> Fetched:
    """GET ``url`` (http/https, or file:// when allowed) reading at most ``max_bytes``."""
    parsed = urlparse(url)
    if parsed.scheme == "file":
        if not allow_file:
            raise FetchError("FETCH_FAILED", "file:// URLs are not allowed here")
        path = Path(unquote(parsed.path))
        if not path.is_file():
            raise FetchError("FETCH_FAILED", f"no such file: {path}")
        if path.stat().st_size > max_bytes:
            raise FetchError("FETCH_TOO_LARGE", f"larger than {max_bytes} bytes")
        return Fetched(url, 200, "", path.read_bytes())
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise FetchError("FETCH_FAILED", f"not an http(s) URL: {url!r}")
    try:
        with (
            httpx.Client(timeout=timeout, follow_redirects=True) as client,
            client.stream("GET", url) as response,
        ):
            chunks: list[bytes] = []
            size = 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > max_bytes:
                    raise FetchError("FETCH_TOO_LARGE", f"larger than {max_bytes} bytes")
                chunks.append(chunk)
            if response.status_code >= 400:
                raise FetchError("FETCH_HTTP_ERROR", f"{url} answered HTTP {response.status_code}")
            return Fetched(
                str(response.url),
                response.status_code,
                response.headers.get("content-type", ""),
                b"".join(chunks),
            )
    except httpx.TimeoutException as exc:
        raise FetchError("FETCH_TIMEOUT", f"{url} did not answer within {timeout:g} s") from exc
    except httpx.HTTPError as exc:
        raise FetchError("FETCH_FAILED", f"could not fetch {url}: {exc}") from exc


def post_json(
    url: str, payload: object, *, timeout: float, headers: dict[str, str] | None = None
) -> httpx.Response:
    """POST JSON to ``url`` (dev tunnels); raises FetchError on any transport failure."""
    try:
        with httpx.Client(timeout=timeout) as client:
            return client.post(url, json=payload, headers=headers or {})
    except httpx.TimeoutException as exc:
        raise FetchError("FETCH_TIMEOUT", f"{url} did not answer within {timeout:g} s") from exc
    except httpx.HTTPError as exc:
        raise FetchError("FETCH_FAILED", f"could not reach {url}: {exc}") from exc
