"""Every operation of the specification (and the extension list) is routed by the server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi import FastAPI

FIXTURES = Path(__file__).parent.parent / "fixtures"


def _operations(name: str) -> list[tuple[str, str]]:
    ops = []
    for line in (FIXTURES / name).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            method, path = line.split()[:2]
            ops.append((method, path))
    return ops


def _shape(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", path)


def _routes(app: FastAPI) -> set[tuple[str, str]]:
    """Routed operations, read from the server's own OpenAPI document."""
    return {
        (method.upper(), _shape(path))
        for path, item in app.openapi()["paths"].items()
        for method in item
    }


def test_the_lists_are_complete() -> None:
    assert len(_operations("seed-operations.txt")) == 144
    assert len(_operations("extension-operations.txt")) == 45


@pytest.mark.slow
def test_every_seed_and_extension_operation_is_routed(app: FastAPI) -> None:
    routed = _routes(app)
    missing = [
        f"{m} {p}"
        for m, p in _operations("seed-operations.txt") + _operations("extension-operations.txt")
        if (m, _shape(p)) not in routed
    ]
    assert missing == []
