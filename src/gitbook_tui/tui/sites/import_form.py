"""ImportForm: the redirects' import question, the file to read (``ctrl+s`` shows the dry
run, nothing sent)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from ..common.form_screen import ToolForm

__all__ = ["ImportForm"]


class ImportForm(ToolForm):
    """Import: ``ctrl+s`` (or ``enter``) reads the file and shows the dry run (nothing sent)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Dry run", priority=True, id="import_form.send"),
    ]
