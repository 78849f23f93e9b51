"""Precision of `jaxko terms` drift lines on a labelled sample.

    jaxko terms --format json > /tmp/terms.json
    python benchmarks/precision/terms_precision.py /tmp/terms.json benchmarks/precision/terms-labels.tsv

The labels (`term`, `true_drift` yes/no/unsure, why) judge the top drift lines of one
report: true drift when the renderings translate one sense of the term (a reviewer
would unify them or record a variant); not when they translate different senses or
one of them is an alignment error. `unsure` counts as not true. Terms of the sample
that a later report no longer lists are counted apart.
"""

from __future__ import annotations

import csv
import json
import sys


def main(report_path: str, labels_path: str) -> None:
    report = json.load(open(report_path, encoding="utf-8"))
    listed = {item["term"] for item in report["drift"]}
    with open(labels_path, encoding="utf-8") as handle:
        labels = list(csv.DictReader(handle, delimiter="\t"))
    kinds = {item["term"]: item.get("kind", "word") for item in report["drift"]}
    for kind in ("glossary", "phrase", "word", None):
        present = [row for row in labels if row["term"] in listed
                   and (kind is None or kinds[row["term"]] == kind)]
        true = sum(row["true_drift"] == "yes" for row in present)
        unsure = sum(row["true_drift"] == "unsure" for row in present)
        print(f"{kind or 'all'}: labelled and listed {len(present)}, true drift {true}, "
              f"unsure {unsure}, precision {true / max(len(present), 1):.2f}")
    gone = [row["term"] for row in labels if row["term"] not in listed]
    print(f"labelled, no longer listed: {len(gone)} {' '.join(gone)}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
