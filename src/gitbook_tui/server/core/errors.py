"""API errors of the local server and their JSON shape ``{"error": {"code", "message"}}``."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException


class ApiError(Exception):
    """An error answered to the client with ``status`` and a human message."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


def bad_request(message: str) -> ApiError:
    return ApiError(400, message)


def unauthorized(
    message: str = "Authentication required: send 'Authorization: Bearer <token>'.",
) -> ApiError:
    return ApiError(401, message)


def forbidden(message: str) -> ApiError:
    return ApiError(403, message)


def not_found(what: str, id: str | None = None) -> ApiError:
    return ApiError(404, f"{what} not found" if id is None else f"{what} '{id}' not found")


def conflict(message: str) -> ApiError:
    return ApiError(409, message)


def error_body(status: int, message: str) -> dict[str, Any]:
    return {"error": {"code": status, "message": message}}


def error_response(
    status: int, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(error_body(status, message), status_code=status, headers=headers)


def _describe_validation(exc: RequestValidationError) -> str:
    messages = []
    for err in exc.errors()[:5]:
        loc = [str(part) for part in err.get("loc", ())]
        if loc and loc[0] in ("body", "query", "path", "header"):
            loc = loc[1:]
        field = ".".join(loc) or "body"
        msg = str(err.get("msg", "is invalid"))
        if err.get("type") == "json_invalid":
            return "Malformed JSON body: " + str(err.get("ctx", {}).get("error", msg))
        if err.get("type") == "missing":
            msg = "is required"
        messages.append(f"{field}: {msg}")
    return "; ".join(messages) or "Invalid request"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.message, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(400, _describe_validation(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 404:
            message = "No such endpoint"
        elif exc.status_code == 405:
            message = "Method not allowed on this endpoint"
        else:
            message = str(exc.detail)
        return error_response(exc.status_code, message, dict(exc.headers or {}))

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        import logging

        logging.getLogger("gitbook_tui.server").exception("unexpected error")
        return error_response(500, f"Internal error: {type(exc).__name__}")
