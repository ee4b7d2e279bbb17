"""The shared Composer on its own: drafts restored, kept on failure and escape, removed on send."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult

from gitbook_tui.drafts import DraftKey, DraftStore
from gitbook_tui.tui.common.composer import Composer
from support.waits import until

KEY = DraftKey("review", space="s1", change_request="7")


class ComposerApp(App[None]):
    def __init__(self, store: DraftStore) -> None:
        super().__init__()
        self.store = store
        self.sent: list[str] = []
        self.refuse: str | None = None

    def compose(self) -> ComposeResult:
        yield Composer(store=self.store, delay=0.05, id="composer")

    async def send(self, text: str) -> None:
        if self.refuse:
            raise RuntimeError(self.refuse)
        self.sent.append(text)


async def test_composer_keeps_every_word_until_sent(tmp_path: Path) -> None:
    store = DraftStore("a" * 32, tmp_path / "drafts")
    app = ComposerApp(store)
    async with app.run_test() as pilot:
        composer = app.query_one(Composer)
        assert not composer.is_open
        await composer.open(KEY, "Review #7", app.send)
        await pilot.press(*"LGTM")
        await until(pilot, lambda: store.load(KEY) is not None)  # saved as typed
        await pilot.press("escape")
        await until(pilot, lambda: not composer.is_open)
        await composer.open(KEY, "Review #7", app.send, initial="ignored: a draft exists")
        assert composer.text == "LGTM"
        app.refuse = "server said no"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: composer.error is not None)
        assert "server said no" in composer.error and composer.is_open
        draft = store.load(KEY)
        assert draft is not None and draft.text == "LGTM"
        app.refuse = None
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not composer.is_open)
        assert app.sent == ["LGTM"] and store.load(KEY) is None
        await composer.open(KEY, "Review #7", app.send, initial="prefilled")
        assert composer.text == "prefilled"


async def test_empty_text_is_not_sent(tmp_path: Path) -> None:
    app = ComposerApp(DraftStore("b" * 32, tmp_path / "drafts"))
    async with app.run_test() as pilot:
        composer = app.query_one(Composer)
        await composer.open(KEY, "Review", app.send)
        await pilot.press("space", "ctrl+s")
        await until(pilot, lambda: composer.error is not None)
        assert app.sent == [] and composer.is_open


async def test_a_mention_replaces_the_typed_prefix(tmp_path: Path) -> None:
    """#21: ``@le`` + tab gave "@lee Whitfield" (the typed prefix kept, the rest of the name
    added); tab and right put the member's name in place of what was typed after ``@``."""
    app = ComposerApp(DraftStore("c" * 32, tmp_path / "drafts"))
    async with app.run_test() as pilot:
        composer = app.query_one(Composer)
        composer.set_members(["Lee Whitfield", "Carol"])
        await composer.open(KEY, "Review #7", app.send)
        await pilot.press(*"cc @le")
        await until(pilot, lambda: composer.area.suggestion == "e Whitfield")
        await pilot.press("tab")
        await until(pilot, lambda: composer.text == "cc @Lee Whitfield")
        assert composer.area.cursor_location == (0, len("cc @Lee Whitfield"))
        await pilot.press(*" @CAR")
        await until(pilot, lambda: composer.area.suggestion == "ol")
        await pilot.press("right")
        await until(pilot, lambda: composer.text == "cc @Lee Whitfield @Carol")
        await pilot.press("right", *"!")  # no suggestion: right only moves (at the end)
        await until(pilot, lambda: composer.text == "cc @Lee Whitfield @Carol!")
