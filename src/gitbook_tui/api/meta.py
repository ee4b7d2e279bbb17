"""Where an answer came from (``ResponseMeta``, carried by returned models) and rate-limit headers."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel

__all__ = ["RateLimitInfo", "ResponseMeta", "attach_meta", "response_meta"]


@dataclass
class ResponseMeta:
    """Where an answer came from. ``refresh`` (prefer-cache) resolves to the fresh value,
    or ``None`` when the server confirmed the cached one (304)."""

    source: Literal["network", "cache"]
    age: float = 0.0
    stale: bool = False
    offline: bool = False
    refresh: asyncio.Task[Any] | None = None


@dataclass
class RateLimitInfo:
    """The last ``X-RateLimit-*`` values the server sent."""

    limit: int | None = None
    remaining: int | None = None
    reset: datetime | None = None


def response_meta(value: object) -> ResponseMeta | None:
    """The :class:`ResponseMeta` of a value the client returned (None if unknown)."""
    private = getattr(value, "__pydantic_private__", None) if isinstance(value, BaseModel) else None
    meta = (private or {}).get("_response_meta")
    return meta if isinstance(meta, ResponseMeta) else None


def attach_meta(value: Any, meta: ResponseMeta) -> Any:
    # Only the returned object carries its meta, as a pydantic private value set after
    # validation: declaring a private attribute on every model would cost an
    # initialisation per nested instance (measured: half of the validation time of a page).
    if isinstance(value, BaseModel):
        private = value.__pydantic_private__ or {}
        private["_response_meta"] = meta
        object.__setattr__(value, "__pydantic_private__", private)
    return value
