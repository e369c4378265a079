"""Saved games: a versioned, checksummed JSON file, written atomically and
changed only under a lock.

The file is ``{"format": "standoff-game", "version": 1, "checksum": ...,
"game": {...}}``. The checksum (SHA-256 of the canonical game JSON) catches a
damaged or hand-mangled file; an unknown format or version is refused rather
than guessed at.

Writing: a temporary file beside the game file (beside a symlink's target, so
the link stays a link), with the old file's permissions, fsynced, renamed over
the old one, then the directory fsynced. A crash or a refused save never
leaves half a file, and a reader (``show``, ``legal``) sees the old game or
the new one, never a mixture, so reading needs no lock.

Changing: two commands that each load, change and save the same game would
each save their own change over the other's (an accepted order lost).
:func:`editing` therefore holds an exclusive ``flock`` on the game file for
the whole read-modify-write and rereads the file once it has the lock. The
lock is on the file itself, not on a ``.lock`` file beside it: nothing is left
behind, and the kernel releases it when a process dies. Because a save
replaces the file, a process that waited may hold the lock of a file that has
just been replaced; it notices (the path names another inode) and locks the
new file instead.

A file holds a :class:`standoff.GameRecord` (its JSON form is the file's
``"game"``): :func:`dumps` takes a record or a :class:`standoff.Game` holding
one, :func:`loads_record` / :func:`load_record` give the record and
:func:`loads` / :func:`load` / :func:`editing` a ``Game`` around it for the CLI.

A game of a designer's own variant file keeps that file's path, digest and
text (``"variant_file"``, an optional field of version 1): it loads from the
kept text, so moving or editing the file cannot break the game, and a load
warns (:class:`VariantChangedWarning`) when the file at the path has changed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import stat
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from standoff import (
    CorruptGameError,
    Game,
    GameRecord,
    GameStateError,
    StandoffError,
    Variant,
    VariantError,
    VariantSource,
    available_variants,
    load_variant,
    register_variant,
    variant_from_text,
)

if sys.platform != "win32":
    import fcntl

FORMAT = "standoff-game"
VERSION = 1
#: how long :func:`editing` waits for another process's change before giving up
LOCK_TIMEOUT = 30.0


class VariantChangedWarning(UserWarning):
    """The variant file a game was started from has changed since."""


def _canonical(game: dict[str, Any]) -> str:
    return json.dumps(game, sort_keys=True, separators=(",", ":"))


def dumps(game: Game | GameRecord) -> str:
    record = game.record if isinstance(game, Game) else game
    body = record.to_dict()
    source = record.variant.source
    if source is not None:
        body["variant_file"] = {"path": source.path, "sha256": source.digest,
                                "text": source.text}
    digest = hashlib.sha256(_canonical(body).encode()).hexdigest()
    doc = {"format": FORMAT, "version": VERSION, "checksum": f"sha256:{digest}", "game": body}
    return json.dumps(doc, indent=1) + "\n"


def loads(text: str, source: str = "saved game") -> Game:
    """Read a saved game; raise :class:`CorruptGameError` with the reason."""
    return Game.from_record(loads_record(text, source))


def loads_record(text: str, source: str = "saved game") -> GameRecord:
    """Read a saved game's record; raise :class:`CorruptGameError` with the reason."""
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
    if "history" not in body:  # GameRecord.from_dict reads a state without one; a file has one
        raise CorruptGameError(f"{source} is malformed: its game has no history (a saved "
                               "game always has one, empty before the first phase)")
    try:
        if "variant_file" in body:
            _adopt_kept_variant(body["variant_file"], str(body.get("variant")), source)
        return GameRecord.from_dict(body)
    except StandoffError as exc:
        raise CorruptGameError(f"{source} is inconsistent: {exc}") from exc
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CorruptGameError(f"{source} is malformed: {exc!r}") from exc


def _adopt_kept_variant(kept: Any, name: str, source: str) -> None:
    """Rebuild and register the variant a saved game keeps the text of; warn if
    the file it came from has changed since."""
    if not isinstance(kept, dict) or not all(
            isinstance(kept.get(k), str) for k in ("path", "sha256", "text")):
        raise StandoffError("its variant_file needs a path, a sha256 and a text")
    recorded = VariantSource(kept["path"], kept["text"])
    if recorded.digest != kept["sha256"]:
        raise StandoffError("the variant text it keeps does not match its digest")
    variant = variant_from_text(recorded.text, recorded.path)
    if variant.name != name:
        raise StandoffError(f"it is a game of {name!r}, but the variant text it keeps is "
                            f"{variant.name!r}")
    _adopt(variant)
    try:
        now = Path(recorded.path).read_bytes()
    except OSError:
        return  # moved or gone: the game has its own copy
    if hashlib.sha256(now).hexdigest() != recorded.digest:
        warnings.warn(VariantChangedWarning(
            f"the variant file {recorded.path} has changed since {source} was started; "
            f"playing the copy kept in {source}"), stacklevel=4)


