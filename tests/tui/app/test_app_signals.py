"""run_keeping_drafts: SIGTERM/SIGHUP write pending drafts, exit the app cleanly, handlers restored."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.cache import account_fingerprint
from gitbook_tui.drafts import Debouncer, DraftKey, DraftStore
from gitbook_tui.tui.app_signals import run_keeping_drafts

KEY = DraftKey("comment", space="s", target="page-1")


class SignalledApp:
    """Stands in for the App: types into a debouncer, gets ``sig``, waits to be told to exit."""

    def __init__(self, store: DraftStore, sig: signal.Signals) -> None:
        self.store, self.sig = store, sig
        self.return_code: int | None = None
        self.on_disk_at_exit: str | None = None
        self._exit = asyncio.Event()

    def exit(self, result: Any = None, return_code: int = 0, message: Any = None) -> None:
        draft = self.store.load(KEY)  # what the handler wrote before asking to exit
        self.on_disk_at_exit = draft.text if draft else None
        self.return_code = return_code
        self._exit.set()

    async def run_async(self) -> str:
        debouncer = Debouncer(self.store, delay=60.0)
        debouncer.schedule(KEY, "the last words")
        os.kill(os.getpid(), self.sig)
        await asyncio.wait_for(self._exit.wait(), 10)
        return "exited"


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
def test_a_signal_writes_the_drafts_then_exits_the_app(tmp_path: Path, sig: signal.Signals) -> None:
    store = DraftStore(account_fingerprint("http://x/v1", "tok"), tmp_path)
    before = signal.getsignal(sig)
    app = SignalledApp(store, sig)
    assert run_keeping_drafts(app) == "exited"  # type: ignore[arg-type]
    assert app.on_disk_at_exit == "the last words"
    assert app.return_code == 128 + sig
    assert signal.getsignal(sig) == before
