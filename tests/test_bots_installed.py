"""Bots of other packages (the bots' contract, docs/bots-contract.md: "A program may
pass any object with such an ``orders`` method wherever the project takes a bot
(self-play, environments, the judge's bot runner)"). A distribution names its bots
in the ``standoff.bots`` entry-point group; ``standoff.bots`` then offers them after
the bundled ones, and the judge seats them by name like any other, its workers
asking them in their bounded child processes. Both databases for the judge.

The distribution here is real packaging metadata on ``sys.path`` (a
``*.dist-info`` folder with ``entry_points.txt``), as ``pip install`` would leave it.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge_fixtures import ServerProcess
from standoff import GameRecord, bots

#: a third party's bot: every unit holds; nothing to say in other phases
MODULE = '''
"""A bot from outside standoff: it holds."""

from standoff import GameRecord


class HoldingBot:
    name = "holder"
    description = "Holds every unit, every turn."

    def __init__(self, *, seed=None, patience=1):
        self.seed = seed
        self.patience = patience

    def orders(self, record: GameRecord, power: str) -> list[str]:
        if record.position.phase.kind.value != "M":
            return []
        return [f"{u} H" for u in record.position.units if u.power == power]


NOT_A_BOT = 3
'''


BROKEN = "raise RuntimeError('this module cannot be imported')\n"


def install(folder: Path, entries: dict[str, str]) -> Path:
    """A distribution ``standoff-holder`` in ``folder`` naming ``entries`` (name ->
    ``module:object``) as bots, with the module above."""
    (folder / "standoff_holder.py").write_text(MODULE)
    (folder / "standoff_broken.py").write_text(BROKEN)
    info = folder / "standoff_holder-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: standoff-holder\n"
                                   "Version: 1.0\n")
    lines = "\n".join(f"{name} = {value}" for name, value in entries.items())
    (info / "entry_points.txt").write_text(f"[standoff.bots]\n{lines}\n")
    return folder


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = install(tmp_path, {"holder": "standoff_holder:HoldingBot",
                                "heuristic": "standoff_holder:HoldingBot",
                                "broken": "standoff_holder:NOT_A_BOT",
                                "crashing": "standoff_broken:Bot"})
    monkeypatch.syspath_prepend(str(folder))
    yield folder


def test_an_installed_bot_is_offered_after_the_bundled_ones(installed: Path) -> None:
    """Named after the bundled bots, alphabetically; a bundled name is never taken
    (the package's "heuristic" is ignored), an entry that is no bot is not offered,
    and each is described by its own sentence."""
    assert bots.names() == [*bots.BUNDLED, "holder"]
    described = {b["name"]: b["description"] for b in bots.describe()}
    assert described["holder"] == "Holds every unit, every turn."
    assert type(bots.load("heuristic")).__module__ == "standoff.bots.heuristic"


def test_an_installed_bot_is_loaded_and_plays(installed: Path) -> None:
    bot = bots.load("holder", seed=4, patience=2)
    record = GameRecord.new("standard")
    assert sorted(bot.orders(record, "france")) == ["A MAR H", "A PAR H", "F BRE H"]


def test_an_installed_entry_that_is_no_bot_is_refused_with_a_sentence(
        installed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match=r"'broken'.*not callable"):
        bots.load("broken")
    with pytest.raises(ValueError, match=r"unknown bot 'nobody'.*holder"):
        bots.load("nobody")
    with pytest.raises(ValueError, match=r"'crashing'.*RuntimeError: this module cannot"):
        bots.load("crashing")  # a module that raises anything on import: a sentence
    with pytest.raises(ValueError, match=r"'holder' refused its settings \['colour'\]"):
        bots.load("holder", colour="red")
    (installed / "standoff_holder.py").unlink()  # the package's module gone
    monkeypatch.delitem(sys.modules, "standoff_holder", raising=False)
    importlib.invalidate_caches()
    assert "holder" not in bots.names()
    with pytest.raises(ValueError, match=r"'holder'.*cannot be loaded"):
        bots.load("holder")


def test_the_judge_seats_an_installed_bot(db_url: str, tmp_path: Path,
                                          servers: list[ServerProcess]) -> None:
    """The judge offers it (``GET /bots``), seats it at creation, and its workers ask
    it in their child processes: its holds are the phase's orders."""
    folder = install(tmp_path, {"holder": "standoff_holder:HoldingBot"})
    path = os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    server = ServerProcess(db_url, None, (), None, PYTHONPATH=path).start()
    servers.append(server)
    api = server.client()
    me = api.signup()
    offered = {b["name"]: b["description"] for b in api.json("GET", "/bots", me)}
    assert offered["holder"] == "Holds every unit, every turn."
    game = api.new_game(me, power="england", fill_bot="holder", join_seconds=0)
    assert {v["bot"] for p, v in game["powers"].items() if p != "england"} == {"holder"}
    gid = game["id"]
    from test_judge_bots import bots_ready, wait_for

    wait_for(api, gid, me, bots_ready("england"), what="the installed bots ready")
    api.json("PUT", f"/games/{gid}/orders", me, {"orders": ["F LON - NTH"]})
    assert api.json("POST", f"/games/{gid}/ready", me, {"ready": True})["processed"]
    first = api.json("GET", f"/games/{gid}/phases", me)[0]
    assert sorted(first["orders"]["france"]) == ["A MAR H", "A PAR H", "F BRE H"]
    assert first["bots"]["france"] == "holder"



def test_the_commands_take_an_installed_bot_by_name(installed: Path, tmp_path: Path) -> None:
    """``standoff playtest --bot holder`` plays it at every seat: nothing moves, so
    both games of one year end in the year limit's draw."""
    import json

    from click.testing import CliRunner

    from standoff.cli import cli

    out = tmp_path / "report.json"
    done = CliRunner().invoke(cli, ["playtest", "standard", "--games", "2", "--bot", "holder",
                                    "--max-year", "1901", "--json", str(out)])
    assert done.exit_code == 0, done.output
    report = json.loads(out.read_text())
    assert report["games"] == 2 and report["ends"].get("draw") == 2, report["ends"]
