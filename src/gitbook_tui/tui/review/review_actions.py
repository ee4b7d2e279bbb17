"""ReviewActions: what the review pane does to a change request — review, reviewers,
update, merge, status, subject — each confirmed where it widens or destroys (merge typed).
Held by :class:`.change_request_review_screen.ChangeRequestReviewScreen`, whose gated
``action_*`` methods delegate here; the calls themselves are :mod:`.review_ops`'.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import App

from ...api import ConflictError, GitBookError
from ...drafts import DraftKey, DraftStore
from ...markdown.sanitize import clean_text
from ..common.confirm_screen import ConfirmScreen
from ..common.intents import RefreshSpace
from ..common.link_targets import open_in_browser, open_in_web_page
from ..common.screen_host import ScreenHost
from ..common.state import account_key
from . import review_ops
from .conflict_panel import ConflictPanel
from .merge_checklist_screen import MergeChecklistScreen
from .review_data import summary_markdown
from .review_message_screen import ReviewMessageScreen
from .reviewer_picker_screen import Candidate, ReviewerPickerScreen
from .reviews_screen import ReviewsScreen
from .subject_screen import SubjectScreen

if TYPE_CHECKING:
    from ...models import User
    from ..common.navigator import Navigator
    from .review_data import ReviewState

__all__ = ["ActionsHost", "ReviewActions"]

ACTIONS = "cr-action"
"""The worker group of the actions: one at a time (a new one cancels the one waiting)."""


class ActionsHost(ScreenHost, Protocol):
    """What the actions need from the review pane."""

    nav: Navigator
    state: ReviewState | None
    space_id: str

    @property
    def app(self) -> App[Any]: ...
    def load(self) -> None: ...


class ReviewActions:
    """Actions of one review pane on its change request (the host checked the reader may)."""

    def __init__(self, host: ActionsHost) -> None:
        self.host = host

    @property
    def nav(self) -> Navigator:
        return self.host.nav

    @property
    def state(self) -> ReviewState | None:
        return self.host.state

    @property
    def space_id(self) -> str:
        return self.host.space_id

    def load(self) -> None:
        self.host.load()

    def _run(self, work: Coroutine[Any, Any, None]) -> None:
        self.host.run_worker(work, group=ACTIONS, exclusive=True, exit_on_error=False)

    def _fail(self, what: str, exc: GitBookError) -> None:
        self.host.notify(
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
    def approve(self) -> None:
        self._run(self._review("approved"))

    def request_changes(self) -> None:
        self._run(self._review("changes-requested"))

    async def _review(self, status: str) -> None:
        state = self.state
        assert state is not None
        cr = state.cr
        key = DraftKey("review", space=self.space_id, change_request=cr.id, variant=status)
        verb = "Approve" if status == "approved" else "Request changes on"

        async def submit(message: str) -> None:
            try:
                await review_ops.submit_review(
                    self.nav.client, self.space_id, cr.id, status, message
                )
            except GitBookError as exc:  # the composer shows it and keeps the draft
                raise RuntimeError(clean_text(f"{self.nav.client.base_url}: {exc}")) from None

        sent = await self.host.app.push_screen_wait(
            ReviewMessageScreen(f"{verb} #{cr.number}", self._drafts(), key, submit)
        )
        if not sent:
            return
        done = "Approved" if status == "approved" else "Changes requested on"
        self.host.notify(f"{done} #{cr.number}")
        self.load()

    def show_reviews(self) -> None:
        """Every review in full (the pane shows one row each)."""
        state = self.state
        assert state is not None
        if not state.reviews:
            self.host.notify(f"No reviews of #{state.cr.number} yet.", timeout=3)
            return
        self.host.app.push_screen(ReviewsScreen(state))

    # -- reviewers -------------------------------------------------------------------------------
    def add_reviewer(self) -> None:
        self._run(self._add_reviewer())

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
        chosen = await self.host.app.push_screen_wait(
            ReviewerPickerScreen(f"Ask to review #{state.cr.number}", candidates)
        )
        if chosen is None:
            return
        try:
            await review_ops.request_reviewer(self.nav.client, self.space_id, state.cr.id, chosen)
        except GitBookError as exc:
            self._fail("Asking for a review", exc)
            return
        name = next((c.name for c in candidates if c.id == chosen), chosen)
        self.host.notify(f"Asked {clean_text(name)} to review #{state.cr.number}.", markup=False)
        self.load()

    async def _space_roles(self, org: str) -> list[tuple[User, str | None]] | None:
        """Everyone who may be asked, with their role (``None``: the lists were refused)."""
        try:
            return await review_ops.space_roles(self.nav.client, self.space_id, org)
        except GitBookError as exc:
            self._fail("Listing members", exc)
            return None

    def remove_reviewer(self) -> None:
        self._run(self._remove_reviewer())

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
        chosen = await self.host.app.push_screen_wait(
            ReviewerPickerScreen(f"Stop asking for a review of #{state.cr.number}", candidates)
        )
        if chosen is None:
            return
        try:
            await review_ops.remove_reviewer(self.nav.client, self.space_id, state.cr.id, chosen)
        except GitBookError as exc:
            self._fail("Removing the reviewer", exc)
            return
        self.host.notify("Reviewer removed")
        self.load()

    # -- update and merge ------------------------------------------------------------------------
    def update(self) -> None:
        self._run(self._update())

    async def _update(self) -> None:
        state = self.state
        assert state is not None
        cr = state.cr
        ok = await self.host.app.push_screen_wait(
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
                await review_ops.update_from_main(self.nav.client, self.space_id, cr.id)
            except ConflictError as exc:
                ok = await self._conflict(state, exc.message, "updated")
                continue
            except GitBookError as exc:
                self._fail("The update", exc)
                return
            await self._conflict_marks(cr.id, None)
            self.host.notify(f"#{cr.number} is up to date with main")
            break
        self.load()

    def merge(self) -> None:
        self._run(self._merge())

    async def _merge(self) -> None:
        state = self.state
        assert state is not None
        cr = state.cr
        app = self.host.app
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
                await review_ops.merge(self.nav.client, self.space_id, cr.id)
            except ConflictError as exc:
                again = await self._conflict(state, exc.message, "merged")
                continue
            except GitBookError as exc:
                self._fail("The merge", exc)
                return
            await self._conflict_marks(cr.id, None)
            self.host.notify(f"Merged #{cr.number}")
            self.nav.navigate(RefreshSpace(self.space_id))
        self.load()

    async def _conflict(self, state: ReviewState, message: str, verb: str) -> bool:
        """Remember the 409 and show the conflict panel; whether to try again."""
        await self._conflict_marks(state.cr.id, message)
        retry = await self.host.app.push_screen_wait(
            ConflictPanel(self.nav.client, state, message, verb)
        )
        return bool(retry)

    async def _conflict_marks(self, cr_id: str, message: str | None) -> None:
        """Mark the change request as conflicting (at its current revision), or clear it."""
        await review_ops.record_conflict(self.nav.client, self.space_id, cr_id, message)

    # -- status and subject ----------------------------------------------------------------------
    def toggle_draft(self) -> None:
        state = self.state
        assert state is not None
        self._run(self._set_status("draft" if state.cr.status == "open" else "open"))

    def archive(self) -> None:
        state = self.state
        assert state is not None
        self._run(self._set_status("open" if state.cr.status == "archived" else "archived"))

    async def _set_status(self, status: str) -> None:
        state = self.state
        assert state is not None
        cr = state.cr
        if status == "archived":
            ok = await self.host.app.push_screen_wait(
                ConfirmScreen(
                    f"Archive #{cr.number}",
                    "Archives the change request: it leaves the open lists; x reopens it.",
                    confirm_label="Archive",
                )
            )
            if not ok:
                return
        try:
            await review_ops.set_status(self.nav.client, self.space_id, cr.id, status)
        except GitBookError as exc:
            self._fail("Changing the status", exc)
            return
        labels = {"open": "ready for review", "draft": "a draft", "archived": "archived"}
        self.host.notify(f"#{cr.number} is {labels[status]}")
        self.load()

    def edit_details(self) -> None:
        self._run(self._edit_details())

    async def _edit_details(self) -> None:
        state = self.state
        assert state is not None
        cr = state.cr
        result = await self.host.app.push_screen_wait(SubjectScreen(cr))
        if result is None:
            return
        subject, description = result
        try:
            await review_ops.save_details(
                self.nav.client, self.space_id, cr.id, subject, description
            )
        except GitBookError as exc:
            self._fail("Saving the subject", exc)
            return
        self.host.notify(f"#{cr.number} saved")
        self.load()

    def copy_summary(self) -> None:
        state = self.state
        if state is None:
            return
        self.host.app.copy_to_clipboard(summary_markdown(state))
        self.host.notify(f"Copied a markdown summary of #{state.cr.number}")

    def open_web(self) -> None:
        state = self.state
        url = state.cr.urls.app if state is not None and state.cr.urls else None
        if (
            not url
            or not url.startswith(("http://", "https://"))
            or not (open_in_web_page(self.host.app, url) or open_in_browser(url))
        ):
            self.host.notify(
                clean_text(f"No browser here; the change request is at {url or '(no address)'}"),
                markup=False,
                timeout=8,
            )
