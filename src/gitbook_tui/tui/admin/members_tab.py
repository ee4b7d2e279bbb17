"""MembersTab: the organization's members (name, email, role, last seen, SSO/disabled/invited);
``/`` filters, ``f`` cycles the role filter, ``e`` changes a role, ``d`` removes a member."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType

from ..common.confirm_screen import ConfirmScreen
from ..common.denial import gated
from ..common.form_screen import FormField, Values
from ..common.text import plain
from .admin_changes import change_role, member_space_titles, remove_member
from .admin_data import (
    ROLES,
    MemberRow,
    ago,
    filter_members,
    load_members,
    removal_effect,
    role_change_effect,
    role_rank,
)
from .admin_tab import AdminHost, AdminTab
from .row_table import Cell, Column, LazyRows

__all__ = ["MembersTab"]

ROLE_FILTERS = ("", *ROLES, "guest")


class MembersTab(AdminTab):
    """Members of the organization, by name."""

    NAME = "members"
    TITLE = "Members"
    NOUN = ("member", "members")
    COLUMNS: ClassVar[Sequence[Column]] = (
        Column("Name", 20, grow=True),
        Column("Email", 24, grow=True),
        Column("Role", 7),
        Column("Last seen", 9),
        Column("Flags", 12),
    )
    ADMIN_ACTIONS = frozenset({"change_role", "remove"})
    DENIED = "Only organization admins can change roles or remove members."

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "role_filter", "Role filter", id="admin.members.role_filter"),
        Binding("e", "change_role", "Change role", id="admin.members.change_role"),
        Binding("d", "remove", "Remove", id="admin.members.remove"),
    ]

    def __init__(self, host: AdminHost) -> None:
        super().__init__(host)
        self.members: list[MemberRow] = []
        self.role = ""
        """The role filter ("" every role; "guest" members without one)."""
        self.now = datetime.now(UTC)

    @work(exclusive=True, group="admin-members")
    async def load(self) -> None:
        try:
            members = await load_members(self.client, self.org_id)
        except Exception as error:
            self.failed("the members", error)
            return
        self.members = members
        self.now = datetime.now(UTC)
        self.loaded = True
        self.show(key=self.current_key())

    def total(self) -> int:
        return len(self.members)

    def items(self) -> Sequence[tuple[str, Sequence[Cell]]]:
        now = self.now
        return [
            (m.id, self._cells(m, now))
            for m in filter_members(self.members, self.needle, self.role)
        ]

    def listing(self) -> tuple[list[str], Sequence[Sequence[Cell]]]:
        """The matching members' ids, and their rows made only when drawn (5,000 members:
        the first screen draws about 40)."""
        found = filter_members(self.members, self.needle, self.role)
        now = self.now
        return [m.id for m in found], LazyRows(found, lambda m: self._cells(m, now))

    @staticmethod
    def _cells(m: MemberRow, now: datetime) -> Sequence[Cell]:
        return (
            (m.name, "bold" if m.role == "admin" else ""),
            (m.email, ""),
            (m.role_text, "" if m.role else "dim"),
            (ago(m.last_seen, now), "dim" if m.last_seen is None else ""),
            (m.flags, "dim"),
        )

    def hint_text(self) -> str:
        return "f role filter · e change role · d remove" if self.host.is_admin else "read-only"

    def show(self, *, cursor: int | None = None, key: str | None = None) -> None:
        super().show(cursor=cursor, key=key)
        if self.role and self.loaded:
            shown = len(self.shown_keys)
            role = "guests" if self.role == "guest" else f"role {self.role}"
            needle = f" matching “{self.needle}”" if self.needle else ""
            if not shown:
                self.set_state(f"No members match: {role}{needle} · f next role, escape clears")
            else:
                self.set_state(
                    f"{shown} of {len(self.members)} members · {role}{needle} · f next role"
                )

    def member(self, key: str | None) -> MemberRow | None:
        return next((m for m in self.members if m.id == key), None)

    # -- actions ------------------------------------------------------------------------------
    def action_role_filter(self) -> None:
        self.role = ROLE_FILTERS[(ROLE_FILTERS.index(self.role) + 1) % len(ROLE_FILTERS)]
        if self.loaded:
            self.show(cursor=0)

    @gated
    async def action_change_role(self) -> None:
        row = self.member(self.current_key())
        if row is None:
            return
        options = [(role, role) for role in ROLES] + [("guest (no organization role)", "")]

        async def submit(values: Values) -> dict[str, str] | None:
            role = values["role"] or None
            if role == row.role:
                return {"role": f"{row.name} already has this role"}
            if role == "admin" or role_rank(role) > role_rank(row.role):
                ok = await self.app.push_screen_wait(
                    ConfirmScreen(
                        f"Raise {row.name}?",
                        role_change_effect(row, role),
                        confirm_label="Change role",
                    )
                )
                if not ok:
                    return {"role": "Not changed (the confirmation was cancelled)"}
            try:
                await change_role(self.client, self.org_id, row, role)
            except Exception as error:
                return self.refusal(error, ["role"])
            self.notify(plain(role_change_effect(row, role)), title="Role changed", markup=False)
            self.load()
            return None

        field = FormField(
            "role",
            f"Role of {row.name} ({row.email})",
            value=row.role or "",
            kind="select",
            options=options,
        )
        await self.open_form(f"Change role · {row.name}", [field], submit, target=f"role:{row.id}")

    @gated
    def action_remove(self) -> None:
        row = self.member(self.current_key())
        if row is not None:
            self._ask_remove(row)

    @work(exclusive=True, group="admin-member-remove")
    async def _ask_remove(self, row: MemberRow) -> None:
        try:
            titles = await member_space_titles(self.client, self.org_id, row)
        except Exception as error:
            self.report(error, "Could not check what they would lose")
            return
        ok = await self.app.push_screen_wait(
            ConfirmScreen(
                f"Remove {row.name}?", removal_effect(row, titles), confirm_label="Remove member"
            )
        )
        if not ok:
            return
        try:
            await remove_member(self.client, self.org_id, row)
        except Exception as error:
            self.report(error, "Not removed")
            return
        self.notify(plain(f"Removed {row.name} from the organization."), markup=False)
        self.load()
