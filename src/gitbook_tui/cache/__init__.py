"""Persistent response cache for the API client."""

from .store import (
    DEFAULT_MAX_BYTES,
    CachedResponse,
    ResponseCache,
    account_fingerprint,
    default_cache_path,
    entry_key,
)

__all__ = [
    "DEFAULT_MAX_BYTES",
    "CachedResponse",
    "ResponseCache",
    "account_fingerprint",
    "default_cache_path",
    "entry_key",
]
