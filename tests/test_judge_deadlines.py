"""Deadlines at a fixed clock time (issue 29 section 2: "let a game use fixed clock
times for deadlines, e.g. every day at 20:00 Europe/Paris, as diplicity and
Backstabbr do"): the rule on its own (summer time, a phase begun just before the
hour) and through the API on both databases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from judge_fixtures import make_api
from standoff.judge.clock import fixed_deadline

PARIS = ZoneInfo("Europe/Paris")
DAY = 24 * 3600.0


def paris(*args: int) -> datetime:
    return datetime(*args, tzinfo=PARIS).astimezone(UTC)


def test_a_daily_phase_ends_at_the_next_eight_oclock_in_paris() -> None:
    # begun at 21:00 on 3 March: ends at 20:00 the next day (23 h), in winter time
    assert fixed_deadline(paris(2026, 3, 3, 21, 0), DAY, "20:00", "Europe/Paris") == paris(
        2026, 3, 4, 20, 0)
    # begun at 19:59: not one minute later, the day after (at least half a day)
    assert fixed_deadline(paris(2026, 3, 3, 19, 59), DAY, "20:00", "Europe/Paris") == paris(
        2026, 3, 4, 20, 0)
    # begun at 07:00 with a one-day phase: half a day is 19:00, so 20:00 the same day
    assert fixed_deadline(paris(2026, 3, 3, 7, 0), DAY, "20:00", "Europe/Paris") == paris(
        2026, 3, 3, 20, 0)


def test_the_wall_clock_time_holds_across_summer_time() -> None:
    """Paris moves to summer time on 29 March 2026: 20:00 is 19:00 UTC before and
    18:00 UTC after; the deadline stays at 20:00 on the wall."""
    before = fixed_deadline(paris(2026, 3, 27, 21, 0), DAY, "20:00", "Europe/Paris")
    after = fixed_deadline(paris(2026, 3, 29, 21, 0), DAY, "20:00", "Europe/Paris")
    assert before == datetime(2026, 3, 28, 19, 0, tzinfo=UTC)
    assert after == datetime(2026, 3, 30, 18, 0, tzinfo=UTC)
    assert after.astimezone(PARIS).hour == before.astimezone(PARIS).hour == 20


def test_a_three_day_phase_ends_at_the_hour_on_its_third_day() -> None:
    start = paris(2026, 6, 1, 12, 0)
    assert fixed_deadline(start, 3 * DAY, "20:00", "Europe/Paris") == paris(2026, 6, 4, 20, 0)
    # a one-hour retreat begun at 20:05 ends at the next 20:00 (never within half an hour)
    assert fixed_deadline(paris(2026, 6, 1, 20, 5), 3600, "20:00", "Europe/Paris") == paris(
        2026, 6, 2, 20, 0)


@pytest.mark.usefixtures("db_url")
def test_a_game_with_fixed_deadlines(db_url: str) -> None:
    with make_api(db_url) as api:
        table = api.full_game(deadline_time="20:00", time_zone="Europe/Paris",
                              deadlines={"movement": 86400})
        game = api.game(table)
        assert game["deadline_time"] == "20:00" and game["time_zone"] == "Europe/Paris"
        due = datetime.fromisoformat(game["deadline"]).astimezone(PARIS)
        assert (due.hour, due.minute) == (20, 0)
        assert timedelta(hours=12) <= due - datetime.now(UTC) <= timedelta(hours=36)
        token = api.signup()
        bad = api.call("POST", "/games", token, {"variant": "standard", "name": "x",
                                                 "deadline_time": "20:00",
                                                 "time_zone": "Mars/Olympus"}, expect=400)
        assert "Mars/Olympus" in bad.json()["detail"]
        api.call("POST", "/games", token, {"variant": "standard", "name": "x",
                                           "deadline_time": "25:00"}, expect=400)
        api.call("POST", "/games", token, {"variant": "standard", "name": "x",
                                           "deadline_time": "20:00",
                                           "time_zone": "../../etc/passwd"}, expect=400)
