"""What the snapshot test modules share: the two terminal sizes every view is drawn at, the
``snap_compare`` fixture's type, and the instant their frozen clocks show."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from support.worlds import START

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
"""80x24 (the smallest terminal the app is laid out for) and 120x40; the ids name the
snapshot files."""

Snap = Callable[..., bool]
"""The ``snap_compare`` fixture: ``snap_compare(app, terminal_size=…, run_before=…)``."""

AN_HOUR_IN = START.timestamp() + 3600
"""An hour after the fixed-clock server's start: what the frozen status bar and cache
clocks show (never ticking mid-frame)."""
