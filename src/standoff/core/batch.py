"""Many games stepped together: the batch API for self-play and training.

A program that trains Diplomacy agents plays thousands of games at once, and
what it pays per call (reading order text, checking each order once when it is
submitted and again when the phase is adjudicated, rebuilding the pending
orders power by power) adds up to a fifth of a random game's time.
:class:`GameBatch` holds N games as :class:`~standoff.GameRecord` values and
moves every live one on by one phase per call:

* :meth:`GameBatch.legal_orders` gives the legal orders of every live game;
* :meth:`GameBatch.step` adjudicates every live game's phase with the orders
  given (checked as :func:`~standoff.submit_orders` checks them, all or
  nothing for the whole batch);
* :meth:`GameBatch.step_random` picks one random legal order per unit for
  every live game (as :func:`~standoff.random_orders` does) and adjudicates.
  Orders that come straight from the legal-order generator need no checking
  on submission, so they are set as the pending orders as they are; the
  adjudicator still checks every order it is given, so nothing illegal can
  slip through. A batch game is the same record, value for value, as the
  game played one phase at a time through the record API with the same
  orders (``tests/test_selfplay.py`` holds it to that).

A game is over when the variant's victory rule says so, or when it reaches a
cap the caller sets (``max_year``: the last year played; ``max_phases``: the
most phases processed), since random play must end. A capped game with two
or more survivors ends in a draw shared by them, as ``standoff demo`` ends
its games, so every finished record carries its outcome.

Random play is reproducible: :func:`game_rng` seeds a game's generator from
the run's seed and the game's index, so a game is the same whichever batch,
worker process or machine plays it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from .errors import GameStateError
from .legal_orders import LegalOrders, legal_orders, random_orders
from .options import DEFAULT, Options
from .orders import Order
from .pending import PendingOrders, PowerOrders
from .record import (
    GameRecord,
    declare_draw,
    process_phase,
    submit_orders,
    surviving_powers,
)
from .variant import Variant, load_variant

#: one game's orders for a step: power -> its orders (text or order values)
GameOrders = Mapping[str, Iterable["str | Order"]]


def game_rng(seed: int, index: int) -> random.Random:
    """The random generator of game ``index`` of a run seeded with ``seed``.

    Seeded from both numbers (as text, which :class:`random.Random` hashes
    with SHA-512), so game 7 of seed 1 is the same game in a batch of ten or
    of a thousand, in one process or spread over many."""
    return random.Random(f"standoff-selfplay:{seed}:{index}")


class GameBatch:
    """N games stepped together (see the module's description).

    ``records`` are the games to play on (new ones: :meth:`new`); a game that
    is already over, or already past a cap, is kept as it is and never
    stepped. Games are known by their index in the batch.
    """

    def __init__(self, records: Iterable[GameRecord], max_year: int | None = None,
                 max_phases: int | None = None) -> None:
        if max_year is not None and max_year < 1:
            raise ValueError(f"max_year must be a year, not {max_year}")
        if max_phases is not None and max_phases < 0:
            raise ValueError(f"max_phases cannot be negative ({max_phases})")
        self.max_year: int | None = max_year
        self.max_phases: int | None = max_phases
        self._records: list[GameRecord] = list(records)
        #: which games were ended by a cap rather than by the victory rule
        self._capped: list[bool] = [False] * len(self._records)
        #: phases processed by this batch, all games together
        self.phases: int = 0
        for i, record in enumerate(self._records):
            if record.outcome is None and self._past_cap(record):
                self._end_at_cap(i)

    @classmethod
    def new(cls, count: int, variant: str | Variant = "standard",
            options: Options = DEFAULT, max_year: int | None = None,
            max_phases: int | None = None) -> GameBatch:
        """``count`` new games of one variant, at its opening position."""
        if count < 0:
            raise ValueError(f"a batch cannot hold {count} games")
        v = variant if isinstance(variant, Variant) else load_variant(variant)
        start = GameRecord.new(v, options)
        return cls([start] * count, max_year, max_phases)  # records are values: shared

    # -- the games ---------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._records)

    @property
    def records(self) -> list[GameRecord]:
        """Every game's current record, by index (a new list)."""
        return list(self._records)

    def record(self, index: int) -> GameRecord:
        return self._records[index]

    def is_over(self, index: int) -> bool:
        """Game ``index`` is finished: won, ended otherwise, or stopped by a cap."""
        return self._capped[index] or self._records[index].outcome is not None

    def capped(self, index: int) -> bool:
        """Game ``index`` was stopped by ``max_year`` or ``max_phases``."""
        return self._capped[index]

    def live(self) -> list[int]:
        """The indices of the games still going on."""
        return [i for i in range(len(self._records)) if not self.is_over(i)]

    @property
    def all_over(self) -> bool:
        return not self.live()

    def legal_orders(self) -> dict[int, LegalOrders]:
        """Game index -> power -> location -> legal orders, for every live game."""
        out: dict[int, LegalOrders] = {}
        for i in self.live():
            r = self._records[i]
            out[i] = legal_orders(r.position, r.options, r.variant)
        return out

    # -- stepping ----------------------------------------------------------------------

    def step(self, orders: Mapping[int, GameOrders]) -> list[int]:
        """Adjudicate every live game's phase; return the games this step ended.

        ``orders`` maps a game's index to its powers' orders, checked as
        :func:`~standoff.submit_orders` checks them; a live game absent from
        it, like a power absent from its orders, sends nothing (civil
        disorder). All or nothing: an invalid or illegal order raises its
        error and no game moves; so do orders for a finished game or an
        index not in the batch."""
        for i in orders:
            if not 0 <= i < len(self._records):
                raise IndexError(f"no game {i} in a batch of {len(self._records)}")
            if self.is_over(i):
                raise GameStateError(f"game {i} is over")
        ready: dict[int, GameRecord] = {}
        for i in self.live():
            r = self._records[i]
            for power, given in orders.get(i, {}).items():
                r = submit_orders(r, power, given)
            ready[i] = r
        return self._process(ready)

    def step_random(self, rngs: Sequence[random.Random], move_bias: float = 0.0) -> list[int]:
        """One random legal order per unit for every power of every live game, then
        adjudicate; return the games this step ended.

        ``rngs[i]`` draws game i's orders (:func:`game_rng` makes reproducible
        ones); ``move_bias`` is :func:`~standoff.random_orders`'s: the chance a
        unit picks among its moves, so random games go somewhere."""
        if len(rngs) != len(self._records):
            raise ValueError(f"{len(rngs)} random generators for {len(self._records)} games")
        ready: dict[int, GameRecord] = {}
        for i in self.live():
            r = self._records[i]
            picks = random_orders(r.position, rngs[i], move_bias, r.options, r.variant)
            # Generated orders are legal and normalised, one per unit or site: the
            # pending orders submit_orders would build from them, without checking
            # them twice (the adjudicator checks every order anyway).
            pending = PendingOrders(tuple(PowerOrders(p, tuple(picks[p]))
                                          for p in sorted(picks)))
            ready[i] = GameRecord(r.variant, r.options, r.position, r.history, pending,
                                  r.outcome)
        return self._process(ready)

    def play_random(self, rngs: Sequence[random.Random], move_bias: float = 0.0) -> int:
        """:meth:`step_random` until every game is over (set a cap: random games
        may never end by themselves); return the phases played."""
        if self.max_year is None and self.max_phases is None:
            raise ValueError("random play needs a cap (max_year or max_phases) to end")
        before = self.phases
        while not self.all_over:
            self.step_random(rngs, move_bias)
        return self.phases - before

    def _process(self, ready: Mapping[int, GameRecord]) -> list[int]:
        """Process the phase of each game in ``ready`` (index -> record with its
        pending orders) and keep the results; return the games that ended."""
        ended: list[int] = []
        for i, r in ready.items():
            after = process_phase(r)[0]
            self._records[i] = after
            self.phases += 1
            if after.outcome is not None:
                ended.append(i)
            elif self._past_cap(after):
                self._end_at_cap(i)
                ended.append(i)
        return ended

    def _past_cap(self, record: GameRecord) -> bool:
        if self.max_year is not None and record.position.phase.year > self.max_year:
            return True
        return self.max_phases is not None and len(record.history) >= self.max_phases

    def _end_at_cap(self, index: int) -> None:
        """Stop game ``index`` at a cap: a draw among its survivors, if two or
        more (a lone survivor short of victory keeps an open outcome)."""
        self._capped[index] = True
        r = self._records[index]
        if len(surviving_powers(r)) >= 2:
            self._records[index] = declare_draw(r)
