"""Seats that never die (issue 28 section 4), on both databases: a declared absence
(a bot of the player's choice, or holds) and its end, also when its start or end
comes within a phase (the scheduler's absence clock, on real servers); a takeover
by a bot after N missed phases, ended by the player's return; a seat opened for a
replacement, who plays on with the power's history and reads the power's press."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from judge_fixtures import Api, ServerProcess, Table, make_api, settings_for
from test_judge_bots import wait_for

pytestmark = pytest.mark.usefixtures("db_url")


def iso(delta: timedelta) -> str:
    return (datetime.now(UTC) + delta).isoformat()


def everyone_else_ready(api: Api, table: Table, but: str) -> None:
    """Every other player sends an order (a phase with nothing sent is a missed one)
    and says it is ready."""
    for power, token in table.players.items():
        if power == but:
            continue
        legal = api.json("GET", f"/games/{table.id}/legal", token)
        if legal:
            first = next(iter(legal.values()))[0]
            api.json("PUT", f"/games/{table.id}/orders", token, {"orders": [first]})
        api.json("POST", f"/games/{table.id}/ready", token, {"ready": True})


def test_an_absence_is_played_by_the_chosen_bot_and_handed_back(db_url: str) -> None:
    """Issue 28 section 4: from the moment the absence starts the chosen bot plays
    the seat (this phase too), others see the seat on leave (not why), and at its
    end the seat is the player's again."""
    with make_api(db_url) as api:
        table = api.full_game()
        france = table.players["france"]
        away = api.json("PUT", f"/games/{table.id}/away", france,
                        {"until": iso(timedelta(days=3)), "bot": "heuristic"})
        assert away["power"] == "france" and away["bot"] == "heuristic"
        seen = wait_for(api, table.id, table.players["italy"],
                        lambda g: g["powers"]["france"]["submitted"], what="the bot's orders")
        assert seen["powers"]["france"]["away"] and seen["powers"]["france"]["bot"] == \
            "heuristic" and seen["powers"]["france"]["ready"]
        assert "why" not in str(seen["powers"]["france"])
        assert seen["your_away"] is None  # Italy's view: France's leave is not Italy's
        own = api.json("GET", f"/games/{table.id}", france)["your_away"]
        assert own["bot"] == "heuristic" and own["until"] is not None
        everyone_else_ready(api, table, "france")
        game = wait_for(api, table.id, france, lambda g: g["phase"] == "F1901M")
        spring = api.json("GET", f"/games/{table.id}/phases", france)[0]
        assert spring["bots"] == {"france": "heuristic"} and len(spring["orders"]["france"]) == 3
        assert game["powers"]["france"]["nmr"] == 0
        # back: the seat is the person's from now on (the orders its bot gave for the
        # phase that opened during the absence stand); no bot plays the phases after
        wait_for(api, table.id, france, lambda g: g["powers"]["france"]["ready"],
                 what="the bot's orders for Fall")
        api.json("DELETE", f"/games/{table.id}/away", france)
        game = api.json("GET", f"/games/{table.id}", france)
        assert not game["powers"]["france"]["away"] and game["powers"]["france"]["bot"] is None
        # back: the bot's orders stand, but the phase waits for the person's ready
        assert game["powers"]["france"]["submitted"] and not game["powers"]["france"]["ready"]
        assert game["your_away"] is None
        api.json("POST", f"/games/{table.id}/master/process", table.master)
        game = api.json("GET", f"/games/{table.id}", france)
        assert game["phase"] in ("W1901A", "S1902M") and not game["powers"]["france"]["ready"]
        assert not game["powers"]["france"]["submitted"]
        history = api.json("GET", f"/games/{table.id}/phases", france)
        assert history[-1]["phase"] == "F1901M" and history[-1]["bots"] == {
            "france": "heuristic"}


