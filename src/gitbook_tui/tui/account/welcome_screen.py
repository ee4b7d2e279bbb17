"""WelcomeScreen: shown without a token — enter one (checked, then stored) or open the demo."""

from __future__ import annotations

from typing import ClassVar

import httpx
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from ...api import APIConnectionError, AuthenticationError, GitBookError, auth
from ...models import User
from ..common.text import inert

__all__ = ["WelcomeScreen"]

INTRO = (
    "gitbook-tui needs a GitBook API token to open your workspace.\n"
    "Create one in GitBook under Settings → Developer → Personal access tokens, paste it "
    "below and press enter. It is checked against the server (GET /v1/user) and stored "
    "in your OS keyring, or in the config file readable only by you.\n"
)


class WelcomeScreen(Screen[None]):
    """Sign in with a token, or open the bundled demo workspace."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+d", "demo", "Open the demo", id="welcome.demo", priority=True),
        Binding("escape", "leave", "Quit", id="welcome.quit"),
    ]

    class SignedIn(Message):
        """The token was accepted by the server (and stored)."""

        def __init__(self, token: str, api_url: str, user: User) -> None:
            super().__init__()
            self.token = token
            self.api_url = api_url
            self.user = user

        def __repr__(self) -> str:  # never show the token
            return f"SignedIn(api_url={self.api_url!r})"

    class DemoRequested(Message):
        """The reader asked for the bundled demo workspace."""

    def __init__(
        self,
        api_url: str,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        demo_available: bool = True,
        cancellable: bool = False,
    ) -> None:
        """``cancellable``: opened from inside the app (sign in again): escape goes back
        instead of quitting."""
        super().__init__()
        self.api_url = api_url
        self.transport = transport
        self.demo_available = demo_available
        self.cancellable = cancellable

    async def action_leave(self) -> None:
        if self.cancellable:
            self.app.pop_screen()
        else:
            await self.app.run_action("app.quit")

    def compose(self) -> ComposeResult:
        with Vertical(id="welcome-box"):
            yield Static("Welcome to gitbook-tui", id="welcome-title", markup=False)
            yield Static(INTRO, id="welcome-intro", markup=False)
            yield Input(placeholder="GitBook API token", password=True, id="welcome-token")
            yield Input(value=self.api_url, placeholder="API URL", id="welcome-url")
            yield Static("", id="welcome-error", markup=False)
            if self.demo_available:
                yield Static(
                    "No token? Press ctrl+d to open the bundled demo workspace.",
                    id="welcome-demo",
                    markup=False,
                )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#welcome-token", Input).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "demo":
            return self.demo_available
        return True

    def action_demo(self) -> None:
        self.post_message(self.DemoRequested())

    def _error(self, message: str | Content) -> None:
        self.query_one("#welcome-error", Static).update(
            message if isinstance(message, Content) else Content.styled(message, "bold $text-error")
        )

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        token = self.query_one("#welcome-token", Input).value.strip()
        url = self.query_one("#welcome-url", Input).value.strip().rstrip("/")
        if not token:
            self.query_one("#welcome-token", Input).focus()
            self._error("Paste a token first.")
            return
        if not url.startswith(("http://", "https://")):
            self.query_one("#welcome-url", Input).focus()
            self._error("The API URL must start with http:// or https://.")
            return
        self._error(Content.styled("Checking the token…", "$text-muted"))
        self.sign_in(token, url)

    @work(exclusive=True, exit_on_error=False, group="welcome-sign-in")
    async def sign_in(self, token: str, api_url: str) -> None:
        try:
            result = await auth.login(token, api_url=api_url, transport=self.transport)
        except AuthenticationError:
            self._error("The server rejected this token; nothing was stored.")
            return
        except APIConnectionError:
            self._error(inert(f"Cannot reach {api_url}.", style="bold $text-error"))
            return
        except (GitBookError, ValueError) as exc:
            self._error(inert(f"Could not sign in: {exc}", style="bold $text-error"))
            return
        self.post_message(self.SignedIn(token, result.api_url, result.user))
