"""Waiting in tests: one ``until`` for a condition (naming it on timeout) and one ``settle``
for an app's workers and refreshes. No test sleeps for a fixed time."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from typing import Any, TypeVar

S = TypeVar("S")

STEP = 0.02
"""The longest time between two looks at a condition: short enough not to add up over a
suite."""

FIRST_STEP = 0.001
"""The time before the second look at a condition: most hold a few milliseconds after the
first look (a message handled, a frame drawn), and a fixed 20 ms step charged each of those
waits the whole step, with the test's process idle meanwhile. Each later step doubles,
up to ``STEP``, so a long wait costs no more looks than before."""


def describe(condition: Callable[[], Any], what: str | None = None) -> str:
    """What a wait waited for: the caller's words, else the condition's own source line."""
    if what:
        return what
    try:
        source = inspect.getsource(condition).strip()
    except (OSError, TypeError):
        return repr(condition)
    return " ".join(source.split())[:200]


async def until(
    pilot: Any | None,
    condition: Callable[[], Any],
    what: str | None = None,
    *,
    timeout: float = 10.0,
) -> None:
    """Let the app of ``pilot`` (or, with ``None``, the event loop) run until ``condition()``
    holds; fail after ``timeout`` seconds — generous, for loaded machines — naming the
    condition."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    step = FIRST_STEP
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(
                f"timed out after {timeout:g} s waiting for {describe(condition, what)}"
            )
        if pilot is None:
            await asyncio.sleep(min(step, STEP / 4))  # no frames to wait for: look more often
        else:
            await pilot.pause(step)
        step = min(step * 2, STEP)


async def until_screen(pilot: Any, kind: type[S], *, timeout: float = 10.0) -> S:
    """Wait until the app's active screen is a ``kind`` (a dialog or view a key opened),
    mounted, and return it: a screen is on top as soon as it is pushed, its widgets a
    moment later."""
    await until(
        pilot,
        lambda: isinstance(pilot.app.screen, kind) and pilot.app.screen.is_mounted,
        f"a {kind.__name__} on top, mounted",
        timeout=timeout,
    )
    screen = pilot.app.screen
    assert isinstance(screen, kind)
    return screen


def until_sync(
    condition: Callable[[], Any], what: str | None = None, *, timeout: float = 10.0
) -> None:
    """``until`` for code outside an event loop (threads, subprocesses): polls ``condition``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(
                f"timed out after {timeout:g} s waiting for {describe(condition, what)}"
            )
        time.sleep(STEP)


async def run_ready(rounds: int = 50) -> None:
    """Let every task that is ready run up to its next wait (code with no real I/O, e.g. a
    mock transport), without letting any time pass."""
    for _ in range(rounds):
        await asyncio.sleep(0)


BACKGROUND_GROUPS = ("page_viewer.find_prepare",)
"""Workers that only get ready for a key not yet pressed (find's pre-check of a page starts
0.3 s after the page is complete): nothing drawn waits for them, and ``settle`` waiting for
them cost every test that showed a page that 0.3 s, idle. A test of find presses its keys
and waits for the matches."""


def workers_left(app: Any, ignore: tuple[str, ...] = ()) -> list[Any]:
    """The workers of ``app`` still to run (one just started is PENDING: not done), apart
    from those in the ``ignore`` groups."""
    return [w for w in app.workers if not (w.is_finished or w.group in ignore)]


def workers_done(app: Any, ignore: tuple[str, ...] = ()) -> bool:
    """No worker of ``app`` is left to run, apart from those in the ``ignore`` groups."""
    return not workers_left(app, ignore)


def settled(app: Any, ignore: tuple[str, ...] = ()) -> bool:
    """No worker left (see :func:`workers_done`), the screen not ``busy``, the footer
    current (checked in that order: the footer is the dearest to compute)."""
    return workers_done(app, ignore) and not _busy(app) and footers_current(app)


def _busy(app: Any) -> bool:
    return bool(getattr(app.screen, "busy", False))


async def settle(
    pilot: Any, *, ignore: tuple[str, ...] = (), rounds: int = 3, timeout: float = 20.0
) -> None:
    """Wait until no worker of the app is pending or running (apart from the ``ignore``
    groups, e.g. an action waiting on its dialog, and the ``BACKGROUND_GROUPS``), the screen
    says it is not ``busy``, and the refreshes they asked for have been drawn. A worker's
    answer may start another worker, hence the rounds."""
    app = pilot.app
    ignore += BACKGROUND_GROUPS
    for _ in range(rounds):
        await pilot.pause()
        try:
            await until(
                pilot,
                lambda: settled(app, ignore),
                "the app's workers to finish, its screen to be idle and its footer current",
                timeout=timeout,
            )
        except AssertionError as timed_out:
            raise AssertionError(f"{timed_out}; still {unsettled(app, ignore)}") from None
    await pilot.pause()


def unsettled(app: Any, ignore: tuple[str, ...]) -> str:
    """What keeps ``app`` from being settled, for a timed-out ``settle`` to name: the
    workers left, a busy screen, a footer showing old keys."""
    left = [f"{w.group}/{w.name} {w.state.name.lower()}" for w in workers_left(app, ignore)]
    what = [f"workers: {', '.join(left)}"] if left else []
    if _busy(app):
        what.append(f"{type(app.screen).__name__} busy")
    if not footers_current(app):
        what.append("the footer showing old keys")
    return "; ".join(what)


async def resize(pilot: Any, width: int, height: int) -> None:
    """Resize the terminal to ``width`` x ``height`` and wait for the app to lay its screen
    out at that size and settle: Textual applies a resize a timer later (it collects a
    burst of them), so a look right after Pilot's own resize may still see the old size."""
    await pilot.resize_terminal(width, height)
    # (``screen.size`` follows the terminal at once; ``outer_size`` once the screen and its
    # widgets were laid out at the new size)
    await until(
        pilot,
        lambda: tuple(pilot.app.screen.outer_size) == (width, height),
        f"the screen laid out at {width}x{height}",
    )
    await settle(pilot)


def footers_current(app: Any) -> bool:
    """The footer of the app's screen shows the keys its bindings ask for now (a binding
    refresh reaches it after the next repaint: a snapshot taken before shows the old)."""
    from gitbook_tui.tui.common.hint_footer import HintFooter

    return all(footer.shows_current_keys() for footer in app.screen.query(HintFooter))