def test_an_absence_without_a_bot_holds_and_counts_no_missed_phase(db_url: str) -> None:
    with make_api(db_url) as api:
        table = api.full_game(takeover_after=1)
        api.json("PUT", f"/games/{table.id}/away", table.players["russia"],
                 {"until": iso(timedelta(hours=5))})
        game = api.game(table)
        assert game["powers"]["russia"]["away"] and game["powers"]["russia"]["bot"] is None
        assert game["powers"]["russia"]["ready"]  # the phase does not wait for Russia
        everyone_else_ready(api, table, "russia")
        game = wait_for(api, table.id, table.master, lambda g: g["phase"] == "F1901M")
        assert game["powers"]["russia"]["nmr"] == 0
        assert game["powers"]["russia"]["bot"] is None  # no takeover for an absence


def test_bad_absences_are_refused(db_url: str) -> None:
    with make_api(db_url) as api:
        table = api.full_game()
        token = table.players["austria"]
        api.call("PUT", f"/games/{table.id}/away", token,
                 {"until": iso(-timedelta(hours=1))}, expect=400)
        api.call("PUT", f"/games/{table.id}/away", token,
                 {"until": iso(timedelta(days=90))}, expect=400)
        api.call("PUT", f"/games/{table.id}/away", token,
                 {"until": iso(timedelta(days=1)), "bot": "nobody"}, expect=422)
        api.call("PUT", f"/games/{table.id}/away", table.master,
                 {"until": iso(timedelta(days=1))}, expect=403)


def test_a_bot_takes_over_after_missed_phases_until_the_player_returns(db_url: str) -> None:
    """``takeover_after``: after N phases in a row with nothing sent, a bot plays the
    seat (which is also opened for a replacement); the player's orders end it."""
    with make_api(db_url) as api:
        table = api.full_game(takeover_after=1, takeover_bot="random")
        assert api.game(table)["takeover_bot"] == "random"
        everyone_else_ready(api, table, "turkey")  # Turkey sends nothing
        api.json("POST", f"/games/{table.id}/master/process", table.master)
        game = wait_for(api, table.id, table.master,
                        lambda g: g["powers"]["turkey"]["submitted"],
                        what="the bot's orders for Turkey")
        assert game["phase"] == "F1901M" and game["powers"]["turkey"]["nmr"] == 1
        assert game["powers"]["turkey"]["bot"] == "random" and game["powers"]["turkey"]["open"]
        # the player comes back: their orders replace the bot's, the seat is theirs
        turkey = table.players["turkey"]
        api.json("PUT", f"/games/{table.id}/orders", turkey, {"orders": ["A CON H"]})
        game = api.game(table)
        assert game["powers"]["turkey"]["bot"] is None and not game["powers"]["turkey"]["open"]
        assert not game["powers"]["turkey"]["ready"]  # the phase waits for the person now
        assert api.json("GET", f"/games/{table.id}/orders", turkey)["orders"] == ["A CON H"]


def test_a_replacement_plays_on_with_the_powers_history_and_press(db_url: str) -> None:
    """The master opens a seat; the old player leaves the game; whoever takes it
    reads the power's press from before (sent and received) and gives its orders."""
    with make_api(db_url) as api:
        table = api.full_game()
        gid = table.id
        england, germany = table.players["england"], table.players["germany"]
        api.json("POST", f"/games/{gid}/messages", england,
                 {"to": ["germany"], "body": "Shall we share the North Sea?"}, expect=201)
        api.json("POST", f"/games/{gid}/messages", germany,
                 {"to": ["england"], "body": "Denmark is mine."}, expect=201)
        api.call("POST", f"/games/{gid}/master/seats/england/open", england, {}, expect=403)
        game = api.json("POST", f"/games/{gid}/master/seats/england/open", table.master,
                        {"bot": "heuristic"})
        assert game["powers"]["england"]["open"] and game["powers"]["england"]["player"] is None
        api.call("GET", f"/games/{gid}/messages", england, expect=403)  # gone from the game
        newcomer = api.signup()
        api.call("POST", f"/games/{gid}/seats", newcomer, {"power": "france"}, expect=409)
        assert api.json("POST", f"/games/{gid}/seats", newcomer, {"power": "england"},
                        expect=201)["power"] == "england"
        read: list[dict[str, Any]] = api.json("GET", f"/games/{gid}/messages", newcomer)
        assert [(m["from"], m["body"], m["mine"]) for m in read] == [
            ("england", "Shall we share the North Sea?", True),
            ("germany", "Denmark is mine.", False)]
        assert read[1]["unread"]
        game = api.json("GET", f"/games/{gid}", newcomer)
        assert game["your_power"] == "england" and game["powers"]["england"]["bot"] is None
        api.json("PUT", f"/games/{gid}/orders", newcomer, {"orders": ["F LON - NTH"]})
        # and a game under way with no open seat takes nobody
        api.call("POST", f"/games/{gid}/seats", api.signup(), {}, expect=409)


