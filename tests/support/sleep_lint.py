"""Lint for the test suite: no fixed sleeps or pauses. A test that needs time to pass waits on
a condition (``support.waits``) or moves a fake clock; ``sleep(0)`` (let ready tasks run) is
fine. Run as ``python tests/support/sleep_lint.py``; exit 1 lists every offender."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
WAITING_CALLS = {"sleep", "pause"}  # not wait(timeout=…): that waits for an event


def _fixed_delay(node: ast.Call) -> float | None:
    """The literal, non-zero delay a sleep/pause call is given, if any."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in WAITING_CALLS:
        return None
    args = [*node.args, *(k.value for k in node.keywords if k.arg in ("delay", "seconds"))]
    if not args:
        return None
    value = args[0]
    if isinstance(value, ast.Constant) and isinstance(value.value, int | float):
        return float(value.value) or None
    return None


def offenders(root: Path = TESTS) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and (delay := _fixed_delay(node)) is not None:
                where = path.relative_to(root.parent)
                found.append(f"{where}:{node.lineno}: fixed wait of {delay:g} s")
    return found


def main() -> int:
    found = offenders()
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} fixed sleeps or pauses in tests: wait on a condition instead")
        return 1
    print("no fixed sleeps in tests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
