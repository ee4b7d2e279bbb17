"""Hostile server text and the check that it reached the terminal inert: Rich markup and
Textual actions shown literally, no escape sequence, C1 control or bidi control written."""

from __future__ import annotations

import io
import re
from typing import Any

from rich.console import Console

CLICK = "[@click=app.quit]boom"
MARKUP = "[bold red]markup[/]"
CSI = "\x1b[31mred\x1b[0m"
OSC8 = "\x1b]8;;http://evil.example\x07link\x1b]8;;\x07"
OSC52 = "\x1b]52;c;aGFja2Vk\x07"
BIDI = "\u202eevil\u202c"
C1_CSI = "\x9b31m"
LITERAL = f"{CLICK} {MARKUP}"
"""What must be shown as is, character for character."""

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
RESIDUE = ("[31m", "[0m", "]8;;", "evil.example", "52;c;", "aGFja2Vk")
_CSI_RE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


def hostile(tag: str) -> str:
    """Every hostile piece, then ``tag`` (what tells the titles apart)."""
    return f"{CLICK} {MARKUP} {CSI} {OSC8} {OSC52}{BIDI}{C1_CSI} {tag}"


def shown(tag: str) -> str:
    """``hostile(tag)`` as it must look: markup literal, controls and sequences gone."""
    return f"{CLICK} {MARKUP} red link evil {tag}"


def terminal_output(app: Any) -> tuple[str, list[str]]:
    """What the app writes to the terminal for a full repaint of the current screen stack
    (as ``App.export_screenshot`` renders it): the raw bytes, and the visible text lines."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    file = console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue(), console.export_text(styles=False).splitlines()


def check_screen(app: Any, *expected: str) -> list[str]:
    """The app runs; the terminal gets no control but colour/cursor CSI sequences and
    no bidi control; every ``expected`` text is on one line of the screen. The lines."""
    assert app.is_running, "the app quit"
    assert app.return_code is None
    raw, lines = terminal_output(app)
    leftover = _CSI_RE.sub("", raw)  # the app's own styling and cursor moves
    for where, text in (("output", leftover), ("text", "\n".join(lines))):
        assert "\x1b" not in text, (where, text)
        assert not any("\x80" <= ch <= "\x9f" for ch in text), (where, text)
        assert not BIDI_CONTROLS & set(text), (where, text)
        for residue in RESIDUE:
            assert residue not in text, (where, residue, text)
    for text in expected:
        assert any(text in line for line in lines), (text, "\n".join(lines))
    return lines
