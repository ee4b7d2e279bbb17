"""Deterministic large demo content: a 1 MB reference page and a 2,000-page knowledge base."""

from __future__ import annotations

from .knowledge_base import knowledge_base_pages
from .reference_page import large_reference_page

__all__ = ["knowledge_base_pages", "large_reference_page"]
