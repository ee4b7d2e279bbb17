"""SettingsPane: the site's title, visibility (confirmed when widening, naming the
audience), publishing (``P``, confirmed), adaptive content and its schema."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Static

from ...models import PublishCheckout, Site
from ..common.confirm_screen import ConfirmScreen
from ..common.denial import gated
from ..common.form_screen import FormField, Values
from ..common.text import inert
from .pick_screen import PickScreen
from .schema_editing import edit_schema
from .settings_data import rename_site, set_adaptive, set_published, set_visibility
from .settings_view import SettingsView
from .site_pane import SitePane, when_confirmed
from .site_text import VISIBILITY_AUDIENCE, VISIBILITY_RANK, edit_denied, publish_denied

__all__ = ["CHECKOUT_NEEDED", "SettingsPane", "SettingsView"]

# The server answers a checkout (a Stripe session) when the organization's plan must be
# upgraded first: nothing was published, and the checkout is done in the web app.
CHECKOUT_NEEDED = (
    "Publishing this site needs a plan upgrade: complete the checkout in the GitBook web "
    "app, then publish again."
)


class SettingsPane(SitePane):
    DEFAULT_CSS = """
    SettingsPane SettingsView { height: 1fr; padding: 0 1; }
    SettingsPane #settings-body { height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "edit_title", "Title", id="settings.title"),
        Binding("v", "visibility", "Visibility", id="settings.visibility"),
        Binding("P", "publish", "Publish/unpublish", id="settings.publish"),
        Binding("A", "adaptive", "Adaptive on/off", id="settings.adaptive"),
        Binding("E", "edit_schema", "Schema in $EDITOR", id="settings.schema"),
    ]
    EDIT_ACTIONS = frozenset({"edit_title", "visibility", "adaptive"})

    def __init__(self, editor: Any) -> None:
        super().__init__(editor, id="settings-pane")

    def compose(self) -> ComposeResult:
        with SettingsView(id="settings-view"):
            yield Static("", id="settings-body")

    def focus_main(self) -> None:
        self.query_one(SettingsView).focus()

    def on_mount(self) -> None:
        self.show_site()

    def denial_reason(self, action: str) -> str | None:
        if action == "publish":
            return publish_denied(self.site)
        if action == "edit_schema":
            perms = self.site.permissions
            if perms is not None and not perms.editAdaptiveSchema:
                return "Editing the adaptive schema needs the create role in the organization."
            return edit_denied(self.site)
        return super().denial_reason(action)

    def show_site(self) -> None:
        site = self.site
        adaptive = bool(site.adaptiveContent and site.adaptiveContent.enabled)
        url = site.urls.published if site.urls and site.urls.published else None
        visibility = str(site.visibility or "")
        rows: list[tuple[str, Content, str]] = [
            ("Title", inert(site.title or site.id, style="bold"), "e"),
            (
                "Visibility",
                Content.assemble(
                    inert(visibility, style="bold"),
                    Content.styled(f"  {VISIBILITY_AUDIENCE.get(visibility, '')}", "$text-muted"),
                ),
                "v",
            ),
            (
                "Published",
                Content.styled("yes", "bold $success")
                if site.published
                else Content.styled("no", "bold $warning"),
                "P",
            ),
            ("URL", inert(url or "— (unpublished)"), ""),
            ("Adaptive content", Content("on" if adaptive else "off"), "A"),
            ("Adaptive schema", Content("edit the JSON Schema of visitor claims"), "E"),
            ("Basename", inert(site.basename or ""), ""),
        ]
        lines = []
        for label, value, key in rows:
            reason = self.denial_reason(_ACTION_OF.get(key, "")) if key else None
            key_text = Content.styled(
                f"[{key}]" if key else "   ", "$text-muted" if reason else "bold"
            )
            lines.append(
                Content.assemble(
                    key_text, " ", Content.styled(f"{label:<18}", "$text-muted"), value
                )
            )
        self.query_one("#settings-body", Static).update(Content("\n").join(lines))

    # -- title ------------------------------------------------------------------------------
    @gated
    async def action_edit_title(self) -> None:
        def check(values: Values) -> str | None:
            title = values["title"].strip()
            return None if 1 <= len(title) <= 128 else "Title: 1 to 128 characters."

        async def submit(values: Values) -> dict[str, str] | None:
            try:
                site = await rename_site(self.client, self.org_id, self.site.id, values["title"])
            except Exception as error:
                return self.refusal(error, ["title"])
            self.editor.set_site(site)
            return None

        field = FormField("title", "Title", self.site.title or "", validate=check, max_length=128)
        await self.open_form("Site title", [field], submit, target="settings:title")

    # -- visibility -------------------------------------------------------------------------
    @gated
    async def action_visibility(self) -> None:
        current = str(self.site.visibility or "")
        choices = [
            (
                Content.assemble(
                    Content.styled(f"{name:<13}", "bold"), Content.styled(audience, "$text-muted")
                ),
                name,
            )
            for name, audience in VISIBILITY_AUDIENCE.items()
        ]
        await self.app.push_screen(
            PickScreen("Who can see this site?", choices, highlighted=current),
            self._visibility_picked,
        )

    def _visibility_picked(self, value: str | None) -> None:
        current = str(self.site.visibility or "")
        if value is None or value == current:
            return
        widening = VISIBILITY_RANK.get(value, 9) > VISIBILITY_RANK.get(current, 9)
        if not widening:
            self._set_visibility(value)
            return
        state = "" if self.site.published else " once the site is published"
        effect = (
            f"Widens “{self.site.title}” from {current} to {value}: "
            f"{VISIBILITY_AUDIENCE.get(value, value)} will be able to see it{state}."
        )
        self.app.push_screen(
            ConfirmScreen("Widen visibility?", effect, confirm_label=f"Make it {value}"),
            when_confirmed(lambda: self._set_visibility(value)),
        )

    @work(group="settings-edit")
    async def _set_visibility(self, value: str) -> None:
        try:
            site = await set_visibility(self.client, self.org_id, self.site.id, value)
        except Exception as error:
            self.report(error)
            return
        self.editor.set_site(site)

    # -- publishing -------------------------------------------------------------------------
    @gated
    async def action_publish(self) -> None:
        site = self.site
        visibility = str(site.visibility or "")
        if site.published:
            title, label = "Unpublish site?", "Unpublish"
            effect = (
                f"Unpublishes “{site.title}”: its URLs stop answering for every visitor "
                "(redirects included). Content and settings are kept."
            )
        else:
            title, label = "Publish site?", "Publish"
            effect = (
                f"Publishes “{site.title}” ({visibility}): "
                f"{VISIBILITY_AUDIENCE.get(visibility, visibility)} will be able to see it."
            )
        await self.app.push_screen(
            ConfirmScreen(title, effect, confirm_label=label),
            when_confirmed(lambda: self._publish(not site.published)),
        )

    @work(group="settings-edit")
    async def _publish(self, publish: bool) -> None:
        try:
            answer = await set_published(self.client, self.org_id, self.site.id, publish)
        except Exception as error:
            self.report(error)
            return
        if isinstance(answer, PublishCheckout):
            self.notify(
                CHECKOUT_NEEDED, title="Not published", severity="warning", timeout=20, markup=False
            )
            return
        self.editor.set_site(answer)

    # -- adaptive content -------------------------------------------------------------------
    @gated
    def action_adaptive(self) -> None:
        enabled = bool(self.site.adaptiveContent and self.site.adaptiveContent.enabled)
        self._set_adaptive(not enabled)

    @work(group="settings-edit")
    async def _set_adaptive(self, enabled: bool) -> None:
        try:
            site = await set_adaptive(self.client, self.org_id, self.site.id, enabled)
        except Exception as error:
            self.report(error)
            return
        self.editor.set_site(site)
        self.notify(f"Adaptive content {'on' if enabled else 'off'}.", timeout=3)

    @gated
    async def action_edit_schema(self) -> None:
        await edit_schema(self)


_ACTION_OF = {
    "e": "edit_title",
    "v": "visibility",
    "P": "publish",
    "A": "adaptive",
    "E": "edit_schema",
}


def site_title(site: Site) -> str:
    return site.title or site.id
