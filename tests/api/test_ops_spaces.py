"""Client collection, space and permission operations against the in-process local server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.api import (
    AsyncGitBook,
    BadRequestError,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
)
from gitbook_tui.api.resource import NULL
from gitbook_tui.cache import ResponseCache
from gitbook_tui.models import (
    Collection,
    EditMode,
    Page,
    PermissionEntry,
    Role,
    Space,
    SpaceVisibility,
)
from support.builders import ids
from support.worlds import Clients

# -- collections --------------------------------------------------------------------------


async def test_collection_create_list_get_update(gb: AsyncGitBook, world: Any) -> None:
    org = world.org
    guides = await gb.collections.create(org, title="Guides")
    assert isinstance(guides, Collection)
    assert (guides.title, guides.organization, guides.parent) == ("Guides", org, None)
    nested = await gb.collections.create(org, title="Nested", parent=guides.id)
    assert nested.parent == guides.id
    api = await gb.collections.create(org, title="API")

    first = await gb.collections.list(org, limit=1)
    assert isinstance(first, Page) and len(first.items) == 1 and first.next is not None
    assert await ids(gb.collections.list(org, limit=1)) == [guides.id, nested.id, api.id]
    assert await ids(gb.collections.list(org, nested=False)) == [guides.id, api.id]
    assert await ids(gb.collections.list(org, max_items=2)) == [guides.id, nested.id]

    got = await gb.collections.get(nested.id)
    assert isinstance(got, Collection) and got.title == "Nested"
    updated = await gb.collections.update(
        guides.id, title="Handbooks", description="How-tos", default_level=Role.read
    )
    assert (updated.title, updated.description, updated.defaultLevel) == (
        "Handbooks",
        "How-tos",
        Role.read,
    )
    cleared = await gb.collections.update(guides.id, description=NULL, default_level=NULL)
    assert (cleared.title, cleared.description, cleared.defaultLevel) == ("Handbooks", None, None)
    assert (await gb.collections.get(guides.id)).title == "Handbooks"
    with pytest.raises(BadRequestError):
        await gb.collections.update(guides.id)  # nothing to change


async def test_collection_spaces_move_transfer_delete(gb: AsyncGitBook, world: Any) -> None:
    org = world.org
    outer = await gb.collections.create(org, title="Outer")
    inner = await gb.collections.create(org, title="Inner", parent=outer.id)
    one = await gb.spaces.create_in_org(org, title="One", parent=inner.id)
    two = await gb.spaces.create_in_org(org, title="Two", parent=inner.id)
    assert one.visibility == SpaceVisibility.in_collection
    listed = [s async for s in gb.collections.spaces(inner.id, limit=1)]
    assert [s.id for s in listed] == [one.id, two.id] and isinstance(listed[0], Space)

    moved = await gb.collections.move(inner.id, parent=NULL)
    assert isinstance(moved, Collection) and moved.parent is None
    assert await ids(gb.collections.list(org, nested=False)) == [outer.id, inner.id]
    await gb.collections.move(inner.id, before=outer.id)
    assert await ids(gb.collections.list(org, nested=False)) == [inner.id, outer.id]
    back = await gb.collections.move(inner.id, parent=outer.id)
    assert back.parent == outer.id
    with pytest.raises(ConflictError):
        await gb.collections.move(inner.id, parent=outer.id)  # nothing would change

    transferred = await gb.collections.transfer(outer.id, world.other_org)
    assert isinstance(transferred, Collection) and transferred.organization == world.other_org
    assert (await gb.collections.get(inner.id)).organization == world.other_org
    assert (await gb.spaces.get(one.id)).organization == world.other_org
    assert await ids(gb.collections.list(world.other_org)) == [outer.id, inner.id]
    assert await ids(gb.collections.list(org)) == []

    assert await gb.collections.delete(outer.id) is None
    with pytest.raises(NotFoundError):
        await gb.collections.get(outer.id)
    with pytest.raises(NotFoundError):
        await gb.collections.get(inner.id)
    with pytest.raises(NotFoundError):
        await gb.spaces.get(one.id)  # in the trash with its collection


async def test_collection_errors(connect: Clients, world: Any) -> None:
    gb, rhea = connect("alice"), connect("rhea")
    coll = await gb.collections.create(world.org, title="Locked")
    with pytest.raises(PermissionDeniedError) as denied:
        await rhea.collections.update(coll.id, title="Mine")
    assert "admin" in denied.value.message
    with pytest.raises(PermissionDeniedError):
        await rhea.collections.create(world.org, title="Nope")
    with pytest.raises(NotFoundError):
        await gb.collections.get("no-such-collection")
    with pytest.raises(ValueError):
        gb.collections.list(world.org, limit=0)


# -- spaces -------------------------------------------------------------------------------


async def test_space_create_list_get_update(gb: AsyncGitBook, world: Any) -> None:
    org = world.org
    created = [await gb.spaces.create_in_org(org, title=f"Space {i}") for i in range(3)]
    first = created[0]
    assert isinstance(first, Space) and (first.title, first.organization) == ("Space 0", org)
    assert first.visibility == SpaceVisibility.private and first.revision
    public = await gb.spaces.create_in_org(org, title="Public", emoji="📘", visibility="public")
    assert (public.emoji, public.visibility) == ("📘", SpaceVisibility.public)

    page = await gb.spaces.list_in_org(org, limit=2)
    assert len(page.items) == 2 and page.next is not None
    assert await ids(gb.spaces.list_in_org(org, limit=2)) == [s.id for s in [*created, public]]

    got = await gb.spaces.get(first.id)
    assert isinstance(got, Space) and got.id == first.id and got.permissions
    assert got.permissions.admin is True
    updated = await gb.spaces.update(
        first.id, title="Renamed", emoji="🚀", edit_mode=EditMode.locked, default_level="comment"
    )
    assert (updated.title, updated.emoji, updated.editMode, updated.defaultLevel) == (
        "Renamed",
        "🚀",
        EditMode.locked,
        Role.comment,
    )
    reread = await gb.spaces.get(first.id)
    assert (reread.title, reread.editMode) == ("Renamed", EditMode.locked)
    with pytest.raises(PermissionDeniedError):
        await gb.spaces.update(first.id, title="While locked")
    unlocked = await gb.spaces.update(first.id, edit_mode="live", default_level=NULL)
    assert (unlocked.editMode, unlocked.defaultLevel) == (EditMode.live, None)


async def test_space_delete_restore_duplicate(gb: AsyncGitBook, world: Any) -> None:
    space = await gb.spaces.create_in_org(world.org, title="Handbook")
    copy = await gb.spaces.duplicate(space.id)
    assert isinstance(copy, Space) and copy.id != space.id
    assert (copy.title, copy.organization) == ("Handbook (copy)", world.org)
    assert await ids(gb.spaces.list_in_org(world.org)) == [space.id, copy.id]

    assert await gb.spaces.delete(space.id) is None
    with pytest.raises(NotFoundError):
        await gb.spaces.get(space.id)
    assert await ids(gb.spaces.list_in_org(world.org)) == [copy.id]
    restored = await gb.spaces.restore(space.id)
    assert isinstance(restored, Space) and not restored.is_deleted
    assert (await gb.spaces.get(space.id)).title == "Handbook"
    with pytest.raises(BadRequestError) as not_deleted:
        await gb.spaces.restore(space.id)
    assert "not deleted" in not_deleted.value.message


async def test_space_move_and_transfer(gb: AsyncGitBook, world: Any) -> None:
    org = world.org
    coll = await gb.collections.create(org, title="Shelf")
    a = await gb.spaces.create_in_org(org, title="A")
    b = await gb.spaces.create_in_org(org, title="B")
    inside = await gb.spaces.move(a.id, parent=coll.id)
    assert isinstance(inside, Space) and inside.parent == coll.id
    assert await ids(gb.collections.spaces(coll.id)) == [a.id]
    assert await ids(gb.spaces.list_in_org(org)) == [b.id]
    out = await gb.spaces.move(a.id, parent=NULL, before=b.id)
    assert out.parent is None
    assert await ids(gb.spaces.list_in_org(org)) == [a.id, b.id]
    await gb.spaces.move(a.id, after=b.id)
    assert await ids(gb.spaces.list_in_org(org)) == [b.id, a.id]

    moved = await gb.spaces.transfer(b.id, world.other_org)
    assert isinstance(moved, Space) and moved.organization == world.other_org
    assert await ids(gb.spaces.list_in_org(world.other_org)) == [b.id]
    with pytest.raises(ConflictError):
        await gb.spaces.transfer(b.id, world.other_org)


async def test_space_errors(connect: Clients, world: Any) -> None:
    gb, rhea = connect("alice"), connect("rhea")
    space = await gb.spaces.create_in_org(world.org, title="Private", visibility="private")
    assert (await rhea.spaces.get(space.id)).permissions.admin is False  # type: ignore[union-attr]
    with pytest.raises(PermissionDeniedError) as denied:
        await rhea.spaces.update(space.id, title="Mine")
    assert denied.value.status == 403
    with pytest.raises(PermissionDeniedError):
        await rhea.spaces.delete(space.id)
    with pytest.raises(NotFoundError) as missing:
        await gb.spaces.get("no-such-space")
    assert "no-such-space" in missing.value.message
    with pytest.raises(NotFoundError):
        await connect("otto").spaces.get(space.id)


async def test_space_mutations_refresh_cached_lists(
    connect: Clients, world: Any, tmp_path: Path
) -> None:
    cache = ResponseCache(tmp_path / "client-cache.sqlite")
    gb = connect("alice", cache=cache, read_mode="prefer-cache")
    space = await gb.spaces.create_in_org(world.org, title="Cached")
    assert [s.title for s in (await gb.spaces.list_in_org(world.org)).items] == ["Cached"]
    await gb.spaces.update(space.id, title="Renamed")
    # the list was dropped from the cache: prefer-cache has to ask the server again
    assert [s.title for s in (await gb.spaces.list_in_org(world.org)).items] == ["Renamed"]
    assert (await gb.spaces.get(space.id)).title == "Renamed"
    cache.close()


# -- permissions --------------------------------------------------------------------------


async def test_space_permissions(connect: Clients, world: Any) -> None:
    gb = connect("alice")
    space = await gb.spaces.create_in_org(world.org, title="Shared")
    otto = world.users["otto"]  # not a member of the organization
    assert await gb.permissions.list_users(space_id=space.id).to_list() == []
    assert await gb.permissions.invite(space_id=space.id, users=[otto], role="comment") is None
    [entry] = await gb.permissions.list_users(space_id=space.id).to_list()
    assert isinstance(entry, PermissionEntry)
    assert (entry.permission, entry.user and entry.user.id) == (Role.comment, otto)
    assert (await connect("otto").spaces.get(space.id)).id == space.id

    await gb.permissions.update_user(otto, space_id=space.id, role=Role.edit)
    [entry] = await gb.permissions.list_users(space_id=space.id).to_list()
    assert entry.permission == Role.edit

    everyone = [e async for e in gb.permissions.aggregate(space_id=space.id, limit=3)]
    by_user = {e.user.id: e.permission for e in everyone if e.user}
    assert by_user[world.users["alice"]] == Role.admin and by_user[otto] == Role.edit
    assert by_user[world.users["rhea"]] == Role.read and len(everyone) == 7
    admins = await gb.permissions.aggregate(space_id=space.id, role="admin").to_list()
    assert [e.user.id for e in admins if e.user] == [world.users["alice"]]

    await gb.permissions.update_user(otto, space_id=space.id, role=None)  # guest
    [entry] = await gb.permissions.list_users(space_id=space.id).to_list()
    assert entry.permission == Role.read
    assert await gb.permissions.remove_user(otto, space_id=space.id) is None
    assert await gb.permissions.list_users(space_id=space.id).to_list() == []
    with pytest.raises(NotFoundError):
        await gb.permissions.update_user(otto, space_id=space.id, role="read")


async def test_collection_permissions(connect: Clients, world: Any) -> None:
    gb = connect("alice")
    coll = await gb.collections.create(world.org, title="Team")
    space = await gb.spaces.create_in_org(world.org, title="Inside", parent=coll.id)
    otto = world.users["otto"]
    await gb.permissions.invite(collection_id=coll.id, users=[otto], role="read")
    [entry] = await gb.permissions.list_users(collection_id=coll.id).to_list()
    assert (entry.permission, entry.user and entry.user.id) == (Role.read, otto)
    await gb.permissions.update_user(otto, collection_id=coll.id, role="review")
    aggregate = await gb.permissions.aggregate(collection_id=coll.id, role="review").to_list()
    assert [e.user.id for e in aggregate if e.user] == [world.users["rita"], otto]
    # the grant reaches the spaces of the collection
    inherited = await gb.permissions.aggregate(space_id=space.id, role="review").to_list()
    assert otto in [e.user.id for e in inherited if e.user]
    assert (await connect("otto").spaces.get(space.id)).id == space.id

    with pytest.raises(PermissionDeniedError):
        await connect("rhea").permissions.invite(collection_id=coll.id, users=[otto], role="admin")
    await gb.permissions.remove_user(otto, collection_id=coll.id)
    assert await gb.permissions.list_users(collection_id=coll.id).to_list() == []
    with pytest.raises(NotFoundError):
        await connect("otto").spaces.get(space.id)
    with pytest.raises(ValueError):
        gb.permissions.list_users(space_id=space.id, collection_id=coll.id)
    with pytest.raises(ValueError):
        gb.permissions.aggregate()
