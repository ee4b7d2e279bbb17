"""Regenerate the README's screenshots (SVG) from the real app on the demo workspace.

    python screenshots/make_screenshots.py [--review | --history | --admin] [--timeout SECONDS]

``--review``: only the review desk's shots; ``--history``: only the History view's;
``--admin``: only the Admin view's. ``--timeout``: the whole run's limit (default
900 s; each wait has its own, shorter one).

Starts the demo server the way ``gitbook-tui --demo`` does (in a process of its own, on a
fresh database seeded in two phases: the app's first screen is served after the first, what
the other views read waits for the second) and, once both are in, drives ``GitBookApp``
headless at 120×40 with a Pilot through the main views, saving each one as
``screenshots/<name>.svg``. It waits on conditions, never fixed delays; a wait that runs
out ends the run with exit code 1 and a message naming what it waited for. Nothing of the user's own configuration, cache or
state is read or written: everything lives in a temporary directory, and ``$EDITOR`` is
``false`` (no shot opens an editor).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SIZE = (120, 40)
WAIT = 60.0  # seconds for one condition (the machine may be busy)
START_WAIT = 300.0  # the demo's seeding
T0 = time.monotonic()


class ShotTimeout(Exception):
    """A condition the tour waits on did not come true in time (or the server failed)."""


async def until(pilot: Any, condition: Callable[[], Any], what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            app = pilot.app
            raise ShotTimeout(
                f"timed out after {timeout:.0f} s waiting for {what} (showing "
                f"{type(app.screen).__name__}, focus on {type(app.focused).__name__})"
            )
        await pilot.pause(0.05)


def _busy_workers(app: Any) -> list[Any]:
    """The app's unfinished workers, but for those of screens under the one shown (a
    worker waiting for a dialog it opened, say: it ends when the dialog is answered)."""
    shown = app.screen

    def here(worker: Any) -> bool:
        node = worker.node
        if node is app or node is shown:
            return True
        try:
            return bool(node.screen is shown)
        except Exception:  # (not on a screen any more)
            return False

    return [w for w in app.workers if not w.is_finished and here(w)]


async def settle(pilot: Any, timeout: float = WAIT) -> None:
    """Let the shown screen's work finish and the screen refresh (a screenshot follows)."""
    app = pilot.app
    deadline = time.monotonic() + timeout
    for _ in range(3):
        await pilot.pause()
        while busy := _busy_workers(app):
            if time.monotonic() > deadline:
                names = ", ".join(sorted({w.name or str(w.group) for w in busy}))
                raise ShotTimeout(
                    f"timed out after {timeout:.0f} s waiting for the app's work ({names})"
                )
            await pilot.pause(0.05)
    await pilot.pause(0.2)


def visible_labels(tree: Any) -> list[str]:
    labels: list[str] = []

    def walk(node: Any) -> None:
        for child in node.children:
            labels.append(child.label.plain)
            if child.is_expanded:
                walk(child)

    walk(tree.root)
    return labels


def _is(shown: str, label: str) -> bool:
    """``shown`` is the row ``label`` (after an emoji, before a comment count)."""
    name = re.sub(r"\s*💬\s*\d+$", "", shown)
    return name == label or name.endswith(f" {label}")


def line_of(tree: Any, label: str) -> int | None:
    """The line of the first visible node labelled ``label`` (or ``<emoji> label``)."""
    for line, shown in enumerate(visible_labels(tree)):
        if _is(shown, label):
            return line
    return None


async def cursor_to(pilot: Any, tree: Any, label: str) -> None:
    """Move the tree's cursor to the visible node ``label`` with j/k, as a reader would."""
    await until(pilot, lambda: line_of(tree, label) is not None, f"{label!r} in the tree")
    target = line_of(tree, label)
    while tree.cursor_line != target:
        await pilot.press("j" if tree.cursor_line < target else "k")


async def to_tree(pilot: Any, tree: Any) -> None:
    """Back to the tree (a page opened from it has the focus), as escape would."""
    if not tree.has_focus:
        tree.screen.focus_tree()
        await until(pilot, lambda: tree.has_focus, "the tree's focus")


async def expand(pilot: Any, tree: Any, label: str) -> None:
    await to_tree(pilot, tree)
    await cursor_to(pilot, tree, label)
    await pilot.press("l")
    await settle(pilot)


