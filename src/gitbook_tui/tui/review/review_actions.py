"""ReviewActions: what the review pane does to a change request — review, reviewers,
update, merge, status, subject — each permission-gated and confirmed where it widens or
destroys (merge typed). Mixed into :class:`.change_request_review_screen.ChangeRequestReviewScreen`.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from textual import work
from textual.screen import Screen

from ...api import ConflictError, GitBookError
from ...drafts import DraftKey, DraftStore
from ...markdown.sanitize import clean_text
from ...models import User
from ..common.confirm_screen import ConfirmScreen
from ..common.denial import gated
from ..common.intents import RefreshSpace
from ..common.link_targets import open_in_browser, open_in_web_page
from ..common.state import account_key
from .conflict_marks import load_conflict_marks
from .conflict_panel import ConflictPanel
from .merge_checklist_screen import MergeChecklistScreen
from .review_data import summary_markdown
from .review_message_screen import ReviewMessageScreen
from .reviewer_picker_screen import Candidate, ReviewerPickerScreen
from .reviews_screen import ReviewsScreen
from .subject_screen import SubjectScreen

if TYPE_CHECKING:
    from ..common.navigator import Navigator
    from .review_data import ReviewState

__all__ = ["ReviewActions"]


class ReviewActions:
    """Actions of the review pane; the host screen provides ``nav``, ``state``, ``load``."""

    nav: Navigator
    state: ReviewState | None
    space_id: str

    def load(self) -> None: ...

    def _screen(self) -> Screen[Any]:
        assert isinstance(self, Screen)
        return self

    def _fail(self, what: str, exc: GitBookError) -> None:
        self._screen().notify(
            clean_text(f"{what} failed ({self.nav.client.base_url}): {exc}"),
            title="Error",
            markup=False,
            severity="error",
            timeout=10,
        )

    def _drafts(self) -> DraftStore | None:
        try:
            return DraftStore(account_key(self.nav.client))
        except ValueError:
            return None

    # -- reviews ---------------------------------------------------------------------------------
    @gated
    def action_approve(self) -> None:
        self._review("approved")

    @gated
    def action_request_changes(self) -> None:
        self._review("changes-requested")

    @work(exclusive=True, group="cr-action", exit_on_error=False)
    async def _review(self, status: str) -> None:
        state = self.state
        assert state is not None
        cr = state.cr
        key = DraftKey("review", space=self.space_id, change_request=cr.id, variant=status)
        verb = "Approve" if status == "approved" else "Request changes on"

        async def submit(message: str) -> None:
            try:
                await self.nav.client.change_requests.submit_review(
                    self.space_id, cr.id, status, comment=message.strip() or None
                )
            except GitBookError as exc:  # the composer shows it and keeps the draft
                raise RuntimeError(clean_text(f"{self.nav.client.base_url}: {exc}")) from None

        sent = await self._screen().app.push_screen_wait(
            ReviewMessageScreen(f"{verb} #{cr.number}", self._drafts(), key, submit)
        )
        if not sent:
            return
        done = "Approved" if status == "approved" else "Changes requested on"
        self._screen().notify(f"{done} #{cr.number}")
        self.load()

    @gated
    def action_show_reviews(self) -> None:
        """Every review in full (the pane shows one row each)."""
        state = self.state
        assert state is not None
        if not state.reviews:
            self._screen().notify(f"No reviews of #{state.cr.number} yet.", timeout=3)
            return
        self._screen().app.push_screen(ReviewsScreen(state))

    # -- reviewers -------------------------------------------------------------------------------
    @gated
    def action_add_reviewer(self) -> None:
        self._add_reviewer()

    @work(exclusive=True, group="cr-action", exit_on_error=False)
    async def _add_reviewer(self) -> None:
        state = self.state
        org = self.nav.organization_id
        assert state is not None
        if org is None:
            return
        people = await self._space_roles(org)
        if people is None:
            return
        asked = {r.user.id for r in state.requested if r.user is not None}
        author = state.cr.createdBy.id if state.cr.createdBy else None
        candidates = []
        for user, role in people:
            note = ""
            if user.id == author:
                note = "author"
            elif user.id in asked:
                note = "already asked"
            elif role in ("read", "comment", None):
                note = f"{role or 'no'} role: can't review"
            candidates.append(Candidate(user.id, user.displayName or user.id, note))
        chosen = await self._screen().app.push_screen_wait(
            ReviewerPickerScreen(f"Ask to review #{state.cr.number}", candidates)
        )
        if chosen is None:
            return
        try:
            await self.nav.client.change_requests.request_reviewers(
                self.space_id, state.cr.id, [chosen]
            )
        except GitBookError as exc:
            self._fail("Asking for a review", exc)
            return
        name = next((c.name for c in candidates if c.id == chosen), chosen)
        self._screen().notify(
            f"Asked {clean_text(name)} to review #{state.cr.number}.", markup=False
        )
        self.load()

    async def _space_roles(self, org: str) -> list[tuple[User, str | None]] | None:
        """Everyone with their effective role on the space (who may review), or the
        organization's members with their organization role where that list is refused."""
        client = self.nav.client
        try:
            entries = await client.permissions.aggregate(space_id=self.space_id).to_list()
            return [
                (e.user, str(e.permission) if e.permission else None) for e in entries if e.user
            ]
        except GitBookError:
            pass
        try:
            members = await client.orgs.members(org, read="prefer-cache").to_list()
        except GitBookError as exc:
            self._fail("Listing members", exc)
            return None
        return [
            (m.user, str(m.role) if m.role else None)
            for m in members
            if m.user is not None and not m.disabled
        ]

    @gated
    def action_remove_reviewer(self) -> None:
        self._remove_reviewer()

    @work(exclusive=True, group="cr-action", exit_on_error=False)
    async def _remove_reviewer(self) -> None:
        state = self.state
        assert state is not None
        candidates = [
            Candidate(r.user.id, r.user.displayName or r.user.id)
            for r in state.requested
            if r.user is not None
        ]
        candidates += [
            Candidate(f"team:{r.team.id}", f"team {r.team.title or r.team.id}", "teams: web app")
            for r in state.requested
            if r.team is not None
        ]
        chosen = await self._screen().app.push_screen_wait(
            ReviewerPickerScreen(f"Stop asking for a review of #{state.cr.number}", candidates)
        )
        if chosen is None:
            return
        try:
            await self.nav.client.change_requests.remove_requested_reviewer(
                self.space_id, state.cr.id, chosen
            )
        except GitBookError as exc:
            self._fail("Removing the reviewer", exc)
            return
        self._screen().notify("Reviewer removed")
        self.load()

    # -- update and merge ------------------------------------------------------------------------
    @gated
    def action_update(self) -> None:
        self._update()

    @work(exclusive=True, group="cr-action", exit_on_error=False)
    async def _update(self) -> None:
        state = self.state
        assert state is not None
        cr = state.cr
        ok = await self._screen().app.push_screen_wait(
            ConfirmScreen(
                f"Update #{cr.number} from main",
                "Brings the main content's newer edits into this change request "
                "(a new revision of it; reviews of the old one become outdated).",
                confirm_label="Update",
            )
        )
        if not ok:
            return
        while ok:
            try:
                await self.nav.client.change_requests.update_from_main(self.space_id, cr.id)
            except ConflictError as exc:
                ok = await self._conflict(state, exc.message, "updated")
                continue
            except GitBookError as exc:
                self._fail("The update", exc)
                return
            await self._conflict_marks(cr.id, None)
            self._screen().notify(f"#{cr.number} is up to date with main")
            break
        self.load()

    @gated
    def action_merge(self) -> None:
        self._merge()

    @work(exclusive=True, group="cr-action", exit_on_error=False)
    async def _merge(self) -> None:
        state = self.state
        assert state is not None
        cr = state.cr
        app = self._screen().app
        again = True
        while again:
            again = False
            go_on = await app.push_screen_wait(
                MergeChecklistScreen(cr.number or 0, cr.subject or "", state.checklist())
            )
            if not go_on:
                break
            typed = str(cr.number)
            ok = await app.push_screen_wait(
                ConfirmScreen(
                    f"Merge #{cr.number}",
                    f"Merges the change request into the space's main content. "
                    f"Merging can't be undone. Type {typed} to merge #{cr.number}.",
                    confirm_label="Merge",
                    typed=typed,
                )
            )
            if not ok:
                break
            try:
                await self.nav.client.change_requests.merge(self.space_id, cr.id)
            except ConflictError as exc:
                again = await self._conflict(state, exc.message, "merged")
                continue
            except GitBookError as exc:
                self._fail("The merge", exc)
                return
            await self._conflict_marks(cr.id, None)
            self._screen().notify(f"Merged #{cr.number}")
            self.nav.navigate(RefreshSpace(self.space_id))
        self.load()

    async def _conflict(self, state: ReviewState, message: str, verb: str) -> bool:
        """Remember the 409 and show the conflict panel; whether to try again."""
        await self._conflict_marks(state.cr.id, message)
        retry = await self._screen().app.push_screen_wait(
            ConflictPanel(self.nav.client, state, message, verb)
        )
        return bool(retry)

    async def _conflict_marks(self, cr_id: str, message: str | None) -> None:
        """Mark the change request as conflicting (at its current revision), or clear it."""
        client = self.nav.client
        marks = await asyncio.to_thread(load_conflict_marks, client)
        if marks is None:
            return
        if message is None:
            if not marks.clear(cr_id):
                return
        else:
            try:
                fresh = await client.change_requests.get(self.space_id, cr_id, read="network")
            except GitBookError:
                return
            marks.mark(fresh, message)
        await asyncio.to_thread(marks.save)

    # -- status and subject ----------------------------------------------------------------------
    @gated
    def action_toggle_draft(self) -> None:
        state = self.state
        assert state is not None
        self._set_status("draft" if state.cr.status == "open" else "open")

    @gated
    def action_archive(self) -> None:
        state = self.state
        assert state is not None
        self._set_status("open" if state.cr.status == "archived" else "archived")

    @work(exclusive=True, group="cr-action", exit_on_error=False)
    async def _set_status(self, status: str) -> None:
        state = self.state
        assert state is not None
        cr = state.cr
        if status == "archived":
            ok = await self._screen().app.push_screen_wait(
                ConfirmScreen(
                    f"Archive #{cr.number}",
                    "Archives the change request: it leaves the open lists; x reopens it.",
                    confirm_label="Archive",
                )
            )
            if not ok:
                return
        try:
            await self.nav.client.change_requests.update(self.space_id, cr.id, status=status)
        except GitBookError as exc:
            self._fail("Changing the status", exc)
            return
        labels = {"open": "ready for review", "draft": "a draft", "archived": "archived"}
        self._screen().notify(f"#{cr.number} is {labels[status]}")
        self.load()

    @gated
    def action_edit_details(self) -> None:
        self._edit_details()

    @work(exclusive=True, group="cr-action", exit_on_error=False)
    async def _edit_details(self) -> None:
        state = self.state
        assert state is not None
        cr = state.cr
        result = await self._screen().app.push_screen_wait(SubjectScreen(cr))
        if result is None:
            return
        subject, description = result
        try:
            await self.nav.client.change_requests.update(
                self.space_id, cr.id, subject=subject, description={"markdown": description}
            )
        except GitBookError as exc:
            self._fail("Saving the subject", exc)
            return
        self._screen().notify(f"#{cr.number} saved")
        self.load()

    def action_copy_summary(self) -> None:
        state = self.state
        if state is None:
            return
        self._screen().app.copy_to_clipboard(summary_markdown(state))
        self._screen().notify(f"Copied a markdown summary of #{state.cr.number}")

    def action_open_web(self) -> None:
        state = self.state
        url = state.cr.urls.app if state is not None and state.cr.urls else None
        if (
            not url
            or not url.startswith(("http://", "https://"))
            or not (open_in_web_page(self._screen().app, url) or open_in_browser(url))
        ):
            self._screen().notify(
                clean_text(f"No browser here; the change request is at {url or '(no address)'}"),
                markup=False,
                timeout=8,
            )
