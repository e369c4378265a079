"""Draw the map of 1939 Diplomacy IV into a label raster, from our own data alone.

Why this exists: no picture of the 1939 IV map survives; its spaces and links were
designed from the rule text (``src/standoff/core/variants/1939-iv.toml``, rulings in
``docs/variants/1939-iv.md``). ``standoff render`` needs shapes for it, so this tool
DRAWS the map: nothing is measured from any image.

1. Geography: a coarse land/sea mask from hand-written coastlines (``MAINLAND``,
   ``WATER``, ``ISLANDS``, in degrees of longitude/latitude), drawn in a pseudo-conic
   projection stretched piecewise (``U_STOPS``/``LAT_STOPS``: central Europe enlarged,
   the oceans, Africa and Russia shrunk), with magnifying ``LENSES`` on the British
   Isles, the Low Countries, Greece and the Persian Gulf. Two straits are opened on
   purpose (Gibraltar; the Suez canal, so the Red Sea touches the Eastern Mediterranean)
   and two closed (the Sound, so Denmark touches Sweden and the North Sea never meets the
   Baltic; the Bosporus and Dardanelles, which Turkey holds). The two high oceans are
   fixed boxes: the Atlantic High Ocean a strip along the west edge, the African High
   Ocean a strip along the south edge plus the Arabian Sea. Switzerland is a small fixed
   enclave that touches nothing (it has no links).
2. Regions: every space has hand-chosen seed points (``SEEDS``). Land spaces grow over
   land pixels and seas over sea pixels by a multi-source Dijkstra flood (a geodesic
   Voronoi partition; ``OFFSET`` makes a space start ahead of or behind the others).
3. Constraint: two spaces that the variant does not link may never touch. Wherever
   two unlinked spaces come within ``GAP`` pixels of each other, the pixel farther from
   its own seed is dropped to background (0), then background pixels are given back to
   any neighbouring space that is allowed next to everything around it. So unlinked
   spaces are always separated by a dark gap of at least ``GAP`` pixels. The high
   oceans are then kept ``SHORE`` pixels off every land space, a band of background
   that shows they border none (rule 5.4).
4. Check: every linked pair touches along >= ``SAFE_BORDER`` pixel pairs (the rule says
   ``MIN_BORDER``; the margin survives tracing) and no unlinked pair touches at all,
   except the links drawn as connectors (``CONNECTORS``: the army crossings Spain-Morocco,
   Sicily-Naples and Egypt-Middle East of rule 3.3, and the direct sea link Western
   Mediterranean-South Atlantic of rule 3.6, which no flat map can draw as a border
   together with the others: the adjacency graph with it is not planar).

Writes ``OUT/labels.npy``, ``OUT/meta.json`` (ids, unit, coast, centre and label
points, connectors) and ``OUT/preview.png``, prints every difference from the variant and
exits 1 if there is any; ``tools/trace_shapes.py`` turns the first two into
``src/standoff/render/maps/1939-iv.json``.

Run: ``python tools/layout_1939.py -o /tmp/render/1939-iv``
Needs the ``tools`` extra (``pip install -e '.[tools]'``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw
from scipy import ndimage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "src" / "standoff" / "core" / "variants" / "1939-iv.toml"

WIDTH, HEIGHT = 1200, 900
#: two spaces are neighbours when they touch along at least this many pixel pairs
MIN_BORDER = 3
#: ...and this tool wants at least this many, so tracing and simplifying cannot lose it
SAFE_BORDER = 8
#: unlinked spaces stay at least this many pixels apart (Chebyshev distance)
GAP = 2
#: the high oceans keep this many pixels of background from every land space, so that
#: the picture shows them bordering none (rule 5.4; 7.7): GAP alone is hidden under
#: the border's ink, and the African High Ocean's strip looked as if it touched French
#: West Africa, Libya and Egypt (issue 29)
SHORE = 10
#: ...and this many at the mouth of the Persian Gulf, which SHORE would close
SHORE_GULF = 7

# -- projection ------------------------------------------------------------------------
#: A pseudo-conic projection: x follows u = (lon - CENTRAL_MERIDIAN) * s(lat), s a damped
#: cos(lat), so the meridians converge northward as on a conic map of Europe; then u and
#: the latitude are stretched piecewise-linearly: (value, pixel). Central Europe gets
#: ~14 px per degree of longitude (at 50 N) and ~20 per degree of latitude; the Atlantic,
#: Africa, the Arctic and Russia less.
CENTRAL_MERIDIAN = 10.0
#: s(lat) = CONVERGE * cos(lat) + (1 - CONVERGE) * cos(50)
CONVERGE = 0.65
U_STOPS = ((-31.0, 0.0), (-14.5, 170.0), (22.5, 960.0), (42.0, 1200.0))
LAT_STOPS = ((76.0, 0.0), (60.0, 190.0), (33.0, 720.0), (5.1, 900.0))


def _interp(v: float, stops: tuple[tuple[float, float], ...]) -> float:
    """Piecewise-linear through ``stops`` (sorted by value), extrapolated at both ends."""
    for (v0, p0), (v1, p1) in pairwise(stops):
        if v <= v1 or (v1, p1) == stops[-1]:
            return p0 + (v - v0) * (p1 - p0) / (v1 - v0)
    raise AssertionError


#: magnifying lenses on the projected map: (centre lon, lat), radius px, magnification.
#: The British Isles, the Low Countries, Albania and Greece and the Persian Gulf are drawn
#: larger than life, to make room for their spaces' markers.
LENSES = (((-3.8, 54.8), 190.0, 2.1), ((5.3, 51.6), 90.0, 1.5), ((21.5, 40.0), 80.0, 1.4),
          ((51.5, 27.0), 70.0, 1.6))


def _plain(lon: float, lat: float) -> tuple[float, float]:
    shrink = CONVERGE * np.cos(np.radians(lat)) + (1 - CONVERGE) * np.cos(np.radians(50.0))
    u = (lon - CENTRAL_MERIDIAN) * float(shrink)
    return _interp(u, U_STOPS), _interp(-lat, tuple((-a, p) for a, p in LAT_STOPS))


def project(lon: float, lat: float) -> tuple[float, float]:
    """Pixel (x, y) of a point given in degrees."""
    x, y = _plain(lon, lat)
    for (clon, clat), radius, power in LENSES:
        cx, cy = _plain(clon, clat)
        r = float(np.hypot(x - cx, y - cy))
        if r < radius:  # r * f(r) grows with r (no fold) while power - 1 < 3
            f = 1.0 + (power - 1.0) * (1.0 - r / radius) ** 2
            x, y = cx + (x - cx) * f, cy + (y - cy) * f
    return x, y


# -- geography (degrees: lon, lat) ------------------------------------------------------
Poly = list[tuple[float, float]]

#: Europe, Asia and Africa as one outline, clockwise from Tarifa. The Baltic, the White,
#: Black and Caspian Seas are cut out afterwards (``WATER``); the Sound and the Turkish
#: straits are closed; Africa is cut off at 10 N (the African High Ocean lies below).
MAINLAND: Poly = [
    # Iberia, Atlantic side
    (-5.6, 36.3), (-6.3, 36.6), (-7.4, 37.2), (-8.9, 37.0), (-8.8, 38.0), (-9.5, 38.8),
    (-8.9, 40.5), (-8.8, 42.0), (-9.3, 43.0), (-8.0, 43.7), (-5.5, 43.6), (-3.5, 43.5),
    # France, the Low Countries, Germany, Jutland
    (-1.8, 43.4), (-1.2, 44.6), (-1.2, 46.0), (-2.2, 47.2), (-4.5, 47.8), (-4.8, 48.4),
    (-3.0, 48.8), (-1.6, 48.7), (-1.9, 49.7), (-1.2, 49.4), (0.2, 49.5), (1.5, 50.2),
    (1.6, 50.9), (2.5, 51.1), (3.4, 51.4), (4.0, 51.9), (4.6, 52.6), (4.9, 53.2),
    (6.0, 53.5), (7.2, 53.6), (8.5, 53.6), (8.9, 54.1), (8.6, 55.0), (8.1, 55.6),
    (8.2, 56.7), (8.7, 57.1), (10.45, 57.5), (10.3, 57.0), (10.3, 56.6), (10.9, 56.4),
    (10.3, 56.0),
    # the Danish islands joined to Skane (the Sound closed), Sweden, Norway
    (11.5, 56.0), (12.3, 56.1), (12.7, 56.25), (12.5, 56.8), (12.0, 57.7), (11.7, 58.3),
    (11.2, 59.0), (10.6, 59.8), (10.0, 59.0), (9.0, 58.6), (8.0, 58.1), (6.8, 58.0),
    (5.6, 58.8), (5.2, 59.5), (5.0, 60.5), (5.0, 61.5), (5.5, 62.3), (7.0, 62.9),
    (9.0, 63.6), (10.5, 64.5), (12.0, 65.5), (13.5, 67.0), (15.0, 68.3), (17.0, 69.0),
    (19.0, 69.8), (22.0, 70.4), (25.7, 71.1), (28.5, 70.9), (31.0, 70.3), (30.0, 69.8),
    # Petsamo, Kola, the Arctic coast to the Urals
    (31.8, 69.8), (33.0, 69.4), (36.5, 69.1), (39.5, 68.1), (41.2, 66.9), (44.0, 66.6),
    (44.2, 68.5), (46.0, 68.0), (53.0, 68.9), (58.0, 68.9), (62.0, 69.7), (80.0, 72.0),
    (140.0, 72.0),
    # round the east, off the map; Makran, the Persian Gulf, Arabia
    (140.0, 25.0), (62.0, 25.2), (58.8, 25.5), (57.3, 25.9), (56.3, 27.1), (54.7, 26.6),
    (52.5, 27.5), (51.0, 28.8), (50.3, 29.6), (48.9, 30.1), (48.0, 29.9), (48.5, 28.3),
    (49.8, 26.8), (50.3, 25.8), (51.2, 26.1), (51.6, 24.7), (53.5, 24.1), (55.5, 25.4),
    (56.2, 26.3), (56.4, 25.0), (57.5, 23.8), (58.7, 23.5), (59.8, 22.5), (58.5, 20.5),
    (57.7, 19.0), (55.0, 17.2), (52.2, 15.7), (49.0, 14.3), (45.0, 12.8), (43.5, 12.7),
    # the Red Sea, Sinai, the Gulf of Suez
    (42.8, 14.8), (42.0, 16.5), (40.5, 19.0), (39.1, 21.5), (38.0, 24.0), (36.5, 26.0),
    (35.2, 28.0), (34.9, 29.5), (34.3, 27.8), (33.3, 28.6), (32.6, 29.9), (32.4, 29.7),
    (33.6, 27.3), (35.0, 24.5), (35.6, 23.0), (37.2, 21.0), (38.5, 18.0), (39.5, 15.5),
    (41.5, 13.5), (42.8, 12.4), (43.2, 12.0), (43.2, 10.0),
    # Africa: cut off at 10 N, the Atlantic coast
    (-15.0, 10.0), (-15.0, 12.0), (-15.8, 14.7), (-15.5, 17.5), (-16.0, 21.0),
    (-15.3, 23.5), (-14.5, 26.0), (-13.0, 27.7), (-10.0, 29.0), (-9.7, 30.5),
    (-9.8, 31.5), (-8.5, 33.3), (-6.8, 34.0), (-5.95, 35.4),
    # the Mediterranean: North Africa
    (-5.3, 35.45), (-4.0, 35.2), (-2.0, 35.1), (0.0, 35.9), (1.5, 36.5), (3.0, 36.8),
    (5.0, 36.8), (7.8, 37.0), (9.5, 37.3), (10.3, 36.9), (11.1, 37.1), (10.5, 36.3),
    (11.1, 35.2), (10.2, 34.2), (10.0, 33.8), (11.2, 33.2), (12.5, 32.8), (13.2, 32.9),
    (15.2, 32.4), (15.8, 31.4), (17.5, 30.9), (19.0, 30.3), (20.1, 31.5), (20.0, 32.1),
    (21.5, 32.9), (23.0, 32.6), (25.1, 31.6), (27.2, 31.3), (29.9, 31.2), (31.0, 31.6),
    (32.3, 31.3),
    # the Levant, Anatolia, the Aegean (Dardanelles closed)
    (34.2, 31.3), (34.9, 32.5), (35.1, 33.1), (35.5, 33.9), (35.9, 35.2), (35.9, 36.4),
    (36.2, 36.9), (35.5, 36.6), (34.6, 36.8), (33.5, 36.2), (32.5, 36.1), (30.6, 36.8),
    (29.5, 36.2), (28.2, 36.7), (27.3, 37.0), (26.5, 38.4), (26.8, 39.4), (26.2, 39.9),
    (26.0, 40.8), (25.0, 40.9), (24.0, 40.8), (23.8, 40.3), (22.9, 40.6), (22.6, 40.1),
    (22.9, 39.5), (22.8, 39.0), (23.6, 38.7), (24.1, 38.2), (24.05, 37.7), (23.5, 37.9),
    (23.1, 37.6), (23.3, 37.3), (22.9, 36.9), (23.1, 36.45), (22.55, 36.45), (22.4, 36.75),
    (22.1, 36.5), (21.7, 36.8), (21.6, 37.5), (21.2, 37.8), (21.3, 38.3), (20.8, 39.0),
    (20.3, 39.4), (20.0, 39.7),
    # Albania, the Adriatic, Italy
    (19.4, 40.4), (19.5, 41.3), (19.4, 41.9), (18.5, 42.45), (17.4, 43.0), (16.0, 43.5),
    (15.2, 44.2), (14.5, 45.1), (13.9, 44.8), (13.6, 45.7), (12.3, 45.4), (12.3, 44.4),
    (13.6, 43.6), (14.3, 42.4), (15.5, 41.9), (16.1, 41.9), (16.5, 41.3), (18.0, 40.6),
    (18.5, 40.1), (17.2, 40.4), (16.6, 39.7), (17.1, 39.0), (16.1, 38.0), (15.9, 38.0),
    (16.2, 38.9), (15.6, 40.0), (14.8, 40.6), (14.3, 40.8), (13.7, 41.2), (12.5, 41.7),
    (11.8, 42.1), (11.1, 42.4), (10.5, 43.0), (10.3, 43.9), (9.0, 44.4), (8.0, 43.9),
    # the Riviera, Spain's Mediterranean coast
    (7.5, 43.8), (7.0, 43.5), (6.0, 43.1), (5.3, 43.3), (4.5, 43.4), (3.5, 43.3),
    (3.0, 42.6), (3.2, 42.3), (3.2, 41.9), (2.2, 41.4), (0.9, 41.0), (0.0, 39.9),
    (-0.3, 39.4), (0.2, 38.8), (-0.5, 38.3), (-0.7, 37.6), (-1.8, 37.0), (-2.1, 36.7),
    (-4.4, 36.7), (-5.3, 36.35),
]

#: inland seas and gulfs cut out of the mainland
WATER: dict[str, Poly] = {
    "baltic": [
        (10.2, 54.45), (10.9, 54.0), (12.0, 54.2), (13.4, 54.6), (14.3, 53.9), (16.0, 54.3),
        (17.5, 54.8), (18.6, 54.6), (19.5, 54.4), (20.0, 54.9), (21.1, 55.3), (21.1, 56.0),
        (21.0, 56.8), (21.6, 57.4), (22.6, 57.75), (23.5, 57.1), (24.3, 57.2), (24.3, 58.2),
        (23.5, 58.5), (23.4, 59.1), (24.8, 59.5), (26.5, 59.6), (28.0, 59.5), (29.9, 59.9),
        (29.0, 60.2), (27.0, 60.5), (25.5, 60.3), (23.0, 59.85), (22.2, 60.3), (21.4, 60.8),
        (21.5, 61.6), (21.3, 62.5), (21.7, 63.2), (23.0, 63.9), (24.5, 64.9), (25.4, 65.3),
        (24.2, 65.8), (22.3, 65.6), (21.3, 64.8), (20.3, 63.8), (19.0, 63.2), (18.0, 62.6),
        (17.4, 61.7), (17.2, 60.7), (18.6, 60.1), (18.9, 59.4), (18.2, 59.0), (16.8, 58.3),
        (16.5, 57.3), (16.4, 56.6), (15.6, 56.2), (14.5, 56.0), (14.2, 55.4), (13.0, 55.35),
        (12.8, 55.45), (12.0, 55.0), (11.0, 54.7), (10.4, 54.85),
    ],
    "white": [
        (40.4, 68.0), (42.6, 67.2), (44.0, 66.3), (42.5, 66.2), (40.0, 65.4), (40.5, 64.7),
        (39.5, 64.6), (37.5, 64.0), (35.0, 64.3), (34.5, 65.0), (32.5, 66.4), (33.0, 66.8),
        (36.0, 66.6), (39.0, 66.1), (40.5, 66.2), (39.4, 67.6),
    ],
    "black": [
        (29.1, 41.2), (28.0, 41.6), (28.0, 42.0), (27.7, 42.5), (28.0, 43.4), (28.6, 43.8),
        (28.8, 44.5), (29.6, 45.2), (30.5, 46.0), (30.7, 46.5), (31.5, 46.6), (32.5, 46.1),
        (33.5, 46.0), (32.5, 45.4), (33.5, 44.5), (34.5, 44.6), (36.5, 45.2), (37.5, 44.7),
        (39.0, 44.0), (40.0, 43.4), (41.6, 41.6), (40.5, 41.0), (39.0, 41.0), (37.0, 41.2),
        (35.0, 42.0), (33.0, 41.9), (31.3, 41.2),
    ],
    "caspian": [
        (47.5, 45.6), (49.5, 46.5), (51.5, 47.0), (53.0, 46.6), (53.2, 45.2), (51.3, 44.5),
        (51.0, 43.2), (52.7, 42.0), (53.0, 40.5), (53.8, 39.2), (54.0, 37.4), (52.0, 36.8),
        (50.0, 37.3), (49.0, 37.6), (48.9, 38.4), (49.3, 39.9), (49.9, 40.4), (49.0, 41.2),
        (48.3, 42.0), (47.5, 43.0), (47.3, 44.5),
    ],
    # the Suez canal, opened wide enough to draw (rule 3.5: Red Sea - Eastern Med)
    "suez": [(32.05, 29.6), (32.75, 29.6), (32.75, 31.6), (32.05, 31.6)],
}

ISLANDS: dict[str, Poly] = {
    "britain": [
        (-5.0, 58.6), (-3.0, 58.65), (-3.9, 57.6), (-1.8, 57.6), (-2.1, 56.9), (-2.6, 56.3),
        (-3.2, 56.0), (-2.0, 55.8), (-1.6, 55.0), (-0.6, 54.5), (0.1, 53.6), (0.3, 53.1),
        (1.7, 52.7), (1.6, 52.0), (0.9, 51.4), (1.4, 51.2), (0.3, 50.8), (-1.0, 50.7),
        (-2.5, 50.6), (-3.5, 50.3), (-4.2, 50.4), (-5.7, 50.05), (-5.0, 50.7), (-4.2, 51.1),
        (-3.0, 51.4), (-4.0, 51.6), (-5.2, 51.8), (-4.2, 52.4), (-4.6, 52.9), (-4.3, 53.3),
        (-3.1, 53.3), (-3.0, 53.9), (-3.4, 54.3), (-3.2, 54.9), (-4.5, 54.7), (-5.1, 54.85),
        (-4.9, 55.5), (-5.7, 55.3), (-5.8, 56.3), (-6.2, 56.7), (-5.7, 57.5),
    ],
    "ireland": [
        (-7.3, 55.4), (-5.6, 54.6), (-5.5, 54.3), (-6.2, 53.35), (-6.0, 52.8), (-6.3, 52.2),
        (-7.5, 52.0), (-8.4, 51.7), (-9.8, 51.5), (-10.3, 52.1), (-9.5, 52.6), (-9.4, 53.2),
        (-10.1, 53.5), (-9.8, 54.3), (-8.5, 54.3), (-8.4, 55.1),
    ],
    "iceland": [
        (-24.0, 65.5), (-22.0, 66.4), (-18.0, 66.2), (-15.0, 66.3), (-13.6, 65.2),
        (-14.5, 64.4), (-17.0, 63.8), (-19.0, 63.4), (-21.0, 63.8), (-22.7, 64.0),
        (-22.5, 64.8),
    ],
    "greenland": [
        (-100.0, 85.0), (-16.0, 85.0), (-18.5, 76.0), (-19.5, 74.5), (-21.0, 72.5),
        (-22.0, 70.5), (-24.0, 69.5), (-27.0, 68.5), (-32.0, 68.0), (-35.0, 66.5),
        (-38.0, 65.8), (-43.0, 60.0), (-50.0, 62.0), (-100.0, 62.0),
    ],
    "sicily": [
        (12.4, 38.1), (13.3, 38.2), (14.5, 38.05), (15.55, 38.25), (15.2, 37.5),
        (15.1, 36.7), (14.3, 36.8), (12.9, 37.6), (12.4, 37.8),
    ],
}

#: fixed spaces, in pixels: (x0, y0, x1, y1) boxes; Switzerland is an ellipse
#: the Atlantic High Ocean: a strip this wide along the west edge, from this latitude down
ATH_WIDTH, ATH_TOP = 40, 55.5
#: the African High Ocean: everything south of this latitude, and the Arabian Sea east
#: and south of this corner (water only: Oman stays land)
AFH_TOP, AFH_ARABIAN = 11.0, (56.0, 21.0)
SWI_AT, SWI_RADII = (8.2, 46.75), (13, 9)
FIXED = ("ath", "afh", "swi")

#: seed points of every space that grows (degrees)
SEEDS: dict[str, Poly] = {
    # seas
    "nao": [(-25, 60), (-18, 58), (-13, 55.5), (-25, 55), (-12, 59), (-9, 57.5)],
    "nwg": [(-5, 66), (0, 64), (5, 68), (-10, 70), (-1.5, 60.5), (10, 72)],
    "bar": [(30, 73), (40, 72), (50, 71.5), (20, 73), (38.5, 66), (60, 74)],
    "nth": [(3, 56), (4, 58.5), (2.5, 54), (11.3, 57.1), (3.0, 52.3)],
    "eng": [(-2.5, 50.1), (-5.0, 49.5), (1.0, 50.6)],
    "iri": [(-5.0, 53.5), (-5.5, 52.3), (-5.5, 54.8)],
    "bis": [(-4.5, 45.5), (-3.0, 44.3)],
    "mao": [(-15, 46), (-12, 40), (-20, 44), (-10, 48), (-7.5, 36.3), (-12, 36), (-10.5, 50.5)],
    "sao": [(-20, 28), (-16, 31), (-19, 20), (-19, 14), (-10.5, 33.0)],
    "wes": [(0.5, 38), (5, 38.3), (8, 38.5), (-3.5, 36.3)],
    "lyo": [(5, 42.3), (8, 43.2), (3.5, 41.6)],
    "tys": [(11.5, 40), (9, 40.5), (13.5, 39.2)],
    "ion": [(18, 37), (20, 35), (16.8, 38.7), (14.5, 35.5), (18.5, 33.5), (19.2, 39.4),
            (21.0, 34.0), (22.0, 35.8)],
    "adr": [(15, 43), (17, 42), (13.3, 44.5), (18.5, 41.3)],
    "aeg": [(25, 38.5), (24.8, 40.2), (25.5, 37), (23.8, 36.7)],
    "eas": [(30, 34), (33.5, 34), (26, 35), (32.3, 31.5), (24.8, 34.8)],
    "red": [(38, 21), (35.2, 26), (41.5, 15), (47, 13), (32.4, 30.3)],
    "pgu": [(51, 27.3), (55, 25.8), (58.5, 24.5)],
    "bla": [(34, 43.5), (31, 43.5), (37.5, 43.0)],
    "cas": [(51, 42), (50, 45), (51.5, 39)],
    "bal": [(18, 56), (20, 61.5), (25, 59.8), (23, 57.6), (14, 54.8), (21, 64)],
    # the British Isles and the islands
    "cly": [(-5.0, 57.5), (-4.6, 55.4), (-4.0, 58.3), (-5.2, 56.5)],
    "edi": [(-3.0, 56.6), (-3.0, 57.4), (-2.5, 57.5), (-2.2, 55.4)],
    "lvp": [(-2.8, 53.8), (-3.6, 52.3), (-4.3, 50.6), (-2.5, 51.2), (-3.2, 54.5)],
    "lon": [(-0.5, 51.6), (-1.2, 53.8), (0.8, 52.5), (-1.4, 54.6)],
    "eir": [(-8, 53.2)],
    "ice": [(-18.5, 65)],
    "grl": [(-30, 72)],
    "sic": [(14, 37.5)],
    # Iberia, France, the Low Countries
    "por": [(-8.2, 39.5), (-8.2, 41.3), (-8.0, 37.5)],
    "spa": [(-4, 40), (-1, 41.8), (-4.5, 37.6), (-6.5, 42.8), (-1.5, 38.5)],
    "bre": [(-2.5, 48.0), (0.0, 45.5), (1.0, 49.7), (-0.5, 43.6)],
    "par": [(3.0, 48.3), (5.8, 48.5)],
    "mar": [(4.6, 44.6), (1.5, 43.6), (6.3, 43.9), (7.0, 44.1), (6.8, 44.6)],
    "bel": [(4.5, 50.7)],
    "hol": [(5.6, 52.3)],
    "ruh": [(7.4, 51.0)],
    "kie": [(9.5, 53.3), (9.4, 54.5)],
    "den": [(9.2, 56.2), (11.6, 55.6)],
    # Germany, central Europe
    "ber": [(13.0, 52.5), (16.0, 51.2), (15.0, 53.8)],
    "mun": [(10.6, 48.7), (10.5, 50.3)],
    "pol": [(19.5, 52.0), (23.5, 51.0), (18.2, 54.0), (24.5, 53.3)],
    "pru": [(21.0, 54.4)],
    "lat": [(24.0, 56.8), (25.7, 58.8), (24.0, 55.2)],
    "cze": [(15.0, 49.7), (19.5, 48.8), (22.6, 48.5)],
    "vie": [(14.8, 47.6), (11.6, 47.2)],
    "hun": [(19.5, 47.0)],
    # Italy, the Balkans
    "ven": [(10.0, 45.3), (12.2, 45.6), (13.4, 43.1), (8.3, 45.4)],
    "rom": [(11.0, 43.3), (12.6, 42.0), (8.5, 44.3), (9.8, 44.1)],
    "nap": [(15.5, 41.0), (16.3, 39.3), (14.4, 41.7), (17.5, 40.5)],
    "yug": [(20.5, 44.2), (16.5, 44.5), (21.5, 42.0), (14.8, 45.8)],
    "alb": [(20.0, 41.0)],
    "gre": [(22.0, 39.5), (22.0, 37.5), (25.0, 41.1)],
    "bul": [(25.0, 42.8), (27.0, 43.0)],
    "rum": [(25.0, 45.5), (28.5, 47.0), (28.5, 44.3), (23.0, 46.5)],
    "tur": [(33.0, 39.0), (28.0, 41.0), (39.0, 39.5), (27.5, 38.5), (42.5, 39.5)],
    # Russia, the Caucasus, the Middle East
    "cau": [(44.0, 42.5), (46.5, 41.5), (46.8, 40.0)],
    "per": [(53.0, 33.0), (48.0, 35.5), (57.0, 28.5), (59.0, 35.0), (47.5, 38.2)],
    "mde": [(38.0, 32.0), (43.0, 33.0), (44.0, 25.0), (47.0, 20.0), (36.7, 34.6),
            (34.6, 30.3)],
    "sev": [(33.0, 46.6), (34.0, 45.0), (38.5, 46.5), (30.7, 46.9)],
    "ukr": [(30.0, 49.0), (34.5, 49.5)],
    "sta": [(44.0, 48.7), (47.0, 46.8), (52.0, 48.0), (57.0, 45.0)],
    "kui": [(50.0, 53.0), (56.0, 56.0), (45.0, 58.0)],
    "mos": [(37.5, 55.5), (29.0, 54.0)],
    "len": [(31.0, 59.5), (34.0, 61.5), (37.0, 60.0)],
    "arc": [(40.5, 64.0), (50.0, 64.0), (35.0, 68.3), (37.5, 67.8), (56.0, 66.0), (33.5, 65.0),
            (75.0, 66.0), (34.0, 66.8), (36.0, 63.8), (38.5, 63.6)],
    "fin": [(26.0, 62.5), (26.5, 66.5), (28.8, 69.3), (29.5, 64.5)],
    "swe": [(15.0, 59.0), (17.0, 63.0), (20.0, 67.0), (13.5, 56.2)],
    "nwy": [(9.0, 61.0), (14.0, 66.0), (20.0, 69.3), (26.0, 70.3)],
    # Africa
    "mor": [(-6.0, 33.0), (-8.5, 30.0), (-4.0, 34.8)],
    "alg": [(3.0, 34.0), (2.0, 28.0), (5.0, 24.0), (8.0, 27.0)],
    "tun": [(9.6, 35.5), (9.6, 33.5)],
    "lib": [(15.0, 30.0), (20.0, 28.0), (18.0, 22.0), (12.0, 26.0), (17.0, 16.5)],
    "egy": [(30.0, 27.0), (31.0, 22.0), (30.0, 16.0)],
    "fwa": [(-8.0, 20.0), (-2.0, 15.0), (8.0, 15.0), (-13.0, 23.0), (12.0, 13.0), (3.0, 14.0),
            (6.0, 13.5), (10.0, 13.5)],
}

#: head start (negative) or handicap (positive) of a space's flood, in pixels
OFFSET: dict[str, float] = {}

#: links drawn as lines instead of borders: (a, b, kind)
#: links drawn as lines instead of borders: (a, b, kind, points on the way in degrees)
CONNECTORS: tuple[tuple[str, str, str, Poly], ...] = (
    ("mor", "spa", "bridge", []),   # rule 3.3, the Strait of Gibraltar
    ("nap", "sic", "bridge", []),   # rule 3.3, the Strait of Messina
    ("egy", "mde", "bridge", []),   # rule 3.3, across Suez
    # rule 3.6, a direct sea link (no flat map draws it as a border with the others):
    # out of the Strait of Gibraltar, down the Moroccan coast
    ("wes", "sao", "canal", [(-6.4, 35.9)]),
)


# -- the variant -------------------------------------------------------------------------


class Board:
    """The facts of the variant the drawing needs."""

    def __init__(self, path: Path = VARIANT) -> None:
        data = tomllib.loads(path.read_text())
        self.provinces: dict[str, dict[str, Any]] = data["provinces"]
        self.ids = sorted(self.provinces)
        self.number = {pid: i + 1 for i, pid in enumerate(self.ids)}
        self.pairs: set[frozenset[str]] = set()
        #: "spa/nc" -> the provinces that coast is linked to
        self.coast_links: dict[str, set[str]] = {}
        for kind in ("army", "fleet"):
            for token in data["adjacency"][kind].split():
                a, b = token.split("-")
                pa, pb = a.split("/")[0], b.split("/")[0]
                self.pairs.add(frozenset((pa, pb)))
                if "/" in a:
                    self.coast_links.setdefault(a, set()).add(pb)
                if "/" in b:
                    self.coast_links.setdefault(b, set()).add(pa)
        for pid, p in self.provinces.items():
            for c in p.get("coasts", ()):
                self.coast_links.setdefault(f"{pid}/{c}", set())
        self.centres = [pid for pid in self.ids if self.provinces[pid].get("centre")]

    def is_land(self, pid: str) -> bool:
        return bool(self.provinces[pid]["terrain"] != "sea")

    def allowed(self) -> NDArray[np.bool_]:
        """allowed[a, b]: spaces numbered a and b may touch (0 = background: always)."""
        n = len(self.ids) + 1
        ok = np.zeros((n, n), dtype=bool)
        ok[0, :] = ok[:, 0] = True
        ok[np.arange(n), np.arange(n)] = True
        for pair in self.pairs:
            a, b = (self.number[p] for p in pair)
            ok[a, b] = ok[b, a] = True
        return ok


# -- raster helpers ----------------------------------------------------------------------


def _shift(a: NDArray[Any], dy: int, dx: int, fill: Any) -> NDArray[Any]:
    """out[y, x] = a[y + dy, x + dx] (fill outside)."""
    h, w = a.shape
    out = np.full_like(a, fill)
    ys, yd = (slice(dy, h), slice(0, h - dy)) if dy >= 0 else (slice(0, h + dy), slice(-dy, h))
    xs, xd = (slice(dx, w), slice(0, w - dx)) if dx >= 0 else (slice(0, w + dx), slice(-dx, w))
    out[yd, xd] = a[ys, xs]
    return out


def _window(radius: int) -> list[tuple[int, int]]:
    return [(dy, dx) for dy in range(-radius, radius + 1) for dx in range(-radius, radius + 1)
            if (dy, dx) != (0, 0)]


def land_mask() -> NDArray[np.bool_]:
    img = Image.new("L", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    draw.polygon([project(*p) for p in MAINLAND], fill=1)
    for poly in WATER.values():
        draw.polygon([project(*p) for p in poly], fill=0)
    for poly in ISLANDS.values():
        draw.polygon([project(*p) for p in poly], fill=1)
    return np.array(img) > 0


def fixed_spaces(board: Board, land: NDArray[np.bool_]) -> NDArray[np.int32]:
    labels = np.zeros((HEIGHT, WIDTH), dtype=np.int32)
    south = round(project(0.0, AFH_TOP)[1])
    labels[round(project(0.0, ATH_TOP)[1]):south, :ATH_WIDTH] = board.number["ath"]
    labels[south:, :] = board.number["afh"]
    x0, y0 = (round(v) for v in project(*AFH_ARABIAN))
    arabian = np.zeros_like(land)
    arabian[y0:, x0:] = True
    labels[arabian & ~land] = board.number["afh"]
    cx, cy = project(*SWI_AT)
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH]
    rx, ry = SWI_RADII
    labels[((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2 <= 1.0] = board.number["swi"]
    return labels


# -- growing -----------------------------------------------------------------------------

BASE = 10_000.0


def flood(board: Board, land: NDArray[np.bool_], fixed: NDArray[np.int32]
          ) -> tuple[NDArray[np.int32], NDArray[np.float64]]:
    """Geodesic Voronoi partition: land spaces over land, seas over water."""
    h, w = land.shape
    n = h * w
    idx = np.arange(n).reshape(h, w)
    free = fixed == 0
    rows, cols, vals = [], [], []
    for dy, dx, cost in ((0, 1, 1.0), (1, 0, 1.0), (1, 1, 2 ** 0.5), (1, -1, 2 ** 0.5)):
        a = idx[0:h - dy, max(0, -dx):w - max(0, dx)]
        b = idx[dy:h, max(0, dx):w + min(0, dx)]
        fa, fb = free.ravel()[a], free.ravel()[b]
        same = land.ravel()[a] == land.ravel()[b]
        m = fa & fb & same
        for s, t in ((a[m], b[m]), (b[m], a[m])):
            rows.append(s)
            cols.append(t)
            vals.append(np.full(s.shape, cost))
    growing = [pid for pid in board.ids if pid not in FIXED]
    for k, pid in enumerate(growing):
        want_land = board.is_land(pid)
        for lon, lat in SEEDS[pid]:
            x, y = project(lon, lat)
            xi, yi = min(w - 1, round(x)), min(h - 1, round(y))
            if land[yi, xi] != want_land or not free[yi, xi]:
                ok = (land == want_land) & free
                ys, xs = np.nonzero(ok)
                j = int(np.argmin((xs - x) ** 2 + (ys - y) ** 2))
                print(f"seed of {pid} at {lon},{lat} moved {xs[j] - xi},{ys[j] - yi} px",
                      file=sys.stderr)
                xi, yi = int(xs[j]), int(ys[j])
            rows.append(np.array([n + k]))
            cols.append(np.array([idx[yi, xi]]))
            vals.append(np.array([BASE + OFFSET.get(pid, 0.0)]))
    size = n + len(growing)
    graph = coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                       shape=(size, size)).tocsr()
    dist, _, source = dijkstra(graph, directed=True, indices=np.arange(n, size),
                               return_predecessors=True, min_only=True)
    to_label = np.zeros(size + 1, dtype=np.int32)
    for k, pid in enumerate(growing):
        to_label[n + k] = board.number[pid]
    src = source[:n]
    labels = np.where(src >= 0, to_label[np.where(src >= 0, src, size)], 0).reshape(h, w)
    labels = np.where(free, labels, fixed).astype(np.int32)
    d = np.where(np.isfinite(dist[:n]), dist[:n] - BASE, np.inf).reshape(h, w)
    d[~free] = -1.0
    return labels, d


def separate(labels: NDArray[np.int32], dist: NDArray[np.float64],
             allowed: NDArray[np.bool_]) -> int:
    """Drop pixels until no two unlinked spaces are within GAP px; return pixels dropped."""
    dropped = 0
    while True:
        drop = np.zeros(labels.shape, dtype=bool)
        for dy, dx in _window(GAP):
            nl = _shift(labels, dy, dx, 0)
            nd = _shift(dist, dy, dx, np.inf)
            bad = ~allowed[labels, nl]
            drop |= bad & ((dist > nd) | ((dist == nd) & (labels > nl)))
        count = int(drop.sum())
        if not count:
            return dropped
        labels[drop] = 0
        dist[drop] = np.inf
        dropped += count


def fill(labels: NDArray[np.int32], dist: NDArray[np.float64], land: NDArray[np.bool_],
         allowed: NDArray[np.bool_], land_label: NDArray[np.bool_],
         grows: NDArray[np.bool_], rounds: int = 2000) -> int:
    """Give background pixels to a neighbouring space allowed next to all around them.

    Pixels are taken in (GAP+1)x(GAP+1) phases, so two pixels given in the same step are
    more than GAP apart and cannot clash with each other.
    """
    h, w = labels.shape
    r = GAP
    filled = 0
    window = _window(r)
    for _ in range(rounds):
        changed = 0
        for ph in range((r + 1) ** 2):
            padded = np.pad(labels, r)
            zero = labels == 0
            near = np.zeros_like(zero)
            for dy, dx in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                near |= _shift(labels, dy, dx, 0) > 0
            ys, xs = np.nonzero(zero & near)
            keep = (ys % (r + 1)) * (r + 1) + xs % (r + 1) == ph
            ys, xs = ys[keep], xs[keep]
            if not len(ys):
                continue
            todo = np.ones(len(ys), dtype=bool)
            for dy, dx in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                cand = padded[ys + r + dy, xs + r + dx]
                ok = todo & (cand > 0) & grows[cand] & (land_label[cand] == land[ys, xs])
                for wy, wx in window:
                    ok &= allowed[cand, padded[ys + r + wy, xs + r + wx]]
                if ok.any():
                    labels[ys[ok], xs[ok]] = cand[ok]
                    dist[ys[ok], xs[ok]] = dist[np.clip(ys[ok] + dy, 0, h - 1),
                                               np.clip(xs[ok] + dx, 0, w - 1)] + 1.0
                    todo &= ~ok
                    changed += int(ok.sum())
        filled += changed
        if not changed:
            break
    return filled


def keep_largest(labels: NDArray[np.int32], dist: NDArray[np.float64], board: Board) -> int:
    """Drop every piece of a space but its largest."""
    dropped = 0
    for pid in board.ids:
        k = board.number[pid]
        parts, count = ndimage.label(labels == k)
        if count <= 1:
            continue
        sizes = ndimage.sum_labels(np.ones_like(parts), parts, index=np.arange(1, count + 1))
        biggest = int(np.argmax(sizes)) + 1
        cut = (parts > 0) & (parts != biggest)
        labels[cut] = 0
        dist[cut] = np.inf
        dropped += int(cut.sum())
    return dropped


def contacts(labels: NDArray[np.int32]) -> Counter[tuple[int, int]]:
    """Pixel pairs (4-neighbours) along which two spaces touch."""
    found: Counter[tuple[int, int]] = Counter()
    for a, b in ((labels[:, :-1], labels[:, 1:]), (labels[:-1, :], labels[1:, :])):
        m = (a != b) & (a > 0) & (b > 0)
        lo, hi = np.minimum(a[m], b[m]), np.maximum(a[m], b[m])
        pairs, counts = np.unique(np.stack([lo, hi], 1), axis=0, return_counts=True)
        for (x, y), c in zip(pairs.tolist(), counts.tolist(), strict=True):
            found[(x, y)] += c
    return found


def check(labels: NDArray[np.int32], board: Board) -> list[str]:
    """Differences between the raster's borders and the variant's links."""
    name = {board.number[p]: p for p in board.ids}
    touching = {frozenset((name[a], name[b])): c for (a, b), c in contacts(labels).items()}
    drawn = {frozenset((a, b)) for a, b, _, _ in CONNECTORS}
    problems = []
    for pair in sorted(board.pairs - drawn, key=sorted):
        c = touching.get(pair, 0)
        if c < SAFE_BORDER:
            problems.append(f"missing or thin border {'-'.join(sorted(pair))} ({c} px)")
    for pair, c in sorted(touching.items(), key=lambda t: sorted(t[0])):
        if pair not in board.pairs:
            problems.append(f"unlinked spaces touch: {'-'.join(sorted(pair))} ({c} px)")
    for pid in board.ids:
        if not (labels == board.number[pid]).any():
            problems.append(f"space {pid} has no pixels")
    return problems


def grow(board: Board) -> tuple[NDArray[np.int32], NDArray[np.bool_]]:
    land = land_mask()
    fixed = fixed_spaces(board, land)
    labels, dist = flood(board, land, fixed)
    allowed = board.allowed()
    land_label = np.array([False] + [board.is_land(p) for p in board.ids])
    grows = np.array([False] + [p not in FIXED for p in board.ids])
    for _ in range(4):
        dropped = separate(labels, dist, allowed) + keep_largest(labels, dist, board)
        filled = fill(labels, dist, land, allowed, land_label, grows)
        if not dropped and not filled:
            break
    separate(labels, dist, allowed)
    keep_largest(labels, dist, board)
    offshore(labels, board)
    return labels, land


def offshore(labels: NDArray[np.int32], board: Board) -> int:
    """Drop the high oceans' pixels within SHORE px of any land space (SHORE_GULF
    north of the African strip), after the filling, which would give them back;
    return pixels dropped."""
    land_numbers = [board.number[p] for p in board.ids if board.is_land(p)]
    far: NDArray[np.float64] = ndimage.distance_transform_edt(~np.isin(labels, land_numbers))
    shore = np.full(labels.shape, float(SHORE_GULF))
    shore[round(project(0.0, AFH_TOP)[1]):, :] = SHORE
    cut = np.isin(labels, [board.number[p] for p in ("ath", "afh")]) & (far <= shore)
    labels[cut] = 0
    return int(cut.sum())


# -- points ------------------------------------------------------------------------------

Point = tuple[int, int]


def _depth(mask: NDArray[np.bool_]) -> NDArray[np.float64]:
    """Distance of each pixel of ``mask`` to the nearest pixel outside it (or the edge)."""
    padded = np.pad(mask, 1)
    depth: NDArray[np.float64] = ndimage.distance_transform_edt(padded)[1:-1, 1:-1]
    return depth


def _nearest(depth: NDArray[np.float64], target: tuple[float, float], min_depth: float,
             avoid: tuple[Point, ...] = (), spacing: float = 0.0) -> Point:
    ys, xs = np.nonzero(depth >= min(min_depth, depth.max()))
    score = (xs - target[0]) ** 2 + (ys - target[1]) ** 2
    for ax, ay in avoid:  # keep markers apart where there is room
        score = score + np.where((xs - ax) ** 2 + (ys - ay) ** 2 < spacing ** 2, 1e6, 0)
    j = int(np.argmin(score))
    return int(xs[j]), int(ys[j])


def points(labels: NDArray[np.int32], board: Board) -> dict[str, Any]:
    units: dict[str, Point] = {}
    labels_at: dict[str, Point] = {}
    centres: dict[str, Point] = {}
    coasts: dict[str, Point] = {}
    for pid in board.ids:
        mask = labels == board.number[pid]
        depth = _depth(mask)
        # the unit: among the innermost pixels, the one nearest the middle of the space
        ys, xs = np.nonzero(depth >= 0.8 * depth.max())
        my, mx = ndimage.center_of_mass(mask)
        j = int(np.argmin((xs - mx) ** 2 + (ys - my) ** 2))
        unit = (int(xs[j]), int(ys[j]))
        units[pid] = unit
        # the name above the unit, or below it where there is more room
        above = _nearest(depth, (unit[0], unit[1] - 14), 5, (unit,), 11)
        below = _nearest(depth, (unit[0], unit[1] + 14), 5, (unit,), 11)
        labels_at[pid] = max((above, below), key=lambda p: (depth[p[1], p[0]] >= 5,
                                                            p == above))
        if pid in board.centres:
            centres[pid] = _nearest(depth, (unit[0] + 13, unit[1] + 6), 4,
                                    (unit, labels_at[pid]), 9)
        mine = [c for c in board.coast_links if c.startswith(pid + "/")]
        for c in mine:
            seas = {s for s in board.coast_links[c] if not board.is_land(s)}
            others = set().union(*(board.coast_links[o] for o in mine if o != c))
            seas = (seas - others) or seas
            near = np.zeros(labels.shape, dtype=bool)
            for s in seas:
                near |= labels == board.number[s]
            # the middle of the coastline on those seas, then the nearest inner pixel
            shore = (labels == board.number[pid]) & ndimage.binary_dilation(near, iterations=2)
            ys, xs = np.nonzero(shore)
            if not len(ys):
                raise SystemExit(f"{c} touches none of {sorted(seas)}")
            j = int(np.argmin((xs - xs.mean()) ** 2 + (ys - ys.mean()) ** 2))
            coasts[c] = _nearest(depth, (xs[j], ys[j]), 5, (unit,), 10)
    centre = {"units": units, "labels": labels_at, "centres": centres, "coasts": coasts}
    return {k: {pid: [x + 0.5, y + 0.5] for pid, (x, y) in v.items()}
            for k, v in centre.items()}


def connectors(labels: NDArray[np.int32], board: Board) -> list[dict[str, Any]]:
    """A line from a to b for each connector, through its points on the way."""
    out = []
    for a, b, kind, via in CONNECTORS:
        ma, mb = labels == board.number[a], labels == board.number[b]
        way = [project(*p) for p in via]
        if way:
            ends = [_closest(ma, way[0]), _closest(mb, way[-1])]
        else:
            dist, (iy, ix) = ndimage.distance_transform_edt(~mb, return_indices=True)
            d = np.where(ma, dist, np.inf)
            ay, ax = np.unravel_index(int(np.argmin(d)), d.shape)
            ends = [(int(ax), int(ay)), (int(ix[ay, ax]), int(iy[ay, ax]))]
        inner = []
        for (x0, y0), toward, mask in ((ends[0], way[0] if way else ends[1], ma),
                                       (ends[1], way[-1] if way else ends[0], mb)):
            length = max(1.0, float(np.hypot(x0 - toward[0], y0 - toward[1])))
            ux, uy = (x0 - toward[0]) / length, (y0 - toward[1]) / length
            px, py = x0, y0  # reach a little into the space
            for step in (8, 6, 4, 2):
                qx, qy = round(x0 + ux * step), round(y0 + uy * step)
                if 0 <= qx < labels.shape[1] and 0 <= qy < labels.shape[0] and mask[qy, qx]:
                    px, py = qx, qy
                    break
            inner.append([px + 0.5, py + 0.5])
        line = [inner[0], *[[round(x, 1), round(y, 1)] for x, y in way], inner[1]]
        out.append({"a": a, "b": b, "kind": kind, "points": line})
    return out


def _closest(mask: NDArray[np.bool_], at: tuple[float, float]) -> tuple[int, int]:
    ys, xs = np.nonzero(mask)
    j = int(np.argmin((xs - at[0]) ** 2 + (ys - at[1]) ** 2))
    return int(xs[j]), int(ys[j])


# -- output ------------------------------------------------------------------------------


def _palette(board: Board) -> NDArray[np.uint8]:
    """Preview colours: neighbours differ (greedy colouring), seas blue, land pastel."""
    land = [(225, 205, 160), (200, 220, 165), (235, 190, 170), (215, 200, 225),
            (240, 225, 150), (190, 210, 205), (230, 180, 200)]
    sea = [(150, 190, 230), (125, 170, 220), (170, 205, 240), (110, 155, 210),
           (140, 200, 215), (160, 175, 230), (120, 185, 235)]
    palette = np.zeros((len(board.ids) + 1, 3), dtype=np.uint8)
    palette[0] = (25, 25, 30)
    chosen: dict[str, int] = {}
    degree = Counter(p for pair in board.pairs for p in pair)
    for pid in sorted(board.ids, key=lambda p: -degree[p]):
        used = {chosen[o] for pair in board.pairs if pid in pair for o in pair
                if o != pid and o in chosen and board.is_land(o) == board.is_land(pid)}
        colours = land if board.is_land(pid) else sea
        chosen[pid] = next(i for i in range(len(colours)) if i not in used)
        palette[board.number[pid]] = colours[chosen[pid]]
    palette[board.number["swi"]] = (90, 90, 90)
    return palette


def preview(labels: NDArray[np.int32], board: Board, meta: dict[str, Any], path: Path) -> None:
    img = Image.fromarray(_palette(board)[labels])
    draw = ImageDraw.Draw(img)
    for c in meta["connectors"]:
        colour = (30, 90, 200) if c["kind"] == "canal" else (190, 40, 40)
        draw.line([tuple(p) for p in c["points"]], fill=colour, width=3)
    for x, y in meta["units"].values():
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), outline=(0, 0, 0))
    for x, y in meta["coasts"].values():
        draw.rectangle((x - 3, y - 3, x + 3, y + 3), outline=(120, 0, 120))
    for x, y in meta["centres"].values():
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=(255, 255, 255), outline=(0, 0, 0))
    for pid, (x, y) in meta["labels"].items():
        draw.text((x, y), pid.upper(), fill=(0, 0, 0), anchor="mm")
    img.save(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--out", type=Path, default=Path("/tmp/render/1939-iv"))
    args = ap.parse_args(argv)
    board = Board()
    labels, _ = grow(board)
    problems = check(labels, board)
    meta: dict[str, Any] = {
        "variant": "1939-iv",
        "ids": {str(board.number[p]): p for p in board.ids},
        **points(labels, board),
        "connectors": connectors(labels, board),
        "scale": 1.0,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    np.save(args.out / "labels.npy", labels)
    (args.out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    preview(labels, board, meta, args.out / "preview.png")
    for p in problems:
        print(p)
    background = int((labels == 0).sum())
    print(f"{len(board.ids)} spaces, {background} background px, "
          f"{len(problems)} problem(s); wrote {args.out}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