async def open_from_tree(pilot: Any, browser: Any, label: str, title: str) -> None:
    await to_tree(pilot, browser.workspace_tree)
    await cursor_to(pilot, browser.workspace_tree, label)
    await pilot.press("enter")
    await until(pilot, lambda: browser.header.title_text == title, f"the page {title!r}")
    await until(pilot, lambda: browser.viewer.has_painted, f"{title!r} painted")
    await settle(pilot)


async def open_user_guide_page(pilot: Any, browser: Any, label: str) -> None:
    """Product docs › Tidewater User Guide › Core concepts › ``label``, opened."""
    tree = browser.workspace_tree
    for folder in ("▤ Product docs", "📘 Tidewater User Guide", "Core concepts"):
        if line_of(tree, label) is None:
            await expand(pilot, tree, folder)
    await open_from_tree(pilot, browser, label, label)


async def first_screen(pilot: Any) -> Any:
    from gitbook_tui.tui.browse.browser_screen import BrowserScreen

    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, BrowserScreen), "the browser", START_WAIT)
    await settle(pilot)
    return app.screen


def save(app: Any, name: str) -> None:
    from textual.widgets import Input

    for box in app.screen.query(Input):
        box.cursor_blink = False  # a steady cursor, whatever the blink phase
    app.save_screenshot(filename=f"{name}.svg", path=str(HERE))
    size = (HERE / f"{name}.svg").stat().st_size
    print(
        f"  screenshots/{name}.svg ({size // 1024} KB) at {time.monotonic() - T0:.0f} s", flush=True
    )


async def tour(app: Any) -> None:
    from textual.command import CommandList, CommandPalette
    from textual.widgets import OptionList

    from gitbook_tui.tui.browse.browser_screen import BrowserScreen
    from gitbook_tui.tui.browse.outline_screen import OutlineScreen
    from gitbook_tui.tui.common.composer import Composer
    from gitbook_tui.tui.common.help_screen import HelpScreen
    from gitbook_tui.tui.search.search_screen import SearchScreen

    async with app.run_test(size=SIZE) as pilot:
        browser = await first_screen(pilot)
        tree = browser.workspace_tree

        # the workspace tree: j/k move, l/enter expand, enter opens a page; 💬 counts
        await open_user_guide_page(pilot, browser, "Retention and compaction")
        space_id = browser.current_page[0]
        counts = browser.comment_counts
        await until(pilot, lambda: counts.of_space(space_id) is not None, "the comment counts")
        await settle(pilot)
        save(app, "tree")

        # comments (3): the space's threads, the selected one with its reactions
        await pilot.press("3")
        await until(pilot, lambda: type(app.screen).__name__ == "CommentsScreen", "comments")
        comments = app.screen
        await until(pilot, lambda: comments.loaded and not comments.busy, "the threads")
        ranked = sorted(
            comments.thread_list.ids,
            key=lambda i: sum(r.count or 0 for r in comments.state.threads[i].comment.reactions),
        )
        target = comments.thread_list.ids.index(ranked[-1])
        for _ in range(target):
            await pilot.press("j")
        await pilot.press("enter")
        await until(pilot, lambda: not comments.busy, "the thread")
        await settle(pilot)
        save(app, "comments")
        await pilot.press("c", *"Agreed, @So")
        await settle(pilot)
        save(app, "comments-reply")
        composer = comments.query_one(Composer)
        for _ in range(3):  # escape closes the @-completion first, then hides the composer
            if not composer.is_open:
                break
            await pilot.press("escape")
            await pilot.pause()
        await until(pilot, lambda: not composer.is_open, "the composer hidden (draft kept)")
        await pilot.press("1")
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen), "the browser again")

        # every GitBook block on one page; enter in the tree puts the focus on the page
        await open_from_tree(pilot, browser, "Every block, once", "Every block, once")
        save(app, "page")

        # find in page: / query enter, n / N for the next and previous match
        viewer = browser.viewer
        await pilot.press("slash", *"tide", "enter")
        await until(pilot, lambda: viewer.find_status.startswith("1/"), "find results")
        await pilot.press("n", "n")
        await settle(pilot)
        save(app, "find")
        await pilot.press("escape")

        # the command palette (ctrl+p): app commands, pages of the space, spaces
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        await settle(pilot)  # the providers load their pages and spaces first
        await pilot.press(*"consumer")
        listing = app.screen.query_one(CommandList)
        await until(pilot, lambda: listing.option_count > 2, "palette hits")
        await settle(pilot)
        save(app, "palette")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen), "the palette closed")

        # the 1 MB generated reference page, and its outline (t)
        await expand(pilot, tree, "▤ API & CLI reference")
        await expand(pilot, tree, "📚 Config reference (full)")
        title = "Configuration and metrics reference"
        await open_from_tree(pilot, browser, title, title)
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, OutlineScreen), "the outline")
        await settle(pilot)
        save(app, "outline")
        await pilot.press(*"storage segment", "enter")
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen), "the jump")
        await settle(pilot)
        save(app, "large-page")

        # search (s); ctrl+o switches between this space and the whole organization
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, SearchScreen), "the search screen")
        await pilot.press("ctrl+o", *"consumer lag", "enter")
        results = app.screen.query_one("#search-results", OptionList)
        await until(pilot, lambda: results.option_count > 0, "search results")
        await settle(pilot)
        save(app, "search")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen), "search closed")

        # every key of the screen and the focused widget (?)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help screen")
        await settle(pilot)
        save(app, "help")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen), "help closed")

        await sites_tour(pilot)
        await admin_tour(pilot)


