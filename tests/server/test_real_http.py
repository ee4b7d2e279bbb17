"""The server over real HTTP on loopback: startup line, persistence across restarts, and
concurrent writers losing nothing."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from gitbook_tui.server.runner import start_in_thread


def _serve_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "gitbook_tui.cli", "serve", *args]


@contextmanager
def _serving(tmp_path: Path, *extra: str) -> Iterator[tuple[str, str]]:
    """``gitbook-tui serve`` on a free port as a subprocess: its ``(url, token)``, from the
    one line it prints; stopped when the block ends."""
    proc = subprocess.Popen(
        _serve_command("--port", "0", "--db", str(tmp_path / "s.sqlite"), *extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline().strip()  # type: ignore[union-attr]
        assert line.startswith("Serving http://127.0.0.1:"), line
        url, token = line.removeprefix("Serving ").split(" token=")
        yield url, token
    finally:
        proc.terminate()
        proc.wait(10)


def _serve_once(*args: str) -> subprocess.CompletedProcess[str]:
    """``gitbook-tui serve`` expected to stop at once (bad flags): its exit and output."""
    return subprocess.run(_serve_command(*args), capture_output=True, text=True, timeout=60)


def _first_org(url: str, headers: dict[str, str]) -> str:
    return str(httpx.get(f"{url}/orgs", headers=headers).json()["items"][0]["id"])


@pytest.mark.slow
def test_serve_cli_prints_one_line_and_answers(tmp_path: Path) -> None:
    with _serving(tmp_path) as (url, token):
        assert url.endswith("/v1") and len(token) > 20
        r = httpx.get(f"{url}/user", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200 and r.json()["object"] == "user"
        assert httpx.get(f"{url}/user").status_code == 401


@pytest.mark.slow
def test_bad_faults_flag_is_a_clear_error(tmp_path: Path) -> None:
    done = _serve_once("--faults", "boom=1", "--db", str(tmp_path / "x.sqlite"))
    assert done.returncode == 2 and "unknown fault" in done.stderr


def test_state_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "persist.sqlite"
    handle = start_in_thread(db, port=0, token="tok-1")
    try:
        headers = {"Authorization": "Bearer tok-1"}
        org = _first_org(handle.url, headers)
        made = httpx.post(
            f"{handle.url}/orgs/{org}/spaces", json={"title": "Kept"}, headers=headers
        ).json()
    finally:
        handle.stop()
    again = start_in_thread(db, port=0, token="tok-2")
    try:
        got = httpx.get(
            f"{again.url}/spaces/{made['id']}", headers={"Authorization": "Bearer tok-2"}
        )
        assert got.status_code == 200 and got.json()["title"] == "Kept"
        # the first token still works too: tokens are stored (as digests) in the database
        assert (
            httpx.get(f"{again.url}/user", headers={"Authorization": "Bearer tok-1"}).status_code
            == 200
        )
    finally:
        again.stop()


@pytest.mark.slow
def test_eight_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    handle = start_in_thread(tmp_path / "busy.sqlite", port=0, token="tok")
    headers = {"Authorization": "Bearer tok"}
    try:
        org = _first_org(handle.url, headers)
        space = httpx.post(
            f"{handle.url}/orgs/{org}/spaces", json={"title": "Busy"}, headers=headers
        ).json()
        per_writer = 15
        errors: list[str] = []

        def writer(n: int) -> None:
            with httpx.Client(base_url=handle.url, headers=headers, timeout=60) as c:
                for i in range(per_writer):
                    r = c.post(
                        f"/spaces/{space['id']}/comments", json={"body": {"markdown": f"w{n} c{i}"}}
                    )
                    if r.status_code != 200:
                        errors.append(r.text)
                    c.post(f"/orgs/{org}/collections", json={"title": f"w{n}-{i}"})

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert time.monotonic() - started < 120
        assert errors == []
        comments = httpx.get(
            f"{handle.url}/spaces/{space['id']}/comments", params={"limit": 1000}, headers=headers
        ).json()
        assert comments["count"] == 8 * per_writer
        bodies = {c["body"]["markdown"] for c in comments["items"]}
        assert len(bodies) == 8 * per_writer
        colls = httpx.get(
            f"{handle.url}/orgs/{org}/collections", params={"limit": 1000}, headers=headers
        ).json()
        assert colls["count"] == 8 * per_writer
    finally:
        handle.stop()


@pytest.mark.slow
def test_serve_import_previews_a_git_sync_folder(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "guide").mkdir(parents=True)
    (docs / ".gitbook.yaml").write_text(
        "root: ./\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n"
    )
    (docs / "README.md").write_text("# My docs\n\nHello.\n")
    (docs / "guide" / "setup.md").write_text(
        "---\ndescription: How to set up\n---\n# Setup\n\nRun it.\n"
    )
    (docs / "SUMMARY.md").write_text(
        "# Table of contents\n\n* [My docs](README.md)\n* [Setup](guide/setup.md)\n"
    )
    with _serving(tmp_path, "--import", str(docs)) as (url, token):
        headers = {"Authorization": f"Bearer {token}"}
        org = _first_org(url, headers)
        spaces = httpx.get(f"{url}/orgs/{org}/spaces", headers=headers).json()["items"]
        assert len(spaces) == 1
        pages = httpx.get(f"{url}/spaces/{spaces[0]['id']}/content/pages", headers=headers).json()[
            "pages"
        ]
        assert [p["title"] for p in pages] == ["My docs", "Setup"]
        assert pages[1]["description"] == "How to set up"


@pytest.mark.slow
def test_serve_import_refuses_a_folder_that_is_not_git_sync(tmp_path: Path) -> None:
    done = _serve_once("--import", str(tmp_path), "--db", str(tmp_path / "x.sqlite"))
    assert done.returncode == 2 and "not a Git Sync folder" in done.stderr
