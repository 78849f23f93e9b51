"""`jaxko check` on a synthetic catalog set the size of python-docs-ko.

`python benchmarks/bench_check.py` (or `python benchmarks/run.py check`). Prints
markdown for BENCHMARKS.md.

The catalogs are generated, not copied: 508 files, 75,775 entries, about 25 MB, reST
and MyST locations, English msgids with roles, literals, links and glossary terms,
Korean msgstrs with the agreed renderings and particles (a few planted mistakes),
some code blocks. Two glossaries: 300 terms (the catalogs use them) and 3,000 terms
(the same 300 plus 2,700 more). Every time is the best of several runs and is shown
as a ratio to polib's parse time of the same files, measured in the same run: the
machine's speed cancels out.

* polib parse: `polib.pofile` on every file, one process (the baseline);
* check: the whole `jaxko check` (all rules) in-process, cold, with 1, 2 and 4
  processes, and as a command line (`jaxko check DIR --glossary G --no-cache`,
  interpreter start-up and imports included) with its peak memory; its findings must
  be the same with `--no-prefilter` (every rule on every message);
* the real catalog (python-docs-ko, `$JAXKO_BENCH_REAL`, default
  /work/precision-data/pyko, with the glossary derived from it) when it is there;
* where the time goes: each stage of a catalog's check, one process;
* ``--peers``: jaxko check, sphinx-lint, pofilter and polib's parse as command lines on
  the same corpus (python-docs-ko when it is there, else the synthetic set), in rounds,
  with the ratios taken within each round (sphinx-lint and pofilter come from the
  ``bench`` extra: ``pip install -e '.[bench]'``); ``--baseline=DIR`` adds another
  checkout's ``jaxko check`` (the code before a change) to the same rounds.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import polib  # noqa: E402

from jaxko.check.runner import Options, run  # noqa: E402

BENCH = ROOT / "_build" / "bench" / "check"
FILES = 508
ENTRIES = 75_775
SEED = 20240601
SYLLABLES = [chr(c) for c in range(0xAC00, 0xD7A4, 97)]
ENGLISH = ("the of and to in is that for it as with was on by be this are from or an "
           "which can use you not all when we one there each how more if will other "
           "value result data model program step example case way number part system "
           "level order point group state process form set line call run make show "
           "return change apply build define compute create produce follow write read").split()
PARTICLES_AFTER = ["을", "를", "은", "는", "이", "가", "으로", "로", "과", "와", "의", "에서"]


def korean_word(rng: random.Random, low: int = 2, high: int = 4) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(low, high)))


def make_terms(rng: random.Random, count: int) -> list[dict]:
    terms = []
    used = set()
    for index in range(count):
        while True:
            en = "".join(rng.choice("bcdfghjklmnprstvz") + rng.choice("aeiou") for _ in range(rng.randint(3, 5)))
            if en not in used:
                used.add(en)
                break
        if index % 7 == 0:
            en = en + " " + rng.choice(["model", "step", "value", "system"])
        term = {"en": en, "ko": korean_word(rng)}
        if index % 5 == 0:
            term["forbidden"] = [korean_word(rng, 3, 5)]
        if index % 9 == 0:
            term["variants"] = [korean_word(rng)]
        if index % 23 == 0:
            term = {"en": en.capitalize().replace(" ", ""), "keep": True,
                    "reading": korean_word(rng), "case_sensitive": True}
        terms.append(term)
    return terms


def write_glossary(path: Path, terms: list[dict]) -> None:
    import yaml

    path.write_text(yaml.safe_dump({"terms": terms}, allow_unicode=True, sort_keys=False),
                    encoding="utf-8")


def particle(rng, word):
    from jaxko.korean import particle_for
    choice = rng.choice(["을", "은", "이", "으로", "과"])
    right = particle_for(word, choice) or choice
    if rng.random() < 0.01:  # planted mistakes
        return choice if choice != right else {"을": "를", "은": "는", "이": "가", "으로": "로", "과": "와"}[choice]
    return right


def make_entry(rng: random.Random, terms: list[dict], rst: bool, line: int, document: str) -> polib.POEntry:
    kind = rng.random()
    if kind < 0.06:  # a code block
        body = "\n".join(f"x{i} = jnp.arange({rng.randint(1, 99)})  # {rng.choice(ENGLISH)}"
                         for i in range(rng.randint(2, 6)))
        translated = body.replace("# ", "# 번역 ")
        return polib.POEntry(msgid=body, msgstr=translated, occurrences=[(document, str(line))])
    words_en: list[str] = []
    words_ko: list[str] = []
    for _ in range(rng.randint(7, 25)):
        roll = rng.random()
        if roll < 0.12:
            term = rng.choice(terms)
            words_en.append(term["en"] + ("s" if rng.random() < 0.2 and " " not in term["en"] else ""))
            ko = term["en"] if term.get("keep") else term["ko"]
            words_ko.append(ko + particle(rng, term.get("reading", ko)))
        elif roll < 0.17:
            target = f"jax.{rng.choice(ENGLISH)}"
            role = f":func:`{target}`" if rst else f"{{func}}`{target}`"
            words_en.append(role)
            words_ko.append(role + ("\\ " if rst else "") + rng.choice(["의", "에서", "에"]))
        elif roll < 0.21:
            literal = f"``{rng.choice(ENGLISH)}``" if rst else f"`{rng.choice(ENGLISH)}`"
            words_en.append(literal)
            words_ko.append(literal + ("\\ " if rst else "") + "의")
        elif roll < 0.23:
            url = f"https://example.org/{rng.choice(ENGLISH)}"
            words_en.append(f"`link <{url}>`_" if rst else f"[link]({url})")
            words_ko.append(f"`링크 <{url}>`_" if rst else f"[링크]({url})")
        else:
            words_en.append(rng.choice(ENGLISH))
            words_ko.append(korean_word(rng, 1, 3))
    msgid = " ".join(words_en).capitalize() + "."
    msgstr = " ".join(words_ko) + "."
    return polib.POEntry(msgid=msgid, msgstr=msgstr, occurrences=[(document, str(line))])


def generate(folder: Path, terms: list[dict], files: int = FILES, entries: int = ENTRIES) -> int:
    """Write the synthetic catalogs into ``folder``; their total size in bytes."""
    rng = random.Random(SEED)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    per_file = [entries // files] * files
    for i in range(entries - sum(per_file)):
        per_file[i] += 1
    total = 0
    for number, count in enumerate(per_file):
        rst = number % 4 != 0
        document = f"library/module{number:03d}.{'rst' if rst else 'md'}"
        catalog = polib.POFile(wrapwidth=79)
        catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
        for index in range(count):
            catalog.append(make_entry(rng, terms, rst, 10 + index * 4, document))
        path = folder / f"library/module{number:03d}.po"
        path.parent.mkdir(parents=True, exist_ok=True)
        catalog.save(str(path))
        total += path.stat().st_size
    return total


def best(function, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def command(args: list[str]) -> tuple[float, float]:
    """(seconds, peak MB of the biggest process) of one `jaxko` command line."""
    import resource

    start = time.perf_counter()
    code = (f"import resource, subprocess, sys; subprocess.run({args!r}, stdout=subprocess.DEVNULL); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    return seconds, int(out.stdout.split()[-1]) / 1024


def measure(label: str, catalogs: Path, glossary: Path, empty: Path) -> list[str]:
    """Rows for one catalog set: polib parse (the baseline), the check cold in-process
    with 1, 2 and 4 processes, the command line cold with its peak memory."""
    files = sorted(catalogs.rglob("*.po"))
    entries = sum(1 for f in files for e in polib.pofile(str(f)) if e.msgid)
    polib_time = best(lambda: [polib.pofile(str(f)) for f in files], 2)

    def check(jobs: int):
        return run(Options(paths=[catalogs], glossary=glossary, source_dir=empty, jobs=jobs))

    result = check(1)
    times = {jobs: best(lambda: check(jobs), 2) for jobs in (1, 2, 4)}
    everything = run(Options(paths=[catalogs], glossary=glossary, source_dir=empty, jobs=1,
                             prefilter=False))
    if everything.findings != result.findings:
        raise SystemExit("bench_check: the prefilters changed the findings; see tests/test_check_prefilter.py")
    jaxko = ROOT / ".venv" / "bin" / "jaxko"
    cli = [str(jaxko), "check", str(catalogs), "--glossary", str(glossary),
           "--source-dir", str(empty), "--format", "json", "--no-cache"]
    cli_time, _ = min(command(cli) for _ in range(2))
    _, peak = command(cli + ["--jobs", "1"])
    rows = [f"\n### {label}\n",
            f"{len(files)} files, {entries:,} entries, {result.checked:,} translated entries "
            f"checked, {len(result.findings):,} findings (the same with `--no-prefilter`).\n",
            "| measurement | seconds | × polib parse |", "|---|---:|---:|"]
    for name, seconds in [("polib parse of every file (baseline, 1 process)", polib_time),
                          ("`jaxko check`, cold, in-process, `--jobs 1`", times[1]),
                          ("`jaxko check`, cold, in-process, `--jobs 2`", times[2]),
                          ("`jaxko check`, cold, in-process, `--jobs 4`", times[4]),
                          ("`jaxko check DIR --glossary G --no-cache` command line", cli_time)]:
        rows.append(f"| {name} | {seconds:.3f} | {seconds / polib_time:.2f} |")
    rows.append(f"\n4 processes: {times[1] / times[4]:.2f}× the speed of one "
                f"({os.cpu_count()} CPUs here). Peak memory of the command, `--jobs 1`: "
                f"{peak:.0f} MB.")
    return rows


PEERS_POLIB = ("import pathlib, sys, polib\n"
               "for path in sorted(pathlib.Path(sys.argv[1]).rglob('*.po')):\n"
               "    polib.pofile(str(path))\n")


def peer_commands(corpus: Path, glossary: Path, empty: Path, scratch: Path) -> dict[str, list[str]]:
    """The four command lines compared on one corpus, each cold and whole (interpreter
    start-up included), each with its own default parallelism on this machine."""
    bin_ = ROOT / ".venv" / "bin"
    return {
        "polib parse (every file, one process)": [sys.executable, "-c", PEERS_POLIB, str(corpus)],
        "sphinx-lint (syntax only)": [str(bin_ / "sphinx-lint"), str(corpus)],
        "pofilter (translate-toolkit, all its checks)": [
            str(bin_ / "pofilter"), "--progress=none", str(corpus), str(scratch / "pofilter")],
        "`jaxko check --no-cache` (all rules)": [
            str(bin_ / "jaxko"), "check", "--no-cache", "--syntax", "rst", "--glossary",
            str(glossary), "--source-dir", str(empty), "--format", "json", str(corpus)],
    }


def peers(corpus: Path, glossary: Path, empty: Path, rounds: int = 3,
          baseline: Path | None = None) -> list[str]:
    """jaxko check, sphinx-lint, pofilter and polib's parse on the same files in the same
    run: each round runs all four in turn (a different order each round) and the
    ratios are taken within the round, so a machine whose speed drifts (shared cores)
    moves numerator and denominator together."""
    import resource
    import statistics
    import tempfile

    with tempfile.TemporaryDirectory(prefix="jaxko-peers-") as tmp:
        commands = peer_commands(corpus, glossary, empty, Path(tmp))
        if baseline is not None:  # another checkout's jaxko check (before a change), same run
            jaxko_args = commands["`jaxko check --no-cache` (all rules)"][1:]
            commands[f"`jaxko check` of {baseline}"] = [
                "env", f"PYTHONPATH={baseline / 'tools'}", sys.executable, "-m", "jaxko", *jaxko_args]
        names = list(commands)
        wall: dict[str, list[float]] = {name: [] for name in names}
        cpu: dict[str, list[float]] = {name: [] for name in names}
        for number in range(rounds):
            order = names[number % len(names):] + names[:number % len(names)]
            for name in order:
                shutil.rmtree(Path(tmp) / "pofilter", ignore_errors=True)
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run(commands[name], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                wall[name].append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    jaxko, lint, polib_ = names[3], names[1], names[0]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    rows = ["| command | wall s (median) | wall s (min–max) | CPU s (median) |", "|---|---:|---:|---:|"]
    for name in names:
        rows.append(f"| {name} | {statistics.median(wall[name]):.2f} | {min(wall[name]):.2f}–"
                    f"{max(wall[name]):.2f} | {statistics.median(cpu[name]):.2f} |")
    for other, goal in ((lint, 1.0), (polib_, 1.5)):
        ratios = [a / b for a, b in zip(wall[jaxko], wall[other])]
        rows.append(f"\n`jaxko check` ÷ {other.split(' (')[0]}, wall, within each round: "
                    f"median {statistics.median(ratios):.2f}× (rounds: "
                    + ", ".join(f"{r:.2f}" for r in ratios) + f"); goal ≤ {goal}×")
    rows.append(f"\n{rounds} rounds, {os.cpu_count()} CPUs, load average {load} after the run.")
    return rows


def main() -> int:
    rng = random.Random(SEED)
    terms_300 = make_terms(rng, 3000)[:300]
    catalogs = BENCH / "catalogs"
    if not catalogs.is_dir() or "--regenerate" in sys.argv:
        generate(catalogs, terms_300)
    write_glossary(BENCH / "glossary-300.yaml", terms_300)
    empty = BENCH / "no-sources"
    empty.mkdir(exist_ok=True)
    real = Path(os.environ.get("JAXKO_BENCH_REAL", "/work/precision-data/pyko"))
    real_glossary = Path(os.environ.get("JAXKO_BENCH_REAL_GLOSSARY",
                                        ROOT / "benchmarks" / "precision" / "pyko-glossary.yaml"))
    if "--peers" in sys.argv:  # the four checkers side by side (BENCHMARKS.md)
        corpus = real if real.is_dir() else catalogs
        label = "python-docs-ko" if real.is_dir() else "the synthetic set (python-docs-ko is not here)"
        glossary = real_glossary if real.is_dir() else BENCH / "glossary-300.yaml"
        print(f"Peers on {label} ({corpus}):\n")
        baseline = next((Path(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--baseline=")), None)
        print("\n".join(peers(corpus, glossary, empty, baseline=baseline)))
        return 0
    if "--quick" in sys.argv:  # one timing of the check only (while optimising)
        files = sorted(catalogs.rglob("*.po"))
        polib_time = best(lambda: [polib.pofile(str(f)) for f in files], 1)
        start = time.perf_counter()
        result = run(Options(paths=[catalogs], glossary=BENCH / "glossary-300.yaml", source_dir=empty))
        print(f"polib {polib_time:.2f}s, check {time.perf_counter() - start:.2f}s, "
              f"{len(result.findings)} findings {result.summary()['rules']}")
        return 0
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    rows = ["## jaxko check\n",
            "Command: `.venv/bin/python benchmarks/bench_check.py` (best of 2 runs each); "
            f"load average {load} before the run. Pure Python (no compiled extension)."]
    if real.is_dir() and real_glossary.is_file():
        rows += measure(f"Real catalog: python-docs-ko ({real}), glossary {real_glossary.name}",
                        real, real_glossary, empty)
    rows += measure("Synthetic catalogs (python-docs-ko-sized, generated)", catalogs,
                    BENCH / "glossary-300.yaml", empty)
    stages = stage_costs(sorted(catalogs.rglob("*.po")), empty)
    rows.append("\nWhere the time goes (synthetic set, one process, microseconds per "
                "translated entry):\n")
    rows.append("| stage | µs/entry |\n|---|---:|")
    rows += [f"| {label} | {micros:.2f} |" for label, micros in stages]
    print("\n".join(rows))
    return 0


def stage_costs(files: list[Path], sources: Path):
    """Microseconds per translated entry of each stage of Checker.check_catalog, run
    stage by stage over every catalog in one process."""
    import gc

    from jaxko import glossary
    from jaxko import catalogs as pofile
    from jaxko.check import cache
    from jaxko.check.registry import Record, stable_hash
    from jaxko.check.runner import Checker, checkable

    checker = Checker(Options(source_dir=sources), glossary.load(BENCH / "glossary-300.yaml"))
    names = ["read the file, SHA-1 for the cache", "parse the catalog (pofile, with the verdict)",
             "describe each entry (syntax, code or text, suppressions)",
             "rules, where their prefilters let them", "consistency records (hashes)"]
    spent = [0.0] * len(names)
    count = 0
    gc.disable()
    for path in files:
        marks = [time.perf_counter()]
        data = pofile.read_bytes(path)
        cache.digest_bytes(data)
        marks.append(time.perf_counter())
        entries = pofile.parse(pofile.decode(data, path), path)
        marks.append(time.perf_counter())
        messages = checker.messages(path, checkable(entries, None))
        marks.append(time.perf_counter())
        checker.check(messages)
        marks.append(time.perf_counter())
        [Record(stable_hash(m.msgid), stable_hash(m.msgstr), m.path, m.line,
                tuple(sorted(m.ignored))) for m in messages]
        marks.append(time.perf_counter())
        for i in range(len(names)):
            spent[i] += marks[i + 1] - marks[i]
        count += len(messages)
    gc.enable()
    rows = [(name, seconds / count * 1e6) for name, seconds in zip(names, spent)]
    rows.append(("all stages", sum(spent) / count * 1e6))
    return rows


if __name__ == "__main__":
    raise SystemExit(main())
