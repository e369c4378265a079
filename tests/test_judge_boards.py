"""Planning boards (issue 29 section 4: "from any game phase (or any variant's
start), a private board where a player moves any unit of any power, gives orders
for everyone, adjudicates with the real engine, steps forward and back, and shares
a link to the result. Nothing of it reaches the game or the other players."), on
both databases."""

from __future__ import annotations

import pytest

from judge_fixtures import make_api

pytestmark = pytest.mark.usefixtures("db_url")


def test_a_board_from_a_game_plays_on_with_the_real_rules(db_url: str) -> None:
    with make_api(db_url) as api:
        table = api.full_game()
        france = table.players["france"]
        # France has secret orders pending: the board copies the units, not the orders
        api.json("PUT", f"/games/{table.id}/orders", france, {"orders": ["A PAR - PIC"]})
        board = api.json("POST", "/boards", france, {"game": table.id}, expect=201)
        key = board["key"]
        assert board["yours"] and board["at"] == 0 and board["steps"][0]["phase"] == "S1901M"
        assert board["steps"][0]["orders"] == {} and "PIC" not in str(board)
        # the heading names the phase once, in words beside its short name
        assert board["title"] == api.game(table, france)["name"]
        assert board["steps"][0]["phase_title"] == "Spring 1901, Movement"
        # orders for two powers (DATC 6.A-style bounce: both to Burgundy)
        board = api.json("PUT", f"/boards/{key}/orders", france, {"orders": {
            "france": ["A PAR - BUR", "A MAR S A PAR - BUR"], "germany": ["A MUN - BUR"]}})
        assert board["steps"][0]["orders"]["germany"] == ["A MUN - BUR"]
        board = api.json("POST", f"/boards/{key}/adjudicate", france)
        assert board["at"] == 1 and board["steps"][1]["phase"] == "F1901M"
        assert board["steps"][1]["phase_title"] == "Fall 1901, Movement"
        legend = api.call("GET", f"/boards/{key}/map.svg").text
        assert f"{board['title']}: Fall 1901, Movement" in legend and "F1901M:" not in legend
        units = board["steps"][1]["position"]["units"]
        assert "A BUR" in units["france"] and "A MUN" in units["germany"]
        assert len(board["steps"][0]["results"]) == 3  # what each order came to, kept
        # back to the start, a different plan: the future is dropped
        api.json("PUT", f"/boards/{key}/step", france, {"step": 0})
        board = api.json("PUT", f"/boards/{key}/orders", france,
                         {"orders": {"germany": ["A MUN - RUH"]}})
        assert len(board["steps"]) == 1 and board["at"] == 0
        # nothing reached the game: its phase, and France's own pending orders, unchanged
        game = api.game(table, france)
        assert game["phase"] == "S1901M"
        assert api.json("GET", f"/games/{table.id}/orders", france)["orders"] == ["A PAR - PIC"]
        assert api.json("GET", f"/games/{table.id}/orders", table.players["germany"])[
            "orders"] == []


def test_any_unit_of_any_power_anywhere(db_url: str) -> None:
    with make_api(db_url) as api:
        token = api.signup()
        board = api.json("POST", "/boards", token, {"variant": "standard"}, expect=201)
        key = board["key"]
        board = api.json("PUT", f"/boards/{key}/units", token, {"units": {
            "england": ["F NTH", "A YOR"], "germany": ["A HOL"]}})
        placed = board["steps"][0]["position"]["units"]
        assert sorted(placed["england"]) == ["A YOR", "F NTH"] and placed["germany"] == ["A HOL"]
        assert "france" not in placed
        board = api.json("PUT", f"/boards/{key}/orders", token, {"orders": {
            "england": ["A YOR - HOL", "F NTH C A YOR - HOL"]}})
        board = api.json("POST", f"/boards/{key}/adjudicate", token)
        after = board["steps"][1]["position"]["units"]
        # convoyed, but one against one: the holding army stays (DATC 6.A.1's rule of strength)
        assert sorted(after["england"]) == ["A YOR", "F NTH"] and after["germany"] == ["A HOL"]
        bad = api.call("PUT", f"/boards/{key}/units", token,
                       {"units": {"england": ["F MUN"]}}, expect=422).json()
        assert "MUN" in bad["detail"] or "position" in bad["detail"]
        illegal = api.call("PUT", f"/boards/{key}/orders", token,
                           {"orders": {"england": ["A HOL - MOS"]}}, expect=422).json()
        assert illegal["detail"].startswith("England:")


