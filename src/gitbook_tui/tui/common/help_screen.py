"""HelpScreen: every key binding of the screen below, grouped by where it is defined.

The rows come from that screen's binding chain (its focused widget and the widget's
containers, the screen itself, and the app; keymap applied), each with the key as the app
displays it, the description and the binding id (what a keymap file names). A binding
that does nothing at the moment is listed too, dimmed, with the reason after its
description: its action is off now (``check_action``), another binding of the chain takes
its key first ("overridden"), or the focused input takes the key as text. The id is the
last word of every line. ``escape``, ``?`` or ``q`` closes it (``help.close``); the
list scrolls with the usual keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap
from textual.containers import VerticalScroll
from textual.content import Content
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from ..textual_compat import app_keymap, check_action_state, modal_binding_chain, node_bindings
from .denial import denial_of

__all__ = ["BindingRow", "HelpScreen", "binding_groups"]

KEY_WIDTH = 14
DESCRIPTION_WIDTH = 36

OFF = "off now"
OVERRIDDEN = "overridden"
TYPED = "typed as text"


@dataclass(frozen=True)
class BindingRow:
    """One line of the help: key as displayed, description, id (``""`` when it has none);
    ``note`` says why a binding does nothing at the moment (``enabled`` is then False)."""

    key: str
    description: str
    id: str
    enabled: bool = True
    note: str = ""


def _describe(binding: Binding) -> str:
    return binding.description or binding.action


def _chains(
    app: App[Any], screen: Screen[Any]
) -> tuple[list[tuple[DOMNode, BindingsMap]], set[tuple[int, str]]]:
    """Every binding of the chain (keymap applied), and the (node, key) pairs Textual
    keeps in it once the keys a focused input takes as text are left out."""
    chain = modal_binding_chain(screen)  # keymap applied, typed keys out
    kept = {(id(node), key) for node, bindings in chain for key, _ in bindings}
    keymap = app_keymap(app)
    full: list[tuple[DOMNode, BindingsMap]] = []
    for node, _ in chain:
        bindings = node_bindings(node).copy()
        if keymap:
            bindings.apply_keymap(keymap)
        full.append((node, bindings))
    return full, kept


def _state(app: App[Any], action: str, node: DOMNode) -> bool:
    try:
        return bool(check_action_state(app, action, node))
    except Exception:  # an action of an unknown namespace: nothing would run it
        return False


def binding_groups(app: App[Any], screen: Screen[Any]) -> list[tuple[str, list[BindingRow]]]:
    """The bindings of ``screen`` as (group title, rows): screen, focused widget(s), app."""
    chain, kept = _chains(app, screen)
    entries: list[tuple[DOMNode, str, Binding, str]] = []  # node, key, binding, note
    for node, bindings in chain:
        for key, binding in bindings:
            if (id(node), key) not in kept:
                note = TYPED
            else:
                note = "" if _state(app, binding.action, node) else OFF
                note = note or denial_of(node, binding.action) or ""
            entries.append((node, key, binding, note))
    # which binding a key runs: priority ones from the app down, then from the focus up
    # (a binding whose action is off lets the key through to the next one)
    usable = [(node, key, binding) for node, key, binding, note in entries if not note]
    first = [b for b in reversed(usable) if b[2].priority]
    order = first + [b for b in usable if not b[2].priority]
    winner: dict[str, Binding] = {}
    for _node, key, binding in order:
        winner.setdefault(key, binding)

    by_node: dict[int, tuple[DOMNode, list[BindingRow]]] = {}
    for node, key, binding, note in entries:
        if not note and winner.get(key) is not binding:
            note = OVERRIDDEN
        try:
            shown = app.get_key_display(binding)
        except Exception:  # an unusual key name: show it as bound
            shown = binding.key
        row = BindingRow(shown, _describe(binding), binding.id or "", not note, note)
        by_node.setdefault(id(node), (node, []))[1].append(row)

    focused = screen.focused
    groups: list[tuple[str, list[BindingRow]]] = []
    nodes = [node for node, _ in by_node.values()]
    ordered = sorted(nodes, key=lambda node: 0 if node is screen else 2 if node is app else 1)
    for node in ordered:
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


def _label(row: BindingRow) -> str:
    """The description, with why the binding does nothing now (if it does not)."""
    return f"{row.description} ({row.note})" if row.note else row.description


def _widths(rows: Iterable[BindingRow]) -> tuple[int, int]:
    """Widths of the key and description columns (shared by every group)."""
    rows = list(rows)
    key_width = min(KEY_WIDTH, max((cell_len(r.key) for r in rows), default=0))
    desc_width = min(DESCRIPTION_WIDTH, max((cell_len(_label(r)) for r in rows), default=0))
    return key_width, desc_width


def _table(rows: Iterable[BindingRow], key_width: int, desc_width: int) -> Content:
    lines = []
    for row in rows:
        dim = "" if row.enabled else "dim"
        lines.append(
            Content.assemble(
                (_pad(row.key, key_width), f"bold {dim}".strip()),
                "  ",
                (_pad(_label(row), desc_width), dim),
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

    def __init__(self, screen: Screen[Any] | None = None) -> None:
        """``screen``: whose bindings to list (by default the one below this screen)."""
        super().__init__()
        self._target = screen

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll(id="help-dialog")
        scroll.border_title = "Key bindings"
        scroll.border_subtitle = "escape closes"
        yield scroll

    @property
    def listed_screen(self) -> Screen[Any] | None:
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
