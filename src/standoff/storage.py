"""Saved games: a versioned, checksummed JSON file, written atomically.

The file is ``{"format": "standoff-game", "version": 1, "checksum": ...,
"game": {...}}``. The checksum (SHA-256 of the canonical game JSON) catches a
damaged or hand-mangled file; an unknown format or version is refused rather
than guessed at. Saving writes a temporary file and renames it over the old
one, so a crash or a refused save never leaves half a file, and loading never
modifies anything.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .errors import CorruptGameError, StandoffError
from .game import Game

FORMAT = "standoff-game"
VERSION = 1


def _canonical(game: dict[str, Any]) -> str:
    return json.dumps(game, sort_keys=True, separators=(",", ":"))


def dumps(game: Game) -> str:
    body = game.to_dict()
    digest = hashlib.sha256(_canonical(body).encode()).hexdigest()
    doc = {"format": FORMAT, "version": VERSION, "checksum": f"sha256:{digest}", "game": body}
    return json.dumps(doc, indent=1) + "\n"


def loads(text: str, source: str = "saved game") -> Game:
    """Read a saved game; raise :class:`CorruptGameError` with the reason."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CorruptGameError(f"{source} is not valid JSON ({exc}); it may be truncated") from exc
    except RecursionError:
        raise CorruptGameError(f"{source} is nested too deeply to be a saved game") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CorruptGameError(f"{source} is not a standoff saved game")
    version = doc.get("version")
    if isinstance(version, bool) or version != VERSION:
        raise CorruptGameError(
            f"{source} has format version {version!r}; this standoff reads version {VERSION}"
        )
    body = doc.get("game")
    if not isinstance(body, dict):
        raise CorruptGameError(f"{source} has no game data")
    digest = hashlib.sha256(_canonical(body).encode()).hexdigest()
    if doc.get("checksum") != f"sha256:{digest}":
        raise CorruptGameError(f"{source} fails its checksum: it was damaged or edited by hand")
    try:
        return Game.from_dict(body)
    except StandoffError as exc:
        raise CorruptGameError(f"{source} is inconsistent: {exc}") from exc
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CorruptGameError(f"{source} is malformed: {exc!r}") from exc


def save(game: Game, path: str | Path) -> None:
    """Write atomically: the old file stays intact until the new one is complete."""
    target = Path(path)
    text = dumps(game)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: str | Path) -> Game:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CorruptGameError(f"no saved game at {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CorruptGameError(f"cannot read {path}: {exc}") from exc
    return loads(text, str(path))
