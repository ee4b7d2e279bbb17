"""HelpScreen: every key binding active on the screen below, grouped by where it is defined.

The rows come from that screen's ``active_bindings`` (its focused widget and the widget's
containers, the screen itself, and the app), each with the key as the app displays it, the
description and the binding id (what a keymap file names). ``escape``, ``?`` or ``q``
closes it (``help.close``); the list scrolls with the usual keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

__all__ = ["BindingRow", "HelpScreen", "binding_groups"]

KEY_WIDTH = 14
DESCRIPTION_WIDTH = 36


@dataclass(frozen=True)
class BindingRow:
    """One line of the help: key as displayed, description, id (``""`` when it has none)."""

    key: str
    description: str
    id: str
    enabled: bool = True


def _describe(binding: Binding) -> str:
    return binding.description or binding.action


def binding_groups(app: App[object], screen: Screen[object]) -> list[tuple[str, list[BindingRow]]]:
    """The active bindings of ``screen`` as (group title, rows): screen, focused widget(s), app."""
    by_node: dict[int, tuple[DOMNode, list[BindingRow]]] = {}
    for active in screen.active_bindings.values():
        assert isinstance(active, ActiveBinding)
        binding = active.binding
        try:
            key = app.get_key_display(binding)
        except Exception:  # an unusual key name: show it as bound
            key = binding.key
        row = BindingRow(key, _describe(binding), binding.id or "", active.enabled)
        by_node.setdefault(id(active.node), (active.node, []))[1].append(row)

    focused = screen.focused
    groups: list[tuple[str, list[BindingRow]]] = []
    nodes = [node for node, _ in by_node.values()]
    order = sorted(
        nodes,
        key=lambda node: 0 if node is screen else 2 if node is app else 1,
    )
    for node in order:
        rows = by_node[id(node)][1]
        name = type(node).__name__
        if node is screen:
            title = f"Screen — {name}"
        elif node is app:
            title = "App"
        elif node is focused:
            title = f"Focused widget — {name}"
        else:
            title = f"Container of the focused widget — {name}"
        groups.append((title, rows))
    return groups


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))


def _widths(rows: Iterable[BindingRow]) -> tuple[int, int]:
    """Widths of the key and description columns (shared by every group)."""
    rows = list(rows)
    key_width = min(KEY_WIDTH, max((cell_len(r.key) for r in rows), default=0))
    desc_width = min(DESCRIPTION_WIDTH, max((cell_len(r.description) for r in rows), default=0))
    return key_width, desc_width


def _table(rows: Iterable[BindingRow], key_width: int, desc_width: int) -> Content:
    lines = []
    for row in rows:
        dim = "" if row.enabled else "dim"
        lines.append(
            Content.assemble(
                (_pad(row.key, key_width), f"bold {dim}".strip()),
                "  ",
                (_pad(row.description, desc_width), dim),
                "  ",
                (row.id or "—", "dim italic"),
            )
        )
    return Content("\n").join(lines)


class HelpScreen(ModalScreen[None]):
    """Lists the key bindings of the screen it was opened over."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > #help-dialog {
        width: 90%; max-width: 100; height: 85%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    HelpScreen .help-group { text-style: bold; margin-top: 1; color: $accent; }
    """

    BINDINGS = [
        Binding("escape,question_mark,q", "close", "Close", id="help.close"),
    ]

    def __init__(self, screen: Screen[object] | None = None) -> None:
        """``screen``: whose bindings to list (by default the one below this screen)."""
        super().__init__()
        self._target = screen

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll(id="help-dialog")
        scroll.border_title = "Key bindings"
        scroll.border_subtitle = "escape closes"
        yield scroll

    @property
    def listed_screen(self) -> Screen[object] | None:
        """The screen whose bindings are listed."""
        if self._target is not None:
            return self._target
        stack = self.app.screen_stack
        if self in stack:
            index = stack.index(self)
            return stack[index - 1] if index > 0 else None
        return stack[-1] if stack and stack[-1] is not self else None

    async def on_mount(self) -> None:
        scroll = self.query_one("#help-dialog", VerticalScroll)
        target = self.listed_screen
        groups = binding_groups(self.app, target) if target is not None else []
        key_width, desc_width = _widths(row for _, rows in groups for row in rows)
        widgets: list[Static] = []
        for title, rows in groups:
            widgets.append(Static(Content(title), classes="help-group"))
            widgets.append(Static(_table(rows, key_width, desc_width), classes="help-table"))
        if not widgets:
            widgets.append(Static(Content("No key bindings are active here.")))
        await scroll.mount_all(widgets)
        scroll.focus()

    def action_close(self) -> None:
        self.dismiss(None)
