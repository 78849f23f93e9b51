"""Tabulate the hand-labelled precision sample (sample.jsonl + labels.py) as Markdown.

    python benchmarks/precision/report.py after.json benchmarks/precision/sample.jsonl

Writes the labels into the sample file (label, reason) and prints, per rule and
severity: findings in the run, sampled, real / arguable / false, and the share real.
The overall figure for error and warning findings weights each stratum by its size
in the run (the sample is stratified, not proportional).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from labels import LABELS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("findings", type=Path)
    parser.add_argument("sample", type=Path)
    args = parser.parse_args()
    population = Counter((f["rule"], f["severity"]) for f in
                         json.loads(args.findings.read_text(encoding="utf-8"))["findings"])
    rows = [json.loads(line) for line in args.sample.read_text(encoding="utf-8").splitlines()]
    for number, row in enumerate(rows):
        row["label"], row["reason"] = LABELS[number]
    args.sample.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                           encoding="utf-8")
    strata: dict = defaultdict(Counter)
    for row in rows:
        strata[row["rule"], row["severity"]][row["label"]] += 1
    print("| rule | severity | findings | sampled | real | arguable | false | real % |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    shown_total = weighted_real = weighted_arguable = 0.0
    for (rule, severity), labels in sorted(strata.items(), key=lambda item: (
            ["error", "warning", "info"].index(item[0][1]), item[0][0])):
        n = sum(labels.values())
        share = labels["real"] / n
        print(f"| `{rule}` | {severity} | {population[rule, severity]} | {n} | {labels['real']} "
              f"| {labels['arguable']} | {labels['false']} | {100 * share:.0f} |")
        if severity != "info":
            size = population[rule, severity]
            shown_total += size
            weighted_real += size * share
            weighted_arguable += size * labels["arguable"] / n
    print(f"\nError and warning findings (shown by default): {int(shown_total)}; estimated real "
          f"{100 * weighted_real / shown_total:.0f} %, real or arguable "
          f"{100 * (weighted_real + weighted_arguable) / shown_total:.0f} % "
          "(strata weighted by their size in the run).")


if __name__ == "__main__":
    main()
