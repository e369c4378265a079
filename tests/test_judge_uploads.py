"""A designer's variant file sent with a new game: checked on upload as check-variant
does (422 with the problems), kept with its digest, one text per name on a judge, and
played, also by a server process that never saw the upload. SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from judge_fixtures import Api, ServerProcess, Table, play_phase


def _standard_text() -> str:
    from standoff import available_variants

    return available_variants()["standard"].read_text(encoding="utf-8")


def gaul(name: str = "gaul-standard", centres: int = 18) -> str:
    """standard.toml renamed, with France called Gaul."""
    text = _standard_text()
    text = text.replace('name = "standard"', f'name = "{name}"', 1)
    text = text.replace('aliases = ["classical", "std"]', "aliases = []", 1)
    text = text.replace('name = "France"', 'name = "Gaul"', 1)
    return text.replace("centres = 18", f"centres = {centres}", 1)


def _seat_all(api: Api, game: dict[str, Any], master: str) -> Table:
    table = Table(game["id"], master)
    for power in game["powers"]:
        token = api.signup()
        api.call("POST", f"/games/{table.id}/seats", token, {"power": power}, expect=201)
        table.players[power] = token
    return table


def test_an_uploaded_variant_is_checked_kept_and_played(api: Api) -> None:
    text = gaul()
    master = api.signup()
    game = api.json("POST", "/games", master, {"name": "Gaul", "variant_file": text},
                    expect=201)
    assert game["variant"] == "gaul-standard" and game["phase"] == "S1901M"
    assert game["variant_sha256"] == hashlib.sha256(text.encode()).hexdigest()
    got = api.call("GET", f"/games/{game['id']}/variant.toml", master, expect=200)
    assert got.text == text and got.headers["X-Variant-SHA256"] == game["variant_sha256"]
    table = _seat_all(api, game, master)
    api.call("PUT", f"/games/{table.id}/orders", table.players["france"],
             {"orders": ["A PAR - BUR"]}, expect=200)
    after = play_phase(api, table, random.Random(3))
    assert after["phase"] == "F1901M"
    assert "Gaul" in api.phases(table)[0]["report_text"]
    # the same file again is another game of the same variant
    again = api.json("POST", "/games", api.signup(),
                     {"name": "Gaul 2", "variant": "GAUL-standard", "variant_file": text},
                     expect=201)
    assert again["variant"] == "gaul-standard"
    # a bundled game has no file to give
    plain = api.new_game(master)
    api.call("GET", f"/games/{plain['id']}/variant.toml", master, expect=404)


def test_bad_variant_files_are_refused_with_their_problems(api: Api) -> None:
    token = api.signup()
    for text, words in [
            (gaul(centres=40), "victory needs 40 centres"),
            ("this is [not toml", "cannot be read"),
            ("[variant]\nname = 'x'\n", "cannot be read"),
            (_standard_text(), "the name of a bundled variant")]:
        got = api.call("POST", "/games", token, {"name": "bad", "variant_file": text},
                       expect=422).json()
        assert got["error"] == "illegal" and words in got["detail"], got
        assert got["problems"] and all(isinstance(p, str) for p in got["problems"])
    got = api.call("POST", "/games", token, {"name": "x", "variant": "standard",
                                             "variant_file": gaul()}, expect=400).json()
    assert "not 'standard'" in got["detail"]
    api.call("POST", "/games", token, {"name": "x"}, expect=400)
    assert api.json("GET", "/games", token) == []


def test_one_text_per_variant_name(api: Api) -> None:
    token = api.signup()
    api.call("POST", "/games", token, {"name": "a", "variant_file": gaul("twice")}, expect=201)
    changed = gaul("twice").replace('name = "Gaul"', 'name = "Francia"', 1)
    got = api.call("POST", "/games", token, {"name": "b", "variant_file": changed},
                   expect=409).json()
    assert "already called 'twice'" in got["detail"]
    # an uploaded variant is no bundled one: naming it alone does not make a game
    api.call("POST", "/games", token, {"name": "c", "variant": "twice"}, expect=400)


def test_a_fresh_server_plays_the_kept_copy(api: Api, db_url: str,
                                            servers: list[ServerProcess]) -> None:
    """The game is made here; a server process that never saw the upload reads the
    variant from the database and plays the phase."""
    text = gaul("gaul-elsewhere")
    master = api.signup()
    game = api.json("POST", "/games", master, {"name": "far", "variant_file": text},
                    expect=201)
    table = _seat_all(api, game, master)
    server = ServerProcess(db_url)
    servers.append(server)
    remote = server.start().client()
    remote.call("PUT", f"/games/{table.id}/orders", table.players["france"],
                {"orders": ["A PAR - PIC"]}, expect=200)
    remote.call("POST", f"/games/{table.id}/master/process", table.master, expect=200)
    phases = remote.phases(table)
    assert phases[0]["orders"]["france"] == ["A PAR - PIC"]
    assert "Gaul" in phases[0]["report_text"]


def test_mangled_files_never_crash_the_judge(api: Api) -> None:
    """Lines of a good file deleted, unquoted or reversed at random: each upload is a
    game (the change was harmless) or 422 with the problems, never a 500."""
    token = api.signup()
    lines = gaul("mangled").splitlines()
    rng = random.Random(14)
    for n in range(25):
        mangled = list(lines)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(mangled))
            mangled[i] = rng.choice(["", mangled[i].replace('"', "", 1), mangled[i][::-1]])
        got = api.call("POST", "/games", token, {"name": f"m{n}",
                                                 "variant_file": "\n".join(mangled)})
        assert got.status_code in (201, 409, 422), got.text[:300]
        if got.status_code != 201:
            assert set(got.json()) >= {"error", "detail"}
