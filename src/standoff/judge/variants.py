"""The judge's own variant registry: each game's rules, found from the game itself.

A game plays a bundled variant (by its canonical name) or the designer's file
it keeps (text and SHA-256). :meth:`VariantStore.rules` gives the game's
:class:`~standoff.judge.engine.Rules` from exactly that: a bundled variant from
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
  (a text already played by a game on this judge is known good).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Protocol

from standoff import StandoffError, variant_from_text

from .engine import Rules, bundled_rules
from .errors import ApiError
from .settings import Settings
from .variant_check import UPLOAD_PATH, Verdict, check_in_worker


class PlaysVariant(Protocol):
    """What a game row says of its variant (``models.Game`` has these columns)."""

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
        with building:
            with self._lock:
                found = self._built.get(sha256)
            if found is None:
                try:
                    found = Rules(variant_from_text(text, UPLOAD_PATH))
                except StandoffError as exc:
                    raise VariantUnavailable(f"this game's variant file no longer loads: "
                                             f"{exc}") from exc
                with self._lock:
                    self._built[sha256] = found
                    while len(self._built) > max(1, self.settings.variants_kept):
                        self._built.popitem(last=False)
            with self._lock:
                self._building.pop(sha256, None)
            return found

    # -- checking uploads -------------------------------------------------------------

    def verdict(self, text: str, sha256: str, known_good: bool = False) -> Verdict:
        """The check of a designer's file: from memory for a text seen before, in a
        bounded worker otherwise (``known_good``: a game on this judge plays it, so
        only its names are read, from the built variant)."""
        with self._lock:
            found = self._verdicts.get(sha256)
        if found is not None:
            return found
        if known_good:
            v = self.uploaded(text, sha256).variant
            keys = list(dict.fromkeys(n.strip().lower() for n in (v.name, *v.aliases)))
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
