"""Every dialog is a KitModal: its own footer with its own keys (never the view's beneath
it), and ``?`` opens a help that lists the dialog's keys."""

from __future__ import annotations

import importlib
import pkgutil

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

import gitbook_tui.tui as tui
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.help_screen import HelpScreen
from gitbook_tui.tui.common.hint_footer import HintFooter
from gitbook_tui.tui.common.modal import KitModal
from gitbook_tui.tui.textual_compat import FooterKey
from support.waits import until, until_screen


def _every_subclass(cls: type) -> set[type]:
    found: set[type] = set()
    stack = [cls]
    while stack:
        for sub in stack.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                stack.append(sub)
    return found


def test_every_dialog_of_the_app_is_a_kit_modal() -> None:
    for module in pkgutil.walk_packages(tui.__path__, "gitbook_tui.tui."):
        importlib.import_module(module.name)
    dialogs = {
        cls for cls in _every_subclass(ModalScreen) if cls.__module__.startswith("gitbook_tui.")
    }
    assert len(dialogs) > 15  # the walk found them
    strays = sorted(
        cls.__qualname__ for cls in dialogs if not issubclass(cls, (KitModal, HelpScreen))
    )
    assert strays == []


class _View(App[None]):
    BINDINGS = [Binding("x", "bell", "View-only key", id="view.x")]

    def compose(self) -> ComposeResult:
        yield Static("the view")
        yield HintFooter()


def _footer_keys(app: App[None]) -> set[str]:
    return {
        key.description for footer in app.screen.query(Footer) for key in footer.query(FooterKey)
    }


async def test_a_dialog_shows_its_own_keys_and_its_help() -> None:
    app = _View()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ConfirmScreen("Delete the team?", "Ravi loses access to 3 spaces."))
        await until_screen(pilot, ConfirmScreen)
        await until(pilot, lambda: "Confirm" in _footer_keys(app), "the dialog's own footer")
        keys = _footer_keys(app)
        assert {"Confirm", "Cancel", "Help"} <= keys
        assert "View-only key" not in keys
        await pilot.press("question_mark")
        helper = await until_screen(pilot, HelpScreen)
        assert helper.listed_screen is not None
        assert isinstance(helper.listed_screen, ConfirmScreen)
        await until(pilot, lambda: len(helper.query(".help-table")) > 0, "the help listed")
        listed = " ".join(str(s.render()) for s in helper.query(".help-table"))
        assert "Confirm" in listed and "Cancel" in listed
        await pilot.press("escape")
        await until_screen(pilot, ConfirmScreen)
