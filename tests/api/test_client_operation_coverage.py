"""Every operation of the specification and the extension list has a client method."""

from __future__ import annotations

from pathlib import Path

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.api.resource import OPERATIONS

# every namespace imported (each is imported when first used): the registry is full
AsyncGitBook("tok", base_url="http://127.0.0.1:9/v1").namespaces()

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
