"""``standoff serve`` and what the server publishes: the command, its default
database, several workers, the OpenAPI description and offline ``/docs``, and the
rule that the core never imports the judge."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import httpx
from click.testing import CliRunner

from judge_fixtures import Api, ServerProcess

SRC = Path(__file__).resolve().parent.parent / "src/standoff"
#: every route of the spec
SPEC_ROUTES = [("post", "/api/v1/accounts"), ("post", "/api/v1/tokens"),
               ("get", "/api/v1/variants"), ("post", "/api/v1/games"), ("get", "/api/v1/games"),
               ("post", "/api/v1/games/{game_id}/seats"), ("get", "/api/v1/games/{game_id}"),
               ("get", "/api/v1/games/{game_id}/orders"), ("put", "/api/v1/games/{game_id}/orders"),
               ("get", "/api/v1/games/{game_id}/legal"), ("post", "/api/v1/games/{game_id}/ready"),
               ("get", "/api/v1/games/{game_id}/phases"),
               ("get", "/api/v1/games/{game_id}/map.svg"),
               ("post", "/api/v1/games/{game_id}/master/pause"),
               ("post", "/api/v1/games/{game_id}/master/resume"),
               ("post", "/api/v1/games/{game_id}/master/extend"),
               ("post", "/api/v1/games/{game_id}/master/process"),
               ("post", "/api/v1/games/{game_id}/messages"),
               ("get", "/api/v1/games/{game_id}/messages"),
               ("put", "/api/v1/games/{game_id}/vote")]


def test_openapi_describes_the_spec(api: Api) -> None:
    schema = api.client.get("/openapi.json").json()
    for method, path in SPEC_ROUTES:
        assert method in schema["paths"].get(path, {}), (method, path)
    assert "ErrorBody" in schema["components"]["schemas"]


def test_docs_load_nothing_from_the_internet(api: Api) -> None:
    page = api.client.get("/docs")
    assert page.status_code == 200 and "swagger" in page.text.lower()
    urls = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", page.text)
    urls += re.findall(r"""url\s*:\s*["']([^"']+)["']""", page.text)
    assert urls and all(u.startswith("/") and not u.startswith("//") for u in urls), urls
    assert "https://" not in page.text.replace("https://swagger.io", "")
    for url in urls:
        assert api.client.get(url).status_code == 200, url


def test_serve_help_and_missing_extra() -> None:
    from standoff.cli import cli

    shown = CliRunner().invoke(cli, ["serve", "--help"])
    assert shown.exit_code == 0 and "sqlite:///standoff.db" in shown.output
    code = ("import sys; sys.modules['fastapi'] = None; sys.argv = ['standoff', 'serve']\n"
            "from standoff.cli import main; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == ("error: the judge needs the 'judge' extra: "
                                   "pip install 'standoff[judge]'")


def test_serve_reports_an_unusable_database(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "standoff", "serve", "--database-url",
                           f"sqlite:///{tmp_path}/no/such/dir/x.db"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot open the database")


def test_default_database_is_a_file_made_on_first_start(tmp_path: Path,
                                                         servers: list[ServerProcess]) -> None:
    server = ServerProcess(None, cwd=tmp_path, STANDOFF_DATABASE_URL="")
    servers.append(server)
    server.start()
    assert (tmp_path / "standoff.db").exists()
    token = server.client().signup()
    assert httpx.get(server.url + "/api/v1/account",
                     headers={"Authorization": f"Bearer {token}"}).status_code == 200


def test_several_workers(db_url: str, servers: list[ServerProcess]) -> None:
    server = ServerProcess(db_url, args=("--workers", "2"))
    servers.append(server)
    api = server.start().client()
    table = api.full_game()
    for token in table.players.values():
        api.call("POST", f"/games/{table.id}/ready", token, {"ready": True}, expect=200)
    assert api.game(table)["phase"] == "F1901M"
    assert len(api.phases(table)) == 1
    server.stop()
    assert server.proc is not None and server.proc.returncode == 0


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            found += [base] + [f"{base}.{a.name}" for a in node.names]
    return found


def test_settings_travel_through_the_environment() -> None:
    """Worker processes rebuild the parent's settings from STANDOFF_* variables."""
    import pytest

    from standoff.judge.settings import Settings

    settings = Settings(database_url="postgres://u@h/db", port=9000, scheduler=False,
                        poll_interval=0.5, default_deadlines={"movement": 60, "retreat": 30,
                                                              "adjustment": 30})
    assert settings.database_url == "postgresql+psycopg://u@h/db"
    assert Settings.from_env(settings.to_env()) == settings
    for name, value in [("STANDOFF_PORT", "eighty"), ("STANDOFF_SQLITE_SYNCHRONOUS", "OFF"),
                        ("STANDOFF_DEFAULT_DEADLINES", "build=5")]:
        with pytest.raises(ValueError, match=r"STANDOFF_|FULL"):
            Settings.from_env({name: value})
