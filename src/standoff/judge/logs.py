"""The judge's logs: one line per request, one traceback per failure, no secrets.

Every request is one line from :class:`RequestLog` (logger
``standoff.judge.requests``): its request id, the client's address, method,
path, status and duration. The id is the client's ``X-Request-ID`` when that
is well formed (a proxy in front may set one, so its log and ours join up),
else a new random one; either way the response carries it back. uvicorn's own
access log is turned off (``serve`` passes ``access_log=False``): it would
print every query string whole.

What is never written:

* headers: no ``Authorization``, no cookie, no CSRF token (none is logged);
* secrets in URLs: the value of a query parameter whose name looks like a
  secret (``invite``, ``token``, ``code``, ``session``, ...) or whose value
  looks like a random secret is replaced by ``[hidden]``, and so is a path
  parameter with such a name;
* SQL parameters: the engine is made with ``hide_parameters=True`` (db.py), and
  the PostgreSQL error text of a failed statement loses its ``DETAIL:`` lines
  (``Failing row contains (...)``, ``Key (...)=(...)``: whole rows of values)
  when a traceback is formatted here.

A request that raises is answered 500 here (``{"error": "internal", ...}``)
and its request line is logged at ERROR with the traceback, once: the
exception is then marked as logged (:func:`errors.mark_logged`), and
:class:`AlreadyLogged` drops the copy that Starlette's ``ServerErrorMiddleware``
and uvicorn would otherwise print again ("Exception in ASGI application").

``--log-format json`` makes every line, uvicorn's included, one JSON object
(:class:`JsonFormatter`); the default is uvicorn's ``LEVEL:     message``.
"""

from __future__ import annotations

import json
import logging
import re
import time
import traceback
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from types import TracebackType
from typing import Any
from urllib.parse import parse_qsl, quote

from starlette.routing import Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import error_response, mark_logged, was_logged
from .proxies import client_address

log = logging.getLogger("standoff.judge.requests")

LOG_FORMATS = ("text", "json")
HIDDEN = "[hidden]"
#: an incoming X-Request-ID is kept only if it is this tame (no spaces, no control
#: characters: it goes into every log line of the request)
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:@/+=-]{1,128}")
#: names of query and path parameters whose values are secrets
_SECRET_NAME = re.compile(r"invite|token|code|secret|pass|session|csrf|auth|key|sig|otp|nonce",
                          re.IGNORECASE)
#: a value that looks like a random secret whatever its name (base64url or hex, long)
_SECRET_VALUE = re.compile(r"[A-Za-z0-9_\-]{20,}={0,2}")
#: what a logged path keeps unescaped (anything else, control characters included,
#: is percent-encoded, so a path cannot forge a second log line)
_PATH_SAFE = "/:@!$&'()*+,;=-._~{}[]"
_MAX_PATH = 300
#: request outcome fields a formatter may show, in this order
REQUEST_FIELDS = ("request_id", "client", "method", "path", "route", "status", "duration_ms")

#: called with (method, route template, status, seconds) after each request
Observer = Callable[[str, str, int, float], None]


def request_id(scope: Scope) -> str:
    """The request's id: the client's well-formed ``X-Request-ID``, else a new one."""
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            text = value.decode("latin-1")
            if _REQUEST_ID.fullmatch(text):
                return str(text)
            break
    return uuid.uuid4().hex


def route_template(scope: Scope) -> str:
    """The matched route's path template (``/api/v1/games/{game_id}``): a bounded
    set of values, unlike raw paths; ``(none)`` when no route matched (an unknown
    path, or a body refused before routing)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if not isinstance(path, str):
        return "(none)"
    if isinstance(route, Mount):  # static files: one label for the whole mount
        return path.rstrip("/") + "/{path}"
    return path


def safe_path(scope: Scope) -> str:
    """The request's path and query as logged: secrets hidden, escaped, bounded."""
    path = str(scope.get("root_path", "")) + str(scope.get("path", ""))
    params = scope.get("path_params") or {}
    for name, value in params.items():
        if _SECRET_NAME.search(name) and str(value):
            path = path.replace(str(value), HIDDEN)
    shown = quote(path, safe=_PATH_SAFE)
    query = scope.get("query_string", b"").decode("latin-1")
    if query:
        pairs = []
        for key, value in parse_qsl(query, keep_blank_values=True):
            secret = _SECRET_NAME.search(key) or _SECRET_VALUE.fullmatch(value)
            pairs.append(f"{quote(key, safe='')}={HIDDEN if secret and value else quote(value)}")
        shown += "?" + "&".join(pairs)
    return shown if len(shown) <= _MAX_PATH else shown[:_MAX_PATH] + "..."


def _client(scope: Scope, trusted: tuple[str, ...]) -> str:
    """The client's address as the throttles see it (proxies.py): behind a trusted
    proxy, the address it forwarded."""
    client = scope.get("client")
    peer = str(client[0]) if client else "-"
    forwarded = [v.decode("latin-1") for k, v in scope.get("headers", ())
                 if k == b"x-forwarded-for"]
    return client_address(peer, forwarded, trusted)


