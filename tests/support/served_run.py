"""A command run against a real local server on a port: started for the run, stopped after."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from gitbook_tui.server.runner import start_in_thread


def run_beside_server(
    db: Path,
    token: str,
    argv: list[str],
    env: Callable[[str], dict[str, str]],
    *,
    cwd: Path | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """``argv`` run to its end (output captured as text) while a local server over ``db``
    answers with ``token`` known; ``env(url)``: the variables that tell it the server's URL."""
    handle = start_in_thread(db, port=0, token=token)
    try:
        return subprocess.run(
            argv,
            cwd=cwd,
            env={**os.environ, **env(handle.url)},
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    finally:
        handle.stop()
