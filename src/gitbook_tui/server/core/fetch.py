"""Outbound fetches of the local server (imports, OpenAPI sources, dev tunnels) with limits."""

from __future__ import annotations

import functools
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urljoin, urlparse

import certifi
import httpx

from . import url_guard
from .url_guard import FetchPolicy, ResolveTimeout, UrlRefused, local_path, pin


class FetchError(Exception):
    """A fetch that failed; ``code`` is a stable machine-readable reason."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status  # the API status when the fetch was refused


@dataclass(frozen=True)
class Fetched:
    url: str
    status: int
    content_type: str
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


@functools.cache
def _tls() -> ssl.SSLContext:
    """httpx's default verifying TLS context, made once: loading the CA bundle takes
    tens of milliseconds, which every new client would otherwise spend again."""
    return ssl.create_default_context(cafile=certifi.where())


MAX_REDIRECTS = 10
_REDIRECTS = (301, 302, 303, 307, 308)


def _refused(exc: UrlRefused) -> FetchError:
    if isinstance(exc, ResolveTimeout):  # the name service was slow: nothing was refused
        return FetchError("FETCH_TIMEOUT", exc.message, status=exc.status)
    return FetchError("FETCH_REFUSED", exc.message, status=exc.status)


def fetch_url(
    url: str, *, timeout: float, max_bytes: int, policy: FetchPolicy | None = None
) -> Fetched:
    """GET ``url`` reading at most ``max_bytes`` within ``timeout`` seconds in all.

    http(s) only to addresses ``policy`` allows, checked and pinned on every redirect hop;
    ``file://`` only under the policy's import roots (code ``FETCH_REFUSED`` otherwise).
    """
    policy = policy or FetchPolicy()
    parsed = urlparse(url)
    if parsed.scheme == "file":
        try:
            path = local_path(url, policy)
        except UrlRefused as exc:
            raise _refused(exc) from exc
        if not path.is_file():
            raise FetchError("FETCH_FAILED", f"no such file: {path}")
        if path.stat().st_size > max_bytes:
            raise FetchError("FETCH_TOO_LARGE", f"larger than {max_bytes} bytes")
        return Fetched(url, 200, "", path.read_bytes())
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise FetchError("FETCH_FAILED", f"not an http(s) URL: {url!r}")
    deadline = time.monotonic() + timeout
    current = url
    try:
        # trust_env=False: no proxy from the environment may carry the request elsewhere.
        with httpx.Client(
            timeout=timeout, follow_redirects=False, trust_env=False, verify=_tls()
        ) as client:
            for _ in range(MAX_REDIRECTS + 1):
                try:
                    left = min(url_guard.RESOLVE_SECONDS, deadline - time.monotonic())
                    hop = pin(current, policy, resolve_seconds=left)
                except UrlRefused as exc:
                    raise _refused(exc) from exc
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise httpx.ReadTimeout("out of time following redirects")
                with client.stream(
                    "GET",
                    hop.connect_url,
                    headers=hop.headers,
                    extensions=hop.extensions,
                    timeout=remaining,
                ) as response:
                    location = response.headers.get("location")
                    if response.status_code in _REDIRECTS and location:
                        current = urljoin(current, location)
                        continue
                    return _read(current, response, max_bytes)
            raise FetchError("FETCH_FAILED", f"{url}: more than {MAX_REDIRECTS} redirects")
    except httpx.TimeoutException as exc:
        raise FetchError("FETCH_TIMEOUT", f"{url} did not answer within {timeout:g} s") from exc
    except httpx.HTTPError as exc:
        raise FetchError("FETCH_FAILED", f"could not fetch {url}: {exc}") from exc


def _read(url: str, response: httpx.Response, max_bytes: int) -> Fetched:
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise FetchError("FETCH_TOO_LARGE", f"larger than {max_bytes} bytes")
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
        url, response.status_code, response.headers.get("content-type", ""), b"".join(chunks)
    )


def post_json(
    url: str,
    payload: object,
    *,
    timeout: float,
    headers: dict[str, str] | None = None,
    policy: FetchPolicy | None = None,
) -> httpx.Response:
    """POST JSON to ``url`` (dev tunnels) at an address ``policy`` allows, no redirects
    followed; raises FetchError on a refused URL or any transport failure."""
    try:
        hop = pin(url, policy or FetchPolicy())
    except UrlRefused as exc:
        raise _refused(exc) from exc
    try:
        with httpx.Client(timeout=timeout, trust_env=False, verify=_tls()) as client:
            return client.post(
                hop.connect_url,
                json=payload,
                headers={**(headers or {}), **hop.headers},
                extensions=hop.extensions,
            )
    except httpx.TimeoutException as exc:
        raise FetchError("FETCH_TIMEOUT", f"{url} did not answer within {timeout:g} s") from exc
    except httpx.HTTPError as exc:
        raise FetchError("FETCH_FAILED", f"could not reach {url}: {exc}") from exc
