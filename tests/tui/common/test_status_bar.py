"""StatusBar: the lowest rate-limit ``remaining`` of the current window (shown once it runs
low, redrawn on each answer of a followed client), and no redraw on a tick that changes
nothing visible."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from gitbook_tui.api import AsyncGitBook, RateLimitInfo
from gitbook_tui.tui.common.freshness import Freshness
from gitbook_tui.tui.common.status_bar import RateWindow, StatusBar

NOW = 1_800_000_000.0
BASE = "http://gitbook.test/v1"


def info(remaining: int | None, reset: float | None, limit: int | None = 100) -> RateLimitInfo:
    when = datetime.fromtimestamp(reset, UTC) if reset is not None else None
    return RateLimitInfo(limit=limit, remaining=remaining, reset=when)


# -- RateWindow -----------------------------------------------------------------------------
def test_lowest_remaining_within_a_window() -> None:
    window = RateWindow()
    window.observe(info(None, None), NOW)
    assert window.text == ""
    window.observe(info(90, NOW + 60), NOW)
    assert window.text == "rate 90/100"
    window.observe(info(92, NOW + 60), NOW + 1)  # an earlier request answered last
    assert window.text == "rate 90/100"
    window.observe(info(85, NOW + 60.5), NOW + 2)  # a reset sent as a delay drifts a little
    assert window.remaining == 85


def test_late_answer_of_the_previous_window_is_ignored() -> None:
    window = RateWindow()
    window.observe(info(99, NOW + 120), NOW)  # a new window already started
    window.observe(info(3, NOW + 60), NOW + 1)  # from the window before, arriving late
    assert window.text == "rate 99/100"


def test_a_new_window_starts_when_the_reset_passes_or_a_later_one_comes() -> None:
    window = RateWindow()
    window.observe(info(10, NOW + 60), NOW)
    window.observe(info(100, NOW + 120), NOW + 5)  # a later reset: a new window
    assert window.text == "rate 100/100"
    window.observe(info(95, NOW + 120), NOW + 6)
    assert window.remaining == 95
    window.observe(info(99, NOW + 120), NOW + 121)  # its reset passed: start again
    assert window.remaining == 99
    window.observe(info(50, NOW + 120, limit=500), NOW + 122)  # a different limit
    assert window.text == "rate 50/500"


def test_without_a_reset_time_the_last_value_is_shown() -> None:
    window = RateWindow()
    window.observe(info(10, None, limit=None), NOW)
    window.observe(info(12, None, limit=None), NOW + 1)
    assert window.text == "rate 12 left"


# -- the bar --------------------------------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now


class BarApp(App[None]):
    def compose(self) -> ComposeResult:
        yield StatusBar(id="status-bar")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr("gitbook_tui.tui.common.status_bar.time", fake)
    return fake


def spy_updates(bar: StatusBar, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    updates: list[str] = []
    for static in bar.query(Static):
        original = static.update

        def update(content: Any = "", *, _original: Any = original, _id: Any = static.id) -> None:
            updates.append(str(_id))
            _original(content)

        monkeypatch.setattr(static, "update", update)
    return updates


async def test_a_tick_redraws_only_what_changed(clock: Clock, monkeypatch) -> None:
    app = BarApp()
    async with app.run_test(size=(100, 3)) as pilot:
        bar = app.query_one(StatusBar)
        rate = info(20, NOW + 600)
        bar.track_rate_limit(rate)
        bar.set_user("Eve")
        bar.show_freshness(Freshness.online())
        await pilot.pause()
        updates = spy_updates(bar, monkeypatch)
        bar._redraw()  # a tick with nothing new
        assert updates == []
        clock.now += 1
        bar._redraw()  # under a minute the age counts seconds
        assert updates == ["status-age"] and bar.age_text == "updated 1 s ago"
        updates.clear()
        clock.now += 100  # 1 min 41 s
        bar._redraw()
        assert updates == ["status-age"] and bar.age_text == "updated 1 min ago"
        updates.clear()
        for _ in range(10):  # then it changes once a minute
            clock.now += 1
            bar._redraw()
        assert updates == []
        clock.now += 10
        bar._redraw()
        assert updates == ["status-age"] and bar.age_text == "updated 2 min ago"
        updates.clear()
        rate.remaining = 24  # an out-of-order answer: still the lowest seen
        bar._redraw()
        assert updates == [] and "rate 20/100" in bar.text
        rate.remaining = 10
        bar._redraw()
        assert updates == ["status-rate"] and "rate 10/100" in bar.text
        assert str(bar.query_one("#status-rate", Static).content) == "rate 10/100"


async def test_the_rate_limit_shows_once_a_quarter_or_less_is_left(clock: Clock) -> None:
    app = BarApp()
    async with app.run_test(size=(100, 3)):
        bar = app.query_one(StatusBar)
        rate = info(26, NOW + 600)
        bar.track_rate_limit(rate)
        assert bar.rate_text == "" and not bar.query_one("#status-rate").display
        rate.remaining = 25
        bar._redraw()
        assert bar.rate_text == "rate 25/100" and bar.query_one("#status-rate").display
        unlimited = info(4000, None, limit=None)  # no limit sent: nothing to judge "low" by
        bar.track_rate_limit(unlimited)
        assert bar.rate_text == "rate 4000 left"


async def test_a_followed_client_redraws_the_bar_on_each_answer(clock: Clock) -> None:
    """The count shown is the last answer's at once, not at the next tick (snapshots and
    users see the same number whenever they look)."""
    left = iter(range(20, 0, -1))

    def answer(request: httpx.Request) -> httpx.Response:
        headers = {"x-ratelimit-limit": "100", "x-ratelimit-remaining": str(next(left))}
        return httpx.Response(200, json={"id": "u1", "displayName": "Eve"}, headers=headers)

    client = AsyncGitBook("gb_api_test", base_url=BASE, transport=httpx.MockTransport(answer))
    app = BarApp()
    async with app.run_test(size=(100, 3)) as pilot:
        bar = app.query_one(StatusBar)
        bar.follow(client)
        await client.users.me()
        assert str(bar.query_one("#status-rate", Static).content) == "rate 20/100"
        await client.users.me()
        assert str(bar.query_one("#status-rate", Static).content) == "rate 19/100"
        bar.remove()
        await pilot.pause()
        await client.users.me()  # unmounted: no longer followed
        assert client._answer_listeners == []
    await client.close()
