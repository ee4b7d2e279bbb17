"""Regenerate the README's screenshots (SVG) from the real app on the demo workspace.

    python screenshots/make_screenshots.py [--review]   (--review: only the review desk's)

Starts the bundled local server on a fresh demo database (seeding takes about ten
seconds), drives ``GitBookApp`` headless at 120×40 with a Pilot through the main views and
saves each one as ``screenshots/<name>.svg``. Nothing of the user's own configuration,
cache or state is read or written: everything lives in a temporary directory.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SIZE = (120, 40)


async def until(pilot: Any, condition: Callable[[], Any], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"make_screenshots: timed out waiting for {what}")
        await pilot.pause(0.05)


async def settle(pilot: Any) -> None:
    """Let every worker finish and the screen refresh."""
    app = pilot.app
    for _ in range(3):
        await pilot.pause()
        await app.workers.wait_for_complete()
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


def line_of(tree: Any, label: str) -> int | None:
    """The line of the first visible node labelled ``label`` (or ``<emoji> label``)."""
    for line, shown in enumerate(visible_labels(tree)):
        if shown == label or shown.endswith(f" {label}"):
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


def save(app: Any, name: str) -> None:
    from textual.widgets import Input

    for box in app.screen.query(Input):
        box.cursor_blink = False  # a steady cursor, whatever the blink phase
    app.save_screenshot(filename=f"{name}.svg", path=str(HERE))
    size = (HERE / f"{name}.svg").stat().st_size
    print(f"  screenshots/{name}.svg ({size // 1024} KB)")


async def tour(app: Any) -> None:
    from textual.command import CommandList, CommandPalette
    from textual.widgets import OptionList

    from gitbook_tui.tui.browse.browser_screen import BrowserScreen
    from gitbook_tui.tui.browse.outline_screen import OutlineScreen
    from gitbook_tui.tui.common.help_screen import HelpScreen
    from gitbook_tui.tui.search.search_screen import SearchScreen

    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen), "the browser")
        browser = app.screen
        tree = browser.workspace_tree
        await settle(pilot)

        # the workspace tree: j/k move, l/enter expand, enter opens a page
        await expand(pilot, tree, "▤ Product docs")
        await expand(pilot, tree, "📘 Tidewater User Guide")
        await expand(pilot, tree, "Core concepts")
        await open_from_tree(pilot, browser, "Consumer groups", "Consumer groups")
        save(app, "tree")

        # comments (3): the space's threads, the selected one with its reactions
        await pilot.press("3")
        await until(pilot, lambda: type(app.screen).__name__ == "CommentsScreen", "comments")
        comments = app.screen
        await until(pilot, lambda: comments.loaded and not comments.busy, "the threads")
        ranked = sorted(
            comments.thread_list.ids,
            key=lambda i: sum(r.count or 0 for r in comments.threads[i].comment.reactions),
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
        await pilot.press("escape", "1")
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen), "the browser again")

        # every GitBook block on one page; enter in the tree puts the focus on the page
        await open_from_tree(pilot, browser, "Every block, once", "Every block, once")
        await settle(pilot)
        save(app, "page")

        # find in page: / query enter, n / N for the next and previous match
        viewer = browser.viewer
        await pilot.press("slash", *"tide", "enter")
        await until(pilot, lambda: viewer.find_status.startswith("1/"), "find results")
        await pilot.press("n", "n")
        await settle(pilot)
        save(app, "find")
        await pilot.press("escape")

        # the command palette (ctrl+p): pages of the space, spaces, app commands
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        await settle(pilot)  # the providers load their pages and spaces first
        await pilot.press(*"consumer")
        listing = app.screen.query_one(CommandList)
        await until(pilot, lambda: listing.option_count > 2, "palette hits")
        await settle(pilot)
        save(app, "palette")
        await pilot.press("escape")

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

        # every key of the screen and the focused widget (?)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help screen")
        await settle(pilot)
        save(app, "help")
        await pilot.press("escape")

        # the site editor (4): structure, redirects, and the redirect lint (L)
        from gitbook_tui.tui.sites.lint_screen import LintScreen
        from gitbook_tui.tui.sites.site_editor_screen import SiteEditorScreen
        from gitbook_tui.tui.sites.sites_screen import SitesScreen

        await pilot.press("4")
        await until(
            pilot, lambda: isinstance(app.screen, SitesScreen) and app.screen.loaded, "sites"
        )
        sites = app.screen
        titles = [s.title for s in sites.sites]
        sites.query_one("#sites-table").move_cursor(row=titles.index("Tidewater Docs"))
        await pilot.press("enter")
        await until(
            pilot,
            lambda: isinstance(app.screen, SiteEditorScreen) and app.screen.data is not None,
            "the site editor",
        )
        await settle(pilot)
        save(app, "sites-structure")
        await pilot.press("right_square_bracket")
        await settle(pilot)
        save(app, "sites-redirects")
        await pilot.press("L")
        await until(pilot, lambda: isinstance(app.screen, LintScreen), "the lint")
        await settle(pilot)
        save(app, "sites-lint")
        await pilot.press("escape")


async def review_tour(app: Any) -> None:
    """The review desk (view 2): inbox, the 1 MB page's change request, the merge checklist."""
    from gitbook_tui.tui.browse.browser_screen import BrowserScreen
    from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
    from gitbook_tui.tui.review.merge_checklist_screen import MergeChecklistScreen
    from gitbook_tui.tui.review.review_inbox_screen import ReviewInboxScreen

    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, BrowserScreen), "the browser")
        await settle(pilot)
        await pilot.press("2")
        await until(pilot, lambda: isinstance(app.screen, ReviewInboxScreen), "the inbox")
        inbox = app.screen
        await until(pilot, lambda: inbox.loaded, "the inbox rows")
        await pilot.press("p")
        await settle(pilot)
        save(app, "reviews")

        subject = "Reference: reword 40 settings for 3.5"
        row = next(i for i, r in enumerate(inbox.shown) if r.cr.subject == subject)
        inbox.query_one("DataTable").move_cursor(row=row)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChangeRequestReviewScreen), "the review")
        review = app.screen
        await until(pilot, lambda: review.diff_ready.is_set(), "the diff", timeout=60)
        await pilot.press("n", "n")
        await settle(pilot)
        save(app, "review-diff")

        await pilot.press("m")
        await until(pilot, lambda: isinstance(app.screen, MergeChecklistScreen), "the checklist")
        await pilot.pause(0.3)
        save(app, "merge")


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="gitbook-tui-shots-") as tmp:
        root = Path(tmp)
        for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
            os.environ[name] = str(root / name.lower())
        os.environ.pop("GITBOOK_TOKEN", None)
        os.environ.pop("GITBOOK_API_URL", None)

        from gitbook_tui.api import AsyncGitBook
        from gitbook_tui.server.runner import start_in_thread
        from gitbook_tui.tui.app import GitBookApp
        from gitbook_tui.tui.common.config import TuiConfig
        from gitbook_tui.tui.common.state import StateStore

        print("Seeding the demo workspace…")
        handle = start_in_thread(root / "demo.sqlite", port=0, demo=True)
        try:
            client = AsyncGitBook(handle.token, base_url=handle.url)
            app = GitBookApp(
                client, demo=True, config=TuiConfig(), state_store=StateStore(root / "state.json")
            )
            if "--review" not in sys.argv[1:]:
                asyncio.run(tour(app))
            client = AsyncGitBook(handle.token, base_url=handle.url)
            app = GitBookApp(
                client, demo=True, config=TuiConfig(), state_store=StateStore(root / "state2.json")
            )
            asyncio.run(review_tour(app))
        finally:
            handle.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
