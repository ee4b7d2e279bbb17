"""Every operation of the specification and the extension list has a client method."""

from __future__ import annotations

from pathlib import Path

import gitbook_tui.api  # noqa: F401  (imports every namespace, filling the registry)
from gitbook_tui.api.resource import OPERATIONS

FIXTURES = Path(__file__).parent.parent / "fixtures"


def _operations(name: str) -> list[str]:
    lines = (FIXTURES / name).read_text().splitlines()
    return [
        " ".join(line.split("#", 1)[0].split()[:2])
        for line in lines
        if line.split("#", 1)[0].strip()
    ]


def test_every_operation_has_a_client_method() -> None:
    wanted = _operations("seed-operations.txt") + _operations("extension-operations.txt")
    assert len(wanted) == 189
    assert [op for op in wanted if op not in OPERATIONS] == []


def test_registry_names_only_real_operations() -> None:
    known = set(_operations("seed-operations.txt") + _operations("extension-operations.txt"))
    extra = {"GET /v1/users/{userId}"}
    assert sorted(set(OPERATIONS) - known - extra) == []
