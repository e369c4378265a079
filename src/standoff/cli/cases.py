"""``standoff cases``: run adjudication case files."""

from __future__ import annotations

import sys

import click

from standoff.cases import run_files

from .app import cli, friendly, option_flag, parse_options


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--variant", default=None, help="Override the variant of every case.")
@click.option("--verbose", "-v", is_flag=True, help="Also list passing and skipped cases.")
@option_flag
@friendly
def cases(files: tuple[str, ...], variant: str | None, verbose: bool,
          options: tuple[str, ...]) -> None:
    """Run adjudication case files (jDip/godip format) and report failures.

    Rule options given with -o apply to every case; a case's own OPTIONS win."""
    parse_options(options)  # a bad option is one error up front, not a failure per case
    report = run_files(list(files), variant, verbose, options, echo=click.echo)
    click.echo(report.summary())
    sys.exit(0 if report.failed == 0 else 1)
