"""Draw the labelled precision sample: findings of `jaxko check --format json` on a real
catalog, stratified by rule (a fixed number per rule, all of a rule that has fewer),
with a fixed seed so the same run draws the same sample.

    jaxko check --no-cache --syntax rst --glossary benchmarks/precision/pyko-glossary.yaml \
        --format json /work/precision-data/pyko > after.json
    python benchmarks/precision/draw_sample.py after.json benchmarks/precision/sample.jsonl

Each line of the output is one finding (path relative to the catalog root, rule,
severity, message, msgid, msgstr); `label` and `reason` are filled in by hand
(real / arguable / false) and `report.py` tabulates them.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path

SEED = 19
PER_RULE = 12
LARGEST_RULE_EXTRA = 8  # the rule with most findings gets this many more


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("findings", type=Path, help="jaxko check --format json output")
    parser.add_argument("output", type=Path)
    parser.add_argument("--root", default="/work/precision-data/pyko/")
    parser.add_argument("--per-rule", type=int, default=PER_RULE,
                        help=f"findings drawn per rule and severity (default {PER_RULE})")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    findings = json.loads(args.findings.read_text(encoding="utf-8"))["findings"]
    by_rule = defaultdict(list)  # stratum: rule and severity (a rule may give hints too)
    for finding in findings:
        by_rule[finding["rule"], finding["severity"]].append(finding)
    largest = max(by_rule, key=lambda r: len(by_rule[r]))
    rng = random.Random(args.seed)
    sample = []
    for rule in sorted(by_rule):
        group = sorted(by_rule[rule], key=lambda f: (f["path"], f["line"], f["message"]))
        size = args.per_rule + (LARGEST_RULE_EXTRA if rule == largest else 0)
        sample.extend(rng.sample(group, min(size, len(group))))
    with args.output.open("w", encoding="utf-8") as out:
        for f in sample:
            out.write(json.dumps({"path": f["path"].removeprefix(args.root), "line": f["line"],
                                  "rule": f["rule"], "severity": f["severity"],
                                  "message": f["message"], "msgid": f["msgid"],
                                  "msgstr": f["msgstr"], "label": "", "reason": ""},
                                 ensure_ascii=False) + "\n")
    print(f"{len(sample)} findings of {len(findings)} ({len(by_rule)} rules) -> {args.output}")


if __name__ == "__main__":
    main()
