"""Compare The Twentieth Century's sea-to-sea links with DPjudge's Imperial map.

Same designer, same projection, "largely the same seas": where a sea of ours has
the same name as one of Imperial's, the links between such seas should mostly
agree, and every difference is worth a look at the image. DPjudge's files are
MIT-licensed; they are only read here. Run: ``python tools/twentieth/compare_imperial.py``.
"""

from __future__ import annotations

import re
import tomllib
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DPJUDGE = ROOT.parent / "shared" / "reference" / "maps" / "dpjudge"
OURS = ROOT / "src" / "standoff" / "core" / "variants" / "twentieth-century.toml"


def main() -> None:
    names = {}
    for line in (DPJUDGE / "imperial.locations").read_text().splitlines():
        name, eq, abbr = line.partition("=")
        if eq and abbr.split():
            names[abbr.split()[0].lower()] = name.strip().lower()
    imp_seas: set[str] = set()
    imp: dict[str, set[str]] = defaultdict(set)
    for line in (DPJUDGE / "imperial.geography").read_text().splitlines():
        m = re.match(r"(\w+)\s+(\S+)\s+ABUTS\s+(.*)", line)
        if not m:
            continue
        kind, a, rest = m.groups()
        a = a.lower().split("/")[0]
        if kind == "WATER":
            imp_seas.add(a)
        for b in rest.split():
            imp[a].add(re.sub(r"\(.*", "", b).lower().split("/")[0])
    data = tomllib.loads(OURS.read_text())
    prov = data["provinces"]
    by_name = {v["name"].lower(): k for k, v in prov.items() if v["terrain"] == "sea"}
    ours: dict[str, set[str]] = defaultdict(set)
    for edge in data["adjacency"]["fleet"].split():
        a, b = (x.split("/")[0] for x in edge.split("-"))
        ours[a].add(b)
        ours[b].add(a)
    same = {a: by_name[names[a]] for a in imp_seas if names.get(a) in by_name}
    back = {v: k for k, v in same.items()}
    print(f"{len(same)} seas share a name ({len(imp_seas)} Imperial seas, {len(by_name)} ours)")
    for a, mine in sorted(same.items()):
        for b in sorted(imp[a]):
            if b in same and a < b and same[b] not in ours[mine]:
                print(f"Imperial only: {prov[mine]['name']} - {prov[same[b]]['name']}")
        for other in sorted(ours[mine]):
            if other in back and mine < other and back[other] not in imp[a]:
                print(f"ours only:     {prov[mine]['name']} - {prov[other]['name']}")


if __name__ == "__main__":
    main()
