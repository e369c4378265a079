"""Whole games through the API by scripted clients: seven bots choose random legal
orders from ``/legal`` and say ready, phase after phase. On SQLite and PostgreSQL.

Standard is played for six game years (about twenty phases with retreats and
builds): random bots need 60 to 140 phases to reach 18 centres, too long for the
suite, and ending it sooner takes the draw vote, which comes with the press and
votes part of the judge (then this test plays on and ends in a draw). Sahara,
whose game ends by its own rule after 1911, is played to its end.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from judge_fixtures import Api, play_phase


def _check_history(phases: list[dict[str, Any]]) -> None:
    names = [p["phase"] for p in phases]
    assert len(names) == len(set(names))
    for record in phases:
        assert record["position"]["phase"] == record["phase"]
        assert record["report"]["phase"] == record["phase"]


def test_standard_six_years(api: Api) -> None:
    rng = random.Random(1901)
    table = api.full_game()
    game = api.game(table)
    seen = [game["phase"]]
    while game["phase"] != "S1907M":
        game = play_phase(api, table, rng)
        seen.append(game["phase"])
        assert game["status"] == "active"
    phases = api.phases(table)
    assert [p["phase"] for p in phases] == seen[:-1]
    _check_history(phases)
    for record in phases:  # every power with something to do gave orders
        assert record["orders"], record["phase"]
    assert all(info["nmr"] == 0 for info in game["powers"].values())
    counts = {p: len(cs) for p, cs in game["position"]["centres"].items()}
    assert sum(counts.values()) > 22  # neutral centres were taken
    for record, following in itertools.pairwise(phases):
        assert record["report"]["next"]["phase"] == following["phase"]


def test_sahara_to_its_end(api: Api) -> None:
    rng = random.Random(11)
    table = api.full_game("sahara")
    game = api.game(table)
    for _ in range(80):
        if game["status"] == "finished":
            break
        game = play_phase(api, table, rng)
    assert game["status"] == "finished" and game["outcome"]
    assert game["deadline"] is None
    phases = api.phases(table)
    _check_history(phases)
    assert phases[-1]["report"]["outcome"] is not None
    # a finished game takes no more orders
    api.call("PUT", f"/games/{table.id}/orders", table.players["france"], {"orders": []},
             expect=409)
