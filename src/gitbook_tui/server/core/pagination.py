"""``Page<T>`` lists with opaque ``next.page`` tokens and a ``limit`` of at most 1000."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Query

from .errors import bad_request

T = TypeVar("T")

DEFAULT_LIMIT = 100
MAX_LIMIT = 1000


@dataclass(frozen=True)
class Paging:
    page: str | None
    limit: int


def _paging(
    page: Annotated[str | None, Query(description="Opaque token from `next.page`")] = None,
    limit: Annotated[
        float | None,
        Query(ge=0, le=MAX_LIMIT, allow_inf_nan=False, description="Items per page (a number)"),
    ] = None,
) -> Paging:
    # `limit` is a number in the official description: 2.5 means 2 items per page
    return Paging(page=page, limit=int(limit or 0) or DEFAULT_LIMIT)


PagingParams = Annotated[Paging, Depends(_paging)]


def encode_token(offset: int) -> str:
    return base64.urlsafe_b64encode(f"o:{offset}".encode()).decode().rstrip("=")


def decode_token(token: str) -> int:
    try:
        padded = token + "=" * (-len(token) % 4)
        text = base64.urlsafe_b64decode(padded.encode()).decode()
        kind, _, number = text.partition(":")
        offset = int(number)
        if kind != "o" or offset < 0:
            raise ValueError(text)
    except (ValueError, binascii.Error, UnicodeDecodeError) as exc:
        raise bad_request("page: not a valid page token") from exc
    return offset


def paginate(
    items: Sequence[T],
    paging: Paging,
    render: Callable[[T], Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """One page of ``items`` (already in stable order); ``render`` runs on that page only."""
    offset = decode_token(paging.page) if paging.page else 0
    window = items[offset : offset + paging.limit]
    body: dict[str, Any] = {
        "items": [render(item) for item in window] if render else list(window),
        "count": len(items),
    }
    if offset + paging.limit < len(items):
        body["next"] = {"page": encode_token(offset + paging.limit)}
    body.update(extra)
    return body
