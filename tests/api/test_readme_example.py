"""The README's library example runs as written against a real local server."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from support.served_run import run_beside_server

README = Path(__file__).parents[2] / "README.md"


@pytest.mark.slow
def test_readme_library_example_runs(tmp_path: Path) -> None:
    section = README.read_text().split("## Use it as a library", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    script = tmp_path / "example.py"
    script.write_text(code.group(1))
    done = run_beside_server(
        tmp_path / "db.sqlite",
        "tok-readme",
        [sys.executable, str(script)],
        lambda url: {"GITBOOK_API_URL": url, "GITBOOK_TOKEN": "tok-readme"},
    )
    assert done.returncode == 0, done.stderr
    assert "Signed in as Local Admin" in done.stdout
