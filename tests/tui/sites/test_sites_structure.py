"""How the site editor is built: screens on the kit's bases only, one screen or widget per
module, panes that compose their editing and tools rather than inherit them, and the
tool forms in the feature (the shared form module keeps the kit's pieces only)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from types import ModuleType

from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen

import gitbook_tui.tui.common.form_screen as form_screen
import gitbook_tui.tui.sites as sites_feature
from gitbook_tui.tui.sites.site_pane import SitePane

KIT = "gitbook_tui.tui.common"


def _modules() -> list[ModuleType]:
    return [
        importlib.import_module(f"{sites_feature.__name__}.{info.name}")
        for info in pkgutil.iter_modules(sites_feature.__path__)
    ]


def _own(module: ModuleType, base: type) -> list[type]:
    return [
        cls
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, base) and cls.__module__ == module.__name__
    ]


def test_every_screen_sits_on_the_kits_bases_only() -> None:
    screens = [cls for module in _modules() for cls in _own(module, Screen)]
    assert len(screens) >= 9
    for screen in screens:
        between = []
        for cls in screen.__mro__[1:]:
            if cls in (Screen, ModalScreen):
                break
            between.append(cls)
        assert all(c.__module__.startswith(KIT) for c in between), (screen, between)


def test_one_screen_or_widget_per_module_named_after_it() -> None:
    for module in _modules():
        nodes = _own(module, DOMNode)
        assert len(nodes) <= 1, (module.__name__, [c.__name__ for c in nodes])
        for cls in nodes:
            words = [w.lower() for w in module.__name__.rsplit(".", 1)[-1].split("_")]
            assert "".join(words) == cls.__name__.lower(), (module.__name__, cls.__name__)


def test_the_panes_compose_their_editing_and_tools() -> None:
    panes = [c for module in _modules() for c in _own(module, SitePane) if c is not SitePane]
    assert {p.__name__ for p in panes} == {"StructurePane", "RedirectsPane", "SettingsPane"}
    for pane in panes:
        assert pane.__mro__[1] is SitePane, pane.__mro__


def test_the_tool_forms_are_the_features_and_the_shared_form_is_the_kits() -> None:
    shared = {c.__name__ for c in _own(form_screen, Screen)}
    assert shared == {"FormScreen", "ToolForm"}
    from gitbook_tui.tui.sites.export_form import ExportForm
    from gitbook_tui.tui.sites.import_form import ImportForm
    from gitbook_tui.tui.sites.path_test_form import PathTestForm

    sends = {
        form: next(b for b in form.BINDINGS if b.action == "send").id  # type: ignore[union-attr]
        for form in (PathTestForm, ImportForm, ExportForm)
    }
    assert sends == {
        PathTestForm: "test_path.send",
        ImportForm: "import_form.send",
        ExportForm: "export_form.send",
    }
