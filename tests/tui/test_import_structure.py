"""The TUI's import structure: every folder a package, and no import cycle (TYPE_CHECKING imports included)."""

from __future__ import annotations

from pathlib import Path

import grimp

import gitbook_tui.tui

TUI = "gitbook_tui.tui"
ROOT = Path(gitbook_tui.tui.__file__).parent


def test_every_tui_folder_is_a_package() -> None:
    """A folder without ``__init__.py`` is a namespace package: the import graph (and so
    import-linter's contracts) would not see its imports."""
    folders = {p.parent for p in ROOT.rglob("*.py")}
    missing = sorted(str(f.relative_to(ROOT)) for f in folders if not (f / "__init__.py").exists())
    assert missing == []


def test_no_import_cycle_in_the_tui() -> None:
    graph = grimp.build_graph("gitbook_tui", exclude_type_checking_imports=False, cache_dir=None)
    modules = {m for m in graph.modules if m == TUI or m.startswith(TUI + ".")}
    cycles: list[str] = []
    for importer in sorted(modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer) & modules):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                cycles.append(" -> ".join((importer, *back)))
    assert cycles == [], "\n".join(cycles)
