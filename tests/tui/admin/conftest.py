"""The Admin view tests' server: a fresh copy of the seeded demo workspace per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI

from support.worlds import Template
from support.worlds import demo_app as demo_server


@pytest.fixture
def demo(tmp_path: Path, demo_template: Template) -> Iterator[FastAPI]:
    """The demo server over its own copy of the seeded database (a test may change it)."""
    yield demo_server(demo_template, tmp_path / "demo.sqlite")
