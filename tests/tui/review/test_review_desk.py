"""The review desk against the in-process server: inbox, review pane, diff, review actions,
update and merge (with the 409 conflict panel), permissions and hostile text."""

from __future__ import annotations

from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.render.diff_view import DiffView
from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
from gitbook_tui.tui.review.conflict_panel import ConflictPanel
from gitbook_tui.tui.review.merge_checklist_screen import MergeChecklistScreen
from gitbook_tui.tui.review.review_footer import ReviewFooter
from gitbook_tui.tui.review.review_inbox_screen import ReviewInboxScreen
from gitbook_tui.tui.review.review_message_screen import ReviewMessageScreen
from gitbook_tui.tui.review.reviewer_picker_screen import ReviewerPickerScreen
from support.notes import notes_of
from support.review_world import EDITED, HOSTILE, make_app, merge_confirmed, open_inbox, open_review
from support.waits import until, until_screen


async def test_inbox_sections(world, desk, tmp_path):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        inbox = await open_inbox(app, pilot)
        assert inbox.org_wide is True
        assert [r.cr.subject for r in inbox.shown] == ["Conflicting edit"]  # requested: alice
        await pilot.press("l")  # Mine: alice authored only merged ones
        assert inbox.shown == []
        await pilot.press("l")  # Outdated or conflicting
        assert {r.cr.subject for r in inbox.shown} == {
            "Conflicting edit",
            "Update partition sizing",
        }
        await pilot.press("l", "l")  # All open
        assert len(inbox.shown) == 2
        row = next(r for r in inbox.shown if r.cr.subject == "Update partition sizing")
        assert row.requested is False and row.approvals == 0
        await pilot.press("p")
        text = inbox.query_one("#inbox-preview-text")
        await until(
            pilot, lambda: "edited Streams" in str(text.render()) or "~" in str(text.render())
        )


async def test_inbox_falls_back_to_per_space_lists(world, desk, tmp_path, monkeypatch):
    from gitbook_tui.api.change_requests import ChangeRequests
    from gitbook_tui.api.errors import NotFoundError

    def missing(self, *args, **kwargs):
        raise NotFoundError(404, "Not found", "GET", "/orgs/x/change-requests")

    monkeypatch.setattr(ChangeRequests, "list_for_organization", missing)
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        inbox = await open_inbox(app, pilot)
        assert inbox.org_wide is False
        assert [r.cr.subject for r in inbox.shown] == ["Conflicting edit"]


async def test_diff_shows_changed_words_inline_and_split(world, desk, tmp_path):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        diff = review.query_one(DiffView)
        assert diff.effective_mode == "split"
        lines = "\n".join(diff.all_text())
        assert "10 GB" in lines and "50 GB" in lines
        assert "+ A brand new paragraph" in lines
        await pilot.press("|")
        assert diff.effective_mode == "inline"
        lines = diff.all_text()
        removed = [line for line in lines if "10 GB" in line]
        added = [line for line in lines if "50 GB" in line]
        assert removed and removed[0].lstrip("▶▌").startswith("−")
        assert added and added[0].lstrip("▶▌").startswith("+")
        first = diff.current
        await pilot.press("n")
        assert diff.current != first
        await pilot.press("N")
        assert diff.current == first
        header = str(review.query_one("#cr-header").render())
        assert "#2" in header and "Update partition sizing" in header


async def test_the_diff_layout_chosen_is_kept_for_every_review(world, desk, tmp_path):
    """``|`` chooses inline or split once: the next change request, and the next start,
    show the diff the same way (per account)."""
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        assert review.diff.effective_mode == "split"  # wide enough: split by default
        await pilot.press("|")
        assert review.diff.effective_mode == "inline"
        await pilot.press("escape", "1")  # back to the inbox, then to Browse
        other = await open_review(app, pilot, "Conflicting edit")
        assert other.diff.effective_mode == "inline"
    again = make_app(world, tmp_path)
    async with again.run_test(size=(120, 40)) as pilot:
        review = await open_review(again, pilot, "Update partition sizing")
        assert review.diff.effective_mode == "inline"


async def test_viewed_marks_progress(world, desk, tmp_path):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        assert review.pages.progress() == "0/1 viewed"
        await pilot.press("space")
        assert review.pages.progress() == "1/1 viewed"


