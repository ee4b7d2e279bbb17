"""Every folder the app creates (data, cache, config, drafts, outbox, per-account) is 0700."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from gitbook_tui.api.config import save_config
from gitbook_tui.cache import ResponseCache, account_fingerprint
from gitbook_tui.cli.paths import data_dir
from gitbook_tui.drafts import DraftKey, DraftStore, Outbox, OutboxAction
from gitbook_tui.folders import private_dir
from gitbook_tui.tui.common.state import AccountState, StateStore
from gitbook_tui.tui.review.conflict_marks import ConflictMarks
from gitbook_tui.tui.review.suggest_edit import keep_edit
from gitbook_tui.tui.review.viewed_marks import ViewedMarks

URL = "https://api.gitbook.com/v1"
TOKEN = "gb_api_secret_token"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def folders(*roots: Path) -> Iterator[Path]:
    for root in roots:
        yield root
        yield from (p for p in root.rglob("*") if p.is_dir())


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The usual umask (022): what made ``$XDG_DATA_HOME/gitbook-tui`` 0755 before."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def start_like(tmp_path: Path) -> None:
    """What a first start and a little use write, each by its own code path."""
    account = account_fingerprint(URL, TOKEN)
    data_dir()  # serve / --demo: the server databases' folder
    ResponseCache().close()  # the response cache
    save_config({"theme": "textual-dark"})  # the config (may hold a token)
    StateStore().save(account, AccountState())  # the UI state
    DraftStore(account).save(DraftKey("reply", space="s", target="c"), "words")
    Outbox(account).enqueue(OutboxAction.new_reply("s", "c", "queued words"))
    ViewedMarks(account, "cr1").save()
    ConflictMarks(account).save()
    keep_edit(account, "A page", "kept text")


def test_every_folder_a_start_creates_is_private(tmp_path: Path, open_umask: None) -> None:
    # conftest points XDG_DATA_HOME, XDG_CACHE_HOME and XDG_CONFIG_HOME into tmp_path,
    # none of them existing yet: the app creates them (as XDG says, 0700).
    start_like(tmp_path)
    roots = [tmp_path / "data", tmp_path / "cache", tmp_path / "config"]
    made = list(folders(*roots))
    names = {p.relative_to(tmp_path).as_posix() for p in made}
    assert {"data/gitbook-tui", "data/gitbook-tui/outbox", "data/gitbook-tui/drafts"} <= names
    assert {"cache/gitbook-tui", "config/gitbook-tui"} <= names
    account = account_fingerprint(URL, TOKEN)
    assert f"data/gitbook-tui/outbox/{account}" in names  # per-account folders
    assert f"data/gitbook-tui/drafts/{account}" in names
    wide = {p.relative_to(tmp_path).as_posix(): oct(mode(p)) for p in made if mode(p) != 0o700}
    assert wide == {}
    files = [p for root in roots for p in root.rglob("*") if p.is_file()]
    assert files and all(mode(p) == 0o600 for p in files), [
        (p.name, oct(mode(p))) for p in files if mode(p) != 0o600
    ]


def test_folders_an_older_version_left_open_are_tightened(tmp_path: Path, open_umask: None) -> None:
    app_data = tmp_path / "data" / "gitbook-tui"
    app_data.mkdir(parents=True)
    (app_data / "drafts").mkdir()
    os.chmod(app_data, 0o755)
    os.chmod(app_data / "drafts", 0o755)
    account = account_fingerprint(URL, TOKEN)
    DraftStore(account).save(DraftKey("comment", space="s"), "words")
    assert mode(app_data) == 0o700 and mode(app_data / "drafts") == 0o700
    assert mode(app_data / "drafts" / account) == 0o700


def test_a_folder_the_user_chose_keeps_its_mode(tmp_path: Path, open_umask: None) -> None:
    chosen = tmp_path / "shared"
    chosen.mkdir()
    os.chmod(chosen, 0o755)
    ResponseCache(chosen / "responses.sqlite").close()
    assert mode(chosen) == 0o755  # not ours to change; only what we create is 0700
    ResponseCache(chosen / "new" / "deeper" / "responses.sqlite").close()
    assert mode(chosen / "new") == 0o700 and mode(chosen / "new" / "deeper") == 0o700


def test_whatever_the_umask(tmp_path: Path) -> None:
    for umask in (0o000, 0o077, 0o277):
        old = os.umask(umask)
        try:
            made = private_dir(tmp_path / f"u{umask:o}" / "a" / "b")
        finally:
            os.umask(old)
        assert [mode(p) for p in (made.parent.parent, made.parent, made)] == [0o700] * 3


def test_a_file_in_the_way_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(OSError):
        private_dir(tmp_path / "file" / "below")
    with pytest.raises(FileExistsError):
        private_dir(tmp_path / "file")
