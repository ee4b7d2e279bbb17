"""A site's adaptive schema: its default, its JSON view, its validation and template conditions.

The schema is draft-07 with ``type: object``, ``additionalProperties: false`` and an
``unsigned`` object of boolean claims; other top-level properties are boolean (signed) claims.
"""

from __future__ import annotations

import re
from typing import Any

import jsonschema

from ..core.context import Ctx
from .views import site_api_url

DRAFT7 = "http://json-schema.org/draft-07/schema#"
CLAIM_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
UNSIGNED_DESCRIPTION = "Unsigned claims of the site visitor."


def default_adaptive_schema(ctx: Ctx, site: dict[str, Any]) -> dict[str, Any]:
    return {
        "$schema": DRAFT7,
        "$id": f"{site_api_url(ctx, site['organization'], site['id'])}/adaptive-schema",
        "type": "object",
        "properties": {
            "unsigned": {
                "type": "object",
                "description": UNSIGNED_DESCRIPTION,
                "properties": {},
                "additionalProperties": False,
            }
        },
        "additionalProperties": False,
    }


def adaptive_schema_json(ctx: Ctx, site: dict[str, Any]) -> dict[str, Any]:
    stored = site.get("adaptiveSchema")
    if stored is None:
        return {
            "object": "site-adaptive-schema",
            "jsonSchema": default_adaptive_schema(ctx, site),
            "updatedAt": site["createdAt"],
        }
    return {
        "object": "site-adaptive-schema",
        "jsonSchema": stored["jsonSchema"],
        "updatedAt": stored["updatedAt"],
    }


def _check_claim(where: str, name: str, claim: Any, problems: list[str]) -> None:
    at = f"{where}.{name}"
    if not CLAIM_NAME_RE.match(name):
        problems.append(
            f"{at}: claim names must be identifiers (letters, digits, '_'; not starting "
            "with a digit)"
        )
    if not isinstance(claim, dict) or claim.get("type") != "boolean":
        problems.append(f'{at}: must be a boolean claim ({{"type": "boolean"}})')
        return
    extra = sorted(set(claim) - {"type", "description"})
    if extra:
        problems.append(f"{at}: unexpected key(s) {', '.join(extra)} (allowed: type, description)")
    if "description" in claim and not isinstance(claim["description"], str):
        problems.append(f"{at}.description: must be a string")


def adaptive_schema_problems(schema: dict[str, Any]) -> list[str]:
    """What keeps ``schema`` from being a valid draft-07 adaptive schema (empty: valid)."""
    try:
        jsonschema.Draft7Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        where = "/".join(str(p) for p in exc.absolute_path)
        return [
            f"jsonSchema{'.' + where if where else ''}: not a valid JSON Schema (draft-07): "
            f"{exc.message}"
        ]
    problems: list[str] = []
    extra = sorted(set(schema) - {"$schema", "$id", "type", "properties", "additionalProperties"})
    if extra:
        problems.append(
            f"jsonSchema: unexpected key(s) {', '.join(extra)} "
            "(allowed: $schema, $id, type, properties, additionalProperties)"
        )
    if "$schema" in schema and schema["$schema"] not in (DRAFT7, DRAFT7.rstrip("#")):
        problems.append(f"jsonSchema.$schema: must be '{DRAFT7}'")
    if schema.get("type") != "object":
        problems.append("jsonSchema.type: must be 'object'")
    if schema.get("additionalProperties") is not False:
        problems.append("jsonSchema.additionalProperties: must be false")
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        problems.append("jsonSchema.properties: is required (an object holding 'unsigned')")
        return problems
    unsigned = properties.get("unsigned")
    if not isinstance(unsigned, dict):
        problems.append(
            "jsonSchema.properties.unsigned: is required (an object of unsigned boolean claims)"
        )
    else:
        where = "jsonSchema.properties.unsigned"
        extra = sorted(
            set(unsigned) - {"type", "description", "properties", "additionalProperties"}
        )
        if extra:
            problems.append(f"{where}: unexpected key(s) {', '.join(extra)}")
        if unsigned.get("type") != "object":
            problems.append(f"{where}.type: must be 'object'")
        if unsigned.get("additionalProperties") is not False:
            problems.append(f"{where}.additionalProperties: must be false")
        if "description" in unsigned and not isinstance(unsigned["description"], str):
            problems.append(f"{where}.description: must be a string")
        claims = unsigned.get("properties")
        if not isinstance(claims, dict):
            problems.append(f"{where}.properties: is required (an object of boolean claims)")
        else:
            for name, claim in claims.items():
                _check_claim(f"{where}.properties", name, claim, problems)
    for name, claim in properties.items():
        if name != "unsigned":
            _check_claim("jsonSchema.properties", name, claim, problems)
    return problems


def template_conditions(schema: dict[str, Any]) -> list[dict[str, str]]:
    items: list[dict[str, str]] = []
    properties = schema.get("properties") or {}
    unsigned = (properties.get("unsigned") or {}).get("properties") or {}
    for name, claim in unsigned.items():
        items.append(
            {
                "description": claim.get("description")
                or f"The visitor's unsigned claim '{name}' is true",
                "condition": f"visitor.claims.unsigned.{name} == true",
            }
        )
    for name, claim in properties.items():
        if name == "unsigned":
            continue
        items.append(
            {
                "description": claim.get("description") or f"The visitor's claim '{name}' is true",
                "condition": f"visitor.claims.{name} == true",
            }
        )
    return items
