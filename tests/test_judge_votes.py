"""Ending a game by agreement: draw votes (unanimous among the surviving powers),
concession, the secret ballot, and finished games refusing votes and orders.
SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from judge_fixtures import Api, Table, eliminate


def _vote(api: Api, table: Table, power: str, body: dict[str, Any],
          expect: int = 200) -> dict[str, Any]:
    got: dict[str, Any] = api.call("PUT", f"/games/{table.id}/vote", table.players[power], body,
                                   expect=expect).json()
    return got


def test_a_unanimous_draw_vote_ends_the_game(api: Api) -> None:
    table = api.full_game()
    powers = sorted(table.players)
    api.call("PUT", f"/games/{table.id}/orders", table.players["france"],
             {"orders": ["A PAR - BUR"]}, expect=200)
    for power in powers[:-1]:
        got = _vote(api, table, power, {"draw": True})
        assert got == {"power": power, "draw": True, "concede": None, "status": "active",
                       "outcome": None}
    # one withdraws, then votes again: no draw until all of them stand at once
    _vote(api, table, powers[0], {"draw": False})
    assert _vote(api, table, powers[-1], {"draw": True})["status"] == "active"
    got = _vote(api, table, powers[0], {"draw": True})
    assert got["status"] == "finished"
    assert got["outcome"] == {"draw": powers, "by": "draw vote"}
    game = api.game(table)
    assert game["status"] == "finished" and game["deadline"] is None
    assert game["outcome"]["draw"] == powers
    # over: no more votes, orders or readiness; the pending orders never come out
    _vote(api, table, "france", {"draw": False}, expect=409)
    for method, path, body in [("PUT", "/orders", {"orders": []}),
                               ("POST", "/ready", {"ready": True})]:
        api.call(method, f"/games/{table.id}{path}", table.players["france"], body, expect=409)
    assert api.phases(table) == []
    assert "A PAR - BUR" not in api.call("GET", f"/games/{table.id}/phases", table.master).text


def test_votes_are_secret_until_the_end(api: Api) -> None:
    table = api.full_game()
    _vote(api, table, "england", {"draw": True, "concede": "france"})
    assert api.json("GET", f"/games/{table.id}/vote", table.players["england"])["draw"] is True
    assert api.json("GET", f"/games/{table.id}/vote", table.players["italy"])["draw"] is False
    for token in [table.players["italy"], table.master, table.players["england"]]:
        got = api.call("GET", f"/games/{table.id}/votes", token, expect=403).json()
        assert got["error"] == "forbidden"
        text = api.call("GET", f"/games/{table.id}", token).text
        assert "concede" not in text and "vote" not in text
    api.call("GET", f"/games/{table.id}/vote", table.master, expect=403)
    api.call("PUT", f"/games/{table.id}/vote", table.master, {"draw": True}, expect=403)
    for power in table.players:
        if power not in ("england", "france"):
            _vote(api, table, power, {"concede": "france"})
    assert api.game(table)["outcome"] == {"winner": "france", "by": "concession"}
    votes = api.json("GET", f"/games/{table.id}/votes", table.players["italy"])["votes"]
    assert votes["england"] == {"draw": True, "concede": "france"}
    assert votes["france"] == {"draw": False, "concede": None}


def test_concession_rules(api: Api, db_url: str) -> None:
    table = api.full_game()
    got = _vote(api, table, "italy", {"concede": "Italy"}, expect=400)
    assert "itself" in got["detail"]
    _vote(api, table, "italy", {"concede": "narnia"}, expect=400)
    _vote(api, table, "italy", {}, expect=400)
    _vote(api, table, "italy", {"draw": None}, expect=400)
    eliminate(db_url, table.id, "turkey")
    assert "out of the game" in _vote(api, table, "italy", {"concede": "turkey"},
                                      expect=409)["detail"]
    assert "no vote" in _vote(api, table, "turkey", {"draw": True}, expect=409)["detail"]
    # all but one concede to it, and one withdraws before the last: no winner yet
    others = [p for p in table.players if p not in ("austria", "turkey")]
    for power in others:
        _vote(api, table, power, {"concede": "austria"})
    assert api.game(table)["status"] == "finished"  # turkey, gone, has no say
    assert api.game(table)["outcome"]["winner"] == "austria"


def test_a_withdrawn_concession_does_not_count(api: Api) -> None:
    table = api.full_game()
    others = [p for p in table.players if p != "russia"]
    for power in others[:-1]:
        _vote(api, table, power, {"concede": "russia"})
    _vote(api, table, others[0], {"concede": None})
    assert _vote(api, table, others[-1], {"concede": "russia"})["status"] == "active"


def test_an_eliminated_powers_vote_lapses_at_processing(api: Api, db_url: str) -> None:
    """Six powers vote draw while Turkey does not; when Turkey is out of the game the
    six are unanimous, and the next processing ends the game in their draw."""
    table = api.full_game()
    six = [p for p in sorted(table.players) if p != "turkey"]
    for power in six:
        _vote(api, table, power, {"draw": True})
    assert api.game(table)["status"] == "active"
    eliminate(db_url, table.id, "turkey")
    api.call("POST", f"/games/{table.id}/master/process", table.master, expect=200)
    game = api.game(table)
    assert game["status"] == "finished"
    assert game["outcome"] == {"draw": six, "by": "draw vote"}
    assert [p["phase"] for p in api.phases(table)] == ["S1901M"]
