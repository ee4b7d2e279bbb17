"""PermissionsTab: who can access the space or collection chosen in Browse (``P``) — its
direct grants to users and teams (``e`` role, ``d`` remove, ``n`` grant, each confirmed
naming the effect) and everyone with access, with where it comes from and the effective role."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Static

from ..common.confirm_screen import ConfirmScreen
from ..common.denial import gated
from ..common.filter_box import matches
from ..common.form_screen import FormField, Values
from ..common.navigator import navigator_of
from ..common.text import count_of, inert, plain
from .admin_data import ROLES, role_rank
from .admin_tab import AdminHost, AdminTab
from .permissions_data import (
    Grant,
    Holder,
    PermissionsData,
    Target,
    grant_effect,
    load_permissions,
    page_title,
    removal_effect,
    remove_grant,
    resolve_holder,
    send_grant,
)
from .row_table import Cell, Column

__all__ = ["PermissionsTab"]

GRANTS, EVERYONE = "h:grants", "h:everyone"
"""The keys of the two section rows."""


def _grant_key(grant: Grant) -> str:
    return f"g:{grant.kind}:{grant.id}"


class PermissionsTab(AdminTab):
    """The permissions of one space or collection (the one Browse showed, or asked with ``P``)."""

    DEFAULT_CSS = """
    PermissionsTab #permissions-context { padding: 0 1; height: auto; }
    """

    NAME = "permissions"
    TITLE = "Permissions"
    NOUN = ("grant", "grants")
    COLUMNS: ClassVar[Sequence[Column]] = (
        Column("Who", 22),
        Column("Email / kind", 26),
        Column("Role", 7),
        Column("Access through", 30, grow=True),
    )
    GRANTS_HEAD = "Direct grants"
    EVERYONE_HEAD = "Who has access"
    DENIED = "Only admins of this space (or of the organization) change who can access it."

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "grant", "Grant", id="admin.permissions.grant"),
        Binding("e", "change", "Change role", id="admin.permissions.change"),
        Binding("d", "remove", "Remove grant", id="admin.permissions.remove"),
    ]

    def __init__(self, host: AdminHost) -> None:
        super().__init__(host)
        self.target: Target | None = None
        self.data: PermissionsData | None = None
        self.follows_browse = False
        """The target is the space open in Browse (no ``P``): it follows Browse."""

    def compose(self) -> ComposeResult:
        yield Static("", id="permissions-context")
        yield from super().compose()

    def set_target(self, target: Target, *, follows_browse: bool = False) -> None:
        """Show ``target``'s permissions (``ShowPermissions``), loaded afresh."""
        self.target = target
        self.follows_browse = follows_browse
        self.data = None
        self.loaded = False
        self._rights_changed()

    def _rights_changed(self) -> None:
        """Whether ``n``/``e``/``d`` may act depends on :attr:`data` (who may administer the
        target): the footer dims or lights them again."""
        if self.is_attached:
            self.screen.refresh_bindings()

    def focus_main(self) -> None:
        """(Each time the tab is shown.) Shown with ``]``, it follows the space open in
        Browse, unless ``P`` chose what it shows."""
        super().focus_main()
        browse = self._browse_target()
        if (self.target is None or self.follows_browse) and browse not in (None, self.target):
            assert browse is not None
            self.set_target(browse, follows_browse=True)

    def _browse_target(self) -> Target | None:
        """Without ``P``: the space open in Browse."""
        nav = navigator_of(self.app)
        space = nav.space_id if nav is not None else None
        return Target("space", space) if space else None

    @work(exclusive=True, group="admin-permissions")
    async def load(self) -> None:
        if self.target is None and (browse := self._browse_target()) is not None:
            self.set_target(browse, follows_browse=True)
        target = self.target
        if target is None:
            self.set_state("Choose a space or collection in Browse (1) and press P.")
            return
        try:
            title = await page_title(self.client, target)
            data = await load_permissions(self.client, self.org_id, target, title)
        except Exception as error:
            self.failed(f"the permissions of this {target.kind}", error)
            return
        if target != self.target:
            return  # another target was asked for meanwhile
        self.data = data
        self.loaded = True
        self._rights_changed()
        self._show_context(data)
        self.show(key=self.current_key())

    def _show_context(self, data: PermissionsData) -> None:
        parts: list[Content | str] = [inert(data.what[0].upper() + data.what[1:], style="bold")]
        if data.chain:
            parts.append(inert(" · in " + " › ".join(reversed(data.chain)), style="dim"))
        parts.append(inert(f"\nInherited level: {data.inherited}."))
        if data.target.page_id is not None:
            page = data.page_title or "this page"
            parts.append(
                inert(
                    f"\nWho can see the page “{page}”? A page has no permissions of its "
                    f"own: everyone with access to {data.what} (below) can see it.",
                    style="italic",
                )
            )
        self.query_one("#permissions-context", Static).update(Content.assemble(*parts))

    # -- rows ---------------------------------------------------------------------------------
    def total(self) -> int:
        return len(self.data.grants) + len(self.data.everyone) if self.data else 0

    def items(self) -> Sequence[tuple[str, Sequence[Cell]]]:
        data = self.data
        if data is None:
            return []
        needle = self.needle
        words = needle.split()

        grants: list[tuple[str, Sequence[Cell]]] = []
        for g in data.grants:
            detail = f"team · {g.detail}" if g.kind == "team" else g.detail
            if matches(needle, g.name, detail, g.role, "direct"):
                cells = ((g.name, "bold"), (detail, "dim"), (g.role, ""), ("direct grant", ""))
                grants.append((_grant_key(g), cells))
        everyone: list[tuple[str, Sequence[Cell]]] = []
        for a in data.everyone:
            via = " · ".join(a.via)
            if matches(needle, a.name, a.email, a.role, via):
                everyone.append(
                    (f"a:{a.user_id}", ((a.name, ""), (a.email, "dim"), (a.role, ""), (via, "dim")))
                )
        rows: list[tuple[str, Sequence[Cell]]] = []
        if grants or not words:
            count = count_of(len(data.grants), "grant")
            head = ((self.GRANTS_HEAD, "bold underline"), (count, "dim"), ("", ""), ("", ""))
            rows.append((GRANTS, head))
            rows += grants
        if everyone or not words:
            count = count_of(len(data.everyone), "person", "people")
            head = ((self.EVERYONE_HEAD, "bold underline"), (count, "dim"), ("", ""), ("", ""))
            rows.append((EVERYONE, head))
            rows += everyone
        return rows

    def show(self, *, cursor: int | None = None, key: str | None = None) -> None:
        super().show(cursor=cursor, key=key)
        data = self.data
        if data is None or not self.loaded:
            return
        shown = sum(1 for k in self.shown_keys if k.startswith(("g:", "a:")))
        if self.needle and not shown:
            self.set_state(f"Nothing matches “{self.needle}” — escape clears the filter")
            return
        people = len(data.everyone)
        text = f"{len(data.grants)} direct grants · {people} people with access"
        if self.needle:
            rows = len(data.grants) + people
            text = f"{shown} of {rows} rows match “{self.needle}” · escape clears"
        elif data.can_admin:
            text += " · n grant · e role · d remove"
        else:
            text += " · read-only"
        self.set_state(text)

    def empty_text(self) -> str:
        return "Nobody can access this (no grants, no members)."

    # -- which grant the cursor is on -----------------------------------------------------------
    def grant_at(self, key: str | None) -> Grant | None:
        """The direct grant of the row (a person under "everyone" means their own grant)."""
        data = self.data
        if data is None or key is None:
            return None
        if key.startswith("g:"):
            kind, _, holder = key[2:].partition(":")
            return data.grant_of("team" if kind == "team" else "user", holder)
        if key.startswith("a:"):
            return data.grant_of("user", key[2:])
        return None

    def _no_grant(self, key: str | None) -> None:
        data = self.data
        access = data.access_of(key[2:]) if data is not None and key and key[:2] == "a:" else None
        if access is not None:
            via = ", ".join(access.via) or "somewhere else"
            text = (
                f"{access.name} has no direct grant here: access comes through {via}. "
                "n grants a role directly."
            )
        else:
            text = "Put the cursor on a direct grant (or a person with one)."
        self.notify(plain(text), timeout=8, markup=False)

    def denial_reason(self, action: str) -> str | None:
        if action in {"grant", "change", "remove"} and not (self.data and self.data.can_admin):
            return self.DENIED if self.data is not None else "Loading…"
        return None

    def open_row(self, key: str) -> None:
        """``enter``: a person's access in full (the column cuts it), or a grant's role form."""
        data = self.data
        access = data.access_of(key[2:]) if data is not None and key[:2] == "a:" else None
        if data is not None and access is not None:
            via = " · ".join(access.via) or "nowhere listed"
            text = f"{access.name}: {access.role} on {data.what}, through {via}."
            self.notify(plain(text), title="Where the access comes from", timeout=10, markup=False)
        elif self.grant_at(key) is not None and self.denial_reason("change") is None:
            self.run_worker(self.action_change())

    # -- actions --------------------------------------------------------------------------------
    async def _send(self, holder: Holder, role: str, *, new: bool) -> None:
        assert self.data is not None
        await send_grant(self.client, self.data.target, holder, role, new=new)

    async def _confirmed(self, title: str, effect: str, label: str) -> bool:
        ok = await self.app.push_screen_wait(ConfirmScreen(title, effect, confirm_label=label))
        return bool(ok)

    @gated
    async def action_grant(self) -> None:
        data = self.data
        if data is None:
            return

        def who_hint(values: Values) -> str:
            holder, problem = resolve_holder(str(values.get("who", "")), data)
            if holder is None:
                return problem if str(values.get("who", "")).strip() else ""
            grant = data.grant_of(holder.kind, holder.id)
            kind = "team" if holder.kind == "team" else "member"
            return f"→ {kind} {holder.name}" + (f" (has {grant.role} now)" if grant else "")

        async def submit(values: Values) -> dict[str, str] | None:
            holder, problem = resolve_holder(str(values["who"]), data)
            if holder is None:
                return {"who": problem}
            role = str(values["role"])
            before = data.grant_of(holder.kind, holder.id)
            effect = grant_effect(data, holder, role, before.role if before else None)
            if not await self._confirmed(f"Grant {role} to {holder.name}?", effect, "Grant"):
                return {"": "Not granted (the confirmation was cancelled)"}
            try:
                await self._send(holder, role, new=before is None)
            except Exception as error:
                return self.refusal(error, ["who", "role"])
            self._done(effect, "Granted")
            return None

        fields = [
            FormField(
                "who",
                "Member (email or name) or team",
                placeholder="ravi@… or Docs guild",
                hint=who_hint,
            ),
            FormField("role", "Role", value="read", kind="select", options=[(r, r) for r in ROLES]),
        ]
        target = f"grant:{data.target.kind}:{data.target.id}"
        await self.open_form(f"Grant access · {data.title}", fields, submit, target=target)

    @gated
    async def action_change(self) -> None:
        data, key = self.data, self.current_key()
        grant = self.grant_at(key)
        if data is None or grant is None:
            self._no_grant(key)
            return
        holder = Holder(grant.kind, grant.id, grant.name)

        async def submit(values: Values) -> dict[str, str] | None:
            role = str(values["role"])
            if role == grant.role:
                return {"role": f"{grant.name} already has {role} here"}
            effect = grant_effect(data, holder, role, grant.role)
            raising = role_rank(role) > role_rank(grant.role)
            if raising and not await self._confirmed(f"Raise {grant.name}?", effect, "Change role"):
                return {"role": "Not changed (the confirmation was cancelled)"}
            try:
                await self._send(holder, role, new=False)
            except Exception as error:
                return self.refusal(error, ["role"])
            self._done(effect, "Role changed")
            return None

        label = f"Role of {grant.name} on {data.what}"
        field = FormField(
            "role", label, value=grant.role, kind="select", options=[(r, r) for r in ROLES]
        )
        target = f"grant:{data.target.id}:{grant.kind}:{grant.id}"
        await self.open_form(f"Change role · {grant.name}", [field], submit, target=target)

    @gated
    def action_remove(self) -> None:
        data, key = self.data, self.current_key()
        grant = self.grant_at(key)
        if data is None or grant is None:
            self._no_grant(key)
            return

        def run() -> None:
            self._remove(grant, removal_effect(data, grant))

        title = f"Remove the grant of {grant.name}?"
        self.confirm(title, removal_effect(data, grant), "Remove grant", run)

    @work(group="admin-permission-remove")
    async def _remove(self, grant: Grant, effect: str) -> None:
        assert self.data is not None
        try:
            await remove_grant(self.client, self.data.target, grant)
        except Exception as error:
            self.report(error, "Not removed")
            return
        self._done(effect, "Grant removed")

    def _done(self, effect: str, title: str) -> None:
        self.notify(plain(effect), title=title, markup=False)
        self.load()
