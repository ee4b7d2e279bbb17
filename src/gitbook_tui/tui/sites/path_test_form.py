"""PathTestForm: the redirects' "test a path" question (``ctrl+s`` shows where it lands)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from ..common.form_screen import ToolForm

__all__ = ["PathTestForm"]


class PathTestForm(ToolForm):
    """Test a path: ``ctrl+s`` (or ``enter``) shows where it lands."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Test", priority=True, id="test_path.send"),
    ]
