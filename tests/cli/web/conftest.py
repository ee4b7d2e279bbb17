"""Chromium for the tests of ``gitbook-tui web`` (a test using ``browser`` is marked
``browser`` by tests/conftest.py): one per module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.web_browser import launch_chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless (fails naming what is missing when it cannot start)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        try:
            yield chromium
        finally:
            chromium.close()
