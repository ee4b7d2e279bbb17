"""Screens are built by composition and keep network work out of Textual modules (issue #21's structure)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

from textual.screen import Screen

import gitbook_tui.tui

TUI = "gitbook_tui.tui"
KIT = "gitbook_tui.tui.common"
ROOT = Path(gitbook_tui.tui.__file__).parent


def _tui_screens() -> list[type[Screen[object]]]:
    screens: dict[str, type[Screen[object]]] = {}
    for info in pkgutil.walk_packages(gitbook_tui.tui.__path__, TUI + "."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__.startswith(TUI) and issubclass(cls, Screen):
                screens[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return list(screens.values())


def test_no_screen_is_built_on_a_chain_of_feature_mixins() -> None:
    """Between a screen and Textual's ``Screen`` there are only the kit's bases: a feature's
    behaviour lives in parts the screen composes (widgets, helper objects, data modules),
    not in a chain of partial screens over several files."""
    chains: list[str] = []
    for screen in _tui_screens():
        between = [
            base
            for base in screen.__mro__[1:]
            if base.__module__.startswith(TUI) and not base.__module__.startswith(KIT)
        ]
        if between:
            names = ", ".join(f"{b.__module__}.{b.__qualname__}" for b in between)
            chains.append(f"{screen.__module__}.{screen.__qualname__} on {names}")
    assert len(_tui_screens()) > 30  # the walk found the screens
    assert chains == [], "\n".join(chains)


def _imports_textual(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "textual":
            return True
        if isinstance(node, ast.Import) and any(
            a.name.split(".")[0] == "textual" for a in node.names
        ):
            return True
    return False


def _client_calls(tree: ast.Module) -> list[int]:
    """Lines calling an operation of the client: ``….client.<namespace>.<operation>(…)``."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        namespace = node.func.value
        if not isinstance(namespace, ast.Attribute):
            continue
        owner = namespace.value
        if (isinstance(owner, ast.Name) and owner.id == "client") or (
            isinstance(owner, ast.Attribute) and owner.attr == "client"
        ):
            lines.append(node.lineno)
    return lines


def test_network_work_lives_in_data_modules_not_in_textual_ones() -> None:
    """A module that draws (imports Textual) asks the server only through its feature's data
    functions, which take the client and can be tested without Textual."""
    found: list[str] = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if _imports_textual(tree):
            found += [f"{path.relative_to(ROOT)}:{line}" for line in _client_calls(tree)]
    assert found == [], "\n".join(found)


def test_the_client_call_finder_sees_both_spellings() -> None:
    tree = ast.parse(
        "await self.app.client.spaces.get(x)\nawait client.orgs.list()\nclient.close()"
    )
    assert _client_calls(tree) == [1, 2]
