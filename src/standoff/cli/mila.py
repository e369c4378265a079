"""``standoff mila import`` and ``standoff mila export``: MILA's saved-game JSON.

``import`` reads a game saved by MILA's ``diplomacy`` package (or a JSON lines
file of them, as the public archives ship), replays every phase through
standoff and says how many phases agree; ``--report`` lists each disagreement
with its cause and DATC rule; ``-o`` saves the game as a standoff game file.
``export`` writes a standoff game file in MILA's format. The work is the
``standoff.mila`` wing's; this module only reads arguments and prints.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from standoff import Options, StandoffError, storage
from standoff.mila import Replay, read_saved_games, replay, tally, to_saved_game

from .app import cli, friendly


@cli.group()
def mila() -> None:
    """MILA JSON interop: import (replay and compare) and export games."""


@mila.command("import")
@click.argument("game", type=click.Path())
@click.option("--report", is_flag=True, help="List every disagreement with its DATC reason.")
@click.option("--json", "as_json", is_flag=True, help="Print the replay report as JSON.")
@click.option("--game", "game_id", metavar="ID", help="Only the game with this id.")
@click.option("-o", "--output", type=click.Path(),
              help="Save the game as a standoff game file (one game only).")
@click.option("--force", is_flag=True, help="Overwrite the -o file if it exists.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="Replay under a rule option, e.g. civil_disorder=1982 (MILA's removals).")
@friendly
def import_(game: str, report: bool, as_json: bool, game_id: str | None, output: str | None,
            force: bool, options: tuple[str, ...]) -> None:
    """Replay a MILA saved game (JSON or JSON lines) through standoff and compare."""
    games = read_saved_games(game)
    if game_id is not None:
        games = [g for g in games if g.id == game_id]
        if not games:
            raise StandoffError(f"{game}: no game with id {game_id!r}")
    if output is not None and len(games) != 1:
        raise StandoffError(f"{game}: {len(games)} games; -o saves one (choose with --game)")
    rules = Options.parse(list(options))
    replays = [replay(g, rules) for g in games]
    if as_json:
        click.echo(json.dumps([r.to_dict() for r in replays], indent=1))
    else:
        for r in replays:
            click.echo(r.report() if report else _summary(r))
        if len(replays) > 1:
            compared = sum(r.compared for r in replays)
            differ = sum(len(r.disagreements) for r in replays)
            click.echo(f"{len(replays)} games: {tally(compared, compared - differ, differ)}")
    if output is not None:
        storage.create(replays[0].record, output, overwrite=force)
        click.echo(f"saved {output}")


def _summary(r: Replay) -> str:
    causes = sorted({d.cause for d in r.disagreements})
    why = f" ({', '.join(causes)})" if causes else ""
    return f"{r.game.where()}: {tally(r.compared, r.agreed, len(r.disagreements))}{why}"


@mila.command("export")
@click.argument("game", type=click.Path())
@click.option("-o", "--output", type=click.Path(), required=True,
              help="The MILA saved game to write (JSON, one line as MILA writes it).")
@click.option("--id", "game_id", default=None, help="The game id (default: the file's name).")
@friendly
def export(game: str, output: str, game_id: str | None) -> None:
    """Write a standoff game file as a MILA saved game (for MILA's tools and pydipcc)."""
    record = storage.load_record(game)
    data = to_saved_game(record, game_id or Path(game).stem)
    Path(output).write_text(json.dumps(data) + "\n", encoding="utf-8")
    click.echo(f"wrote {output}: {len(data['phases'])} phases")
