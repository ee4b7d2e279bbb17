"""Base of the client's resource namespaces and small helpers for paths and bodies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .base import BaseClient, ReadMode
from .pagination import AsyncPager
from .paths import segment, segments

# Every id that goes into a path goes through ``seg`` (ids come from servers and users):
# escaped, and refused with a ValueError naming the parameter when it is not one segment.
seg = segment
__all__ = ["NULL", "OPERATIONS", "Resource", "body", "operation", "seg", "segments"]


def body(**fields: Any) -> dict[str, Any]:
    """A JSON body of the fields that were given (``None`` means 'not sent').

    Use :data:`NULL` to send an explicit JSON null (e.g. to remove a value)."""
    return {k: (None if v is NULL else v) for k, v in fields.items() if v is not None}


class _Null:
    def __repr__(self) -> str:
        return "NULL"


NULL: Any = _Null()


F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

# "METHOD /v1/path" of each API operation -> the client methods that perform it.
OPERATIONS: dict[str, list[str]] = {}


def operation(*signatures: str) -> Callable[[F], F]:
    """Mark a client method as performing these API operations (``"GET /v1/orgs"``)."""

    def mark(func: F) -> F:
        for signature in signatures:
            OPERATIONS.setdefault(signature, []).append(func.__qualname__)
        return func

    return mark


class Resource:
    """A namespace of operations sharing the client's transport, retries and cache."""

    def __init__(self, client: BaseClient) -> None:
        self._client = client

    async def _read(
        self,
        path: str,
        cast_to: type[T],
        operation: str,
        *,
        params: dict[str, Any] | None = None,
        read: ReadMode | None = None,
    ) -> T:
        """A read of one resource (by the client's read mode unless ``read`` is given)."""
        result: T = await self._client.get(
            path, cast_to, params=params, read=read, operation=operation
        )
        return result

    def _list(
        self,
        path: str,
        item_type: type[T],
        operation: str,
        *,
        params: dict[str, Any] | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[T]:
        """A paged list: ``await`` it for the first page, ``async for`` for every item."""
        return AsyncPager(
            self._client,
            path,
            item_type,
            params=params,
            limit=limit,
            max_items=max_items,
            read=read,
            operation=operation,
        )
