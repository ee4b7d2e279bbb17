"""FormScreen: a small modal form that validates as you type, shows the server's refusal by
the field it names and keeps what was typed (also as a draft that survives a restart).

The caller describes the fields (:class:`FormField`) and gives an async ``submit`` that
sends the values and returns ``None`` when the server accepted them, or the errors by field
name (``""`` for a form-wide one). The form stays open with everything typed until the
server accepts; ``escape`` closes it and keeps the draft; the draft is removed only after
the server accepted the values.

A tool's form keeps no draft: :class:`ToolForm` says that ``escape`` cancels, and a
feature's subclass of it names what ``ctrl+s`` does there (e.g. the redirects' "test a
path"). The footer shows the keys (no hand-written key line to disagree with it); ``tab``
cycles among the fields only, so what is typed after it always lands in a field.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Checkbox, Input, Label, Select, Static

from ...drafts import Debouncer, DraftKey
from .marked_checkbox import MarkedCheckbox
from .modal import KitModal
from .text import form_value, inert

__all__ = [
    "FormField",
    "FormScreen",
    "Submit",
    "ToolForm",
    "Values",
    "restored_values",
]

Values = dict[str, Any]
Submit = Callable[[Values], Awaitable[dict[str, str] | None]]


@dataclass
class FormField:
    """One field: ``kind`` is ``text``, ``select`` (``options`` of (label, value)) or
    ``check``. ``validate(values)`` gives an error as you type; ``hint(values)`` a line
    under the field (e.g. where a destination leads)."""

    name: str
    label: str
    value: Any = ""
    kind: str = "text"
    placeholder: str = ""
    options: Sequence[tuple[str, Any]] = field(default_factory=tuple)
    validate: Callable[[Values], str | None] | None = None
    hint: Callable[[Values], str] | None = None
    max_length: int = 0


class FormBody(VerticalScroll, can_focus=False):
    """The form's scrolling body; never focused itself (``tab`` would land on it and the
    next typed text would go nowhere): a field scrolls into view when focused."""


class FormScreen(KitModal[Values | None]):
    """A form of :class:`FormField` s; ``ctrl+s`` (or ``enter`` in the last field) sends."""

    DEFAULT_CSS = """
    FormScreen { align: center middle; }
    FormScreen > #form-dialog {
        width: 76; max-width: 100%; height: auto; max-height: 100%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    FormScreen .form-label { margin-top: 1; color: $text-muted; }
    FormScreen .form-error { color: $error; height: auto; }
    FormScreen .form-hint { color: $text-muted; height: auto; }
    FormScreen #form-general { color: $error; height: auto; }
    FormScreen Input { border: none; height: 1; padding: 0 1; background: $boost; }
    FormScreen Input:focus { border: none; background: $primary 20%; }
    FormScreen Input.-refused:focus { background: $error 35%; }
    FormScreen Input.-refused { background: $error 25%; }
    FormScreen Checkbox { border: none; height: 1; padding: 0; }
    FormScreen Checkbox:focus { background: $primary 20%; }
    FormScreen Select { margin: 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Save", priority=True, id="form.send"),
        Binding("escape", "close", "Close (draft kept)", id="form.close"),
    ]

    def __init__(
        self,
        title: str,
        fields: Sequence[FormField],
        submit: Submit,
        *,
        draft_key: DraftKey | None = None,
        drafts: Debouncer | None = None,
        restored: Values | None = None,
    ) -> None:
        super().__init__()
        self.form_title = title
        self.fields = list(fields)
        self._submit = submit
        self.draft_key = draft_key
        self.drafts = drafts
        self.sending = False
        self.touched: set[str] = set()
        for f in self.fields:  # server text prefilled: inert (a restored draft is the user's)
            f.value = form_value(str(f.value or ""), one_line=True) if f.kind == "text" else f.value
        if restored:
            for f in self.fields:
                if f.name not in restored:
                    continue
                if f.kind == "select" and restored[f.name] not in {v for _, v in f.options}:
                    continue  # a choice gone since the draft (a deleted group or space)
                f.value = restored[f.name]
        # what the widgets start with: only a change from these is typing
        self._initial: Values = {
            f.name: bool(f.value)
            if f.kind == "check"
            else (f.value if f.kind == "select" else str(f.value or ""))
            for f in self.fields
        }

    def compose(self) -> ComposeResult:
        with FormBody(id="form-dialog") as dialog:
            dialog.border_title = inert(self.form_title)
            yield Static("", id="form-general")
            for f in self.fields:
                if f.kind == "check":
                    yield MarkedCheckbox(f.label, bool(f.value), id=f"field-{f.name}")
                    continue
                yield Label(f.label, classes="form-label")
                if f.kind == "select":
                    yield Select(
                        [
                            (inert(label) if isinstance(label, str) else label, v)
                            for label, v in f.options
                        ],
                        value=f.value,
                        allow_blank=False,
                        id=f"field-{f.name}",
                    )
                else:
                    yield Input(
                        str(f.value or ""),
                        placeholder=f.placeholder,
                        max_length=f.max_length,
                        id=f"field-{f.name}",
                    )
                yield Static("", id=f"error-{f.name}", classes="form-error")
                yield Static("", id=f"hint-{f.name}", classes="form-hint")

    def on_mount(self) -> None:
        self._set_general("")
        self.revalidate()

        first = next(iter(self.query("#form-dialog Input, #form-dialog Select")), None)
        if first is not None:
            first.focus()

    # -- values and checks ------------------------------------------------------------------
    def values(self) -> Values:
        found: Values = {}
        for f in self.fields:
            widget = self.query_one(f"#field-{f.name}")
            if isinstance(widget, Checkbox | Select | Input):
                found[f.name] = widget.value
        return found

    def error_of(self, name: str) -> str:
        try:
            return str(self.query_one(f"#error-{name}", Static).content)
        except Exception:
            return ""

    @property
    def general_error(self) -> str:
        return str(self.query_one("#form-general", Static).content)

    def revalidate(self) -> bool:
        """Show each field's error as typed; ``True`` when there is none."""
        values = self.values()
        ok = True
        for f in self.fields:
            if f.kind == "check":
                continue
            problem = f.validate(values) if f.validate else None
            shown = f.name in self.touched or bool(values.get(f.name))
            self._show_error(f.name, problem if shown else None)
            ok = ok and problem is None
            hint = f.hint(values) if f.hint is not None else ""
            line = self.query_one(f"#hint-{f.name}", Static)
            line.update(inert(hint))
            line.display = bool(hint)
        return ok

    def _show_error(self, name: str, problem: str | None) -> None:
        line = self.query_one(f"#error-{name}", Static)
        line.update(inert(problem or ""))
        line.display = bool(problem)
        widget = self.query_one(f"#field-{name}")
        widget.set_class(bool(problem), "-refused")

    def _set_general(self, text: str) -> None:
        line = self.query_one("#form-general", Static)
        line.update(inert(text))
        line.display = bool(text)

    def show_errors(self, errors: dict[str, str]) -> None:
        """The server's refusal: by the fields it names, the rest on top."""
        names = {f.name for f in self.fields if f.kind != "check"}
        general = [v for k, v in errors.items() if k not in names]
        self._set_general("; ".join(general))
        for name, message in errors.items():
            if name in names:
                self._show_error(name, message)
        first = next((n for n in errors if n in names), None)
        if first is not None:
            self.query_one(f"#field-{first}").focus()

    # -- events -------------------------------------------------------------------------------
    @on(Input.Changed)
    @on(Checkbox.Changed)
    @on(Select.Changed)
    def _changed(self) -> None:
        values = self.values()
        self.touched.update(k for k, v in values.items() if v != self._initial.get(k))
        self._set_general("")
        self.revalidate()
        if self.drafts is not None and self.draft_key is not None and values != self._initial:
            self.drafts.schedule(
                self.draft_key,
                json.dumps(values, sort_keys=True, default=str),
                title=self.form_title,
                extra={"values": values},
            )

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        inputs = [w for w in self.query(Input) if w.id and w.id.startswith("field-")]
        if inputs and event.input is inputs[-1]:
            self.action_send()
        else:
            self.focus_next()

    def action_send(self) -> None:
        if self.sending:
            return
        self.touched.update(f.name for f in self.fields)
        if not self.revalidate():
            self.notify("Fix the fields marked in red first.", severity="warning", timeout=3)
            return
        self._send(self.values())

    @work(exclusive=True, group="form-send")
    async def _send(self, values: Values) -> None:
        self.sending = True
        try:
            errors = await self._submit(values)
        finally:
            self.sending = False
        if errors:
            self.show_errors(errors)
            return
        if self.drafts is not None and self.draft_key is not None:
            await self.drafts.discard(self.draft_key)
        self.dismiss(values)

    async def action_close(self) -> None:
        if self.drafts is not None and self.draft_key is not None:
            await self.drafts.flush(self.draft_key)
        self.dismiss(None)


class ToolForm(FormScreen):
    """A form that keeps no draft (a tool's question): ``escape`` cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Run", priority=True, id="tool_form.send"),
        Binding("escape", "close", "Cancel", id="tool_form.close"),
    ]


def restored_values(draft_extra: dict[str, Any] | None) -> Values | None:
    """The form values kept in a draft's ``extra`` (``None`` when there are none)."""
    values = (draft_extra or {}).get("values")
    return values if isinstance(values, dict) else None
