"""The client's error hierarchy: connection, timeout, one class per HTTP status family."""

from __future__ import annotations

from datetime import UTC, datetime


class GitBookError(Exception):
    """Base of every error the client raises."""


class APIConnectionError(GitBookError):
    """The server could not be reached (or the connection broke)."""

    def __init__(self, method: str, path: str, message: str = "Could not reach the server") -> None:
        super().__init__(f"{message} ({method} {path})")
        self.method = method
        self.path = path


class APITimeoutError(APIConnectionError):
    """The server did not answer in time."""

    def __init__(self, method: str, path: str) -> None:
        super().__init__(method, path, "The server did not answer in time")


class ResponseValidationError(GitBookError):
    """An answer that does not match the expected model at all."""

    def __init__(self, operation: str, field: str, detail: str) -> None:
        super().__init__(f"Unexpected response from {operation}: field '{field}' {detail}")
        self.operation = operation
        self.field = field
        self.detail = detail


class APIStatusError(GitBookError):
    """The server answered with an error status; ``message`` is its ``error.message``."""

    status: int = 0

    def __init__(self, status: int, message: str, method: str, path: str) -> None:
        super().__init__(f"{status} {message} ({method} {path})")
        self.status = status
        self.message = message
        self.method = method
        self.path = path

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status}, message={self.message!r}, method={self.method!r}, path={self.path!r})"


class BadRequestError(APIStatusError):
    status = 400


class AuthenticationError(APIStatusError):
    status = 401


class PermissionDeniedError(APIStatusError):
    status = 403


class NotFoundError(APIStatusError):
    status = 404


class ConflictError(APIStatusError):
    status = 409


class PreconditionFailedError(APIStatusError):
    status = 412


class RateLimitError(APIStatusError):
    """429: ``reset_at`` says when requests are allowed again (when the server said)."""

    status = 429

    def __init__(
        self,
        status: int,
        message: str,
        method: str,
        path: str,
        reset_at: datetime | None = None,
    ) -> None:
        super().__init__(status, message, method, path)
        self.reset_at = reset_at

    @property
    def wait_seconds(self) -> float | None:
        if self.reset_at is None:
            return None
        return max(0.0, (self.reset_at - datetime.now(UTC)).total_seconds())


class InternalServerError(APIStatusError):
    """Any 5xx answer."""


_BY_STATUS: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    412: PreconditionFailedError,
    429: RateLimitError,
}


def error_for_status(status: int) -> type[APIStatusError]:
    if status >= 500:
        return InternalServerError
    return _BY_STATUS.get(status, APIStatusError)
