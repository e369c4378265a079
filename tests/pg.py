"""A throwaway PostgreSQL server for the judge's tests.

The suite runs every judge test on SQLite and on a real PostgreSQL, which this
module starts itself: it finds ``initdb``/``pg_ctl`` (Debian's
``/usr/lib/postgresql/*/bin``, ``/usr/local/bin`` or the PATH; ``.ci/postgres.sh``
installs Debian's ``postgresql`` package when none is there), creates a
cluster in a temporary directory, starts it on a free port of 127.0.0.1 with
durability turned off (the tests kill judge servers, never this one), and
removes it all at the end. PostgreSQL refuses to run as root, so as root the
cluster belongs to the ``postgres`` user (created when missing) and its
commands run through ``runuser``.

Run alone (``python tests/pg.py``) it starts a server, prints its URL and waits,
for poking at it by hand.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


class PostgresUnavailable(RuntimeError):
    """PostgreSQL could not be found or started (the message says why)."""


def find_bin_dir() -> Path:
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                        key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit()
                        else 0, reverse=True)
    for d in candidates:
        if (Path(d) / "initdb").exists() and (Path(d) / "pg_ctl").exists():
            return Path(d)
    initdb = shutil.which("initdb") or ("/usr/local/bin/initdb"
                                        if Path("/usr/local/bin/initdb").exists() else None)
    if initdb:
        real = Path(initdb).resolve().parent
        if (real / "pg_ctl").exists():
            return real
    raise PostgresUnavailable(
        "no PostgreSQL server binaries (initdb, pg_ctl) found: run .ci/postgres.sh (installs "
        "Debian's postgresql package), or set STANDOFF_TEST_PG=0 to skip the PostgreSQL tests")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PostgresServer:
    def __init__(self) -> None:
        self.bin = find_bin_dir()
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="standoff-pg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root / "sock"
        self.log = self.root / "server.log"
        self.user: str | None = None  # the OS user running the server (None: ourselves)
        self._names = itertools.count(1)

    # -- lifecycle ---------------------------------------------------------------------

    def start(self) -> PostgresServer:
        if os.geteuid() == 0:
            self.user = _server_user()
            os.chmod(self.root, 0o755)
        self.socket_dir.mkdir()
        if self.user:
            ids = pwd.getpwnam(self.user)
            for p in (self.root, self.socket_dir):
                os.chown(p, ids.pw_uid, ids.pw_gid)
        self._run([str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U",
                   "postgres", "-E", "UTF8", "--no-sync", "--locale=C"])
        self.resume()
        return self

    def resume(self) -> None:
        """Start the server of the cluster (again, after :meth:`halt`)."""
        options = (f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                   "-c max_connections=300 -c shared_buffers=64MB")
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
                   "-o", options, "-w", "-t", "60", "start"])
        self._wait()

    def halt(self) -> None:
        """Stop the server as an operator's ``systemctl stop`` would (fast shutdown:
        clients are disconnected), keeping the cluster for :meth:`resume`."""
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"])

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                           "-w", "stop"], check=False)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def _wait(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise PostgresUnavailable(f"PostgreSQL did not answer on port {self.port}: "
                                  f"{self._log_tail()}")

    def _run(self, cmd: list[str], check: bool = True) -> None:
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=self.root, check=False)
        if check and done.returncode != 0:
            raise PostgresUnavailable(
                f"{' '.join(cmd)} failed ({done.returncode}): "
                f"{(done.stderr or done.stdout).strip()[-800:]} {self._log_tail()}")

    def _log_tail(self) -> str:
        try:
            return self.log.read_text()[-800:]
        except OSError:
            return ""

    # -- databases ---------------------------------------------------------------------

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new empty database; its name."""
        import psycopg

        name = f"judge_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return name


def _server_user() -> str:
    """The OS user PostgreSQL runs as when we are root: ``postgres``, created if missing."""
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                        "postgres"], check=True, capture_output=True)
    if shutil.which("runuser") is None:
        raise PostgresUnavailable("running as root without runuser: cannot start PostgreSQL "
                                  "as another user")
    return "postgres"


if __name__ == "__main__":
    server = PostgresServer().start()
    print(server.url(), flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
