"""Content builders for tests: pages merged into a space through the API, as a person would."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.models import ChangeRequestContentChange


async def ids(pager: Any) -> list[str]:
    """The ids of every item a client pager yields, in order."""
    return [item.id async for item in pager]


def merge_changes(world: Any, space_id: str, changes: list[dict[str, Any]]) -> None:
    """``changes`` (content operations) in a change request of alice's, merged."""
    c = world.client("alice")
    cr = c.post(f"/spaces/{space_id}/change-requests", json={"subject": "pages"}).json()
    r = c.post(f"/spaces/{space_id}/change-requests/{cr['id']}/content", json={"changes": changes})
    assert r.status_code == 200, r.text
    r = c.post(f"/spaces/{space_id}/change-requests/{cr['id']}/merge")
    assert r.status_code == 200, r.text


def space_with_pages(world: Any, title: str, pages: list[tuple[str, str]], **fields: Any) -> str:
    """A space with ``pages`` (title, markdown) merged into its main content; its id."""
    r = world.client("alice").post(f"/orgs/{world.org}/spaces", json={"title": title, **fields})
    assert r.status_code == 201, r.text
    space = str(r.json()["id"])
    if pages:
        changes = [
            {"operation": "insert_page", "title": t, "document": {"markdown": md}}
            for t, md in pages
        ]
        merge_changes(world, space, changes)
    return space


def page_ids(world: Any, space_id: str) -> dict[str, str]:
    """Every page of the space's main content by title (nested pages included)."""
    pages = world.client("alice").get(f"/spaces/{space_id}/content/pages").json()["pages"]
    found: dict[str, str] = {}
    stack = list(pages)
    while stack:
        p = stack.pop()
        found[p["title"]] = p["id"]
        stack.extend(p.get("pages", []))
    return found


@dataclass
class ClientSeed:
    """What ``seeded_through_client`` made: the space, its change request, the edit's answer
    and the merge's."""

    space: Any
    cr: Any
    edit: Any
    merge: Any


async def seeded_through_client(
    gb: AsyncGitBook, org: str, title: str, subject: str, pages: list[tuple[str, str]]
) -> ClientSeed:
    """A space ``title`` whose ``pages`` (title, markdown) came in through a change request
    ``subject`` that the client made and merged."""
    space = await gb.spaces.create_in_org(org, title=title)
    cr = await gb.change_requests.create(space.id, subject=subject)
    changes = [ChangeRequestContentChange.insert_markdown(t, md) for t, md in pages]
    edit = await gb.change_requests.edit_content(space.id, cr.id, changes)
    merge = await gb.change_requests.merge(space.id, cr.id)
    return ClientSeed(space, cr, edit, merge)


async def discussed_space(gb: AsyncGitBook, org: str) -> tuple[str, str]:
    """A space "Discussed" with one page, Intro, merged through the client's change request;
    the space's id and the page's."""
    seed = await seeded_through_client(
        gb, org, "Discussed", "First page", [("Intro", "Hello there.")]
    )
    page = seed.edit.changes[0].page
    assert page is not None
    return seed.space.id, page.id
