"""Response bodies to typed values: validated straight from the bytes, errors made readable."""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import threading
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from .errors import ResponseValidationError

__all__ = ["parse_body"]

# Validating a large body makes thousands of model objects at once; the cyclic garbage
# collector, triggered again and again by those allocations, then walks the whole heap
# (measured: 4 pages of 1,000 spaces kept, 63 ms with it running, 30 ms paused; json.loads
# alone 22 ms). Validation makes no reference cycles, so nothing is left for it to find:
# it is paused for the call. A count, so overlapping parses (threads) restore it once.
# The new objects would still be walked twice more once it runs again (young, then
# middle generation: ~2 ms a page of 1,000 spaces, 10-20 % of a listing's CPU) before
# reaching the oldest generation, where objects that live on end anyway. So they are moved
# there at once (``gc.freeze()`` then ``gc.unfreeze()``: the young generations join the
# oldest, unwalked). What else was young then (a few hundred objects at most: the young
# generation is collected every 700 allocations) is only looked at by the next full
# collection. Not done when the application froze objects itself (unfreeze would thaw them).
_LARGE_BODY = 32 * 1024
_collector_lock = threading.Lock()
_collector_pauses = 0
_collector_was_enabled = False


@contextlib.contextmanager
def _collector_paused(pause: bool) -> Iterator[None]:
    global _collector_pauses, _collector_was_enabled
    if not pause:
        yield
        return
    with _collector_lock:
        if _collector_pauses == 0:
            _collector_was_enabled = gc.isenabled()
            gc.disable()
        _collector_pauses += 1
    try:
        yield
    finally:
        with _collector_lock:
            _collector_pauses -= 1
            if _collector_pauses == 0 and _collector_was_enabled:
                if gc.get_freeze_count() == 0:
                    gc.freeze()
                    gc.unfreeze()
                gc.enable()


@functools.lru_cache(maxsize=256)
def _cached_adapter(cast_to: Any) -> TypeAdapter[Any]:
    return TypeAdapter(cast_to)


def _adapter(cast_to: Any) -> TypeAdapter[Any]:
    """One TypeAdapter per target type: building one compiles its validator (milliseconds)."""
    try:
        return _cached_adapter(cast_to)
    except TypeError:  # an unhashable type expression: build it each time
        return TypeAdapter(cast_to)


def parse_body(cast_to: Any, body: bytes, operation: str) -> Any:
    """``body`` validated as ``cast_to`` straight from the bytes (pydantic-core parses
    the JSON into the models in one pass; no intermediate dicts)."""
    if cast_to is None:
        try:
            return json.loads(body) if body else None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ResponseValidationError(operation, "(body)", f"is not JSON: {exc}") from None
    try:
        if not body:
            value = _adapter(cast_to).validate_python(None)
        else:
            with _collector_paused(len(body) >= _LARGE_BODY):
                if isinstance(cast_to, type) and issubclass(cast_to, BaseModel):
                    value = cast_to.model_validate_json(body)
                else:
                    value = _adapter(cast_to).validate_json(body)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        if first.get("type") == "json_invalid":
            detail = f"is not JSON: {(first.get('ctx') or {}).get('error', first.get('msg'))}"
            raise ResponseValidationError(operation, "(body)", detail) from None
        where = ".".join(str(p) for p in first.get("loc", ())) or "(body)"
        raise ResponseValidationError(operation, where, str(first.get("msg"))) from None
    return value
