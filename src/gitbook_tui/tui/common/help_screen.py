"""HelpScreen: the key bindings of the screen below, grouped by where they are defined.

Curated at first: the app's own bindings (those with an id), the focused widget's group
first, the app's ("Everywhere") last, without Textual's generic bindings and without
bindings another one overrides; ``?`` again lists every binding ("all"), as below.

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

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap
from textual.content import Content
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from ..textual_compat import app_keymap, check_action_state, modal_binding_chain, node_bindings
from .denial import denial_of
from .hint_footer import HintFooter
from .pager import PagerScroll

__all__ = ["BindingRow", "HelpScreen", "binding_groups"]

KEY_WIDTH = 18
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


GROUP_TITLES: dict[str, str] = {
    "GitBookApp": "Everywhere",
    "BrowserScreen": "Browser",
    "WorkspaceTree": "Tree",
    "PageViewer": "Page",
    "Sidebar": "Tree pane",
    "FilterInput": "Tree filter",
    "FindInput": "Find in page",
    "ErrorPane": "Error banner",
    "FindBar": "Find in page",
    "OutlineScreen": "Outline",
    "SearchScreen": "Search",
    "WelcomeScreen": "Sign in",
    "OrgPickerScreen": "Organizations",
    "StartingScreen": "Starting",
    "HelpScreen": "Help",
    "ConfirmScreen": "Confirm",
    "Composer": "Composer",
    "ComposerArea": "Text",
    # Reviews
    "ReviewInboxScreen": "Reviews",
    "ChangeRequestReviewScreen": "Review",
    "DiffView": "Diff",
    "ChangedPagesList": "Changed pages",
    "ConflictPanel": "Conflicts",
    "MergeChecklistScreen": "Merge",
    "SubjectScreen": "Subject",
    "ReviewMessageScreen": "Review message",
    "ReviewerPickerScreen": "Reviewers",
    "EditTargetScreen": "Suggest an edit",
    # Comments
    "CommentsScreen": "Comments",
    "ThreadList": "Threads",
    "ThreadPane": "Thread",
    "AuthorPicker": "Authors",
    "ReactionPicker": "Reactions",
    # Sites
    "SitesScreen": "Sites",
    "SitesTable": "Sites",
    "SiteEditorScreen": "Site editor",
    "StructurePane": "Structure",
    "StructureList": "Structure",
    "RedirectsPane": "Redirects",
    "RedirectsTable": "Redirects",
    "SettingsPane": "Settings",
    "SettingsView": "Settings",
    "FormScreen": "Form",
    "PickScreen": "Pick",
    "LintScreen": "Redirect lint",
    "ImportScreen": "Import",
    "ReportScreen": "Report",
}
"""Group titles of the curated help, by class name (others: the class's ``HELP_TITLE``,
else words made from its name: help never shows a Python class name)."""

_SUFFIXES = ("Screen", "Widget")


def _words(name: str) -> str:
    """``ChangedPagesList`` → ``Changed pages list``: a readable fallback title."""
    for suffix in _SUFFIXES:
        if name.endswith(suffix) and name != suffix:
            name = name[: -len(suffix)]
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name) or [name]
    return " ".join([words[0], *(w.lower() if not w.isupper() else w for w in words[1:])])


def _group_title(node: DOMNode) -> str:
    return class_title(type(node))


def class_title(node_class: type) -> str:
    """The help group title of a widget, screen or app class (see :data:`GROUP_TITLES`)."""
    for cls in node_class.__mro__:
        if cls.__module__.startswith("textual."):
            break  # a Textual base class: its name is no title for this group
        title = GROUP_TITLES.get(cls.__name__) or cls.__dict__.get("HELP_TITLE")
        if isinstance(title, str):
            return title
    return _words(node_class.__name__)


def curated_groups(app: App[Any], screen: Screen[Any]) -> list[tuple[str, list[BindingRow]]]:
    """What ``?`` shows first: the app's own bindings (with an id) that a key would run or
    that are off now, the focused widget's group first and the app's last."""
    chain = [node for node, _ in modal_binding_chain(screen)]  # focus first, app last
    by_title: dict[str, list[BindingRow]] = {}
    rank: dict[str, int] = {}
    for node, rows in _rows_by_node(app, screen):
        kept = [r for r in rows if r.id and r.note not in (OVERRIDDEN, TYPED)]
        if not kept:
            continue
        title = _group_title(node)
        position = next((i for i, n in enumerate(chain) if n is node), len(chain))
        rank[title] = min(rank.get(title, position), position)
        rows_here = by_title.setdefault(title, [])
        for row in kept:  # one row per binding: its keys joined ("h ←")
            at = next((i for i, r in enumerate(rows_here) if r.id == row.id), None)
            if at is None:
                rows_here.append(row)
            elif row.key not in rows_here[at].key.split(" "):
                rows_here[at] = replace(rows_here[at], key=f"{rows_here[at].key} {row.key}")
    return sorted(by_title.items(), key=lambda item: rank[item[0]])


def _rows_by_node(app: App[Any], screen: Screen[Any]) -> list[tuple[DOMNode, list[BindingRow]]]:
    """Every binding of ``screen``'s chain as rows, per node: screen, widgets, app."""
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

    nodes = [node for node, _ in by_node.values()]
    ordered = sorted(nodes, key=lambda node: 0 if node is screen else 2 if node is app else 1)
    return [(node, by_node[id(node)][1]) for node in ordered]


