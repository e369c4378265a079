"""A variant designer's own file, played from the command line.

``check-variant`` accepted such a file while ``new`` and ``demo`` refused it
("unknown variant") and a game saved with it could not be loaded. The files
here are real designer files: a copy of Standard under another name with
France renamed Gaul, and a derived variant (``[derive] base = "standard"``).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from standoff import storage
from standoff.cli import cli
from standoff.core.errors import CorruptGameError, VariantError
from standoff.core.variant import available_variants, load_variant

DERIVED = """\
[variant]
name = "gaul-derived"
title = "Gaul Derived"

[derive]
base = "standard"

[powers.france]
name = "Gaul"
adjective = "Gallic"
"""


def _bundled(name: str) -> Path:
    return available_variants()[name]


def run(*args: str) -> Result:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        repr(result.exception))
    assert "Traceback" not in result.output
    return result


def _copy_of_standard(path: Path, name: str = "gaul-standard") -> Path:
    """standard.toml with the variant renamed and France called Gaul."""
    text = _bundled("standard").read_text(encoding="utf-8")
    text = text.replace('name = "standard"', f'name = "{name}"', 1)
    text = text.replace('title = "Standard Diplomacy"', 'title = "Gaul Diplomacy"', 1)
    text = text.replace('aliases = ["classical", "std"]', "aliases = []", 1)
    text = text.replace('name = "France"', 'name = "Gaul"', 1)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def own(tmp_path: Path) -> Path:
    return _copy_of_standard(tmp_path / "gaul.toml")


@pytest.fixture
def derived(tmp_path: Path) -> Path:
    path = tmp_path / "derived.toml"
    path.write_text(DERIVED, encoding="utf-8")
    return path


@pytest.mark.parametrize("flag", ["--variant-file", "--variant"])
def test_a_checked_file_is_played_through_the_cli(own: Path, tmp_path: Path, flag: str) -> None:
    assert run("check-variant", str(own)).exit_code == 0
    game = str(tmp_path / "g.json")
    made = run("new", game, flag, str(own))
    assert made.exit_code == 0, made.output
    assert "new Gaul Diplomacy game" in made.output
    sent = run("orders", game, "Gaul", "A PAR - BUR", "Gaul: A MAR - SPA")
    assert sent.exit_code == 0, sent.output
    assert run("orders", game, "germany", "A MUN - RUH").exit_code == 0
    processed = run("process", game)
    assert processed.exit_code == 0, processed.output
    shown = run("show", game)
    assert shown.exit_code == 0
    assert "Gaul" in shown.output and "Fall 1901" in shown.output
    g = storage.load(game)
    assert g.variant.name == "gaul-standard"
    assert {str(u) for u in g.position.units_of("france")} >= {"A BUR", "A SPA"}
    # no drawing exists for a map of one's own: a clear error, not a traceback
    drawn = run("render", game, "-o", str(tmp_path / "m.svg"))
    assert drawn.exit_code == 2 and "no map drawing for Gaul Diplomacy" in drawn.output


def test_the_save_keeps_path_digest_and_text(own: Path, tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    assert run("new", str(game), "--variant-file", str(own)).exit_code == 0
    kept = json.loads(game.read_text(encoding="utf-8"))["game"]["variant_file"]
    assert kept["path"] == str(own.resolve())
    assert kept["text"] == own.read_text(encoding="utf-8")
    assert len(kept["sha256"]) == 64


def test_the_game_outlives_its_file_moving(own: Path, tmp_path: Path) -> None:
    game = str(tmp_path / "g.json")
    assert run("new", game, "--variant-file", str(own)).exit_code == 0
    own.rename(tmp_path / "elsewhere.toml")
    sent = run("orders", game, "gaul", "A PAR - BUR")
    assert sent.exit_code == 0 and "warning" not in sent.output
    assert run("process", game).exit_code == 0


def test_a_changed_file_is_noticed_and_the_kept_copy_played(own: Path, tmp_path: Path) -> None:
    game = str(tmp_path / "g.json")
    assert run("new", game, "--variant-file", str(own)).exit_code == 0
    own.write_text(own.read_text(encoding="utf-8").replace('"Gaul"', '"Frankia"'),
                   encoding="utf-8")
    shown = run("show", game)
    assert shown.exit_code == 0
    assert (f"warning: the variant file {own.resolve()} has changed since {game} was "
            f"started; playing the copy kept in {game}") in shown.output
    assert "Gaul" in shown.output and "Frankia" not in shown.output
    sent = run("orders", game, "gaul", "A PAR - BUR")
    assert sent.exit_code == 0 and "warning:" in sent.output


def test_a_derived_file_plays_and_draws_on_its_base_map(derived: Path, tmp_path: Path) -> None:
    game = str(tmp_path / "g.json")
    assert run("new", game, "--variant", str(derived)).exit_code == 0
    assert run("orders", game, "gaul", "A PAR - BUR").exit_code == 0
    assert run("process", game).exit_code == 0
    svg = tmp_path / "m.svg"
    drawn = run("render", game, "-o", str(svg))
    assert drawn.exit_code == 0, drawn.output
    assert svg.read_text(encoding="utf-8").startswith("<svg")
    derived.unlink()  # the derivation is kept with the game, as the text is
    assert run("render", game, "-o", str(svg)).exit_code == 0


@pytest.mark.parametrize("form", ["own", "derived"])
def test_demo_plays_a_file(own: Path, derived: Path, form: str) -> None:
    path = own if form == "own" else derived
    result = run("demo", "--variant", str(path), "--max-year", "1903", "-q")
    assert result.exit_code == 0, result.output
    assert "phases played" in result.output


def test_a_file_calling_itself_by_a_bundled_name_is_refused(tmp_path: Path) -> None:
    """Registered under "standard" it would stand in for Standard everywhere after."""
    plain = tmp_path / "plain.toml"
    shutil.copy(_bundled("standard"), plain)
    result = run("new", str(tmp_path / "g.json"), "--variant-file", str(plain))
    assert result.exit_code == 2
    assert "calls its variant 'standard', the name of a bundled variant" in result.output
    nameless = tmp_path / "nameless.toml"
    nameless.write_text('[derive]\nbase = "standard"\n', encoding="utf-8")
    assert "name of a bundled variant" in run(
        "new", str(tmp_path / "g.json"), "--variant-file", str(nameless)).output
    assert not (tmp_path / "g.json").exists()


@pytest.mark.parametrize(("content", "message"), [
    (None, "no variant file at"),
    ("this is [not toml", "cannot read variant file"),
    ('[variant]\nname = "x"\n', "malformed"),
])
def test_unusable_files_exit_2(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "v.toml"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = run("new", str(tmp_path / "g.json"), "--variant-file", str(path))
    assert result.exit_code == 2 and message in result.output
    assert run("demo", "--variant", str(path)).exit_code == 2


def test_both_variant_flags_at_once_is_refused(own: Path, tmp_path: Path) -> None:
    result = run("new", str(tmp_path / "g.json"), "--variant", "sahara",
                 "--variant-file", str(own))
    assert result.exit_code == 2 and "not both" in result.output


def test_a_bundled_file_by_its_path_is_the_bundled_variant(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    assert run("new", str(game), "--variant", str(_bundled("sahara"))).exit_code == 0
    body = json.loads(game.read_text(encoding="utf-8"))["game"]
    assert body["variant"] == "sahara" and "variant_file" not in body


def test_a_tampered_kept_variant_is_refused(own: Path, tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    assert run("new", str(game), "--variant-file", str(own)).exit_code == 0
    doc = json.loads(game.read_text(encoding="utf-8"))
    doc["game"]["variant_file"]["text"] += "\n# edited\n"
    body = json.dumps(doc["game"], sort_keys=True, separators=(",", ":"))
    doc["checksum"] = "sha256:" + hashlib.sha256(body.encode()).hexdigest()
    game.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CorruptGameError, match="does not match its digest"):
        storage.load(game)
    assert run("show", str(game)).exit_code == 4


def test_read_variant_file_registers_by_name(own: Path) -> None:
    v = storage.read_variant_file(own)
    assert load_variant("gaul-standard") is v
    assert v.source is not None and v.source.path == str(own.resolve())
    with pytest.raises(VariantError):
        storage.read_variant_file(own.with_name("missing.toml"))
