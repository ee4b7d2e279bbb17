"""``clean_text``: the one sanitising path for server text shown in the terminal."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitbook_tui.markdown import clean_text

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
C1 = "".join(chr(c) for c in range(0x80, 0xA0))
C0_REMOVED = "".join(chr(c) for c in range(0x20) if c not in (0x09, 0x0A))


def test_plain_text_is_returned_unchanged() -> None:
    s = "Hello, world — ok\n\tindented"
    assert clean_text(s) is s


def test_keeps_newlines_tabs_emoji_and_cjk() -> None:
    s = "line1\nline2\ttab 👩‍💻 🇺🇦 ✓ 日本語 한국어 中文 العربية עברית\u200d\u00a0é"
    assert clean_text(s) == s


@pytest.mark.parametrize(
    ("dirty", "clean"),
    [
        ("\x1b[31mred\x1b[0m", "red"),  # SGR colours
        ("\x1b[2J\x1b[Hcleared", "cleared"),  # clear screen, cursor home
        ("a\x1b[?1049hb", "ab"),  # private mode
        ("\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"),  # OSC 8 (ST)
        ("\x1b]8;;https://evil.example\x07click\x1b]8;;\x07", "click"),  # OSC 8 (BEL)
        ("x\x1b]52;c;ZWNobyBwd25lZA==\x07y", "xy"),  # OSC 52 clipboard write
        ("\x1b]0;window title\x07text", "text"),  # OSC 0 title
        ("\x1bPq#0;2;0;0;0\x1b\\sixel", "sixel"),  # DCS
        ("\x1b_Gf=100;AAAA\x1b\\kitty", "kitty"),  # APC (kitty graphics)
        ("\x9b31mc1 csi", "c1 csi"),  # 8-bit CSI
        ("\x9d8;;http://x\x9cosc", "osc"),  # 8-bit OSC … ST
        ("\x1bcreset", "reset"),  # RIS
        ("\x1b(Bcharset", "charset"),
        ("bell\x07!", "bell!"),
        ("del\x7f!", "del!"),
        ("cr\r\nlf", "cr\nlf"),
        ("back\bspace", "backspace"),
        ("nul\x00byte", "nulbyte"),
        ("\x1b", ""),
        ("\x1b[", ""),  # truncated CSI
        ("\x1b]52;c;unterminated", "52;c;unterminated"),  # unterminated OSC: inert text stays
    ],
)
def test_escape_sequences_and_controls_are_removed(dirty: str, clean: str) -> None:
    assert clean_text(dirty) == clean


def test_all_c0_c1_and_del_are_removed() -> None:
    assert clean_text(C0_REMOVED + "\x7f" + C1) == ""
    assert clean_text("a" + C0_REMOVED + "\n\t" + C1 + "b") == "a\n\tb"


def test_bidi_controls_are_removed() -> None:
    assert clean_text(BIDI) == ""
    # "Trojan source" style reordering cannot survive
    assert clean_text("access\u202e\u2066 // admin\u2069\u2066") == "access // admin"
    assert clean_text("file\u202egnp.exe") == "filegnp.exe"


@given(st.text())
def test_result_has_no_forbidden_characters(s: str) -> None:
    cleaned = clean_text(s)
    forbidden = set(C0_REMOVED + "\x7f" + C1 + BIDI)
    assert not forbidden & set(cleaned)


@given(st.text())
def test_idempotent(s: str) -> None:
    once = clean_text(s)
    assert clean_text(once) == once


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cf", "Cs"))))
def test_printable_text_is_untouched(s: str) -> None:
    assert clean_text(s) == s


def test_fast_on_large_input() -> None:
    clean = "Ordinary documentation text with ünïcödé and 表 characters.\n" * 20_000  # ~1.2 MB
    dirty = ("text \x1b[1mbold\x1b[0m \u202eevil\x07\n" * 40_000)[:1_200_000]
    started = time.perf_counter()
    for _ in range(5):
        assert clean_text(clean) is clean
        clean_text(dirty)
    assert time.perf_counter() - started < 20  # ~0.5 s idle: a guard against quadratic work


def test_emoji_variation_selector_is_dropped_so_columns_line_up() -> None:
    from gitbook_tui.markdown.sanitize import clean_text as clean

    assert clean("⌨\ufe0f tide CLI") == "⌨ tide CLI"
    assert clean("🗄\ufe0f Archive") == "🗄 Archive"
