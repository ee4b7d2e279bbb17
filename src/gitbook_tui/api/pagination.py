"""Paged lists: await one page, or ``async for`` over every item following ``next.page``."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncGenerator, Awaitable, Callable, Generator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from ..models import Page, PageCursor

if TYPE_CHECKING:
    from .base import BaseClient, ReadMode

T = TypeVar("T")

MAX_PAGE_SIZE = 1000
# How long a page waits, before it is parsed, for the next page's request to be written
# (httpx's own transport says when, through httpcore's trace extension, well under a
# millisecond after; other transports never do). The wait overlaps that request anyway.
SEND_WAIT = 0.02


class _NextOnly(BaseModel):
    model_config = ConfigDict(extra="ignore")
    next: PageCursor | None = None


# A body ending in ``"next": {"page": "TOKEN"}}`` (or ``"next": null}``) names its next page
# in its last bytes: the closing brace after it ends the top-level object, so this "next" is
# the envelope's own, not an item's. Read there without parsing the body (a few µs, against
# ~1 ms to skip 1,000 items); any other shape is parsed. Only a hint: the pager compares it
# with the validated page's ``next.page`` and asks again when they differ.
_TAIL = 256
_TAIL_NEXT = re.compile(rb'"next"\s*:\s*(?:\{\s*"page"\s*:\s*"([^"\\]+)"\s*\}|null)\s*\}\s*\Z')


def peek_next_page(body: bytes) -> str | None:
    """The ``next.page`` of a list's body, read without making its items (pydantic-core
    skips them: ~1 ms for 1,000 spaces, against ~6 ms to make them); None if unreadable."""
    tail = _TAIL_NEXT.search(body, max(0, len(body) - _TAIL))
    if tail is not None:
        token = tail.group(1)
        with contextlib.suppress(UnicodeDecodeError):
            return token.decode() if token is not None else None
    try:
        cursor = _NextOnly.model_validate_json(body).next
    except ValidationError:
        return None
    return cursor.page if cursor is not None else None


def _consume(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()


class AsyncPager(Generic[T]):
    """A list operation. ``await pager`` gives the first :class:`Page`; ``async for item in
    pager`` walks every page (at most ``max_items`` items in all when given)."""

    def __init__(
        self,
        client: BaseClient,
        path: str,
        item_type: type[T],
        *,
        params: dict[str, Any] | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
        operation: str = "",
    ) -> None:
        if limit is not None and not 0 < limit <= MAX_PAGE_SIZE:
            raise ValueError(f"limit must be between 1 and {MAX_PAGE_SIZE}, not {limit}")
        if max_items is not None and max_items < 0:
            raise ValueError(f"max_items must not be negative, not {max_items}")
        self._client = client
        self._path = path
        self._page_type: Any = Page[item_type]  # type: ignore[valid-type]
        self._params = dict(params or {})
        self._limit = limit
        self._max_items = max_items
        self._read = read
        self._operation = operation or f"GET {path}"

    def __repr__(self) -> str:
        return f"AsyncPager(path={self._path!r})"

    async def page(self, token: str | None = None, *, limit: int | None = None) -> Page[T]:
        """One page: the first, or the one ``token`` (a ``next.page`` value) names."""
        return await self._get(token, limit)

    async def _get(
        self,
        token: str | None,
        limit: int | None,
        before_parse: Callable[[bytes], Awaitable[None]] | None = None,
        on_sent: Callable[[], None] | None = None,
    ) -> Page[T]:
        params = {**self._params, "limit": limit or self._limit, "page": token}
        result: Page[T] = await self._client.get(
            self._path,
            self._page_type,
            params=params,
            read=self._read,
            operation=self._operation,
            before_parse=before_parse,
            on_sent=on_sent,
        )
        return result

    def __await__(self) -> Generator[Any, None, Page[T]]:
        return self.page().__await__()

    async def pages(self) -> AsyncGenerator[Page[T], None]:
        """Every page in turn, until there is no ``next.page`` (or a token repeats, or
        ``max_items`` items were fetched).

        Network reads of a whole list read one page ahead: the next page is asked for as
        soon as this one's body names it, so the server prepares it while this one is
        made into models (never more than one page ahead of the caller; a caller that
        stops early cancels it)."""
        if self._max_items is None and (self._read or self._client.read_mode) == "network":
            async with contextlib.aclosing(self._read_ahead()) as pages:
                async for current in pages:
                    yield current
            return
        token: str | None = None
        used: set[str] = set()
        seen = 0
        if self._max_items == 0:
            return
        while True:
            limit = self._limit
            if self._max_items is not None:
                remaining = min(self._max_items - seen, MAX_PAGE_SIZE)
                limit = min(limit, remaining) if limit is not None else remaining
            current = await self.page(token, limit=limit)
            yield current
            seen += len(current.items)
            token = current.next.page if current.next else None
            if not token or token in used:
                return
            if self._max_items is not None and seen >= self._max_items:
                return
            used.add(token)

    async def _read_ahead(self) -> AsyncGenerator[Page[T], None]:
        used: set[str] = set()
        ahead: asyncio.Task[Page[T]] | None = None
        ahead_token: str | None = None
        ahead_sent = asyncio.Event()
        awaited: asyncio.Task[Page[T]] | None = None

        def fetch(token: str | None, sent: asyncio.Event) -> asyncio.Task[Page[T]]:
            task = asyncio.create_task(
                self._get(token, None, before_parse=before_parse, on_sent=sent.set)
            )
            task.add_done_callback(_consume)  # a page never asked for fails unseen
            task.add_done_callback(lambda _: sent.set())  # answered (or failed) unsent
            return task

        def start(token: str | None) -> None:
            nonlocal ahead, ahead_token, ahead_sent
            if token and token not in used:
                used.add(token)
                ahead_sent = asyncio.Event()
                ahead, ahead_token = fetch(token, ahead_sent), token

        async def before_parse(body: bytes) -> None:
            # Only for the page the caller is waiting for: one page ahead at most. The
            # next request goes out before this page is parsed (a task only runs when
            # this one yields), so the server prepares it during the parse.
            if ahead is None and asyncio.current_task() is awaited:
                start(peek_next_page(body))
                if ahead is not None:
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(SEND_WAIT):
                            await ahead_sent.wait()

        current: asyncio.Task[Page[T]] | None = fetch(None, asyncio.Event())
        try:
            while current is not None:
                awaited = current
                page = await current
                awaited = None
                token = page.next.page if page.next else None
                if ahead is not None and ahead_token != token:  # a body read differently
                    ahead.cancel()
                    used.discard(ahead_token or "")
                    ahead = None
                if ahead is None:
                    start(token)
                current, ahead = ahead, None
                yield page
        finally:
            for task in (current, ahead):
                if task is not None:
                    task.cancel()

    async def __aiter__(self) -> AsyncGenerator[T, None]:
        count = 0
        async with contextlib.aclosing(self.pages()) as pages:  # stopping ends a read-ahead
            async for current in pages:
                for item in current.items:
                    if self._max_items is not None and count >= self._max_items:
                        return
                    count += 1
                    yield item

    async def to_list(self) -> list[T]:
        return [item async for item in self]
