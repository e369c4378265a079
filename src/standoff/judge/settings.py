"""The judge's settings: one frozen value built from the command line and the environment.

Everything a deployment may tune is here, so the app factory, the scheduler and
the tests share one description of it; ``Settings.from_env()`` is how worker
processes started by uvicorn (``--workers N``) get the parent's configuration,
since they receive nothing but the environment.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field, fields, replace
from typing import Any

#: what ``standoff serve`` uses when given no database: a file in the current directory,
#: created on first start
DEFAULT_DATABASE_URL = "sqlite:///standoff.db"

#: default seconds per phase type when a game gives none
DEFAULT_DEADLINES: dict[str, int] = {"movement": 48 * 3600, "retreat": 24 * 3600,
                                     "adjustment": 24 * 3600}


def parse_address(address: str) -> tuple[str, int]:
    """``HOST:PORT``, ``:PORT`` (loopback) or ``[IPv6]:PORT`` as (host, port): the
    metrics address's one check (here, so settings import nothing of the judge)."""
    host, sep, port = address.strip().rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{address!r} is not HOST:PORT")
    return (host.strip("[]") or "127.0.0.1"), int(port)


def normalise_database_url(url: str) -> str:
    """Accept the usual spellings of a PostgreSQL URL and pick psycopg 3 as the driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


@dataclass(frozen=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    #: seconds between the scheduler's looks for due phases
    poll_interval: float = 1.0
    #: run the scheduler in this process (tests of the API alone may turn it off)
    scheduler: bool = True
    #: request bodies above this many bytes are refused with 413 too_large
    max_body_bytes: int = 64 * 1024
    #: argon2id cost; the defaults are argon2-cffi's (RFC 9106 low-memory profile).
    #: Tests lower them: a password hash then takes a millisecond, not a tenth of a second.
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 65536
    argon2_parallelism: int = 4
    #: log-in throttling: this many failures within the window per client address, and
    #: per username from addresses the account never logged in from, then 429
    login_max_failures: int = 10
    login_window_seconds: int = 300
    #: sign-ups: this many accounts made from one client address within the window, then 429
    signup_max_per_address: int = 10
    signup_window_seconds: int = 3600
    #: argon2 hashes and verifications running at once in each process (each holds
    #: argon2_memory_kib; ``--workers N`` makes it N times this); a request waits this
    #: many seconds for a slot, then gets 503 with Retry-After
    max_concurrent_hashes: int = 2
    hash_wait_seconds: float = 5.0
    #: one-time sign-in codes by e-mail (sign_in_codes.py): a code works this long, and
    #: a page session it made may set a new password without the old one this long
    sign_in_code_seconds: int = 900
    #: wrong codes from one address before the account's code is void there
    sign_in_code_tries: int = 5
    #: codes mailed for one username, and code requests from one address, within the
    #: window (429 after); the window may not exceed a code's life, so whoever uses up
    #: a name's codes leaves its owner holding a code that still works
    sign_in_codes_per_name: int = 3
    sign_in_codes_per_address: int = 10
    sign_in_code_window_seconds: int = 900
    #: how long a page session (cookie) lasts; bearer tokens last until revoked
    session_seconds: int = 14 * 24 * 3600
    #: mark cookies Secure (set when the judge is served over HTTPS)
    secure_cookies: bool = False
    #: addresses and networks (``10.0.0.5``, ``127.0.0.1/32``, ``::1``) of the reverse
    #: proxies whose ``X-Forwarded-For`` the judge believes; empty: nobody's, every client
    #: is the socket's peer (``STANDOFF_TRUSTED_PROXIES``, comma-separated)
    trusted_proxies: tuple[str, ...] = ()
    #: default seconds per phase type
    default_deadlines: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_DEADLINES))
    #: SQLAlchemy pool size per process (PostgreSQL)
    pool_size: int = 10
    #: SQLite's ``synchronous``: FULL (a commit is on disk: an answered order survives
    #: even a power cut; about 10 ms per write on this machine's disk) or NORMAL (WAL
    #: commits survive a killed process but maybe not a power cut; about 2 ms)
    sqlite_synchronous: str = "FULL"
    #: request bodies of ``POST /api/v1/games`` (which may carry a designer's variant
    #: file) may be this large
    max_variant_bytes: int = 1024 * 1024
    #: designers' variant files: checked in a worker process with this much address
    #: space and time (variant_check.py), at most this many at once per server process;
    #: a request waits this long for its turn, then gets 503
    upload_check_memory_mib: int = 1024
    upload_check_seconds: float = 20.0
    upload_checks_at_once: int = 1
    upload_check_wait_seconds: float = 30.0
    #: files one account may have checked by workers per hour, per server process
    upload_checks_per_hour: int = 30
    #: built designers' variants kept in memory per server process (most recently used)
    variants_kept: int = 32
    #: per account and 24 hours: games created with a variant file, and their files' bytes
    uploads_per_day: int = 20
    upload_bytes_per_day: int = 4 * 1024 * 1024
    #: press: at most this many messages per account within the window (429 after)
    press_max_messages: int = 30
    press_window_seconds: int = 60
    #: press: the longest message body, in characters
    press_max_chars: int = 5000
    #: lobby: the forming games one account may master at once (409 after), and the
    #: games it may create in any rolling hour (429 after); 0 turns a limit off
    forming_games_max: int = 10
    games_per_hour: int = 30
    #: e-mail: nothing is sent unless ``smtp_host`` is set
    smtp_host: str = ""
    smtp_port: int = 25
    #: the From address (default: standoff@ the server's host name)
    smtp_from: str = ""
    smtp_user: str = ""
    smtp_password: str = field(default="", repr=False)  # never printed with the settings
    #: upgrade the connection with STARTTLS before logging in (port 587, typically)
    smtp_starttls: bool = False
    smtp_timeout: float = 30.0
    #: a mail that fails is tried this many times in all, waiting this long (doubling)
    mail_attempts: int = 4
    mail_retry_seconds: float = 30.0
    #: deadline reminders go to the powers that have not submitted orders this long
    #: before the deadline, or this fraction of the phase's time if that is shorter
    #: (a one-hour phase is reminded 15 minutes before); 0 turns reminders off
    reminder_seconds: int = 6 * 3600
    reminder_fraction: float = 0.25
    #: the judge's address as players reach it, for links in mails (optional)
    public_url: str = ""
    #: the log's format: text (uvicorn's ``LEVEL:     message``) or json (one object a line)
    log_format: str = "text"
    #: serve Prometheus metrics at http://HOST:PORT/metrics, an address of their own
    #: (never the judge's port); empty: no metrics
    metrics_address: str = ""
    #: bot workers (threads, each with its own bot process) run in this process: they
    #: give the bots' orders (bot_jobs); 0 leaves that to ``standoff worker`` processes
    bot_workers: int = 1
    #: a bot's order set may take this long and this much memory (its process is
    #: killed beyond them and the seat is in civil disorder for the phase)
    bot_seconds: float = 10.0
    bot_memory_mib: int = 2048
    #: a bot's process may take this long to start and build the game's variant before
    #: its bot is timed (a designer's variant passed a check of ``upload_check_seconds``)
    bot_prepare_seconds: float = 30.0
    #: a game's event stream (GET .../events) looks at its game this often (seconds);
    #: each process serves at most ``event_streams_max`` streams, at most
    #: ``event_streams_per_account`` to one account (429 after)
    events_interval: float = 1.0
    #: planning boards: at most this many per account (the oldest goes), and steps each
    boards_per_account: int = 30
    board_steps_max: int = 200
    event_streams_max: int = 500
    event_streams_per_account: int = 8

    def __post_init__(self) -> None:
        object.__setattr__(self, "database_url", normalise_database_url(self.database_url))
        object.__setattr__(self, "trusted_proxies", _networks(self.trusted_proxies))
        if self.sqlite_synchronous.upper() not in ("FULL", "NORMAL"):
            raise ValueError("STANDOFF_SQLITE_SYNCHRONOUS must be FULL or NORMAL")
        if not 0 <= self.reminder_fraction <= 1:
            raise ValueError("STANDOFF_REMINDER_FRACTION must be between 0 and 1")
        if self.mail_attempts < 1:
            raise ValueError("STANDOFF_MAIL_ATTEMPTS must be at least 1")
        if self.log_format not in ("text", "json"):
            raise ValueError("STANDOFF_LOG_FORMAT must be text or json")
        if not 0 < self.sign_in_code_window_seconds <= self.sign_in_code_seconds:
            raise ValueError("STANDOFF_SIGN_IN_CODE_WINDOW_SECONDS must be positive and at "
                             "most STANDOFF_SIGN_IN_CODE_SECONDS (else whoever uses up a "
                             "name's codes leaves its owner without one that works)")
        if min(self.sign_in_code_tries, self.sign_in_codes_per_name,
               self.sign_in_codes_per_address) < 1:
            raise ValueError("STANDOFF_SIGN_IN_CODE_TRIES, STANDOFF_SIGN_IN_CODES_PER_NAME "
                             "and STANDOFF_SIGN_IN_CODES_PER_ADDRESS must be at least 1")
        if self.metrics_address:
            parse_address(self.metrics_address)
        if (self.bot_workers < 0 or self.bot_seconds <= 0 or self.bot_prepare_seconds <= 0
                or self.bot_memory_mib < 256):
            raise ValueError("STANDOFF_BOT_WORKERS must be at least 0, STANDOFF_BOT_SECONDS "
                             "and STANDOFF_BOT_PREPARE_SECONDS positive and "
                             "STANDOFF_BOT_MEMORY_MIB at least 256")

    @property
    def mail_enabled(self) -> bool:
        """Mail is sent only when an SMTP server is configured."""
        return bool(self.smtp_host)

    def reminder_before(self, phase_seconds: float) -> float:
        """How many seconds before the deadline a phase of this length is reminded
        (0: never)."""
        if self.reminder_seconds <= 0 or self.reminder_fraction <= 0:
            return 0.0
        return min(float(self.reminder_seconds), self.reminder_fraction * phase_seconds)

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    def to_env(self) -> dict[str, str]:
        """The environment that makes :meth:`from_env` rebuild these settings."""
        out: dict[str, str] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "default_deadlines":
                text = ",".join(f"{k}={v}" for k, v in value.items())
            elif isinstance(value, bool):
                text = "1" if value else "0"
            elif isinstance(value, tuple):
                text = ",".join(value)
            else:
                text = str(value)
            out[_env_name(f.name)] = text
        return out

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from ``STANDOFF_*`` variables (``STANDOFF_DATABASE_URL``, ...)."""
        env = dict(os.environ if environ is None else environ)
        values: dict[str, Any] = {}
        defaults = cls()
        for f in fields(cls):
            raw = env.get(_env_name(f.name))
            if raw is None or raw == "":
                continue
            try:
                values[f.name] = _parse(f.name, raw, getattr(defaults, f.name))
            except ValueError as exc:
                raise ValueError(f"{_env_name(f.name)}={raw!r} is not valid: {exc}") from exc
        values.update(overrides)
        return cls(**values)


