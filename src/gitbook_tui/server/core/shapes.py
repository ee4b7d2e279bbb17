"""One serialisation rule for response bodies: an absent optional member is omitted, not null.

The official API describes optional members by leaving them out of ``required``; few of
them accept ``null`` (roles for guests, ``defaultLevel``...). Renderers build their body
and pass it through :func:`omit_none`, naming the members that may be ``null``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def omit_none(body: dict[str, Any], nullable: Iterable[str] = ()) -> dict[str, Any]:
    """``body`` without its ``None`` members, except those named in ``nullable``."""
    keep = set(nullable)
    return {k: v for k, v in body.items() if v is not None or k in keep}
