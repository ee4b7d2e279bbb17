"""Wording shared by the Admin tabs: the server's refusals in one line (never the token) and
split by the form field they name."""

from __future__ import annotations

from ..common.server_errors import error_text, field_errors

__all__ = ["error_text", "field_errors"]
