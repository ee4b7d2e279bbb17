"""LintScreen: the findings of a redirect lint, each with the key that fixes it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..common.modal import KitModal
from ..common.text import inert
from .redirect_rules import Finding

__all__ = ["LintScreen"]

BADGES = {
    "unsafe": ("DOT PATH", "bold $error"),
    "loop": ("LOOP", "bold $error"),
    "gone": ("GONE", "bold $error"),
    "chain": ("CHAIN", "bold $warning"),
    "shadowed": ("SHADOWED", "bold $warning"),
    "duplicate": ("DUPLICATE", "bold $warning"),
}


class LintScreen(KitModal[tuple[str, Finding] | None]):
    """Findings; ``enter`` applies the suggested fix, ``e`` edits, ``d`` deletes. The result
    is ``(action, finding)``."""

    DEFAULT_CSS = """
    LintScreen { align: center middle; }
    LintScreen > #lint-dialog {
        width: 110; max-width: 100%; height: auto; max-height: 95%;
        border: thick $warning; background: $surface; padding: 0 1;
    }
    LintScreen OptionList { height: auto; max-height: 30; border: none; }
    LintScreen #lint-summary, LintScreen #lint-keys { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "fix", "Fix", priority=True, id="lint.fix"),
        Binding("e", "pick('edit')", "Edit", id="lint.edit"),
        Binding("d", "pick('delete')", "Delete", id="lint.delete"),
        Binding("j", "cursor(1)", "Down", show=False, id="lint.down"),
        Binding("k", "cursor(-1)", "Up", show=False, id="lint.up"),
        Binding("escape", "close", "Close", id="lint.close"),
    ]

    def __init__(self, findings: Sequence[Finding], total: int) -> None:
        super().__init__()
        self.findings = list(findings)
        self.total = total

    def compose(self) -> ComposeResult:
        with Vertical(id="lint-dialog") as dialog:
            dialog.border_title = "Redirect lint"
            count = len(self.findings)
            summary = (
                f"{count} finding{'s' if count != 1 else ''} in {self.total} redirects"
                if count
                else f"No problems found in {self.total} redirects."
            )
            yield Static(summary, id="lint-summary")
            yield OptionList(*(self._option(f) for f in self.findings), id="lint-list")
            yield Static(
                "enter fix as suggested · e edit · d delete · escape close", id="lint-keys"
            )

    @staticmethod
    def _option(finding: Finding) -> Option:
        badge, style = BADGES.get(finding.kind, (finding.kind.upper(), "bold"))
        key = "e" if finding.fix == "edit" else "d"
        return Option(
            Content.assemble(
                Content.styled(f"{badge:<9}", style),
                " ",
                inert(finding.message),
                Content.styled(f"  [{key}: {finding.fix_label}]", "dim"),
            )
        )

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def _current(self) -> Finding | None:
        index = self.query_one(OptionList).highlighted
        return self.findings[index] if index is not None and self.findings else None

    def action_cursor(self, step: int) -> None:
        options = self.query_one(OptionList)
        (options.action_cursor_down if step > 0 else options.action_cursor_up)()

    def action_fix(self) -> None:
        finding = self._current()
        if finding is not None:
            self.dismiss((finding.fix, finding))

    def action_pick(self, action: str) -> None:
        finding = self._current()
        if finding is not None:
            self.dismiss((action, finding))

    def action_close(self) -> None:
        self.dismiss(None)