def test_a_shared_link_shows_and_only_the_owner_changes(db_url: str) -> None:
    with make_api(db_url) as api:
        owner, friend = api.signup(), api.signup()
        key = api.json("POST", "/boards", owner, {"variant": "sahara"}, expect=201)["key"]
        seen = api.json("GET", f"/boards/{key}")  # no account needed to look
        assert seen["variant"] == "sahara" and not seen["yours"]
        assert seen["powers"]["england"] == "England" and len(seen["powers"]) == 7
        assert api.call("GET", f"/boards/{key}/map.svg").headers["content-type"].startswith(
            "image/svg+xml")
        api.call("POST", f"/boards/{key}/adjudicate", friend, expect=403)
        copy = api.json("POST", "/boards", friend, {"board": key}, expect=201)
        assert copy["yours"] and copy["key"] != key
        api.call("GET", "/boards/not-a-board", expect=404)
        api.call("POST", "/boards", friend, {}, expect=400)
        api.call("POST", "/boards", friend, {"variant": "standard", "game": 1}, expect=400)


def test_a_private_game_gives_boards_to_its_own_people_only(db_url: str) -> None:
    with make_api(db_url) as api:
        table = api.full_game(private=True)
        api.call("POST", "/boards", api.signup(), {"game": table.id}, expect=403)
        api.json("POST", "/boards", table.players["italy"], {"game": table.id}, expect=201)
        api.call("POST", "/boards", table.players["italy"],
                 {"game": table.id, "phase": "F1950M"}, expect=404)


def test_boards_are_bounded(db_url: str) -> None:
    """Each account keeps at most ``boards_per_account`` boards (the oldest goes) of at
    most ``board_steps_max`` steps."""
    with make_api(db_url, boards_per_account=2, board_steps_max=3) as api:
        token = api.signup()
        keys = [api.json("POST", "/boards", token, {"variant": "standard"}, expect=201)["key"]
                for _ in range(3)]
        api.call("GET", f"/boards/{keys[0]}", expect=404)
        api.call("GET", f"/boards/{keys[2]}", expect=200)
        for _ in range(2):
            api.json("POST", f"/boards/{keys[2]}/adjudicate", token)
        full = api.call("POST", f"/boards/{keys[2]}/adjudicate", token, expect=409).json()
        assert "3 steps" in full["detail"]


def test_a_boards_legal_orders_for_any_power(db_url: str) -> None:
    """The planning board's menus: any power's legal orders at a step, as a game's
    legal options are given."""
    with make_api(db_url) as api:
        token = api.signup()
        key = api.json("POST", "/boards", token, {"variant": "standard"}, expect=201)["key"]
        legal = api.json("GET", f"/boards/{key}/legal/options?power=turkey")
        assert {"ANK", "CON", "SMY"} == set(legal)
        assert any(o["order"] == "F ANK - BLA" for o in legal["ANK"])
        api.call("GET", f"/boards/{key}/legal/options?power=atlantis", expect=400)
        api.call("GET", f"/boards/{key}/legal/options?power=turkey&step=5", expect=404)