async def history_tour(app: Any) -> None:
    """The History view: the user guide's log (``6`` over one of its pages), then the
    page's blame (``B`` in Browse), every block dated."""
    from gitbook_tui.tui.history.blame_screen import BlameScreen
    from gitbook_tui.tui.history.history_screen import HistoryScreen

    async with app.run_test(size=SIZE) as pilot:
        browser = await first_screen(pilot)
        await open_user_guide_page(pilot, browser, "Retention and compaction")
        await pilot.press("6")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), "the history")
        log = app.screen
        await until(pilot, lambda: len(log.shown) > 30, "the log")
        await pilot.press("j", "j")
        await settle(pilot)
        save(app, "history")
        await pilot.press("1")
        await until(pilot, lambda: app.screen is browser, "the browser")
        await pilot.press("B")
        await until(pilot, lambda: isinstance(app.screen, BlameScreen), "the blame")
        blame = app.screen
        await until(pilot, lambda: blame.walk is not None and blame.walk.done, "the blame walked")
        await pilot.press("j", "j", "j")
        await settle(pilot)
        save(app, "blame")


async def open_site(pilot: Any, title: str) -> Any:
    from gitbook_tui.tui.sites.site_editor_screen import SiteEditorScreen
    from gitbook_tui.tui.sites.sites_screen import SitesScreen

    app = pilot.app
    await until(
        pilot, lambda: isinstance(app.screen, SitesScreen) and app.screen.loaded, "the sites"
    )
    sites = app.screen
    await until(pilot, lambda: title in [s.title for s in sites.sites], f"the site {title!r}")
    titles = [s.title for s in sites.sites]
    sites.query_one("#sites-table").move_cursor(row=titles.index(title))
    await pilot.press("enter")
    await until(
        pilot,
        lambda: isinstance(app.screen, SiteEditorScreen) and app.screen.data is not None,
        f"the editor of {title!r}",
    )
    await settle(pilot)
    return app.screen


async def sites_tour(pilot: Any) -> None:
    """The site editor (4): a structure with section groups, redirects, the lint (L)."""
    from gitbook_tui.tui.sites.lint_screen import LintScreen
    from gitbook_tui.tui.sites.sites_screen import SitesScreen

    app = pilot.app
    await pilot.press("4")
    await open_site(pilot, "Tidewater Developer Hub")
    save(app, "sites-structure")
    await pilot.press("escape")
    await until(pilot, lambda: isinstance(app.screen, SitesScreen), "the sites again")
    await open_site(pilot, "Tidewater Docs")
    await pilot.press("right_square_bracket")
    await settle(pilot)
    save(app, "sites-redirects")
    await pilot.press("L")
    await until(pilot, lambda: isinstance(app.screen, LintScreen), "the lint")
    await settle(pilot)
    save(app, "sites-lint")
    await pilot.press("escape")


