"""Search ranking: does the page a reader looks for come first?

`python benchmarks/search_ranking.py SITE [SITE ...]` runs :data:`QUERIES` (Korean and
English; API names among them) through each built site's own search code in Node
(`benchmarks/search_rank.js`: Sphinx's searchtools.js with the site's
language_data.js, stemmer and scorer included) and prints, per query, the rank of the
expected page in each site, then how many queries have it first. Figures are in
BENCHMARKS.md ("Search ranking"). Needs `node`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# query -> the page a reader means (docname)
QUERIES: dict[str, str] = {
    "jit": "jit-compilation",
    "vmap": "automatic-vectorization",
    "grad": "automatic-differentiation",
    "pmap": "migrate_pmap",
    "shard_map": "notebooks/shard_map",
    "pallas": "pallas/index",
    "checkify": "debugging/checkify_guide",
    "pytree": "pytrees",
    "jaxpr": "jaxpr",
    "FFI": "ffi",
    "FAQ": "faq",
    "profiling": "profiling",
    "automatic differentiation": "automatic-differentiation",
    "자동 미분": "automatic-differentiation",
    "자동 벡터화": "automatic-vectorization",
    "의사 난수": "random-numbers",
    "설치": "installation",
    "트레이싱": "tracing",
    "컴파일 캐시": "persistent_compilation_cache",
    "타입 승격": "type_promotion",
}


def rankings(site: Path, queries: list[str]) -> dict[str, list[str]]:
    proc = subprocess.run(["node", str(ROOT / "benchmarks" / "search_rank.js"), str(site)],
                          input=json.dumps(queries, ensure_ascii=False), capture_output=True,
                          text=True, check=True)
    return json.loads(proc.stdout)


def rank(found: list[str], expected: str) -> int | None:
    return found.index(expected) + 1 if expected in found else None


def main(argv: list[str]) -> int:
    sites = [Path(a) for a in argv] or [ROOT / "_build" / "html"]
    results = [rankings(site, list(QUERIES)) for site in sites]
    header = "| query | expected first page | " + " | ".join(
        f"rank ({site})" for site in sites) + " |"
    print(header)
    print("|" + "---|" * (2 + len(sites)))
    firsts = [0] * len(sites)
    for query, expected in QUERIES.items():
        cells = []
        for i, found in enumerate(results):
            r = rank(found[query], expected)
            firsts[i] += r == 1
            cells.append(f"{r} of {len(found[query])}" if r else f"not found ({len(found[query])})")
        print(f"| `{query}` | {expected} | " + " | ".join(cells) + " |")
    print("| **first** | | " + " | ".join(f"**{n}/{len(QUERIES)}**" for n in firsts) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
