"""StatusBar: signed-in user, organization, online/offline with the data's age, rate limit."""

from __future__ import annotations

import time

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Static

from ...api import RateLimitInfo
from ..text import inert

__all__ = ["StatusBar", "format_age"]


def format_age(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{int(seconds)} s"
    if seconds < 3600:
        return f"{int(seconds // 60)} min"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h"
    return f"{int(seconds // 86400)} d"


class StatusBar(Horizontal):
    """The bottom line. ``mark_online()`` / ``mark_offline(age)`` keep the freshness badge;
    the age text ticks every second."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._user = ""
        self._org = ""
        self._state: str | None = None  # "online" | "offline" | "cached" | None
        self._since = time.monotonic()  # when the state's age was measured
        self._base_age = 0.0
        self._rate: RateLimitInfo | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="status-user", markup=False)
        yield Static("", id="status-org", markup=False)
        yield Static("", id="status-connection", markup=False)
        yield Static("", id="status-age", markup=False)
        yield Static("", id="status-rate", markup=False)

    def on_mount(self) -> None:
        self.set_interval(1.0, self._redraw)
        self._redraw()

    # -- inputs ----------------------------------------------------------------------------
    def set_user(self, name: str) -> None:
        self._user = name
        self._redraw()

    def set_org(self, title: str) -> None:
        self._org = title
        self._redraw()

    def track_rate_limit(self, info: RateLimitInfo) -> None:
        """Show ``info`` (the client's live object) when the server sent rate-limit headers."""
        self._rate = info
        self._redraw()

    def mark_online(self) -> None:
        """The server just answered (or confirmed) what is shown."""
        self._set("online", 0.0)

    def mark_offline(self, age: float | None) -> None:
        """The server is unreachable; the data shown is ``age`` seconds old (``None``:
        as old as the last answer this bar knows of, if any)."""
        known = self.data_age if self._state is not None and self._base_age >= 0 else None
        if age is None:
            age = known if known is not None else -1.0  # unknown: no age shown
        elif self._state == "offline" and known is not None:
            age = max(age, known)
        self._set("offline", age)

    def mark_cached(self, age: float) -> None:
        """Cached data is shown while the server is asked (no verdict yet)."""
        if self._state is None:
            self._set("cached", age)

    def _set(self, state: str, age: float) -> None:
        self._state = state
        self._base_age = age
        self._since = time.monotonic()
        self._redraw()

    # -- outputs ----------------------------------------------------------------------------
    @property
    def state(self) -> str | None:
        return self._state

    @property
    def data_age(self) -> float:
        return self._base_age + (time.monotonic() - self._since)

    @property
    def connection_text(self) -> str:
        if self._state == "offline":
            return "offline"
        if self._state == "online":
            return "online"
        if self._state == "cached":
            return "cached"
        return ""

    @property
    def age_text(self) -> str:
        if self._state == "offline":
            return f"data {format_age(self.data_age)} old" if self._base_age >= 0 else ""
        if self._state == "online":
            return f"updated {format_age(self.data_age)} ago"
        if self._state == "cached":
            return f"cached {format_age(self.data_age)} ago"
        return ""

    @property
    def text(self) -> str:
        parts = [self._user, self._org, self.connection_text, self.age_text, self._rate_text()]
        return " · ".join(p for p in parts if p)

    def _rate_text(self) -> str:
        info = self._rate
        if info is None or info.remaining is None:
            return ""
        if info.limit is not None:
            return f"rate {info.remaining}/{info.limit}"
        return f"rate {info.remaining} left"

    def _redraw(self) -> None:
        if not self.is_mounted:
            return
        self.query_one("#status-user", Static).update(inert(self._user, style="bold"))
        self.query_one("#status-org", Static).update(inert(self._org))
        badge = self.query_one("#status-connection", Static)
        badge.update(Content(self.connection_text))
        badge.set_class(self._state == "offline", "-offline")
        badge.set_class(self._state == "online", "-online")
        badge.display = bool(self._state)
        self.query_one("#status-age", Static).update(Content.styled(self.age_text, "dim"))
        rate = self.query_one("#status-rate", Static)
        rate.update(Content(self._rate_text()))
        rate.display = bool(self._rate_text())
