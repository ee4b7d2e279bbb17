"""The official @gitbook/api JavaScript client works against `gitbook-tui serve` unchanged."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from gitbook_tui.server.runner import start_in_thread

JS_DIR = Path(__file__).parent.parent / "js"


@pytest.mark.slow
def test_official_js_client_lists_reads_comments_and_merges(tmp_path: Path) -> None:
    if shutil.which("node") is None or not (JS_DIR / "node_modules" / "@gitbook" / "api").exists():
        if os.environ.get("CI"):
            pytest.fail("CI must install node and tests/js (npm ci) for the JS client test")
        pytest.skip("node and tests/js/node_modules are needed (cd tests/js && npm install)")
    handle = start_in_thread(tmp_path / "js.sqlite", port=0, token="tok-js")
    try:
        done = subprocess.run(
            ["node", "interop.mjs"],
            cwd=JS_DIR,
            env={
                **os.environ,
                "GITBOOK_ENDPOINT": handle.url.removesuffix("/v1"),
                "GITBOOK_TOKEN": "tok-js",
            },
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        handle.stop()
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["orgs"] == 1
    assert result["merged"] == "merge"
    assert result["pages"] == ["Hello"]
    assert "Written by the JS client." in result["markdown"]
    assert result["comment"] == "Nice page"
    assert result["comments"] == 1
    assert result["notFound"]["status"] == 404