def test_the_lobby_lists_open_seats_and_bots(db_url: str) -> None:
    """A public game under way with an open seat is listed for everyone (so a
    replacement can find it), with the seat and the powers bots play."""
    with make_api(db_url) as api:
        table = api.full_game()
        outsider = api.signup()
        assert all(g["id"] != table.id for g in api.json("GET", "/games", outsider))
        api.json("POST", f"/games/{table.id}/master/seats/italy/open", table.master,
                 {"bot": "random"})
        listed = next(g for g in api.json("GET", "/games", outsider) if g["id"] == table.id)
        assert listed["status"] == "active" and listed["open_powers"] == ["italy"]
        assert listed["bots"] == {"italy": "random"}
        anonymous = next(g for g in api.json("GET", "/games") if g["id"] == table.id)
        assert anonymous["open_powers"] == ["italy"]


def test_press_reaches_a_bot_played_power(db_url: str) -> None:
    """Bots receive press (they need not answer): a game with bots is still a game
    people talk in, and a person who later takes the seat reads it."""
    with make_api(db_url) as api:
        me = api.signup()
        game = api.new_game(me, power="england", fill_bot="heuristic", join_seconds=0)
        api.json("POST", f"/games/{game['id']}/messages", me,
                 {"to": ["france"], "body": "Peace in the Channel?"}, expect=201)
        api.json("POST", f"/games/{game['id']}/messages", me,
                 {"to": "all", "body": "Hello, bots."}, expect=201)
        conversations = api.json("GET", f"/games/{game['id']}/conversations", me)
        assert {c["conversation"] for c in conversations} == {"all", "england,france"}


def test_an_invite_holder_takes_the_open_seat_of_a_private_game(db_url: str) -> None:
    """A private game under way with a seat open for a replacement: the holder of its
    invite code may see it and take the seat; nobody else sees it."""
    with make_api(db_url) as api:
        table = api.full_game(private=True)
        code = api.json("GET", f"/games/{table.id}", table.master)["invite"]
        newcomer = api.signup()
        api.call("GET", f"/games/{table.id}", newcomer,
                 headers={"X-Invite-Code": code}, expect=403)  # no open seat yet
        api.json("POST", f"/games/{table.id}/master/seats/russia/open", table.master, {})
        seen = api.json("GET", f"/games/{table.id}?invite={code}", newcomer)
        assert seen["powers"]["russia"]["open"]
        api.call("GET", f"/games/{table.id}", api.signup(), expect=403)
        api.call("POST", f"/games/{table.id}/seats", newcomer, {"power": "russia"}, expect=403)
        api.json("POST", f"/games/{table.id}/seats", newcomer,
                 {"power": "russia", "invite": code}, expect=201)


# -- absences whose start or end comes within a phase (the scheduler's) -----------------

#: a quick scheduler: an absence's start or end is acted on within a fifth of a second
QUICK_POLL = "0.2"
#: how far ahead a test's absence starts: time enough to set the phase up before it
AHEAD = timedelta(seconds=2)


def real_judge(db_url: str, servers: list[ServerProcess]) -> Api:
    """``standoff serve`` on the database, with a quick scheduler; its client."""
    server = ServerProcess(db_url, STANDOFF_POLL_INTERVAL=QUICK_POLL).start()
    servers.append(server)
    return server.client()


def declare(api: Api, table: Table, power: str, start: datetime | None, until: datetime,
            bot: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"until": until.isoformat(), "bot": bot}
    if start is not None:
        body["start"] = start.isoformat()
    got: dict[str, Any] = api.json("PUT", f"/games/{table.id}/away", table.players[power], body)
    return got


