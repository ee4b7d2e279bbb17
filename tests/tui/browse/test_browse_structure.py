"""The Browse feature's structure (issue #21): its screens are built by composition (no
feature mixin between a screen and Textual's ``Screen``), and its network reads live in
modules that do not import Textual (testable with a client alone)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

from textual.screen import Screen

import gitbook_tui.tui.browse as browse

BROWSE = Path(browse.__file__).parent


def _modules() -> list[str]:
    return [
        info.name
        for info in pkgutil.walk_packages(browse.__path__, prefix=f"{browse.__name__}.")
        if not info.ispkg
    ]


def test_browse_screens_have_no_feature_mixins() -> None:
    """Between each Browse screen and Textual's screen classes, only kit bases of
    ``tui.common``."""
    found: dict[str, list[str]] = {}
    for name in _modules():
        module = importlib.import_module(name)
        for cls in vars(module).values():
            if not (inspect.isclass(cls) and issubclass(cls, Screen)):
                continue
            if cls.__module__ != name:
                continue
            between = [
                f"{k.__module__}.{k.__qualname__}"
                for k in cls.__mro__[1:]
                if issubclass(k, Screen)
                and not k.__module__.startswith("textual.")
                and not k.__module__.startswith("gitbook_tui.tui.common.")
            ]
            found[cls.__qualname__] = between
    assert "BrowserScreen" in found
    assert {k: v for k, v in found.items() if v} == {}


def _client_calls(tree: ast.AST) -> list[str]:
    """``client.<namespace>.<operation>(`` calls (``self.client``, ``self._client`` too)."""
    calls = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        namespace = node.func.value
        if not isinstance(namespace, ast.Attribute):
            continue
        owner = namespace.value
        owner_name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
        if owner_name in ("client", "_client"):
            calls.append(f"{owner_name}.{namespace.attr}.{node.func.attr}")
    return calls


def _imports_textual(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(
            a.name.split(".")[0] == "textual" for a in node.names
        ):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "textual":
            return True
    return False


def test_no_client_calls_in_browse_modules_that_import_textual() -> None:
    offending = {}
    for path in sorted(BROWSE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if _imports_textual(tree) and (calls := _client_calls(tree)):
            offending[str(path.relative_to(BROWSE))] = calls
    assert offending == {}
