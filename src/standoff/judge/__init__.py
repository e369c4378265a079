"""The web judge: an HTTP server where groups of people play every variant.

An adapter wing on the rules core's public API (all of it through
``judge/engine.py``); the core never imports it. Needs the ``judge`` extra
(FastAPI, uvicorn, SQLAlchemy, Alembic, psycopg, argon2-cffi). Start it with
``standoff serve``; the API it serves is ``shared/spec/judge-api.md`` (v1).
"""

from __future__ import annotations

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
