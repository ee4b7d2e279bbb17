"""Demo change requests the review desk needs: a moved page and a file change, 40 scattered
edits of the 1 MB reference page, a 200-page change request and a team reviewer."""

from __future__ import annotations

import base64
import re
from typing import Any

from ..content.store import (
    create_revision,
    editable_copy,
    find_page,
    get_revision,
    page_markdown,
    store_markdown,
)
from ..core.clock import iso
from .seed_base import SeederBase

# A 1×1 PNG: enough for a "file created" change without shipping an image.
_PIXEL = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c63f8cfc0f01f0005000201a0f1ab3f0000000049454e44ae426082"
    )
).decode()

_PROSE = re.compile(r"^[A-Z][^|`<>#{}\[\]]{40,}$")
_BATCH = 50  # the API's limit of changes per content update


async def seed_review_extras(seeder: SeederBase) -> None:
    """Add the review desk's demo change requests (all open, Maya asked to review)."""
    await _moved_page_and_file(seeder)
    await _reference_edits(seeder)
    await _two_hundred_pages(seeder)
    await _team_reviewer(seeder)


async def _open_cr(seeder: SeederBase, space_key: str, author: str, subject: str) -> str:
    made = await seeder.call(
        author,
        "POST",
        f"/spaces/{seeder.spaces[space_key]}/change-requests",
        json={"subject": subject},
    )
    return f"/spaces/{seeder.spaces[space_key]}/change-requests/{made['id']}"


async def _edit(seeder: SeederBase, author: str, path: str, changes: list[dict[str, Any]]) -> None:
    for start in range(0, len(changes), _BATCH):
        await seeder.call(
            author, "POST", f"{path}/content", json={"changes": changes[start : start + _BATCH]}
        )


async def _ask(seeder: SeederBase, author: str, path: str, *reviewers: str) -> None:
    users = [seeder.users[r] for r in reviewers]
    await seeder.call(author, "POST", f"{path}/requested-reviewers", json={"users": users})


async def _moved_page_and_file(seeder: SeederBase) -> None:
    path = await _open_cr(
        seeder, "guide", "devon", "Move exactly-once into Concepts, add the delivery diagram"
    )
    await _edit(
        seeder,
        "devon",
        path,
        [
            {
                "operation": "update_page",
                "page": seeder.page_id("guide", "guides/delivery/exactly-once.md"),
                "into": seeder.page_id("guide", "concepts/README.md"),
            },
            {
                "operation": "insert_files",
                "files": [
                    {"name": "delivery-diagram.png", "contentType": "image/png", "base64": _PIXEL}
                ],
            },
        ],
    )
    await _ask(seeder, "devon", path, "maya")


def _scattered_edits(markdown: str, count: int = 40) -> str:
    """``count`` edits spread over the page: reworded sentences, added and removed paragraphs."""
    blocks = markdown.split("\n\n")
    prose = [i for i, block in enumerate(blocks) if _PROSE.match(block)]
    if len(prose) < count:
        return markdown + "\n\nAdded by the review demo.\n"
    step = len(prose) // count
    chosen = [prose[i * step + step // 2] for i in range(count)]
    for n, index in enumerate(chosen):
        block = blocks[index]
        if n % 8 == 3:
            blocks[index] = block + "\n\nSince 3.5 this setting is reloaded without a restart."
        elif n % 8 == 6:
            blocks[index] = ""
        else:
            words = block.split(" ")
            middle = len(words) // 2
            words[middle] = f"{words[middle]} (changed in 3.5)"
            blocks[index] = " ".join(words).replace(" the ", " each ", 1)
    return "\n\n".join(block for block in blocks if block)


async def _reference_edits(seeder: SeederBase) -> None:
    """The page is larger than a content update may carry (1 MB of markdown), so the edited
    text is stored as a new revision of the change request, as the content route would."""
    space_id = seeder.spaces["config-full"]
    page_id = seeder.page_id("config-full", "reference.md")
    path = await _open_cr(seeder, "config-full", "ravi", "Reference: reword 40 settings for 3.5")
    cr_id = path.rsplit("/", 1)[-1]
    now = iso(seeder.clock.now())
    with seeder.storage.transaction() as tx:
        cr = tx.get("change-request", cr_id)
        assert cr is not None
        pages, files = editable_copy(get_revision(tx, cr["revision"]))
        found = find_page(pages, page_id)
        assert found is not None
        node = found[0]
        node["document"] = store_markdown(tx, _scattered_edits(page_markdown(tx, node)))
        rev_id = seeder.storage.new_id()
        create_revision(
            tx,
            revision_id=rev_id,
            space_id=space_id,
            parents=[cr["revision"]],
            pages=pages,
            files=files,
            type="edits",
            created_at=now,
            created_by=seeder.users["ravi"],
            change_request=cr_id,
        )
        cr.update(revision=rev_id, updatedAt=now, contributors=[seeder.users["ravi"]])
        tx.put("change-request", cr_id, cr)
    await _ask(seeder, "ravi", path, "maya")


async def _two_hundred_pages(seeder: SeederBase) -> None:
    articles = sorted(seeder.pages["kb"].items())
    path = await _open_cr(seeder, "kb", "lee", "KB: retitle 100 articles, add 100 stubs")
    changes: list[dict[str, Any]] = []
    for git_path, page_id in articles[-100:]:
        title = git_path.rsplit("/", 1)[-1].removesuffix(".md").replace("-", " ").capitalize()
        changes.append({"operation": "update_page", "page": page_id, "title": f"{title} (3.5)"})
    for n in range(100):
        changes.append(
            {
                "operation": "insert_page",
                "title": f"Stub article {n + 1:03d}",
                "document": {"markdown": f"# Stub article {n + 1:03d}\n\nTo be written.\n"},
            }
        )
    await _edit(seeder, "lee", path, changes)
    await _ask(seeder, "lee", path, "maya")


async def _team_reviewer(seeder: SeederBase) -> None:
    space_id = seeder.spaces["handbook"]
    made = await seeder.call(
        "devon",
        "POST",
        f"/spaces/{space_id}/change-requests",
        json={"subject": "Handbook: review by the Docs guild"},
    )
    path = f"/spaces/{space_id}/change-requests/{made['id']}"
    first = sorted(seeder.pages["handbook"].items())[0]
    await _edit(
        seeder,
        "devon",
        path,
        [
            {
                "operation": "insert_page",
                "title": "Writing for reviewers",
                "document": {
                    "markdown": "# Writing for reviewers\n\nKeep one idea per paragraph.\n"
                },
                "into": first[1],
            }
        ],
    )
    await _ask(seeder, "devon", path, "sofia")
    cr = await seeder.call("devon", "GET", path)
    # The API asks users only; a team request is stored as the web app would record it.
    with seeder.storage.transaction() as tx:
        entry = {
            "id": f"{made['id']}:team:{seeder.teams['docs']}",
            "changeRequest": made["id"],
            "team": seeder.teams["docs"],
            "revision": cr["revision"],
            "requestedBy": seeder.users["devon"],
            "createdAt": iso(seeder.clock.now()),
        }
        tx.put("requested-reviewer", entry["id"], entry, scope=made["id"])
