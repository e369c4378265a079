"""Alembic's entry point: migrate the connection ``standoff.judge.db.migrate`` hands over.

The judge never runs Alembic from an ini file: ``migrate()`` opens the
transaction (holding the migration lock) and passes its connection here. Run by
hand (``alembic`` with a config whose ``sqlalchemy.url`` is set), it connects
itself, which is how a developer autogenerates a new revision.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from standoff.judge.models import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=connection.dialect.name == "sqlite",
                          compare_type=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(str(config.get_main_option("sqlalchemy.url")))
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata,
                          render_as_batch=conn.dialect.name == "sqlite", compare_type=True)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("the judge's migrations run online only")
run()
