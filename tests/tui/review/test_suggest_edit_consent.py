"""Issue #25: a suggested edit never goes into someone else's change request unasked — the
picker's default is a new change request; the reader's own come next; another author's is
marked and asks first (naming the reviews it outdates); a posted edit into existing work is
named with the offer to open it, and its new revision holds that edit only. Asserted on the
in-process server's state."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.render.diff_view import DiffView
from gitbook_tui.tui.review import suggest_edit as suggest_edit_module
from gitbook_tui.tui.review.conflict_panel import ConflictPanel
from gitbook_tui.tui.review.edit_target_screen import NEW, EditTargetScreen
from gitbook_tui.tui.textual_compat import is_leaving
from support.notes import notes_of
from support.review_world import (
    crs,
    desk,
    editor,
    make_app,
    open_page,
    open_review,
    page_in,
    press_edit,
    review_shown,
)
from support.waits import until, until_screen
from support.worlds import World

__all__ = ["desk"]


# -- the server's side ----------------------------------------------------------------------
def cr_json(world: World, space: str, cr_id: str) -> dict:
    r = world.client().get(f"/spaces/{space}/change-requests/{cr_id}")
    assert r.status_code == 200, r.text
    return r.json()


def current_approvals(world: World, space: str, cr_id: str) -> int:
    r = world.client().get(
        f"/spaces/{space}/change-requests/{cr_id}/reviews", params={"outdated": "false"}
    )
    assert r.status_code == 200, r.text
    return sum(1 for review in r.json()["items"] if review["status"] == "approved")


def approve(world: World, space: str, cr_id: str, who: str = "rita") -> None:
    r = world.client(who).post(
        f"/spaces/{space}/change-requests/{cr_id}/reviews", json={"status": "approved"}
    )
    assert r.status_code == 201, r.text


def revision_pages(world: World, space: str, revision: str) -> dict[str, str]:
    """Every document page of ``revision``: id → markdown."""
    r = world.client().get(f"/spaces/{space}/revisions/{revision}/pages")
    assert r.status_code == 200, r.text
    found: dict[str, str] = {}

    def walk(pages: list[dict]) -> None:
        for page in pages:
            if page.get("type", "document") == "document":
                got = world.client().get(
                    f"/spaces/{space}/revisions/{revision}/page/{page['id']}",
                    params={"format": "markdown"},
                )
                assert got.status_code == 200, got.text
                found[page["id"]] = got.json()["markdown"]
            walk(page.get("pages") or [])

    walk(r.json()["pages"])
    return found


def only_edit(world: World, space: str, before: str, after: str, page: str, old: str, new: str):
    """The revision ``after`` differs from ``before`` by ``old`` → ``new`` on ``page`` only."""
    a, b = revision_pages(world, space, before), revision_pages(world, space, after)
    assert set(a) == set(b)
    for page_id in a:
        expected = a[page_id].replace(old, new) if page_id == page else a[page_id]
        assert b[page_id].rstrip() == expected.rstrip(), page_id
    assert old in a[page] and new in b[page]


# -- the app's side -------------------------------------------------------------------------
async def picker(app: GitBookApp, pilot: Any) -> EditTargetScreen:
    return await until_screen(pilot, EditTargetScreen, timeout=20)


def rows(screen: EditTargetScreen) -> list[str]:
    options = screen.query_one(OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def confirmation(app: GitBookApp, pilot: Any, fragment: str) -> str:
    """The confirmation shown whose text holds ``fragment``: its whole text."""

    def shown() -> str:
        screen = app.screen
        # (a dialog is on top as soon as it is pushed, its widgets once it is mounted; the
        # one answered is on top until it is gone, its widgets going first)
        if not isinstance(screen, ConfirmScreen) or not screen.is_mounted or is_leaving(screen):
            return ""
        title = str(screen.query_one("#confirm-dialog").border_title)
        return f"{title} | {screen.query_one('#confirm-effect').render()}"

    await until(pilot, lambda: fragment in shown(), timeout=20)
    return shown()


async def choose(pilot: Any, screen: EditTargetScreen, cr_id: str) -> None:
    """Move the picker's highlight to ``cr_id`` with ``j`` and press ``enter``."""
    ids = [NEW, *(cr.id for cr in screen.candidates)]
    options = screen.query_one(OptionList)
    while options.highlighted != ids.index(cr_id):
        await pilot.press("j")
    await pilot.press("enter")


