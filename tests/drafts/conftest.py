"""Fixtures of the drafts tests: ``close_later`` for the clients a test starts (and restarts)."""

from support.closing import close_later

__all__ = ["close_later"]
