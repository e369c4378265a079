"""Alembic migrations of the judge's database, shipped with the package and run by
``standoff serve`` at start (``standoff.judge.db.migrate``). A migration may add
and transform, never drop data: ``tests/test_judge_migrations.py`` checks."""
