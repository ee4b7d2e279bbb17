"""The error body returned by failed requests: ``{"error": {"code", "message"}}``."""

from __future__ import annotations

from .common import ApiModel

__all__ = ["ErrorBody", "ErrorDetail"]


class ErrorDetail(ApiModel):
    """The ``error`` object: HTTP status code and message."""

    code: int
    message: str = ""


class ErrorBody(ApiModel):
    """Body of an error response."""

    error: ErrorDetail

    @classmethod
    def of(cls, code: int, message: str) -> ErrorBody:
        """Build the error body for ``code`` and ``message``."""
        return cls(error=ErrorDetail(code=code, message=message))