async def test_approve_and_request_changes(world, desk, tmp_path):
    """Over 5 s under load: two reviews sent through the app, each checked on the server."""
    app = make_app(world, tmp_path, "rita")
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        await pilot.press("v")
        await until_screen(pilot, ReviewMessageScreen)
        await pilot.press(*"Looks good", "ctrl+s")
        await until(pilot, lambda: review.state is not None and review.state.approvals == 1)
        await until(
            pilot,
            lambda: "Rita approved: Looks good" in str(review.query_one("#cr-reviews").render()),
        )
        await pilot.press("V")
        await until_screen(pilot, ReviewMessageScreen)
        await pilot.press(*"Check sizing", "ctrl+s")
        await until(pilot, lambda: review.state is not None and review.state.changes_requested == 1)
    reviews = (
        world.client()
        .get(f"/spaces/{desk['space']['id']}/change-requests/{desk['cr']['id']}/reviews")
        .json()["items"]
    )
    assert [r["status"] for r in reviews] == ["changes-requested", "approved"]
    assert reviews[0]["comment"]


async def test_add_and_remove_reviewer(world, desk, tmp_path):
    app = make_app(world, tmp_path, "eve")
    notes = notes_of(app)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        await pilot.press("a")
        picker = await until_screen(pilot, ReviewerPickerScreen)
        reasons = {c.name: c.note for c in picker.candidates}
        assert reasons["Eve"] == "author" and reasons["Rita"] == "already asked"
        assert reasons["Rhea"] == "read role: can't review" and reasons["Carol"] == ""
        picker.dismiss(world.users["carol"])
        await until(pilot, lambda: review.state is not None and len(review.state.requested) == 2)
        number = review.state.cr.number
        assert f"Asked Carol to review #{number}." in notes  # the note names who was asked
        await pilot.press("A")
        await until_screen(pilot, ReviewerPickerScreen)
        app.screen.dismiss(world.users["rita"])
        await until(pilot, lambda: review.state is not None and len(review.state.requested) == 1)
        assert review.state.requested[0].user.id == world.users["carol"]


async def test_update_conflict_opens_the_conflict_panel(world, desk, tmp_path):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Conflicting edit")
        await pilot.press("u")
        await until_screen(pilot, ConfirmScreen)
        await pilot.press("enter")
        panel = await until_screen(pilot, ConflictPanel)
        assert panel.titles == ["Sizing"]
        main_side = panel.query_one("#conflict-main", DiffView)
        cr_side = panel.query_one("#conflict-cr", DiffView)
        await until(pilot, lambda: main_side.diff is not None and cr_side.diff is not None)
        assert any("30 GB" in line for line in main_side.all_text())
        assert any("20 GB" in line for line in cr_side.all_text())
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is review)


async def test_update_ok(world, desk, tmp_path):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        assert review.state is not None and review.state.cr.outdated
        await pilot.press("u")
        await until_screen(pilot, ConfirmScreen)
        await pilot.press("enter")
        await until(pilot, lambda: review.state is not None and not review.state.cr.outdated)


async def test_merge_checklist_typed_confirmation_and_409(world, desk, tmp_path):
    """Merge shows its checklist, needs the typed number, and shows a 409 inline. Slow: two merge
    dialogs in one review."""
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Conflicting edit")
        await pilot.press("m")
        checklist = await until_screen(pilot, MergeChecklistScreen)
        labels = [(i.ok, i.label) for i in checklist.items]
        assert (False, "0 approvals of the current revision") in labels
        assert (True, "0 reviews requesting changes") in labels
        assert not any("(s)" in label for _, label in labels)  # plurals written out
        rules = str(checklist.query_one("#merge-items").render())
        assert "rules not met" in rules or "rule not met" in rules
        assert any(not ok and "outdated" in label for ok, label in labels)
        assert not checklist.blocked
        await pilot.press("enter")
        await until_screen(pilot, ConfirmScreen)
        await pilot.press("4", "enter")
        assert isinstance(app.screen, ConfirmScreen)  # wrong number: nothing happens
        await pilot.press("backspace", "3", "enter")
        await until_screen(pilot, ConflictPanel)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is review)
    cr = (
        world.client()
        .get(f"/spaces/{desk['space']['id']}/change-requests/{desk['conflicted']['id']}")
        .json()
    )
    assert cr["status"] == "open"


async def test_merge_succeeds(world, desk, tmp_path):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        await merge_confirmed(pilot, "2")
        await until(pilot, lambda: review.state is not None and review.state.cr.status == "merged")


async def test_reader_is_denied_with_a_reason(world, desk, tmp_path):
    app = make_app(world, tmp_path, "rhea")
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        assert review.denial_reason("approve") == "Reviewing needs review rights on this space"
        assert review.denial_reason("merge") == "Merging needs edit rights on this space"
        footer = review.query_one(ReviewFooter)

        def dimmed() -> dict[str, bool]:
            return {k.key: k.has_class("-disabled") for k in footer.children if hasattr(k, "key")}

        await until(pilot, lambda: dimmed().get("v") is True)
        assert dimmed()["n"] is False
        await pilot.press("m")
        await until(pilot, lambda: app._notifications)
        assert not isinstance(app.screen, MergeChecklistScreen)
        messages = [n.message for n in app._notifications]
        assert "Merging needs edit rights on this space" in messages


