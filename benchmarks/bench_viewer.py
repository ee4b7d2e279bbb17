"""Page viewer benchmark on the 1 MB demo page, against Textual's stock Markdown widget.

Run: python benchmarks/bench_viewer.py [--size 120x40] [--stock-timeout 60] [--skip-stock]

Figures (all wall-clock, headless ``App.run_test``):

* parse: the app's page path (:func:`~gitbook_tui.tui.browse.page_loader.parse_page`:
  sanitise, then ``gitbook_tui.markdown.parse``) plus the full garbage collection it
  leaves due (outside the viewer's budget; in the app the parse runs in a thread).
* show() call: the synchronous part of ``PageViewer.show(document)`` (estimates every
  block, lays out the first screen).
* first line: from just before ``show()`` to the first ``render_line`` call that
  returns a line of the new document (the compositor painting the first frame).
* first frame: from just before ``show()`` until ``await pilot.pause()`` returns with
  the viewer painted (the frame is complete and the app idle again).
* G action: the ``bottom`` action alone (lays out the last screenful, scrolls).
* G frame: from sending the ``G`` key until a frame showing the document's last line
  has been painted.
* peak RSS: ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` of this process, which only
  ever parses and shows the page (the stock widget runs in child processes).
* resize: from the resize to the first repainted line at the new width.
* find: a whole-page search, from ``find()`` until every block has been searched.
* stock Markdown: ``await Markdown.update(text)`` plus the first frame, in a child
  process killed after ``--stock-timeout`` seconds ("> N s" then).
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
from typing import Any

from textual.app import App, ComposeResult
from textual.strip import Strip

from gitbook_tui.server.demo.generated import large_reference_page
from gitbook_tui.tui.browse.page_loader import parse_page
from gitbook_tui.tui.browse.page_viewer import PageViewer


class TimedViewer(PageViewer):
    """Records when lines of the current document are painted."""

    first_line_at: float | None = None
    last_painted_y: int = -1

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        if self.has_painted:
            if self.first_line_at is None:
                self.first_line_at = time.perf_counter()
            self.last_painted_y = max(self.last_painted_y, int(self.scroll_y) + y)
        return strip


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


async def bench_viewer(text: str, size: tuple[int, int]) -> dict[str, Any]:
    started = time.perf_counter()
    document = parse_page(text)
    # The parse leaves a full garbage collection due; run it here so that pause is
    # billed to the parse, not to whatever allocates next (the viewer's first frame).
    gc.collect()
    parse_s = time.perf_counter() - started
    app = ViewerApp()
    async with app.run_test(size=size) as pilot:
        viewer = app.query_one(TimedViewer)
        viewer.focus()
        await pilot.pause()
        started = time.perf_counter()
        viewer.show(document)
        show_s = time.perf_counter() - started
        while not viewer.has_painted:
            await pilot.pause()
        frame_s = time.perf_counter() - started
        assert viewer.first_line_at is not None
        first_line_s = viewer.first_line_at - started

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
        viewer.find("retention")
        first_match_s: float | None = None
        while True:
            if first_match_s is None and viewer.find_results.current is not None:
                first_match_s = time.perf_counter() - started
            if viewer.find_results.done:
                break
            await pilot.pause()
        find_s = time.perf_counter() - started
        matches = len(viewer.find_results.matches)
    return {
        "resize_s": resize_s,
        "find_first_s": first_match_s or 0.0,
        "find_all_s": find_s,
        "matches": matches,
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="120x40", help="terminal size, COLSxROWS")
    parser.add_argument("--stock-timeout", type=float, default=60.0)
    parser.add_argument("--skip-stock", action="store_true")
    parser.add_argument("--child-stock", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    columns, rows = (int(part) for part in args.size.split("x"))
    text = large_reference_page()

    if args.child_stock is not None:
        print(
            json.dumps(
                asyncio.run(bench_stock(slice_text(text, args.child_stock), (columns, rows)))
            )
        )
        return

    print("$", shlex.join([sys.executable, *sys.argv]))
    figures = asyncio.run(bench_viewer(text, (columns, rows)))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    ms = {key: value * 1000 for key, value in figures.items() if key.endswith("_s")}
    print(
        f"page: {figures['bytes']:,} bytes, {figures['blocks']:,} blocks, {figures['lines']:,} lines at {columns} columns"
    )
    print(f"parse + its gc:        {ms['parse_s']:8.1f} ms  (not in the viewer budget)")
    print(f"show() call:           {ms['show_s']:8.1f} ms")
    print(f"show → first line:     {ms['first_line_s']:8.1f} ms")
    print(f"show → first frame:    {ms['first_frame_s']:8.1f} ms  (budget 250 ms)")
    print(f"G action:              {ms['g_action_s']:8.1f} ms")
    print(f"G key → bottom frame:  {ms['g_frame_s']:8.1f} ms  (budget 100 ms)")
    print(f"resize → first line:   {ms['resize_s']:8.1f} ms  ({columns} → {columns - 40} columns)")
    print(
        f"find 'retention':      {ms['find_all_s']:8.1f} ms for all {figures['matches']:,} matches "
        f"(first one current after {ms['find_first_s']:.1f} ms)"
    )
    print(f"peak RSS:              {peak_mb:8.1f} MB  (budget 150 MB; includes the parse)")

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
