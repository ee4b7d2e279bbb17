"""A seeded monkey: random keys across every screen (browser, search, outline, help, the
command palette, every numbered view) at 80×24 and 120×40 against the in-process server;
any unhandled exception fails the test, which prints its seed.

Reproduce a failure with ``GITBOOK_TUI_MONKEY_SEED=<seed> pytest tests/tui/app/test_monkey.py``.
"""

from __future__ import annotations

import os
import random
import webbrowser
from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.tui.browse import browser_links
from gitbook_tui.tui.views import VIEWS
from support.faults import FaultTransport, make_app, seed_space, start_browser
from support.waits import until
from support.worlds import World

# the monkey runs the app as users get it, idle collections included
pytestmark = pytest.mark.idle_collection

KEYS_PER_SIZE = 900
BATCH = 15

# Keys of every screen (quitting and suspending left out: the monkey stays in the app).
KEYS = [
    *"abcdefghijklmnoprtuvwxyz",
    *"GNRS0123456789./-#",
    "up", "down", "left", "right", "pageup", "pagedown", "home", "end",
    "enter", "escape", "tab", "shift+tab", "space", "backspace", "delete",
    "f6", "ctrl+d", "ctrl+u", "ctrl+f", "ctrl+b", "ctrl+n", "ctrl+o", "ctrl+w",
    "alt+left", "alt+right", "shift+up", "shift+down", "shift+left", "shift+right",
]  # fmt: skip
# What opens each screen: weighted in so that every screen gets keys.
OPENERS = ["s", "t", "question_mark", "ctrl+p", "slash", *(view.key for view in VIEWS)]


DEFAULT_SEED = 20261123
"""CI runs one known sequence (a failure reproduces on the next run too); set
GITBOOK_TUI_MONKEY_SEED to explore others."""


def _seed() -> int:
    given = os.environ.get("GITBOOK_TUI_MONKEY_SEED")
    return int(given) if given else DEFAULT_SEED


@pytest.fixture
def no_outside_effects(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser_links, "open_in_browser", lambda url: True)

    def no_browser(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("webbrowser used directly")

    monkeypatch.setattr(webbrowser, "get", no_browser)
    monkeypatch.setattr(webbrowser, "open", no_browser)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_random_keys_never_take_the_app_down(
    world: World, tmp_path: Path, no_outside_effects: None, size: tuple[int, int]
) -> None:
    """900 random keys over every view with a faulty server never crash the app. Slow by design:
    each key is pressed and settled one by one."""
    seed = _seed()
    print(f"monkey seed {seed} at {size[0]}x{size[1]} (GITBOOK_TUI_MONKEY_SEED={seed})")
    rng = random.Random(seed)
    manual = seed_space(world)
    seed_space(world, "Second [b]space[/b] \x1b[31m")
    app = make_app(FaultTransport(world.app), tmp_path)
    app.copy_to_clipboard = lambda text: None  # type: ignore[method-assign]
    pressed: list[str] = []
    screens: set[str] = set()
    try:
        async with app.run_test(size=size) as pilot:
            browser = await start_browser(app, pilot)
            browser.open_page(manual["space"], manual["Guide"])
            await until(pilot, lambda: browser.page is not None)
            while len(pressed) < KEYS_PER_SIZE:
                batch = [rng.choice(OPENERS if rng.random() < 0.08 else KEYS) for _ in range(BATCH)]
                pressed.extend(batch)
                await pilot.press(*batch)
                screens.add(type(app.screen).__name__)
                assert app.is_running, "the app stopped"
            await pilot.pause()
    except BaseException as exc:
        raise AssertionError(
            f"monkey seed {seed} at {size}: {exc!r}; last keys {pressed[-30:]}"
        ) from exc
    assert app.return_code in (None, 0), (seed, app.return_code)
    assert "BrowserScreen" in screens, screens
