"""Demo threads the Comments view needs beyond workspace.json: a block-anchored thread,
edited posts, a thread on a page changed since, a long thread and a page with 220 threads (209 open)."""

from __future__ import annotations

from typing import Any, Protocol

__all__ = ["BUSY_PAGE_THREADS", "LONG_THREAD_REPLIES", "schedule_extra_comments"]

LONG_THREAD_REPLIES = 34
BUSY_PAGE_THREADS = 220
_PEOPLE = ("tomasz", "sofia", "lee", "ravi", "devon", "maya", "jonas")
_EMOJI = ("👍", "🎉", "👀", "🔥", "❤️", "🚀")
_TOPICS = (
    "the retry budget",
    "the `max.poll.interval` default",
    "what happens on a rebalance",
    "the screenshot of the console",
    "the link to the status page",
    "the wording of step 3",
    "the Go example",
    "the limits table",
    "the Windows instructions",
    "the error code list",
)


class _Seeder(Protocol):
    spaces: dict[str, str]
    pages: dict[str, dict[str, str]]

    def schedule(self, days_ago: float, action: Any) -> None: ...
    async def call(
        self,
        user: str,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: dict[str, Any] | None = None,
    ) -> Any: ...
    def page_id(self, space_key: str, path: str) -> str: ...


def schedule_extra_comments(seeder: _Seeder) -> None:
    """Add the extra threads to the replay (call after the spaces are scheduled)."""

    def base(space: str) -> str:
        return f"/spaces/{seeder.spaces[space]}/comments"

    async def post(user: str, space: str, page: str, text: str, **extra: Any) -> str:
        body = {"body": {"markdown": text}, "page": seeder.page_id(space, page), **extra}
        created = await seeder.call(user, "POST", base(space), json=body)
        return str(created["id"])

    async def reply(user: str, space: str, thread: str, text: str) -> str:
        made = await seeder.call(
            user, "POST", f"{base(space)}/{thread}/replies", json={"body": {"markdown": text}}
        )
        return str(made["id"])

    threads: dict[str, str] = {}

    # a thread on one block of a page (the "Cleanup policies" heading)
    async def anchored() -> None:
        threads["anchored"] = await post(
            "sofia",
            "guide",
            "concepts/retention-and-compaction.md",
            "This section should say that `compact,delete` is allowed too — people ask weekly.",
            node="cleanup-policies",
        )
        await reply("lee", "guide", threads["anchored"], "Agreed. I'll add a row to the table.")

    # edited posts: a comment and a reply changed by their authors a day later
    async def to_edit() -> None:
        threads["edited"] = await post(
            "lee", "guide", "getting-started/install.md", "The brew formula is `tide`."
        )
        threads["edited-reply"] = await reply(
            "ravi", "guide", threads["edited"], "Is it in homebrew-core yet?"
        )

    async def edit() -> None:
        await seeder.call(
            "lee",
            "PUT",
            f"{base('guide')}/{threads['edited']}",
            json={"body": {"markdown": "The brew formula is `lanternfish-labs/tap/tide`."}},
        )
        await seeder.call(
            "ravi",
            "PUT",
            f"{base('guide')}/{threads['edited']}/replies/{threads['edited-reply']}",
            json={"body": {"markdown": "Is it in homebrew-core yet? (The tap works for me.)"}},
        )

    # a thread on a page that changed after it was posted ("outdated")
    glossary = "reference/glossary.md"

    async def before_change() -> None:
        threads["outdated"] = await post(
            "tomasz", "guide", glossary, "“Offset” and “position” are used for the same thing."
        )

    async def change_page() -> None:
        space_id = seeder.spaces["guide"]
        page = seeder.page_id("guide", glossary)
        current = await seeder.call(
            "maya", "GET", f"/spaces/{space_id}/content/page/{page}", params={"format": "markdown"}
        )
        markdown = (current.get("markdown") or "") + "\n\nPosition: see *offset*.\n"
        cr = await seeder.call(
            "maya", "POST", f"/spaces/{space_id}/change-requests", json={"subject": "Glossary"}
        )
        path = f"/spaces/{space_id}/change-requests/{cr['id']}"
        change = {"operation": "update_page", "page": page, "document": {"markdown": markdown}}
        await seeder.call("maya", "POST", f"{path}/content", json={"changes": [change]})
        await seeder.call("maya", "POST", f"{path}/merge")

    # a long thread
    async def long_thread() -> None:
        thread = await post(
            "devon",
            "guide",
            "guides/migrating-from-kafka.md",
            "Should the migration guide recommend **dual writes** or **mirroring**?",
        )
        for n in range(LONG_THREAD_REPLIES):
            who = _PEOPLE[n % len(_PEOPLE)]
            await reply(who, "guide", thread, f"({n + 1}) A thought on {_TOPICS[n % 10]}.")

    # one page with many threads (the benchmark opens it)
    async def busy_page() -> None:
        page = sorted(seeder.pages["kb"])[0]
        for n in range(BUSY_PAGE_THREADS):
            who = _PEOPLE[n % len(_PEOPLE)]
            thread = await post(
                who, "kb", page, f"#{n + 1}: a question about {_TOPICS[n % len(_TOPICS)]}."
            )
            if n % 5 == 0:
                await seeder.call(
                    _PEOPLE[(n + 1) % len(_PEOPLE)],
                    "PUT",
                    f"{base('kb')}/{thread}",
                    json={"addedReactions": [_EMOJI[n % len(_EMOJI)]]},
                )
            if n % 20 == 7:
                await seeder.call(who, "PUT", f"{base('kb')}/{thread}", json={"resolved": True})

    seeder.schedule(9, anchored)
    seeder.schedule(8, to_edit)
    seeder.schedule(7, edit)
    seeder.schedule(12, before_change)
    seeder.schedule(6, change_page)
    seeder.schedule(11, long_thread)
    seeder.schedule(10, busy_page)
