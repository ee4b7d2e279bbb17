"""Consistency checks for the demo workspace content shipped in gitbook_tui.server.demo."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import gitbook_tui.server.demo as demo_pkg
from gitbook_tui.markdown import read_front_matter
from gitbook_tui.markdown import split_front_matter as find_front_matter
from gitbook_tui.server.demo import generated

DEMO = Path(demo_pkg.__file__).parent
SPACES_DIR = DEMO / "spaces"

GITBOOK_YAML = "root: ./\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n"
FRONT_MATTER_KEYS = {"description", "emoji", "hidden", "icon"}
CR_STATUSES = {"draft", "open", "merged", "archived"}
ROLE_RANK = {"read": 0, "comment": 1, "review": 2, "edit": 3, "create": 3, "admin": 4}

# Relative links that are broken on purpose, so the link checker has something to report.
INTENTIONALLY_BROKEN = {
    ("user-guide", "guides/delivery/retries-and-backoff.md", "patterns.md"),
    ("user-guide", "troubleshooting/consumer-lag.md", "../operations/lag-dashboard.md"),
    ("cli-reference", "commands/README.md", "migrate.md"),
}

# Block name -> a regex that must match somewhere in the content.
BLOCK_PATTERNS: dict[str, str] = {
    "hint info": r'\{% hint style="info" %\}',
    "hint success": r'\{% hint style="success" %\}',
    "hint warning": r'\{% hint style="warning" %\}',
    "hint danger": r'\{% hint style="danger" %\}',
    "tabs": r"\{% tabs %\}[\s\S]*?\{% tab title=\"[^\"]+\" %\}[\s\S]*?\{% endtab %\}[\s\S]*?\{% endtabs %\}",
    "code": r'\{% code title="[^"]+" lineNumbers="true" %\}\n```\w+\n[\s\S]*?```\n\{% endcode %\}',
    "stepper": r"\{% stepper %\}\s*\{% step %\}[\s\S]*?\{% endstep %\}[\s\S]*?\{% endstepper %\}",
    "embed": r'\{% embed url="https://[^"]+" %\}',
    "embed with caption": r'\{% embed url="https://[^"]+" %\}\n[^{\n][^\n]*\n\{% endembed %\}',
    "content-ref": r'\{% content-ref url="([^"]+)" %\}\n\[[^\]]+\]\(\1\)\n\{% endcontent-ref %\}',
    "columns": r"\{% columns %\}\s*\{% column %\}[\s\S]*?\{% endcolumn %\}[\s\S]*?\{% endcolumns %\}",
    "file": r'\{% file src="[^"]+" %\}',
    "include": r'\{% include "[^"]+" %\}',
    "updates": r'\{% updates %\}\s*\{% update date="\d{4}-\d{2}-\d{2}" %\}[\s\S]*?\{% endupdate %\}[\s\S]*?\{% endupdates %\}',
    "openapi": r'\{% openapi src="[^"]+" path="/[^"]*" method="(get|post|put|patch|delete)" %\}[\s\S]*?\{% endopenapi %\}',
    "swagger": r'\{% swagger src="[^"]+" path="/[^"]*" method="(get|post|put|patch|delete)" %\}[\s\S]*?\{% endswagger %\}',
    "details": r"<details>\s*<summary>[\s\S]+?</summary>[\s\S]*?</details>",
    "figure": r'<figure><img src="[^"]+" alt="[^"]*"><figcaption>[\s\S]+?</figcaption></figure>',
    "table": r"\n\| .+ \|\n\| (?:-+ \| )*-+ \|\n",
    "task list": r"\n- \[ \] .+\n",
    "task list done": r"\n- \[x\] .+\n",
    "footnote": r"\[\^\w+\][\s\S]*\n\[\^\w+\]: ",
    "block quote": r"\n> \S",
    "h1": r"(?m)^# \S",
    "h2": r"(?m)^## \S",
    "h3": r"(?m)^### \S",
    "h4": r"(?m)^#### \S",
    "bold": r"\*\*[^*\n]+\*\*",
    "italic": r"(?<![*_\w])_[^_\n]+_(?![_\w])",
    "inline code": r"`[^`\n]+`",
    "image": r"!\[[^\]]*\]\([^)]+\)",
    "unknown tag": r"\{% tidewater-widget [^%]*%\}[\s\S]*?\{% endtidewater-widget %\}",
    **{
        f"```{lang}": rf"\n```{lang}\n"
        for lang in ("python", "typescript", "go", "bash", "toml", "yaml", "json", "sql", "rust")
    },
}

PAIRED_TAGS = {
    "hint", "tabs", "tab", "code", "stepper", "step", "content-ref", "columns", "column",
    "updates", "update", "openapi", "swagger", "tidewater-widget", "if",
}  # fmt: skip
OPTIONALLY_PAIRED_TAGS = {"embed", "file"}
SELF_CLOSING_TAGS = {"include", "else", "elif"}


# ------------------------------------------------------------------------------- helpers


@cache
def workspace() -> dict[str, Any]:
    return json.loads((DEMO / "workspace.json").read_text(encoding="utf-8"))


def folder_spaces() -> list[dict[str, Any]]:
    return [s for s in workspace()["spaces"] if "folder" in s]


def space_by_key() -> dict[str, dict[str, Any]]:
    return {s["key"]: s for s in workspace()["spaces"]}


def page_files(folder: str) -> dict[str, Path]:
    root = SPACES_DIR / folder
    return {
        p.relative_to(root).as_posix(): p
        for p in sorted(root.rglob("*.md"))
        if ".gitbook" not in p.relative_to(root).parts and p.name != "SUMMARY.md"
    }


def space_pages(space_key: str) -> set[str]:
    return set(page_files(space_by_key()[space_key]["folder"]))


def all_pages() -> Iterator[tuple[str, str, str]]:
    """Yield (folder, relative path, text) for every page and include file of every space."""
    for space_dir in sorted(p for p in SPACES_DIR.iterdir() if p.is_dir()):
        for p in sorted(space_dir.rglob("*.md")):
            if p.name != "SUMMARY.md":
                yield space_dir.name, p.relative_to(space_dir).as_posix(), p.read_text("utf-8")


def strip_code(text: str) -> str:
    """Remove fenced code blocks and inline code so links inside examples are ignored."""
    text = re.sub(r"(?ms)^```.*?^```", "", text)
    return re.sub(r"`[^`\n]*`", "", text)


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """Front matter read as YAML (GitBook writes long descriptions as folded blocks);
    booleans as ``"true"``/``"false"``."""
    raw, body = find_front_matter(text)
    if raw is None:
        return {}, text
    fields = read_front_matter(raw)
    return {k: str(v).lower() if isinstance(v, bool) else v for k, v in fields.items()}, body


def summary_entries(folder: str) -> tuple[list[tuple[int, str, str]], list[str]]:
    """Return ([(depth, title, target)], [group titles]) parsed from SUMMARY.md."""
    lines = (SPACES_DIR / folder / "SUMMARY.md").read_text("utf-8").splitlines()
    assert lines[0] == "# Table of contents", folder
    entries: list[tuple[int, str, str]] = []
    groups: list[str] = []
    for line in lines[1:]:
        if not line.strip():
            continue
        if line.startswith("## "):
            # GitBook puts an anchor after a group's title: <a href="#x" id="x"></a>
            groups.append(re.sub(r"\s*<a [^>]*></a>\s*$", "", line[3:]))
            continue
        m = re.fullmatch(r"( *)\* \[(.+?)\]\((.+?)\)", line)
        assert m, f"{folder}/SUMMARY.md: unexpected line {line!r}"
        indent = len(m.group(1))
        assert indent % 2 == 0, line
        depth = indent // 2
        assert depth <= (entries[-1][0] + 1 if entries else 0), f"indent jumps: {line!r}"
        entries.append((depth, m.group(2), m.group(3)))
    return entries, groups


def local_refs(text: str) -> list[str]:
    """Relative targets of links, images, figures, files, includes, embeds and OpenAPI blocks."""
    body = strip_code(text)
    refs = re.findall(r"\]\(([^)\s]+)\)", body)
    refs += re.findall(r'\{%[^%]*?\b(?:src|url)="([^"]+)"', body)
    refs += re.findall(r'\{% include "([^"]+)" %\}', body)
    refs += re.findall(r'<img src="([^"]+)"', body)
    return [r for r in refs if not re.match(r"^(https?:|mailto:|#)", r)]


def check_tag_balance(text: str, where: str) -> None:
    tokens = re.findall(r"\{%\s*(end)?([\w-]+)[^%]*%\}", strip_code(text))
    stack: list[str] = []
    i = 0
    while i < len(tokens):
        is_end, name = tokens[i]
        if name in SELF_CLOSING_TAGS:
            assert not is_end, f"{where}: stray end{name}"
        elif name in OPTIONALLY_PAIRED_TAGS and not is_end:
            if i + 1 < len(tokens) and tokens[i + 1] == ("end", name):
                i += 1
        elif is_end:
            assert stack and stack[-1] == name, (
                f"{where}: end{name} closes {stack[-1:] or 'nothing'}"
            )
            stack.pop()
        else:
            stack.append(name)
        i += 1
    assert not stack, f"{where}: unclosed {stack}"


def h1(markdown: str) -> str:
    match = re.search(r"(?m)^# .+$", markdown)
    assert match, "page has no H1"
    return match.group(0)


def kb_walk(pages: list[dict[str, Any]], depth: int = 1) -> Iterator[tuple[dict[str, Any], int]]:
    for page in pages:
        yield page, depth
        yield from kb_walk(page["pages"], depth + 1)


def effective_rank(user: str, space: dict[str, Any]) -> int:
    users = {u["key"]: u for u in workspace()["users"]}
    ranks = [ROLE_RANK[users[user]["orgRole"]]]
    ranks += [ROLE_RANK[g["role"]] for g in space["grants"] if g["user"] == user]
    teams = {t["key"]: t for t in workspace()["teams"]}
    ranks += [
        ROLE_RANK[g["role"]] for g in space["teamGrants"] if user in teams[g["team"]]["members"]
    ]
    return max(ranks)


# --------------------------------------------------------------------- workspace.json


def test_workspace_top_level_shape() -> None:
    ws = workspace()
    assert list(ws) == [
        "organization", "users", "teams", "collections", "spaces", "comments", "changeRequests",
        "sites", "linkInvites", "emailInvites", "integrations", "openapiSpecs", "translations",
    ]  # fmt: skip
    org = ws["organization"]
    assert org == {
        "title": "Lanternfish Labs",
        "hostname": "lanternfish",
        "emailDomains": ["lanternfish.dev"],
        "defaultRole": "read",
    }
    assert 6 <= len(ws["users"]) <= 8
    assert {u["orgRole"] for u in ws["users"]} >= {
        "admin",
        "create",
        "edit",
        "review",
        "comment",
        "read",
    }
    for u in ws["users"]:
        assert u["email"].endswith("@lanternfish.dev")
    assert len(ws["teams"]) == 3
    assert 3 <= len(ws["collections"]) <= 4
    assert {i["role"] for i in ws["linkInvites"]} == {"read", "comment"}
    assert ws["translations"] and all(t["languages"] for t in ws["translations"])


def test_keys_are_unique() -> None:
    ws = workspace()
    for section in (
        "users",
        "teams",
        "collections",
        "spaces",
        "comments",
        "changeRequests",
        "sites",
    ):
        keys = [item["key"] for item in ws[section]]
        assert len(keys) == len(set(keys)), section
    folders = [s["folder"] for s in folder_spaces()]
    assert len(folders) == len(set(folders))
    assert sorted(folders) == sorted(p.name for p in SPACES_DIR.iterdir() if p.is_dir())


def test_titles_and_descriptions_fit() -> None:
    ws = workspace()
    for c in ws["collections"]:
        assert len(c["title"]) <= 50, c["title"]
        assert len(c["description"]) <= 100, c["description"]
    for s in ws["spaces"]:
        assert len(s["title"]) <= 50, s["title"]
    for site in ws["sites"]:
        assert len(site["title"]) <= 50
    for cr in ws["changeRequests"]:
        assert len(cr["subject"]) <= 100, cr["subject"]
    for integ in ws["integrations"]:
        assert re.fullmatch(r"[a-zA-Z0-9-_.]+", integ["name"])
        assert 2 <= len(integ["title"]) <= 30, integ["title"]
        assert len(integ["description"]) <= 100, integ["description"]
        assert len(integ["summary"]) <= 2048


def test_references_resolve() -> None:
    ws = workspace()
    users = {u["key"] for u in ws["users"]}
    teams = {t["key"] for t in ws["teams"]}
    collections = {c["key"]: c for c in ws["collections"]}
    spaces = space_by_key()

    for t in ws["teams"]:
        assert set(t["members"]) <= users and t["members"]
    for c in collections.values():
        assert c["parent"] is None or c["parent"] in collections
    for s in spaces.values():
        assert s["collection"] is None or s["collection"] in collections
        assert all(g["user"] in users for g in s["grants"])
        assert all(g["team"] in teams for g in s["teamGrants"])
        assert ("folder" in s) != ("generated" in s)
        if "generated" in s:
            assert callable(getattr(generated, s["generated"]))
        else:
            assert (SPACES_DIR / s["folder"]).is_dir()

    def check_thread(thread: dict[str, Any], space_key: str) -> None:
        assert thread["author"] in users
        for r in thread["replies"]:
            assert r["author"] in users
        for reaction in thread["reactions"]:
            assert reaction["users"] and set(reaction["users"]) <= users
        assert thread["resolvedBy"] is None or thread["resolvedBy"] in users
        assert thread["page"] in space_pages(space_key), (space_key, thread["page"])

    for c in ws["comments"]:
        assert c["space"] in spaces and "folder" in spaces[c["space"]]
        check_thread(c, c["space"])

    for cr in ws["changeRequests"]:
        pages = space_pages(cr["space"])
        assert cr["author"] in users
        for e in cr["edits"]:
            if "page" in e:
                assert e["page"] in pages, (cr["key"], e["page"])
            elif "newPage" in e:
                assert e["newPage"]["parent"] is None or e["newPage"]["parent"] in pages
                assert e["newPage"]["title"] and e["newPage"]["markdown"]
            else:
                assert e["deletePage"] in pages
        for r in cr["reviews"]:
            assert r["author"] in users and r["status"] in {"approved", "changes-requested"}
        assert set(cr["requestedReviewers"]) <= users
        deleted = {e["deletePage"] for e in cr["edits"] if "deletePage" in e}
        for t in cr["comments"]:
            check_thread(t, cr["space"])
            assert t["page"] not in deleted, "CR comments must be on pages that survive the CR"
        for m in cr["mainEditsAfter"]:
            assert m["author"] in users and m["page"] in pages

    for site in ws["sites"]:
        titles = {sec["title"] for sec in site["sections"]}
        for sec in site["sections"]:
            assert sec["spaces"] and set(sec["spaces"]) <= set(spaces)
        for r in site["redirects"]:
            assert r["section"] in titles and r["source"].startswith("/")

    for spec in ws["openapiSpecs"]:
        for version in spec["versions"]:
            assert (DEMO / version).is_file(), version


def test_permissions_are_plausible() -> None:
    ws = workspace()
    spaces = space_by_key()
    for c in ws["comments"]:
        space = spaces[c["space"]]
        people = [c["author"], *(r["author"] for r in c["replies"])]
        people += [u for reaction in c["reactions"] for u in reaction["users"]]
        for person in people:
            assert effective_rank(person, space) >= ROLE_RANK["comment"], (c["key"], person)
    for cr in ws["changeRequests"]:
        space = spaces[cr["space"]]
        assert effective_rank(cr["author"], space) >= ROLE_RANK["edit"], cr["key"]
        for r in cr["reviews"]:
            assert effective_rank(r["author"], space) >= ROLE_RANK["review"], (
                cr["key"],
                r["author"],
            )
        for m in cr["mainEditsAfter"]:
            assert effective_rank(m["author"], space) >= ROLE_RANK["edit"]
    for s in spaces.values():
        if s["editMode"] == "locked":
            assert not any(c["space"] == s["key"] for c in ws["comments"])
            assert not any(cr["space"] == s["key"] for cr in ws["changeRequests"])


def test_structure_variety() -> None:
    ws = workspace()
    collections = ws["collections"]
    spaces = ws["spaces"]
    assert any(c["parent"] for c in collections), "expected a nested collection"
    assert any(s["collection"] is None for s in spaces), "expected a space at the org root"
    assert {"public", "private", "in-collection", "share-link"} <= {s["visibility"] for s in spaces}
    assert any(s["editMode"] == "locked" for s in spaces)
    assert {s.get("generated") for s in spaces} >= {"large_reference_page", "knowledge_base_pages"}
    assert 8 <= len(folder_spaces()) <= 10
    sites = ws["sites"]
    assert len(sites) == 2 and {s["published"] for s in sites} == {True, False}
    assert all(s["sections"] and s["redirects"] for s in sites)
    assert len(ws["integrations"]) == 2
    for integ in ws["integrations"]:
        assert integ["installations"] and all(i["events"] for i in integ["installations"])
    assert [len(s["versions"]) for s in ws["openapiSpecs"]] == [2]


def test_comment_threads_are_rich() -> None:
    comments = workspace()["comments"]
    assert len(comments) >= 15
    assert all(c["replies"] for c in comments)
    assert sum(1 for c in comments if c["resolvedBy"]) >= 4
    assert sum(1 for c in comments if c["resolvedBy"] is None) >= 4
    emojis = {r["emoji"] for c in comments for r in c["reactions"]}
    assert len(emojis) >= 5
    assert any(len(r["users"]) >= 3 for c in comments for r in c["reactions"])
    assert len({c["space"] for c in comments}) >= 5


def test_chronology() -> None:
    ws = workspace()
    spaces = space_by_key()

    def check_thread(t: dict[str, Any], not_before: float) -> None:
        assert 0 <= t["daysAgo"] < not_before
        last = t["daysAgo"]
        for r in t["replies"]:
            assert 0 <= r["daysAgo"] < last, t["body"][:40]
            last = r["daysAgo"]

    for c in ws["comments"]:
        check_thread(c, spaces[c["space"]]["createdDaysAgo"])
    days = [c["daysAgo"] for c in ws["comments"]]
    assert days == sorted(days, reverse=True), "comments should be listed oldest first"
    created = [s["createdDaysAgo"] for s in ws["spaces"]]
    assert created == sorted(created, reverse=True), "spaces should be listed oldest first"
    created = [cr["createdDaysAgo"] for cr in ws["changeRequests"]]
    assert created == sorted(created, reverse=True), "change requests should be listed oldest first"

    for cr in ws["changeRequests"]:
        created = cr["createdDaysAgo"]
        assert 0 <= created < spaces[cr["space"]]["createdDaysAgo"]
        for r in cr["reviews"]:
            assert 0 <= r["daysAgo"] < created
        for t in cr["comments"]:
            check_thread(t, created)
        for m in cr["mainEditsAfter"]:
            assert 0 <= m["daysAgo"] < created
    for integ in ws["integrations"]:
        for inst in integ["installations"]:
            events = [e["daysAgo"] for e in inst["events"]]
            assert events == sorted(events, reverse=True) and events[0] >= 0
            assert inst["events"][0]["type"] == "installation_setup"


def test_change_request_statuses() -> None:
    crs = workspace()["changeRequests"]
    statuses = [cr["status"] for cr in crs]
    assert set(statuses) == CR_STATUSES
    assert statuses.count("open") >= 3
    assert any(r["status"] == "approved" for cr in crs for r in cr["reviews"])
    assert any(r["status"] == "changes-requested" for cr in crs for r in cr["reviews"])
    assert any(cr["requestedReviewers"] for cr in crs)
    assert any(cr["comments"] for cr in crs)
    for cr in crs:
        if cr["status"] == "draft":
            # Requesting a review (or reviewing) moves a draft to open, so drafts have neither.
            assert not cr["requestedReviewers"] and not cr["reviews"], cr["key"]
    kinds = {next(iter(e)) for cr in crs for e in cr["edits"]}
    assert kinds == {"page", "newPage", "deletePage"}


def test_change_request_edits_are_full_pages() -> None:
    for cr in workspace()["changeRequests"]:
        folder = space_by_key()[cr["space"]]["folder"]
        for e in cr["edits"]:
            if "page" in e:
                current = (SPACES_DIR / folder / e["page"]).read_text("utf-8")
                new = e["markdown"]
                assert new != current, (cr["key"], e["page"])
                # A full page, not a fragment: same H1 and most of the original text kept.
                assert h1(new) == h1(current), (cr["key"], e["page"])
                assert len(new) >= 0.6 * len(current)
                markdown = new
            elif "newPage" in e:
                markdown = e["newPage"]["markdown"]
            else:
                continue
            fields, _ = split_front_matter(markdown)
            assert set(fields) <= FRONT_MATTER_KEYS
            check_tag_balance(markdown, f"{cr['key']}")
        for m in cr["mainEditsAfter"]:
            current = (SPACES_DIR / folder / m["page"]).read_text("utf-8")
            assert m["markdown"] != current
            check_tag_balance(m["markdown"], f"{cr['key']} main edit")


def test_outdated_and_conflicting_change_requests() -> None:
    outdated, conflicting = [], []
    for cr in workspace()["changeRequests"]:
        if cr["status"] not in {"open", "draft"} or not cr["mainEditsAfter"]:
            continue
        cr_pages = {e["page"] for e in cr["edits"] if "page" in e}
        main_pages = {m["page"] for m in cr["mainEditsAfter"]}
        if main_pages & cr_pages:
            conflicting.append(cr["key"])
            for m in cr["mainEditsAfter"]:
                cr_edit = next(e for e in cr["edits"] if e.get("page") == m["page"])
                assert m["markdown"] != cr_edit["markdown"]
        else:
            outdated.append(cr["key"])
    assert len(outdated) == 1, outdated
    assert len(conflicting) == 1, conflicting


# ------------------------------------------------------------------------ space folders


@pytest.mark.parametrize("folder", sorted(p.name for p in SPACES_DIR.iterdir() if p.is_dir()))
def test_space_folder_layout(folder: str) -> None:
    root = SPACES_DIR / folder
    assert (root / ".gitbook.yaml").read_text("utf-8") == GITBOOK_YAML
    assert (root / "README.md").is_file()
    entries, _ = summary_entries(folder)
    linked = [target for _, _, target in entries if not target.startswith(("http://", "https://"))]
    assert linked[0] == "README.md"
    pages = page_files(folder)
    assert len(linked) == len(set(linked)), "page listed twice"
    for target in linked:
        assert target.endswith(".md") and target in pages, (
            f"{folder}: SUMMARY links missing {target}"
        )
    assert set(pages) == set(linked), f"{folder}: pages not in SUMMARY: {set(pages) - set(linked)}"


def test_summary_features() -> None:
    groups_per_space, link_pages, max_depth = 0, 0, 0
    for s in folder_spaces():
        entries, groups = summary_entries(s["folder"])
        groups_per_space += bool(groups)
        link_pages += sum(1 for _, _, t in entries if t.startswith(("http://", "https://")))
        max_depth = max(max_depth, *(d for d, _, _ in entries))
    assert groups_per_space >= 4
    assert link_pages >= 5
    assert max_depth >= 2, "expected pages nested three levels deep"


def test_pages_and_front_matter() -> None:
    total, hidden, emojis, descriptions = 0, 0, 0, 0
    for s in folder_spaces():
        for rel, path in page_files(s["folder"]).items():
            total += 1
            text = path.read_text("utf-8")
            fields, body = split_front_matter(text)
            assert set(fields) <= FRONT_MATTER_KEYS, (s["folder"], rel, fields)
            if "hidden" in fields:
                assert fields["hidden"] == "true"
                hidden += 1
            if "emoji" in fields:
                assert 1 <= len(fields["emoji"]) <= 2 and not fields["emoji"].isascii()
                emojis += 1
            if "icon" in fields:
                assert re.fullmatch(r"[a-z][a-z-]*", fields["icon"])
            descriptions += "description" in fields
            assert re.search(r"(?m)^# \S", body), f"{rel} has no H1"
    assert total >= 40
    assert hidden >= 3
    assert emojis >= 10 and descriptions >= 30


def test_every_page_is_well_formed() -> None:
    for folder, rel, text in all_pages():
        check_tag_balance(text, f"{folder}/{rel}")
        fences = re.findall(r"(?m)^```", text)
        assert len(fences) % 2 == 0, f"{folder}/{rel}: unbalanced code fences"


def test_local_references_resolve() -> None:
    broken = set()
    for folder, rel, text in all_pages():
        base = (SPACES_DIR / folder / rel).parent
        for ref in local_refs(text):
            target = (base / ref.split("#", 1)[0]).resolve()
            if not target.exists():
                broken.add((folder, rel, ref))
    assert broken == INTENTIONALLY_BROKEN


def test_assets() -> None:
    pngs = list(SPACES_DIR.glob("*/.gitbook/assets/*.png"))
    assert len(pngs) >= 2
    for png in pngs:
        data = png.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"IEND\xaeB`\x82")
        assert len(data) < 20_000
    for pdf in SPACES_DIR.glob("*/.gitbook/assets/*.pdf"):
        data = pdf.read_bytes()
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    svgs = list(SPACES_DIR.glob("*/.gitbook/assets/*.svg"))
    assert len(svgs) >= 3
    for svg in svgs:
        assert svg.read_text("utf-8").lstrip().startswith("<svg")
    # Every asset file is used by at least one page.
    used = set()
    for folder, rel, text in all_pages():
        base = (SPACES_DIR / folder / rel).parent
        used |= {(base / r).resolve() for r in local_refs(text)}
    for asset in SPACES_DIR.glob("*/.gitbook/*/*"):
        assert asset.resolve() in used, f"unused asset {asset}"


def test_openapi_specs_and_blocks() -> None:
    yaml = pytest.importorskip("yaml")
    specs = {
        v: yaml.safe_load((DEMO / v).read_text("utf-8"))
        for v in ("openapi/v1.yaml", "openapi/v2.yaml")
    }
    assert specs["openapi/v1.yaml"]["info"]["version"].startswith("1.")
    assert specs["openapi/v2.yaml"]["info"]["version"].startswith("2.")
    for v in specs:
        for n in ("v1", "v2"):
            if v.endswith(f"{n}.yaml"):
                copy = SPACES_DIR / "api-reference/.gitbook/assets" / f"tidewater-openapi-{n}.yaml"
                assert copy.read_text("utf-8") == (DEMO / v).read_text("utf-8"), (
                    "asset copy drifted"
                )
    by_name = {"v1": specs["openapi/v1.yaml"], "v2": specs["openapi/v2.yaml"]}
    found = 0
    for _folder, _rel, text in all_pages():
        for src, path, method in re.findall(
            r'\{% (?:openapi|swagger) src="([^"]+)" path="([^"]+)" method="(\w+)" %\}', text
        ):
            spec = by_name["v1" if "v1" in src else "v2"]
            assert method in spec["paths"][path], (src, path, method)
            found += 1
    assert found >= 10


def test_every_block_is_used() -> None:
    corpus = "\n".join(text for _, _, text in all_pages())
    missing = [name for name, pattern in BLOCK_PATTERNS.items() if not re.search(pattern, corpus)]
    assert not missing


def test_every_block_page_uses_every_block() -> None:
    path = SPACES_DIR / "user-guide/reference/every-block.md"
    text = path.read_text("utf-8")
    assert "\n# Every block, once\n" in text
    assert ("* [Every block, once](reference/every-block.md)") in (
        SPACES_DIR / "user-guide/SUMMARY.md"
    ).read_text("utf-8")
    missing = [name for name, pattern in BLOCK_PATTERNS.items() if not re.search(pattern, text)]
    assert not missing


def test_blocks_are_used_several_times() -> None:
    corpus = "\n".join(text for _, _, text in all_pages())
    for tag in (
        "hint",
        "tabs",
        "code",
        "stepper",
        "embed",
        "content-ref",
        "columns",
        "file",
        "include",
        "updates",
    ):
        assert len(re.findall(r"\{% " + tag + r"[ %]", corpus)) >= 2, tag
    assert corpus.count("<details>") >= 5 and corpus.count("<figure>") >= 3


# ---------------------------------------------------------------------- generated content


def test_large_reference_page() -> None:
    page = generated.large_reference_page()
    assert isinstance(page, str)
    assert len(page.encode("utf-8")) >= 1_000_000
    assert page == generated.large_reference_page()
    assert len(re.findall(r"(?m)^## ", page)) >= 30
    assert len(re.findall(r"(?m)^### ", page)) >= 500
    for block in (
        "{% hint",
        "{% tabs %}",
        "<details>",
        "```toml",
        "```bash",
        "```yaml",
        "```promql",
        "```python",
    ):
        assert block in page, block
    fields, _ = split_front_matter(page)
    assert set(fields) <= FRONT_MATTER_KEYS
    check_tag_balance(page, "large_reference_page")


def test_knowledge_base_pages() -> None:
    tree = generated.knowledge_base_pages()
    assert tree == generated.knowledge_base_pages()
    pages = list(kb_walk(tree))
    assert len(pages) >= 2000
    assert max(depth for _, depth in pages) == 3

    def check_siblings(siblings: list[dict[str, Any]]) -> None:
        slugs = [p["slug"] for p in siblings]
        assert len(slugs) == len(set(slugs))
        for p in siblings:
            check_siblings(p["pages"])

    check_siblings(tree)
    for page, _ in pages:
        assert set(page) == {"title", "slug", "markdown", "description", "pages"}
        assert 0 < len(page["title"]) <= 100
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", page["slug"]), page["slug"]
        assert 300 <= len(page["markdown"].encode("utf-8")) <= 1500, page["title"]
        assert page["description"] is None or isinstance(page["description"], str)
        assert "lorem" not in page["markdown"].lower()
    assert any(p["description"] is None for p, _ in pages)