def test_merged_orders_replace_their_units_and_keep_the_others(db_url: str) -> None:
    """Issue 27 section 3: with ``merge`` each order given replaces its unit's earlier
    one (the engine decides, as for a game's orders) and the power's others stay; an
    illegal one refuses the whole request, naming its power, and changes nothing."""
    with make_api(db_url) as api:
        token = api.signup()
        key = api.json("POST", "/boards", token, {"variant": "standard"}, expect=201)["key"]
        api.json("PUT", f"/boards/{key}/orders", token, {"orders": {
            "france": ["A PAR - BUR", "A MAR H", "F BRE - MAO"], "germany": ["A MUN - RUH"]}})
        board = api.json("PUT", f"/boards/{key}/orders", token, {"merge": True, "orders": {
            "france": ["A PAR - PIC"], "italy": ["A VEN H"]}})
        orders = board["steps"][0]["orders"]
        assert sorted(orders["france"]) == ["A MAR H", "A PAR - PIC", "F BRE - MAO"]
        assert orders["germany"] == ["A MUN - RUH"] and orders["italy"] == ["A VEN H"]
        # without merge the power's orders given are all it has (the default, unchanged)
        board = api.json("PUT", f"/boards/{key}/orders", token,
                         {"orders": {"france": ["A MAR - SPA"]}})
        assert board["steps"][0]["orders"]["france"] == ["A MAR - SPA"]
        before = api.json("GET", f"/boards/{key}")
        # Italy's order is legal, France's is not: neither is stored
        illegal = api.call("PUT", f"/boards/{key}/orders", token, {"merge": True, "orders": {
            "italy": ["A VEN - TUS"], "france": ["A PAR - MOS"]}}, expect=422).json()
        assert illegal["detail"].startswith("France:")
        after = api.json("GET", f"/boards/{key}")
        assert after["steps"] == before["steps"] and after["updated_at"] == before["updated_at"]


def test_a_merged_build_stands_beside_another(db_url: str) -> None:
    """A Winter's builds given one by one (a click each) add up: a build is for its
    site, so the second leaves the first (rule: builds in unoccupied home centres)."""
    with make_api(db_url) as api:
        token = api.signup()
        key = api.json("POST", "/boards", token, {"variant": "standard"}, expect=201)["key"]
        api.json("PUT", f"/boards/{key}/units", token, {"units": {"france": ["A PAR"]}})
        api.json("POST", f"/boards/{key}/adjudicate", token)
        board = api.json("POST", f"/boards/{key}/adjudicate", token)
        assert board["steps"][board["at"]]["phase"] == "W1901A"
        legal = api.json("GET", f"/boards/{key}/legal/options?power=france")
        army_mar, = [o["order"] for o in legal["MAR"] if o["kind"] == "build"
                     and o["unit_type"] == "A"]
        fleet_mar, = [o["order"] for o in legal["MAR"] if o["kind"] == "build"
                      and o["unit_type"] == "F"]
        fleet_bre, = [o["order"] for o in legal["BRE"] if o["kind"] == "build"
                      and o["unit_type"] == "F"]
        for order in (army_mar, fleet_bre):
            board = api.json("PUT", f"/boards/{key}/orders", token,
                             {"merge": True, "orders": {"france": [order]}})
        assert sorted(board["steps"][board["at"]]["orders"]["france"]) == sorted(
            [army_mar, fleet_bre])
        # another build at the same site replaces that site's
        board = api.json("PUT", f"/boards/{key}/orders", token,
                         {"merge": True, "orders": {"france": [fleet_mar]}})
        assert sorted(board["steps"][board["at"]]["orders"]["france"]) == sorted(
            [fleet_mar, fleet_bre])


def test_a_winter_step_counts_builds_as_the_rules_allow(db_url: str) -> None:
    """The rulebook's building rule (DATC 6.I): a power builds only in its own vacant home
    centres. France with five centres and three units, two of them on home centres,
    may build one (in Brest), not two: the step says so, as the rules count it, and
    the page shows that count rather than centres minus units."""
    with make_api(db_url) as api:
        token = api.signup()
        key = api.json("POST", "/boards", token, {"variant": "standard"}, expect=201)["key"]
        api.json("PUT", f"/boards/{key}/units", token, {
            "units": {"france": ["A PAR", "A MAR", "A BUR"], "germany": ["A MUN", "A RUH"]},
            "centres": {"france": ["PAR", "MAR", "BRE", "SPA", "BEL"], "germany": ["MUN"]}})
        for _ in range(2):  # Spring and Fall, every unit holding
            board = api.json("POST", f"/boards/{key}/adjudicate", token)
        step = board["steps"][board["at"]]
        assert step["phase"] == "W1901A"
        assert step["adjustments"] == {"france": 1, "germany": -1}
        assert board["steps"][0]["adjustments"] == {}  # a movement step asks none
