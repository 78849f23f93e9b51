"""Derive a glossary from a real Korean catalog's own usage (for the precision benchmark).

For the most frequent English content words of the msgids, the Korean word that
co-occurs with each most specifically (Dice coefficient over translated entries) is
taken as its dominant rendering. Korean words are Hangul runs with a trailing
particle cut off by the project's particle table (no morpheme analyser needed).

    PYTHONPATH=tools python benchmarks/precision/derive_glossary.py /work/precision-data/pyko \
        benchmarks/precision/pyko-glossary.yaml --raw benchmarks/precision/pyko-glossary-raw.yaml
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

import polib
import yaml

from jaxko.check.terms import inflections
from jaxko.korean import term_shape_problem

STOP = set("""the and for that with this are from not can be is it an as by or of to in on
at if its has have was were will which when where what who how all any but also more
most other such than then there these those they their them into only some used using
use may must should would could does each one two new see same both returns return
value values following example default instead called because while after before
between without about through within since like just very been being here".split()
""".split())
_EN = re.compile(r"(?<![\w`:<-])[a-z][a-z]{3,}(?![\w`>-])")
_HANGUL = re.compile(r"[가-힣]+")
_PARTICLES = sorted("은 는 이 가 을 를 의 에 에서 에게 로 으로 와 과 도 만 까지 부터 이나 나 "
                    "이며 며 입니다 이다 라는 이라는 처럼 보다 으로서 로서 에도 에는 에서는 으로는 로는".split(),
                    key=len, reverse=True)


def korean_words(text: str) -> set[str]:
    words = set()
    for word in _HANGUL.findall(text):
        for particle in _PARTICLES:
            if word.endswith(particle) and len(word) > len(particle):
                word = word[: -len(particle)]
                break
        if len(word) >= 2:
            words.add(word)
    return words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("catalogs", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--terms", type=int, default=300)
    parser.add_argument("--raw", type=Path, help="also write the unfiltered glossary here")
    args = parser.parse_args()
    pairs = []
    for path in sorted(args.catalogs.rglob("*.po")):
        for entry in polib.pofile(str(path)):
            if entry.msgstr and not entry.fuzzy and entry.msgid != entry.msgstr:
                pairs.append((set(_EN.findall(entry.msgid)), korean_words(entry.msgstr)))
    en_count, ko_count, joint = Counter(), Counter(), Counter()
    for en_words, ko_words in pairs:
        en_words -= STOP
        en_count.update(en_words)
        ko_count.update(ko_words)
        for en in en_words:
            for ko in ko_words:
                joint[en, ko] += 1
    best: dict[str, tuple[float, str]] = {}
    for (en, ko), together in joint.items():
        if together < 5:
            continue
        dice = 2 * together / (en_count[en] + ko_count[ko])
        if dice > best.get(en, (0.0, ""))[0]:
            best[en] = (dice, ko)
    chosen = [en for en, _ in en_count.most_common() if best.get(en, (0,))[0] >= 0.35]
    raw = chosen[: args.terms]
    if args.raw:
        write(args.raw, raw, best, en_count)
    # The cleaned glossary: one term per lemma (the matcher maps objects/returned to
    # object/return itself) and no rendering `jaxko glossary validate` rejects.
    lemmas = set(chosen)
    clean = [en for en in chosen
             if not any(en != other and en in inflections(other, None) for other in lemmas)
             and term_shape_problem(best[en][1]) is None]
    write(args.output, clean[: args.terms], best, en_count)
    print(f"{len(pairs)} translated entries; {min(args.terms, len(clean))} terms -> {args.output}")


def write(path: Path, chosen: list[str], best: dict, en_count: Counter) -> None:
    terms = [{"en": en, "ko": best[en][1],
              "note": f"derived: {en_count[en]} msgids, Dice {best[en][0]:.2f}"}
             for en in chosen]
    path.write_text(
        "# Derived by benchmarks/precision/derive_glossary.py from the catalog's own usage.\n"
        + yaml.safe_dump({"terms": terms}, allow_unicode=True, sort_keys=False), encoding="utf-8")


if __name__ == "__main__":
    main()
