"""Demo sites beyond workspace.json: the redirects a site editor must cope with.

On Tidewater Docs: a page redirect, a three-step chain, a draft, a wildcard (captures
subpaths), an external one, a source shadowed by a live page and a redirect to a page that
was deleted since. And "Tidewater Legacy Docs", published with 1,200 redirects (the
archive of an old site), to show the table at scale. And "Tidewater Developer Hub", whose
sections sit in section groups: Overview at the root, "Build" (SDK guides, tide CLI) and
"Reference" (HTTP API, Configuration), and a draft group "Labs" (Changelog).

The bulk redirects and the redirect to the deleted page are written straight to storage
(as the routes store them): 1,200 requests would make every demo start slow, and the API
refuses a destination that does not exist.
"""

from __future__ import annotations

from typing import Any

from ..core.clock import iso
from ..sites.views import REDIRECT
from .seed_base import SeederBase

__all__ = ["HUB_TITLE", "LEGACY_REDIRECTS", "seed_sites_extra"]

HUB_TITLE = "Tidewater Developer Hub"

LEGACY_REDIRECTS = 1200
DELETED_PAGE_ID = "deleted-page-0001"


async def seed_sites_extra(seeder: SeederBase) -> None:
    """Add the redirects above (run after the workspace's own sites)."""
    admin, org = seeder.admin, seeder.org
    listed = await seeder.call(admin, "GET", f"/orgs/{org}/sites", params={"limit": 100})
    docs = next((s for s in listed["items"] if s["title"] == "Tidewater Docs"), None)
    if docs is None:
        return
    base = f"/orgs/{org}/sites/{docs['id']}"
    site_url = docs["urls"].get("published") or ""
    sections = (await seeder.call(admin, "GET", f"{base}/sections"))["items"]
    guide_ss = sections[0]["siteSpaces"][0]
    guide_space = guide_ss["space"]["id"]
    tree = await seeder.call(admin, "GET", f"/spaces/{guide_space}/content/pages")
    documents: list[tuple[str, str]] = []  # (path, id) of the guide's document pages
    stack = list(tree["pages"])
    while stack:
        node = stack.pop(0)
        if node.get("type") == "document" and node.get("path"):
            documents.append((node["path"], node["id"]))
        stack.extend(node.get("pages", []))
    pages = [path for path, _ in documents]
    live_page = pages[0]

    async def redirect(source: str, destination: dict[str, Any], **flags: bool) -> None:
        body = {"source": source, "destination": destination, **flags}
        await seeder.call(admin, "POST", f"{base}/redirects", json=body)

    await redirect(
        "/start", {"kind": "path", "spaceId": guide_space, "path": pages[1]}, permanent=True
    )
    # a chain: /v0/start → /legacy/start → /start → the page
    await redirect("/legacy/start", {"kind": "external", "url": f"{site_url}/start"})
    await redirect("/v0/start", {"kind": "external", "url": f"{site_url}/legacy/start"})
    await redirect(
        "/beta/preview",
        {"kind": "site-section", "siteSectionId": sections[-1]["id"]},
        draft=True,
    )
    await redirect(
        "/v1",
        {"kind": "external", "url": "https://legacy.tidewater.example/v1"},
        captureWildcard=True,
        permanent=True,
    )
    await redirect("/community", {"kind": "external", "url": "https://forum.tidewater.example/"})
    # shadowed: a live page of the default space answers this path before any redirect
    await redirect("/" + live_page, {"kind": "site-section", "siteSectionId": sections[1]["id"]})

    now = iso(seeder.clock.now())
    with seeder.storage.transaction() as tx:
        _put(
            seeder,
            tx,
            docs["id"],
            "/old-faq",
            now,
            {"kind": "site-page", "siteSpaceId": guide_ss["id"], "pageId": DELETED_PAGE_ID},
        )

    # a site with an archive of redirects
    legacy = await seeder.call(
        admin,
        "POST",
        f"/orgs/{org}/sites",
        json={"title": "Tidewater Legacy Docs", "visibility": "unlisted"},
    )
    legacy_base = f"/orgs/{org}/sites/{legacy['id']}"
    await seeder.call(admin, "PATCH", legacy_base, json={"basename": "legacy"})
    ss = await seeder.call(
        admin, "POST", f"{legacy_base}/site-spaces", json={"spaceId": guide_space}
    )
    page_ids = [page_id for _, page_id in documents]
    areas = ("guides", "reference", "tutorials", "api", "cli", "ops")
    with seeder.storage.transaction() as tx:
        for i in range(LEGACY_REDIRECTS):
            area = areas[i % len(areas)]
            source = f"/{2015 + i % 9}/{area}/article-{i:04d}"
            if i % 10 == 9:
                dest = {"kind": "external", "url": f"https://archive.tidewater.example/{i}"}
            else:
                dest = {
                    "kind": "site-page",
                    "siteSpaceId": ss["id"],
                    "pageId": page_ids[i % len(page_ids)],
                }
            _put(seeder, tx, legacy["id"], source, now, dest, permanent=i % 3 != 0)
    await seeder.call(admin, "POST", f"{legacy_base}/publish")
    await _seed_hub(seeder, sections)


async def _seed_hub(seeder: SeederBase, docs_sections: list[dict[str, Any]]) -> None:
    """A published site whose sections sit in section groups (spaces of Tidewater Docs)."""
    admin, org = seeder.admin, seeder.org
    spaces = {
        ss["space"]["title"]: ss["space"]["id"]
        for section in docs_sections
        for ss in section["siteSpaces"]
    }
    hub = await seeder.call(
        admin, "POST", f"/orgs/{org}/sites", json={"title": HUB_TITLE, "visibility": "public"}
    )
    base = f"/orgs/{org}/sites/{hub['id']}"
    await seeder.call(admin, "PATCH", base, json={"basename": "developers"})
    made: dict[str, str] = {}
    layout = (
        ("Overview", 0, None),
        ("SDK guides", 1, "Build"),
        ("tide CLI", 3, "Build"),
        ("HTTP API", 2, "Reference"),
        ("Configuration", 4, "Reference"),
        ("Changelog", 5, "Labs"),
    )
    titles = list(spaces)
    for title, index, _ in layout:
        if index < len(titles):
            body = {"spaceId": spaces[titles[index]], "title": title}
            made[title] = (await seeder.call(admin, "POST", f"{base}/sections", json=body))["id"]
    groups = (("Build", "hammer", False), ("Reference", "book", False), ("Labs", "flask", True))
    for group, icon, draft in groups:
        members = [made[t] for t, _, g in layout if g == group and t in made]
        body = {"title": group, "icon": icon, "sections": members, "draft": draft}
        await seeder.call(admin, "POST", f"{base}/section-groups", json=body)
    await seeder.call(admin, "POST", f"{base}/publish")


def _put(
    seeder: SeederBase,
    tx: Any,
    site_id: str,
    source: str,
    now: str,
    destination: dict[str, Any],
    *,
    permanent: bool = True,
) -> None:
    redirect_id = seeder.storage.new_id()
    record = {
        "id": redirect_id,
        "site": site_id,
        "source": source,
        "destination": destination,
        "draft": False,
        "permanent": permanent,
        "captureWildcard": False,
        "createdAt": now,
    }
    tx.put(REDIRECT, redirect_id, record, scope=site_id)
