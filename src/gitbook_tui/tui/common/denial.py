"""Permission-aware actions: a denied action stays listed (dimmed) and says why when pressed.

A screen or widget that has actions the caller may not do defines
``denial_reason(action) -> str | None`` (the action's name without ``action_``; ``None``
when allowed) and decorates those actions with :func:`gated`. The footer
(:class:`~.hint_footer.HintFooter`) and the help screen ask :func:`denial_of` and show the
binding dimmed with the reason; pressing the key runs the action's :func:`gated` wrapper,
which shows the reason instead of acting. Reasons come from the items' ``permissions``
and server rules ("Only the author can edit this", "You have read access to this space").
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

from textual.widget import Widget

from ...markdown.sanitize import clean_text

__all__ = ["Deniable", "denial_of", "gated"]

F = TypeVar("F", bound=Callable[..., Any])


@runtime_checkable
class Deniable(Protocol):
    """A node whose actions may be denied to the signed-in user."""

    def denial_reason(self, action: str) -> str | None:
        """Why ``action`` may not be done now (``None``: it may)."""
        ...


def denial_of(node: object, action: str) -> str | None:
    """Why ``node`` denies ``action`` (a binding's action string, ``namespace.`` stripped)."""
    reason_of = getattr(node, "denial_reason", None)
    if reason_of is None:
        return None
    name = action.rsplit(".", 1)[-1].split("(", 1)[0]
    try:
        reason = reason_of(name)
    except Exception:  # a half-loaded item: nothing to deny yet
        return None
    return clean_text(reason) if reason else None


def gated(method: F) -> F:
    """Run the action only when :func:`denial_of` allows it; otherwise say why."""
    name = method.__name__.removeprefix("action_")

    @functools.wraps(method)
    async def wrapper(self: Widget, *args: Any, **kwargs: Any) -> Any:
        reason = denial_of(self, name)
        if reason is not None:
            self.notify(reason, title="Not allowed", severity="warning", markup=False)
            return None
        result = method(self, *args, **kwargs)
        if inspect.isawaitable(result):
            return await cast(Awaitable[Any], result)
        return result

    return cast(F, wrapper)
