"""Freshness: how current the data shown is (online, offline, cached and how old), as the
status bar shows it. Plain data (no widgets): pages and tree listings both report it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...api import ResponseMeta

__all__ = ["Freshness", "FreshnessState"]

FreshnessState = Literal["online", "offline", "cached"]


@dataclass(frozen=True)
class Freshness:
    """``online``: the server just answered (or confirmed) it; ``offline``: the server
    could not be reached and the data is ``age`` seconds old (``None``: unknown);
    ``cached``: shown from the cache, ``age`` seconds old, while the server is asked."""

    state: FreshnessState
    age: float | None = 0.0

    @classmethod
    def online(cls) -> Freshness:
        return cls("online", 0.0)

    @classmethod
    def offline(cls, age: float | None) -> Freshness:
        return cls("offline", age)

    @classmethod
    def of_answer(cls, source: str, *, offline: bool = False, age: float | None = 0.0) -> Freshness:
        """An answer from the ``network`` or the ``cache`` (``offline`` when the server
        could not be reached)."""
        if offline:
            return cls.offline(age)
        if source == "network":
            return cls.online()
        return cls("cached", age or 0.0)

    @classmethod
    def of_meta(cls, meta: ResponseMeta | None) -> Freshness | None:
        """What the client's :class:`ResponseMeta` says (None when it says nothing)."""
        if meta is None:
            return None
        return cls.of_answer(meta.source, offline=meta.offline, age=meta.age)
