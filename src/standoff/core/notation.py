"""Reading orders written the way players write them.

Accepted, case-insensitively, with full names, abbreviations or aliases::

    A PAR - BUR     A Paris -> Burgundy     A par m bur     F stp/sc - bot
    F StP(sc)-Bot   A ven S A tyr-tri       F adr C A tri - apu
    A tri-apu via convoy    Build F stp/nc   Remove A war   Waive
    F tri R alb     F tri disband    A Venice Supports Turkish A Tyrolia
    F North Sea - Belgium    A lon - nth - bel (convoy path, DATC 4.A.6)
    F ion no convert (Sahara rule 2)     A Munich I-Munich II (Twin Earths)
    A Munich* - Bur, A Munich-City - Bur, A Munich-Munich-City (City/Country)

A name may itself contain a hyphen ("Munich-City", "Kiel-I"), and a move may
be written with a bare hyphen between names ("A Munich-City-Burgundy", as
City/Country rule .5x writes "F Brussels-Amsterdam"). So a hyphenated word is
read piece by piece, and at each piece the *longest* known name wins:
"Munich-Munich-City" is Munich, a move, then Munich-City. This is one rule for
every variant; the variant only supplies its names.

A variant may give *hints* for words that are not locations on its map: the
base names of a stacked map ("Munich" in Twin Earths needs "I" or "II"), so
the error says what is missing.

Text that is not an order raises :class:`InvalidOrderError` naming the word
that could not be read. Whether the order is *legal* is not decided here (see
each kind's checks in :mod:`standoff.core.orders` and the questions they share
in :mod:`standoff.core.order_checks`). A coast a province does not have ("bre/ec",
DATC 4.B.6) is dropped here, as the DATC prefers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from .errors import InvalidOrderError, quote
from .geography import UnitType
from .orders import (
    WAIVE,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    NoConvert,
    Order,
    Permit,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
)
from .variant import Variant

# token kinds
_UNIT, _LOC, _KW, _POWER, _COAST = range(5)
# keywords
HOLD, MOVE, SUPPORT, CONVOY, RETREAT, DISBAND, BUILD, REMOVE, WAIVE_KW, VIA, PERMIT, THROUGH = \
    range(12)

_KEYWORDS: Final[dict[str, int]] = {
    **dict.fromkeys(("h", "hold", "holds", "stand", "stands"), HOLD),
    **dict.fromkeys(("-", "m", "move", "moves", "to", "->", "=>", "attack", "attacks"), MOVE),
    **dict.fromkeys(("s", "sup", "supp", "support", "supports"), SUPPORT),
    **dict.fromkeys(("c", "convoy", "convoys", "transport", "transports"), CONVOY),
    **dict.fromkeys(("r", "retreat", "retreats"), RETREAT),
    **dict.fromkeys(("d", "disband", "disbands"), DISBAND),
    **dict.fromkeys(("b", "build", "builds"), BUILD),
    **dict.fromkeys(("remove", "removes"), REMOVE),
    **dict.fromkeys(("waive", "waives"), WAIVE_KW),
    **dict.fromkeys(("via", "by"), VIA),
    **dict.fromkeys(("permit", "permits", "allow", "allows"), PERMIT),
    **dict.fromkeys(("through", "thru", "past"), THROUGH),
}
_UNITS: Final = {"a": UnitType.ARMY, "army": UnitType.ARMY, "f": UnitType.FLEET,
                 "fleet": UnitType.FLEET}
_COASTS: Final = {
    "nc": "nc", "sc": "sc", "ec": "ec", "wc": "wc",
    "north": "nc", "south": "sc", "east": "ec", "west": "wc",
    "n": "nc", "s": "sc", "e": "ec", "w": "wc",
}  # fmt: skip
_WORD_COASTS = ("nc", "sc", "ec", "wc")
_DASHES = re.compile(r"[→–—]")
_OPEN = re.compile(r"[\(\[]")
_CLOSE = re.compile(r"[\)\],;:]")
_SLASH_SPACE = re.compile(r"/\s+")
_STAR = re.compile(r"\s+\*")
_NO_CONVERT = re.compile(r"\s+(no\s+convert|no\s+change|won'?t\s+change|keep\s+fleet|"
                         r"stays?\s+(a\s+)?fleet)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Lexicon:
    """Per-variant word table, built once: word or phrase -> token."""

    words: dict[str, tuple[int, object]]
    #: single-word location names (ids, coast ids, one-word aliases) for the fast path
    locs: dict[str, str]
    #: text -> order already parsed (orders are immutable, so sharing is safe)
    memo: dict[str, Order]
    #: first pieces of names of several pieces (words, and hyphens inside a word),
    #: with the most pieces a name starting there has
    phrase_starts: dict[str, int]
    coasts: dict[str, frozenset[str]]
    #: word or phrase -> why it is not a location here (from the variant)
    hints: dict[str, str]
    #: the most pieces a hint has
    hint_pieces: int


def _lexicon(variant: Variant) -> _Lexicon:
    """The variant's lexicon, built once per variant. A plain dict probe, not
    ``functools.cache``: every order read asks, and a call through the cache's
    wrapper is a generic call the compiled core makes through the interpreter
    (about 650 instructions a call, where the probe costs a few dozen)."""
    lex = _LEXICONS.get(variant)
    if lex is None:
        lex = _LEXICONS[variant] = _build_lexicon(variant)
    return lex


#: variant -> its lexicon (variants hash by identity; a variant lives as long as
#: its registry, so the table is not bounded, as ``functools.cache`` was not)
_LEXICONS: Final[dict[Variant, _Lexicon]] = {}


def _build_lexicon(variant: Variant) -> _Lexicon:
    words: dict[str, tuple[int, object]] = {}
    starts: dict[str, int] = {}

    def add(name: str, token: tuple[int, object]) -> None:
        key = " ".join(name.lower().replace(".", "").split())
        words.setdefault(key, token)
        parts = _pieces(key)
        if len(parts) > 1:
            starts[parts[0]] = max(starts.get(parts[0], 0), len(parts))

    for pid, prov in variant.board.provinces.items():
        for name in (pid, prov.name, *prov.aliases):
            add(name, (_LOC, pid))
    for p in variant.powers.values():
        for name in (p.id, p.name, p.adjective, p.name + "'s", *p.aliases):
            add(name, (_POWER, p.id))
    for w, kw in _KEYWORDS.items():
        words[w] = (_KW, kw)
    for w, u in _UNITS.items():
        words[w] = (_UNIT, u)
    coasts = {pid: frozenset(p.coasts) for pid, p in variant.board.provinces.items()}
    locs = {w: str(v) for w, (k, v) in words.items() if k == _LOC and " " not in w}
    for cs in coasts.values():
        for c in cs:
            locs[c] = c
    hints = {" ".join(k.replace(".", "").split()): m for k, m in variant.hints.items()}
    hint_pieces = max((len(_pieces(k)) for k in hints), default=1)
    return _Lexicon(words, locs, {}, starts, coasts, hints, hint_pieces)


_HYPHEN = re.compile(r"(-)")


def _pieces(key: str) -> list[str]:
    """A name as the tokenizer sees it: its words, each hyphenated word split
    at its hyphens, which stay as pieces ("st petersburg-city" -> st,
    petersburg, -, city)."""
    out: list[str] = []
    for w in key.split():
        if "-" in w and w != "-":
            out.extend(p for p in _HYPHEN.split(w) if p)
        else:
            out.append(w)
    return out


def _join(words: list[str], glued: set[int], start: int, stop: int) -> str:
    """The text of pieces ``start:stop`` as written: glued pieces (parts of
    one hyphenated word) without a space, the others with one."""
    if not glued:  # most orders: no hyphen inside a word
        return " ".join(words[start:stop])
    key = words[start]
    for m in range(start + 1, stop):
        key += words[m] if m in glued else " " + words[m]
    return key


def _normalise(text: str) -> str:
    """Lower-case; brackets and slashes become coast markers ``/x``; dots and
    punctuation go; arrows and dashes become ``-``."""
    s = text.lower()
    if not s.isascii():
        s = _DASHES.sub("-", s)
    s = s.replace("->", " - ").replace("=>", " - ")
    if "*" in s:
        s = _STAR.sub("*", s)  # "Munich *" is "Munich*"
    s = _OPEN.sub(" /", s)
    s = _CLOSE.sub(" ", s).replace(".", "").replace("/", " /")
    return _SLASH_SPACE.sub("/", s)


def _tokenize(text: str, lex: _Lexicon) -> list[tuple[int, object]]:
    table = lex.words
    words: list[str] = []
    glued: set[int] = set()  # pieces written against the piece before them
    for w in _normalise(text).split():
        if "-" in w and w != "-":  # "munich-city-bur" -> munich - city - bur
            first = True
            for p in _HYPHEN.split(w):
                if p:
                    if not first:
                        glued.add(len(words))
                    words.append(p)
                    first = False
        else:
            words.append(w)
    out: list[tuple[int, object]] = []
    i = 0
    n = len(words)
    while i < n:
        w = words[i]
        after_loc = bool(out) and out[-1][0] == _LOC
        if w.startswith("/"):  # "/nc", "/north" (+ "coast")
            coast = w[1:]
            i += 2 if i + 1 < n and words[i + 1] == "coast" else 1
            out.append((_COAST, _COASTS.get(coast, coast)))
            continue
        if after_loc and w in _COASTS and i + 1 < n and words[i + 1] == "coast":
            out.append((_COAST, _COASTS[w]))  # "bul east coast"
            i += 2
            continue
        if w in _WORD_COASTS:
            out.append((_COAST, w))  # "spa nc"
            i += 1
            continue
        longest = lex.phrase_starts.get(w)
        if longest:  # the longest name starting here wins ("munich-city" before "munich")
            stop = 0
            for j in range(min(i + longest, n), i + 1, -1):
                if words[j - 1] != "-":
                    tok = table.get(_join(words, glued, i, j))
                    if tok is not None:
                        out.append(tok)
                        stop = j
                        break
            if stop:
                i = stop
                continue
        tok = table.get(w)
        if tok is not None:
            out.append(tok)
            i += 1
            continue
        for j in range(min(i + lex.hint_pieces, n), i, -1):
            hint = lex.hints.get(_join(words, glued, i, j))
            if hint is not None:
                raise InvalidOrderError(text, hint)
        raise InvalidOrderError(text, f"unknown word {quote(w)}")
    return _attach_coasts(out, lex, text)


def _attach_coasts(
    tokens: list[tuple[int, object]], lex: _Lexicon, text: str
) -> list[tuple[int, object]]:
    if not any(k == _COAST for k, _ in tokens):
        return tokens
    out: list[tuple[int, object]] = []
    for kind, value in tokens:
        if kind != _COAST:
            out.append((kind, value))
            continue
        if not out or out[-1][0] != _LOC:
            raise InvalidOrderError(text, f"coast {quote(str(value))} does not follow a province")
        prov = str(out[-1][1])
        loc = f"{prov}/{value}"
        # An unknown or irrelevant coast is garbage and ignored (DATC 4.B.6).
        if loc in lex.coasts.get(prov, ()):
            out[-1] = (_LOC, loc)
    return out


class _Reader:
    """A cursor over the tokens with helpful failure messages."""

    __slots__ = ("i", "text", "tokens")

    def __init__(self, text: str, tokens: list[tuple[int, object]]) -> None:
        self.text = text
        self.tokens = tokens
        self.i = 0

    def peek(self) -> tuple[int, object] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take_kw(self, *kws: int) -> int | None:
        t = self.peek()
        if t is not None and t[0] == _KW and t[1] in kws:
            self.i += 1
            return int(t[1])  # type: ignore[call-overload,unused-ignore]
        return None

    def unit(self) -> UnitType | None:
        while (t := self.peek()) is not None and t[0] == _POWER:
            self.i += 1  # nationality in support/convoy orders is ignored (DATC 4.C.5/6)
        t = self.peek()
        if t is not None and t[0] == _UNIT:
            self.i += 1
            return t[1]  # type: ignore[return-value]
        return None

    def power(self) -> str:
        t = self.peek()
        if t is None or t[0] != _POWER:
            got = "the end of the order" if t is None else quote(_describe(t))
            raise InvalidOrderError(self.text, f"expected the power to permit, found {got}")
        self.i += 1
        return str(t[1])

    def loc(self, what: str) -> str:
        t = self.peek()
        if t is None or t[0] != _LOC:
            got = "the end of the order" if t is None else quote(_describe(t))
            raise InvalidOrderError(self.text, f"expected {what}, found {got}")
        self.i += 1
        return str(t[1])

    def end(self) -> None:
        t = self.peek()
        if t is not None:
            raise InvalidOrderError(self.text,
                                    f"unexpected {quote(_describe(t))} after a complete order")


def _describe(token: tuple[int, object]) -> str:
    kind, value = token
    if kind == _KW:
        for word, kw in _KEYWORDS.items():
            if kw == value:
                return word
    return str(value.value if isinstance(value, UnitType) else value)


_FAST_UNITS: Final = {"a": UnitType.ARMY, "f": UnitType.FLEET}


def _fast(words: list[str], locs: dict[str, str]) -> Order | None:
    """The common one-word-per-token notations (``A PAR - BUR``, MILA's ``A PAR B``,
    standoff's own ``BUILD A PAR``, ``REMOVE F LON`` and ``WAIVE``), without the
    general tokenizer: most orders from programs and judges look like this, and
    parsing is a large share of a phase's cost. Returns None when unsure."""
    n = len(words)
    if n < 3:
        return WAIVE if n == 1 and words[0] == "waive" else None
    if n == 3 and (words[0] == "build" or words[0] == "remove"):  # standoff's own
        kind = _FAST_UNITS.get(words[1])
        where = locs.get(words[2])
        if kind is None or where is None:
            return None
        return Build(kind, where) if words[0] == "build" else Remove(kind, where)
    unit = _FAST_UNITS.get(words[0])
    loc = locs.get(words[1])
    if unit is None or loc is None:
        return None
    w2 = words[2]
    if n == 3:
        if w2 == "h":
            return Hold(unit, loc)
        if w2 == "d":
            return Disband(unit, loc)
        if w2 == "b":
            return Build(unit, loc)
        return None
    dest = locs.get(words[3])
    if n == 4:
        if dest is None:
            return None
        if w2 == "-":
            return Move(unit, loc, dest)
        if w2 == "r":
            return Retreat(unit, loc, dest)
        return None
    if w2 == "-" and dest is not None and words[4] == "via" and (
            n == 5 or (n == 6 and words[5] == "convoy")):  # MILA's "VIA", standoff's own
        return Move(unit, loc, dest, True)
    t_unit = _FAST_UNITS.get(words[3])
    target = locs.get(words[4])
    if t_unit is None or target is None:
        return None
    if n == 5 and w2 == "s":
        return SupportHold(unit, loc, t_unit, target)
    if n == 7 and words[5] == "-":
        to = locs.get(words[6])
        if to is None:
            return None
        if w2 == "s":
            return SupportMove(unit, loc, t_unit, target, to)
        if w2 == "c" and t_unit is UnitType.ARMY:
            return Convoy(unit, loc, target, to)
    return None


_MEMO_LIMIT: Final = 100_000


def parse_order(text: str, variant: Variant) -> Order:
    """Parse one order; raise :class:`InvalidOrderError` if it is not one.

    Results are memoised per variant (bounded): programs send the same order
    strings phase after phase, and a lookup is ten times cheaper than a parse.
    """
    lex = _lexicon(variant)
    memo = lex.memo
    order = memo.get(text)
    if order is None:
        order = _parse(text, lex)
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        memo[text] = order
    return order


def _parse(text: str, lex: _Lexicon) -> Order:
    fast = _fast(text.lower().split(), lex.locs)
    if fast is not None:
        return fast
    return _parse_general(text, lex)


def _parse_general(text: str, lex: _Lexicon) -> Order:
    """The general reader, for every notation (the fast path must agree with it)."""
    if not text or not text.strip():
        raise InvalidOrderError(text, "empty order")
    keep = _NO_CONVERT.search(text)
    if keep is not None:
        try:
            tokens = _tokenize(text[: keep.start()], lex)
        except InvalidOrderError as exc:  # report the whole order, not the part read
            raise InvalidOrderError(text, exc.reason) from None
        r = _Reader(text, tokens)
        unit = r.unit()
        loc = r.loc("a fleet's province")
        r.end()
        return NoConvert(unit, loc)
    tokens = _tokenize(text, lex)
    r = _Reader(text, tokens)
    if r.take_kw(WAIVE_KW) is not None:
        r.take_kw(BUILD)
        r.end()
        return WAIVE
    if r.take_kw(PERMIT) is not None:  # "PERMIT ITALY [THROUGH] CAI"
        power = r.power()
        r.take_kw(THROUGH, VIA)
        loc = r.loc("the canal the permission is for")
        r.end()
        return Permit(None, loc, power)
    lead = r.take_kw(BUILD, REMOVE, DISBAND)
    if lead is not None:
        unit = r.unit()
        loc = r.loc("a province to " + ("build in" if lead == BUILD else "remove from"))
        r.end()
        return Build(unit, loc) if lead == BUILD else Remove(unit, loc)
    unit = r.unit()
    loc = r.loc("a unit's province")
    kw = r.take_kw(HOLD, MOVE, SUPPORT, CONVOY, RETREAT, DISBAND, BUILD, REMOVE, PERMIT)
    if kw == PERMIT:  # "CAI PERMIT ITALY"
        power = r.power()
        r.end()
        return Permit(None, loc, power)
    if kw is None:
        t = r.peek()
        if t is None:
            return Hold(unit, loc)  # a bare unit holds
        if t[0] == _LOC:
            kw = MOVE  # "A par bur": the dash was left out
        else:
            raise InvalidOrderError(text, f"expected an order type after {loc.upper()}, "
                                          f"found {quote(_describe(t))}")
    if kw == HOLD:
        r.end()
        return Hold(unit, loc)
    if kw == MOVE:
        dest = r.loc("a destination")
        path = False
        while r.take_kw(MOVE) is not None:  # "A lon - nth - bel": a convoy path (4.A.6)
            dest = r.loc("a destination")
            path = True
        via = r.take_kw(VIA) is not None
        if via:
            r.take_kw(CONVOY)
        r.end()
        return Move(unit, loc, dest, via or path)
    if kw == RETREAT:
        r.take_kw(MOVE)
        dest = r.loc("a province to retreat to")
        r.end()
        return Retreat(unit, loc, dest)
    if kw in (DISBAND, REMOVE):
        r.end()
        return Disband(unit, loc) if kw == DISBAND else Remove(unit, loc)
    if kw == BUILD:
        r.end()
        return Build(unit, loc)
    if kw == SUPPORT:
        t_unit = r.unit()
        target = r.loc("the supported unit's province")
        if r.take_kw(MOVE) is not None:
            dest = r.loc("the supported move's destination")
            if r.take_kw(VIA) is not None:
                r.take_kw(CONVOY)
            r.end()
            return SupportMove(unit, loc, t_unit, target, dest)
        r.take_kw(HOLD)
        r.end()
        return SupportHold(unit, loc, t_unit, target)
    # CONVOY
    t_unit = r.unit()
    if t_unit is UnitType.FLEET:
        raise InvalidOrderError(text, "only armies can be convoyed")
    target = r.loc("the convoyed army's province")
    if r.take_kw(MOVE) is None:
        raise InvalidOrderError(text, "a convoy order needs the army's move, e.g. 'C A lon - bel'")
    dest = r.loc("the convoy's destination")
    r.end()
    return Convoy(unit, loc, target, dest)
