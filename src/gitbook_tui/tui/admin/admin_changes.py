"""Admin changes: what the Members, Teams and Invites tabs send to the server — roles,
removals, teams and their members, invite links — as plain async functions of the client
(no Textual here)."""

from __future__ import annotations

from ...api import AsyncGitBook
from ...markdown.sanitize import clean_text
from ...models import Organization
from .admin_data import LinkInvite, MemberRow, TeamRow

__all__ = [
    "change_role",
    "delete_link",
    "delete_team",
    "load_org",
    "member_space_titles",
    "remove_member",
    "save_link",
    "save_team",
]


async def load_org(client: AsyncGitBook, org_id: str) -> tuple[Organization, str]:
    """The organization (what the caller may do there) and the caller's user id."""
    org = await client.orgs.get(org_id)
    me = await client.users.me()
    return org, me.id


async def change_role(
    client: AsyncGitBook, org_id: str, member: MemberRow, role: str | None
) -> None:
    """Give ``member`` the organization role ``role`` (``None``: a guest)."""
    await client.orgs.update_member(org_id, member.id, role=role)


async def member_space_titles(client: AsyncGitBook, org_id: str, member: MemberRow) -> list[str]:
    """The titles of the spaces ``member`` reaches (what removing them takes away)."""
    found = await client.orgs.member_spaces(org_id, member.id, limit=1000).to_list()
    return [clean_text(s.space.title or s.space.id) for s in found if s.space is not None]


async def remove_member(client: AsyncGitBook, org_id: str, member: MemberRow) -> None:
    await client.orgs.remove_member(org_id, member.id)


async def save_team(
    client: AsyncGitBook, org_id: str, team: TeamRow | None, title: str, members: list[str]
) -> str:
    """Create the team (``team`` ``None``) with ``members``, or rename it and add and
    remove members so it has exactly ``members``; the team's id."""
    if team is None:
        made = await client.org_admin.create_team(org_id, title, members=members)
        return made.id
    if title != team.title:
        await client.org_admin.update_team(org_id, team.id, title)
    before = set(team.member_ids or ())
    add = [m for m in members if m not in before]
    remove = [m for m in before if m not in set(members)]
    if add or remove:
        await client.org_admin.update_team_members(org_id, team.id, add=add, remove=remove)
    return team.id


async def delete_team(client: AsyncGitBook, org_id: str, team: TeamRow) -> None:
    await client.org_admin.delete_team(org_id, team.id)


async def save_link(
    client: AsyncGitBook, org_id: str, link: LinkInvite | None, role: str | None
) -> None:
    """Make an invite link giving ``role`` (``link`` ``None``), or change ``link``'s role."""
    if link is None:
        await client.org_admin.create_link_invite(org_id, role)
    else:
        await client.org_admin.update_link_invite(org_id, link.id, role)


async def delete_link(client: AsyncGitBook, org_id: str, link: LinkInvite) -> None:
    await client.org_admin.delete_link_invite(org_id, link.id)