def binding_groups(app: App[Any], screen: Screen[Any]) -> list[tuple[str, list[BindingRow]]]:
    """Every binding of ``screen`` as (group title, rows): screen, focused widget(s), app."""
    focused = screen.focused
    groups: list[tuple[str, list[BindingRow]]] = []
    for node, rows in _rows_by_node(app, screen):
        name = _group_title(node)
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
        dim = "" if row.enabled else "$text-muted"
        lines.append(
            Content.assemble(
                (_pad(row.key, key_width), f"bold {dim}".strip()),
                "  ",
                (_pad(_label(row), desc_width), dim),
                "  ",
                (row.id or "—", "italic $text-muted"),
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
        Binding("escape,q", "close", "Close", id="help.close"),
        Binding("question_mark", "more", "All keys", id="help.all"),
    ]

    def __init__(self, screen: Screen[Any] | None = None, *, show_all: bool = False) -> None:
        """``screen``: whose bindings to list (by default the one below this screen);
        ``show_all``: every binding, Textual's own too (else the curated list)."""
        super().__init__()
        self._target = screen
        self.show_all = show_all

    def compose(self) -> ComposeResult:
        scroll = PagerScroll(id="help-dialog")
        yield scroll
        yield HintFooter(compact=True)  # this screen's keys, not the one below's

    def _titles(self) -> None:
        scroll = self.query_one("#help-dialog", PagerScroll)
        if self.show_all:
            scroll.border_title = "Key bindings — all"
            scroll.border_subtitle = "? or escape closes"
        else:
            scroll.border_title = "Key bindings"
            scroll.border_subtitle = "? all keys · escape closes"

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
        await self._fill()

    async def _fill(self) -> None:
        scroll = self.query_one("#help-dialog", PagerScroll)
        self._titles()
        if scroll.children:
            await scroll.remove_children()
        target = self.listed_screen
        groups: list[tuple[str, list[BindingRow]]] = []
        if target is not None:
            listing = binding_groups if self.show_all else curated_groups
            groups = listing(self.app, target)
        key_width, desc_width = _widths(row for _, rows in groups for row in rows)
        widgets: list[Static] = []
        for title, rows in groups:
            widgets.append(Static(Content(title), classes="help-group"))
            widgets.append(Static(_table(rows, key_width, desc_width), classes="help-table"))
        if not widgets:
            widgets.append(Static(Content("No key bindings are active here.")))
        await scroll.mount_all(widgets)
        scroll.focus()

    async def action_more(self) -> None:
        """``?`` again: every binding; once they show, ``?`` closes."""
        if self.show_all:
            self.dismiss(None)
            return
        self.show_all = True
        await self._fill()

    def action_close(self) -> None:
        self.dismiss(None)
