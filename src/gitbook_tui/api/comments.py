"""Comments operations of the workspace API (being written)."""

from __future__ import annotations

from .resource import Resource


class Comments(Resource):
    pass