def not_yet_started(api: Api, table: Table, power: str, start: datetime) -> None:
    """Before its start an absence changes nothing: the seat is its person's (checked
    only if the test got here before the start, as it nearly always does)."""
    seen = api.game(table)["powers"][power]
    if datetime.now(UTC) < start - timedelta(seconds=0.5):
        assert not seen["away"] and not seen["ready"] and seen["bot"] is None, seen


def server_trouble(servers: list[ServerProcess]) -> list[str]:
    return [line for server in servers for line in server.lines
            if "Traceback" in line or "failed" in line.lower()]


def test_an_absence_starting_mid_phase_hands_the_seat_to_its_bot_once(
        db_url: str, servers: list[ServerProcess]) -> None:
    """Issue 28 section 4: an absence declared to start later, whose start comes while
    a phase runs, hands the seat to the chosen bot at that moment (not at the next
    phase): the bot's orders are given for this phase and the phase is processed as
    soon as the other people are ready. Two servers share the database, each with
    its scheduler: the bot's job is queued and taken once."""
    from standoff.judge.db import Database
    from standoff.judge.models import BotJob

    api = real_judge(db_url, servers)
    other = real_judge(db_url, servers)  # a second scheduler looking at the same absences
    table = api.full_game()
    start = datetime.now(UTC) + AHEAD
    declare(api, table, "france", start, start + timedelta(days=2), bot="random")
    not_yet_started(api, table, "france", start)
    everyone_else_ready(api, table, "france")
    game = wait_for(other, table.id, table.master, lambda g: g["phase"] == "F1901M",
                    what="spring processed once France's bot gave its orders")
    spring = api.phases(table)[0]
    assert spring["phase"] == "S1901M" and spring["bots"] == {"france": "random"}
    assert len(spring["orders"]["france"]) == 3
    assert game["powers"]["france"]["nmr"] == 0 and game["powers"]["france"]["away"]
    db = Database(settings_for(db_url))
    try:
        with db.read() as s:
            jobs = s.query(BotJob).filter_by(game_id=table.id, turn=0).all()
    finally:
        db.dispose()
    assert [(j.power, j.status, j.attempts) for j in jobs] == [("france", "done", 1)]
    assert server_trouble(servers) == []


def test_a_holding_absence_starting_mid_phase_makes_the_seat_ready(
        db_url: str, servers: list[ServerProcess]) -> None:
    """An absence without a bot whose start comes within a phase: the seat holds from
    then (ready, nothing sent, no missed phase), so the phase waits for nobody."""
    api = real_judge(db_url, servers)
    table = api.full_game()
    start = datetime.now(UTC) + AHEAD
    declare(api, table, "russia", start, start + timedelta(days=2))
    not_yet_started(api, table, "russia", start)
    everyone_else_ready(api, table, "russia")
    game = wait_for(api, table.id, table.master, lambda g: g["phase"] == "F1901M",
                    what="spring processed once Russia's seat holds")
    spring = api.phases(table)[0]
    assert spring["bots"] == {} and not spring["orders"].get("russia")
    assert game["powers"]["russia"]["nmr"] == 0
    assert game["powers"]["russia"]["away"] and game["powers"]["russia"]["ready"]
    assert server_trouble(servers) == []


