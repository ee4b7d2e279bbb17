"""The Reviews feature's structure (issue #21): its screens are composed, not mixin
chains, and its Textual modules leave every server call to the data modules."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

from textual.screen import ModalScreen, Screen

import gitbook_tui.tui.review as review_package

CLIENT_CALL = re.compile(r"\bclient\.[a-z_]+\.[a-z_]+\(")
"""``client.<namespace>.<operation>(``, however the client is reached (``self.nav.client``)."""


def _modules() -> list[tuple[str, Path]]:
    return [
        (info.name, Path(review_package.__path__[0]) / f"{info.name}.py")
        for info in pkgutil.iter_modules(review_package.__path__)
    ]


def _imports_textual(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import) and any(
            a.name.split(".")[0] == "textual" for a in node.names
        ):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "textual":
            return True
    return False


def test_no_textual_module_of_the_feature_calls_the_client() -> None:
    calls = {
        name: CLIENT_CALL.findall(path.read_text("utf-8"))
        for name, path in _modules()
        if _imports_textual(path)
    }
    assert {name: found for name, found in calls.items() if found} == {}


def test_every_screen_of_the_feature_derives_only_from_kit_bases() -> None:
    """Between a screen and Textual's Screen/ModalScreen, only classes of tui.common."""
    for name, _ in _modules():
        module = importlib.import_module(f"{review_package.__name__}.{name}")
        for cls in vars(module).values():
            if not (inspect.isclass(cls) and issubclass(cls, Screen)):
                continue
            if cls.__module__ != module.__name__:
                continue
            between = []
            for base in cls.__mro__[1:]:
                if base in (Screen, ModalScreen):
                    break
                between.append(base)
            foreign = [
                f"{b.__module__}.{b.__qualname__}"
                for b in between
                if not b.__module__.startswith("gitbook_tui.tui.common")
            ]
            assert foreign == [], cls.__qualname__
