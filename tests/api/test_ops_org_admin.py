"""Client organization administration operations against the in-process local server."""

from __future__ import annotations

from typing import Any

import pytest

from gitbook_tui.api import AsyncGitBook, BadRequestError, NotFoundError, PermissionDeniedError
from gitbook_tui.api.resource import NULL
from gitbook_tui.models import Invite, InviteResult, Page, Team, TranslationSettings
from support.builders import ids
from support.worlds import Clients


async def roles(gb: AsyncGitBook, org: str) -> dict[str, Any]:
    """Member email -> role, read through the client."""
    return {m.user.email if m.user else m.id: m.role async for m in gb.orgs.members(org, limit=100)}


async def test_email_invites(gb: AsyncGitBook, connect: Clients, world: Any) -> None:
    org = world.org
    result = await gb.org_admin.invite(
        org, ["new.person@acme.test", {"email": "otto@acme.test", "role": "edit"}], role="comment"
    )
    assert isinstance(result, InviteResult)
    assert result.invited == 2 and world.users["otto"] in result.users
    assert result.failedSSOEmails == []
    members = await roles(gb, org)
    assert (members["new.person@acme.test"], members["otto@acme.test"]) == ("comment", "edit")

    guest = await gb.org_admin.invite(org, ["guest@acme.test"], role=NULL, sso=True)
    assert guest.invited == 1 and guest.failedSSOEmails == ["guest@acme.test"]  # no SSO here
    defaulted = await gb.org_admin.invite(org, ["plain@acme.test"])
    assert defaulted.invited == 1
    members = await roles(gb, org)
    assert members["guest@acme.test"] is None and members["plain@acme.test"] == "read"
    again = await gb.org_admin.invite(org, ["new.person@acme.test"])
    assert (again.invited, again.users) == (0, [])

    with pytest.raises(PermissionDeniedError):
        await connect("rhea").org_admin.invite(org, ["x@acme.test"])
    with pytest.raises(BadRequestError) as info:
        await gb.org_admin.invite(org, ["not-an-email"])
    assert "not-an-email" in info.value.message
    with pytest.raises(NotFoundError):
        await connect("otto").org_admin.invite(world.other_org + "x", ["y@acme.test"])


async def test_link_invites_and_joining(gb: AsyncGitBook, connect: Clients, world: Any) -> None:
    org = world.org
    assert (await gb.org_admin.link_invites(org)).items == []
    link = await gb.org_admin.create_link_invite(org, "comment")
    assert isinstance(link, Invite) and (link.role, link.redundant) == ("comment", False)
    guest_link = await gb.org_admin.create_link_invite(org, None)
    assert guest_link.role is None and guest_link.redundant is True

    page = await gb.org_admin.link_invites(org, limit=1)
    assert isinstance(page, Page) and [i.id for i in page.items] == [link.id]
    assert await ids(gb.org_admin.link_invites(org)) == [link.id, guest_link.id]
    assert (await gb.org_admin.link_invite(org, link.id)).role == "comment"

    changed = await gb.org_admin.update_link_invite(org, link.id, "edit")
    assert changed.role == "edit"
    assert (await gb.org_admin.link_invite(org, link.id)).role == "edit"

    otto = connect("otto")
    with pytest.raises(NotFoundError):
        await otto.orgs.get(org)
    assert await otto.org_admin.resend_invite(org, link.id) is None
    assert (await otto.orgs.get(org)).id == org
    assert (await roles(gb, org))["otto@acme.test"] == "edit"
    with pytest.raises(NotFoundError):
        await otto.org_admin.resend_invite(org, "no-such-invite")

    with pytest.raises(PermissionDeniedError):
        await connect("rhea").org_admin.link_invites(org)
    with pytest.raises(PermissionDeniedError):
        await connect("carol").org_admin.create_link_invite(org, "admin")

    await gb.org_admin.delete_link_invite(org, link.id)
    with pytest.raises(NotFoundError):
        await gb.org_admin.link_invite(org, link.id)
    assert await ids(gb.org_admin.link_invites(org)) == [guest_link.id]
    await gb.org_admin.delete_link_invite(org, link.id)  # already gone: 204, no error


