"""What the app asked a web browser to open, recorded instead of opened."""

from __future__ import annotations

import pytest

from gitbook_tui.tui.browse import browser_links


def record_opened_links(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Stand a recorder in for the browser's ``open_in_browser`` (nothing is opened for
    real); return the URLs it is asked to open, in order."""
    opened: list[str] = []

    def record(url: str) -> bool:
        opened.append(url)
        return True

    monkeypatch.setattr(browser_links, "open_in_browser", record)
    return opened
