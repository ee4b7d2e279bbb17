"""Lenient scalars of answers: any RFC 3339 date-time, and counts the schema types as numbers."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler, TypeAdapter, ValidationError
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

__all__ = ["Count", "Timestamp", "read_count", "read_timestamp"]

# Each is a union tried left to right in pydantic-core: the usual value is validated there
# without a Python call (lists hold thousands of items with several dates each); only a value
# the strict form refuses reaches the Python fallback.

# RFC 3339 allows a leap second (``23:59:60``, also written in another offset), which Python's
# datetime cannot hold; it is read as the last microsecond before it, in the same minute.
_LEAP_SECOND = re.compile(r"^(\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d):60(?:\.\d+)?")
_YEAR_ZERO = re.compile(r"^0000-")
_DATETIME: TypeAdapter[datetime] = TypeAdapter(datetime)


def read_timestamp(value: str) -> datetime:
    """An RFC 3339 date-time Python's datetime cannot hold, made one: a leap second is the
    microsecond before it; year 0 (before datetime's first year) is its first instant."""
    text = _LEAP_SECOND.sub(r"\1:59.999999", value)
    if _YEAR_ZERO.match(text):
        return datetime.min.replace(tzinfo=UTC)
    try:
        return _DATETIME.validate_python(text)
    except ValidationError:
        raise ValueError(f"{value!r} is not an RFC 3339 date-time") from None


def read_count(value: float) -> int:
    """A count as a number that is not a small integer: the nearest integer. The schema
    types most counts as ``number`` (so ``2.5`` is valid), and an integer may be written
    ``1e21`` (pydantic reads no integer from a float beyond 64 bits)."""
    return round(value)


class _Lenient:
    """Annotated marker: the strict form first, then ``fallback`` on what ``source`` reads;
    described (JSON Schema) as ``described``."""

    def __init__(self, fallback: Any, source: CoreSchema, described: dict[str, str]) -> None:
        self.fallback = fallback
        self.source = source
        self.described = described

    def __get_pydantic_core_schema__(self, tp: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        lenient = core_schema.no_info_after_validator_function(self.fallback, self.source)
        return core_schema.union_schema([handler(tp), lenient], mode="left_to_right")

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return dict(self.described)


Timestamp = Annotated[
    datetime,
    _Lenient(read_timestamp, core_schema.str_schema(), {"type": "string", "format": "date-time"}),
]
"""A date-time field of an answer: any RFC 3339 date-time (leap seconds included)."""

Count = Annotated[
    int,
    _Lenient(
        read_count,
        core_schema.float_schema(allow_inf_nan=False, strict=True),
        {"type": "number"},
    ),
]
"""A count (or other integer) of an answer: any JSON number, rounded to an integer."""
