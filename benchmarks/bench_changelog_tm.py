"""What translation memory gives back for a release's changelog entries (issue 42).

Two measurements on the real catalogs, printed as markdown for BENCHMARKS.md:

* **Hold out a release**: in a copy of locale/ko, the changelog messages that occur only
  in one release's section of CHANGELOG.md are emptied (as a bump leaves a new
  release's messages), then ``jaxko tm fill`` (``jaxko.workflow.tm.fill``) runs on the
  changelog with every catalog as memory. Per kind of fill: how many came back equal to
  the translator's own text, how many differ; how many stay for a translator; seconds.
* **Every same-form message**: each translated one-line message with numbers, dates or
  URLs is made from its same-form siblings (``jaxko.workflow.tmforms``); how many exact
  substitutions equal the translator's text.

Run: ``python benchmarks/bench_changelog_tm.py`` (uses _build/upstream/CHANGELOG.md
for the release sections).
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from jaxko.workflow import tm, tmforms  # noqa: E402

RELEASES = 6   # the newest release sections held out, one at a time


def sections() -> list[tuple[str, int, int]]:
    lines = (ROOT / "_build" / "upstream" / "CHANGELOG.md").read_text(encoding="utf-8").splitlines()
    heads = [(i + 1, line[3:]) for i, line in enumerate(lines)
             if re.match(r"## (JAX|jax|jaxlib) \d", line)]
    return [(title, start, heads[n + 1][0] if n + 1 < len(heads) else len(lines) + 1)
            for n, (start, title) in enumerate(heads[:RELEASES])]


def hold_out(title: str, lo: int, hi: int) -> str:
    tmp = Path(tempfile.mkdtemp())
    try:
        shutil.copytree(ROOT / "locale" / "ko", tmp / "ko")
        path = tmp / "ko" / "LC_MESSAGES" / "changelog.po"
        po = polib.pofile(str(path))
        truth = {}
        for entry in po:
            lines = [int(n) for f, n in entry.occurrences if f.endswith("CHANGELOG.md") and n]
            if not entry.obsolete and entry.msgstr and lines and all(lo <= n < hi for n in lines):
                truth[entry.msgid] = entry.msgstr
                entry.msgstr = ""
        po.save(str(path))
        start = time.perf_counter()
        result = tm.fill([path], [tmp / "ko"], root=tmp)
        seconds = time.perf_counter() - start
        after = {e.msgid: e.msgstr for e in polib.pofile(str(path))}
        kinds: dict[str, list[int]] = {}
        for f in result.fills:
            kinds.setdefault(f.kind, [0, 0])[after[f.msgid] != truth[f.msgid]] += 1
        shown = ", ".join(f"{k} {same}+{diff}" for k, (same, diff) in sorted(kinds.items()))
        return (f"| {title} | {len(truth)} | {shown or '-'} | "
                f"{len(truth) - sum(f.kind in ('exact', 'form') for f in result.fills)} | "
                f"{seconds:.2f} |")
    finally:
        shutil.rmtree(tmp)


def same_form() -> str:
    memory = tm.build_memory([ROOT / "locale" / "ko"])
    counts: Counter = Counter()
    for path in sorted((ROOT / "locale" / "ko" / "LC_MESSAGES").rglob("*.po")):
        for entry in polib.pofile(str(path)):
            if entry.obsolete or not tm.remembered(entry) or "\n" in entry.msgid:
                continue
            skeleton, slots = tmforms.split(entry.msgid)
            siblings = [u for u in memory.forms._by_skeleton.get(skeleton, [])
                        if u.msgid != entry.msgid] if slots else []
            if not siblings:
                continue
            made = [tmforms.substitute(u.msgid, u.msgstr, entry.msgid) for u in siblings]
            exact = Counter(m.msgstr for m in made if m and m.exact)
            if not exact:
                counts["fuzzy only"] += 1
            else:
                counts["same" if exact.most_common(1)[0][0] == entry.msgstr else "differs"] += 1
    return (f"{counts['same'] + counts['differs'] + counts['fuzzy only']} translated one-line "
            f"messages have a same-form sibling: exact substitution equals the translator's "
            f"text for {counts['same']}, differs for {counts['differs']}; "
            f"{counts['fuzzy only']} get only a fuzzy suggestion.")


def main() -> None:
    print("| release held out | messages only in it | fills (kind same+different) | "
          "left for a translator | seconds |")
    print("|---|---:|---|---:|---:|")
    for title, lo, hi in sections():
        print(hold_out(title, lo, hi))
    print()
    print(same_form())


if __name__ == "__main__":
    main()
