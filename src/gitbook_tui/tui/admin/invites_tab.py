"""InvitesTab: link invites (role, link) and members invited by email who have not joined;
``i`` invites by email with a role (each refused address says why), ``n``/``e``/``d`` make,
change and delete link invites, ``y`` copies a link (OSC 52)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from textual import work
from textual.binding import Binding, BindingType

from ..common.confirm_screen import ConfirmScreen
from ..common.denial import gated
from ..common.filter_box import matches
from ..common.form_screen import FormField, Values
from ..common.text import plain
from .admin_changes import delete_link, save_link
from .admin_data import (
    ROLES,
    LinkInvite,
    MemberRow,
    check_emails,
    load_link_invites,
    load_members,
    send_invites,
)
from .admin_tab import AdminHost, AdminTab
from .row_table import Cell, Column

__all__ = ["InvitesTab"]

ROLE_OPTIONS = [(role, role) for role in ROLES] + [("guest (no organization role)", "")]


def _widening(role: str | None) -> str:
    return (
        "Anyone who opens this link joins as an organization admin: they can change every "
        "space, member, team, invite and integration."
        if role == "admin"
        else f"Anyone who opens this link joins with the {role or 'guest'} role."
    )


class InvitesTab(AdminTab):
    """Link invites first, then the members invited by email who have not joined."""

    NAME = "invites"
    TITLE = "Invites"
    NOUN = ("invite", "invites")
    COLUMNS: ClassVar[Sequence[Column]] = (
        Column("Invite", 28),
        Column("Role", 7),
        Column("State", 12),
        Column("Link", 30, grow=True),
    )
    ADMIN_ACTIONS = frozenset({"invite", "new", "edit", "delete"})
    DENIED = "Only organization admins can invite people or manage invite links."

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("i", "invite", "Invite by email", id="admin.invites.invite"),
        Binding("n", "new", "New link", id="admin.invites.new"),
        Binding("e", "edit", "Change role", id="admin.invites.edit"),
        Binding("d", "delete", "Delete link", id="admin.invites.delete"),
        Binding("y", "copy", "Copy link", id="admin.invites.copy"),
    ]

    def __init__(self, host: AdminHost) -> None:
        super().__init__(host)
        self.links: list[LinkInvite] = []
        self.pending: list[MemberRow] = []
        self.members: list[MemberRow] = []
        self.links_denied = ""

    @work(exclusive=True, group="admin-invites")
    async def load(self) -> None:
        try:
            self.members = await load_members(self.client, self.org_id)
        except Exception as error:
            self.failed("the invites", error)
            return
        self.pending = [m for m in self.members if m.pending]
        self.links_denied = ""
        if self.host.is_admin:
            try:
                self.links = await load_link_invites(self.client, self.org_id, self.host.org)
            except Exception as error:
                self.failed("the invite links", error)
                return
        else:  # the server shows invite links to admins only: say so rather than a 403
            self.links = []
            self.links_denied = "invite links are shown to organization admins only"
        self.loaded = True
        self.show(key=self.current_key())

    def total(self) -> int:
        return len(self.links) + len(self.pending)

    def items(self) -> Sequence[tuple[str, Sequence[Cell]]]:
        found: list[tuple[str, Sequence[Cell]]] = []
        for link in self.links:
            state = "redundant" if link.redundant else "active"
            cells = (
                ("Link: anyone with it", ""),
                (link.role or "guest", "bold" if link.role == "admin" else ""),
                (state, "dim" if link.redundant else ""),
                (link.link, "dim"),
            )
            found.append((f"link:{link.id}", cells))
        for m in self.pending:
            cells = ((m.email or m.name, ""), (m.role_text, ""), ("not joined", "dim"), ("", ""))
            found.append((f"member:{m.id}", cells))
        needle = self.needle
        return [(k, c) for k, c in found if matches(needle, *(t for t, _ in c))]

    def empty_text(self) -> str:
        return "No invites" + (
            " · i invites by email, n makes a link" if self.host.is_admin else "."
        )

    def hint_text(self) -> str:
        if self.links_denied:
            return self.links_denied
        return "i invite by email · n new link · y copy link"

    def link(self, key: str | None) -> LinkInvite | None:
        return next((i for i in self.links if f"link:{i.id}" == key), None)

    # -- email invites ------------------------------------------------------------------------
    @gated
    async def action_invite(self) -> None:
        async def submit(values: Values) -> dict[str, str] | None:
            send, outcome = check_emails(str(values["emails"]), self.members)
            if not send:
                return {"emails": outcome.summary() if outcome.refused else "Type an address"}
            role = values["role"] or None
            if role == "admin":
                ok = await self.app.push_screen_wait(
                    ConfirmScreen(
                        "Invite as admins?",
                        f"{', '.join(send)} will join as organization admins: they can change "
                        "every space, member, team, invite and integration.",
                        confirm_label="Invite as admins",
                    )
                )
                if not ok:
                    return {"role": "Not sent (the confirmation was cancelled)"}
            outcome = await send_invites(
                self.client, self.org_id, send, role, bool(values["sso"]), outcome
            )
            if not outcome.invited:
                return {"emails": outcome.summary()}
            severity: Literal["information", "warning"] = (
                "warning" if outcome.refused or outcome.notes else "information"
            )
            self.notify(
                plain(outcome.summary()),
                title="Invites",
                severity=severity,
                timeout=15,
                markup=False,
            )
            self.load()
            return None

        fields = [
            FormField(
                "emails",
                "Email addresses (commas or spaces between them)",
                placeholder="ana@example.com, li@example.com",
            ),
            FormField("role", "Role", value="read", kind="select", options=ROLE_OPTIONS),
            FormField("sso", "Invite as SSO users", value=False, kind="check"),
        ]
        await self.open_form("Invite by email", fields, submit, target="invite:email")

    # -- link invites -------------------------------------------------------------------------
    @gated
    async def action_new(self) -> None:
        await self._link_form(None)

    @gated
    async def action_edit(self) -> None:
        link = self.link(self.current_key())
        if link is None:
            self.notify("Move to an invite link first (email invites have no role to change).")
            return
        await self._link_form(link)

    async def _link_form(self, link: LinkInvite | None) -> None:
        async def submit(values: Values) -> dict[str, str] | None:
            role = values["role"] or None
            if role == "admin" or (link is not None and (link.role != role)):
                ok = await self.app.push_screen_wait(
                    ConfirmScreen("Invite link", _widening(role), confirm_label="Save link")
                )
                if not ok:
                    return {"role": "Not saved (the confirmation was cancelled)"}
            try:
                await save_link(self.client, self.org_id, link, role)
            except Exception as error:
                return self.refusal(error, ["role"])
            self.load()
            return None

        field = FormField(
            "role",
            "Whoever joins with the link gets the role",
            value=(link.role or "") if link else "read",
            kind="select",
            options=ROLE_OPTIONS,
        )
        title = "New invite link" if link is None else "Change invite link"
        target = "link:new" if link is None else f"link:{link.id}"
        await self.open_form(title, [field], submit, target=target)

    @gated
    def action_delete(self) -> None:
        link = self.link(self.current_key())
        if link is None:
            self.notify("Move to an invite link first.")
            return

        def run() -> None:
            self._delete(link)

        effect = f"The link stops working: nobody else can join with it ({link.link})."
        self.confirm("Delete invite link?", effect, "Delete link", run)

    @work(group="admin-link-delete")
    async def _delete(self, link: LinkInvite) -> None:
        try:
            await delete_link(self.client, self.org_id, link)
        except Exception as error:
            self.report(error, "Not deleted")
            return
        self.load()

    def action_copy(self) -> None:
        link = self.link(self.current_key())
        if link is None:
            self.notify("Move to an invite link to copy it.")
            return
        self.app.copy_to_clipboard(link.link)
        self.notify(plain(f"Copied {link.link}"), timeout=3, markup=False)
