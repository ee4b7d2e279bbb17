"""Paged lists: await one page, or ``async for`` over every item following ``next.page``."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Generator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..models import Page

if TYPE_CHECKING:
    from .base import BaseClient, ReadMode

T = TypeVar("T")

MAX_PAGE_SIZE = 1000


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
        params = {**self._params, "limit": limit or self._limit, "page": token}
        result: Page[T] = await self._client.get(
            self._path, self._page_type, params=params, read=self._read, operation=self._operation
        )
        return result

    def __await__(self) -> Generator[Any, None, Page[T]]:
        return self.page().__await__()

    async def pages(self) -> AsyncGenerator[Page[T], None]:
        """Every page in turn, until there is no ``next.page`` (or a token repeats, or
        ``max_items`` items were fetched)."""
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

    async def __aiter__(self) -> AsyncIterator[T]:
        count = 0
        async for current in self.pages():
            for item in current.items:
                if self._max_items is not None and count >= self._max_items:
                    return
                count += 1
                yield item

    async def to_list(self) -> list[T]:
        return [item async for item in self]
