"""The client's errors (connection, timeout, one class per status family) and their parsing."""

from __future__ import annotations

import email.utils
import json
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

import httpx


class GitBookError(Exception):
    """Base of every error the client raises. No error ever carries the token."""


class APIConnectionError(GitBookError):
    """The server could not be reached (or the connection broke)."""

    def __init__(
        self,
        method: str,
        path: str,
        message: str = "Could not reach the server",
        detail: str = "",
    ) -> None:
        text = f"{message} ({method} {path})"
        super().__init__(f"{text}: {detail}" if detail else text)
        self.method = method
        self.path = path
        self.detail = detail

    def __repr__(self) -> str:
        return f"{type(self).__name__}(method={self.method!r}, path={self.path!r})"


class APITimeoutError(APIConnectionError):
    """The server did not answer in time."""

    def __init__(self, method: str, path: str, detail: str = "") -> None:
        super().__init__(method, path, "The server did not answer in time", detail)


class CacheMissError(GitBookError):
    """``cache-only`` was asked for something the cache does not hold."""

    def __init__(self, path: str) -> None:
        super().__init__(f"Not in the cache: {path}")
        self.path = path


class ResponseValidationError(GitBookError):
    """An answer that is not JSON, or does not match the expected model."""

    def __init__(self, operation: str, field: str, detail: str) -> None:
        super().__init__(f"Unexpected response from {operation}: field '{field}' {detail}")
        self.operation = operation
        self.field = field
        self.detail = detail

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(operation={self.operation!r}, field={self.field!r}, "
            f"detail={self.detail!r})"
        )


class APIStatusError(GitBookError):
    """The server answered with an error status; ``message`` is its ``error.message``."""

    status: int = 0

    def __init__(self, status: int, message: str, method: str, path: str) -> None:
        super().__init__(self._describe(status, message, method, path))
        self.status = status
        self.message = message
        self.method = method
        self.path = path

    @staticmethod
    def _describe(status: int, message: str, method: str, path: str) -> str:
        return f"{status} {message} ({method} {path})"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status}, message={self.message!r}, "
            f"method={self.method!r}, path={self.path!r})"
        )


class BadRequestError(APIStatusError):
    status = 400


class AuthenticationError(APIStatusError):
    """401: the token is missing, invalid, expired or revoked."""

    status = 401

    @staticmethod
    def _describe(status: int, message: str, method: str, path: str) -> str:
        return (
            f"Authentication failed ({status}: {message}) for {method} {path}. "
            "Check the API token (GITBOOK_TOKEN or 'gitbook-tui auth login')."
        )


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
        if reset_at is not None:
            self.args = (f"{self.args[0]}; allowed again at {reset_at.isoformat()}",)

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


def reset_time(value: str | None) -> datetime | None:
    """``X-RateLimit-Reset``: epoch seconds (or milliseconds); small numbers are a delay."""
    if not value:
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    if number > 1e12:
        number /= 1000.0
    stamp = number if number > 1e9 else time.time() + max(0.0, number)
    return datetime.fromtimestamp(stamp, UTC)


def retry_after(value: str | None) -> float | None:
    """``Retry-After``: a delay in seconds or an HTTP date; the seconds to wait."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        parsed = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return max(0.0, (parsed - datetime.now(UTC)).total_seconds())


def server_wait(headers: Mapping[str, str], *, use_reset: bool = True) -> float | None:
    """Seconds the server asked us to wait (``Retry-After``, else ``X-RateLimit-Reset``)."""
    after = retry_after(headers.get("retry-after"))
    if after is not None:
        return after
    reset = reset_time(headers.get("x-ratelimit-reset")) if use_reset else None
    if reset is not None:
        return max(0.0, (reset - datetime.now(UTC)).total_seconds())
    return None


def error_message(response: httpx.Response) -> str:
    """The server's ``error.message``, else the reason phrase."""
    try:
        body = response.json()
        error = body.get("error") if isinstance(body, dict) else None
        message = error.get("message") if isinstance(error, dict) else None
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
        message = None
    return str(message) if message else (response.reason_phrase or "Error")


def status_error(
    response: httpx.Response, method: str, path: str, redact: Callable[[str], str] = str
) -> APIStatusError:
    """The error for an error answer (``redact`` scrubs secrets from the server's text)."""
    cls = error_for_status(response.status_code)
    message = redact(error_message(response))
    if cls is RateLimitError:
        wait = server_wait(response.headers)
        reset = datetime.fromtimestamp(time.time() + wait, UTC) if wait is not None else None
        return RateLimitError(response.status_code, message, method, path, reset_at=reset)
    return cls(response.status_code, message, method, path)
