"""Injectable clock of the local server (tests and demo seeding move time)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class Clock:
    """Wall-clock time, optionally pinned or shifted."""

    def __init__(self, fixed: datetime | None = None) -> None:
        self._fixed = fixed
        self._offset = timedelta()

    def now(self) -> datetime:
        base = self._fixed if self._fixed is not None else datetime.now(UTC)
        return base + self._offset

    def set(self, moment: datetime | None) -> None:
        """Pin time to ``moment`` (``None`` goes back to the wall clock)."""
        self._fixed = moment
        self._offset = timedelta()

    def advance(self, delta: timedelta) -> None:
        self._offset += delta


def iso(moment: datetime) -> str:
    return (
        moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    )


def parse_iso(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))
