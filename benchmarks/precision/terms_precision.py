"""Precision of `jaxko terms` drift lines on a labelled sample.

    jaxko terms --format json > /tmp/terms.json
    python benchmarks/precision/terms_precision.py /tmp/terms.json benchmarks/precision/terms-labels.tsv

The labels (`term`, `true_drift` yes/no/unsure, why, `sample`) judge drift lines of a
report: true drift when the renderings translate one sense of the term (a reviewer
would unify them or record a variant); not when they translate different senses or
one of them is an alignment error. `unsure` counts as not true. Sample `top`: the top
lines of one report (all kinds); sample `random`: single words drawn at random from a
later report, half below and half above the general-word threshold.

Per kind and per sample: the labelled lines the report lists and how many are true
drift (precision); the labelled single words it leaves out as general English words
(`left_out` of the JSON, listed by `--all-words`) and how many of those were true drift;
the labelled terms it no longer has at all (fixed in the catalogs since, or gone).
"""

from __future__ import annotations

import csv
import json
import sys


def _line(name: str, rows: list[dict]) -> str:
    true = sum(row["true_drift"] == "yes" for row in rows)
    unsure = sum(row["true_drift"] == "unsure" for row in rows)
    return (f"{name}: {len(rows)} labelled, true drift {true}, unsure {unsure}, "
            f"precision {true / max(len(rows), 1):.2f}")


def main(report_path: str, labels_path: str) -> None:
    with open(report_path, encoding="utf-8") as handle:
        report = json.load(handle)
    kinds = {item["term"]: item.get("kind", "word") for item in report["drift"]}
    left_out = set(report.get("left_out", ()))
    with open(labels_path, encoding="utf-8") as handle:
        labels = list(csv.DictReader(handle, delimiter="\t"))
    for sample in ("all samples", *sorted({row.get("sample", "top") for row in labels})):
        rows = [row for row in labels
                if sample == "all samples" or row.get("sample", "top") == sample]
        print(f"[{sample}]")
        for kind in ("glossary", "phrase", "word", None):
            listed = [row for row in rows if row["term"] in kinds
                      and (kind is None or kinds[row["term"]] == kind)]
            print("  listed " + _line(kind or "all", listed))
        out = [row for row in rows if row["term"] in left_out]
        print("  left out as general words " + _line("word", out))
        gone = [row["term"] for row in rows
                if row["term"] not in kinds and row["term"] not in left_out]
        print(f"  labelled, no longer in the report: {len(gone)} {' '.join(gone)}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
