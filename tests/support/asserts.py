"""Assertions shared by the server and client tests."""

from __future__ import annotations


def assert_error(response: object, status: int, *fragments: str) -> dict:
    """The response is an API error with ``status`` whose message contains ``fragments``."""
    assert response.status_code == status, (response.status_code, response.text)  # type: ignore[attr-defined]
    body = response.json()  # type: ignore[attr-defined]
    assert set(body) == {"error"}, body
    assert body["error"]["code"] == status
    message = body["error"]["message"]
    for fragment in fragments:
        assert fragment.lower() in message.lower(), (fragment, message)
    return body


def only(doc: object) -> object:
    """The one block of a parsed document (it has exactly one)."""
    blocks = doc.blocks  # type: ignore[attr-defined]
    assert len(blocks) == 1, blocks
    return blocks[0]
