"""Checking a designer's variant file, in a worker process bounded in time and memory.

A variant file is checked exactly as ``standoff check-variant`` checks it (the
core's loader, then :func:`standoff.check_variant`), plus what the judge needs
of its names. The core already refuses a variant too large *as derived*
before building it (:mod:`standoff.core.limits`), but reading a file near
those bounds still costs seconds of CPU (a 739 KiB file took 3.7 s), and a
judge must not spend them in a server process: that is time every other
request waits for, and memory the process keeps. So the check runs in a
child process (``python -m standoff.judge.variant_check``, the text on its
standard input, the verdict as JSON on its output) with an address-space
limit and a CPU limit (set with ``prlimit`` before it is given the text:
Linux), killed at a wall-clock deadline; the server only
waits for it, holding no lock of the database. How many checks run at once
is bounded by the caller (:class:`~standoff.judge.variants.VariantStore`).

Names: a variant's name and aliases are how players and the lobby know it,
so the judge takes one canonical form of each (:func:`canonical`: trimmed,
lower case) and refuses names that are not already trimmed or that hold
anything but letters, digits, spaces and ``_ . ' -``. ``"poisonbase "`` and
``"poisonbase"`` can therefore never be two names.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from typing import Any

#: where an uploaded variant says it came from (in the engine's messages)
UPLOAD_PATH = "uploaded variant file"
#: the longest variant or power name the judge's tables hold
MAX_NAME = 40
_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9 _.'-]*[A-Za-z0-9.'])?$")


def canonical(name: str) -> str:
    """The one form of a variant name on this judge: trimmed, lower case."""
    return name.strip().lower()


@dataclass(frozen=True)
class Verdict:
    """What checking a variant file found: its problems, or what the judge keeps."""

    problems: list[str]
    name: str = ""
    #: its name and aliases, canonical: the names it takes on this judge
    keys: list[str] = field(default_factory=list)
    power_count: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Verdict:
        data: dict[str, Any] = json.loads(text)
        return cls([str(p) for p in data["problems"]], str(data["name"]),
                   [str(k) for k in data["keys"]], int(data["power_count"]))


def _name_problems(what: str, name: str) -> list[str]:
    if len(name) > MAX_NAME:
        return [f"the {what} {name[:MAX_NAME]!r}... is longer than {MAX_NAME} characters"]
    if not _NAME.match(name):
        return [f"the {what} {name!r} must start and end with a letter or digit and hold "
                "only letters, digits, spaces and _ . ' -"]
    return []


def check_text(text: str) -> Verdict:
    """Read and check a variant file here, in this process (the worker's job)."""
    from standoff import StandoffError, available_variants, check_variant, variant_from_text

    try:
        v = variant_from_text(text, UPLOAD_PATH)
    except StandoffError as exc:
        return Verdict([f"the variant file cannot be read: {exc}"])
    except RecursionError:
        return Verdict(["the variant file is nested too deeply"])
    problems = list(check_variant(v))
    bundled = available_variants()
    for n in (v.name, *v.aliases):
        problems += _name_problems("variant name", n)
        if canonical(n) in bundled:
            problems.append(f"it calls its variant {n!r}, the name of a bundled variant: "
                            "give it a name of its own ([variant] name, aliases)")
    problems += [f"the power id {p[:MAX_NAME]!r}... is longer than {MAX_NAME} characters"
                 for p in v.powers if len(p) > MAX_NAME]
    keys = list(dict.fromkeys(canonical(n) for n in (v.name, *v.aliases)))
    return Verdict(problems, v.name, keys, len(v.powers))


def check_in_worker(text: str, *, seconds: float, memory_mib: int) -> Verdict:
    """Check ``text`` in a child process limited to ``memory_mib`` MiB of address
    space and killed after ``seconds``; a file that needs more is refused with a
    sentence saying which limit it reached."""
    import resource

    cpu = max(1, int(seconds + 0.999))
    size = memory_mib * 1024 * 1024
    env = {k: v for k, v in os.environ.items() if not k.startswith("STANDOFF_")}
    # no preexec_fn (unsafe in a threaded server): the child waits for its input, and
    # its limits are set from here before it gets any
    with subprocess.Popen([sys.executable, "-m", "standoff.judge.variant_check"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=env) as child:
        try:
            resource.prlimit(child.pid, resource.RLIMIT_AS, (size, size))
            resource.prlimit(child.pid, resource.RLIMIT_CPU, (cpu, cpu + 1))
            stdout, stderr = child.communicate(text.encode("utf-8", "surrogatepass"),
                                               timeout=seconds)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            return Verdict([f"checking the variant file took longer than {seconds:g} s: "
                            "make it smaller"])
        except ProcessLookupError:  # it died before its limits were set
            child.kill()
            stdout, stderr = child.communicate()
    code = child.returncode
    out = stdout.decode("utf-8", "replace").strip()
    if code == 0 and out:
        try:
            return Verdict.from_json(out.splitlines()[-1])
        except (ValueError, KeyError, TypeError):
            pass
    err = stderr.decode("utf-8", "replace")
    # out of its address space: Python's MemoryError, or, in the compiled core's C code
    # (its modules may still be loading when the cap is set), a failed allocation that
    # Python reports as "SystemError: error return without exception set"
    if "MemoryError" in err or "without exception set" in err or code in (-9, 137):
        return Verdict([f"checking the variant file needed more than {memory_mib} MiB: "
                        "make it smaller"])
    if code in (-24, 152):  # SIGXCPU
        return Verdict([f"checking the variant file took longer than {seconds:g} s of "
                        "processor time: make it smaller"])
    last = err.strip().splitlines()[-1] if err.strip() else f"exit status {code}"
    return Verdict([f"the variant file could not be checked ({last[:200]})"])


def main() -> None:  # pragma: no cover - run as the worker, measured by the judge's tests
    text = sys.stdin.buffer.read().decode("utf-8", "surrogatepass")
    try:
        verdict = check_text(text)
    except MemoryError:
        print("MemoryError", file=sys.stderr)
        sys.exit(3)
    print(verdict.to_json())


if __name__ == "__main__":  # pragma: no cover
    main()
