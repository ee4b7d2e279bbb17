"""One rule for an emoji's width: a two-cell slot every terminal draws at that width."""

from __future__ import annotations

import unicodedata

import pytest

from gitbook_tui.tui.browse.tree.model import NodeData, label_for, label_text
from gitbook_tui.tui.common.text import EMOJI_FALLBACK, cell_width, emoji_slot, fit

EMOJI = [
    "🪭",  # Unicode 15: newer than the terminals of its day (and than Python 3.11's tables)
    "☀",  # no VS16: text presentation, one cell
    "☀️",  # VS16: two cells in Rich's count, one in many terminals
    "⌨️",
    "🗄️",
    "📘",
    "✅",
    "👩‍💻",  # ZWJ sequence
    "👍🏽",  # skin tone
    "🇫🇷",  # flag
    "1️⃣",  # keycap
    "\u200d",
]


@pytest.mark.parametrize("emoji", EMOJI)
def test_emoji_slot_is_two_cells_of_characters_with_a_settled_width(emoji: str) -> None:
    slot = emoji_slot(emoji)
    assert cell_width(slot) == 2
    symbol = slot.rstrip(" ") or slot
    assert len(symbol) == 1  # never a sequence: terminals disagree on those
    assert unicodedata.category(symbol) != "Cn"
    assert unicodedata.east_asian_width(symbol) != "A"
    # a wide symbol fills the slot; a narrow one is followed by a space it may spill into
    assert slot == symbol if cell_width(symbol) == 2 else slot == symbol + " "


def test_sequences_keep_their_first_character_and_unknown_ones_fall_back() -> None:
    assert emoji_slot("☀️") == "☀ "
    assert emoji_slot("👩‍💻") == "👩"
    assert emoji_slot("📘") == "📘"
    assert emoji_slot("🇫🇷") == f"{EMOJI_FALLBACK} "
    if unicodedata.category("🪭") == "Cn":  # Python < 3.12 does not know Unicode 15
        assert emoji_slot("🪭") == f"{EMOJI_FALLBACK} "
    assert emoji_slot("") == emoji_slot(None) == ""


def test_tree_rows_line_up_whatever_the_emoji() -> None:
    columns = set()
    for kind in ("page", "space"):
        for emoji in EMOJI:
            data = NodeData(key=f"{kind}:x", kind=kind, title="Title", emoji=emoji)  # type: ignore[arg-type]
            for label in (label_text(data).plain, label_for(data).plain):
                columns.add(cell_width(label[: label.index("Title")]))
    assert columns == {3}  # a two-cell slot and a space, for every emoji


def test_fit_cuts_and_pads_by_cells() -> None:
    assert fit("📘 Guide", 4) == "📘 G"
    assert fit("ab", 4) == "ab  "
    assert cell_width(fit("📘📘📘", 5)) == 5