def test_at_its_end_an_absence_gives_the_seat_back(db_url: str,
                                                    servers: list[ServerProcess]) -> None:
    """At ``until`` the judge gives the seat back by itself, as ending the absence
    does: the ready flag the absence raised (a holding seat's, a bot's) is lowered,
    so the phase under way waits for the person, and the next phase is theirs (no
    bot asked, nothing held)."""
    api = real_judge(db_url, servers)
    table = api.full_game()
    until = datetime.now(UTC) + AHEAD
    declare(api, table, "russia", None, until)
    declare(api, table, "france", None, until, bot="random")
    seen = api.game(table)["powers"]["russia"]
    if datetime.now(UTC) < until:  # read while the absence ran (a loaded machine may not)
        assert seen["ready"] and seen["away"], seen  # holds from now
    # given back: no longer away, and not ready (the absence's hold lapses at ``until``;
    # the scheduler's look then lowers the flag itself)
    wait_for(api, table.id, table.master,
             lambda g: all(not g["powers"][p]["away"] and not g["powers"][p]["ready"]
                           for p in ("russia", "france")), what="both seats given back")
    others = Table(table.id, table.master,
                   {p: tok for p, tok in table.players.items() if p != "russia"})
    everyone_else_ready(api, others, "france")
    game = api.game(table)
    assert game["phase"] == "S1901M"  # the phase waits for the two who came back
    for power in ("russia", "france"):
        seat = game["powers"][power]
        assert not seat["ready"] and not seat["away"] and seat["bot"] is None, (power, seat)
        assert api.json("GET", f"/games/{table.id}", table.players[power])["your_away"] is None
    for power in ("russia", "france"):
        token = table.players[power]
        api.json("PUT", f"/games/{table.id}/orders", token,
                 {"orders": [next(iter(api.json("GET", f"/games/{table.id}/legal",
                                                token).values()))[0]]})
        done = api.json("POST", f"/games/{table.id}/ready", token, {"ready": True})
    assert done["processed"]
    game = api.game(table)
    assert game["phase"] == "F1901M"
    for power in ("russia", "france"):  # the new phase is the person's
        seat = game["powers"][power]
        assert not seat["ready"] and not seat["submitted"] and seat["bot"] is None, seat
    assert server_trouble(servers) == []


def test_an_absences_hold_lapses_at_its_end_before_the_scheduler_looks(
        db_url: str, servers: list[ServerProcess]) -> None:
    """Issue 28 section 4, "returns to them afterwards": at ``until`` the seat is the
    person's again at once, not at the scheduler's next look. With a scheduler that
    looks only every minute, a holding absence that has ended no longer counts as
    ready: the others' ready does not process the phase, the game view shows the
    seat not ready, and the person's own ready (which gives the seat back itself)
    does."""
    server = ServerProcess(db_url, None, (), None, STANDOFF_POLL_INTERVAL="60").start()
    servers.append(server)
    api = server.client()
    table = api.full_game()
    until = datetime.now(UTC) + AHEAD
    declare(api, table, "russia", None, until)
    wait_for(api, table.id, table.master, lambda g: not g["powers"]["russia"]["away"],
             what="russia's absence over")
    others = Table(table.id, table.master,
                   {p: tok for p, tok in table.players.items() if p != "russia"})
    everyone_else_ready(api, others, "russia")
    game = api.game(table)
    assert game["phase"] == "S1901M" and not game["powers"]["russia"]["ready"]
    done = api.json("POST", f"/games/{table.id}/ready", table.players["russia"],
                    {"ready": True})
    assert done["processed"]
    assert api.game(table)["phase"] == "F1901M"
    assert server_trouble(servers) == []


def test_orders_sent_before_an_absence_starts_stand(db_url: str,
                                                    servers: list[ServerProcess]) -> None:
    """A player who sent orders and then leaves within the phase keeps them: when the
    absence starts no bot replaces them (the seat is made ready, nobody coming to
    say so), and its bot plays from the next phase."""
    api = real_judge(db_url, servers)
    table = api.full_game()
    france = table.players["france"]
    mine = ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]
    api.json("PUT", f"/games/{table.id}/orders", france, {"orders": mine})
    start = datetime.now(UTC) + AHEAD
    declare(api, table, "france", start, start + timedelta(days=2), bot="random")
    everyone_else_ready(api, table, "france")
    wait_for(api, table.id, table.master, lambda g: g["phase"] == "F1901M",
             what="spring processed with France's own orders")
    spring = api.phases(table)[0]
    assert spring["bots"] == {} and sorted(spring["orders"]["france"]) == sorted(mine)
    game = wait_for(api, table.id, table.master,
                    lambda g: g["powers"]["france"]["submitted"],
                    what="France's bot playing Fall")
    assert game["powers"]["france"]["bot"] == "random" and game["powers"]["france"]["ready"]
    assert server_trouble(servers) == []
