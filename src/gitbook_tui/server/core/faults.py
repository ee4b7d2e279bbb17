"""Fault injection for testing clients: latency, 5xx errors and rate limiting."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Faults:
    latency: float = 0.0
    error_rate: float = 0.0
    rate_limit: int | None = None
    rate_window: float = 60.0
    seed: int | None = None

    @property
    def active(self) -> bool:
        return bool(self.latency or self.error_rate or self.rate_limit)


_DURATION = re.compile(r"^(\d+(?:\.\d+)?)(ms|s)?$")
_RATE = re.compile(r"^(\d+)/(s|sec|min|m|h|hour)$")
_WINDOWS = {"s": 1.0, "sec": 1.0, "min": 60.0, "m": 60.0, "h": 3600.0, "hour": 3600.0}


def parse_faults(spec: str | None) -> Faults:
    """Parse ``latency=200ms,error-rate=0.1,rate-limit=30/min`` (each part optional)."""
    if not spec:
        return Faults()
    values: dict[str, object] = {}
    for part in spec.split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        key, value = key.strip().lower(), value.strip().lower()
        if not sep:
            raise ValueError(f"fault '{part}' needs the form name=value")
        if key == "latency":
            match = _DURATION.match(value)
            if not match:
                raise ValueError(f"latency '{value}' is not a duration like 200ms or 1.5s")
            number = float(match.group(1))
            values["latency"] = number / 1000 if match.group(2) in (None, "ms") else number
        elif key in ("error-rate", "error_rate"):
            try:
                rate = float(value)
            except ValueError:
                raise ValueError(f"error-rate '{value}' is not a number") from None
            if not 0 <= rate <= 1:
                raise ValueError("error-rate must be between 0 and 1")
            values["error_rate"] = rate
        elif key in ("rate-limit", "rate_limit"):
            match = _RATE.match(value)
            if not match:
                raise ValueError(f"rate-limit '{value}' is not like 30/min")
            values["rate_limit"] = int(match.group(1))
            values["rate_window"] = _WINDOWS[match.group(2)]
        elif key == "seed":
            values["seed"] = int(value)
        else:
            raise ValueError(
                f"unknown fault '{key}' (known: latency, error-rate, rate-limit, seed)"
            )
    return Faults(**values)  # type: ignore[arg-type]


class FaultRandom:
    """The random source of error injection (seedable for repeatable tests)."""

    def __init__(self, seed: int | None) -> None:
        self._rng = random.Random(seed)

    def hit(self, rate: float) -> bool:
        return rate > 0 and self._rng.random() < rate
