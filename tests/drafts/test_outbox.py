"""Outbox: the offline queue on disk: order, outcomes, drafts restored, kill-safety."""

from __future__ import annotations

import json
import logging
import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from gitbook_tui.cache import account_fingerprint
from gitbook_tui.drafts import DraftKey, DraftStore, Outbox, OutboxAction
from gitbook_tui.drafts import outbox as outbox_module

URL = "http://testserver/v1"
TOKEN = "tok-alice-secret"
ACCOUNT = account_fingerprint(URL, TOKEN)


@pytest.fixture
def drafts(tmp_path: Path) -> DraftStore:
    return DraftStore(ACCOUNT, tmp_path / "drafts")


@pytest.fixture
def box(tmp_path: Path, drafts: DraftStore) -> Outbox:
    return Outbox(ACCOUNT, tmp_path / "outbox", drafts=drafts)


def python_child(script: str, folder: Path, **options: Any) -> subprocess.Popen[str]:
    """``script`` run by another Python over the outbox of ACCOUNT in ``folder``; its
    stdout a text pipe."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen(
        [sys.executable, "-c", script, ACCOUNT, str(folder)],
        stdout=subprocess.PIPE,
        env=env,
        text=True,
        **options,
    )


def reply(n: int, **options: object) -> OutboxAction:
    return OutboxAction.new_reply("space1", "comment1", f"reply {n}", **options)  # type: ignore[arg-type]


def test_items_come_back_in_the_order_queued(box: Outbox) -> None:
    assert box.pending() == [] and box.count() == 0
    actions = [
        OutboxAction.new_comment("space1", "a new thread", page="page1", node="n1"),
        reply(1),
        OutboxAction.new_reaction("space1", "comment1", added=["👍"], removed=["🎉"]),
        OutboxAction.new_reaction("space1", "comment1", reply="r1", added=["🔥"]),
        OutboxAction.new_resolve("space1", "comment1", change_request="cr1"),
    ]
    items = [box.enqueue(a) for a in actions]
    assert [i.seq for i in items] == [1, 2, 3, 4, 5]
    assert [i.action for i in box.pending()] == actions
    assert box.count() == 5 and box.failed() == []
    assert box.get(items[1].id) == items[1]


def test_files_are_private_and_hold_no_token(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        box = Outbox.for_account(URL, TOKEN, tmp_path / "outbox")
        box.enqueue(reply(1))
    finally:
        os.umask(old)
    assert box.path == tmp_path / "outbox" / ACCOUNT / "outbox.jsonl"
    for path in [tmp_path / "outbox", box.dir, *box.dir.iterdir()]:
        want = 0o700 if path.is_dir() else 0o600
        assert stat.S_IMODE(path.stat().st_mode) == want, path
        assert TOKEN not in str(path)
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes()


def test_default_location_is_the_user_data_dir(tmp_path: Path) -> None:
    box = Outbox.for_account(URL, TOKEN)
    assert box.path == tmp_path / "data" / "gitbook-tui" / "outbox" / ACCOUNT / "outbox.jsonl"


def test_accounts_have_separate_queues(tmp_path: Path) -> None:
    alice = Outbox.for_account(URL, "tok-alice", tmp_path)
    eve = Outbox.for_account(URL, "tok-eve", tmp_path)
    alice.enqueue(reply(1))
    assert eve.count() == 0 and alice.count() == 1
    with pytest.raises(ValueError):
        Outbox("tok-alice", tmp_path)


@pytest.mark.parametrize(
    "build",
    [
        lambda: OutboxAction.new_comment("s", "   "),
        lambda: OutboxAction.new_reaction("s", "c"),
        lambda: OutboxAction(kind="reply", space="s", markdown="no thread"),
        lambda: OutboxAction(kind="resolve", space="s", comment="c"),
        lambda: OutboxAction(kind="comment", space="s", markdown="x", comment="c"),
        lambda: OutboxAction(kind="resolve", space="s", comment="c", resolved=True, markdown="x"),
        lambda: OutboxAction(
            kind="reply", space="s", comment="c", markdown="x", added_reactions=("👍",)
        ),
        lambda: OutboxAction(kind="merge", space="s"),  # nothing else is ever queued
        lambda: OutboxAction.new_reply("", "c", "x"),
        lambda: OutboxAction(kind="comment", space="s", markdown="x", token="t"),
    ],
)
def test_malformed_actions_are_refused(build: object) -> None:
    with pytest.raises(ValidationError):
        build()  # type: ignore[operator]


def test_done_removes_the_item_and_its_unchanged_draft(box: Outbox, drafts: DraftStore) -> None:
    key = DraftKey("reply", space="space1", target="comment1")
    drafts.save(key, "reply 1")
    first = box.enqueue(reply(1, draft=key))
    second = box.enqueue(reply(2))
    assert box.mark_done(first.id) is True
    assert drafts.load(key) is None
    assert [i.id for i in box.pending()] == [second.id]
    assert box.mark_done(first.id) is False  # already gone


def test_done_keeps_a_draft_holding_newer_words(box: Outbox, drafts: DraftStore) -> None:
    key = DraftKey("reply", space="space1", target="comment1")
    item = box.enqueue(reply(1, draft=key))
    drafts.save(key, "a second reply, typed after queueing the first")
    box.mark_done(item.id)
    assert drafts.load(key).text.startswith("a second reply")  # type: ignore[union-attr]


def test_a_refused_item_stays_visible_and_its_text_becomes_a_draft_again(
    box: Outbox, drafts: DraftStore
) -> None:
    item = box.enqueue(reply(1, label="Reply to Lee on FAQ"))
    later = box.enqueue(reply(2))
    failed = box.mark_failed(item.id, "404 Comment not found (POST …/replies)")
    assert failed is not None and failed.status == "failed"
    assert failed.error == "404 Comment not found (POST …/replies)"
    assert [i.id for i in box.failed()] == [item.id]
    assert [i.id for i in box.pending()] == [later.id] and box.count() == 1
    key = DraftKey("reply", space="space1", target="comment1")  # derived from the action
    assert failed.restored_draft == key
    draft = drafts.load(key)
    assert draft is not None and draft.text == "reply 1" and draft.title == "Reply to Lee on FAQ"
    assert draft.extra["failed"] == {"error": failed.error, "outbox_id": item.id}


def test_a_refused_item_never_overwrites_other_words_in_its_composer(
    box: Outbox, drafts: DraftStore
) -> None:
    key = DraftKey("comment", space="space1", target="page1")
    item = box.enqueue(OutboxAction.new_comment("space1", "queued thread", page="page1", draft=key))
    drafts.save(key, "a newer thread being written")
    failed = box.mark_failed(item.id, "403 read access only")
    assert failed is not None and failed.restored_draft == key.with_variant(f"failed-{item.id}")
    assert drafts.load(key).text == "a newer thread being written"  # type: ignore[union-attr]
    assert drafts.load(failed.restored_draft).text == "queued thread"  # type: ignore[union-attr,arg-type]


def test_reactions_and_resolves_restore_no_draft(box: Outbox, drafts: DraftStore) -> None:
    item = box.enqueue(OutboxAction.new_reaction("space1", "comment1", added=["👍"]))
    failed = box.mark_failed(item.id, "404")
    assert failed is not None and failed.restored_draft is None and drafts.list() == []


def test_dismiss_and_retry(box: Outbox) -> None:
    a, b = box.enqueue(reply(1)), box.enqueue(reply(2))
    box.mark_failed(a.id, "409 conflict")
    retried = box.retry(a.id)
    assert retried is not None and retried.status == "pending" and retried.error is None
    assert [i.id for i in box.pending()] == [b.id, a.id]  # queued again after the rest
    box.mark_failed(a.id, "409 again")
    assert box.dismiss(a.id) is True and box.failed() == [] and box.get(a.id) is None
    assert box.dismiss(a.id) is False and box.retry(a.id) is None


HOSTILE_TEXT = "line\nbreak \u2028 sep \x00 nul \x1b[31m ansi \x1b]8;;http://x\x07 osc [@click=quit] \u202e bidi"


def test_any_text_round_trips_exactly(box: Outbox, drafts: DraftStore) -> None:
    key = DraftKey("reply", space="s\n", target="../c")
    item = box.enqueue(
        OutboxAction.new_reply("s\n", "../c", HOSTILE_TEXT, draft=key, label=HOSTILE_TEXT)
    )
    box.enqueue(reply(2))
    [first, _] = box.pending()
    assert first == item and first.action.markdown == HOSTILE_TEXT
    assert box.path.read_bytes().count(b"\n") == 2  # one record a line, whatever the text
    box.mark_failed(item.id, HOSTILE_TEXT)
    assert box.failed()[0].error == HOSTILE_TEXT
    assert drafts.load(key).text == HOSTILE_TEXT  # type: ignore[union-attr]


def test_attempts_are_counted(box: Outbox) -> None:
    item = box.enqueue(reply(1))
    box.mark_attempt(item.id)
    box.mark_attempt(item.id)
    assert box.pending()[0].attempts == 2


def test_an_append_cut_short_is_ignored_and_the_next_one_is_clean(
    box: Outbox, caplog: pytest.LogCaptureFixture
) -> None:
    kept = box.enqueue(reply(1))
    whole = json.dumps({"op": "add", "item": {"id": "x", "seq": 2}}).encode()
    with box.path.open("ab") as handle:
        handle.write(whole[: len(whole) // 2])  # killed in the middle of a write
    with caplog.at_level(logging.WARNING, logger="gitbook_tui.drafts"):
        assert [i.id for i in box.pending()] == [kept.id]
    assert "incomplete last record" in caplog.text
    after = box.enqueue(reply(3))
    assert [i.id for i in box.pending()] == [kept.id, after.id]
    assert box.path.read_bytes().endswith(b"\n")
    assert all(json.loads(line) for line in box.path.read_text().splitlines())


def test_a_damaged_record_is_skipped_and_the_log_set_aside(
    box: Outbox, caplog: pytest.LogCaptureFixture
) -> None:
    a, b = box.enqueue(reply(1)), box.enqueue(reply(2))
    lines = box.path.read_bytes().splitlines(keepends=True)
    damaged = lines[0] + b'{"op": "add", "item": {"nonsense": true}}\n' + b"\xff{\n" + lines[1]
    box.path.write_bytes(damaged)
    with caplog.at_level(logging.WARNING, logger="gitbook_tui.drafts"):
        assert [i.id for i in box.pending()] == [a.id, b.id]
    assert "damaged record" in caplog.text
    aside = box.path.with_name("outbox.jsonl.corrupt")
    assert aside.read_bytes() == damaged  # kept for inspection, not deleted
    assert box.path.read_bytes() == lines[0] + lines[1]


def test_the_log_is_emptied_when_everything_is_sent(box: Outbox) -> None:
    items = [box.enqueue(reply(n)) for n in range(3)]
    box.mark_attempt(items[0].id)
    for item in items:
        box.mark_done(item.id)
    assert box.path.read_bytes() == b""


def test_the_log_is_compacted_while_items_stay_queued(
    box: Outbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outbox_module, "COMPACT_AFTER", 5)
    staying = box.enqueue(reply(0))
    for n in range(1, 12):
        box.mark_done(box.enqueue(reply(n)).id)
    box.pending()
    assert len(box.path.read_bytes().splitlines()) <= 5 + 2
    assert [i.id for i in box.pending()] == [staying.id]


def test_two_app_instances_share_one_queue(tmp_path: Path) -> None:
    one = Outbox(ACCOUNT, tmp_path)
    two = Outbox(ACCOUNT, tmp_path)
    ids = [(one if n % 2 else two).enqueue(reply(n)).id for n in range(6)]
    assert [i.id for i in one.pending()] == ids == [i.id for i in two.pending()]
    assert [i.seq for i in one.pending()] == [1, 2, 3, 4, 5, 6]
    with one.replaying() as got_one, two.replaying() as got_two:
        assert (got_one, got_two) == (True, False)  # one replay at a time per account


WRITER = textwrap.dedent(
    """
    import sys
    from gitbook_tui.drafts import Outbox, OutboxAction
    from gitbook_tui.drafts import outbox as module

    module.COMPACT_AFTER = 20  # rewrite often, so the kill can land in a compaction
    box = Outbox(sys.argv[1], sys.argv[2])
    previous = None
    n = 0
    while True:
        item = box.enqueue(OutboxAction.new_reply("s", "c", f"reply {n} " + "x" * 500))
        print("E", item.id, flush=True)
        if previous is not None and n % 3:
            box.mark_done(previous)
            print("D", previous, flush=True)
        previous = item.id
        n += 1
    """
)


@pytest.mark.slow
def test_kill_9_at_any_moment_loses_nothing_acknowledged(tmp_path: Path) -> None:
    child = python_child(WRITER, tmp_path)
    assert child.stdout is not None
    lines = []
    for line in child.stdout:
        lines.append(line.split())
        if len(lines) >= 300:
            break
    child.send_signal(signal.SIGKILL)
    rest, _ = child.communicate(timeout=30)
    lines += [line.split() for line in rest.splitlines()]
    queued = [i for op, i in lines if op == "E"]
    done = {i for op, i in lines if op == "D"}
    expected = [i for i in queued if i not in done]
    pending = [i.id for i in Outbox(ACCOUNT, tmp_path).pending()]
    # At most one operation was under way when the kill landed: an enqueue not yet
    # acknowledged may be there, a done not yet acknowledged may have happened.
    extra = [i for i in pending if i not in expected]
    missing = [i for i in expected if i not in pending]
    assert len(extra) <= 1 and len(missing) <= 1, (extra, missing)
    assert not set(extra) & done
    assert [i for i in pending if i in expected] == [i for i in expected if i in pending]


HOLDER = textwrap.dedent(
    """
    import sys
    from gitbook_tui.drafts import Outbox

    with Outbox(sys.argv[1], sys.argv[2]).replaying() as got:
        print("held" if got else "busy", flush=True)
        sys.stdin.readline()
    """
)


@pytest.mark.slow
def test_another_process_replaying_makes_this_one_wait(tmp_path: Path) -> None:
    child = python_child(HOLDER, tmp_path, stdin=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    try:
        assert child.stdout.readline().strip() == "held"
        box = Outbox(ACCOUNT, tmp_path)
        with box.replaying() as got:
            assert got is False
        box.enqueue(reply(1))  # queueing is never blocked by a replay elsewhere
    finally:
        child.communicate("\n", timeout=30)
    with box.replaying() as got:
        assert got is True
