"""Create the benchmark's own environment, ``.bench-venv`` at the repository root.

    python3 benchmarks/setup_env.py            # create it, or bring it up to date
    python3 benchmarks/setup_env.py --fresh    # delete it and start again

It is a plain venv with standoff installed editable and the packages in
``benchmarks/requirements.txt`` (the ``diplomacy`` 1.1.2 reference engine). The
``diplomacy`` package is AGPL-3.0, so it lives only here: standoff never
depends on it or imports it, and ``.bench-venv`` is gitignored.

``benchmarks/adjudication.py`` calls :func:`ensure` itself when it is started by
an interpreter that lacks ``diplomacy``, so running this script first is
optional. Uses only the standard library.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BENCH_VENV = ROOT / ".bench-venv"
REQUIREMENTS = HERE / "requirements.txt"
#: an sdist of diplomacy 1.1.2 kept here on some machines; used only if present
LOCAL_SDISTS = Path("/tmp/dipwheel")


def python_path(env: Path = BENCH_VENV) -> Path:
    return env / "bin" / "python"


def _ready(env: Path) -> bool:
    py = python_path(env)
    if not py.exists():
        return False
    probe = "import diplomacy, standoff, sys; sys.exit(0)"
    return subprocess.run([str(py), "-c", probe], capture_output=True).returncode == 0


def ensure(fresh: bool = False, quiet: bool = False) -> Path:
    """Make sure ``.bench-venv`` exists with standoff and diplomacy; return its python."""
    env = BENCH_VENV
    if fresh and env.exists():
        shutil.rmtree(env)
    if not fresh and _ready(env):
        if not quiet:
            print(f"{env} is ready")
        return python_path(env)
    print(f"creating {env} (standoff editable + {REQUIREMENTS.name}) ...", flush=True)
    venv.EnvBuilder(with_pip=True, clear=not _usable_python(env)).create(env)
    cmd = [str(python_path(env)), "-m", "pip", "install", "--quiet",
           "-e", str(ROOT), "-r", str(REQUIREMENTS)]
    if LOCAL_SDISTS.is_dir():
        cmd += ["--find-links", str(LOCAL_SDISTS)]
    subprocess.run(cmd, check=True)
    if not _ready(env):
        sys.exit(f"{env} was built but cannot import diplomacy and standoff")
    print(f"{env} is ready")
    return python_path(env)


def _usable_python(env: Path) -> bool:
    py = python_path(env)
    return py.exists() and subprocess.run([str(py), "-c", "pass"],
                                          capture_output=True).returncode == 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fresh", action="store_true", help="delete .bench-venv and rebuild it")
    args = ap.parse_args()
    py = ensure(fresh=args.fresh)
    print(f"run the benchmark with:  {py.relative_to(ROOT)} benchmarks/adjudication.py")


if __name__ == "__main__":
    main()
