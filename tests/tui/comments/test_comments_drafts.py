"""Nothing typed is lost: drafts across restarts, the offline outbox, $EDITOR, mentions."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from gitbook_tui.drafts import DraftKey, DraftStore
from gitbook_tui.drafts.keys import REPLY
from gitbook_tui.tui.common.state import account_key
from gitbook_tui.tui.common.status_bar import StatusBar
from support.comments_world import build_space, comments_run, reply_offline, select_thread
from support.waits import until


def _replies(world: Any, ids: dict[str, str], thread: str) -> list[str]:
    r = world.client("alice").get(f"/spaces/{ids['space']}/comments/{thread}/replies")
    return [item["body"]["markdown"] for item in r.json()["items"]]


async def test_draft_survives_an_app_restart(world: Any, tmp_path: Path) -> None:
    """A reply being typed is saved after a pause and offered again after a restart. Slow: two app
    runs and the draft debounce."""
    ids = build_space(world)
    key = DraftKey(REPLY, space=ids["space"], target=ids["first"])
    async with comments_run(world, tmp_path, ids) as (pilot, screen, app, *_):
        store = DraftStore(account_key(app.client))
        await select_thread(pilot, screen, ids["first"])
        await pilot.press("enter", "c")
        await until(pilot, lambda: screen.composer.is_open)
        await pilot.press(*"Half a thought")
        # saved ~1 s after typing stops, without closing anything (the app may be killed)
        await until(pilot, lambda: store.load(key) is not None)
        draft = store.load(key)
        assert draft is not None and draft.text == "Half a thought"
        assert stat.S_IMODE(os.stat(store.path(key)).st_mode) == 0o600
        await pilot.press("escape")  # hidden, kept
        await until(pilot, lambda: not screen.composer.is_open)
        assert store.load(key) is not None

        def row() -> str:
            index = screen.thread_list.ids.index(ids["first"])
            return screen.thread_list.get_option_at_index(index).prompt.plain  # type: ignore[union-attr]

        await until(pilot, lambda: "✎ draft" in row())
    async with comments_run(world, tmp_path, ids) as (pilot, screen, app, *_):
        assert screen.state.threads[ids["first"]].drafted  # the list says a draft waits
        await select_thread(pilot, screen, ids["first"])
        await pilot.press("enter", "c")
        # (the composer opens and takes keys before it has read its draft)
        await until(
            pilot,
            lambda: screen.composer.is_open and screen.composer.text == "Half a thought",
            "the composer open with the saved draft",
        )
        await pilot.press("end", *", finished.", "ctrl+s")
        await until(pilot, lambda: not screen.composer.is_open)
        assert _replies(world, ids, ids["first"])[-1] == "Half a thought, finished."
        # removed once the server accepted it
        assert DraftStore(account_key(app.client)).load(key) is None
        await until(pilot, lambda: not screen.state.threads[ids["first"]].drafted)


async def test_offline_queue_is_replayed_when_the_server_is_back(world: Any, tmp_path) -> None:
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["second"]) as run:
        pilot, screen, _, notes, transport = run
        transport.offline = True
        await pilot.press("x")  # resolve: queued
        await until(pilot, lambda: screen.queued == 1)
        await pilot.press("enter", "c")
        await until(pilot, lambda: screen.composer.is_open)
        await pilot.press(*"Written on a train", "ctrl+s")
        await until(pilot, lambda: screen.queued == 2 and not screen.composer.is_open)
        assert screen.query_one(StatusBar).queue_text == "2 queued"
        assert any("queued" in n for n in notes)
        assert _replies(world, ids, ids["second"]) == []
        transport.offline = False
        screen.action_reload()  # the next refresh reaches the server
        await until(pilot, lambda: screen.queued == 0 and not screen.busy)
        assert _replies(world, ids, ids["second"]) == ["Written on a train"]
        r = world.client("alice").get(f"/spaces/{ids['space']}/comments/{ids['second']}")
        assert r.json()["status"] == "resolved"
        await until(pilot, lambda: len(screen.pane.posts) == 2 and not screen.busy)
        assert screen.query_one(StatusBar).queue_text == ""


async def test_refused_on_replay_becomes_a_draft_again(world: Any, tmp_path) -> None:
    """A queued reply refused on replay (its thread deleted) becomes a draft again, not lost. Slow:
    an outage, a deletion and a replay in one app."""
    ids = build_space(world)
    key = DraftKey(REPLY, space=ids["space"], target=ids["second"])
    async with comments_run(world, tmp_path, ids, ids["second"]) as run:
        pilot, screen, app, notes, transport = run
        await reply_offline(pilot, screen, transport, "Nobody will read this")
        world.client("alice").delete(f"/spaces/{ids['space']}/comments/{ids['second']}")
        transport.offline = False
        screen.action_reload()
        await until(pilot, lambda: any("refused" in n for n in notes) and not screen.busy)
        draft = DraftStore(account_key(app.client)).load(key)
        assert draft is not None and draft.text == "Nobody will read this"


async def test_external_editor_round_trip(world: Any, tmp_path: Path, monkeypatch) -> None:
    ids = build_space(world)
    script = tmp_path / "fake-editor"
    mode_file = tmp_path / "mode"
    script.write_text(f'#!/bin/sh\nstat -c %a "$1" > {mode_file}\nprintf " from vim" >> "$1"\n')
    script.chmod(0o700)
    monkeypatch.setenv("VISUAL", str(script))
    async with comments_run(world, tmp_path, ids, ids["first"]) as (pilot, screen, *_):
        await pilot.press("enter", "c")
        await until(pilot, lambda: screen.composer.is_open)
        await pilot.press(*"typed", "ctrl+o")
        await until(pilot, lambda: screen.composer.text == "typed from vim")
        assert mode_file.read_text().strip() == "600"
        assert not list(Path(os.environ.get("TMPDIR", "/tmp")).glob("gitbook-tui-draft-*"))
        monkeypatch.setenv("VISUAL", str(tmp_path / "missing-editor"))
        await pilot.press("ctrl+o")
        await until(pilot, lambda: screen.composer.error is not None)
        assert screen.composer.text == "typed from vim"


async def test_mentions_complete_organization_members(world: Any, tmp_path) -> None:
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["first"]) as (pilot, screen, *_):
        await pilot.press("enter", "c")
        await until(pilot, lambda: screen.composer.is_open)
        await until(pilot, lambda: "Carol" in screen.composer.area.members)
        await pilot.press(*"ping @Ca")
        await until(pilot, lambda: screen.composer.area.suggestion == "rol")
        await pilot.press("tab")
        assert screen.composer.text == "ping @Carol"
        # #21: the name replaces what was typed after @ (was "@carol": the typed case kept)
        await pilot.press(*" and @ca")
        await until(pilot, lambda: screen.composer.area.suggestion == "rol")
        await pilot.press("tab")
        await until(pilot, lambda: screen.composer.text == "ping @Carol and @Carol")
