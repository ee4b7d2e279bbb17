"""The client's reads and writes: cache read modes, parsing into models, cache invalidation."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlencode

import httpx

from ..cache import ResponseCache, account_fingerprint, entry_key
from .errors import APIConnectionError, CacheMissError, NotFoundError, ResponseValidationError
from .meta import RateLimitInfo, ResponseMeta, attach_meta, response_meta
from .parsing import parse_body
from .paths import checked_path
from .sending import QueryItems, Sender
from .waits import RetryWait

__all__ = [
    "BaseClient",
    "CacheMissError",
    "RateLimitInfo",
    "ReadMode",
    "ResponseMeta",
    "RetryWait",
    "response_meta",
]

log = logging.getLogger("gitbook_tui.api")

ReadMode = Literal["network", "prefer-cache", "cache-only"]

STORE_APART_FROM = 256 * 1024
"""Answers at least this large are written to the response cache in a worker thread: a
1 MB page took ~12 ms of the event loop (more when the write-ahead log is checkpointed),
which is a screen not answering keys; SQLite lets the loop run meanwhile."""


@dataclass
class _Prepared:
    path: str
    params: QueryItems = field(default_factory=list)

    @property
    def query(self) -> str:
        return urlencode(sorted((k, str(v)) for k, v in self.params))


def _params(params: dict[str, Any] | None) -> QueryItems:
    items: QueryItems = []
    for key, value in (params or {}).items():
        if value is None:
            continue
        values = value if isinstance(value, list | tuple) else [value]
        for v in values:
            items.append((key, ("true" if v else "false") if isinstance(v, bool) else str(v)))
    return items


def _norm(path: str) -> str:
    return "/" + path.lstrip("/")


class _Unfit(Exception):
    """A body that parsed but that the caller's ``readable`` check refuses (``value``:
    what could be made of it, shown when nothing better can be had)."""

    def __init__(self, value: Any) -> None:
        super().__init__("unreadable")
        self.value = value


def _consume(task: asyncio.Task[Any]) -> None:
    """Mark a background task's failure as seen (whoever awaits it still gets it)."""
    if not task.cancelled():
        task.exception()


