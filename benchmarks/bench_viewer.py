"""Page viewer benchmark on the 1 MB demo page, against Textual's stock Markdown widget.

Run: python benchmarks/bench_viewer.py [--size 120x40] [--stock-timeout 60] [--skip-stock]
     python benchmarks/bench_viewer.py --quick   (a 200 KB slice, one round, no stock
     widget: ~10 s; CI runs it)

Figures (all wall-clock, headless ``App.run_test``):

* whole parse: what parsing the page in one go costs (sanitise, then
  ``gitbook_tui.markdown.parse``, plus the full garbage collection it leaves due). The
  app no longer waits for it: pages are parsed progressively.
* first parse step: :func:`~gitbook_tui.tui.browse.page_loader.parse_progressively` —
  the page's first ~12 KB of whole top-level blocks (in a thread).
* show() call: the synchronous part of ``PageViewer.show(document)`` (estimates every
  block, lays out the first screen).
* first line: from just before ``show()`` to the first ``render_line`` call that
  returns a line of the new document (the compositor painting the first frame).
* first frame: from just before ``show()`` until the screen refresh that painted the
  viewer's first line is over (``call_after_refresh`` from that ``render_line``).
* DATA → FIRST FRAME: from the page's markdown in hand (as ``PageLoader`` has it) to
  that first frame: first parse step + show + first frame. The rest of the page is
  parsed in a thread once the first frame is painted and added as it comes.
* data → page complete: until the last part of the parse has been added.
* G action: the ``bottom`` action alone (lays out the last screenful, scrolls).
* G frame: from sending the ``G`` key until a frame showing the document's last line
  has been painted.
* peak RSS: ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` of this process, which only
  ever parses and shows the page (the stock widget runs in child processes).
* resize: from the resize to the first repainted line at the new width.
* FIND: the page's first search, from ``find()`` until every block has been searched
  (find's pre-check text is made in the background once the page is complete, so only
  the blocks that may hold the query are laid out). Typed find: ``/``, another query
  typed, enter — from the viewer getting the query to every match.
* WORST FIRST SCREEN: the slowest first screen after parsing (``DocumentLayout`` +
  ``Viewport.go(0)``, best of 3) over every demo page and a ~190 KB changelog that is one
  ``{% updates %}`` block of 68 open ``<details>``.
* stock Markdown: ``await Markdown.update(text)`` plus the first frame, in a child
  process killed after ``--stock-timeout`` seconds ("> N s" then).

Before / after issue 14's "keep it fast" work, back to back on the same loaded 2-core
machine (load average ~7; figures swing ±50 % between runs at that load), 120x40::

                                    before (65d590f)         after
    data → first frame, 1 MB page   1.72 s (parse 1.58 s      0.14 s (first step 36 ms
                                    + first frame 0.13 s)      + first frame 108 ms)
    data → page complete            1.72 s                   1.74 s (rest in a thread)
    find 'retention', all 76        4.19 s                   0.20 s (0.06 s at load ~5)
    typed find, 171 matches         —                        0.29 s (layout of 171 blocks)
    worst first screen after parse  335 ms (changelog)       16 ms
    G key → bottom frame            64 ms                    62–130 ms (noisy)

Before: ``python benchmarks/bench_viewer.py --skip-stock`` at commit 65d590f ("data →
first frame" = its parse + first frame; the first-screen figure from the same
``DocumentLayout`` + ``Viewport.go(0)`` timing on that commit).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.strip import Strip

import gitbook_tui
from gitbook_tui.server.demo.generated import large_changelog_page, large_reference_page
from gitbook_tui.tui.browse.find_bar import FindBar
from gitbook_tui.tui.browse.page_loader import parse_page, parse_progressively
from gitbook_tui.tui.browse.page_viewer import PageViewer
from gitbook_tui.tui.render import DocumentLayout
from gitbook_tui.tui.render.viewport import Viewport

DEMO_SPACES = Path(gitbook_tui.__file__).parent / "server/demo/spaces"


class TimedViewer(PageViewer):
    """Records when lines of the current document are painted."""

    first_line_at: float | None = None
    frame_at: float | None = None
    submitted_at: float | None = None
    found_all_at: float | None = None
    last_painted_y: int = -1

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        if self.has_painted:
            if self.first_line_at is None:
                self.first_line_at = time.perf_counter()
                self.call_after_refresh(self._frame_painted)
            self.last_painted_y = max(self.last_painted_y, int(self.scroll_y) + y)
        return strip

    def on_find_bar_submitted(self, message: FindBar.Submitted) -> None:
        self.submitted_at, self.found_all_at = time.perf_counter(), None
        super().on_find_bar_submitted(message)

    def _update_find_status(self) -> None:
        super()._update_find_status()
        if self.find_results.done and self.found_all_at is None:
            self.found_all_at = time.perf_counter()

    def _frame_painted(self) -> None:
        if self.frame_at is None:
            self.frame_at = time.perf_counter()


class ViewerApp(App[None]):
    CSS_PATH = None

    def compose(self) -> ComposeResult:
        yield TimedViewer()


def slice_text(text: str, size: int) -> str:
    """The first ``size`` bytes-ish of ``text``, cut at a blank line so blocks stay whole."""
    if size >= len(text):
        return text
    cut = text.rfind("\n\n", 0, size)
    return text[: cut if cut > 0 else size]


async def bench_viewer(
    text: str, size: tuple[int, int], query: str = "retention", typed_query: str = "rolling restart"
) -> dict[str, Any]:
    started = time.perf_counter()
    parse_page(text)
    # The parse leaves a full garbage collection due; run it here so that pause is
    # billed to the parse, not to whatever allocates next (the viewer's first frame).
    gc.collect()
    parse_s = time.perf_counter() - started
    app = ViewerApp()
    async with app.run_test(size=size) as pilot:
        viewer = app.query_one(TimedViewer)
        viewer.focus()
        await pilot.pause()
        # Data arrives: the app's path from here (PageLoader → PageViewer.show).
        arrived = time.perf_counter()
        document, share, rest = await parse_progressively(text)
        first_step_s = time.perf_counter() - arrived
        started = time.perf_counter()
        viewer.show(document, rest=rest, share=share)
        show_s = time.perf_counter() - started
        while viewer.frame_at is None:
            await asyncio.sleep(0.001)
        frame_s = viewer.frame_at - started
        data_frame_s = viewer.frame_at - arrived
        assert viewer.first_line_at is not None
        first_line_s = viewer.first_line_at - started
        while not viewer.complete:
            await asyncio.sleep(0.005)
        data_complete_s = time.perf_counter() - arrived
        gc.collect()

        layout = viewer.document_layout
        assert layout is not None
        started = time.perf_counter()
        viewer.action_bottom()
        action_s = time.perf_counter() - started
        viewer.action_top()
        await pilot.pause()

        viewer.last_painted_y = -1
        started = time.perf_counter()
        await pilot.press("G")
        while viewer.last_painted_y < layout.total_height - 1:
            await pilot.pause()
        g_frame_s = time.perf_counter() - started
        assert viewer.scroll_y == viewer.max_scroll_y
        lines, blocks = layout.total_height, len(layout)

        # Resize: only the new screen is re-wrapped; the rest goes back to estimates.
        viewer.first_line_at = None
        started = time.perf_counter()
        await pilot.resize_terminal(size[0] - 40, size[1])
        while viewer.first_line_at is None:
            await pilot.pause()
        resize_s = viewer.first_line_at - started

        # Find over the whole page: searched in 20 ms slices between event-loop turns.
        viewer.action_top()
        started = time.perf_counter()
        viewer.find(query)
        first_match_s: float | None = None
        while True:
            if first_match_s is None and viewer.find_results.current is not None:
                first_match_s = time.perf_counter() - started
            if viewer.find_results.done:
                break
            await asyncio.sleep(0.001)
        find_s = time.perf_counter() - started
        matches = len(viewer.find_results.matches)

        # As a user finds: "/" opens the bar (find's pre-check is made meanwhile), the
        # query is typed, enter; timed from the viewer getting the query to every match
        # (another query: nothing of the search above is reused but the pre-check).
        await pilot.press("escape")
        await pilot.press("slash", *typed_query, "enter")
        while not (viewer.find_results.query == typed_query and viewer.find_results.done):
            await asyncio.sleep(0.001)
        assert viewer.submitted_at is not None and viewer.found_all_at is not None
        typed_find_s = viewer.found_all_at - viewer.submitted_at
        typed_matches = len(viewer.find_results.matches)
    return {
        "first_step_s": first_step_s,
        "data_frame_s": data_frame_s,
        "data_complete_s": data_complete_s,
        "resize_s": resize_s,
        "find_first_s": first_match_s or 0.0,
        "find_all_s": find_s,
        "matches": matches,
        "typed_find_s": typed_find_s,
        "typed_matches": typed_matches,
        "bytes": len(text.encode()),
        "parse_s": parse_s,
        "show_s": show_s,
        "first_line_s": first_line_s,
        "first_frame_s": frame_s,
        "g_action_s": action_s,
        "g_frame_s": g_frame_s,
        "lines": lines,
        "blocks": blocks,
    }


async def bench_stock(text: str, size: tuple[int, int]) -> dict[str, float]:
    from textual.widgets import Markdown

    class StockApp(App[None]):
        CSS_PATH = None

        def compose(self) -> ComposeResult:
            yield Markdown()

    app = StockApp()
    async with app.run_test(size=size) as pilot:
        markdown = app.query_one(Markdown)
        await pilot.pause()
        started = time.perf_counter()
        await markdown.update(text)
        await pilot.pause()
        return {"bytes": len(text.encode()), "first_frame_s": time.perf_counter() - started}


def run_stock_child(size_bytes: int, size: tuple[int, int], timeout: float) -> str:
    """Run the stock widget on a slice in a child process; its figure or "> N s"."""
    command = [
        sys.executable,
        __file__,
        "--child-stock",
        str(size_bytes),
        "--size",
        f"{size[0]}x{size[1]}",
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return f"> {timeout:g} s"
    except subprocess.CalledProcessError as error:
        return f"failed ({error.stderr.strip().splitlines()[-1:]})"
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return f"{result['first_frame_s']:.2f} s"


def bench_pages(width: int, height: int) -> tuple[float, str]:
    """The slowest first screen after parsing over every demo page and a synthetic
    changelog (one ``{% updates %}`` block holding many open ``<details>``): the time to
    lay out the first screen (``DocumentLayout`` + ``Viewport.go(0)``), best of 3."""
    pages = {
        str(path.relative_to(DEMO_SPACES)): path.read_text(encoding="utf-8")
        for path in sorted(DEMO_SPACES.rglob("*.md"))
    }
    pages["synthetic changelog"] = large_changelog_page()
    worst, worst_name = 0.0, ""
    for name, markdown in pages.items():
        document = parse_page(markdown)
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            Viewport(DocumentLayout(document, width), height).go(0)
            best = min(best, time.perf_counter() - started)
        if best > worst:
            worst, worst_name = best, name
    return worst, worst_name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="120x40", help="terminal size, COLSxROWS")
    parser.add_argument("--stock-timeout", type=float, default=60.0)
    parser.add_argument("--skip-stock", action="store_true")
    parser.add_argument(
        "--quick", action="store_true", help="a 200 KB slice, one round, no stock widget (CI)"
    )
    parser.add_argument("--child-stock", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    columns, rows = (int(part) for part in args.size.split("x"))
    text = large_reference_page()
    if args.quick:
        text = slice_text(text, 200_000)

    if args.child_stock is not None:
        print(
            json.dumps(
                asyncio.run(bench_stock(slice_text(text, args.child_stock), (columns, rows)))
            )
        )
        return

    print("$", shlex.join([sys.executable, *sys.argv]))
    query = "timeout" if args.quick else "retention"
    figures = asyncio.run(bench_viewer(text, (columns, rows), query))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    ms = {key: value * 1000 for key, value in figures.items() if key.endswith("_s")}
    print(
        f"page: {figures['bytes']:,} bytes, {figures['blocks']:,} blocks, {figures['lines']:,} lines at {columns} columns"
    )
    print(f"whole parse + its gc:  {ms['parse_s']:8.1f} ms  (what a non-progressive parse costs)")
    print(f"first parse step:      {ms['first_step_s']:8.1f} ms  (in a thread)")
    print(f"show() call:           {ms['show_s']:8.1f} ms")
    print(f"show → first line:     {ms['first_line_s']:8.1f} ms")
    print(f"show → first frame:    {ms['first_frame_s']:8.1f} ms")
    print(f"DATA → FIRST FRAME:    {ms['data_frame_s']:8.1f} ms  (budget 250 ms, parse included)")
    print(f"data → page complete:  {ms['data_complete_s']:8.1f} ms  (rest parsed in a thread)")
    print(f"G action:              {ms['g_action_s']:8.1f} ms")
    print(f"G key → bottom frame:  {ms['g_frame_s']:8.1f} ms  (budget 100 ms)")
    print(f"resize → first line:   {ms['resize_s']:8.1f} ms  ({columns} → {columns - 40} columns)")
    print(
        f"{'FIND ' + repr(query) + ':':<22} {ms['find_all_s']:8.1f} ms for all {figures['matches']:,} matches "
        f"(budget 200 ms; first one current after {ms['find_first_s']:.1f} ms)"
    )
    print(
        f"typed find {'rolling restart'!r}: {ms['typed_find_s']:6.1f} ms for all "
        f"{figures['typed_matches']:,} matches (/ + query typed, from enter)"
    )
    print(f"peak RSS:              {peak_mb:8.1f} MB  (budget 150 MB; includes the parse)")
    worst, worst_name = bench_pages(columns - 2, rows - 2)
    print(
        f"WORST FIRST SCREEN:    {worst * 1000:8.1f} ms  (budget 50 ms after parsing; {worst_name})"
    )
    if args.quick:
        return

    slices = [50_000, 200_000]
    print("PageViewer on slices (show → first frame):")
    for size_bytes in slices:
        small = asyncio.run(bench_viewer(slice_text(text, size_bytes), (columns, rows)))
        print(f"  {size_bytes // 1000:>5} KB: {small['first_frame_s'] * 1000:8.1f} ms")
    if args.skip_stock:
        return
    print(
        f"Textual stock Markdown (update → first frame, child process, cap {args.stock_timeout:g} s):"
    )
    for size_bytes in [*slices, len(text)]:
        label = "1 MB page" if size_bytes == len(text) else f"{size_bytes // 1000} KB"
        print(
            f"  {label:>9}: {run_stock_child(size_bytes, (columns, rows), args.stock_timeout)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
