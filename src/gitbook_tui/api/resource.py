"""Base of the client's resource namespaces and small helpers for paths and bodies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .base import BaseClient
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
