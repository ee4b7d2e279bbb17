"""Hostile text in comment bodies and names is inert wherever the Comments view shows it."""

from __future__ import annotations

from typing import Any

from gitbook_tui.server.bootstrap import add_member, create_user
from gitbook_tui.server.core.context import issue_token
from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from gitbook_tui.tui.comments.markdown_body import MarkdownBody
from gitbook_tui.tui.comments.reaction_picker import ReactionPicker
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from support.comments_world import HOSTILE, build_space, comments_run, select_thread
from support.waits import until, until_screen

CONTROLS = ("\x1b", "\x07", "\u202e")


def _inert(text: str) -> None:
    assert "[b]bold[/b]" in text and "[@click=app.quit]" in text, text
    for control in CONTROLS:
        assert control not in text, repr(text)


def _plain(widget: Any) -> str:
    rendered = widget.render()
    return rendered.plain if hasattr(rendered, "plain") else str(rendered)


async def test_hostile_text_is_inert_in_list_thread_and_dialogs(world: Any, tmp_path) -> None:
    ids = build_space(world)
    with world.storage.transaction() as tx:
        user = create_user(tx, world.storage, world.clock, HOSTILE, "mallory@acme.test")
        issue_token(tx, user["id"], "tok-mallory")
        add_member(tx, world.clock, world.org, user["id"], "comment")
    r = world.client("mallory").post(
        f"/spaces/{ids['space']}/comments",
        json={"body": {"markdown": f"{HOSTILE}\n\nsecond paragraph"}, "page": ids["Welcome"]},
    )
    assert r.status_code in (200, 201), r.text
    hostile = r.json()["id"]
    # alice is an admin: she may delete it, so the confirmation names the author
    async with comments_run(world, tmp_path, ids, token="tok-alice") as (pilot, screen, app, *_):
        row = screen.thread_list.get_option_at_index(screen.thread_list.ids.index(hostile))
        _inert(row.prompt.plain)  # type: ignore[union-attr]
        await select_thread(pilot, screen, hostile)

        def first_header() -> str:
            posts = screen.pane.posts
            headers = posts[0].query(".post--header") if posts else None
            return _plain(headers.first()) if headers else ""

        # (the thread pane mounts the thread's posts after it took the thread)
        await until(pilot, lambda: "[@click=app.quit]" in first_header(), "the posts shown")
        post = screen.pane.posts[0]
        _inert(first_header())
        body = post.query_one(MarkdownBody)

        def drawn() -> str:
            return "".join(s.text for y in range(body.size.height) for s in body.render_line(y))

        # the post is laid out (given its height) after the thread is shown
        await until(pilot, lambda: "second paragraph" in drawn(), "the post's body drawn")
        _inert(drawn())
        # the reaction picker and the delete confirmation name the author
        await pilot.press("colon")
        await until_screen(pilot, ReactionPicker)
        _inert(_plain(app.screen.query_one("#t")))
        await pilot.press("escape")
        await until_screen(pilot, CommentsScreen)
        await pilot.press("d")
        await until_screen(pilot, ConfirmScreen)
        _inert(_plain(app.screen.query_one("#confirm-effect")))
        await pilot.press("escape")
        # the composer's title too
        await pilot.press("enter", "c")
        await until(pilot, lambda: screen.composer.is_open)
        _inert(_plain(screen.composer.query_one("#composer-title")))
        assert app.is_running  # [@click=app.quit] never ran
