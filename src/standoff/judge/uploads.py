"""Designers' variant files: a game may play a variant sent with ``POST /api/v1/games``.

The file is read and checked by the engine exactly as ``standoff new
--variant-file`` and ``standoff check-variant`` do (``engine.upload_variant``:
the core's own loader, then its checks); any problem is 422 with the whole list.
The game keeps the text and its SHA-256, like a saved game of the CLI does,
and plays that copy for ever.

The engine finds a variant by its name, so on this judge a variant name (and
each alias) means one text: the first upload takes the name (``variant_names``)
and a different file under a taken name is refused with 409; the same file
again is welcome (another game of it). Bundled names are never taken.

Every server process makes a game's variant known to its engine when it
first reads the game's row (an ORM load hook, below), so a restart, another
worker or another machine plays the same map from the database alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

from . import engine
from .errors import conflict, invalid
from .models import Game, VariantName


@dataclass(frozen=True)
class Chosen:
    name: str
    #: the designer's file and its digest (None: a bundled variant)
    text: str | None = None
    sha256: str | None = None


def game_variant(s: Session, name: str | None, text: str | None, now: datetime) -> Chosen:
    """The variant a new game plays: bundled by name, or the uploaded file (checked,
    and its names claimed for this judge within the caller's transaction)."""
    if text is None:
        if name is None:
            raise invalid("give the game's variant (a bundled one by name) or a variant_file")
        return Chosen(engine.bundled_variant(name).name)
    upload = engine.upload_variant(text)
    if name is not None and name.strip().lower() not in upload.keys:
        raise invalid(f"the variant file is variant {upload.name!r}, not {name!r}")
    for key in upload.keys:
        row = s.get(VariantName, key)
        if row is None:
            s.add(VariantName(key=key, sha256=upload.sha256, created_at=now))
        elif row.sha256 != upload.sha256:
            raise conflict(f"another variant file is already called {key!r} on this judge: "
                           "give yours a name of its own ([variant] name, aliases)")
    s.flush()  # two uploads racing for a name: the second fails here, before the game
    engine.adopt_variant(upload.text, upload.sha256)
    return Chosen(upload.name, upload.text, upload.sha256)


@event.listens_for(Game, "load")
def _on_load(game: Game, _context: Any) -> None:
    _adopt(game)


@event.listens_for(Game, "refresh")
def _on_refresh(game: Game, _context: Any, _attrs: Any) -> None:
    _adopt(game)


def _adopt(game: Game) -> None:
    loaded = game.__dict__  # never trigger a lazy load inside a load hook
    text, digest = loaded.get("variant_file"), loaded.get("variant_sha256")
    if text is not None and digest is not None:
        engine.adopt_variant(text, digest)
