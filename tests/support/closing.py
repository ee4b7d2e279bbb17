"""The ``close_later`` fixture: clients a test makes (over and over: restarts) closed at its end."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Protocol, TypeVar

import pytest

Run = TypeVar("Run")


class CloseLater(Protocol):
    def __call__(self, run: Run, /) -> Run: ...


@pytest.fixture
async def close_later() -> AsyncIterator[CloseLater]:
    """``close_later(run)`` gives ``run`` back; its ``client`` is closed when the test ends."""
    runs: list[Any] = []

    def keep(run: Run) -> Run:
        runs.append(run)
        return run

    yield keep
    for run in runs:
        await run.client.close()
