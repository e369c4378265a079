"""Saved games: exact round trips, refusal of damaged files, atomic saves."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from standoff import CorruptGameError, Options, storage
from standoff.adjustments import adjustment_counts
from standoff.game import Game
from standoff.legal import legal_orders, random_orders
from standoff.phase import PhaseKind


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
    from standoff.position import Position

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

    monkeypatch.setattr(storage.os, "replace", boom)
    with pytest.raises(OSError):
        storage.save(played_game(seed=1, phases=2), path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["g.json"]
