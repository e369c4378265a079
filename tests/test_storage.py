"""Saved games: exact round trips, refusal of damaged files, atomic saves."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import random
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from standoff import CorruptGameError, Options, storage
from standoff.core.adjustments import adjustment_counts
from standoff.core.errors import GameStateError
from standoff.core.game import Game
from standoff.core.legal_orders import legal_orders, random_orders
from standoff.core.phase import PhaseKind
from standoff.storage import savefile


def play(game: Game, rng: random.Random, phases: int) -> None:
    """Random legal play, like ``standoff demo``."""
    for _ in range(phases):
        if game.is_over:
            return
        for pid, picks in random_orders(game.position, rng, 0.7, game.options,
                                        game.variant).items():
            game.submit(pid, picks)
        game.process()


def played_game(seed: int = 6, phases: int = 12, options: Options | None = None) -> Game:
    g = Game.new("standard", options or Options())
    play(g, random.Random(seed), phases)
    return g


def with_pending(g: Game, seed: int = 3) -> Game:
    rng = random.Random(seed)
    due = adjustment_counts(g.variant, g.position)  # no more builds than allowed
    for pid, locs in legal_orders(g.position, g.options, g.variant).items():
        picks = [rng.choice(choices) for choices in list(locs.values())[:2]]
        g.submit(pid, picks[:abs(due[pid])] if pid in due else picks)
    return g


def finished_by_draw() -> Game:
    g = played_game(seed=11, phases=6)
    g.declare_draw()
    return g


def finished_by_victory() -> Game:
    from standoff.core.position import Position

    g = Game.new()
    g.position = Position.from_text(
        "standard | F1901M | france: A BUR; germany: A SIL | france: BEL BER BRE DEN EDI HOL "
        "KIE LON LVP MAR NAP NWY PAR POR SPA SWE TUN; germany: MUN | - | -")
    g.submit("france", ["A BUR - MUN"])
    g.process()
    assert g.winner == "france"
    return g


GAMES: dict[str, Callable[[], Game]] = {
    "new": Game.new,
    "played": played_game,
    "played_with_pending": lambda: with_pending(played_game()),
    "with_options": lambda: with_pending(played_game(
        seed=5, phases=8, options=Options(paradox="1982", civil_disorder="1982"))),
    "draw": finished_by_draw,
    "victory": finished_by_victory,
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_save_load_save_is_byte_identical(tmp_path: Path, name: str) -> None:
    game = GAMES[name]()
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    storage.save(game, first)
    loaded = storage.load(first)
    storage.save(loaded, second)
    assert first.read_bytes() == second.read_bytes()
    assert storage.dumps(loaded) == first.read_text(encoding="utf-8")
    # and the game itself survived
    assert loaded.position == game.position
    assert loaded.options == game.options
    assert (loaded.winner, loaded.draw) == (game.winner, game.draw)
    assert loaded.pending() == game.pending()
    assert len(loaded.history) == len(game.history)
    for a, b in zip(loaded.history, game.history, strict=True):
        assert a.position == b.position
        assert a.orders == b.orders
        assert [r.to_dict() for r in a.results] == [r.to_dict() for r in b.results]


def test_played_game_covers_retreats_adjustments_and_pending() -> None:
    g = with_pending(played_game())
    kinds = {r.position.phase.kind for r in g.history}
    assert kinds == {PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT}
    assert g.pending()


def test_loaded_game_plays_on_like_the_original(tmp_path: Path) -> None:
    g = with_pending(played_game(seed=9, phases=7))
    storage.save(g, tmp_path / "g.json")
    h = storage.load(tmp_path / "g.json")
    g.process()
    h.process()
    assert g.position == h.position
    assert storage.dumps(g) == storage.dumps(h)


def test_saved_file_format() -> None:
    doc = json.loads(storage.dumps(Game.new()))
    assert doc["format"] == "standoff-game" and doc["version"] == 1
    assert doc["checksum"].startswith("sha256:")
    assert doc["game"]["variant"] == "standard"


# -- refusing damaged files --------------------------------------------------------------------


def _resign(doc: dict[str, Any]) -> str:
    """Re-compute the checksum after editing the body, as a hand-editor might."""
    body = json.dumps(doc["game"], sort_keys=True, separators=(",", ":"))
    doc["checksum"] = "sha256:" + hashlib.sha256(body.encode()).hexdigest()
    return json.dumps(doc, indent=1) + "\n"


def _good_text() -> str:
    return storage.dumps(with_pending(played_game(seed=2, phases=5)))


def _edit(change: Callable[[dict[str, Any]], None], resign: bool = True) -> str:
    doc = json.loads(_good_text())
    change(doc)
    return _resign(doc) if resign else json.dumps(doc, indent=1)


def _one_char_changed() -> str:
    text = _good_text()
    i = text.index('"game"')
    j = text.index("A PAR", i) if "A PAR" in text[i:] else text.index("A ", i)
    k = j + 2
    return text[:k] + ("X" if text[k] != "X" else "Y") + text[k + 1:]


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        node = doc["game"]
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda doc: doc["game"].pop(key)


BAD_FILES: dict[str, tuple[Callable[[], str], str]] = {
    "truncated": (lambda: _good_text()[: len(_good_text()) // 2], "not valid JSON"),
    "empty": (lambda: "", "not valid JSON"),
    "not_json": (lambda: "this is not a saved game\n", "not valid JSON"),
    "json_list": (lambda: "[1, 2, 3]\n", "not a standoff saved game"),
    "json_other": (lambda: '{"format": "something-else", "version": 1}\n',
                   "not a standoff saved game"),
    "version_2": (lambda: _edit(lambda d: d.update(version=2)), "version 2"),
    "version_str_1": (lambda: _edit(lambda d: d.update(version="1")), "version '1'"),
    "version_true": (lambda: _edit(lambda d: d.update(version=True)), "version True"),
    "version_missing": (lambda: _edit(lambda d: d.pop("version")), "version None"),
    "checksum_one_char": (_one_char_changed, "checksum"),
    "checksum_missing": (lambda: _edit(lambda d: d.pop("checksum"), resign=False), "checksum"),
    "body_edited_unsigned": (lambda: _edit(_set(["variant"], "other"), resign=False),
                             "checksum"),
    "no_game": (lambda: _edit(lambda d: d.update(game=[1])), "no game data"),
    "no_position": (lambda: _edit(_drop("position")), "malformed"),
    "no_history": (lambda: _edit(_drop("history")), "malformed"),
    "history_not_list": (lambda: _edit(_set(["history"], 5)), "malformed"),
    "history_item_int": (lambda: _edit(_set(["history"], [5])), "malformed"),
    "unknown_variant": (lambda: _edit(_set(["variant"], "atlantis")), "inconsistent"),
    "bad_option": (lambda: _edit(_set(["options"], {"paradox": "never"})), "inconsistent"),
    "options_list": (lambda: _edit(_set(["options"], ["paradox=1982"])), "inconsistent"),
    "position_null": (lambda: _edit(_set(["position"], None)), "inconsistent"),
    "bad_phase": (lambda: _edit(_set(["position", "phase"], "X1901Q")), "inconsistent"),
    "bad_unit": (lambda: _edit(_set(["position", "units"], {"france": ["A ATLANTIS"]})),
                 "inconsistent"),
    "two_units_one_place": (lambda: _edit(_set(["position", "units"],
                                               {"france": ["A PAR", "A PAR"]})),
                            "inconsistent"),
    "pending_illegal": (lambda: _edit(_set(["orders"], {"france": ["A PAR - MOS"]})),
                        "inconsistent"),
    "pending_not_list": (lambda: _edit(_set(["orders"], {"france": 7})), "malformed"),
    "orders_list": (lambda: _edit(_set(["orders"], ["A PAR H"])), "malformed"),
    "outcome_unknown": (lambda: _edit(_set(["outcome"], {"loser": "france"})), "inconsistent"),
    "outcome_int": (lambda: _edit(_set(["outcome"], 5)), "malformed"),
    "winner_unknown": (lambda: _edit(_set(["outcome"], {"winner": "narnia"})),
                       "inconsistent"),
    "result_bad_reason": (lambda: _edit(_set(["history", 0, "results"],
                                             [{"power": "france", "order": "A PAR H",
                                               "success": True, "reason": "bogus"}])),
                          "malformed"),
    "result_missing_order": (lambda: _edit(_set(["history", 0, "results"],
                                                [{"power": "france", "success": True}])),
                             "malformed"),
    "history_orders_bad": (lambda: _edit(_set(["history", 0, "orders"],
                                              {"france": ["A PAR - ZZZ"]})), "inconsistent"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_load_refuses_damaged_file_and_leaves_it_unchanged(tmp_path: Path, name: str) -> None:
    make, message = BAD_FILES[name]
    path = tmp_path / "game.json"
    path.write_bytes(make().encode("utf-8"))
    before = path.read_bytes()
    with pytest.raises(CorruptGameError) as info:
        storage.load(path)
    assert message in str(info.value)
    assert str(path) in str(info.value)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["game.json"]


def test_load_missing_file() -> None:
    with pytest.raises(CorruptGameError, match="no saved game"):
        storage.load("/nonexistent/dir/game.json")


def test_load_binary_garbage(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(CorruptGameError):
        storage.load(path)
    assert path.read_bytes() == b"\xff\xfe\x00garbage"


def test_fuzzed_bodies_only_ever_raise_corrupt_game_error() -> None:
    """Any re-signed mutation of a leaf of the game body loads or is refused cleanly."""
    rng = random.Random(1234)
    base = json.loads(_good_text())
    leaves: list[list[Any]] = []

    def walk(node: Any, path: list[Any]) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, [*path, k])
        elif isinstance(node, list) and node:
            for i, v in enumerate(node):
                walk(v, [*path, i])
        leaves.append(path)

    walk(base["game"], [])
    odd: list[Any] = [None, 0, -1, 10**30, "", "zzz", "A", [], {}, [None], {"x": 1}, True,
                      "S1901M", "A PAR", "france", 1.5]
    for _ in range(300):
        doc = json.loads(json.dumps(base))
        path = rng.choice(leaves)
        if not path:
            continue
        _set(path, rng.choice(odd))(doc)
        with contextlib.suppress(CorruptGameError):
            storage.loads(_resign(doc))


# -- atomic saving -------------------------------------------------------------------------------


def test_save_leaves_no_temp_files(tmp_path: Path) -> None:
    g = played_game(seed=1, phases=3)
    path = tmp_path / "g.json"
    storage.save(g, path)
    storage.save(g, path)
    assert os.listdir(tmp_path) == ["g.json"]


def test_failed_save_keeps_old_file_and_leaves_no_temp(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    storage.save(Game.new(), path)
    before = path.read_bytes()

    def boom(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(savefile.os, "replace", boom)
    with pytest.raises(OSError):
        storage.save(played_game(seed=1, phases=2), path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["g.json"]


# -- version 1 files written before -------------------------------------------------------------

#: written by the storage module of the release before locking and variant files
#: (commit 715be81): Spring 1901 played, England's order pending for the Fall
V1_FILE = (
    '{"format":"standoff-game","version":1,"checksum":"sha256:041ef5220e7871a0e1339972f31e27c'
    '4001548d80404dd4167b9c97de3d4a13a","game":{"variant":"standard","options":{},"history":['
    '{"position":{"variant":"standard","phase":"S1901M","units":{"austria":["A BUD","A VIE","'
    'F TRI"],"england":["A LVP","F EDI","F LON"],"france":["A MAR","A PAR","F BRE"],"germany"'
    ':["A BER","A MUN","F KIE"],"italy":["A ROM","A VEN","F NAP"],"russia":["A MOS","A WAR","'
    'F SEV","F STP/SC"],"turkey":["A CON","A SMY","F ANK"]},"centres":{"austria":["BUD","TRI"'
    ',"VIE"],"england":["EDI","LON","LVP"],"france":["BRE","MAR","PAR"],"germany":["BER","KIE'
    '","MUN"],"italy":["NAP","ROM","VEN"],"russia":["MOS","SEV","STP","WAR"],"turkey":["ANK",'
    '"CON","SMY"]}},"orders":{"france":["A PAR - BUR","F BRE - MAO"],"germany":["A MUN - BUR"'
    ']},"results":[{"power":"france","order":"A PAR - BUR","success":false,"reason":"bounced"'
    ',"by":["MUN"]},{"power":"france","order":"F BRE - MAO","success":true},{"power":"germany'
    '","order":"A MUN - BUR","success":false,"reason":"bounced","by":["PAR"]}]}],"position":{'
    '"variant":"standard","phase":"F1901M","units":{"austria":["A BUD","A VIE","F TRI"],"engl'
    'and":["A LVP","F EDI","F LON"],"france":["A MAR","A PAR","F MAO"],"germany":["A BER","A '
    'MUN","F KIE"],"italy":["A ROM","A VEN","F NAP"],"russia":["A MOS","A WAR","F SEV","F STP'
    '/SC"],"turkey":["A CON","A SMY","F ANK"]},"centres":{"austria":["BUD","TRI","VIE"],"engl'
    'and":["EDI","LON","LVP"],"france":["BRE","MAR","PAR"],"germany":["BER","KIE","MUN"],"ita'
    'ly":["NAP","ROM","VEN"],"russia":["MOS","SEV","STP","WAR"],"turkey":["ANK","CON","SMY"]}'
    '},"orders":{"england":["F LON - NTH"]},"outcome":null}}'
)


def test_version_1_file_from_an_earlier_release_loads_and_edits(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(V1_FILE, encoding="utf-8")
    g = storage.load(path)
    assert g.phase_name == "F1901M" and len(g.history) == 1
    assert {p: [str(o) for o in os_] for p, os_ in g.pending().items()} == {
        "england": ["F LON - NTH"]}
    with storage.editing(path) as game:
        game.submit("france", ["A PAR H"])
    again = storage.load(path)
    assert sorted(again.pending()) == ["england", "france"]
    assert json.loads(path.read_text(encoding="utf-8"))["version"] == 1


def test_old_save_with_more_builds_pending_than_allowed_still_loads() -> None:
    """Submission now refuses extra builds; a file saved before, holding them, loads
    (processing cuts them, DATC 4.D.4, as it always did)."""
    from standoff.core.position import Position

    g = Game.new()
    g.position = Position.from_text("standard | W1901A | france: A SPA, F POR, A BEL | "
                                    "france: BRE MAR PAR POR SPA | - | -")
    doc = json.loads(storage.dumps(g))
    doc["game"]["orders"] = {"france": ["BUILD A PAR", "BUILD F BRE", "BUILD A MAR"]}
    loaded = storage.loads(_resign(doc))
    assert len(loaded.pending()["france"]) == 3
    loaded.process()
    assert len(loaded.position.units) == 5


# -- where and how a save writes ------------------------------------------------------------------


def test_save_through_a_symlink_keeps_the_link_and_the_mode(tmp_path: Path) -> None:
    real_dir, link_dir = tmp_path / "real", tmp_path / "links"
    real_dir.mkdir()
    link_dir.mkdir()
    real, link = real_dir / "g.json", link_dir / "g.json"
    storage.save(Game.new(), real)
    real.chmod(0o640)
    link.symlink_to(real)
    with storage.editing(link) as g:
        g.submit("france", ["A PAR - BUR"])
    assert link.is_symlink() and link.resolve() == real
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert "france" in storage.load(real).pending()
    assert os.listdir(real_dir) == ["g.json"] and os.listdir(link_dir) == ["g.json"]


def test_a_new_file_gets_the_umask_mode_not_0600(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        storage.create(Game.new(), tmp_path / "g.json")
        storage.save(Game.new(), tmp_path / "h.json")
    finally:
        os.umask(old)
    for name in ("g.json", "h.json"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o644


def test_create_refuses_an_existing_file_unless_overwriting(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    storage.create(Game.new(), path)
    before = path.read_bytes()
    with pytest.raises(GameStateError, match="exists"):
        storage.create(played_game(seed=1, phases=2), path)
    assert path.read_bytes() == before
    storage.create(played_game(seed=1, phases=2), path, overwrite=True)
    assert len(storage.load(path).history) == 2
    assert os.listdir(tmp_path) == ["g.json"]


# -- changing a game under the lock ---------------------------------------------------------------


def test_editing_saves_on_success_only_and_leaves_nothing_beside(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    storage.save(Game.new(), path)
    with storage.editing(path) as g:
        g.submit("france", ["A PAR - BUR"])
    before = path.read_bytes()
    with pytest.raises(RuntimeError), storage.editing(path) as g:
        g.submit("germany", ["A MUN - RUH"])
        raise RuntimeError("the command failed after changing the game")
    assert path.read_bytes() == before
    assert list(storage.load(path).pending()) == ["france"]
    assert os.listdir(tmp_path) == ["g.json"]  # no lock file, no temp file


def test_editing_a_missing_game(tmp_path: Path) -> None:
    with pytest.raises(CorruptGameError, match="no saved game"), \
            storage.editing(tmp_path / "none.json"):
        pass


def test_editing_waits_for_the_lock_then_gives_up(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    storage.save(Game.new(), path)
    before = path.read_bytes()
    monkeypatch.setattr(savefile, "LOCK_TIMEOUT", 0.2)
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # another process, changing the game
        started = time.monotonic()
        with pytest.raises(GameStateError, match="being changed by another process"), \
                storage.editing(path) as g:
            g.submit("france", ["A PAR - BUR"])
        assert time.monotonic() - started >= 0.2
    finally:
        os.close(fd)
    assert path.read_bytes() == before


def test_a_waiting_change_rereads_the_game_the_other_saved(tmp_path: Path) -> None:
    """A change that waited for another works on the game the other saved."""
    path = tmp_path / "g.json"
    storage.save(Game.new(), path)
    inside, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def first() -> None:
        try:
            with storage.editing(path) as g:
                g.submit("france", ["A PAR - BUR"])
                inside.set()
                release.wait(5)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    def second() -> None:
        try:
            with storage.editing(path) as g:
                g.submit("germany", ["A MUN - RUH"])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    a = threading.Thread(target=first)
    a.start()
    assert inside.wait(5)
    b = threading.Thread(target=second)
    b.start()
    time.sleep(0.1)  # the second is now waiting for the lock
    assert b.is_alive()
    release.set()
    a.join(5)
    b.join(5)
    assert not errors
    assert sorted(storage.load(path).pending()) == ["france", "germany"]


def test_a_lock_won_on_a_replaced_file_is_not_taken_for_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between opening the file and getting its lock, another change may replace
    the file: the lock won is then the old file's and guards nothing. The
    waiter must notice and lock the file now at the path, or a third change
    could run beside it."""
    path = tmp_path / "g.json"
    storage.save(Game.new(), path)
    monkeypatch.setattr(savefile, "LOCK_TIMEOUT", 0.1)
    real_flock = fcntl.flock
    replaced = False

    def flock(fd: int, operation: int) -> None:
        nonlocal replaced
        if not replaced:  # the first lock taken: someone else's change gets in first
            replaced = True
            with storage.editing(path) as other:
                other.submit("france", ["A PAR - BUR"])
        real_flock(fd, operation)

    monkeypatch.setattr(savefile.fcntl, "flock", flock)
    with storage.editing(path) as g:
        with pytest.raises(GameStateError), storage.editing(path):
            pass  # a third change must wait for this one
        g.submit("germany", ["A MUN - RUH"])
    assert sorted(storage.load(path).pending()) == ["france", "germany"]
