"""The official GitBook OpenAPI description as a validator of this server's responses.

Validation is JSON Schema 2020-12 with the description's ``$ref``s resolved through a
registry and formats checked: ``jsonschema_rs`` decides (fast enough for multi-megabyte page
trees), and ``jsonschema`` (with a ``referencing`` registry) explains failures of bodies
small enough to explain quickly, naming the deepest failing branch of a ``oneOf``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jsonschema_rs
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).parent.parent / "fixtures" / "gitbook-openapi.json"
SPEC_URI = "urn:gitbook-openapi"
METHODS = ("get", "post", "put", "patch", "delete")


@cache
def official_spec() -> dict[str, Any]:
    return json.loads(SPEC_PATH.read_text("utf-8"))  # type: ignore[no-any-return]


@cache
def _registry() -> Registry:
    resource: Resource[Any] = DRAFT202012.create_resource(official_spec())
    return Registry().with_resource(SPEC_URI, resource)


def _pointer(*parts: str) -> str:
    """A JSON pointer, percent-encoded for use as a URI fragment."""
    return quote("/".join(p.replace("~", "~0").replace("/", "~1") for p in parts), safe="/~")


@cache
def _fast_registry() -> jsonschema_rs.Registry:
    return jsonschema_rs.Registry([(SPEC_URI, official_spec())], draft=jsonschema_rs.Draft202012)


@cache
def _fast_validator(pointer: str) -> jsonschema_rs.Draft202012Validator:
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"{SPEC_URI}#/{pointer}"}, registry=_fast_registry(), validate_formats=True
    )


@cache
def _validator(pointer: str) -> Draft202012Validator:
    return Draft202012Validator(
        {"$ref": f"{SPEC_URI}#/{pointer}"},
        registry=_registry(),
        format_checker=Draft202012Validator.FORMAT_CHECKER,
    )


EXPLAIN_LIMIT = 200_000  # bytes of JSON the slower validator explains


def schema_errors(
    pointer: str, instance: Any, limit: int = 5, size: int = 0, *, explain: bool = True
) -> list[str]:
    """The first ``limit`` validation errors of ``instance`` against the schema at ``pointer``
    (each named by its location in the instance), deepest cause first; [] when it is valid.
    Without ``explain`` an invalid instance gets one line only (explaining walks the whole
    instance with the slower validator: seconds for a large page)."""
    fast = _fast_validator(pointer)
    if fast.is_valid(instance):
        return []
    if not explain:
        return ["does not validate (explained for the first such answers of the operation)"]
    if size > EXPLAIN_LIMIT:
        return [
            f"{'/'.join(str(p) for p in e.instance_path) or '(root)'}: {e.message[:300]}"
            for e in list(fast.iter_errors(instance))[:limit]
        ]
    errors = sorted(_validator(pointer).iter_errors(instance), key=lambda e: -len(e.path))
    out = []
    for error in errors[:limit]:
        best = error
        while best.context:  # oneOf/anyOf: report the branch that got furthest
            best = max(best.context, key=lambda e: len(e.absolute_path))
        where = "/".join(str(p) for p in best.absolute_path) or "(root)"
        out.append(f"{where}: {best.message[:300]}")
    return out


@dataclass(frozen=True)
class Operation:
    method: str
    template: str  # the official path template, without /v1
    op: dict[str, Any] = field(hash=False, compare=False)

    @property
    def key(self) -> str:
        return f"{self.method.upper()} {self.template}"

    def response_pointer(self, status: int) -> str | None:
        """JSON pointer of the JSON schema of a ``status`` answer (None: no body declared)."""
        response = self.op["responses"].get(str(status))
        content = (response or {}).get("content") or {}
        if "application/json" not in content:
            return None
        return _pointer("paths", self.template, self.method, "responses", str(status)) + (
            "/content/application~1json/schema"
        )

    def declares(self, status: int) -> bool:
        return str(status) in self.op["responses"]


def _shape(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", path)


@cache
def _operations() -> dict[tuple[str, str], Operation]:
    return {
        (method.upper(), _shape(template)): Operation(method, template, item[method])
        for template, item in official_spec()["paths"].items()
        for method in METHODS
        if method in item
    }


def official_operation(method: str, template: str) -> Operation | None:
    """The official operation for ``method`` on our path template (``/v1`` optional)."""
    return _operations().get((method.upper(), _shape(template.removeprefix("/v1"))))


@cache
def _matchers() -> list[tuple[re.Pattern[str], Operation]]:
    out = []
    for operation in _operations().values():
        pattern = re.sub(
            r"\{([^}]+)\}",
            lambda m: ".+" if m.group(1) == "pagePath" else "[^/]+",
            re.escape(operation.template).replace(r"\{", "{").replace(r"\}", "}"),
        )
        out.append((re.compile(f"^{pattern}$"), operation))
    # literal segments win over parameters (``versions/latest`` before ``versions/{id}``)
    out.sort(key=lambda item: -sum(1 for s in item[1].template.split("/") if "{" not in s))
    return out


def operation_for(method: str, path: str) -> Operation | None:
    """The official operation a concrete request path (``/v1`` optional) calls."""
    path = path.removeprefix("/v1").split("?", 1)[0]
    for pattern, operation in _matchers():
        if operation.method == method.lower() and pattern.match(path):
            return operation
    return None


def response_problems(
    operation: Operation,
    status: int,
    content_type: str,
    body: bytes,
    *,
    explain: bool = True,
    instance: Any = None,
) -> list[str]:
    """Why a 2xx answer does not conform to the official description ([] when it does).
    ``instance`` is ``body`` already parsed, when the caller has it (None: parsed here)."""
    if not operation.declares(status):
        return [f"status {status} is not declared ({sorted(operation.op['responses'])})"]
    pointer = operation.response_pointer(status)
    if pointer is None:
        return [] if not body else [f"status {status} declares no body but one was sent"]
    if not content_type.startswith("application/json"):
        return [f"content type {content_type!r} is not application/json"]
    if instance is None:
        instance = json.loads(body)
    return schema_errors(pointer, instance, size=len(body), explain=explain)