class BaseClient(Sender):
    """Serves reads from the response cache (by read mode) and parses answers into models;
    writes drop the cached reads they affect. Sending, retries and waits: :class:`Sender`."""

    def __init__(
        self,
        *,
        base_url: str,
        token: str | None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: httpx.Timeout | float | None = None,
        max_retries: int = 2,
        cache: ResponseCache | None = None,
        read_mode: ReadMode = "network",
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        account_server: str | None = None,
    ) -> None:
        super().__init__(
            base_url=base_url,
            token=token,
            transport=transport,
            timeout=timeout,
            max_retries=max_retries,
            sleep=sleep,
        )
        self.cache = cache
        self.read_mode: ReadMode = read_mode
        self._account = account_fingerprint(account_server or self.base_url, token)
        self._background: set[asyncio.Task[Any]] = set()

    async def close(self) -> None:
        for task in list(self._background):
            task.cancel()
        await super().close()

    async def __aenter__(self) -> BaseClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- reads --------------------------------------------------------------------------
    async def get(
        self,
        path: str,
        cast_to: Any,
        *,
        params: dict[str, Any] | None = None,
        read: ReadMode | None = None,
        operation: str = "",
        before_parse: Callable[[bytes], Awaitable[None]] | None = None,
        on_sent: Callable[[], None] | None = None,
        readable: Callable[[Any], bool] | None = None,
    ) -> Any:
        """GET ``path`` and parse it as ``cast_to`` (a pydantic model or type).

        ``read``: ``network`` (the cache only revalidates and covers for an unreachable
        server), ``prefer-cache`` (a cached answer at once, refreshed in the background),
        ``cache-only`` (:class:`CacheMissError` when absent).
        ``before_parse``: awaited with the body of a server answer (new, or a cached one
        the server confirmed) before it is stored and parsed (a pager sends the next
        page's request then, so the server prepares it while this one is handled).
        ``on_sent``: called when the request has been written (see :meth:`_send`).
        ``readable``: whether a parsed value converts in full (a document whose every
        block reads); a cached body it refuses is dropped and read again, in full, like
        one that does not parse (a 304 would only confirm it), and a new body it refuses
        is returned (the caller shows what it can) but not kept."""
        mode = read or self.read_mode
        check = readable
        path = checked_path(path)
        prepared = _Prepared(path, _params(params))
        operation = operation or f"GET {path}"
        key = entry_key(self._account, "GET", path, prepared.query)
        cached = self.cache.get(key) if self.cache is not None else None
        if mode == "cache-only":
            if cached is None:
                raise CacheMissError(path)
            meta = ResponseMeta("cache", cached.age, stale=True)
            try:
                return self._parse(cast_to, cached.body, operation, meta, check)
            except (ResponseValidationError, _Unfit):
                self._drop(key, path)  # unreadable: as good as absent
                raise CacheMissError(path) from None
        if mode == "prefer-cache" and cached is not None:
            try:
                value = self._parse(cast_to, cached.body, operation, ResponseMeta("cache"), check)
            except (ResponseValidationError, _Unfit):
                self._drop(key, path)
                cached = None  # read it again, without If-None-Match
            else:
                task = asyncio.create_task(
                    self._revalidate(prepared, key, cached.etag, cast_to, operation, check)
                )
                self._background.add(task)
                task.add_done_callback(self._background.discard)
                task.add_done_callback(_consume)
                meta = ResponseMeta("cache", cached.age, stale=True, refresh=task)
                return attach_meta(value, meta)
        try:
            etag = cached.etag if cached else None
            body, fresh = await self._fetch(prepared, key, etag, on_sent, before_parse)
        except APIConnectionError as unreachable:
            if cached is None:
                raise
            log.debug("GET %s: server unreachable, answering from the cache", path)
            meta = ResponseMeta("cache", cached.age, stale=True, offline=True)
            try:
                return self._parse(cast_to, cached.body, operation, meta, check)
            except _Unfit as unfit:
                return unfit.value  # offline: what can be read of it beats nothing
            except ResponseValidationError:
                self._drop(key, path)
                raise unreachable from None  # nothing readable to show instead
        if not fresh and cached is not None:
            if before_parse is not None:
                await before_parse(cached.body)
            try:
                meta = ResponseMeta("network")
                return self._parse(cast_to, cached.body, operation, meta, check)
            except (ResponseValidationError, _Unfit):
                # The server confirmed a body we cannot read (stored damaged, or by models
                # that read it differently): a 304 would only confirm it again, so ask anew.
                self._drop(key, path)
                body, fresh = await self._fetch(prepared, key, None, None, before_parse)
        return self._parse_fresh(cast_to, body, operation, key, path, check)

    def _drop(self, key: str, path: str) -> None:
        """Forget a cached answer that cannot be read."""
        log.debug("GET %s: the cached answer is unreadable; dropping it", path)
        if self.cache is not None:
            self.cache.delete(key)

    def _parse_fresh(
        self,
        cast_to: Any,
        body: bytes,
        operation: str,
        key: str,
        path: str,
        readable: Callable[[Any], bool] | None = None,
    ) -> Any:
        """Parse a body the server just sent; an unreadable one is not kept in the cache
        (so the next read asks for a full answer instead of revalidating this one)."""
        try:
            return self._parse(cast_to, body, operation, ResponseMeta("network"), readable)
        except _Unfit as unfit:
            self._drop(key, path)
            return unfit.value
        except ResponseValidationError:
            self._drop(key, path)
            raise

    async def _fetch(
        self,
        prepared: _Prepared,
        key: str,
        etag: str | None,
        on_sent: Callable[[], None] | None = None,
        before_store: Callable[[bytes], Awaitable[None]] | None = None,
    ) -> tuple[bytes, bool]:
        """(body, True) for a new answer, (b"", False) when the server said 304.
        ``before_store`` is awaited with a new body before it is written to the cache
        (a pager sends the next page's request then: the write is not in its way)."""
        headers = {"If-None-Match": etag} if etag else None
        try:
            response = await self._send(
                "GET", prepared.path, params=prepared.params, headers=headers, on_sent=on_sent
            )
        except NotFoundError:
            if self.cache is not None:
                self.cache.delete(key)
            raise
        if response.status_code == 304:
            if self.cache is not None:
                self.cache.touch(key)
            return b"", False
        body = response.content
        if before_store is not None:
            await before_store(body)
        storable = "no-store" not in response.headers.get("cache-control", "").lower()
        if self.cache is not None and storable:
            store = (key, self._account, prepared.path, body, response.headers.get("etag"))
            if len(body) >= STORE_APART_FROM:
                await asyncio.to_thread(self.cache.put, *store)
            else:
                self.cache.put(*store)
        return body, True

    async def _revalidate(
        self,
        prepared: _Prepared,
        key: str,
        etag: str | None,
        cast_to: Any,
        operation: str,
        readable: Callable[[Any], bool] | None = None,
    ) -> Any:
        body, fresh = await self._fetch(prepared, key, etag)
        if not fresh:
            return None
        return self._parse_fresh(cast_to, body, operation, key, prepared.path, readable)

    def _parse(
        self,
        cast_to: Any,
        body: bytes,
        operation: str,
        meta: ResponseMeta,
        readable: Callable[[Any], bool] | None = None,
    ) -> Any:
        value = attach_meta(parse_body(cast_to, body, operation), meta)
        if readable is not None and not readable(value):
            raise _Unfit(value)
        return value

    # -- writes -------------------------------------------------------------------------
    async def send(
        self,
        method: str,
        path: str,
        cast_to: Any = None,
        *,
        body: Any = None,
        params: dict[str, Any] | None = None,
        invalidates: Iterable[str] | None = (),
        refreshes: Iterable[str] = (),
        operation: str = "",
        headers: dict[str, str] | None = None,
    ) -> Any:
        """A mutation; on success the cached reads it affects are dropped: the resource
        itself, everything under it, the list it belongs to, and ``invalidates`` prefixes.
        ``refreshes`` are single resources (exact paths) whose JSON the change makes stale,
        such as a space whose comment counts moved.
        ``invalidates=None`` marks a POST that changes nothing (a render): nothing is dropped."""
        path = checked_path(path)
        method = method.upper()
        response = await self._send(
            method, path, params=_params(params), body=body, headers=headers
        )
        if self.cache is not None and invalidates is not None:
            parent = path.rsplit("/", 1)[0] or "/"
            prefixes = [path, *(_norm(p) for p in invalidates)]
            exact = [parent, *(_norm(p) for p in refreshes)]
            self.cache.invalidate(self._account, exact, prefixes)
        if cast_to is None or response.status_code in (204, 205) or not response.content:
            return None
        return self._parse(
            cast_to, response.content, operation or f"{method} {path}", ResponseMeta("network")
        )
