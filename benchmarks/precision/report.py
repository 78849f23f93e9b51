"""Tabulate a hand-labelled precision sample (sample-N.jsonl + labels-N.jsonl) as Markdown.

    python benchmarks/precision/report.py after.json benchmarks/precision/sample-2.jsonl \
        --labels benchmarks/precision/labels-2.jsonl

With ``--relabel``, findings whose message a fix changed are scored by their own, later
labels (a relabelling of the new messages, blind to the first labels). Writes the labels
into the sample file (label, reason, and the severity the finding
has in the run given, which a later refinement may have changed or removed) and prints,
per rule and severity: findings in the run, sampled, real / arguable / false, and the
share real.
The overall figure for error and warning findings weights each stratum by its size
in the run (the sample is stratified, not proportional).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("findings", type=Path)
    parser.add_argument("sample", type=Path)
    parser.add_argument("--labels", type=Path, required=True,
                        help="the labels of the sample (JSON Lines: position, label, reason)")
    parser.add_argument("--root", default="/work/precision-data/pyko/",
                        help="the folder the sample's paths are relative to")
    parser.add_argument("--relabel", type=Path, nargs=2, metavar=("JSONL", "LABELS"),
                        help="findings whose message a later fix changed (each with its "
                             "sample_position) and their own labels: they replace those rows")
    parser.add_argument("--compare", type=Path,
                        help="a second labeller's labels: print where the two agree")
    args = parser.parse_args()
    LABELS = _labels(args.labels)
    final = json.loads(args.findings.read_text(encoding="utf-8"))["findings"]
    population = Counter((f["rule"], f["severity"]) for f in final)
    rows = [json.loads(line) for line in args.sample.read_text(encoding="utf-8").splitlines()]
    # The severity each sampled finding has in the run given (a later refinement may have
    # made a finding a hint): matched by place, rule and the first quoted name.
    by_place = {}
    for f in final:
        by_place.setdefault((f["path"].split(args.root, 1)[-1], f["line"], f["rule"]), []).append(f)
    for number, row in enumerate(rows):
        row["label"], row["reason"] = LABELS[number]
        candidates = by_place.get((row["path"], row["line"], row["rule"]), [])
        token = row["message"].split("`")[1] if "`" in row["message"] else ""
        match = [f for f in candidates if token in f["message"]] or candidates
        row["final_severity"] = match[0]["severity"] if match else "gone"
    if args.relabel:
        changed, labels = args.relabel
        relabels = _labels(labels)
        for number, line in enumerate(changed.read_text(encoding="utf-8").splitlines()):
            row = rows[json.loads(line)["sample_position"]]
            row["label"], row["reason"] = relabels[number]
            row["final_severity"] = json.loads(line)["severity"]
    args.sample.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                           encoding="utf-8")
    strata: dict = defaultdict(Counter)
    gone = [row for row in rows if row["final_severity"] == "gone"]
    for row in rows:
        if row["final_severity"] == "gone":
            continue  # no longer reported by the final run
        strata[row["rule"], row["final_severity"]][row["label"]] += 1
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
    if gone:
        print(f"\n{len(gone)} sampled findings are no longer reported by this run: "
              + ", ".join(f"{r['rule']} ({r['label']})" for r in gone) + ".")
    print(f"\nError and warning findings (shown by default): {int(shown_total)}; estimated real "
          f"{100 * weighted_real / shown_total:.0f} %, real or arguable "
          f"{100 * (weighted_real + weighted_arguable) / shown_total:.0f} % "
          "(strata weighted by their size in the run).")
    if args.compare:
        other = _labels(args.compare)
        same = [n for n in LABELS if n in other and LABELS[n][0] == other[n][0]]
        print(f"\nThe two labellers agree on {len(same)} of {len(LABELS)} findings; they differ on "
              + ", ".join(f"{n} ({rows[n]['rule']}: {LABELS[n][0]} / {other[n][0]})"
                          for n in sorted(set(LABELS) - set(same))) + ".")


LABEL_VALUES = ("real", "arguable", "false")


def _labels(path: Path) -> dict:
    """position -> (label, reason) from a labels file: JSON Lines, one finding a line
    (``{"position", "label", "reason"}``), the first line ``{"about": ...}`` saying who
    labelled what. Data, never code: nothing in it runs."""
    labels = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise SystemExit(f"{path}:{number}: not JSON ({err.msg}); one label a line")
        if "about" in record:
            continue
        if record.get("label") not in LABEL_VALUES or not isinstance(record.get("position"), int):
            raise SystemExit(f"{path}:{number}: needs an integer position and a label of "
                             f"{', '.join(LABEL_VALUES)}")
        labels[record["position"]] = (record["label"], record.get("reason", ""))
    return labels


if __name__ == "__main__":
    main()
