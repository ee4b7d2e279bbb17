"""SessionInfo: who is signed in and which organization is shown, one copy for every view's bar."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["SessionInfo"]


class SessionInfo:
    """The signed-in user's name and the organization shown, kept by the app
    (:class:`.navigator.Navigator`) so that every view's status bar shows the same, whichever
    view learnt them first."""

    def __init__(self) -> None:
        self.user = ""
        self.org = ""
        self._listeners: list[Callable[[], None]] = []

    def set_user(self, name: str) -> None:
        if name != self.user:
            self.user = name
            self._changed()

    def set_org(self, title: str) -> None:
        if title != self.org:
            self.org = title
            self._changed()

    def watch(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` on every change; returns the function that unsubscribes it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()
