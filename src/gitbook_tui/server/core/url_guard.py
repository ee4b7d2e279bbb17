"""Which URLs the server may fetch for an API caller: file:// folders and http(s) addresses.

The operator decides, the API caller never does:

- ``file://`` URLs are refused unless the path lies under a folder the operator named with
  ``serve --allow-import-root DIR`` (``serve --import DIR`` reads its folder directly and
  needs no URL at all).
- ``http(s)`` URLs are resolved first and refused when an address is loopback, link-local,
  private, unspecified, multicast, reserved or a cloud metadata endpoint, unless the URL's
  host is one the operator allowed with ``serve --allow-fetch-host HOST[:PORT]``.

:func:`pin` checks one hop and names the address to connect to, so the connection goes to
the address that was checked (a DNS answer that changes between the check and the connect
cannot redirect the request); :mod:`.fetch` pins every redirect hop again.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import unquote, urlparse

import httpx

from .errors import ApiError

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# Cloud instance metadata services (AWS, GCP, Azure, OpenStack share the first; AWS IPv6;
# Alibaba Cloud): named apart because reaching them leaks the machine's credentials.
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a) for a in ("169.254.169.254", "fd00:ec2::254", "100.100.100.200")
)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
DEFAULT_PORTS = {"http": 80, "https": 443}
RESOLVE_SECONDS = 10.0
"""How long a host name may take to resolve (a slow or silent resolver must not hold an
import or a fetch, and the request waiting on it, for the system's own minutes)."""
_RESOLVERS = ThreadPoolExecutor(max_workers=8, thread_name_prefix="resolve")
"""getaddrinfo cannot be interrupted: lookups run here, at most 8 at once, and a caller
stops waiting after its timeout (the lookup ends in the background)."""


class UrlRefused(Exception):
    """A URL the policy refuses; ``status`` is 403 for local files, 400 for addresses."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class ResolveTimeout(UrlRefused):
    """The host did not resolve in time (status 504: the name service, not the caller)."""

    def __init__(self, host: str, seconds: float) -> None:
        super().__init__(f"the host {host} did not resolve within {seconds:.3g} s", 504)


@dataclass(frozen=True)
class HostRule:
    """``host`` (lower case, IPv6 without brackets) and a port, or any port when ``None``."""

    host: str
    port: int | None = None

    def matches(self, host: str, port: int) -> bool:
        return self.host == host.lower() and self.port in (None, port)


def parse_host_rule(spec: str) -> HostRule:
    """``HOST``, ``HOST:PORT``, ``[IPv6]`` or ``[IPv6]:PORT``; ValueError when malformed."""
    text = spec.strip()
    port: str | None = None
    if text.startswith("["):
        host, sep, rest = text[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            raise ValueError(f"'{spec}' is not HOST[:PORT] (IPv6 as [addr]:port)")
        port = rest[1:] if rest else None
    elif text.count(":") == 1:
        host, port = text.split(":")
    elif ":" in text:
        host = text  # a bare IPv6 address
    else:
        host = text
    if not host or any(c in host for c in "/?#@ "):
        raise ValueError(f"'{spec}' is not HOST[:PORT]")
    if port is not None and not (port.isdigit() and 0 < int(port) < 65536):
        raise ValueError(f"'{spec}': the port must be a number from 1 to 65535")
    return HostRule(host.lower(), int(port) if port is not None else None)


@dataclass(frozen=True)
class FetchPolicy:
    """The operator's exceptions: folders file:// may read, hosts exempt from the address
    check. The default allows neither."""

    import_roots: tuple[Path, ...] = ()
    allowed_hosts: tuple[HostRule, ...] = field(default=())

    @classmethod
    def build(
        cls, import_roots: Iterable[str | Path] = (), allow_hosts: Iterable[str] = ()
    ) -> FetchPolicy:
        return cls().widened(import_roots, allow_hosts)

    def widened(
        self, import_roots: Iterable[str | Path] = (), allow_hosts: Iterable[str] = ()
    ) -> FetchPolicy:
        roots = self.import_roots + tuple(Path(r).expanduser().resolve() for r in import_roots)
        rules = self.allowed_hosts + tuple(parse_host_rule(h) for h in allow_hosts)
        return replace(self, import_roots=roots, allowed_hosts=rules)

    def host_allowed(self, host: str, port: int) -> bool:
        return any(rule.matches(host, port) for rule in self.allowed_hosts)

    def url_host_allowed(self, url: str) -> bool:
        """Whether ``url``'s host (and port) is one the operator allowed."""
        try:
            parsed = httpx.URL(url)
        except (httpx.InvalidURL, TypeError):
            return False
        port = parsed.port or DEFAULT_PORTS.get(parsed.scheme, 0)
        return self.host_allowed(parsed.raw_host.decode("ascii"), port)


class _HasPolicy(Protocol):
    fetch_policy: FetchPolicy


@contextmanager
def trusting(
    state: _HasPolicy, import_roots: Iterable[str | Path] = (), allow_hosts: Iterable[str] = ()
) -> Iterator[None]:
    """Widen ``state``'s policy for a block (the demo seeder imports its own folders)."""
    saved = state.fetch_policy
    state.fetch_policy = saved.widened(import_roots, allow_hosts)
    try:
        yield
    finally:
        state.fetch_policy = saved


# -- file:// ------------------------------------------------------------------------------------


def local_path(url: str, policy: FetchPolicy) -> Path:
    """The file or folder a ``file://`` URL names, when it lies under an allowed root."""
    parsed = urlparse(url)
    if parsed.netloc not in ("", "localhost"):
        raise UrlRefused(f"file:// URLs of another host ({parsed.netloc}) are not supported", 403)
    if not policy.import_roots:
        raise UrlRefused(
            "file:// URLs are not allowed: the server reads no local files for API callers "
            "(its operator can allow a folder with `serve --allow-import-root DIR`)",
            403,
        )
    path = Path(unquote(parsed.path)).resolve()  # symlinks and .. resolved before the check
    if not any(path == root or path.is_relative_to(root) for root in policy.import_roots):
        raise UrlRefused(
            f"file:// URLs must name a path under an allowed import root; {path} is not under "
            "one (see `serve --allow-import-root DIR`)",
            403,
        )
    return path


# -- http(s) ------------------------------------------------------------------------------------


def resolve(host: str, port: int) -> list[Address]:
    """Every address ``host`` resolves to (tests replace this to fake DNS answers)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    found: list[Address] = []
    for info in infos:
        text = str(info[4][0]).split("%", 1)[0]  # drop an IPv6 zone id
        addr = ipaddress.ip_address(text)
        if addr not in found:
            found.append(addr)
    return found


def resolve_within(host: str, port: int, seconds: float) -> list[Address]:
    """:func:`resolve`, giving up after ``seconds`` (:class:`ResolveTimeout`)."""
    future = _RESOLVERS.submit(resolve, host, port)
    try:
        return future.result(timeout=max(seconds, 0.0))
    except FutureTimeout:
        future.cancel()  # (still queued: never runs)
        raise ResolveTimeout(host, seconds) from None


def blocked_reason(addr: Address) -> str | None:
    """Why the server must not connect to ``addr`` for a caller, or ``None`` if it may."""
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.ipv4_mapped is not None:
            addr = addr.ipv4_mapped
        elif addr in _NAT64:
            addr = ipaddress.IPv4Address(int(addr) & 0xFFFFFFFF)
        elif addr.sixtofour is not None and blocked_reason(addr.sixtofour) is not None:
            return "private"
    if addr in METADATA_ADDRESSES:
        return "cloud metadata"
    if addr.is_unspecified:
        return "unspecified"
    if addr.is_loopback:
        return "loopback"
    if addr.is_link_local:
        return "link-local"
    if addr.is_multicast:
        return "multicast"
    if addr.is_private:
        return "private"
    if addr.is_reserved or not addr.is_global:
        return "non-public"
    return None


@dataclass(frozen=True)
class Pinned:
    """One checked hop: the caller's URL and how to reach the checked address."""

    url: str
    connect_url: str
    headers: dict[str, str]
    extensions: dict[str, Any]


def pin(url: str, policy: FetchPolicy, *, resolve_seconds: float | None = None) -> Pinned:
    """Check ``url`` (scheme, host, every address it resolves to within
    ``resolve_seconds``, by default :data:`RESOLVE_SECONDS`) and pin its address."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError) as exc:
        raise UrlRefused(f"not a valid URL: {exc}") from exc
    if parsed.scheme not in DEFAULT_PORTS or not parsed.host:
        raise UrlRefused(f"only http(s) URLs can be fetched, not {url!r}")
    if parsed.userinfo:
        raise UrlRefused("URLs with a user name or password are not fetched")
    host = parsed.raw_host.decode("ascii")
    port = parsed.port or DEFAULT_PORTS[parsed.scheme]
    try:
        seconds = RESOLVE_SECONDS if resolve_seconds is None else resolve_seconds
        addresses = resolve_within(host, port, seconds)
    except (OSError, UnicodeError, ValueError) as exc:
        raise UrlRefused(f"cannot resolve the host {host}: {exc}") from exc
    if not addresses:
        raise UrlRefused(f"cannot resolve the host {host}")
    if not policy.host_allowed(host, port):
        for addr in addresses:
            reason = blocked_reason(addr)
            if reason is not None:
                named = "" if host == str(addr) else f" (the host {host} resolves to it)"
                raise UrlRefused(
                    f"refusing to fetch a {reason} address {addr}{named}; the server's "
                    "operator can allow the host with `serve --allow-fetch-host HOST[:PORT]`"
                )
    connect = parsed.copy_with(host=str(addresses[0]))
    extensions: dict[str, Any] = {}
    if parsed.scheme == "https":
        extensions["sni_hostname"] = host  # the certificate is checked against the name
    return Pinned(url, str(connect), {"Host": parsed.netloc.decode("ascii")}, extensions)


def require_fetchable(url: str, policy: FetchPolicy, field_name: str = "url") -> None:
    """An API error (403 for local files, 400 for addresses) naming ``field_name`` unless
    ``policy`` lets the server fetch ``url`` for a caller. Checked up front so a caller
    gets a clear refusal; the fetch checks every hop again."""
    try:
        if urlparse(url).scheme == "file":
            local_path(url, policy)
        else:
            pin(url, policy)
    except UrlRefused as exc:
        raise ApiError(exc.status, f"{field_name}: {exc.message}") from exc