async def test_author_cannot_review_own(world, desk, tmp_path):
    app = make_app(world, tmp_path, "eve")
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        assert review.denial_reason("approve") == "Authors can't review their own change request"


async def test_hostile_text_is_inert(world, desk, tmp_path):
    path = f"/spaces/{desk['space']['id']}/change-requests/{desk['cr']['id']}"
    r = world.client("eve").patch(
        path, json={"subject": HOSTILE[:90], "description": {"markdown": HOSTILE}}
    )
    assert r.status_code == 200, r.text
    page = EDITED + "\nHostile: " + HOSTILE + "\n"
    edit = {"operation": "update_page", "page": desk["page"], "document": {"markdown": page}}
    r = world.client("eve").post(f"{path}/content", json={"changes": [edit]})
    assert r.status_code == 200, r.text
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, HOSTILE[:90].strip())
        header = str(review.query_one("#cr-header").render())
        assert "[bold red]pwn[/]" in header and "\x1b" not in header
        assert "[@click=app.quit]" in str(review.query_one("#cr-description").render())
        lines = "\n".join(review.diff.all_text())
        assert "Hostile:" in lines and "\x1b" not in lines and "\x07" not in lines
        await pilot.press("escape")
        inbox = app.screen
        assert isinstance(inbox, ReviewInboxScreen)
    assert app.return_code is None or app.return_code == 0


async def test_review_command_starts_on_the_inbox(world, desk, tmp_path):
    from gitbook_tui.cli import build_parser

    assert build_parser().parse_args(["review"]).command == "review"
    app = make_app(world, tmp_path)
    app.start_view = "reviews"
    async with app.run_test(size=(120, 40)) as pilot:
        await until(
            pilot,
            lambda: isinstance(app.screen, ReviewInboxScreen) and app.screen.focused is not None,
            timeout=30,
        )
        await pilot.press("1")
        await until_screen(pilot, BrowserScreen)


async def test_changed_under_you_banner_and_reload(world, desk, tmp_path):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        before = review.diff.all_text()
        path = f"/spaces/{desk['space']['id']}/change-requests/{desk['cr']['id']}"
        edit = {
            "operation": "update_page",
            "page": desk["page"],
            "document": {"markdown": EDITED + "\nOne more line.\n"},
        }
        r = world.client("eve").post(f"{path}/content", json={"changes": [edit]})
        assert r.status_code == 200, r.text
        review._poll()
        await until(pilot, lambda: review.has_class("-changed"))
        assert "new commits" in str(review.query_one("#cr-banner").render())
        assert review.diff.all_text() == before  # never swapped under the cursor
        await pilot.press("R")
        await until(pilot, lambda: not review.has_class("-changed"))
        await until(pilot, lambda: any("One more line." in x for x in review.diff.all_text()))


async def test_status_actions_and_subject(world, desk, tmp_path):
    from gitbook_tui.tui.review.subject_screen import SubjectScreen

    app = make_app(world, tmp_path, "eve")
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")

        def status() -> str | None:
            return review.state.cr.status if review.state else None

        await pilot.press("W")
        await until(pilot, lambda: status() == "draft")
        await pilot.press("W")
        await until(pilot, lambda: status() == "open")
        await pilot.press("x")
        await until_screen(pilot, ConfirmScreen)
        await pilot.press("enter")
        await until(pilot, lambda: status() == "archived")
        assert review.denial_reason("approve") == "Change request #2 is archived"
        await pilot.press("x")
        await until(pilot, lambda: status() == "open")
        await pilot.press("E")
        await until_screen(pilot, SubjectScreen)
        app.screen.query_one("Input").value = "Partition sizing for 3.5"
        await pilot.press("ctrl+s")
        await until(
            pilot, lambda: review.state and review.state.cr.subject == "Partition sizing for 3.5"
        )


async def test_space_table_when_a_space_is_open(world, desk, make_space, tmp_path):
    other = make_space("Other")
    r = world.client("eve").post(
        f"/spaces/{other['id']}/change-requests", json={"subject": "Elsewhere"}
    )
    assert r.status_code == 201
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until_screen(pilot, BrowserScreen)
        await until(pilot, lambda: app.organization_id is not None)
        app.space_id = other["id"]
        inbox = await open_inbox(app, pilot)
        assert inbox.space_only
        assert [row.cr.subject for row in inbox.shown] == ["Elsewhere"]
        await pilot.press("a")
        await until(pilot, lambda: not inbox.space_only and inbox.loaded)