def _adopt(variant: Variant) -> None:
    """Make a designer's variant known by its name (positions and games name
    their variant), unless the name is a bundled variant's: a copy of
    ``standard.toml`` left called "standard" would silently stand in for
    Standard in everything the process does after."""
    for n in (variant.name, *variant.aliases):
        if n.lower() in available_variants():
            assert variant.source is not None
            raise VariantError(
                f"{variant.source.path} calls its variant {n!r}, the name of a bundled "
                "variant: give it a name of its own ([variant] name, aliases)")
    register_variant(variant)


def open_variant(name: str) -> Variant:
    """A bundled variant by name or alias, or a designer's file by a path ending
    in ``.toml`` (see :func:`read_variant_file`)."""
    if Path(name).suffix.lower() == ".toml":
        return read_variant_file(name)
    return load_variant(name)


def read_variant_file(path: str | Path) -> Variant:
    """A designer's own variant file: read, built (which checks it can be played)
    and registered under its name, keeping its path and text for saved games."""
    file = Path(path)
    if file.is_file() and file.resolve().parent == _bundled_dir():
        return load_variant(str(file))  # a bundled file by its path: the bundled variant
    try:
        text = file.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise VariantError(f"no variant file at {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise VariantError(f"cannot read variant file {path}: {exc}") from exc
    variant = variant_from_text(text, str(file.resolve()))
    _adopt(variant)
    return variant


def _bundled_dir() -> Path:
    return next(iter(available_variants().values())).parent.resolve()


# -- writing ---------------------------------------------------------------------------------


def save(game: Game | GameRecord, path: str | Path) -> None:
    """Write atomically: the old file stays intact until the new one is complete.

    Takes no lock: to change a game another process may be changing too, use
    :func:`editing`."""
    _write(dumps(game), _target(path), exclusive=False)


def create(game: Game | GameRecord, path: str | Path, overwrite: bool = False) -> None:
    """Save a new game; without ``overwrite``, refuse (GameStateError) if the
    file exists, checked and created in one step (no race with another
    ``new``). Overwriting waits for anyone changing the old game."""
    target = _target(path)
    text = dumps(game)
    try:
        _write(text, target, exclusive=True)
        return
    except FileExistsError:
        if not overwrite:
            raise GameStateError(f"{path} exists; use --force to overwrite it") from None
    with _locked(Path(path)) as locked:
        _write(text, locked, exclusive=False)


def _target(path: str | Path) -> Path:
    """The file a save replaces: a symlink's target, so the link stays a link."""
    return Path(os.path.realpath(path))


def _write(text: str, target: Path, exclusive: bool) -> None:
    """Temp file beside ``target`` (its permissions copied from the old file),
    fsync, rename (or, ``exclusive``, link: fails if ``target`` exists), fsync
    the directory so the rename itself survives a crash."""
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None  # a new file: the umask decides, as for any file the user makes
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            if mode is not None and sys.platform != "win32":
                os.fchmod(fh.fileno(), mode)
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if exclusive:
            os.link(tmp, target)
            os.unlink(tmp)
        else:
            os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(target.parent)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # a platform that cannot open directories has nothing to sync
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# -- reading and changing ----------------------------------------------------------------------


def load(path: str | Path) -> Game:
    return Game.from_record(load_record(path))


def load_record(path: str | Path) -> GameRecord:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CorruptGameError(f"no saved game at {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CorruptGameError(f"cannot read {path}: {exc}") from exc
    return loads_record(text, str(path))


@contextlib.contextmanager
def editing(path: str | Path) -> Iterator[Game]:
    """``with editing(path) as game:`` change a saved game safely.

    Locks the file, loads it (after the lock: whatever the last change was),
    yields the game and saves it when the block ends without an error; an
    error leaves the file untouched. Every command that changes a game goes
    through here, so concurrent changes queue instead of overwriting each
    other."""
    with _locked(Path(path)) as target:
        game = load(path)
        yield game
        _write(dumps(game), target, exclusive=False)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[Path]:
    """Hold an exclusive lock on the game file at ``path`` (a symlink's target);
    yield the target. Waits at most :data:`LOCK_TIMEOUT` seconds."""
    if sys.platform == "win32":
        raise StandoffError("changing a saved game safely needs POSIX file locks, "
                            "which this platform lacks")
    target = _target(path)
    deadline = time.monotonic() + LOCK_TIMEOUT
    pause = 0.001
    while True:
        try:
            fd = os.open(target, os.O_RDONLY)
        except FileNotFoundError:
            raise CorruptGameError(f"no saved game at {path}") from None
        except OSError as exc:
            raise CorruptGameError(f"cannot read {path}: {exc.strerror}") from exc
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise GameStateError(f"{path} is being changed by another process; "
                                         "try again") from None
                time.sleep(pause)
                pause = min(pause * 2, 0.02)
                continue
            if _same_file(fd, target):
                yield target
                return
            # replaced while we waited for it: lock the file now at the path
        finally:
            os.close(fd)  # releases the lock


def _same_file(fd: int, target: Path) -> bool:
    try:
        now = os.stat(target)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino)
