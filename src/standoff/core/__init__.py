"""The rules core: everything between order text and the next position.

Map and variants (``geography``, ``variant``, ``hooks/``, ``variants/*.toml``),
orders and their notation (``orders``, ``notation``), positions and phases
(``position``, ``phase``), the resolver (``resolver``: Kruijswijk's algorithm,
knowing nothing of Diplomacy), the three kinds of phase (``movement``,
``retreats``, ``adjustments``) joined by ``adjudicator``, legal-order
generation (``legal``), games and their reports (``game``, ``report``).

Standard library only, never an adapter; compiled by mypyc as a whole
(``setup.py``). Programs use it through :mod:`standoff`.
"""