class RequestLog:
    """ASGI middleware: the request id, one log line per request, the one 500.

    Installed outermost of the app's middleware (``app.add_middleware`` last),
    so it sees every answer, a 413 from the body limit included. ``observe``
    (the metrics, when on) is told each request's route template, status and
    duration. The client's address is read as the throttles read it
    (``trusted_proxies``: whose ``X-Forwarded-For`` is believed).
    """

    def __init__(self, app: ASGIApp, observe: Observer | None = None,
                 trusted_proxies: tuple[str, ...] = ()) -> None:
        self.app = app
        self.observe = observe
        self.trusted = tuple(trusted_proxies)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        rid = request_id(scope)
        scope.setdefault("state", {})["request_id"] = rid
        header = (b"x-request-id", rid.encode("latin-1"))
        status = 0

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                headers = [(k, v) for k, v in message.get("headers", ())
                           if k.lower() != b"x-request-id"]
                message = {**message, "headers": [*headers, header]}
            await send(message)

        failure: BaseException | None = None
        try:
            await self.app(scope, receive, send_with_id)
        except Exception as exc:
            failure = exc
            if status:  # the answer had begun: the server can only drop the connection
                self._done(scope, rid, 500, started, exc)
                raise
            await error_response(500, "the server failed to answer this request; it is "
                                      "logged", {"X-Request-ID": rid})(scope, receive, send)
            status = 500
        self._done(scope, rid, status or 500, started, failure)

    def _done(self, scope: Scope, rid: str, status: int, started: float,
              failure: BaseException | None) -> None:
        seconds = time.perf_counter() - started
        method = str(scope.get("method", "?"))
        route = route_template(scope)
        fields = {"request_id": rid, "client": _client(scope, self.trusted), "method": method,
                  "path": safe_path(scope), "route": route, "status": status,
                  "duration_ms": round(seconds * 1000, 1)}
        text = (f"{fields['client']} {method} {fields['path']} {status} "
                f"{fields['duration_ms']}ms id={rid}")
        if failure is not None:
            log.error(text, exc_info=failure, extra={"request": fields})
            mark_logged(failure)
        else:
            log.info(text, extra={"request": fields})
        if self.observe is not None:
            try:
                self.observe(method, route, status, seconds)
            except Exception:  # a metric must never fail a request
                logging.getLogger("standoff.judge").exception("recording a request's metrics")


# -- formatting ------------------------------------------------------------------------

def _hide_db_detail(text: str) -> str:
    """A database error's message without the lines that carry row values."""
    kept = [line for line in text.splitlines()
            if not line.lstrip().startswith(("DETAIL:", "[parameters:"))]
    return "\n".join(kept)


def _is_db_error(exc_type: type[BaseException] | None) -> bool:
    return exc_type is not None and any(
        cls.__module__.split(".")[0] in ("psycopg", "sqlalchemy", "sqlite3")
        for cls in exc_type.__mro__)


def format_exception(exc_info: tuple[type[BaseException], BaseException, TracebackType | None]
                     ) -> str:
    """The traceback, with database errors' values taken out (see the module's doc).

    ``TracebackException`` keeps each exception's message in ``_str``: the one
    place to change it for the whole chain (``__cause__``/``__context__``)."""
    te = traceback.TracebackException(*exc_info)
    seen: set[int] = set()
    stack = [te]
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        message = getattr(current, "_str", None)
        if _is_db_error(current.exc_type) and isinstance(message, str):
            current._str = _hide_db_detail(message)  # type: ignore[attr-defined]
        stack += [e for e in (current.__cause__, current.__context__) if e is not None]
    return "".join(te.format()).rstrip("\n")


class TextFormatter(logging.Formatter):
    """uvicorn's ``LEVEL:     message``, tracebacks cleaned by :func:`format_exception`."""

    def __init__(self, fmt: str | None = None, datefmt: str | None = None) -> None:
        super().__init__(fmt or "%(levelname)s:%(padding)s%(message)s", datefmt)

    def format(self, record: logging.LogRecord) -> str:
        record.padding = " " * max(1, 9 - len(record.levelname))
        return super().format(record)

    def formatException(self, ei: Any) -> str:
        return format_exception(ei)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, a request's fields
    (``request_id``, ``method``, ``path``, ``route``, ``status``, ``duration_ms``,
    ``client``) and ``traceback``; never more than one line."""

    def __init__(self, fmt: str | None = None, datefmt: str | None = None) -> None:
        super().__init__(fmt, datefmt)

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(), "logger": record.name,
            "message": record.getMessage()}
        fields = getattr(record, "request", None)
        if isinstance(fields, dict):
            out.update({k: fields[k] for k in REQUEST_FIELDS if k in fields})
        if record.exc_info:
            out["traceback"] = format_exception(record.exc_info)  # type: ignore[arg-type]
        return json.dumps(out, ensure_ascii=False, default=str)


class AlreadyLogged(logging.Filter):
    """Drops a record whose exception has been logged already (uvicorn's and
    Starlette's second telling of a request's failure)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and record.exc_info[1] is not None
                    and was_logged(record.exc_info[1]))


def logging_config(log_format: str = "text") -> dict[str, Any]:
    """The ``logging.config.dictConfig`` of ``standoff serve``, given to uvicorn as
    its ``log_config`` so that its worker processes apply it too: the judge's
    loggers and uvicorn's, one handler on stderr, one format."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"the log format must be one of {', '.join(LOG_FORMATS)}")
    formatter = JsonFormatter if log_format == "json" else TextFormatter
    handler = ["stderr"]
    return {
        "version": 1, "disable_existing_loggers": False,
        "formatters": {"standoff": {"()": f"{__name__}.{formatter.__name__}"}},
        "filters": {"once": {"()": f"{__name__}.AlreadyLogged"}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "standoff",
                                "filters": ["once"], "stream": "ext://sys.stderr"}},
        "loggers": {
            "standoff": {"handlers": handler, "level": "INFO", "propagate": False},
            "uvicorn": {"handlers": handler, "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            # our RequestLog replaces it (uvicorn is also told access_log=False)
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }


def configure(log_format: str = "text") -> None:
    """Apply :func:`logging_config` in this process."""
    import logging.config

    logging.config.dictConfig(logging_config(log_format))
