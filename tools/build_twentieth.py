"""Build The Twentieth Century's variant file from the transcribed map.

Inputs:

* the digitiser's segmentation of ``20th-small.gif`` (``digitise_map.py segment``):
  regions, the borders between them and their triple points;
* ``tools/twentieth/regions/*.toml``: one file per part of the world, written by
  a person looking at numbered crops of the named map: which regions form which
  space (name, terrain, centre, coasts) and the links the pixels get wrong
  (land bridges, split coasts, corner touches), each with its reason;
* ``tools/twentieth/header.toml``: powers, starting units, calendar, victory.

Links follow from shared borders: land-land is an army link; sea-sea and
sea-coast are fleet links; two coastal spaces are linked for fleets only when
their border ends on a sea touching both (a triple point), because fleets sail
along a shared coast. Spaces with split coasts get their fleet links only from
the region files. The output is ``src/standoff/core/variants/twentieth-century.toml``
and a report of everything suspicious on stderr.

Run: ``python tools/build_twentieth.py --seg /tmp/20th/seg``
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = ROOT / "src" / "standoff" / "core" / "variants" / "twentieth-century.toml"
LAND = ("land", "coast")


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


class Build:
    def __init__(self, seg: Path) -> None:
        self.problems: list[str] = []
        self.comps = {c["id"]: c for c in json.loads((seg / "components.json").read_text())}
        borders = json.loads((seg / "borders.json").read_text())
        self.borders = borders["borders"]
        self.triples = borders["triples"]
        self.spaces: dict[str, dict[str, Any]] = {}
        self.fixes: list[dict[str, Any]] = []
        self.checked: dict[str, str] = {}
        self.canals: dict[str, list[str]] = {}
        self.owner: dict[int, str] = {}
        ids = tomllib.loads((HERE / "twentieth" / "ids.toml").read_text())
        for path in sorted((HERE / "twentieth" / "regions").glob("*.toml")):
            rename = {**ids.get("rename", {}), **ids.get("rename_in", {}).get(path.stem, {})}
            self._read_region(path, rename)
        ignored = set(ids.get("ignore", {}).get("components", []))
        for cid, c in self.comps.items():
            if cid not in self.owner and c["class"] != "white" and cid not in ignored:
                self.problems.append(f"region #{cid} ({c['class']} at {c['label_point']}) "
                                     "belongs to no space")

    def _read_region(self, path: Path, rename: dict[str, str]) -> None:
        data = tomllib.loads(path.read_text())

        def new(sid: str) -> str:
            prov, slash, coast = sid.lower().partition("/")
            return rename.get(prov, prov) + slash + coast

        data["spaces"] = {new(k): v for k, v in data.get("spaces", {}).items()}
        for fix in data.get("fix", []):
            a, _, b = fix["link"].partition("-")
            fix["link"] = f"{new(a)}-{new(b)}"
        data["canals"] = {new(c): [new(x) for x in seas]
                          for c, seas in data.get("canals", {}).items()}
        for sid, sp in data.get("spaces", {}).items():
            sid = sid.lower()
            if sid in self.spaces:
                old = self.spaces[sid]
                if old["name"] != sp["name"] or old["terrain"] != sp["terrain"]:
                    self.problems.append(f"{sid}: named twice differently ({old['name']} "
                                         f"{old['terrain']} in {old['_file']}, {sp['name']} "
                                         f"{sp['terrain']} in {path.name})")
                old["components"] = list(old["components"]) + list(sp.get("components", []))
                continue
            self.spaces[sid] = {**sp, "_file": path.name}
        for sid, sp in data.get("spaces", {}).items():
            for cid in sp.get("components", []):
                if cid in self.owner and self.owner[cid] != sid.lower():
                    self.problems.append(f"region #{cid} is in both {self.owner[cid]} and {sid}")
                self.owner[cid] = sid.lower()
        for fix in data.get("fix", []):
            self.fixes.append({**fix, "_file": path.name})
        self.checked[path.stem] = str(data.get("region", {}).get("checked", "")).strip()
        for canal, seas in data.get("canals", {}).items():
            self.canals[canal.lower()] = [s.lower() for s in seas]

    def links(self) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
        touching: dict[tuple[str, str], int] = defaultdict(int)
        for b in self.borders:
            a, c = self.owner.get(b["a"]), self.owner.get(b["b"])
            if a and c and a != c:
                touching[_pair(a, c)] += b["length"]
        coast_pairs: set[tuple[str, str]] = set()
        for t in self.triples:
            names = {self.owner[c] for c in t if c in self.owner}
            seas = [n for n in names if self.spaces[n]["terrain"] == "sea"]
            coasts = sorted(n for n in names if self.spaces[n]["terrain"] == "coast")
            if seas:
                for i, a in enumerate(coasts):
                    for b in coasts[i + 1:]:
                        coast_pairs.add(_pair(a, b))
        army: set[tuple[str, str]] = set()
        fleet: set[tuple[str, str]] = set()
        for (a, b), _n in touching.items():
            ta, tb = self.spaces[a]["terrain"], self.spaces[b]["terrain"]
            if "impassable" in (ta, tb):
                continue
            split = bool(self.spaces[a].get("coasts")) or bool(self.spaces[b].get("coasts"))
            if ta in LAND and tb in LAND:
                army.add((a, b))
                if ta == tb == "coast" and (a, b) in coast_pairs and not split:
                    fleet.add((a, b))
            elif "land" in (ta, tb):
                self.problems.append(f"{a} ({ta}) touches {b} ({tb}): land beside a sea "
                                     "should be coast")
            elif not split:
                fleet.add((a, b))
        for fix in self.fixes:
            kind, link = fix["kind"], fix["link"].lower()
            a, _, b = link.partition("-")
            pa, pb = a.split("/")[0], b.split("/")[0]
            for s in (pa, pb):
                if s not in self.spaces:
                    self.problems.append(f"fix {link} ({fix['_file']}): unknown space {s!r}")
            if kind == "remove":
                army.discard(_pair(pa, pb))
                fleet -= {p for p in fleet if {x.split("/")[0] for x in p} == {pa, pb}}
            elif kind == "army_only":
                fleet -= {p for p in fleet if {x.split("/")[0] for x in p} == {pa, pb}}
                army.add(_pair(pa, pb))
            elif kind == "fleet_only":
                army.discard(_pair(pa, pb))
            if kind in ("add_army", "add_both"):
                army.add(_pair(pa, pb))
            if kind in ("add_fleet", "add_both", "fleet_only"):
                fleet.add(_pair(a, b))
            if kind not in ("add_army", "add_fleet", "add_both", "remove", "army_only",
                            "fleet_only"):
                self.problems.append(f"fix {link}: unknown kind {kind!r}")
        return army, fleet

    def write(self, header: Path) -> str:
        army, fleet = self.links()
        head = tomllib.loads(header.read_text())
        homes: dict[str, list[str]] = defaultdict(list)
        for sid, sp in self.spaces.items():
            if sp.get("centre") == "home":
                homes[sp.get("home_of", "?")].append(sid)
        lines = [header.read_text().split("[powers.", 1)[0].rstrip(), ""]
        for pid, p in head["powers"].items():
            lines += [f"[powers.{pid}]", f'name = "{p["name"]}"',
                      f'adjective = "{p["adjective"]}"',
                      *([f"aliases = {json.dumps(p['aliases'])}"] if p.get("aliases") else []),
                      f"home_centres = {json.dumps(sorted(homes.get(pid, [])))}",
                      f"units = {json.dumps(p['units'])}", ""]
            for u in p["units"]:
                loc = u.split()[1].split("/")[0]
                if loc not in homes.get(pid, []):
                    self.problems.append(f"{pid} starts with {u} outside its home centres")
        for pid in homes:
            if pid not in head["powers"]:
                self.problems.append(f"home centres {homes[pid]} of unknown power {pid!r}")
        lines.append("[provinces]")
        for sid in sorted(self.spaces):
            sp = self.spaces[sid]
            fields = [f'name = "{sp["name"]}"', f'terrain = "{sp["terrain"]}"']
            if sp.get("centre"):
                fields.append("centre = true")
            if sp.get("coasts"):
                fields.append(f"coasts = {json.dumps(sp['coasts'])}")
            aliases = [a for a in sp.get("aliases", []) if a.lower() != sid]
            if aliases:
                fields.append(f"aliases = {json.dumps(aliases)}")
            lines.append(f'{json.dumps(sid) if "-" in sid else sid} = {{ {", ".join(fields)} }}')
        lines += ["", "[adjacency]", "# Links armies can use, both ways.", 'army = """']
        lines += [*_wrap(sorted(f"{a}-{b}" for a, b in army)), '"""']
        lines += ["# Links fleets can use, both ways (coast-specific where a space has coasts).",
                  'fleet = """']
        lines += [*_wrap(sorted(f"{a}-{b}" for a, b in fleet)), '"""', ""]
        if self.canals:
            lines += ["# Straits and canals: their owner's fleets pass between these seas.",
                      "[canals]"]
            lines += [f"{c} = {json.dumps(s)}" for c, s in sorted(self.canals.items())]
        return "\n".join(lines) + "\n"


    def doc(self, army: set[tuple[str, str]], fleet: set[tuple[str, str]]) -> str:
        """The map appendix of the variant doc: every space, link and ruling."""
        out = ["# The Twentieth Century: the map, space by space", "",
               "Generated by `tools/build_twentieth.py` from the transcription in "
               "`tools/twentieth/` (do not edit by hand). The rules and rulings are in "
               "[twentieth-century.md](twentieth-century.md).", ""]
        terr: dict[str, int] = defaultdict(int)
        for sp in self.spaces.values():
            terr[sp["terrain"]] += 1
        homes: dict[str, list[str]] = defaultdict(list)
        neutral = sorted(k for k, sp in self.spaces.items() if sp.get("centre") == "neutral")
        for k, sp in self.spaces.items():
            if sp.get("centre") == "home":
                homes[sp["home_of"]].append(k)
        out += ["## Statistics", "",
                f"{len(self.spaces)} spaces: " + ", ".join(f"{n} {t}" for t, n in
                                                          sorted(terr.items())) + ".",
                f"{len(army)} army links, {len(fleet)} fleet links.",
                f"{sum(map(len, homes.values())) + len(neutral)} supply centres: "
                f"{sum(map(len, homes.values()))} home, {len(neutral)} neutral.", "",
                "| power | home centres |", "| --- | --- |"]
        for pw in sorted(homes, key=lambda p: (-len(homes[p]), p)):
            out.append(f"| {pw} ({len(homes[pw])}) | {' '.join(sorted(homes[pw])).upper()} |")
        out += [f"| neutral ({len(neutral)}) | {' '.join(neutral).upper()} |", ""]
        near_a: dict[str, list[str]] = defaultdict(list)
        near_f: dict[str, list[str]] = defaultdict(list)
        for a, b in army:
            near_a[a].append(b)
            near_a[b].append(a)
        for a, b in fleet:
            near_f[a].append(b)
            near_f[b].append(a)
        out += ["## Spaces", "", "Fleet links name the coast where a space has several.", "",
                "| id | name | terrain | centre | army links | fleet links |",
                "| --- | --- | --- | --- | --- | --- |"]
        for sid in sorted(self.spaces):
            sp = self.spaces[sid]
            centre = {"home": f"home ({sp.get('home_of')})", "neutral": "neutral"}.get(
                sp.get("centre", ""), "")
            fl = sorted(set(near_f.get(sid, []) + [f"{c.split('/')[1]}: {o}" for c in
                        [f"{sid}/{x}" for x in sp.get("coasts", [])] for o in near_f.get(c, [])]))
            out.append(f"| {sid.upper()} | {sp['name']} | {sp['terrain']} | {centre} | "
                       f"{' '.join(sorted(near_a.get(sid, []))).upper()} | "
                       f"{', '.join(fl).upper()} |")
        if self.canals:
            out += ["", "## Canals", ""]
            out += [f"- {c.upper()}: between {', '.join(s.upper() for s in seas)}"
                    for c, seas in sorted(self.canals.items())]
        out += ["", "## Links set by hand, and why", "",
                "The pixel borders give most links; these were added, removed or limited "
                "by the person checking each region.", "",
                "| region | link | change | why |", "| --- | --- | --- | --- |"]
        for f in sorted(self.fixes, key=lambda f: (f["_file"], f["link"])):
            why = str(f.get("why", "")).replace("|", "/").replace("\n", " ")
            out.append(f"| {f['_file'][:-5]} | {f['link'].upper()} | {f['kind']} | {why} |")
        out += ["", "## What was checked, region by region", ""]
        for region, text in sorted(self.checked.items()):
            out += [f"### {region}", "", text, ""]
        return "\n".join(out) + "\n"


def _wrap(items: list[str], width: int = 92) -> list[str]:
    out, line = [], ""
    for it in items:
        if line and len(line) + 1 + len(it) > width:
            out.append(line)
            line = it
        else:
            line = f"{line} {it}".strip()
    if line:
        out.append(line)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seg", type=Path, required=True, help="digitise_map.py segment output")
    ap.add_argument("-o", "--out", type=Path, default=OUT)
    ap.add_argument("--doc", type=Path, default=ROOT / "docs" / "variants" /
                    "twentieth-century-map.md", help="where to write the map appendix")
    args = ap.parse_args()
    b = Build(args.seg)
    text = b.write(HERE / "twentieth" / "header.toml")
    args.out.write_text(text)
    args.doc.write_text(b.doc(*b.links()))
    terrains: dict[str, int] = defaultdict(int)
    for sp in b.spaces.values():
        terrains[sp["terrain"]] += 1
    print(f"wrote {args.out}: {len(b.spaces)} spaces {dict(terrains)}")
    for p in b.problems:
        print("PROBLEM:", p, file=sys.stderr)


if __name__ == "__main__":
    main()