async def admin_tour(pilot: Any) -> None:
    """The Admin view (5): members, teams, invites, integrations, OpenAPI specs and
    translations, then ``P`` on a guide page in Browse (who can see it: the Permissions tab)."""
    from gitbook_tui.tui.admin.admin_screen import AdminScreen

    app = pilot.app
    browser = app.browser  # (the tour may come here from another view)
    await pilot.press("5")
    await until(
        pilot,
        lambda: isinstance(app.screen, AdminScreen) and app.screen.current.loaded,
        "the members",
    )
    screen = app.screen
    assert isinstance(screen, AdminScreen)
    for name in ("members", "teams", "invites", "integrations", "openapi", "translations"):
        while screen.tab != name:
            await pilot.press("right_square_bracket")
        await until(pilot, lambda: screen.current.loaded, f"the {name} tab")
        await settle(pilot)
        save(app, f"admin-{name}")
    await pilot.press("1")
    await until(pilot, lambda: app.screen is browser, "the browser")
    await open_user_guide_page(pilot, browser, "Streams and partitions")
    await pilot.press("P")
    await until(
        pilot,
        lambda: app.screen is screen and screen.tab == "permissions" and screen.current.loaded,
        "the permissions of the page",
    )
    await settle(pilot)
    save(app, "admin-permissions")


async def admin_only_tour(app: Any) -> None:
    """``--admin``: only the Admin view's shots."""
    async with app.run_test(size=SIZE) as pilot:
        await first_screen(pilot)
        await admin_tour(pilot)


async def open_change_request(pilot: Any, inbox: Any, subject: str) -> Any:
    from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen

    app = pilot.app

    def row() -> int | None:
        return next((i for i, r in enumerate(inbox.shown) if r.cr.subject == subject), None)

    from gitbook_tui.tui.review.inbox_data import SECTIONS

    await until(pilot, lambda: inbox.loaded, "the inbox rows")
    for _ in SECTIONS:  # l: the next section, as a reader looks for it
        if row() is not None:
            break
        await pilot.press("l")
        await pilot.pause()
    await until(pilot, lambda: row() is not None, f"the change request {subject!r}")
    inbox.query_one("DataTable").move_cursor(row=row())
    await pilot.press("enter")
    await until(
        pilot, lambda: isinstance(app.screen, ChangeRequestReviewScreen), f"the review {subject!r}"
    )
    review = app.screen
    await until(pilot, lambda: review.diff_ready.is_set(), f"the diff of {subject!r}", 120)
    return review


async def review_tour(app: Any) -> None:
    """The review desk (view 2): inbox, the 1 MB page's change request, the merge
    checklist, a 409's conflict panel, and suggest an edit's picker (back in the browser)."""
    from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
    from gitbook_tui.tui.render.diff_view import DiffView
    from gitbook_tui.tui.review.conflict_panel import ConflictPanel
    from gitbook_tui.tui.review.edit_target_screen import EditTargetScreen
    from gitbook_tui.tui.review.merge_checklist_screen import MergeChecklistScreen
    from gitbook_tui.tui.review.review_inbox_screen import ReviewInboxScreen

    async with app.run_test(size=SIZE) as pilot:
        browser = await first_screen(pilot)
        await pilot.press("2")
        await until(pilot, lambda: isinstance(app.screen, ReviewInboxScreen), "the inbox")
        inbox = app.screen
        await until(pilot, lambda: inbox.loaded, "the inbox rows")
        await pilot.press("p")
        await settle(pilot)
        save(app, "reviews")

        # the 1 MB page's change request, split; n jumps to the next change
        review = await open_change_request(pilot, inbox, "Reference: reword 40 settings for 3.5")
        await pilot.press("n", "n")
        await settle(pilot)
        save(app, "review-diff")

        # m: GitBook's merge rules as a checklist first
        await pilot.press("m")
        await until(pilot, lambda: isinstance(app.screen, MergeChecklistScreen), "the checklist")
        await settle(pilot)
        save(app, "merge")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is review, "the checklist closed")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is inbox, "the inbox again")

        # u on a change request whose page main changed too: the server's 409, explained
        await open_change_request(pilot, inbox, "Update partition sizing guidance for 3.5")
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the update's question")
        await pilot.press("enter")
        await until(
            pilot, lambda: isinstance(app.screen, ConflictPanel), "the conflict panel (a 409)"
        )
        panel = app.screen
        await until(
            pilot,
            lambda: all(v.diff is not None for v in panel.query(DiffView)),
            "both sides of the conflict",
        )
        await settle(pilot)
        save(app, "conflict")
        await pilot.press("escape", "escape")
        await until(pilot, lambda: app.screen is inbox, "the inbox after the conflict")

        # suggest an edit (e on a page): where it goes is asked before $EDITOR opens
        await pilot.press("1")
        await until(pilot, lambda: app.screen is browser, "the browser")
        await open_user_guide_page(pilot, browser, "Streams and partitions")
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, EditTargetScreen), "the edit picker")
        await settle(pilot)
        save(app, "suggest-edit")
        await pilot.press("escape")  # nothing is opened or sent
        await until(pilot, lambda: app.screen is browser, "the picker closed")


