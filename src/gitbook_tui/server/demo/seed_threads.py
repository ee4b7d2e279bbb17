"""Demo replay steps: comment threads and change requests (edits, reviews, main edits, merges)."""

from __future__ import annotations

from typing import Any

from .seed_base import SeederBase


class ThreadSeeder(SeederBase):
    """Schedules the demo's discussions and change requests."""

    # -- comments -----------------------------------------------------------------------
    def _schedule_comment(
        self, comment: dict[str, Any], base: str, space_key: str, cr_key: str | None = None
    ) -> None:
        key = comment.get("key") or f"c{len(self.comments)}-{id(comment)}"

        def thread_path() -> str:
            path = base.format(space=self.spaces[space_key])
            if cr_key is not None:
                path = (
                    f"/spaces/{self.spaces[space_key]}/change-requests/{self.crs[cr_key]}/comments"
                )
            return path

        async def post() -> None:
            body: dict[str, Any] = {"body": {"markdown": comment["body"]}}
            if comment.get("page"):
                body["page"] = self.page_id(space_key, comment["page"])
            created = await self.call(comment["author"], "POST", thread_path(), json=body)
            self.comments[key] = created["id"]
            for reaction in comment.get("reactions", []):
                for user in reaction["users"]:
                    await self.call(
                        user,
                        "PUT",
                        f"{thread_path()}/{created['id']}",
                        json={"addedReactions": [reaction["emoji"]]},
                    )

        self.schedule(comment["daysAgo"], post)
        last = comment["daysAgo"]
        for reply in comment.get("replies", []):
            last = min(last, reply.get("daysAgo", last))

            async def post_reply(reply: dict[str, Any] = reply) -> None:
                await self.call(
                    reply["author"],
                    "POST",
                    f"{thread_path()}/{self.comments[key]}/replies",
                    json={"body": {"markdown": reply["body"]}},
                )

            self.schedule(reply.get("daysAgo", comment["daysAgo"]), post_reply)
        if comment.get("resolvedBy"):

            async def resolve() -> None:
                await self.call(
                    comment["resolvedBy"],
                    "PUT",
                    f"{thread_path()}/{self.comments[key]}",
                    json={"resolved": True},
                )

            self.schedule(max(0.0, last - 0.2), resolve)

    # -- change requests ----------------------------------------------------------------
    def _cr_path(self, cr: dict[str, Any]) -> str:
        return f"/spaces/{self.spaces[cr['space']]}/change-requests/{self.crs[cr['key']]}"

    def _changes(self, space_key: str, edits: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Demo edits as the API's change-request content changes (markdown documents)."""
        changes: list[dict[str, Any]] = []
        for edit in edits:
            if "page" in edit:
                changes.append(
                    {
                        "operation": "update_page",
                        "page": self.page_id(space_key, edit["page"]),
                        "document": {"markdown": edit["markdown"]},
                    }
                )
            elif "newPage" in edit:
                new = edit["newPage"]
                change: dict[str, Any] = {
                    "operation": "insert_page",
                    "title": new["title"],
                    "document": {"markdown": new["markdown"]},
                }
                if new.get("parent"):
                    change["into"] = self.page_id(space_key, new["parent"])
                changes.append(change)
            elif "deletePage" in edit:
                changes.append(
                    {
                        "operation": "delete_page",
                        "page": self.page_id(space_key, edit["deletePage"]),
                    }
                )
        return changes

    def _schedule_change_request(self, cr: dict[str, Any]) -> None:
        created_at = cr["createdDaysAgo"]

        async def create() -> None:
            space_id = self.spaces[cr["space"]]
            made = await self.call(
                cr["author"],
                "POST",
                f"/spaces/{space_id}/change-requests",
                json={"subject": cr["subject"]},
            )
            self.crs[cr["key"]] = made["id"]
            changes = self._changes(cr["space"], cr.get("edits", []))
            if changes:
                await self.call(
                    cr["author"], "POST", f"{self._cr_path(cr)}/content", json={"changes": changes}
                )
            if (
                cr["status"] != "draft"
                and made.get("status") != cr["status"]
                and cr["status"] in ("open", "archived", "merged")
            ):
                await self.call(cr["author"], "PATCH", self._cr_path(cr), json={"status": "open"})
            if cr.get("requestedReviewers"):
                await self.call(
                    cr["author"],
                    "POST",
                    f"{self._cr_path(cr)}/requested-reviewers",
                    json={"users": [self.users[u] for u in cr["requestedReviewers"]]},
                )

        self.schedule(created_at, create)
        latest = created_at
        for review in cr.get("reviews", []):
            latest = min(latest, review["daysAgo"])

            async def post_review(review: dict[str, Any] = review) -> None:
                body: dict[str, Any] = {"status": review["status"]}
                if review.get("comment"):
                    body["comment"] = {"markdown": review["comment"]}
                await self.call(review["author"], "POST", f"{self._cr_path(cr)}/reviews", json=body)

            self.schedule(review["daysAgo"], post_review)
        for comment in cr.get("comments", []):
            latest = min(latest, comment["daysAgo"])
            self._schedule_comment(comment, "", cr["space"], cr_key=cr["key"])
        for index, edit in enumerate(cr.get("mainEditsAfter", [])):

            async def main_edit(edit: dict[str, Any] = edit, index: int = index) -> None:
                author = edit.get("author", self.admin)
                space_id = self.spaces[cr["space"]]
                made = await self.call(
                    author,
                    "POST",
                    f"/spaces/{space_id}/change-requests",
                    json={
                        "subject": edit.get("subject")
                        or f"Update {edit['page'].rsplit('/', 1)[-1]}"
                    },
                )
                path = f"/spaces/{space_id}/change-requests/{made['id']}"
                changes = self._changes(cr["space"], [edit])
                await self.call(author, "POST", f"{path}/content", json={"changes": changes})
                await self.call(author, "PATCH", path, json={"status": "open"})
                await self.call(author, "POST", f"{path}/merge")

            self.schedule(edit["daysAgo"], main_edit)
        if cr["status"] in ("merged", "archived"):

            async def finish() -> None:
                if cr["status"] == "merged":
                    await self.call(self.admin, "POST", f"{self._cr_path(cr)}/merge")
                else:
                    await self.call(
                        cr["author"], "PATCH", self._cr_path(cr), json={"status": "archived"}
                    )

            self.schedule(max(0.0, latest - 0.3), finish)
