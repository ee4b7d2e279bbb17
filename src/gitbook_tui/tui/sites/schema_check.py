"""The adaptive schema as edited in $EDITOR: parsed and checked before it is sent (no
Textual here). The server wants a draft-07 JSON Schema of ``type: object`` whose claims
are booleans (``unsigned`` holds the unsigned ones)."""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema

__all__ = ["schema_problems"]

CLAIM_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _claims(where: str, properties: Any, problems: list[str]) -> None:
    if not isinstance(properties, dict):
        problems.append(f"{where}: must be an object of claims")
        return
    for name, claim in properties.items():
        at = f"{where}.{name}"
        if name == "unsigned" and where == "properties":
            _claims("properties.unsigned.properties", (claim or {}).get("properties", {}), problems)
            continue
        if not CLAIM_NAME_RE.match(name):
            problems.append(f"{at}: claim names are identifiers (letters, digits, _)")
        if not isinstance(claim, dict) or claim.get("type") != "boolean":
            problems.append(f'{at}: must be a boolean claim {{"type": "boolean"}}')


def schema_problems(text: str) -> tuple[dict[str, Any] | None, list[str]]:
    """The schema in ``text`` and what is wrong with it (empty: it can be sent)."""
    try:
        schema = json.loads(text)
    except json.JSONDecodeError as error:
        return None, [f"not JSON: {error.msg} (line {error.lineno}, column {error.colno})"]
    if not isinstance(schema, dict):
        return None, ["the schema must be a JSON object"]
    try:
        jsonschema.Draft7Validator.check_schema(schema)
    except jsonschema.SchemaError as error:
        where = "/".join(str(p) for p in error.absolute_path) or "(top)"
        return schema, [f"not a valid draft-07 JSON Schema at {where}: {error.message}"]
    problems: list[str] = []
    if schema.get("type") != "object":
        problems.append('type: must be "object"')
    _claims("properties", schema.get("properties", {}), problems)
    return schema, problems
