"""The official GitBook OpenAPI description as a graph: pointers, cycles, paths and validators."""

# Pointers are JSON pointers into the description, written ``#/components/schemas/Space``.

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterator
from functools import cache
from typing import Any
from urllib.parse import quote

import jsonschema_rs

from support.official_schema import METHODS, SPEC_URI, official_spec

COMPONENT = "#/components/schemas/"
spec = official_spec  # the one loader of the description (support.official_schema)


def join(ptr: str, *parts: str | int) -> str:
    """``ptr`` followed by ``parts`` (escaped as JSON pointer segments)."""
    escaped = (str(p).replace("~", "~0").replace("/", "~1") for p in parts)
    return "/".join([ptr, *escaped])


@cache
def node(ptr: str) -> Any:
    """The schema at ``ptr``."""
    out: Any = spec()
    for part in ptr.removeprefix("#/").split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        out = out[int(part)] if isinstance(out, list) else out[part]
    return out


def _shape(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", path)


@cache
def _operations() -> dict[tuple[str, str], str]:
    return {
        (method.upper(), _shape(template)): template
        for template, item in spec()["paths"].items()
        for method in METHODS
        if method in item
    }


def official_template(method: str, template: str) -> str | None:
    """The official path template of our ``METHOD /v1/...`` template (None: not official)."""
    return _operations().get((method.upper(), _shape(template.removeprefix("/v1"))))


@cache
def _matchers() -> list[tuple[str, re.Pattern[str], str]]:
    out = []
    for (method, _), template in _operations().items():
        pattern = re.sub(
            r"\\\{([^}]+)\\\}",
            lambda m: ".+" if m.group(1) == "pagePath" else "[^/]+",
            re.escape(template),
        )
        out.append((method, re.compile(f"^{pattern}$"), template))
    # literal segments win over parameters (``versions/latest`` before ``versions/{id}``)
    out.sort(key=lambda item: -sum("{" not in s for s in item[2].split("/")))
    return out


def operation_for(method: str, path: str) -> str | None:
    """The official path template a request (``METHOD /v1/...``) is for (None: none)."""
    path = path.removeprefix("/v1")
    for verb, pattern, template in _matchers():
        if verb == method.upper() and pattern.match(path):
            return template
    return None


def response_pointers(method: str, template: str) -> dict[int, str]:
    """Status -> pointer of the JSON schema of each 2xx answer of an official operation."""
    op = node(join("#/paths", template, method.lower()))
    out = {}
    for status, response in op["responses"].items():
        content = (response.get("content") or {}).get("application/json")
        if status.startswith("2") and content and "schema" in content:
            out[int(status)] = (
                join("#/paths", template, method.lower(), "responses", status, "content")
                + "/application~1json/schema"
            )
    return out


def declared_statuses(method: str, template: str) -> list[int]:
    op = node(join("#/paths", template, method.lower()))
    return sorted(int(s) for s in op["responses"] if s.startswith("2"))


@cache
def _registry() -> jsonschema_rs.Registry:
    return jsonschema_rs.Registry([(SPEC_URI, spec())], draft=jsonschema_rs.Draft202012)


@cache
def validator(ptr: str) -> jsonschema_rs.Draft202012Validator:
    """A validator of the schema at ``ptr`` ($refs resolved, formats checked)."""
    fragment = quote(ptr.removeprefix("#"), safe="/~")
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"{SPEC_URI}#{fragment}"}, registry=_registry(), validate_formats=True
    )


def _any_of(value: Any) -> Any:
    if isinstance(value, dict):
        return {("anyOf" if k == "oneOf" else k): _any_of(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_any_of(v) for v in value]
    return value


@cache
def _relaxed_registry() -> jsonschema_rs.Registry:
    return jsonschema_rs.Registry([(SPEC_URI, _any_of(spec()))], draft=jsonschema_rs.Draft202012)


@cache
def relaxed_validator(ptr: str) -> jsonschema_rs.Draft202012Validator:
    """A validator of the schema at ``ptr`` with every one-of read as an any-of. Some
    one-ofs of the description have a branch whose instances always match another branch
    too (``RevisionReusableContent``'s computed form is also its plain form): no instance
    is valid by it, though the service sends them (docs/schema-conformance.md)."""
    fragment = quote(ptr.removeprefix("#"), safe="/~")
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"{SPEC_URI}#{fragment}"}, registry=_relaxed_registry(), validate_formats=True
    )


# -- the graph of schemas ----------------------------------------------------------------------
def edges(ptr: str) -> Iterator[tuple[tuple[Any, ...], str]]:
    """(step, child pointer) of every subschema an instance at ``ptr`` may have to satisfy
    below it: ``("ref",)``, ``("member", i)``, ``("branch", i)``, ``("prop", name)``,
    ``("item",)``, ``("value",)`` (a map's values) and ``("name",)`` (a map's keys)."""
    schema = node(ptr)
    if not isinstance(schema, dict):
        return
    if "$ref" in schema:
        yield ("ref",), schema["$ref"]
    for i, _ in enumerate(schema.get("allOf", ())):
        yield ("member", i), join(ptr, "allOf", i)
    for key in ("oneOf", "anyOf"):
        for i, _ in enumerate(schema.get(key, ())):
            yield ("branch", i), join(ptr, key, i)
    for name in schema.get("properties", {}):
        yield ("prop", name), join(ptr, "properties", name)
    if isinstance(schema.get("items"), dict):
        yield ("item",), join(ptr, "items")
    if isinstance(schema.get("additionalProperties"), dict):
        yield ("value",), join(ptr, "additionalProperties")
    if isinstance(schema.get("propertyNames"), dict):
        yield ("name",), join(ptr, "propertyNames")


@cache
def _component_refs(name: str) -> frozenset[str]:
    """Components the component ``name`` refers to (directly)."""
    found = re.findall(r'"#/components/schemas/([^"]+)"', json.dumps(node(COMPONENT + name)))
    return frozenset(found)


@cache
def _reach(name: str) -> frozenset[str]:
    seen: set[str] = set()
    todo = list(_component_refs(name))
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo += _component_refs(current)
    return frozenset(seen)


@cache
def cycle_of(name: str) -> frozenset[str] | None:
    """The components on a reference cycle with ``name`` (None: it is on none)."""
    if name not in _reach(name):
        return None
    return frozenset({name} | {m for m in _reach(name) if name in _reach(m)})


def weight(ptr: str) -> int:
    """How many components an instance of ``ptr`` may hold (a measure of its size)."""
    names = set(re.findall(r'"#/components/schemas/([^"]+)"', json.dumps(node(ptr))))
    return len(names.union(*(_reach(n) for n in names)))


Step = tuple[str, tuple[Any, ...]]  # (pointer, step taken from it)


def sites_and_paths(roots: list[str]) -> dict[str, tuple[str, tuple[Step, ...]]]:
    """Every one-of/any-of reachable from ``roots``: its pointer -> (root, the shortest
    path of steps from that root to it). Roots earlier in the list win ties."""
    roots = list(dict.fromkeys(roots))
    found: dict[str, tuple[str, tuple[Step, ...]]] = {}
    seen: set[str] = set(roots)
    todo: deque[tuple[str, str, tuple[Step, ...]]] = deque((r, r, ()) for r in roots)
    while todo:
        root, ptr, path = todo.popleft()
        schema = node(ptr)
        if isinstance(schema, dict) and ("oneOf" in schema or "anyOf" in schema):
            found.setdefault(ptr, (root, path))
        for step, child in edges(ptr):
            if child not in seen:
                seen.add(child)
                todo.append((root, child, (*path, (ptr, step))))
    return found
