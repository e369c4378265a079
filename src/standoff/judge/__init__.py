"""The web judge: an HTTP server where groups of people play every variant.

An adapter wing on the rules core's public API (all of it through
``judge/rules.py``); the core never imports it. Needs the ``judge`` extra
(FastAPI, uvicorn, SQLAlchemy, Alembic, psycopg, argon2-cffi). Start it with
``standoff serve``; the API it serves is ``docs/judge/api-contract.md`` (v1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    """``create_app`` and ``Settings``, imported when first asked for: a module of
    the judge run on its own (the variant-check worker, ``python -m
    standoff.judge.variant_check``) then starts without FastAPI and the database."""
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "Settings":
        from .settings import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
