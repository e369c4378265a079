"""Every error the API answers, in one shape: ``{"error": CODE, "detail": "one sentence"}``.

The spec's codes with their statuses (400 invalid, 401 unauthenticated, 403
forbidden, 404 not_found, 409 conflict, 422 illegal, 429 too_many_requests),
and those it allows us to add: 405 method_not_allowed, 413 too_large (a body
over the size limit: refused before it is read whole, so a huge body costs the
server nothing), 500 internal (logged with its traceback; the client gets a
generic sentence, never the trace) and 503 unavailable (the database cannot be
reached or stayed locked: try again).

FastAPI's own answers (validation errors, unknown routes, wrong methods) are
replaced here, so a client can rely on the shape whatever went wrong.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("standoff.judge")

CODES: dict[int, str] = {
    400: "invalid", 401: "unauthenticated", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 409: "conflict", 413: "too_large", 422: "illegal",
    429: "too_many_requests", 500: "internal", 503: "unavailable",
}


class ErrorBody(BaseModel):
    """The shape of every error answer (for the OpenAPI description)."""

    error: str
    detail: str


class ApiError(Exception):
    """Raised anywhere in a request to answer with an error in the shape."""

    def __init__(self, status: int, detail: str, headers: Mapping[str, str] | None = None,
                 **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = CODES[status]
        self.detail = detail
        self.headers = dict(headers or {})
        self.extra = extra


def invalid(detail: str) -> ApiError:
    return ApiError(400, detail)


def unauthenticated(detail: str = "log in first: send Authorization: Bearer <token>") -> ApiError:
    return ApiError(401, detail, {"WWW-Authenticate": "Bearer"})


def forbidden(detail: str) -> ApiError:
    return ApiError(403, detail)


def not_found(detail: str) -> ApiError:
    return ApiError(404, detail)


def conflict(detail: str) -> ApiError:
    return ApiError(409, detail)


def mark_logged(exc: BaseException) -> None:
    """Note that ``exc``'s traceback has been logged (so nothing logs it twice)."""
    # an exception type without a __dict__ refuses: then it is logged twice, at worst
    with contextlib.suppress(AttributeError):
        exc.__standoff_logged__ = True  # type: ignore[attr-defined]


def was_logged(exc: BaseException) -> bool:
    return bool(getattr(exc, "__standoff_logged__", False))


def error_response(status: int, detail: str, headers: Mapping[str, str] | None = None,
                   **extra: Any) -> JSONResponse:
    body = {"error": CODES.get(status, "invalid" if status < 500 else "internal"),
            "detail": detail, **extra}
    return JSONResponse(body, status_code=status, headers=dict(headers or {}))


#: the error answers each route may give, for the OpenAPI description
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    s: {"model": ErrorBody, "description": CODES[s]} for s in (400, 401, 403, 404, 409, 422,
                                                                429)
}


def describe_validation(errors: Sequence[Any]) -> str:
    """One sentence from pydantic's list of problems (the first one, and how many more)."""
    if not errors:
        return "the request is not valid"
    first = errors[0]
    kind = first.get("type", "")
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    if kind == "json_invalid":
        sentence = "the body is not valid JSON"
    elif kind == "extra_forbidden":
        sentence = f"unknown field {where!r}"
    elif kind == "missing":
        sentence = f"missing field {where!r}" if where else "the body is missing"
    else:
        sentence = f"{where or 'body'}: {first.get('msg', 'invalid value')}"
    more = len(errors) - 1
    return sentence + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else "")


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.detail, exc.headers, **exc.extra)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind and kind != "application/json" and not kind.endswith("+json") and any(
                tuple(e.get("loc", ()))[:1] == ("body",) for e in exc.errors()):
            return error_response(400, f"the body must be JSON (Content-Type: application/json"
                                       f", not {kind})")
        return error_response(400, describe_validation(exc.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        status = exc.status_code
        if status == 404:
            detail = f"no such resource: {request.url.path}"
        elif status == 405:
            detail = f"{request.method} is not allowed on {request.url.path}"
        else:
            detail = str(exc.detail)
        return error_response(status, detail, exc.headers or {})

    @app.exception_handler(OperationalError)
    async def _database(request: Request, exc: OperationalError) -> JSONResponse:
        log.error("database unavailable on %s %s: %s", request.method, request.url.path,
                  str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        return error_response(503, "the database is unavailable; try again shortly",
                              {"Retry-After": "5"})

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:
        # logs.RequestLog answers a route's failure and logs it; this is for what fails
        # outside it. Starlette re-raises after us, and uvicorn logs it again unless it
        # is marked (logs.AlreadyLogged drops that copy): one traceback per failure.
        if not was_logged(exc):
            log.exception("internal error on %s %s", request.method, request.url.path)
            mark_logged(exc)
        return error_response(500, "the server failed to answer this request; it is logged")


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 too_large.

    A declared ``Content-Length`` over the limit is refused before reading;
    a chunked body is read up to the limit and refused as soon as it passes it.
    The (small) body is then handed to the app whole.
    """

    def __init__(self, app: ASGIApp, limit: int,
                 larger: Mapping[tuple[str, str], int] | None = None) -> None:
        self.app = app
        self.default = limit
        #: (method, path) -> its own limit
        self.larger = dict(larger or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = self.larger.get((scope["method"], scope["path"].rstrip("/")), self.default)
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await self._refuse(scope, receive, send, 400, "Content-Length is not a number")
                    return
                if declared > limit:
                    await self._refuse(scope, receive, send, 413, self._too_large(limit))
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._refuse(scope, receive, send, 413, self._too_large(limit))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    def _too_large(limit: int) -> str:
        return f"the request body is larger than {limit // 1024} KiB"

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, status: int,
                      detail: str) -> None:
        await error_response(status, detail, {"Connection": "close"})(scope, receive, send)