def _parse(name: str, raw: str, default: Any) -> Any:
    """One setting's value from its variable's text, typed like its default."""
    if name == "default_deadlines":
        parsed = dict(default)
        for item in raw.split(","):
            key, _, secs = item.partition("=")
            if key.strip() not in parsed:
                raise ValueError(f"unknown phase type {key.strip()!r}")
            parsed[key.strip()] = int(secs)
        return parsed
    if isinstance(default, bool):
        return raw.strip().lower() in ("1", "true", "yes", "on")
    if isinstance(default, tuple):
        return tuple(item for item in raw.replace(",", " ").split() if item)
    if isinstance(default, int):
        return int(raw)
    if isinstance(default, float):
        return float(raw)
    return raw


def _networks(items: tuple[str, ...] | list[str] | str) -> tuple[str, ...]:
    """Trusted proxies checked once, at start, and kept in one spelling
    (``10.0.0.5/32``), so a typo stops the judge rather than trusting nobody silently."""
    if isinstance(items, str):
        items = tuple(items.replace(",", " ").split())
    try:
        return tuple(str(ipaddress.ip_network(item.strip(), strict=False)) for item in items)
    except ValueError as exc:
        raise ValueError(f"STANDOFF_TRUSTED_PROXIES: {exc}") from exc


def _env_name(name: str) -> str:
    return "STANDOFF_" + name.upper()
