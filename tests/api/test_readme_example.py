"""The README's library example runs as written against a real local server."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gitbook_tui.server.runner import start_in_thread

README = Path(__file__).parents[2] / "README.md"


@pytest.mark.slow
def test_readme_library_example_runs(tmp_path: Path) -> None:
    section = README.read_text().split("## Use it as a library", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    script = tmp_path / "example.py"
    script.write_text(code.group(1))
    handle = start_in_thread(tmp_path / "db.sqlite", port=0, token="tok-readme")
    try:
        done = subprocess.run(
            [sys.executable, str(script)],
            env={**os.environ, "GITBOOK_API_URL": handle.url, "GITBOOK_TOKEN": "tok-readme"},
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        handle.stop()
    assert done.returncode == 0, done.stderr
    assert "Signed in as Local Admin" in done.stdout
