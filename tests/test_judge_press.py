"""Press through the judge: who may write what under each press mode, who reads what,
conversations with unread counts and read markers, bad messages and the flood limit.
SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from judge_fixtures import Api, Table, eliminate, make_api


def _send(api: Api, table: Table, token: str, to: Any, body: str,
          expect: int = 201) -> dict[str, Any]:
    got: dict[str, Any] = api.call("POST", f"/games/{table.id}/messages", token,
                                   {"to": to, "body": body}, expect=expect).json()
    return got


def _bodies(api: Api, table: Table, token: str, **query: Any) -> list[str]:
    got = api.call("GET", f"/games/{table.id}/messages", token, params=query, expect=200)
    return [m["body"] for m in got.json()]


def test_private_group_and_public_press_reach_only_their_readers(api: Api) -> None:
    table = api.full_game()
    p = table.players
    sent = _send(api, table, p["france"], ["england"], "private: the channel is yours")
    assert sent["from"] == "france" and sent["to"] == ["england"]
    assert sent["conversation"] == "england,france" and sent["phase"] == "S1901M"
    assert sent["mine"] is True and sent["unread"] is False
    _send(api, table, p["germany"], ["Russia", "Austrian"], "group: the three emperors")
    _send(api, table, p["italy"], "all", "public: Italy wants peace")
    expect = {
        "france": ["private: the channel is yours", "public: Italy wants peace"],
        "england": ["private: the channel is yours", "public: Italy wants peace"],
        "germany": ["group: the three emperors", "public: Italy wants peace"],
        "russia": ["group: the three emperors", "public: Italy wants peace"],
        "austria": ["group: the three emperors", "public: Italy wants peace"],
        "italy": ["public: Italy wants peace"],
        "turkey": ["public: Italy wants peace"],
    }
    for power, bodies in expect.items():
        assert _bodies(api, table, p[power]) == bodies, power
    # the master reads public press only, like any non-recipient
    assert _bodies(api, table, table.master) == ["public: Italy wants peace"]
    # an account outside the game reads nothing, writes nothing
    stranger = api.signup()
    api.call("GET", f"/games/{table.id}/messages", stranger, expect=403)
    api.call("GET", f"/games/{table.id}/conversations", stranger, expect=403)
    _send(api, table, stranger, "all", "hello", expect=403)
    # no other answer carries press
    for token in [p["turkey"], table.master, stranger]:
        for path in ("", "/phases", "/orders", "/conversations", "/vote"):
            got = api.call("GET", f"/games/{table.id}{path}", token)
            assert "channel is yours" not in got.text and "three emperors" not in got.text


def test_conversations_unread_counts_and_read_markers(api: Api) -> None:
    table = api.full_game()
    fr, en = table.players["france"], table.players["england"]
    first = _send(api, table, fr, ["england"], "one")
    _send(api, table, fr, ["england"], "two")
    _send(api, table, en, "all", "hello all")
    convs = {c["conversation"]: c for c in api.json("GET", f"/games/{table.id}/conversations",
                                                      en)}
    assert convs["england,france"]["unread"] == 2 and convs["england,france"]["messages"] == 2
    assert convs["england,france"]["powers"] == ["england", "france"]
    assert convs["all"]["unread"] == 0  # England wrote it
    assert [m["unread"] for m in api.json("GET", f"/games/{table.id}/messages", en)] == \
        [True, True, False]
    # read up to the first message: one left
    got = api.json("POST", f"/games/{table.id}/messages/read", en,
                   {"conversation": "France,England", "up_to": first["id"]})
    assert {c["conversation"]: c["unread"] for c in got}["england,france"] == 1
    # markers never move back
    api.json("POST", f"/games/{table.id}/messages/read", en,
             {"conversation": "england,france", "up_to": 0})
    convs = {c["conversation"]: c for c in api.json("GET", f"/games/{table.id}/conversations",
                                                      en)}
    assert convs["england,france"]["unread"] == 1
    assert convs["england,france"]["read_up_to"] == first["id"]
    # France has one unread (the public one); read everything
    assert {c["conversation"]: c["unread"] for c in api.json(
        "GET", f"/games/{table.id}/conversations", fr)} == {"all": 1, "england,france": 0}
    got = api.json("POST", f"/games/{table.id}/messages/read", fr, {})
    assert all(c["unread"] == 0 for c in got)
    # since= and conversation= narrow the list
    assert _bodies(api, table, en, since=first["id"]) == ["two", "hello all"]
    assert _bodies(api, table, en, conversation="all") == ["hello all"]
    api.call("POST", f"/games/{table.id}/messages/read", en, {"conversation": "italy,turkey"},
             expect=404)


def test_press_modes(api: Api) -> None:
    public = api.full_game(press="public")
    fr = public.players["france"]
    got = _send(api, public, fr, ["england"], "psst", expect=403)
    assert got["error"] == "forbidden" and "public press only" in got["detail"]
    _send(api, public, fr, "all", "openly then")
    _send(api, public, public.master, ["england"], "a private word", expect=403)
    assert _send(api, public, public.master, "all", "notice")["from"] == "master"

    silent = api.full_game(press="none")
    for to in (["england"], "all"):
        got = _send(api, silent, silent.players["france"], to, "anyone?", expect=403)
        assert got["error"] == "forbidden" and "no press" in got["detail"]
    _send(api, silent, silent.master, ["france"], "only to you", expect=403)
    notice = _send(api, silent, silent.master, "all", "The deadline moves to Friday.")
    assert notice["from"] == "master" and notice["to"] == "all"
    assert _bodies(api, silent, silent.players["turkey"]) == ["The deadline moves to Friday."]


def test_press_follows_the_game(api: Api, db_url: str) -> None:
    master = api.signup()
    forming = api.new_game(master)
    player = api.signup()
    api.call("POST", f"/games/{forming['id']}/seats", player, {"power": "france"}, expect=201)
    got = api.call("POST", f"/games/{forming['id']}/messages", player,
                   {"to": "all", "body": "early"}, expect=409).json()
    assert "not started" in got["detail"]

    table = api.full_game()
    eliminate(db_url, table.id, "turkey")
    got = _send(api, table, table.players["turkey"], "all", "I am still here", expect=409)
    assert "out of the game" in got["detail"]
    _send(api, table, table.players["russia"], ["turkey"], "condolences", expect=409)
    _send(api, table, table.players["russia"], "all", "Turkey is gone")
    assert _bodies(api, table, table.players["turkey"]) == ["Turkey is gone"]

    for power, token in table.players.items():
        if power != "turkey":
            api.call("PUT", f"/games/{table.id}/vote", token, {"draw": True}, expect=200)
    assert api.game(table)["status"] == "finished"
    _send(api, table, table.players["france"], ["england"], "after the end", expect=409)
    _send(api, table, table.players["france"], "all", "good game")
    _send(api, table, table.players["turkey"], "all", "well played")


def test_bad_messages(api: Api) -> None:
    table = api.full_game()
    fr = table.players["france"]
    for body, word in [({"to": ["narnia"], "body": "x"}, "narnia"),
                       ({"to": ["france"], "body": "x"}, "your own power"),
                       ({"to": [], "body": "x"}, "no power"),
                       ({"to": "everyone", "body": "x"}, "to"),
                       ({"to": "all", "body": "   "}, "empty"),
                       ({"to": "all", "body": "bell\x07"}, "control"),
                       ({"to": "all", "body": "x" * 5001}, "longer"),
                       ({"to": "all"}, "body"),
                       ({"to": "all", "body": "x", "cc": "england"}, "cc")]:
        got = api.call("POST", f"/games/{table.id}/messages", fr, body, expect=400).json()
        assert set(got) == {"error", "detail"} and got["error"] == "invalid"
        assert word in got["detail"], (body, got)
    api.call("GET", f"/games/{table.id}/messages?since=-1", fr, expect=400)
    api.call("POST", "/games/999999/messages", fr, {"to": "all", "body": "x"}, expect=404)


def test_floods_are_refused(db_url: str) -> None:
    with make_api(db_url, press_max_messages=3, press_window_seconds=60) as api:
        table = api.full_game()
        fr = table.players["france"]
        for n in range(3):
            _send(api, table, fr, "all", f"message {n}")
        got = api.call("POST", f"/games/{table.id}/messages", fr,
                       {"to": "all", "body": "one more"}, expect=429)
        assert got.json()["error"] == "too_many_requests"
        assert got.headers["Retry-After"] == "60"
        _send(api, table, table.players["england"], "all", "others still may")
        assert len(_bodies(api, table, fr)) == 4


def test_anonymous_press_names_powers_only(api: Api) -> None:
    table = api.full_game(anonymous=True)
    sent = _send(api, table, table.players["france"], ["england"], "who am I?")
    got = api.json("GET", f"/games/{table.id}/messages", table.players["england"])
    assert got[0]["from"] == "france"
    text = api.call("GET", f"/games/{table.id}/messages", table.players["england"]).text
    me = api.json("GET", "/account", table.players["france"])["username"]
    assert me not in text and me not in str(sent)
