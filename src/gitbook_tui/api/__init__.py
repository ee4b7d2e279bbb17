"""Async client for the workspace API."""

from .base import CacheMissError, RateLimitInfo, ReadMode, ResponseMeta, response_meta
from .client import AsyncGitBook
from .errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    GitBookError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    PreconditionFailedError,
    RateLimitError,
    ResponseValidationError,
)
from .pagination import AsyncPager
from .waits import RetryWait

__all__ = [
    "APIConnectionError",
    "APIStatusError",
    "APITimeoutError",
    "AsyncGitBook",
    "AsyncPager",
    "AuthenticationError",
    "BadRequestError",
    "CacheMissError",
    "ConflictError",
    "GitBookError",
    "InternalServerError",
    "NotFoundError",
    "PermissionDeniedError",
    "PreconditionFailedError",
    "RateLimitError",
    "RateLimitInfo",
    "ReadMode",
    "ResponseMeta",
    "ResponseValidationError",
    "RetryWait",
    "response_meta",
]
