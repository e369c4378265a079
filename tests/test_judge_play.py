"""Whole games through the API by scripted clients, each played to its end, on SQLite
and PostgreSQL:

* Standard to a real 18-centre win: one power's bot conquers (supported attacks on
  the nearest centres it does not own, armies marching towards the next ones, a
  unit on a centre not yet its own staying to take it) while the six others hold;
* Standard and each seed variant but Sahara played by random bots for a few years
  (Twin Earths, City/Country, 1939 Diplomacy IV, The Twentieth Century and its
  thirteen powers) and ended by a unanimous draw vote;
* Sahara to its own end (after Winter 1911, by the unit in Iceland).

Random bots need 60 to 140 phases to reach 18 centres in Standard, too long for the
suite; the conqueror needs about a dozen game years.
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from typing import Any

import pytest

from judge_fixtures import Api, Table, play_phase


def _check_history(phases: list[dict[str, Any]]) -> None:
    names = [p["phase"] for p in phases]
    assert len(names) == len(set(names))
    for record in phases:
        assert record["position"]["phase"] == record["phase"]
        assert record["report"]["phase"] == record["phase"]
        assert record["report_text"]
    for record, following in itertools.pairwise(phases):
        assert record["report"]["next"]["phase"] == following["phase"]


def army_map(variant: str) -> tuple[list[str], dict[str, list[str]]]:
    """(every supply centre, where an army may move from each province), upper case
    as orders write them, read from the variant's board through the public API:
    what a scripted player needs to plan a land campaign."""
    from standoff import load_variant

    board = load_variant(variant).board
    links = {loc.upper(): sorted(n.upper() for n in near)
             for loc, near in board.army_links.items()}
    return sorted(c.upper() for c in board.supply_centres), links


# -- the conqueror ---------------------------------------------------------------------

class Conqueror:
    """A scripted player that takes centres by force, knowing the map (as a player
    does: :func:`army_map`) and its legal orders (``/legal``)."""

    def __init__(self, api: Api, table: Table, power: str, variant: str) -> None:
        self.api, self.table, self.power = api, table, power
        self.centres, self.links = army_map(variant)

    def _distances(self, targets: set[str]) -> dict[str, int]:
        """Army moves from each province to the nearest target (multi-source BFS)."""
        dist = {t: 0 for t in targets}
        todo = deque(targets)
        while todo:
            here = todo.popleft()
            for near in self.links.get(here, []):
                if near not in dist:
                    dist[near] = dist[here] + 1
                    todo.append(near)
        return dist

    def orders(self, game: dict[str, Any]) -> list[str]:
        legal: dict[str, list[str]] = self.api.json("GET", f"/games/{self.table.id}/legal",
                                                    self.table.players[self.power])
        pos = game["position"]
        if game["phase"].endswith("A"):
            builds = [o for site in sorted(legal) for o in legal[site]
                      if o.startswith("BUILD A ")]
            wanted = len(pos["centres"].get(self.power, [])) - len(pos["units"][self.power])
            return builds[:max(wanted, 0)] if wanted >= 0 else \
                [legal[site][0] for site in sorted(legal)][:-wanted]
        if game["phase"].endswith("R"):
            return [options[0] for options in legal.values()]
        return self._moves(pos, legal)

    def _moves(self, pos: dict[str, Any], legal: dict[str, list[str]]) -> list[str]:
        mine = {u.split()[1].split("/")[0]: u for u in pos["units"][self.power]}
        owned = set(pos["centres"].get(self.power, []))
        enemy = {u.split()[1].split("/")[0] for p, us in pos["units"].items()
                 if p != self.power for u in us}
        targets = set(self.centres) - owned
        orders: dict[str, str] = {}
        claimed: set[str] = set()
        for here, unit in mine.items():  # take what it stands on: hold until it is ours
            if here in targets:
                orders[here] = f"{unit} H"
                claimed.add(here)
        for target in sorted(targets - claimed):
            attackers = [h for h in mine if h not in orders
                         and f"{mine[h]} - {target}" in _options(legal, mine[h])]
            if not attackers:
                continue
            attacker = attackers[0]
            move = f"{mine[attacker]} - {target}"
            helpers = [h for h in mine if h not in orders and h != attacker
                       and f"{mine[h]} S {move}" in _options(legal, mine[h])]
            if target in enemy and not helpers:
                continue  # a lone attack on a holding unit bounces
            orders[attacker] = move
            claimed.add(target)
            for h in helpers[:1 if target in enemy else 0]:
                orders[h] = f"{mine[h]} S {move}"
        dist = self._distances(targets - claimed)
        for here, unit in mine.items():
            if here in orders:
                continue
            steps = sorted((dist.get(o.split(" - ")[1], 99), o) for o in _options(legal, unit)
                           if " - " in o and " S " not in o and o.split(" - ")[1] not in claimed
                           and o.split(" - ")[1] not in enemy)
            if steps and steps[0][0] < dist.get(here, 99):
                orders[here] = steps[0][1]
                claimed.add(steps[0][1].split(" - ")[1])
            else:
                orders[here] = f"{unit} H"
                claimed.add(here)
        return sorted(orders.values())


def _options(legal: dict[str, list[str]], unit: str) -> list[str]:
    return legal.get(unit.split()[1], [])


def test_standard_to_an_eighteen_centre_win(api: Api) -> None:
    table = api.full_game()
    germany = Conqueror(api, table, "germany", "standard")
    game = api.game(table)
    for _ in range(80):
        if game["status"] == "finished":
            break
        phase = game["phase"]
        for power in sorted(p for p, info in game["powers"].items() if info["to_order"]):
            orders = germany.orders(game) if power == "germany" else []
            token = table.players[power]
            api.call("PUT", f"/games/{table.id}/orders", token, {"orders": orders}, expect=200)
            api.call("POST", f"/games/{table.id}/ready", token, {"ready": True}, expect=200)
        game = api.wait_phase(table, phase)
    assert game["status"] == "finished", game["phase"]
    assert game["outcome"] == {"winner": "germany"}
    assert len(game["position"]["centres"]["germany"]) >= 18
    phases = api.phases(table)
    _check_history(phases)
    assert phases[-1]["report"]["outcome"]["winner"] == "germany"
    assert "Germany" in phases[-1]["report_text"]
    # a finished game takes no more orders, votes or press from its players
    fr = table.players["france"]
    api.call("PUT", f"/games/{table.id}/orders", fr, {"orders": []}, expect=409)
    api.call("PUT", f"/games/{table.id}/vote", fr, {"draw": True}, expect=409)


# -- random bots, then a draw by vote ---------------------------------------------------

@pytest.mark.parametrize("variant, years", [("standard", 3), ("twin-earths", 3),
                                            ("city-country", 3), ("1939-iv", 3),
                                            ("twentieth-century", 2)])
def test_played_then_drawn_by_vote(api: Api, variant: str, years: int) -> None:
    rng = random.Random(variant)
    table = api.full_game(variant)
    game = api.game(table)
    first_year = int(game["phase"][1:-1])
    while int(game["phase"][1:-1]) < first_year + years and game["status"] == "active":
        game = play_phase(api, table, rng)
    assert game["status"] == "active", game["outcome"]
    assert all(info["nmr"] == 0 for info in game["powers"].values())
    alive = sorted(p for p in game["powers"] if game["position"]["units"].get(p)
                   or game["position"]["centres"].get(p))
    for power in alive:
        api.call("PUT", f"/games/{table.id}/vote", table.players[power], {"draw": True},
                 expect=200)
    game = api.game(table)
    assert game["status"] == "finished"
    assert game["outcome"] == {"draw": alive, "by": "draw vote"}
    phases = api.phases(table)
    _check_history(phases)
    assert len(phases) >= 2 * years


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
