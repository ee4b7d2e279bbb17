"""Paged lists: await one page, or ``async for`` over every item following ``next.page``."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Callable, Generator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from ..models import Page, PageCursor

if TYPE_CHECKING:
    from .base import BaseClient, ReadMode

T = TypeVar("T")

MAX_PAGE_SIZE = 1000


class _NextOnly(BaseModel):
    model_config = ConfigDict(extra="ignore")
    next: PageCursor | None = None


def peek_next_page(body: bytes) -> str | None:
    """The ``next.page`` of a list's body, read without making its items (pydantic-core
    skips them: ~1 ms for 1,000 spaces, against ~6 ms to make them); None if unreadable."""
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
        on_body: Callable[[bytes], None] | None = None,
    ) -> Page[T]:
        params = {**self._params, "limit": limit or self._limit, "page": token}
        result: Page[T] = await self._client.get(
            self._path,
            self._page_type,
            params=params,
            read=self._read,
            operation=self._operation,
            on_body=on_body,
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
        awaited: asyncio.Task[Page[T]] | None = None

        def fetch(token: str | None) -> asyncio.Task[Page[T]]:
            task = asyncio.create_task(self._get(token, None, on_body=peek))
            task.add_done_callback(_consume)  # a page never asked for fails unseen
            return task

        def start(token: str | None) -> None:
            nonlocal ahead, ahead_token
            if token and token not in used:
                used.add(token)
                ahead, ahead_token = fetch(token), token

        def peek(body: bytes) -> None:
            # Only for the page the caller is waiting for: one page ahead at most.
            if ahead is None and asyncio.current_task() is awaited:
                start(peek_next_page(body))

        current: asyncio.Task[Page[T]] | None = fetch(None)
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
