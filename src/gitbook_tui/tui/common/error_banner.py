"""ErrorBanner: a persistent error in a pane — what failed, on which server, and the keys.

It stays until the reader dismisses it (``x``) or the failure is resolved (the pane calls
:meth:`ErrorBanner.clear` after a success). ``r`` runs the retry the pane gave; on an
authentication failure (401) ``S`` asks the app to sign in again (the app handles
:class:`ErrorBanner.SignInRequested`, e.g. with the welcome screen's token entry).

Use: put an :class:`ErrorPane` (a ``Vertical`` with the keys) around the pane's widgets
and an ``ErrorBanner`` first inside it; the keys work while any widget of the pane has
the focus, and let the key through when no banner shows (``check_action``)::

    with ErrorPane(id="my-pane"):
        yield ErrorBanner()
        yield MyList()
    ...
    pane.banner.show_error("Could not load the reviews", exc, server=client.base_url,
                           retry=self._load)
    pane.banner.clear()            # after the next success
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from ...api import APIStatusError, GitBookError
from .text import inert

__all__ = ["MAX_ROWS", "ErrorBanner", "ErrorPane"]

MAX_ROWS = 4
"""Most rows a banner takes (its CSS ``max-height``)."""


class ErrorBanner(Static):
    """One line (or a few) naming the failure and the server, with its keys."""

    DEFAULT_CSS = """
    ErrorBanner {
        display: none;
        height: auto;
        max-height: 4;
        padding: 0 1;
        background: $error-muted;
        color: $text;
    }
    ErrorBanner.-showing { display: block; }
    """

    class SignInRequested(Message):
        """The reader asked to sign in again after an authentication failure."""

        def __init__(self, banner: ErrorBanner) -> None:
            super().__init__()
            self.banner = banner

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes, markup=False)
        self._retry: Callable[[], object] | None = None
        self.message = ""
        self.server = ""
        self.status: int | None = None
        self._keys: list[str] = []

    @property
    def showing(self) -> bool:
        return self.has_class("-showing")

    @property
    def can_retry(self) -> bool:
        return self.showing and self._retry is not None

    @property
    def needs_sign_in(self) -> bool:
        """The failure was an authentication failure (401): signing in again may help."""
        return self.showing and self.status == 401

    def show_error(
        self,
        what: str,
        error: GitBookError | str,
        *,
        server: str,
        retry: Callable[[], object] | None = None,
    ) -> None:
        """Show ``what`` failed and why (``error``) on ``server``; ``r`` calls ``retry``."""
        self.status = error.status if isinstance(error, APIStatusError) else None
        reason = str(error)
        self.message = f"{what}: {reason}" if reason else what
        self.server = server
        self._retry = retry
        keys = ["r retry"] if retry is not None else []
        if self.status == 401:
            keys.append("S sign in again")
        keys.append("x dismiss")
        self._keys = keys
        self._draw()
        self.add_class("-showing")

    def _draw(self) -> None:
        """The message, then the server (unless the message names it) and the keys, in
        at most :data:`MAX_ROWS` rows of the banner's width: a longer message is cut with
        "…" (whole in :attr:`message`, and in the pane's toast)."""
        server = self.server
        keys = Content.styled("  ·  ".join(self._keys), "$text-muted")
        if server and server not in self.message:
            tail = Content.assemble(
                ("server ", "$text-muted"), inert(server), ("  ·  ", "$text-muted"), keys
            )
        else:
            tail = keys
        message = Content.assemble(("⚠ ", "bold"), inert(self.message, style="bold"))
        width = self.content_region.width
        if width <= 1:  # not laid out yet: drawn again once it is (on_resize)
            self.update(Content("\n").join([message, tail]))
            return
        tail_rows = tail.wrap(width)
        rows = message.wrap(width)
        room = max(1, MAX_ROWS - len(tail_rows))
        if len(rows) > room:
            rows = rows[:room]
            rows[-1] = rows[-1].rstrip().truncate(width - 1).append("…")
        self.update(Content("\n").join([*rows, *tail_rows][:MAX_ROWS]))

    def on_resize(self) -> None:
        if self.showing:
            self._draw()

    def clear(self) -> None:
        """The failure is resolved (or dismissed): hide the banner."""
        self.remove_class("-showing")
        self._retry = None
        self.status = None
        self.message = ""

    def retry(self) -> None:
        """Run the retry (the banner stays until the pane clears it on success)."""
        retry = self._retry
        if retry is not None:
            retry()

    def request_sign_in(self) -> None:
        self.post_message(self.SignInRequested(self))


class ErrorPane(Vertical):
    """A pane whose :class:`ErrorBanner` answers ``r``, ``x`` and ``S`` while any of its
    widgets has the focus (the keys go on to others when no banner shows)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "banner_retry", "Retry", id="error.retry"),
        Binding("x", "banner_dismiss", "Dismiss error", id="error.dismiss"),
        Binding("S", "banner_sign_in", "Sign in again", id="error.sign_in"),
    ]

    @property
    def banner(self) -> ErrorBanner:
        return self.query_one(ErrorBanner)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not action.startswith("banner_"):
            return True
        banners = self.query(ErrorBanner)  # (none yet while the pane is being mounted)
        if not banners:
            return False
        banner = banners.first()
        if action == "banner_retry":
            return banner.can_retry
        if action == "banner_dismiss":
            return banner.showing
        return banner.needs_sign_in

    def action_banner_retry(self) -> None:
        self.banner.retry()

    def action_banner_dismiss(self) -> None:
        self.banner.clear()

    def action_banner_sign_in(self) -> None:
        self.banner.request_sign_in()
