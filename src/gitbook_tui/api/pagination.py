"""Paged lists: await one page, or ``async for`` over every item following ``next.page``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator
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
            raise ValueError(f"limit must be between 1 and {MAX_PAGE_SIZE}")
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

    async def page(self, token: str | None = None) -> Page[T]:
        params = {**self._params, "limit": self._limit, "page": token}
        result: Page[T] = await self._client.get(
            self._path, self._page_type, params=params, read=self._read, operation=self._operation
        )
        return result

    def __await__(self) -> Generator[Any, None, Page[T]]:
        return self.page().__await__()

    async def pages(self) -> AsyncIterator[Page[T]]:
        token: str | None = None
        seen = 0
        while True:
            current = await self.page(token)
            yield current
            seen += len(current.items)
            token = current.next.page if current.next else None
            if not token or (self._max_items is not None and seen >= self._max_items):
                return

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
