"""DraftStore: per-account private files, atomic writes, hostile ids, corrupt files set aside."""

from __future__ import annotations

import json
import logging
import os
import re
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from gitbook_tui.cache import account_fingerprint
from gitbook_tui.drafts import DraftKey, DraftStore, default_drafts_root
from gitbook_tui.drafts import files as draft_files

TOKEN = "tok-alice-very-secret"
URL = "http://testserver/v1"


class Ticker:
    """A clock that moves one second per reading."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@pytest.fixture
def store(tmp_path: Path) -> DraftStore:
    return DraftStore(account_fingerprint(URL, TOKEN), tmp_path / "drafts", now=Ticker())


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def every_file(root: Path) -> list[Path]:
    return [p for p in root.rglob("*")]


def test_save_and_load_round_trip(store: DraftStore) -> None:
    key = DraftKey("reply", space="space1", target="comment-123")
    assert store.load(key) is None
    first = store.save(key, "Good *catch*", title="Reply to Lee on FAQ", extra={"node": "n1"})
    assert first is not None
    again = store.save(key, "Good *catch*, thanks")
    assert again is not None
    loaded = store.load(key)
    assert loaded == again
    assert loaded.text == "Good *catch*, thanks"
    assert loaded.title == "Reply to Lee on FAQ" and loaded.extra == {"node": "n1"}  # kept
    assert loaded.created == first.created and loaded.updated > first.updated
    assert "Good" not in repr(loaded)  # reprs never carry the user's words into logs


def test_default_location_is_the_user_data_dir(tmp_path: Path) -> None:
    # conftest points XDG_DATA_HOME at tmp_path/"data", as the real app follows platformdirs.
    store = DraftStore.for_account(URL, TOKEN)
    assert default_drafts_root() == tmp_path / "data" / "gitbook-tui" / "drafts"
    assert store.dir == default_drafts_root() / account_fingerprint(URL, TOKEN)
    store.save(DraftKey("comment", space="s"), "x")
    assert store.load(DraftKey("comment", space="s")) is not None


def test_directories_0700_and_files_0600_whatever_the_umask(tmp_path: Path) -> None:
    root = tmp_path / "drafts"
    root.mkdir(mode=0o755)
    os.chmod(root, 0o755)  # a dir left too open is tightened
    old = os.umask(0)
    try:
        store = DraftStore.for_account(URL, TOKEN, root)
        store.save(DraftKey("comment", space="s", target="p"), "words")
    finally:
        os.umask(old)
    assert mode(root) == 0o700
    assert mode(store.dir) == 0o700
    files = list(store.dir.iterdir())
    assert len(files) == 1 and mode(files[0]) == 0o600


def test_the_token_is_never_on_disk(tmp_path: Path) -> None:
    store = DraftStore.for_account(URL, TOKEN, tmp_path / "drafts")
    store.save(DraftKey("reply", space="s", target="c"), "hello", title="t", extra={"a": 1})
    for path in every_file(tmp_path):
        assert TOKEN not in str(path)
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes()
    assert TOKEN not in repr(store)


@pytest.mark.parametrize("account", ["tok-alice", "demo-alice", "../x", "", "ABCDEF0123456789"])
def test_a_token_or_a_path_is_refused_as_account(tmp_path: Path, account: str) -> None:
    with pytest.raises(ValueError, match="fingerprint"):
        DraftStore(account, tmp_path)


def test_accounts_are_isolated(tmp_path: Path) -> None:
    alice = DraftStore.for_account(URL, "tok-alice", tmp_path)
    eve = DraftStore.for_account(URL, "tok-eve", tmp_path)
    other_server = DraftStore.for_account("http://elsewhere/v1", "tok-alice", tmp_path)
    key = DraftKey("comment", space="s", target="page")
    alice.save(key, "alice's words")
    assert eve.load(key) is None and other_server.load(key) is None
    assert eve.list() == [] and other_server.list() == []
    eve.save(key, "eve's words")
    assert alice.load(key).text == "alice's words"  # type: ignore[union-attr]
    assert alice.dir != eve.dir and alice.dir.parent == eve.dir.parent == tmp_path


HOSTILE = [
    "../../../../etc/passwd",
    "/etc/passwd",
    "..",
    ".",
    "a/../../b",
    "a\\..\\..\\b",
    "x\x00y",
    "CON",
    "comment\n../../x",
    "\u202egnp.exe",
    "~/.ssh/id_rsa",
    "é" * 300,
]


@pytest.mark.parametrize("target", HOSTILE)
def test_hostile_ids_stay_inside_the_account_dir(tmp_path: Path, target: str) -> None:
    store = DraftStore.for_account(URL, TOKEN, tmp_path / "drafts")
    key = DraftKey("reply", space=target, change_request=target, target=target, site=target)
    store.save(key, "text")
    created = every_file(tmp_path)
    assert all(p == tmp_path / "drafts" or store.dir in [p, *p.parents] for p in created)
    [file] = store.dir.iterdir()
    assert re.fullmatch(r"reply-[0-9a-f]{32}\.json", file.name)
    assert store.load(key).text == "text"  # type: ignore[union-attr]
    assert [d.key for d in store.list()] == [key]


@pytest.mark.parametrize("kind", ["", "../x", "Reply", "a/b", "x" * 40, "1reply", "re ply"])
def test_draft_kinds_are_strict_names(kind: str) -> None:
    with pytest.raises(ValueError):
        DraftKey(kind)


def test_overlong_or_non_string_ids_are_refused() -> None:
    with pytest.raises(ValueError):
        DraftKey("reply", target="x" * 5000)
    with pytest.raises(TypeError):
        DraftKey("reply", target=123)  # type: ignore[arg-type]


def test_keys_differing_in_any_part_are_different_drafts(store: DraftStore) -> None:
    keys = [
        DraftKey("reply", space="s", target="c"),
        DraftKey("reply", space="s", target="c", change_request="1"),
        DraftKey("reply", space="sc"),
        DraftKey("comment", space="s", target="c"),
        DraftKey("reply", space="s", target="c", variant="failed-1"),
    ]
    for n, key in enumerate(keys):
        store.save(key, f"text {n}")
    assert len({k.filename for k in keys}) == len(keys)
    assert [store.load(k).text for k in keys] == [f"text {n}" for n in range(5)]  # type: ignore[union-attr]


def test_crash_between_write_and_replace_keeps_the_old_draft(
    store: DraftStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = DraftKey("comment", space="s", target="p")
    store.save(key, "version one")

    def crash(src: object, dst: object) -> None:
        raise KeyboardInterrupt("killed between write and replace")

    monkeypatch.setattr(draft_files.os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        store.save(key, "version two")
    monkeypatch.undo()
    assert store.load(key).text == "version one"  # type: ignore[union-attr]
    assert [p.name for p in store.dir.iterdir()] == [key.filename]  # temp file cleaned up


def test_temp_files_a_crash_left_are_ignored_then_cleaned(tmp_path: Path) -> None:
    store = DraftStore.for_account(URL, TOKEN, tmp_path)
    key = DraftKey("comment", space="s")
    store.save(key, "kept")
    young = store.dir / ".tmp-young.part"
    old = store.dir / ".tmp-old.part"
    for leftover in (young, old):
        leftover.write_text('{"half": ')
    os.utime(old, (1, 1))
    assert [d.text for d in store.list()] == ["kept"]
    DraftStore.for_account(URL, TOKEN, tmp_path)  # opening the store again
    assert young.exists() and not old.exists()  # a write under way elsewhere is left alone


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"\xff\xfe\x00garbage",
        b'{"version": 99, "text": "from the future"}',
        b'{"version": 1, "text": 5}',
        b"[]",
        b"",
    ],
)
def test_a_corrupt_draft_is_set_aside_not_deleted(
    store: DraftStore, content: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    key = DraftKey("reply", space="s", target="c")
    store.save(key, "fine")
    path = store.path(key)
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING, logger="gitbook_tui.drafts"):
        assert store.load(key) is None
    assert "set aside" in caplog.text and "fine" not in caplog.text
    aside = path.with_name(path.name + ".corrupt")
    assert aside.read_bytes() == content and not path.exists()
    # a new draft can be saved; a second corrupt copy does not overwrite the first
    store.save(key, "new words")
    path.write_bytes(b"{broken again")
    assert store.list() == []
    assert aside.read_bytes() == content
    assert path.with_name(path.name + ".2.corrupt").read_bytes() == b"{broken again"


def test_a_draft_copied_under_another_name_is_set_aside(store: DraftStore) -> None:
    real = DraftKey("reply", space="s", target="c")
    other = DraftKey("reply", space="s", target="d")
    store.save(real, "words")
    store.path(other).write_bytes(store.path(real).read_bytes())
    assert store.load(other) is None
    assert [d.key for d in store.list()] == [real]
    assert store.path(other).with_name(other.filename + ".corrupt").exists()


def test_list_is_most_recent_first_and_skips_foreign_files(store: DraftStore) -> None:
    a, b, c = (DraftKey("comment", space="s", target=t) for t in "abc")
    store.save(a, "a")
    store.save(b, "b")
    store.save(c, "c")
    store.save(a, "a2")
    (store.dir / "notes.txt").write_text("not a draft")
    (store.dir / "sub.json").mkdir()
    assert [d.key for d in store.list()] == [a, c, b]
    assert (store.dir / "notes.txt").exists()


def test_an_empty_draft_is_removed(store: DraftStore) -> None:
    key = DraftKey("reply", space="s", target="c")
    store.save(key, "something")
    assert store.save(key, "") is None
    assert store.load(key) is None and not store.path(key).exists()
    form = DraftKey("site-form", site="site1", target="redirect:new")
    assert store.save(form, "", extra={"source": "/old"}) is not None  # a form keeps fields


def test_delete_and_delete_if_text(store: DraftStore) -> None:
    key = DraftKey("reply", space="s", target="c")
    assert store.delete(key) is False
    store.save(key, "newer words")
    assert store.delete_if_text(key, "what was sent") is False
    assert store.load(key) is not None
    assert store.delete_if_text(key, "newer words") is True
    assert store.load(key) is None


def test_stored_json_holds_text_and_metadata_only(store: DraftStore) -> None:
    key = DraftKey("edit-reply", space="s", target="c/r")
    store.save(key, "body", title="Edit reply", extra={"node": "n"})
    raw = json.loads(store.path(key).read_text())
    assert set(raw) == {"version", "key", "text", "title", "created", "updated", "extra"}
    assert raw["key"] == {"kind": "edit-reply", "space": "s", "target": "c/r"}
