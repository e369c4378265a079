"""The rules core: everything between order text and the next position.

Map and variants (``geography``, ``variant``, ``hooks/``, ``variants/*.toml``),
orders and their notation (``orders``: one module per kind, ``notation``), the
checks several kinds of order share (``order_checks``), positions and phases
(``position``, ``phase``), the resolver (``resolver``: Kruijswijk's algorithm,
knowing nothing of Diplomacy), the three kinds of phase (``movement``,
``retreats``, ``adjustments``) joined by ``adjudicator``, what a change of map
does to the pieces (``map_change_effects``), every legal order of a position
(``legal_orders``), games and their reports (``record``, ``game``, ``report``).

Standard library only, never an adapter; compiled by mypyc as a whole
(``setup.py``). Programs use it through :mod:`standoff`.
"""