async def test_teams(gb: AsyncGitBook, connect: Clients, world: Any) -> None:
    org, users = world.org, world.users
    writers = await gb.org_admin.create_team(org, "Writers", members=[users["carol"], users["eve"]])
    assert isinstance(writers, Team)
    assert (writers.title, writers.members, writers.spaces) == ("Writers", 2, 0)
    empty = await gb.org_admin.create_team(org, "Reviewers")
    assert empty.members == 0

    page = await gb.org_admin.teams(org, limit=1)
    assert isinstance(page, Page) and len(page.items) == 1 and page.next is not None
    assert await ids(gb.org_admin.teams(org)) == [writers.id, empty.id]
    assert await ids(gb.org_admin.teams(org, title="WRIT")) == [writers.id]
    assert await ids(gb.org_admin.teams(org, owner=users["alice"])) == [writers.id, empty.id]
    assert await ids(gb.org_admin.teams(org, owner=users["carol"])) == []
    assert await ids(connect("rhea").org_admin.teams(org)) == [writers.id, empty.id]

    got = await gb.org_admin.team(org, writers.id)
    assert (got.id, got.members) == (writers.id, 2)
    assert got.permissions is not None and got.permissions.admin is True
    renamed = await gb.org_admin.update_team(org, writers.id, "Authors")
    assert renamed.title == "Authors"
    assert (await gb.org_admin.team(org, writers.id)).title == "Authors"

    with pytest.raises(PermissionDeniedError):
        await connect("rhea").org_admin.create_team(org, "Readers")
    with pytest.raises(PermissionDeniedError):
        await connect("carol").org_admin.update_team(org, writers.id, "Mine")
    with pytest.raises(BadRequestError) as info:
        await gb.org_admin.create_team(org, "Strangers", members=["no-such-user"])
    assert "members" in info.value.message
    with pytest.raises(NotFoundError):
        await gb.org_admin.team(org, "no-such-team")

    await gb.org_admin.delete_team(org, empty.id)
    with pytest.raises(NotFoundError):
        await gb.org_admin.team(org, empty.id)
    assert await ids(gb.org_admin.teams(org)) == [writers.id]


async def test_translations(gb: AsyncGitBook, connect: Clients, world: Any) -> None:
    org = world.org
    french = await gb.org_admin.create_translation(org, "French", languages=["fr", "de", "fr"])
    assert isinstance(french, TranslationSettings)
    assert (french.title, french.languages) == ("French", ["fr", "de"])
    bare = await gb.org_admin.create_translation(org, "Later")
    assert bare.languages == []

    page = await gb.org_admin.translations(org)
    assert isinstance(page, Page) and [t.id for t in page.items] == [french.id, bare.id]
    assert await ids(gb.org_admin.translations(org, max_items=1)) == [french.id]
    got = await gb.org_admin.translation(org, french.id)
    assert got.languages == ["fr", "de"] and got.permissions is not None and got.permissions.edit

    replaced = await gb.org_admin.update_translation(
        org, french.id, "French only", languages=["fr"]
    )
    assert (replaced.title, replaced.languages) == ("French only", ["fr"])
    read_back = await gb.org_admin.translation(org, french.id)
    assert (read_back.title, read_back.languages) == ("French only", ["fr"])

    reader = connect("rhea")
    assert (await reader.org_admin.translation(org, french.id)).title == "French only"
    with pytest.raises(PermissionDeniedError):
        await reader.org_admin.create_translation(org, "Spanish", languages=["es"])
    with pytest.raises(PermissionDeniedError):
        await reader.org_admin.delete_translation(org, french.id)
    with pytest.raises(BadRequestError) as info:
        await gb.org_admin.create_translation(org, "Klingon", languages=["tlh"])
    assert "languages" in info.value.message

    await gb.org_admin.delete_translation(org, bare.id)
    with pytest.raises(NotFoundError):
        await gb.org_admin.translation(org, bare.id)
    assert await ids(gb.org_admin.translations(org)) == [french.id]
    await gb.org_admin.delete_translation(org, bare.id)  # already gone: 204, no error