async def test_palette_offers_the_reviews_view(world, desk, tmp_path):
    from gitbook_tui.tui.common.palette import AppCommands

    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until_screen(pilot, BrowserScreen)
        await until(pilot, lambda: app.organization_id is not None)
        provider = AppCommands(app.screen)
        titles = [c.title for c in provider.commands]
        assert "Go to Reviews" in titles
        command = next(c for c in provider.commands if c.title == "Go to Reviews")
        await app.run_action(command.action)
        await until_screen(pilot, ReviewInboxScreen)


async def test_inbox_filter(world, desk, tmp_path):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        inbox = await open_inbox(app, pilot)
        await pilot.press("l", "l", "l", "l")
        assert len(inbox.shown) == 2
        await pilot.press("slash", *"partition l")  # typed keys never fire commands
        assert [r.cr.subject for r in inbox.shown] == []
        await pilot.press("backspace", "backspace")
        assert [r.cr.subject for r in inbox.shown] == ["Update partition sizing"]
        assert inbox.section == SECTIONS_ALL_OPEN
        await pilot.press("enter")  # opens the match (the kit's filter rule)
        await until_screen(pilot, ChangeRequestReviewScreen)
        await pilot.press("escape")  # back to the inbox, the filter kept
        await until(pilot, lambda: app.screen is inbox)
        assert [r.cr.subject for r in inbox.shown] == ["Update partition sizing"]
        await pilot.press("escape")  # clears it
        assert len(inbox.shown) == 2
        await pilot.press("enter")
        await until_screen(pilot, ChangeRequestReviewScreen)


SECTIONS_ALL_OPEN = 4


async def test_copy_review_summary(world, desk, tmp_path):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_review(app, pilot, "Update partition sizing")
        await pilot.press("Y")
        await until(pilot, lambda: app.clipboard)
        assert app.clipboard.startswith("## #2 Update partition sizing")
        assert "- [ ] 0 approvals of the current revision" in app.clipboard
        assert "- ~ edited Streams" in app.clipboard


async def test_unreachable_server_is_named_and_r_retries(world, desk, tmp_path, monkeypatch):
    from gitbook_tui.api.errors import APIConnectionError
    from gitbook_tui.tui.review import inbox_data

    real = inbox_data.load_inbox
    calls: list[int] = []

    async def flaky(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise APIConnectionError("GET", "/orgs/x/change-requests")
        return await real(*args, **kwargs)

    monkeypatch.setattr(inbox_data, "load_inbox", flaky)
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until_screen(pilot, BrowserScreen)
        await until(pilot, lambda: app.organization_id is not None)
        await pilot.press("2")
        inbox = await until_screen(pilot, ReviewInboxScreen)
        state = inbox.query_one("#inbox-state")
        await until(pilot, lambda: state.has_class("-error"))
        text = str(state.render())
        assert "http://testserver/v1" in text and "Could not reach the server" in text
        await pilot.press("r")
        await until(pilot, lambda: inbox.loaded and not state.has_class("-error"))


async def test_title_change_is_a_header_row(world, desk, tmp_path):
    path = f"/spaces/{desk['space']['id']}/change-requests/{desk['cr']['id']}"
    edit = {"operation": "update_page", "page": desk["page"], "title": "Streams and partitions"}
    r = world.client("eve").post(f"{path}/content", json={"changes": [edit]})
    assert r.status_code == 200, r.text
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        lines = review.diff.all_text()
        assert lines[0].startswith("± title: Streams → Streams and partitions")


async def test_moved_page_and_file_change(world, desk, tmp_path):
    import base64

    space = desk["space"]["id"]
    r = world.client("eve").post(f"/spaces/{space}/change-requests", json={"subject": "Move"})
    cr = r.json()
    path = f"/spaces/{space}/change-requests/{cr['id']}"
    sizing = world.client().get(f"/spaces/{space}/content/pages").json()["pages"][1]["id"]
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 16).decode()
    changes = [
        {"operation": "update_page", "page": desk["page"], "into": sizing},
        {"operation": "insert_files", "files": [{"name": "diagram.png", "base64": png}]},
    ]
    r = world.client("eve").post(f"{path}/content", json={"changes": changes})
    assert r.status_code == 200, r.text
    r = world.client("eve").post(
        f"{path}/requested-reviewers", json={"users": [world.users["alice"]]}
    )
    assert r.status_code == 200, r.text
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Move")
        labels = [str(review.pages.get_option_at_index(i).prompt) for i in range(2)]
        assert labels[0].startswith("→ moved Streams (top level → Sizing)")
        assert labels[1].startswith("+ file created diagram.png")
        await pilot.press("J")
        await until(pilot, lambda: "diagram.png" in " ".join(review.diff.all_text()))
        assert review.diff.all_text()[0].startswith("file created: diagram.png")
