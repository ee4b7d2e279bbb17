"""StatusBar: the numbered views (the current one marked), signed-in user, organization,
online/offline with the data's age, the rate limit once it runs low, a retry wait under way
("rate-limited, retrying in 23 s", counting down), and the app's offline queue ("2 queued",
"replaying…": the app's ``outbox_replay``, in every view).

The bar ticks every second, but a widget is redrawn only when its text changed (the age
reads in seconds for its first minute, then in minutes, hours, days). A field shows whole
or not at all: where the line is too narrow for every field, the least telling ones are
dropped (:data:`DROP_ORDER`), then the other views' titles, never part of a word. The rate limit shown
is the lowest ``remaining`` seen in the current reset window (:class:`RateWindow`):
answers to concurrent requests arrive in any order, and the last one is not the lowest.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Static

from ...api import AsyncGitBook, RateLimitInfo, RetryWait
from ...drafts import ReplayLoop
from .freshness import Freshness, FreshnessState
from .navigator import navigator_of
from .registry import REGISTRY
from .session_info import SessionInfo
from .text import cell_width, inert

__all__ = ["RateWindow", "StatusBar", "format_age"]

LOW_RATE_SHARE = 0.25
"""The rate limit shows once this share of the window's limit or less is left (with no
limit known, always): until then it is noise in a bar that must fit 80 columns."""

VIEW_TITLES = "view-titles"
"""In :data:`DROP_ORDER`: the other views' titles (their keys stay)."""

DROP_ORDER = (
    "status-org",
    "status-user",
    VIEW_TITLES,
    "status-age",
    "status-rate",
    "status-connection",
)
"""What goes, first to last, while the line is too narrow for all of it: the names at the
right end, then the other views' titles (their keys stay), then the data's age, the rate
and the connection. The views' keys, the offline queue and a retry wait under way always
show (they say what is going on now)."""

SAME_WINDOW = 2.0
"""Seconds: reset times this close belong to one window (a reset sent as a delay is turned
into a time on arrival, so it drifts a little from answer to answer)."""


