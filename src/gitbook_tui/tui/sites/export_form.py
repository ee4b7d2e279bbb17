"""ExportForm: the redirects' export question, the new file to write (never overwritten)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from ..common.form_screen import ToolForm

__all__ = ["ExportForm"]


class ExportForm(ToolForm):
    """Export: ``ctrl+s`` (or ``enter``) writes the new file."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Export", priority=True, id="export_form.send"),
    ]
