"""The judge's schema comes from its migrations, which only ever move forward.

* ``alembic upgrade head`` on an empty database gives exactly the models
  (Alembic's own comparison finds no difference), on SQLite and PostgreSQL;
* upgrading again is a no-op that keeps every row;
* no migration drops a table or a column, or runs a raw ``DROP``/``DELETE``/
  ``TRUNCATE`` (a schema change never loses a game).
"""

from __future__ import annotations

import ast
from pathlib import Path

from sqlalchemy import func, select

from judge_fixtures import settings_for

VERSIONS = Path(__file__).resolve().parent.parent / "src/standoff/judge/migrations/versions"


def test_migrations_give_the_models(db_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from standoff.judge.db import Database, current_revision
    from standoff.judge.models import Base

    db = Database(settings_for(db_url))
    try:
        assert current_revision(db.engine) is None
        db.migrate()
        with db.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(context, Base.metadata) == []
        heads = {p.stem.split("_")[0] for p in VERSIONS.glob("[0-9]*.py")}
        assert current_revision(db.engine) == max(heads)
    finally:
        db.dispose()


def test_upgrading_again_keeps_the_data(db_url: str) -> None:
    from standoff.judge.db import Database, utcnow
    from standoff.judge.models import User

    db = Database(settings_for(db_url))
    try:
        db.migrate()
        with db.write() as s:
            s.add(User(username="kept", username_key="kept", email=None, password_hash="x",
                       created_at=utcnow()))
        db.migrate()
        db.migrate()
        with db.read() as s:
            assert s.scalar(select(func.count()).select_from(User)) == 1
    finally:
        db.dispose()


def _calls(tree: ast.AST) -> list[str]:
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            names.append(f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", ""))
    return names


def test_migrations_never_drop_data() -> None:
    files = sorted(VERSIONS.glob("[0-9]*.py"))
    assert files
    for path in files:
        tree = ast.parse(path.read_text())
        upgrade = next(n for n in tree.body if isinstance(n, ast.FunctionDef)
                       and n.name == "upgrade")
        calls = _calls(upgrade)
        dropping = [c for c in calls if c.startswith("drop_") and c != "drop_index"]
        assert not dropping, f"{path.name} drops data: {dropping}"
        for node in ast.walk(upgrade):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                words = node.value.upper().split()
                assert not {"DROP", "DELETE", "TRUNCATE"} & set(words), \
                    f"{path.name} runs {node.value!r}"
