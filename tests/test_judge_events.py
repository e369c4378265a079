"""A game's event stream (issue 29 section 2: push, not polling), from a real
``standoff serve`` over HTTP, on both databases: what a reader is told as it
happens (others submitted and ready, a phase processed, press they may read),
and what never appears in it (anyone's orders, press they may not read); who may
follow a game, and how many streams one account may hold."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from judge_fixtures import Api, ServerProcess, Table

pytestmark = pytest.mark.usefixtures("db_url")

FAST = {"STANDOFF_EVENTS_INTERVAL": "0.1"}


class Stream:
    """One reader's stream, read by a thread into a queue of (event, data)."""

    def __init__(self, server: ServerProcess, game_id: int, token: str,
                 read: bool = True) -> None:
        self.events: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.raw: list[str] = []
        self._client = httpx.Client(base_url=server.url, timeout=httpx.Timeout(30, read=60))
        self._response = self._client.send(self._client.build_request(
            "GET", f"/api/v1/games/{game_id}/events",
            headers={"Authorization": f"Bearer {token}"}), stream=True)
        self.status = self._response.status_code
        if self.status == 200 and read:  # (a stream read by a thread closes only at its end)
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        kind, data = "", ""
        try:
            for line in self._response.iter_lines():
                self.raw.append(line)
                if line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:"):
                    data = line[5:].strip()
                elif not line and kind:
                    self.events.put((kind, json.loads(data)))
                    kind, data = "", ""
        except httpx.HTTPError:
            pass

    def next(self, kind: str, timeout: float = 20) -> Any:
        """The next event of ``kind`` (others before it are passed over)."""
        while True:
            got, data = self.events.get(timeout=timeout)
            if got == kind:
                return data

    def close(self) -> None:
        self._response.close()
        self._client.close()


@pytest.fixture
def server(db_url: str, servers: list[ServerProcess]) -> ServerProcess:
    started = ServerProcess(db_url, STANDOFF_EVENT_STREAMS_PER_ACCOUNT="2", **FAST).start()
    servers.append(started)
    return started


@pytest.fixture
def streams() -> Iterator[list[Stream]]:
    opened: list[Stream] = []
    yield opened
    for s in opened:
        s.close()


def test_a_reader_is_told_what_changes_and_never_the_orders(
        server: ServerProcess, streams: list[Stream]) -> None:
    api = server.client()
    table: Table = api.full_game()
    italy = Stream(server, table.id, table.players["italy"])
    streams.append(italy)
    assert italy.status == 200
    first = italy.next("game")
    assert first["phase"] == "S1901M" and first["your_power"] == "italy"
    api.json("PUT", f"/games/{table.id}/orders", table.players["france"],
             {"orders": ["A PAR - BUR", "F BRE - MAO"]})
    france = italy.next("power")
    assert france["power"] == "france" and france["submitted"] and not france["ready"]
    api.json("POST", f"/games/{table.id}/master/process", table.master)
    assert italy.next("phase") == {"turn": 1, "phase": "F1901M", "status": "active"}
    stream_text = "\n".join(italy.raw)
    assert "PAR - BUR" not in stream_text and "BRE - MAO" not in stream_text


def test_press_events_reach_only_those_who_may_read_it(
        server: ServerProcess, streams: list[Stream]) -> None:
    api = server.client()
    table = api.full_game()
    france = Stream(server, table.id, table.players["france"])
    italy = Stream(server, table.id, table.players["italy"])
    streams += [france, italy]
    france.next("game")
    italy.next("game")
    api.json("POST", f"/games/{table.id}/messages", table.players["england"],
             {"to": ["france"], "body": "A secret for France"}, expect=201)
    assert france.next("press") == {"new": 1}
    api.json("POST", f"/games/{table.id}/messages", table.players["england"],
             {"to": "all", "body": "Hello all"}, expect=201)
    assert italy.next("press") == {"new": 1}  # the public one only: Italy never saw two
    assert "A secret" not in "\n".join(france.raw + italy.raw)


def test_who_may_follow_and_how_many_streams(server: ServerProcess,
                                             streams: list[Stream]) -> None:
    api: Api = server.client()
    master = api.signup()
    private = api.new_game(master, private=True)
    outsider = api.signup()
    assert Stream(server, private["id"], outsider).status == 403
    assert Stream(server, 999999, outsider).status == 404
    public = api.new_game(master)
    streams += [Stream(server, public["id"], outsider, read=False) for _ in range(2)]
    assert [s.status for s in streams] == [200, 200]
    third = Stream(server, public["id"], outsider, read=False)
    assert third.status == 429
    streams[0].close()
    streams.pop(0)
    # its place is given back when the stream closes (the server notices at its next look)
    for _ in range(50):
        again = Stream(server, public["id"], outsider, read=False)
        if again.status == 200:
            streams.append(again)
            break
        time.sleep(0.1)
    else:
        raise AssertionError("a closed stream's place was never given back")


def test_a_replaced_player_is_told_the_stream_ends(server: ServerProcess,
                                                   streams: list[Stream]) -> None:
    api = server.client()
    table = api.full_game(private=True)
    germany = Stream(server, table.id, table.players["germany"])
    streams.append(germany)
    germany.next("game")
    api.json("POST", f"/games/{table.id}/master/seats/germany/open", table.master, {})
    assert "private" in germany.next("end")["detail"]


def test_a_turn_memo_keeps_the_most_recent_turns() -> None:
    """What every open stream asks once a second in a Winter (each power's builds) is
    worked out once per turn: the memo gives it back, forgets the least recently used
    turn past its size, and a new turn of the same game is a new question."""
    from standoff.judge.memo import TurnMemo

    memo: TurnMemo[dict[str, int]] = TurnMemo(most=2)
    memo.put(1, 5, {"france": 1})
    memo.put(2, 5, {"italy": -1})
    assert memo.get(1, 5) == {"france": 1}  # game 1 is now the most recent
    memo.put(3, 2, {})
    assert memo.get(2, 5) is None and memo.get(1, 5) == {"france": 1}
    assert memo.get(1, 6) is None