async def test_the_reported_path_makes_a_new_change_request(world, desk, tmp_path, monkeypatch):
    """The issue's repro: reviewing eve's #2 (approved by rita), `u`, `escape`, `1`, a page,
    `e`, `enter`: the edit goes into a new change request of alice's; #2 keeps its approval."""
    editor(tmp_path, monkeypatch, "sed -i 's/10 GB/15 GB/' \"$1\"")
    space, cr = desk["space"]["id"], desk["cr"]
    approve(world, space, cr["id"])
    revision = cr_json(world, space, cr["id"])["revision"]
    app = make_app(world, tmp_path)  # alice: no open change request of her own here
    async with app.run_test(size=(120, 40)) as pilot:
        await open_review(app, pilot, "Update partition sizing")
        await pilot.press("u")
        await until_screen(pilot, ConfirmScreen)
        await pilot.press("escape", "1")
        await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        screen = await picker(app, pilot)
        assert screen.query_one(OptionList).highlighted == 0  # "new", never the one reviewed
        assert "+ New change request" in rows(screen)[0]
        assert "by Eve" in rows(screen)[1] and "under review" in rows(screen)[1]
        await pilot.press("enter")
        review = await review_shown(app, pilot)
        assert review.state is not None and review.state.cr.id != cr["id"]
        made = review.state.cr
    assert made.createdBy is not None and made.createdBy.id == world.users["alice"]
    assert "15 GB" in page_in(world, space, made.id, desk["page"])
    assert cr_json(world, space, cr["id"])["revision"] == revision  # #2 untouched
    assert current_approvals(world, space, cr["id"]) == 1


async def test_own_new_change_request_is_the_default(world, desk, tmp_path, monkeypatch):
    """Over 5 s under load: an edit made in an external editor and sent as a change request through the app."""
    editor(tmp_path, monkeypatch, "sed -i 's/10 GB/16 GB/' \"$1\"")
    space = desk["space"]["id"]
    before = {c["id"]: c["revision"] for c in crs(world, space)}
    app = make_app(world, tmp_path, "eve")  # eve has #2 and #3 open here
    async with app.run_test(size=(120, 40)) as pilot:
        await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        screen = await picker(app, pilot)
        assert not any("by " in row for row in rows(screen))  # both are eve's own
        await pilot.press("enter")
        review = await review_shown(app, pilot)
        assert review.state is not None
        made = review.state.cr.id
    assert made not in before
    assert {c["id"]: c["revision"] for c in crs(world, space) if c["id"] in before} == before
    assert "16 GB" in page_in(world, space, made, desk["page"])


async def test_own_existing_change_request_without_asking(world, desk, tmp_path, monkeypatch):
    """eve picks her #2: no confirmation; the notice names it and offers to open it; the new
    revision holds her edit and nothing else."""
    editor(tmp_path, monkeypatch, "sed -i 's/50 GB/55 GB/' \"$1\"")
    space, cr = desk["space"]["id"], desk["cr"]
    count = len(crs(world, space))
    revision = cr_json(world, space, cr["id"])["revision"]
    app = make_app(world, tmp_path, "eve")
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        await choose(pilot, await picker(app, pilot), cr["id"])
        notice = await confirmation(app, pilot, "Your edit is in #2")
        assert "your #2 “Update partition sizing”" in notice
        await pilot.press("escape")  # stay in the browser
        await until(pilot, lambda: app.screen is browser)
    assert len(crs(world, space)) == count
    after = cr_json(world, space, cr["id"])["revision"]
    assert after != revision
    only_edit(world, space, revision, after, desk["page"], "50 GB", "55 GB")


async def test_another_authors_change_request_asks_first(world, desk, tmp_path, monkeypatch):
    """alice reviewed eve's #2 (approved by rita): choosing it names the effect; escape goes
    back to the picker with nothing sent; confirming adds only her edit, the notice opens
    the review, and rita's approval is outdated as said."""
    seen = editor(tmp_path, monkeypatch, "sed -i 's/50 GB/65 GB/' \"$1\"")
    space, cr = desk["space"]["id"], desk["cr"]
    approve(world, space, cr["id"])
    revision = cr_json(world, space, cr["id"])["revision"]
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_review(app, pilot, "Update partition sizing")
        await pilot.press("1")
        await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        screen = await picker(app, pilot)
        await choose(pilot, screen, cr["id"])
        asked = await confirmation(app, pilot, "Eve's")
        assert "Edit Eve's change request #2?" in asked
        assert "Adds your edit to Eve's #2 “Update partition sizing”" in asked
        assert "its 1 approval becomes outdated" in asked
        await pilot.press("escape")  # cancel: the picker again, nothing sent
        again = await picker(app, pilot)
        assert again.query_one(OptionList).highlighted == 0
        assert not seen.exists()
        assert cr_json(world, space, cr["id"])["revision"] == revision
        assert current_approvals(world, space, cr["id"]) == 1
        await choose(pilot, again, cr["id"])
        await confirmation(app, pilot, "Eve's")
        await pilot.press("enter")
        notice = await confirmation(app, pilot, "Your edit is in #2")
        assert "Eve's #2" in notice
        await pilot.press("enter")  # open it
        review = await review_shown(app, pilot)
        assert review.state is not None and review.state.cr.id == cr["id"]
    assert "50 GB" in seen.read_text()  # the page as it is in #2
    after = cr_json(world, space, cr["id"])["revision"]
    only_edit(world, space, revision, after, desk["page"], "50 GB", "65 GB")
    assert current_approvals(world, space, cr["id"]) == 0