def _make_app(root: Path, url: str, name: str, starting: Callable[[], bool] | None) -> Any:
    from gitbook_tui.api import AsyncGitBook
    from gitbook_tui.cache import ResponseCache
    from gitbook_tui.server.demo.identity import demo_admin_token
    from gitbook_tui.tui.app import GitBookApp
    from gitbook_tui.tui.common.config import TuiConfig
    from gitbook_tui.tui.common.state import StateStore

    # as `gitbook-tui --demo` does: the demo's admin, with a response cache (its own here)
    client = AsyncGitBook(
        demo_admin_token(), base_url=url, cache=ResponseCache(root / f"{name}.cache")
    )
    return GitBookApp(
        client,
        demo=True,
        config=TuiConfig(),
        state_store=StateStore(root / f"{name}.state.json"),
        starting=starting,
    )


def _watchdog(seconds: float, stop_server: Callable[[], None], tmp: Path) -> None:
    """Ends the whole run (exit code 3) if it takes longer than ``seconds``: a hang that no
    condition's own timeout catches still ends with a message."""

    def expire() -> None:
        print(
            f"make_screenshots: the run took longer than {seconds:.0f} s; stopping "
            "(is the machine very busy? try --timeout)",
            file=sys.stderr,
            flush=True,
        )
        stop_server()
        shutil.rmtree(tmp, ignore_errors=True)
        os._exit(3)

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--review", action="store_true", help="only the review desk's shots")
    parser.add_argument("--history", action="store_true", help="only the History view's shots")
    parser.add_argument("--admin", action="store_true", help="only the Admin view's shots")
    parser.add_argument("--timeout", type=float, default=900, help="limit for the whole run (s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gitbook-tui-shots-") as tmp:
        root = Path(tmp)
        for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
            os.environ[name] = str(root / name.lower())
        for name in ("GITBOOK_TOKEN", "GITBOOK_API_URL"):
            os.environ.pop(name, None)
        os.environ["VISUAL"] = os.environ["EDITOR"] = "false"  # no shot opens an editor

        from gitbook_tui.server.background import BackgroundStart

        started = time.monotonic()
        print("Starting the demo server (a fresh database, seeded in two phases)…", flush=True)
        handle = BackgroundStart(root / "demo.sqlite", demo=True)
        _watchdog(args.timeout, handle.stop, root)
        try:
            # The app could start now (it shows a progress screen, then the browser after
            # the first phase), but what it read before the second phase stays as it was
            # for the session (a space's comment count, say): the shots show the demo whole.
            try:
                seeded = handle.wait_seeded(START_WAIT)
            except RuntimeError as exc:
                raise ShotTimeout(str(exc)) from None
            if not seeded:
                raise ShotTimeout(f"the demo was not seeded after {START_WAIT:.0f} s")
            print(f"  demo seeded in {time.monotonic() - started:.0f} s", flush=True)
            if args.admin:
                asyncio.run(admin_only_tour(_make_app(root, handle.url, "admin", handle.poll)))
            if not (args.review or args.history or args.admin):
                asyncio.run(tour(_make_app(root, handle.url, "tour", handle.poll)))
            if not (args.history or args.admin):
                asyncio.run(review_tour(_make_app(root, handle.url, "review", handle.poll)))
            if not (args.review or args.admin):
                asyncio.run(history_tour(_make_app(root, handle.url, "history", handle.poll)))
        except ShotTimeout as exc:
            print(f"make_screenshots: {exc}", file=sys.stderr, flush=True)
            return 1
        finally:
            handle.stop()
    print(f"Done in {time.monotonic() - started:.0f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
