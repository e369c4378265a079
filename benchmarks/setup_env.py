"""Create the benchmarks' own environments at the repository root.

    python3 benchmarks/setup_env.py            # create .bench-venv, or bring it up to date
    python3 benchmarks/setup_env.py --pure     # the same for .bench-venv-pure
    python3 benchmarks/setup_env.py --fresh    # delete it and start again

Two plain venvs, each with the packages in ``benchmarks/requirements.txt`` (the
``diplomacy`` 1.1.2 reference engine) and standoff:

* ``.bench-venv``: standoff as users install it (``pip install .``), its rules
  core compiled with mypyc (see ``setup.py``). A compiled install does not see
  later edits to the source, so the source's digest is recorded at install
  time and standoff is rebuilt whenever the source has changed since: a
  benchmark never measures stale code.
* ``.bench-venv-pure``: standoff installed editable, never compiled: the pure
  Python core, for the benchmarks' ``--pure`` flag.

The ``diplomacy`` package is AGPL-3.0, so it lives only here: standoff never
depends on it or imports it, and both venvs are gitignored. The benchmarks call
:func:`bootstrap` themselves, so running this script first is optional. Uses
only the standard library.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BENCH_VENV = ROOT / ".bench-venv"
PURE_VENV = ROOT / ".bench-venv-pure"
REQUIREMENTS = HERE / "requirements.txt"
#: an sdist of diplomacy 1.1.2 kept here on some machines; used only if present
LOCAL_SDISTS = Path("/tmp/dipwheel")
#: where the digest of the source a compiled install was built from is kept
STAMP = "standoff-source.sha256"


def env_dir(pure: bool = False) -> Path:
    return PURE_VENV if pure else BENCH_VENV


def python_path(env: Path = BENCH_VENV) -> Path:
    return env / "bin" / "python"


def source_digest() -> str:
    """A digest of everything a compiled install is built from."""
    h = hashlib.sha256()
    files = [ROOT / "setup.py", ROOT / "pyproject.toml"]
    files += sorted(p for p in (ROOT / "src" / "standoff").rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".so")
    for p in files:
        h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def _probe(env: Path) -> str | None:
    """'compiled' or 'pure' if the venv imports diplomacy and standoff, else None."""
    py = python_path(env)
    if not py.exists():
        return None
    probe = "import diplomacy, standoff; print('compiled' if standoff.COMPILED else 'pure')"
    r = subprocess.run([str(py), "-c", probe], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def _pip(env: Path, *args: str, compile_: str) -> None:
    """pip install into ``env``. pip builds in the source tree's ``build/``, which
    keeps files of earlier layouts (they would land in the wheel): a compiled
    install starts from an empty one."""
    if compile_ == "1":
        shutil.rmtree(ROOT / "build", ignore_errors=True)
    cmd = [str(python_path(env)), "-m", "pip", "install", "--quiet", *args]
    if LOCAL_SDISTS.is_dir():
        cmd += ["--find-links", str(LOCAL_SDISTS)]
    subprocess.run(cmd, check=True, env={**os.environ, "STANDOFF_COMPILE": compile_})


def ensure(fresh: bool = False, quiet: bool = False, pure: bool = False) -> Path:
    """Make sure the benchmark venv exists with diplomacy and an up-to-date
    standoff (compiled, or pure with ``pure``); return its python."""
    env = env_dir(pure)
    if fresh and env.exists():
        shutil.rmtree(env)
    state = _probe(env)
    want = "pure" if pure else "compiled"
    stamp = env / STAMP
    digest = source_digest()
    standoff = ["-e", str(ROOT)] if pure else [str(ROOT)]
    if state is None:
        print(f"creating {env} ({REQUIREMENTS.name} + standoff, {want}; about a minute) ...",
              flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(env)
        _pip(env, "-r", str(REQUIREMENTS), *standoff, compile_="0" if pure else "1")
        stamp.write_text(digest)
    elif pure:
        if state != "pure":
            _pip(env, "--force-reinstall", "--no-deps", *standoff, compile_="0")
    elif state != "compiled" or not stamp.exists() or stamp.read_text() != digest:
        print(f"building standoff's compiled core into {env} (about a minute) ...",
              flush=True)
        _pip(env, "--force-reinstall", "--no-deps", *standoff, compile_="1")
        stamp.write_text(digest)
    got = _probe(env)
    if got != want:
        sys.exit(f"{env} was built but standoff there is {got or 'not importable'}, "
                 f"not {want}")
    if not quiet:
        print(f"{env} is ready (standoff {want})")
    return python_path(env)


def bootstrap(script: str) -> None:
    """Run ``script`` (the calling benchmark) in its up-to-date benchmark venv:
    re-execute it there unless this interpreter already is that venv's. The
    venv is ``.bench-venv-pure`` when ``--pure`` is among the arguments."""
    pure = "--pure" in sys.argv[1:]
    py = ensure(quiet=True, pure=pure)
    if Path(sys.prefix).resolve() == env_dir(pure).resolve():
        return
    os.execv(str(py), [str(py), str(Path(script).resolve()), *sys.argv[1:]])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fresh", action="store_true", help="delete the venv and rebuild it")
    ap.add_argument("--pure", action="store_true",
                    help="the pure Python venv (.bench-venv-pure) instead")
    args = ap.parse_args()
    py = ensure(fresh=args.fresh, pure=args.pure)
    flag = " --pure" if args.pure else ""
    print(f"run the benchmark with:  {py.relative_to(ROOT)} benchmarks/adjudication.py{flag}")


if __name__ == "__main__":
    main()
