"""Fixtures of the client tests: a response cache in a temporary directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitbook_tui.cache import ResponseCache


@pytest.fixture
def cache(tmp_path: Path) -> ResponseCache:
    c = ResponseCache(tmp_path / "cache" / "responses.sqlite")
    yield c  # type: ignore[misc]
    c.close()
