"""What an alternative of the walk asks of an instance, worked out once per alternative."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from support.official_spec import join, node, validator
from support.official_walk import Alt, Plan

ARRAY_CAP = 2  # items of a list beyond its minimum
DATE_TIME = "date-time"
SCALAR_KEYWORDS = {"enum", "const", "format", "pattern", "minLength", "maxLength"}
SCALAR_KEYWORDS |= {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}

Member = tuple[tuple[str, ...], dict[str, Plan]]  # schemas the value must satisfy, their plans


@dataclass
class Shape:
    enum: list[Any] | None  # the values allowed (None: not an enum)
    kinds: list[str] | None  # JSON types (None: any JSON value)
    # objects: required and optional members (None: a required one is forbidden), the map
    # entry of a forced path, the schemas of a map's values and keys, whether the object is
    # closed, and how many members it may have
    required: dict[str, Member] | None
    optional: dict[str, Member]
    forced_map: tuple[str, Plan] | None
    map_values: tuple[str, ...]
    map_keys: tuple[str, ...]
    closed: bool
    members: tuple[int, int]
    # arrays: the schemas of the items, how many, unique or not, the forced first item
    items: tuple[str, ...]
    count: tuple[int, int]
    unique: bool
    forced_item: dict[str, Plan]
    leaves: dict[str, tuple[str, dict[str, Any]]]  # scalar kind -> key and schema of values


def _types(schemas: list[dict[str, Any]]) -> set[str] | None:
    out: set[str] | None = None
    for s in schemas:
        if "type" in s:
            kinds = {s["type"]} if isinstance(s["type"], str) else set(s["type"])
            out = kinds if out is None else out & kinds
    return out


def json_type(value: Any) -> set[str]:
    if value is None:
        return {"null"}
    if isinstance(value, bool):
        return {"boolean"}
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return {"integer", "number"}
    kinds = {float: "number", str: "string", list: "array", dict: "object"}
    return {kinds[type(value)]}


def _enum(alt: Alt, schemas: list[dict[str, Any]]) -> list[Any] | None:
    values: list[list[Any]] = [
        s["enum"] if "enum" in s else [s["const"]] for s in schemas if "enum" in s or "const" in s
    ]
    if not values:
        return None
    if len(alt.conj) > 1:
        return [v for v in values[0] if all(validator(c).is_valid(v) for c in alt.conj)]
    # BillingCreditsBundle is a string with numbers among its values: not those
    types = _types(schemas)
    return [v for v in values[0] if types is None or json_type(v) & types]


def _kinds(alt: Alt, schemas: list[dict[str, Any]]) -> list[str] | None:
    types = _types(schemas)
    if types is None:
        structure = ("properties", "required", "additionalProperties", "propertyNames")
        if any("items" in s for s in schemas) or any(p[1] == ("item",) for p in alt.pending):
            types = {"array"}
        elif alt.pending or any(k in s for s in schemas for k in structure):
            types = {"object"}
        else:
            return None
    return sorted(types)


def _members(
    alt: Alt, schemas: list[dict[str, Any]]
) -> tuple[dict[str, Member] | None, dict[str, Member], tuple[str, Plan] | None]:
    names = {n for s in schemas for n in s.get("properties", {})}
    required = {n for s in schemas for n in s.get("required", ())}
    forced: dict[str, dict[str, Plan]] = {}
    forced_map = None
    for where, step, rest in alt.pending:
        if step[0] == "prop":
            forced.setdefault(step[1], {})[join(where, "properties", step[1])] = rest
            required.add(step[1])
        elif step[0] == "value":
            forced_map = (join(where, "additionalProperties"), rest)
    out: tuple[dict[str, Member], dict[str, Member]] = ({}, {})
    for name in sorted(names | required):
        ptrs: list[str] | None = []
        for c, s in zip(alt.conj, schemas, strict=True):
            if name in s.get("properties", {}):
                ptrs.append(join(c, "properties", name))  # type: ignore[union-attr]
            elif s.get("additionalProperties") is False:
                ptrs = None  # another part of the allOf forbids it
                break
            elif isinstance(s.get("additionalProperties"), dict):
                ptrs.append(join(c, "additionalProperties"))  # type: ignore[union-attr]
        if ptrs is None and name in required:
            return None, {}, forced_map
        if ptrs is not None:
            out[name not in required][name] = (tuple(ptrs), forced.get(name, {}))
    return out[0], out[1], forced_map


def _leaf(kind: str, schemas: list[dict[str, Any]]) -> dict[str, Any]:
    parts = [{k: s[k] for k in sorted(SCALAR_KEYWORDS) if k in s} for s in schemas]
    parts = [p for p in parts if p]
    if kind == "string" and parts and all(p == {"format": DATE_TIME} for p in parts):
        return {"type": "string", "format": DATE_TIME}
    return {"type": kind, "allOf": parts} if parts else {"type": kind}


def _pointers(alt: Alt, schemas: list[dict[str, Any]], keyword: str) -> tuple[str, ...]:
    return tuple(
        join(c, keyword)
        for c, s in zip(alt.conj, schemas, strict=True)
        if isinstance(s.get(keyword), dict)
    )


@cache
def shape_of(alt: Alt) -> Shape:
    schemas = [node(c) for c in alt.conj]
    kinds = _kinds(alt, schemas)
    required, optional, forced_map = _members(alt, schemas)
    low_items = max((s.get("minItems", 0) for s in schemas), default=0)
    high_items = min((s.get("maxItems", 10**6) for s in schemas), default=10**6)
    return Shape(
        enum=_enum(alt, schemas),
        kinds=kinds,
        required=required,
        optional=optional,
        forced_map=forced_map,
        map_values=_pointers(alt, schemas, "additionalProperties"),
        map_keys=_pointers(alt, schemas, "propertyNames"),
        closed=any(s.get("additionalProperties") is False for s in schemas),
        members=(
            max((s.get("minProperties", 0) for s in schemas), default=0),
            min((s.get("maxProperties", 10**6) for s in schemas), default=10**6),
        ),
        items=_pointers(alt, schemas, "items"),
        count=(low_items, min(high_items, max(low_items, ARRAY_CAP))),
        unique=any(s.get("uniqueItems") for s in schemas),
        forced_item={join(w, "items"): rest for w, step, rest in alt.pending if step[0] == "item"},
        leaves={
            k: (canonical(_leaf(k, schemas)), _leaf(k, schemas))
            for k in kinds or ()
            if k not in ("object", "array")
        },
    )


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
