"""Message ids (issue 26, item 12): the ids a player sees count the messages that
player may read, 1, 2, 3, ... without gaps, so they never tell how much press the
judge's other games send, nor how much private press the other players of the game
exchange; since=, up_to, read markers and unread counts all work on those ids.
SQLite and PostgreSQL."""

from __future__ import annotations

from judge_fixtures import Api


def test_message_ids_count_within_each_game(api: Api) -> None:
    busy, quiet = api.full_game(), api.full_game()
    # much private press in another game
    for n in range(12):
        api.call("POST", f"/games/{busy.id}/messages", busy.players["france"],
                 {"to": ["england"], "body": f"secret {n}"}, expect=201)
    fr, en = quiet.players["france"], quiet.players["england"]
    first = api.json("POST", f"/games/{quiet.id}/messages", fr,
                     {"to": ["england"], "body": "one"}, expect=201)
    second = api.json("POST", f"/games/{quiet.id}/messages", en,
                      {"to": "all", "body": "two"}, expect=201)
    # the quiet game's press is numbered 1, 2: the busy game's twelve do not show
    assert (first["id"], second["id"]) == (1, 2)
    assert [m["id"] for m in api.json("GET", f"/games/{busy.id}/messages",
                                      busy.players["england"])] == list(range(1, 13))
    assert [m["id"] for m in api.json("GET", f"/games/{quiet.id}/messages", en)] == [1, 2]
    # since= is a number within the game
    assert [m["body"] for m in api.json("GET", f"/games/{quiet.id}/messages?since=1", en)] \
        == ["two"]
    convs = {c["conversation"]: c for c in api.json("GET", f"/games/{quiet.id}/conversations",
                                                      fr)}
    assert convs["all"]["last_id"] == 2 and convs["all"]["unread"] == 1
    assert convs["england,france"]["last_id"] == 1
    # up_to= a number of this game, and the marker holds it
    got = {c["conversation"]: c for c in api.json(
        "POST", f"/games/{quiet.id}/messages/read", fr, {"conversation": "all", "up_to": 2})}
    assert got["all"]["read_up_to"] == 2 and got["all"]["unread"] == 0
    # a later message in the busy game leaves the quiet game's counts alone, and the
    # next message in the quiet game is 3
    api.call("POST", f"/games/{busy.id}/messages", busy.players["italy"],
             {"to": "all", "body": "elsewhere"}, expect=201)
    third = api.json("POST", f"/games/{quiet.id}/messages", en, {"to": "all", "body": "three"},
                     expect=201)
    assert third["id"] == 3
    convs = {c["conversation"]: c for c in api.json("GET", f"/games/{quiet.id}/conversations",
                                                      fr)}
    assert convs["all"]["unread"] == 1 and convs["all"]["last_id"] == 3


def test_ids_have_no_gaps_where_others_wrote_in_private(api: Api) -> None:
    """France and Germany exchange five private messages between England's public
    ones: England's ids are 1, 2, 3 (no gap shows the five), theirs count them."""
    table = api.full_game()
    fr, de, en = (table.players[p] for p in ("france", "germany", "england"))
    path = f"/games/{table.id}/messages"
    assert api.json("POST", path, en, {"to": "all", "body": "hello"}, expect=201)["id"] == 1
    for n in range(5):
        api.call("POST", path, fr if n % 2 else de,
                 {"to": ["germany"] if n % 2 else ["france"], "body": f"psst {n}"}, expect=201)
    assert api.json("POST", path, en, {"to": "all", "body": "anyone?"}, expect=201)["id"] == 2
    api.call("POST", path, de, {"to": ["france"], "body": "later"}, expect=201)
    api.call("POST", path, fr, {"to": "all", "body": "yes"}, expect=201)
    mine = api.json("GET", path, en)
    assert [(m["id"], m["body"]) for m in mine] == [(1, "hello"), (2, "anyone?"), (3, "yes")]
    theirs = api.json("GET", path, fr)
    assert [m["id"] for m in theirs] == list(range(1, 10))
    assert [m["body"] for m in api.json("GET", f"{path}?since=7", fr)] == ["later", "yes"]
    assert [m["body"] for m in api.json("GET", f"{path}?since=2", en)] == ["yes"]
    # England's read marker, in England's ids, and the unread count it leaves
    got = {c["conversation"]: c for c in api.json("POST", f"{path}/read", en,
                                                  {"conversation": "all", "up_to": 2})}
    assert got["all"]["read_up_to"] == 2 and got["all"]["unread"] == 1
    assert got["all"]["last_id"] == 3
    # France's markers count France's messages: the public conversation ends at 9
    convs = {c["conversation"]: c for c in api.json("GET", f"/games/{table.id}/conversations",
                                                      fr)}
    assert convs["all"]["last_id"] == 9 and convs["france,germany"]["last_id"] == 8
    assert convs["all"]["unread"] == 2  # England's two
