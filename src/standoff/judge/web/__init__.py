"""The pages people play on: server-rendered shells (Jinja2) whose scripts use the
JSON API with the session cookie and the CSRF token.

Why shells: every rule, permission and secret stays in one place, the API. A
page's HTML carries the signed-in name, the game's public header and the ids its
scripts need, never a power's pending orders or press, so the page source
cannot leak them; the scripts fetch only what the API gives the caller.
``pages.router`` holds the routes, ``install_pages(app)`` mounts them and the
static files (``/static``). Names the browser tests rely on are listed in
``README.md`` beside this file.
"""

from __future__ import annotations

from .pages import install_pages

__all__ = ["install_pages"]
