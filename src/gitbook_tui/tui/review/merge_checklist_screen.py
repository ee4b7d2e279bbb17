"""MergeChecklistScreen: GitBook's merge rules checked before the typed confirmation.

The server enforces none of them (only permissions), so the dialog lists approvals,
changes requested, outdated, open threads, pending reviewers and permission, each ✓ or
✗ (a sign, not only a colour). ``enter`` continues to the typed confirmation unless a
blocking item fails; ``escape`` cancels.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from ..common.modal import KitModal
from ..common.text import count_of, inert
from .review_data import CheckItem

__all__ = ["MergeChecklistScreen"]


class MergeChecklistScreen(KitModal[bool]):
    """Returns True to go on to the typed confirmation."""

    DEFAULT_CSS = """
    MergeChecklistScreen { align: center middle; }
    MergeChecklistScreen > #merge-dialog {
        width: 72; max-width: 95%; height: auto; max-height: 90%;
        border: thick $warning; background: $surface; padding: 0 1;
    }
    MergeChecklistScreen #merge-items { margin: 1 0; }
    MergeChecklistScreen #merge-keys { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "go_on", "Continue", priority=True, id="merge.continue"),
        Binding("escape", "cancel", "Cancel", id="merge.cancel"),
    ]

    def __init__(self, number: int, subject: str, items: list[CheckItem]) -> None:
        super().__init__()
        self.number = number
        self.subject = subject
        self.items = items

    @property
    def blocked(self) -> bool:
        return any(item.blocking and not item.ok for item in self.items)

    def compose(self) -> ComposeResult:
        with Vertical(id="merge-dialog") as dialog:
            dialog.border_title = Content.assemble(f"Merge #{self.number} ", inert(self.subject))
            lines: list[Content] = []
            for item in self.items:
                sign, style = ("✓", "$text-success") if item.ok else ("✗", "$text-error")
                lines.append(Content.assemble((sign, f"bold {style}"), " ", inert(item.label)))
            warnings = sum(1 for item in self.items if not item.ok and not item.blocking)
            if self.blocked:
                lines.append(Content.styled("\nYou can't merge this change request.", "bold"))
            elif warnings:
                lines.append(
                    Content(f"\n{count_of(warnings, 'rule')} not met: merging anyway is allowed.")
                )
            yield Static(Content("\n").join(lines), id="merge-items")
            keys = (
                "escape close" if self.blocked else "enter continue to confirmation · escape cancel"
            )
            yield Static(keys, id="merge-keys")

    def action_go_on(self) -> None:
        if self.blocked:
            self.notify(
                "A blocking rule fails: this change request can't be merged by you.",
                severity="warning",
            )
            return
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