async def test_another_authors_page_changed_meanwhile_is_not_overwritten(
    world, desk, tmp_path, monkeypatch
):
    """eve edits #2's page while alice has it in the editor: alice's post is held back (her
    text kept), so eve's newer edit is not undone."""
    editor(tmp_path, monkeypatch, "sed -i 's/50 GB/75 GB/' \"$1\"")
    space, cr = desk["space"]["id"], desk["cr"]
    real = suggest_edit_module.edit_externally

    async def racing(app: Any, text: str) -> str | None:
        edited = await real(app, text)
        change = {
            "operation": "update_page",
            "page": desk["page"],
            "document": {"markdown": text.replace("compaction", "retention")},
        }
        r = world.client("eve").post(
            f"/spaces/{space}/change-requests/{cr['id']}/content", json={"changes": [change]}
        )
        assert r.status_code in (200, 201), r.text
        return edited

    monkeypatch.setattr(suggest_edit_module, "edit_externally", racing)
    app = make_app(world, tmp_path)
    notes = notes_of(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_review(app, pilot, "Update partition sizing")
        await pilot.press("1")
        await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        await choose(pilot, await picker(app, pilot), cr["id"])
        await confirmation(app, pilot, "Eve's")
        await pilot.press("enter")
        await until(pilot, lambda: any("while you edited it" in n for n in notes), timeout=20)
        assert isinstance(app.screen, BrowserScreen)
    text = page_in(world, space, cr["id"], desk["page"])
    assert "retention" in text and "75 GB" not in text


async def test_a_reader_is_refused_with_the_reason(world, desk, tmp_path, monkeypatch):
    seen = editor(tmp_path, monkeypatch, "sed -i 's/10 GB/15 GB/' \"$1\"")
    space = desk["space"]["id"]
    before = {c["id"]: c["revision"] for c in crs(world, space)}
    app = make_app(world, tmp_path, "rhea")  # read role
    notes = notes_of(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_page(app, pilot, space, desk["page"])
        await press_edit(pilot)
        await until(pilot, lambda: any("needs edit rights" in n for n in notes))
        assert "you may only read it" in next(n for n in notes if "needs edit rights" in n)
        assert not isinstance(app.screen, EditTargetScreen)
    assert not seen.exists()
    assert {c["id"]: c["revision"] for c in crs(world, space)} == before


async def _conflict_panel(app: GitBookApp, pilot: Any) -> ConflictPanel:
    await open_review(app, pilot, "Conflicting edit")
    await pilot.press("u")
    await until_screen(pilot, ConfirmScreen)
    await pilot.press("enter")
    panel = await until_screen(pilot, ConflictPanel, timeout=20)
    await until(pilot, lambda: all(v.diff is not None for v in panel.query(DiffView)))
    return panel


async def test_conflict_panel_edit_of_another_authors_asks_first(
    world, desk, tmp_path, monkeypatch
):
    """alice resolves eve's #3 in the conflict panel: `e` names whose work it changes before
    the editor opens; escape sends nothing; enter goes on and the edit lands in #3 only."""
    seen = editor(tmp_path, monkeypatch, "sed -i 's/20 GB/30 GB/' \"$1\"")
    space, conflicted = desk["space"]["id"], desk["conflicted"]
    revision = cr_json(world, space, conflicted["id"])["revision"]
    app = make_app(world, tmp_path)
    notes = notes_of(app)
    async with app.run_test(size=(120, 40)) as pilot:
        panel = await _conflict_panel(app, pilot)
        await pilot.press("e")
        asked = await confirmation(app, pilot, "Eve's")
        assert "Adds your edit to Eve's #3 “Conflicting edit”" in asked
        assert "no reviews of its current revision" in asked
        await pilot.press("escape")
        await until(pilot, lambda: any("Nothing was sent: Eve's #3" in n for n in notes))
        await until(pilot, lambda: app.screen is panel)
        assert not seen.exists()
        assert cr_json(world, space, conflicted["id"])["revision"] == revision
        await pilot.press("e")
        await confirmation(app, pilot, "Eve's")
        await pilot.press("enter")
        await until(pilot, panel.edited.is_set, timeout=20)
        assert any("Your edit of Sizing is in Eve's #3" in n for n in notes)
    after = cr_json(world, space, conflicted["id"])["revision"]
    sizing = next(
        p for p, text in revision_pages(world, space, revision).items() if "20 GB" in text
    )
    only_edit(world, space, revision, after, sizing, "20 GB", "30 GB")


async def test_conflict_panel_edit_of_ones_own_goes_straight_on(world, desk, tmp_path, monkeypatch):
    """An edit from the conflict panel of one's own change request needs no consent. Slow: a review,
    a refused merge and the panel."""
    seen = editor(tmp_path, monkeypatch, "sed -i 's/20 GB/30 GB/' \"$1\"")
    space, conflicted = desk["space"]["id"], desk["conflicted"]
    revision = cr_json(world, space, conflicted["id"])["revision"]
    app = make_app(world, tmp_path, "eve")
    async with app.run_test(size=(120, 40)) as pilot:
        panel = await _conflict_panel(app, pilot)
        await pilot.press("e")
        await until(pilot, panel.edited.is_set, timeout=20)
        assert seen.exists()
    assert cr_json(world, space, conflicted["id"])["revision"] != revision
