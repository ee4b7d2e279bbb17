"""Issue #25: one length limit for every typed body, checked as typed — the shared composer
(comments, review messages) and the subject/description editor show the count near and
over ``MAX_BODY_CHARS`` and refuse to send over it, keeping the text (and its draft)."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.widgets import Static, TextArea

from gitbook_tui.drafts import DraftKey, DraftStore
from gitbook_tui.models.limits import MAX_BODY_CHARS
from gitbook_tui.tui.common.composer import Composer
from gitbook_tui.tui.common.state import account_key
from gitbook_tui.tui.review.review_message_screen import ReviewMessageScreen
from gitbook_tui.tui.review.subject_screen import SubjectScreen
from support.review_world import desk, make_app, open_review
from support.waits import until, until_screen
from support.worlds import World

__all__ = ["desk"]

KEY = DraftKey("review", space="s1", change_request="7")
NEAR = int(MAX_BODY_CHARS * 0.95)


class ComposerApp(App[None]):
    def __init__(self, store: DraftStore) -> None:
        super().__init__()
        self.store = store
        self.sent: list[str] = []

    def compose(self) -> ComposeResult:
        yield Composer(store=self.store, delay=0.05, id="composer")

    async def send(self, text: str) -> None:
        self.sent.append(text)


def count_line(screen_or_widget: object, selector: str) -> str:
    """The count line's text if it shows ("" while hidden)."""
    widget = screen_or_widget.query_one(selector, Static)  # type: ignore[attr-defined]
    return str(widget.render()) if widget.display else ""


async def test_the_composer_counts_as_typed_and_refuses_over_the_limit(tmp_path: Path) -> None:
    store = DraftStore("c" * 32, tmp_path / "drafts")
    app = ComposerApp(store)
    async with app.run_test() as pilot:
        composer = app.query_one(Composer)
        await composer.open(KEY, "Reply", app.send)
        await pilot.press(*"short")
        await until(pilot, lambda: composer.text == "short")
        assert count_line(composer, "#composer-count") == ""  # far below: no count
        composer.area.load_text("x" * (MAX_BODY_CHARS - 1))
        composer.area.move_cursor(composer.area.document.end)
        await until(pilot, lambda: count_line(composer, "#composer-count") != "")
        assert count_line(composer, "#composer-count") == "99,999 / 100,000 characters"
        await pilot.press("y", "z")  # typed past the limit
        await until(pilot, lambda: "over the limit" in count_line(composer, "#composer-count"))
        assert count_line(composer, "#composer-count") == (
            "100,001 / 100,000 characters: 1 character over the limit"
        )
        assert composer.query_one("#composer-count").has_class("-over")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: composer.error is not None)
        assert composer.error == (
            "Not sent: 1 character over the 100,000 limit; your text is kept."
        )
        assert app.sent == [] and composer.is_open
        assert len(composer.text) == MAX_BODY_CHARS + 1  # the text stays
        draft = store.load(KEY)
        assert draft is not None and len(draft.text) == MAX_BODY_CHARS + 1  # and its draft
        await pilot.press("backspace")  # at the limit: sendable again
        await until(pilot, lambda: "over" not in count_line(composer, "#composer-count"))
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not composer.is_open)
        assert [len(t) for t in app.sent] == [MAX_BODY_CHARS]
        assert store.load(KEY) is None


async def test_a_review_message_over_the_limit_is_not_submitted(
    world: World, desk: dict, tmp_path: Path
) -> None:
    space, cr = desk["space"]["id"], desk["cr"]
    reviews = f"/spaces/{space}/change-requests/{cr['id']}/reviews"
    app = make_app(world, tmp_path, "rita")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_review(app, pilot, "Update partition sizing")
        await pilot.press("v")
        dialog = await until_screen(pilot, ReviewMessageScreen)
        composer = dialog.composer
        await until(pilot, lambda: composer.is_open and composer.area.has_focus)
        composer.area.load_text("Looks good. " + "x" * MAX_BODY_CHARS)
        await until(pilot, lambda: "over the limit" in count_line(composer, "#composer-count"))
        await pilot.press("ctrl+s")
        await until(pilot, lambda: composer.error is not None)
        assert composer.error is not None and composer.error.startswith("Not sent: 12 characters")
        assert app.screen is dialog
        assert world.client().get(reviews).json()["items"] == []  # nothing reached the server
        draft = DraftStore(account_key(app.client)).load(dialog.key)
        assert draft is not None and draft.text.startswith("Looks good. ")
        composer.area.load_text("Looks good.")
        await until(pilot, lambda: count_line(composer, "#composer-count") == "")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.screen is not dialog, timeout=20)
    items = world.client().get(reviews).json()["items"]
    assert [r["status"] for r in items] == ["approved"]


async def test_a_description_over_the_limit_is_not_saved(
    world: World, desk: dict, tmp_path: Path
) -> None:
    space, cr = desk["space"]["id"], desk["cr"]
    path = f"/spaces/{space}/change-requests/{cr['id']}"
    before = world.client().get(path).json().get("description")
    app = make_app(world, tmp_path, "eve")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_review(app, pilot, "Update partition sizing")
        await pilot.press("E")
        dialog = await until_screen(pilot, SubjectScreen)
        area = dialog.query_one(TextArea)
        area.load_text("y" * NEAR)
        await until(pilot, lambda: count_line(dialog, "#subject-count") != "")
        assert count_line(dialog, "#subject-count") == f"{NEAR:,} / 100,000 characters"
        area.load_text("Why: " + "y" * MAX_BODY_CHARS)
        await until(pilot, lambda: "over the limit" in count_line(dialog, "#subject-count"))
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Not saved" in count_line(dialog, "#subject-count"))
        assert count_line(dialog, "#subject-count") == (
            "Not saved: the description is 5 characters over the 100,000 limit; your text is kept."
        )
        assert app.screen is dialog and area.text.startswith("Why: ")
        assert world.client().get(path).json().get("description") == before
        area.load_text("Why: sizing moved to 50 GB.")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.screen is not dialog)
        await until(
            pilot,
            lambda: "sizing moved" in str(world.client().get(path).json().get("description")),
            timeout=20,
        )
