"""Counts read as English and an unreachable server is said once (QA #25)."""

from __future__ import annotations

from gitbook_tui.api.errors import APIConnectionError, APIStatusError
from gitbook_tui.tui.common.text import count_of
from gitbook_tui.tui.sites.site_text import error_text


def test_count_of() -> None:
    assert count_of(1, "thread") == "1 thread"
    assert count_of(0, "thread") == "0 threads"
    assert count_of(2, "change request") == "2 change requests"
    assert count_of(1, "block") == "1 block" and count_of(3, "block") == "3 blocks"
    assert count_of(2, "match", "matches") == "2 matches"


def test_unreachable_server_said_once_and_named() -> None:
    error = APIConnectionError("GET", "/orgs/o1/sites", detail="All connection attempts failed")
    text = error_text(error, "http://127.0.0.1:8765/v1")
    assert text.count("Could not reach the server") == 1, text
    assert text == (
        "Could not reach the server at http://127.0.0.1:8765/v1 (GET /orgs/o1/sites): "
        "All connection attempts failed"
    )
    assert error_text(error) == str(error)
    refused = APIStatusError(409, "already redirects", "POST", "/x")
    assert (
        error_text(refused, "http://h/v1")
        == "Server (http://h/v1) refused: already redirects [409]"
    )


def test_fit_marks_a_cut_with_an_ellipsis() -> None:
    from gitbook_tui.tui.common.text import cell_width, fit

    assert fit("Quickstart: your first stream", 12, ellipsis=True) == "Quickstart:…"
    assert fit("Quickstart: your first stream", 12) == "Quickstart: "
    assert fit("short", 8, ellipsis=True) == "short   "
    assert fit("exactly8", 8, ellipsis=True) == "exactly8"
    wide = fit("日本語のタイトル", 7, ellipsis=True)
    assert wide.endswith("…") or wide.endswith("… ")
    assert cell_width(wide) == 7
    assert fit("abc", 0, ellipsis=True) == ""
