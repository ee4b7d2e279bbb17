"""Fixtures of the History view's tests."""

from support.history_world import story  # noqa: F401  (a fixture)
