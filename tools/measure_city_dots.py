"""Measure how far each Standard supply-centre dot lies from each bordering sea.

City/Country rule .4: "Cities of former coastal supply centers touch a sea only
if the (black) dot representing them on the map is contiguous to the sea." This
tool reads a Standard map SVG whose centre markers are ``<use id="sc_XXX" x y
width="20">`` and whose provinces are paths ``id="_xxx"`` inside a layer
translated by (-195, -170) (the layout of the MILA/jDip standard.svg, which is
measured only, never copied), samples every sea outline and prints the
distance in px from each dot's centre to the nearest point of each sea the
province borders. The rulings in docs/variants/city-country.md use a
threshold of 21 px (the dot's outer ring is about 9.3 px).

    python tools/measure_city_dots.py ../shared/reference/maps/mila/standard.svg
"""

from __future__ import annotations

import math
import re
import sys

from standoff.core.variant import load_variant

#: the SVG's ids for seas whose Standard ids differ
SVG_IDS = {"lyo": "gol", "mao": "mid", "nao": "nat", "nwg": "nrg", "tys": "tyn"}
LAYER_SHIFT = (-195.0, -170.0)


def outline(d: str) -> list[tuple[float, float]]:
    """Points along a path of M, L, C and Z commands (absolute coordinates)."""
    toks = re.findall(r"[A-Za-z]|-?[\d.]+", d)
    out: list[tuple[float, float]] = []
    cur = start = (0.0, 0.0)
    cmd = ""
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.isalpha():
            cmd = t
            i += 1
            if cmd in "zZ":
                out += [(cur[0] + (start[0] - cur[0]) * k / 20,
                         cur[1] + (start[1] - cur[1]) * k / 20) for k in range(21)]
                cur = start
            continue
        if cmd in ("M", "L"):
            x, y = float(toks[i]), float(toks[i + 1])
            i += 2
            if cmd == "L":
                out += [(cur[0] + (x - cur[0]) * k / 20, cur[1] + (y - cur[1]) * k / 20)
                        for k in range(21)]
            else:
                start = (x, y)
                cmd = "L"
            cur = (x, y)
            out.append(cur)
        elif cmd == "C":
            c = [float(v) for v in toks[i:i + 6]]
            i += 6
            p = [cur, (c[0], c[1]), (c[2], c[3]), (c[4], c[5])]
            for k in range(41):
                s = k / 40
                w = ((1 - s) ** 3, 3 * (1 - s) ** 2 * s, 3 * (1 - s) * s ** 2, s ** 3)
                out.append((sum(w[j] * p[j][0] for j in range(4)),
                            sum(w[j] * p[j][1] for j in range(4))))
            cur = p[3]
        else:
            raise ValueError(f"unsupported path command {cmd!r}")
    return out


def main(path: str) -> None:
    with open(path, encoding="utf-8") as fh:
        svg = fh.read()
    paths = {m.group(2): m.group(1)
             for m in re.finditer(r'<path[^>]*?d="([^"]+)"[^>]*?id="_([a-z]+)"', svg)}
    board = load_variant("standard").board
    for m in sorted(re.finditer(r'<use[^>]*?id="sc_([A-Z]+)"[^>]*>', svg),
                    key=lambda m: m.group(1)):
        tag, sc = m.group(0), m.group(1).lower()
        x = float(re.search(r'\bx="([\d.]+)"', tag).group(1)) + 10  # type: ignore[union-attr]
        y = float(re.search(r'\by="([\d.]+)"', tag).group(1)) + 10  # type: ignore[union-attr]
        seas = sorted(p for p in board.neighbours[sc] if board.is_sea(p))
        dist = {}
        for s in seas:
            pts = outline(paths[SVG_IDS.get(s, s)])
            dist[s] = min(math.hypot(px + LAYER_SHIFT[0] - x, py + LAYER_SHIFT[1] - y)
                          for px, py in pts)
        near = " ".join(f"{s} {d:.1f}" for s, d in dist.items()) or "(inland)"
        print(f"{sc} ({x:.1f}, {y:.1f}): {near}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else
         "../shared/reference/maps/mila/standard.svg")
