"""The judge's own variant registry: each game's rules, found from the game itself.

A game plays a bundled variant (by its canonical name) or the designer's file
it keeps (text and SHA-256). :meth:`VariantStore.rules` gives the game's
:class:`~standoff.judge.rules.Rules` from exactly that: a bundled variant from
the core's bundled data, an uploaded one built from the game's own text and
kept by its digest. Nothing is looked up by name in a process-wide registry,
nothing is registered when a row is read, and no name can stand for another
text (the fault behind "one name, one text is broken by whitespace").

Bounds, so no account can make a server process slow or large:

* built uploads are kept for the ``variants_kept`` most recently used files
  (each is bounded by the core's :mod:`~standoff.core.limits`);
* a new file is checked in a worker process bounded in time and memory
  (:func:`~standoff.judge.variant_check.check_in_worker`), at most
  ``upload_checks_at_once`` at a time per server process; a request that waits
  longer than ``upload_check_wait_seconds`` for its turn gets 503;
* verdicts are kept by digest, so the same text again is not checked again
  (a text already played by a game on this judge is known good);
* an account may have ``upload_checks_per_hour`` files checked by workers in
  each process (refused files make no game, so the daily quota of games with
  files never counts them).
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from typing import Protocol

from .errors import ApiError
from .rules import Rules, UnreadableVariant, bundled_rules, rules_from_text
from .settings import Settings
from .variant_check import UPLOAD_PATH, Verdict, canonical, check_in_worker


class PlaysVariant(Protocol):
    """What a game row says of its variant (``models.GameRow`` has these columns)."""

    @property
    def variant(self) -> str: ...

    @property
    def variant_file(self) -> str | None: ...

    @property
    def variant_sha256(self) -> str | None: ...


def digest(text: str) -> str:
    """SHA-256 of a variant file's text (UTF-8), hex: as the core's VariantSource."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class VariantUnavailable(ApiError):
    """A stored game's variant file no longer builds (a newer engine refuses it)."""

    def __init__(self, detail: str) -> None:
        super().__init__(409, detail)


class VariantStore:
    """Per judge (``Judge.variants``): built uploads and verdicts, bounded."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._lock = threading.Lock()
        self._built: OrderedDict[str, Rules] = OrderedDict()
        #: one lock per digest being built, so two requests never build the same file
        self._building: dict[str, threading.Lock] = {}
        self._verdicts: OrderedDict[str, Verdict] = OrderedDict()
        self._checks = threading.BoundedSemaphore(max(1, settings.upload_checks_at_once))
        #: when each account's recent worker checks ran (time.monotonic), this process
        self._checked: dict[int, list[float]] = {}

    # -- a game's rules ---------------------------------------------------------------

    def rules(self, game: PlaysVariant) -> Rules:
        """The rules ``game`` plays: its own file when it has one, else the bundled
        variant it names."""
        if game.variant_file is None:
            return bundled_rules(game.variant)
        return self.uploaded(game.variant_file, game.variant_sha256 or digest(game.variant_file))

    def uploaded(self, text: str, sha256: str) -> Rules:
        """The rules of a designer's file, built once per text while it is in use."""
        with self._lock:
            found = self._built.get(sha256)
            if found is not None:
                self._built.move_to_end(sha256)
                return found
            building = self._building.setdefault(sha256, threading.Lock())
        try:
            with building:
                with self._lock:
                    found = self._built.get(sha256)
                if found is None:
                    try:
                        found = rules_from_text(text, UPLOAD_PATH)
                    except UnreadableVariant as exc:
                        raise VariantUnavailable(f"this game's variant file no longer "
                                                 f"loads: {exc}") from exc
                    with self._lock:
                        self._built[sha256] = found
                        while len(self._built) > max(1, self.settings.variants_kept):
                            self._built.popitem(last=False)
                return found
        finally:
            with self._lock:
                self._building.pop(sha256, None)

    # -- checking uploads -------------------------------------------------------------

    def verdict(self, text: str, sha256: str, known_good: bool = False,
                account: int | None = None) -> Verdict:
        """The check of a designer's file: from memory for a text seen before, in a
        bounded worker otherwise (``known_good``: a game on this judge plays it, so
        only its names are read, from the built variant). A worker's check counts
        against ``account``'s ``upload_checks_per_hour`` in this process (429 past
        it): refused files make no game, so the daily quota never sees them."""
        with self._lock:
            found = self._verdicts.get(sha256)
        if found is not None:
            return found
        if not known_good and account is not None:
            self._count_check(account)
        if known_good:
            v = self.uploaded(text, sha256).variant
            keys = list(dict.fromkeys(canonical(n) for n in (v.name, *v.aliases)))
            found = Verdict([], v.name, keys, len(v.powers))
        else:
            cfg = self.settings
            if not self._checks.acquire(timeout=cfg.upload_check_wait_seconds):
                raise ApiError(503, "the judge is busy checking other variant files: try "
                                    "again in a minute", {"Retry-After": "30"})
            try:
                found = check_in_worker(text, seconds=cfg.upload_check_seconds,
                                        memory_mib=cfg.upload_check_memory_mib)
            finally:
                self._checks.release()
        with self._lock:
            self._verdicts[sha256] = found
            while len(self._verdicts) > 256:
                self._verdicts.popitem(last=False)
        return found

    def _count_check(self, account: int) -> None:
        """One more worker check for ``account`` within the hour, or 429."""
        limit = self.settings.upload_checks_per_hour
        if limit <= 0:
            return
        now = time.monotonic()
        with self._lock:
            recent = [t for t in self._checked.get(account, []) if t > now - 3600]
            if len(recent) >= limit:
                wait = int(recent[0] + 3600 - now) + 1
                raise ApiError(429, f"you have had {len(recent)} variant files checked in the "
                                    f"last hour (at most {limit}): try again later",
                               {"Retry-After": str(wait)})
            recent.append(now)
            self._checked[account] = recent
            if len(self._checked) > 10_000:  # forget the quietest accounts first
                for key in sorted(self._checked, key=lambda k: self._checked[k][-1])[:5_000]:
                    del self._checked[key]
