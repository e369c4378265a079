"""Designers' variant files: a game may play a variant sent with ``POST /api/v1/games``.

The file is checked by the engine exactly as ``standoff check-variant`` does,
in a worker process bounded in time and memory, before any database
transaction begins (:meth:`~standoff.judge.variants.VariantStore.verdict`);
any problem is 422 with the whole list. The game keeps the text and its
SHA-256, like a saved game of the CLI does, and plays that copy for ever:
its rules are built from the game's own text (:mod:`~standoff.judge.variants`),
never found by name.

Names are what players and the lobby read, so on this judge a variant name
(and each alias, in its canonical form: trimmed, lower case) means one text:
the first upload takes the name (``variant_names``) and a different file
under a taken name is refused with 409; the same file again is welcome
(another game of it). Bundled names are never taken.

Quota: an account may create ``uploads_per_day`` games with a variant file in
24 hours, holding ``upload_bytes_per_day`` bytes of files in all (each game
keeps its copy), then 429.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .context import Judge
from .errors import ApiError, conflict, invalid
from .models import GameRow, VariantName
from .rules import Rules, bundled_rules
from .variant_check import canonical
from .variants import digest


@dataclass(frozen=True)
class Chosen:
    """The variant a new game will play, checked, with its rules built."""

    rules: Rules
    #: the designer's file and its digest (None: a bundled variant)
    text: str | None = None
    sha256: str | None = None
    #: its canonical names (uploads only): claimed when the game is stored
    keys: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.rules.name


def choose_variant(j: Judge, user_id: int, name: str | None, text: str | None,
                   now: datetime) -> Chosen:
    """The variant a new game plays: bundled by name, or the uploaded file, checked.
    Runs before the game's write transaction: nothing here holds a database lock."""
    if text is None:
        if name is None:
            raise invalid("give the game's variant (a bundled one by name) or a variant_file")
        return Chosen(bundled_rules(name))
    sha = digest(text)
    with j.db.read() as s:
        _check_quota(j, s, user_id, len(text.encode("utf-8", "surrogatepass")), now)
        known = s.scalar(select(GameRow.id).where(GameRow.variant_sha256 == sha)
                         .limit(1)) is not None
    verdict = j.variants.verdict(text, sha, known_good=known, account=user_id)
    if not verdict.ok:
        problems = verdict.problems
        raise ApiError(422, f"the variant file has {len(problems)} problem(s), the first: "
                            f"{problems[0]}", problems=problems)
    if name is not None and canonical(name) not in verdict.keys:
        raise invalid(f"the variant file is variant {verdict.name!r}, not {name!r}")
    rules = j.variants.uploaded(text, sha)
    return Chosen(rules, text, sha, tuple(verdict.keys))


def _check_quota(j: Judge, s: Session, user_id: int, size: int, now: datetime) -> None:
    cfg = j.settings
    since = now - timedelta(days=1)
    count, used = s.execute(
        select(func.count(), func.coalesce(func.sum(func.length(GameRow.variant_file)), 0))
        .where(GameRow.master_id == user_id, GameRow.variant_file.is_not(None),
               GameRow.created_at > since)).one()
    if count >= cfg.uploads_per_day or used + size > cfg.upload_bytes_per_day:
        raise ApiError(429, f"you have created {count} games with variant files in the last "
                            f"24 hours ({used // 1024} KiB of files); the limit is "
                            f"{cfg.uploads_per_day} games and {cfg.upload_bytes_per_day // 1024}"
                            " KiB: try again tomorrow", {"Retry-After": "3600"})


def claim_names(s: Session, chosen: Chosen, now: datetime) -> None:
    """Give the upload's names to its text on this judge, within the game's
    transaction (409 if another text has one of them)."""
    for key in chosen.keys:
        row = s.get(VariantName, key)
        if row is None:
            s.add(VariantName(key=key, sha256=chosen.sha256, created_at=now))
        elif row.sha256 != chosen.sha256:
            raise conflict(f"another variant file is already called {key!r} on this judge: "
                           "give yours a name of its own ([variant] name, aliases)")
    s.flush()  # two uploads racing for a name: the second fails here, before the game
