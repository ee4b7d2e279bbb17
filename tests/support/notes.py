"""Notifications a test app shows, captured as plain text."""

from __future__ import annotations

from typing import Any


def notes_of(app: Any) -> list[str]:
    """Every notification's text from now on (the plain message, markup not applied)."""
    seen: list[str] = []
    original = app.notify

    def notify(message: Any, *args: Any, **kwargs: Any) -> None:
        seen.append(message.plain if hasattr(message, "plain") else str(message))
        original(message, *args, **kwargs)

    app.notify = notify
    return seen
