"""What a host of games (the web judge) borrows from the game record.

A concession ends a game in an ordinary win (``Outcome(winner)``), made by
:func:`standoff.concede` beside :func:`standoff.declare_draw` and refused, with
a sentence, for a game already over, an unknown power and a power out of the
game. ``GameRecord.to_dict(history=False, pending=False)`` is the current
state alone (the judge keeps past phases and pending orders in rows of its
own), and ``GameRecord.from_dict`` reads that shape back, the missing parts as
empty; the full JSON is unchanged.
"""

from __future__ import annotations

import pytest

from standoff import (
    GameRecord,
    GameStateError,
    Outcome,
    Position,
    StandoffError,
    VariantError,
    concede,
    declare_draw,
    game_report,
    process_phase,
    submit_orders,
)

#: Italy and Turkey alone in the game: France, Germany and the rest are out
TWO_LEFT = ("S1905M | italy: A VEN; turkey: F ANK | italy: VEN ROM NAP; "
            "turkey: ANK CON SMY | - | -")


def at(text: str) -> GameRecord:
    record = GameRecord.new("standard")
    return GameRecord(record.variant, record.options, Position.from_text(f"standard | {text}"))


# -- concede ------------------------------------------------------------------------------------


def test_a_concession_is_an_ordinary_win() -> None:
    r = submit_orders(GameRecord.new("standard"), "france", ["A PAR - BUR"])
    won = concede(r, "France")  # by name, as a player types it
    assert won.outcome == Outcome("france") and won.winner == "france"
    assert won.is_over and won.draw is None and not won.no_winner
    assert r.outcome is None  # the record it came from is unchanged
    assert won.pending == r.pending and won.position is r.position
    assert won.to_dict()["outcome"] == {"winner": "france"}
    assert GameRecord.from_dict(won.to_dict()).outcome == Outcome("france")
    played, _ = process_phase(r)
    report = game_report(concede(played, "france"))  # reported as any win is
    assert report.winner == "france" and report.draw is None
    assert report.to_text().endswith("game over: France wins (18 supply centres)\n")


def test_a_concession_is_refused_for_a_game_already_over() -> None:
    r = GameRecord.new("standard")
    for ended in (concede(r, "england"), declare_draw(r, ["france", "germany"])):
        with pytest.raises(GameStateError, match=r"^the game is over$"):
            concede(ended, "france")
    with pytest.raises(GameStateError):  # and an ended game cannot go on either
        process_phase(concede(r, "england"))


def test_a_concession_to_an_unknown_power_is_refused_with_the_powers_named() -> None:
    with pytest.raises(VariantError, match="unknown power 'Spain' in Standard") as info:
        concede(GameRecord.new("standard"), "Spain")
    assert "France" in str(info.value)  # the sentence lists the powers there are
    assert isinstance(info.value, StandoffError)


def test_a_concession_to_a_power_out_of_the_game_is_refused() -> None:
    r = at(TWO_LEFT)
    assert concede(r, "turkey").outcome == Outcome("turkey")
    with pytest.raises(GameStateError, match=r"^france is out of the game"):
        concede(r, "france")


# -- the state alone: to_dict(history=False, pending=False) -------------------------------------


def played() -> GameRecord:
    """A game with one phase behind it and an order pending."""
    r, _ = process_phase(submit_orders(GameRecord.new("standard"), "france", ["A PAR - BUR"]))
    return submit_orders(r, "germany", ["A MUN - RUH"])


def test_the_full_json_is_unchanged() -> None:
    r = played()
    data = r.to_dict()
    assert list(data) == ["variant", "options", "history", "position", "orders", "outcome"]
    assert r.to_dict(history=True, pending=True) == data
    assert len(data["history"]) == 1 and data["orders"] == {"germany": ["A MUN - RUH"]}


def test_the_state_without_history_or_pending_orders() -> None:
    r = played()
    full = r.to_dict()
    state = r.to_dict(history=False, pending=False)
    assert list(state) == ["variant", "options", "position", "outcome"]
    assert state == {k: v for k, v in full.items() if k not in ("history", "orders")}
    assert "history" not in r.to_dict(history=False) and "orders" in r.to_dict(history=False)
    assert "orders" not in r.to_dict(pending=False) and "history" in r.to_dict(pending=False)
    ended = concede(r, "germany").to_dict(history=False, pending=False)
    assert ended["outcome"] == {"winner": "germany"}


def test_from_dict_reads_the_state_alone_as_a_game_without_past_or_pending() -> None:
    r = played()
    back = GameRecord.from_dict(r.to_dict(history=False, pending=False))
    assert back.history == () and back.pending.powers == ()
    assert back.position == r.position and back.options == r.options
    assert GameRecord.from_dict(r.to_dict(history=False)).pending == r.pending
    assert GameRecord.from_dict(r.to_dict(pending=False)).history == r.history
    assert GameRecord.from_dict(r.to_dict()) == r
    won = GameRecord.from_dict(concede(r, "germany").to_dict(history=False, pending=False))
    assert won.outcome == Outcome("germany")