def format_age(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{int(seconds)} s"
    if seconds < 3600:
        return f"{int(seconds // 60)} min"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h"
    return f"{int(seconds // 86400)} d"


@dataclass
class RateWindow:
    """The lowest rate-limit ``remaining`` seen in the current reset window.

    A new window starts when the reset time passes or an answer names a later reset; an
    answer naming an earlier reset (from the window before, arriving late) is ignored.
    Without a reset time there is no window to compare in: the last value is kept.
    """

    limit: int | None = None
    remaining: int | None = None
    reset: float | None = None  # epoch seconds

    def observe(self, info: RateLimitInfo, now: float) -> None:
        """Take in the client's current values; ``now`` in epoch seconds."""
        if info.remaining is None:
            return
        reset = info.reset.timestamp() if info.reset is not None else None
        current = self.remaining is not None and self.reset is not None and now < self.reset
        if current and reset is not None and self.reset is not None:
            if reset < self.reset - SAME_WINDOW:
                return  # a late answer from the window before
            if reset <= self.reset + SAME_WINDOW and info.limit == self.limit:
                self.remaining = min(self.remaining or 0, info.remaining)
                return
        # the first answer, a new window, or no reset time to tell windows apart
        self.limit, self.remaining, self.reset = info.limit, info.remaining, reset

    @property
    def text(self) -> str:
        if self.remaining is None:
            return ""
        if self.limit is not None:
            return f"rate {self.remaining}/{self.limit}"
        return f"rate {self.remaining} left"


class StatusBar(Horizontal):
    """The bottom line. :meth:`show_freshness` keeps the freshness badge;
    the age text and the rate limit are checked every second (see the module)."""

    def __init__(
        self, *, view: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        """``view``: the name of the numbered view (:mod:`.registry`) this bar belongs to."""
        super().__init__(id=id, classes=classes)
        self.view = view
        self._user = ""
        self._org = ""
        self._state: FreshnessState | None = None
        self._since = time.monotonic()  # when the state's age was measured
        self._base_age = 0.0
        self._rate: RateLimitInfo | None = None
        self._window = RateWindow()
        self._drawn: dict[str, tuple[object, ...]] = {}  # widget id -> what it shows
        self._wanted: dict[str, bool] = {}  # widget id -> has something to show
        self._compact_views = False
        # made here and kept (no query: the bar is drawn from timers and workers, which may
        # run while the bar's children are already being removed)
        self._views = Static(self.views_content(), id="status-views", markup=False)
        self._parts = {
            name: Static("", id=name, markup=False)
            for name in (  # the kit's order: what goes on now first, names last
                "status-queue",
                "status-wait",
                "status-connection",
                "status-age",
                "status-rate",
                "status-user",
                "status-org",
            )
        }
        self._retry_wait: Callable[[], RetryWait | None] | None = None
        self._unfollow: list[Callable[[], None]] = []
        self._session: SessionInfo | None = None
        self._unwatch_session: Callable[[], None] | None = None

    def compose(self) -> ComposeResult:
        yield self._views
        yield from self._parts.values()

    def on_mount(self) -> None:
        navigator = navigator_of(self.app)
        if navigator is not None:
            self._session = navigator.session
            self._unwatch_session = self._session.watch(self._redraw)
        self._mark_own_view()
        self.set_interval(1.0, self._redraw)
        self._redraw()

    def on_resize(self) -> None:
        self._fit()

    def on_unmount(self) -> None:
        self.unfollow()
        if self._unwatch_session is not None:
            self._unwatch_session()
            self._unwatch_session = None

    def follow(self, client: AsyncGitBook) -> None:
        """Show ``client``'s rate limit and retry waits, redrawn as each answer arrives
        (not only on the next tick: the bar shows the count of the last answer)."""
        self.unfollow()
        self.track_rate_limit(client.rate_limit)
        self.track_retry_waits(lambda: client.retry_wait)
        self._unfollow = [
            client.watch_retry_waits(self.retry_waits_changed),
            client.watch_answers(self._redraw),
            client.watch_reachability(self.reachability_changed),
        ]
        if client.reachable is not None:
            self.reachability_changed(client.reachable)

    def reachability_changed(self, reached: bool) -> None:
        """The server answered (``True``) or could not be reached: the connection field
        says so at once, whatever this view shows (a client's ``watch_reachability``)."""
        if not reached and self._state != "offline":
            self._set_offline(None)
        elif reached and self._state != "online":
            # the data shown is as old as it was: only the connection came back
            self._set("online", max(0.0, self.data_age) if self._state else 0.0)

    def unfollow(self) -> None:
        """Stop following the client :meth:`follow` was given (if any)."""
        for stop in self._unfollow:
            stop()
        self._unfollow = []

    # -- inputs ----------------------------------------------------------------------------
    def set_user(self, name: str) -> None:
        """The signed-in user's name, for every view's bar (the app's session)."""
        self._user = name
        if self._session is not None:
            self._session.set_user(name)
        self._redraw()

    def set_org(self, title: str) -> None:
        """The organization shown, for every view's bar (the app's session)."""
        self._org = title
        if self._session is not None:
            self._session.set_org(title)
        self._redraw()

    @property
    def user(self) -> str:
        return self._session.user if self._session is not None else self._user

    @property
    def org(self) -> str:
        return self._session.org if self._session is not None else self._org

    def track_rate_limit(self, info: RateLimitInfo) -> None:
        """Follow ``info`` (the client's live object; shown once the server sent
        rate-limit headers). Calling it again takes in its current values at once."""
        if info is not self._rate:
            self._window = RateWindow()
        self._rate = info
        self._redraw()

    def track_retry_waits(self, current: Callable[[], RetryWait | None]) -> None:
        """Show the retry wait ``current()`` returns (the client's ``retry_wait``), counting
        down every second; call :meth:`retry_waits_changed` when it changes."""
        self._retry_wait = current
        self._redraw()

    def queue_changed(self) -> None:
        """The app's queue changed (its count, or a replay started or ended)."""
        self._redraw()

    def retry_waits_changed(self, _wait: RetryWait | None = None) -> None:
        """A wait started or ended (a client's ``watch_retry_waits`` listener)."""
        self._redraw()

    def show_freshness(self, freshness: Freshness | None) -> None:
        """How fresh the data just shown is (None: nothing known, the bar is unchanged).

        ``cached`` only shows while no verdict is known; ``offline`` with no age keeps the
        age of the last answer this bar knows of (if any), and never makes data look
        younger than the offline age already shown."""
        if freshness is None:
            return
        if freshness.state == "online":
            self._set("online", 0.0)
        elif freshness.state == "offline":
            self._set_offline(freshness.age)
        elif self._state is None:
            self._set("cached", freshness.age or 0.0)

    def _set_offline(self, age: float | None) -> None:
        known = self.data_age if self._state is not None and self._base_age >= 0 else None
        if age is None:
            age = known if known is not None else -1.0  # unknown: no age shown
        elif self._state == "offline" and known is not None:
            age = max(age, known)
        self._set("offline", age)

    def _set(self, state: FreshnessState, age: float) -> None:
        self._state = state
        self._base_age = age
        self._since = time.monotonic()
        self._redraw()

    def _mark_own_view(self) -> None:
        """The view marked is the one whose stack holds this bar's screen (a screen of one
        feature shown in another's view, as a change request's threads over its review
        pane, marks the view it is in)."""
        screen = self.screen
        for view in REGISTRY.views:
            try:
                stack = self.app.get_screen_stack(view.name)
            except KeyError:  # a view not shown yet has no stack
                continue
            if screen in stack and view.name != self.view:
                self.view = view.name
                self._views.update(self.views_content(compact=self._compact_views))
                return

    def views_content(self, *, compact: bool = False) -> Content:
        """Every view's key and title; the current one stands out (reverse). ``compact``:
        the other views by their key alone."""
        parts: list[Content] = []
        for view in REGISTRY.views:
            label = f"{view.key} {view.title}"
            if view.name == self.view:
                parts.append(Content.styled(f" {label} ", "reverse bold"))
            else:
                parts.append(Content.styled(f" {view.key if compact else label} ", "$text-muted"))
        return Content("").join(parts)

    @property
    def shown_fields(self) -> list[str]:
        """The ids of the fields on the line now, left to right (tests check the fit)."""
        return [name for name, part in self._parts.items() if part.display]

    # -- outputs ----------------------------------------------------------------------------
    @property
    def state(self) -> FreshnessState | None:
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
    def wait_text(self) -> str:
        """The retry wait under way, e.g. "rate-limited, retrying in 23 s" ("" if none)."""
        wait = self._retry_wait() if self._retry_wait is not None else None
        return wait.describe() if wait is not None else ""

    @property
    def queue_text(self) -> str:
        """The app's offline queue: "2 queued", "2 queued · replaying…" ("" when empty)."""
        loop = getattr(self.app, "outbox_replay", None) if self.is_attached else None
        if not isinstance(loop, ReplayLoop) or not (loop.queued or loop.replaying):
            return ""
        text = f"{loop.queued} queued" if loop.queued else ""
        return " · ".join(t for t in (text, "replaying…" if loop.replaying else "") if t)

    @property
    def text(self) -> str:
        parts = [
            self.queue_text,
            self.wait_text,
            self.connection_text,
            self.age_text,
            self.rate_text,
            self.user,
            self.org,
        ]
        return " · ".join(p for p in parts if p)

    @property
    def rate_text(self) -> str:
        """The rate limit as shown: the lowest ``remaining`` of the current window, once
        it runs low (:data:`LOW_RATE_SHARE`)."""
        window = self._window
        if self._rate is not None:
            window.observe(self._rate, time.time())
        if window.limit and (window.remaining or 0) > window.limit * LOW_RATE_SHARE:
            return ""
        return window.text

    def _draw(self, name: str, content: Content) -> None:
        """Update the Static ``#name`` unless it already shows this."""
        key = (content.plain, tuple(content.spans))
        if self._drawn.get(name) == key:
            return
        self._drawn[name] = key
        self._parts[name].update(content)

    def _redraw(self) -> None:
        if not self.is_mounted:
            return
        self._draw("status-user", inert(self.user, style="bold"))
        self._draw("status-org", inert(self.org))
        badge = self._parts["status-connection"]
        self._draw("status-connection", Content(self.connection_text))
        badge.set_class(self._state == "offline", "-offline")
        badge.set_class(self._state == "online", "-online")
        self._draw("status-age", Content.styled(self.age_text, "$text-muted"))
        rate_text = self.rate_text
        self._draw("status-rate", Content(rate_text))
        wait_text = self.wait_text
        self._draw("status-wait", Content(wait_text))
        queue_text = self.queue_text
        self._draw("status-queue", Content.styled(queue_text, "bold $text-warning"))
        # user, organization and age keep their place even while empty (as they always did)
        self._wanted = {
            "status-queue": bool(queue_text),
            "status-user": True,
            "status-org": True,
            "status-connection": bool(self._state),
            "status-age": True,
            "status-rate": bool(rate_text),
            "status-wait": bool(wait_text),
        }
        self._fit()

    def _cost(self, widget: Static, cells: int) -> int:
        """The columns ``widget`` takes showing ``cells`` cells, its margin after it included."""
        styles = widget.styles
        return cells + styles.padding.width + styles.margin.right

    def _fit(self) -> None:
        """Show every wanted field that fits, dropping whole fields and the other views'
        titles (:data:`DROP_ORDER`) while the line is too narrow."""
        if not self._wanted:
            return
        width = self.content_region.width
        shown = dict(self._wanted)
        if width > 0:  # not laid out yet: everything for now, fitted on the first resize
            views = self._views
            compact = False

            def needed() -> int:
                cells = self.views_content(compact=compact).cell_length
                total = self._cost(views, cells)
                last = views.styles.margin.right
                for name, part in self._parts.items():
                    if shown[name]:
                        total += self._cost(part, self._cells(name))
                        last = part.styles.margin.right
                return total - last  # the last field's margin may fall off the line

            for name in DROP_ORDER:
                if needed() <= width:
                    break
                if name == VIEW_TITLES:
                    compact = True
                else:
                    shown[name] = False
            if compact != self._compact_views:
                self._compact_views = compact
                views.update(self.views_content(compact=compact))
        for name, part in self._parts.items():
            part.display = shown[name]

    def _cells(self, name: str) -> int:
        drawn = self._drawn.get(name)
        return cell_width(str(drawn[0])) if drawn else 0
