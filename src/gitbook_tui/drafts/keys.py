"""DraftKey: which composer a draft belongs to, and its safe (hashed) file name."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, fields
from typing import Any

# Kinds the screens use (free-form otherwise: any name matching _KIND_RE).
COMMENT = "comment"  # a new thread: space (+ change_request), target = page id or "" (space)
REPLY = "reply"  # target = the comment id
EDIT_COMMENT = "edit-comment"  # target = the comment id
EDIT_REPLY = "edit-reply"  # target = "<comment id>/<reply id>"
REVIEW = "review"  # a review body: space + change_request
PAGE_EDIT = "page-edit"  # space (+ change_request), target = page id
SITE_FORM = "site-form"  # site = the site id, target = what the form edits (e.g. "redirect:new")

_KIND_RE = re.compile(r"^[a-z][a-z0-9-]{0,31}$")
MAX_PART = 1024


@dataclass(frozen=True)
class DraftKey:
    """Where a draft belongs. Parts are ids from the server (any text: they are hashed,
    never used as path segments); ``kind`` is a short lowercase name and starts the file
    name. ``variant`` tells apart a second draft for the same composer (e.g. a queued post
    the server refused while a newer draft was already there)."""

    kind: str
    space: str = ""
    change_request: str = ""
    target: str = ""
    site: str = ""
    variant: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or not _KIND_RE.match(self.kind):
            raise ValueError(f"draft kind must match {_KIND_RE.pattern}")
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, str):
                raise TypeError(f"DraftKey.{f.name} must be a string")
            if len(value) > MAX_PART:
                raise ValueError(f"DraftKey.{f.name} is too long")

    def to_json(self) -> dict[str, str]:
        return {k: v for k, v in asdict(self).items() if v}

    @classmethod
    def from_json(cls, raw: Any) -> DraftKey:
        """Parse a stored key; ``ValueError``/``TypeError`` for anything malformed."""
        if not isinstance(raw, dict):
            raise ValueError("a draft key is an object")
        names = {f.name for f in fields(cls)}
        unknown = set(raw) - names
        if unknown:
            raise ValueError(f"unknown draft key fields: {sorted(unknown)}")
        return cls(**raw)

    @property
    def digest(self) -> str:
        canonical = json.dumps(self.to_json(), sort_keys=True, ensure_ascii=True)
        return hashlib.sha256(canonical.encode()).hexdigest()[:32]

    @property
    def filename(self) -> str:
        """``<kind>-<sha256 of the whole key>.json``: only ``[a-z0-9-.]``, whatever the ids."""
        return f"{self.kind}-{self.digest}.json"

    def with_variant(self, variant: str) -> DraftKey:
        return DraftKey(self.kind, self.space, self.change_request, self.target, self.site, variant)
