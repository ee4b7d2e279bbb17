"""LintScreen: the findings of a redirect lint, each with the key that fixes it and what the
fix would change; it stays open over each fix and lints again when the fix is done."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Protocol

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..common.modal import KitModal
from ..common.pager import PagerOptionList
from ..common.text import inert
from .redirect_rules import Finding, LintDiff, lint_diff, shown_source

__all__ = ["LintHost", "LintScreen", "diff_text", "effect_text"]

BADGES = {
    "unsafe": ("DOT PATH", "bold $error"),
    "loop": ("LOOP", "bold $error"),
    "gone": ("GONE", "bold $error"),
    "chain": ("CHAIN", "bold $warning"),
    "shadowed": ("SHADOWED", "bold $warning"),
    "duplicate": ("DUPLICATE", "bold $warning"),
}


class LintHost(Protocol):
    """What the lint needs of the redirects pane's tools
    (:class:`.redirect_tools.RedirectTools`)."""

    def lint_findings(self) -> tuple[list[Finding], int]:
        """The findings of the redirects as they are now, and how many redirects there are."""
        ...

    def fix_label(self, action: str, finding: Finding) -> str:
        """What ``action`` (``edit``/``delete``) does to the finding's redirect, in words."""
        ...

    def fix_effect(
        self, action: str, finding: Finding, before: Sequence[Finding]
    ) -> LintDiff | None:
        """The findings ``action`` would fix, change and create (None: the user chooses)."""
        ...

    def start_fix(self, action: str, finding: Finding, done: Callable[[], None]) -> None:
        """Open the form or confirmation of ``action``; ``done`` runs once it was applied."""
        ...


def _badge(finding: Finding) -> str:
    return BADGES.get(finding.kind, (finding.kind.upper(), ""))[0]


def effect_text(label: str, effect: LintDiff | None) -> str:
    """The preview of a fix: what it does, the findings it fixes, changes and creates."""
    if effect is None:
        return f"{label}: you choose where it points; lint runs again after."
    parts = [f"{label}: fixes {len(effect.fixed)}"]
    parts += [f"then {after.message}" for _, after in effect.changed]
    if effect.new:
        parts += [f"NEW {_badge(f)} {f.message}" for f in effect.new]
    else:
        parts.append("creates no new finding")
    return " · ".join(parts)


def diff_text(what: str, diff: LintDiff) -> str:
    """What a fix did, once lint ran again."""
    parts = [f"After {what}: {len(diff.fixed)} fixed"]
    parts += [f"{after.message} (was: {before.message})" for before, after in diff.changed]
    if diff.new:
        parts.append(f"{len(diff.new)} new (marked below)")
    else:
        parts.append("none new")
    return " · ".join(parts)


class LintScreen(KitModal[None]):
    """Findings; ``enter`` applies the suggested fix, ``e`` edits, ``d`` deletes — over the
    list, which lints again when the fix is done and says what it changed (a finding the fix
    created is marked "new")."""

    DEFAULT_CSS = """
    LintScreen { align: center middle; }
    LintScreen > #lint-dialog {
        width: 110; max-width: 100%; height: auto; max-height: 95%;
        border: thick $warning; background: $surface; padding: 0 1;
    }
    LintScreen PagerOptionList { height: auto; max-height: 30; border: none; }
    LintScreen PagerOptionList:focus { border: none; }
    LintScreen #lint-summary, LintScreen #lint-preview { color: $text-muted; height: auto; }
    LintScreen #lint-result { height: auto; }
    LintScreen #lint-result.-new { color: $text-warning; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "fix", "Fix as suggested", priority=True, id="lint.fix"),
        Binding("e", "pick('edit')", "Edit", id="lint.edit"),
        Binding("d", "pick('delete')", "Delete", id="lint.delete"),
        Binding("escape", "close", "Close", id="lint.close"),
    ]

    def __init__(self, host: LintHost) -> None:
        super().__init__()
        self.host = host
        self.findings, self.total = host.lint_findings()
        self.new: set[tuple[str, str]] = set()
        """The findings the last fix created (kind, redirect id), marked in the list."""
        self.last_diff: LintDiff | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="lint-dialog") as dialog:
            dialog.border_title = "Redirect lint"
            yield Static(self._summary(), id="lint-summary")
            yield Static("", id="lint-result")
            yield PagerOptionList(*(self._option(f) for f in self.findings), id="lint-list")
            yield Static("", id="lint-preview")

    def _summary(self) -> str:
        count = len(self.findings)
        if not count:
            return f"No problems found in {self.total} redirects."
        return f"{count} finding{'s' if count != 1 else ''} in {self.total} redirects"

    def _option(self, finding: Finding) -> Option:
        badge, style = BADGES.get(finding.kind, (finding.kind.upper(), "bold"))
        key = "e" if finding.fix == "edit" else "d"
        parts: list[Content | str] = [
            Content.styled(f"{badge:<9}", style),
            " ",
            inert(finding.message),
            Content.styled(f"  [{key}: {finding.fix_label}]", "$text-muted"),
        ]
        if (finding.kind, finding.redirect.id) in self.new:
            parts.append(Content.styled("  new since the fix", "bold $text-warning"))
        return Option(Content.assemble(*parts))

    def on_mount(self) -> None:
        self.query_one(PagerOptionList).focus()
        self._preview()

    def _current(self) -> Finding | None:
        index = self.query_one(PagerOptionList).highlighted
        return self.findings[index] if index is not None and self.findings else None

    @on(OptionList.OptionHighlighted)
    def _preview(self) -> None:
        """Under the list: what ``enter`` would do to the highlighted finding's redirect and
        every finding it would fix, change or create."""
        preview = self.query_one("#lint-preview", Static)
        finding = self._current()
        if finding is None:
            preview.update("")
            return
        label = self.host.fix_label(finding.fix, finding)
        effect = self.host.fix_effect(finding.fix, finding, self.findings)
        preview.update(inert("enter: " + effect_text(label, effect)))

    def action_fix(self) -> None:
        finding = self._current()
        if finding is not None:
            self._start(finding.fix, finding)

    def action_pick(self, action: str) -> None:
        finding = self._current()
        if finding is not None:
            self._start(action, finding)

    def _start(self, action: str, finding: Finding) -> None:
        what = f"{'deleting' if action == 'delete' else 'editing'} {shown_source(finding.redirect)}"
        self.host.start_fix(action, finding, lambda: self.relint(what))

    def relint(self, what: str = "the fix") -> None:
        """Lint again (a fix was applied), saying what changed; the cursor stays near."""
        before = self.findings
        options = self.query_one(PagerOptionList)
        index = options.highlighted or 0
        self.findings, self.total = self.host.lint_findings()
        diff = self.last_diff = lint_diff(before, self.findings)
        self.new = {(f.kind, f.redirect.id) for f in diff.new}
        options.clear_options()
        options.add_options([self._option(f) for f in self.findings])
        if self.findings:
            options.highlighted = min(index, len(self.findings) - 1)
        self.query_one("#lint-summary", Static).update(self._summary())
        result = self.query_one("#lint-result", Static)
        result.update(inert(diff_text(what, diff)))
        result.set_class(bool(diff.new), "-new")
        self._preview()

    def action_close(self) -> None:
        self.dismiss(None)
