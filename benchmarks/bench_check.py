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
* check: the whole `jaxko check` (all rules) in-process, and as a command line
  (`jaxko check DIR --glossary G`, interpreter start-up and imports included): cold
  (`--no-cache`), with the result cache warm, and warm with one catalog changed;
  and with `--no-screen` (every rule on every message: the engine before the screen),
  whose findings must be the same;
* --since: one entry of one catalog changed in a git checkout of the set;
* where the time goes: each stage of a catalog's check, one process.
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


def main() -> int:
    rng = random.Random(SEED)
    terms_3000 = make_terms(rng, 3000)
    terms_300 = terms_3000[:300]
    catalogs = BENCH / "catalogs"
    size = generate(catalogs, terms_300)
    write_glossary(BENCH / "glossary-300.yaml", terms_300)
    write_glossary(BENCH / "glossary-3000.yaml", terms_3000)
    files = sorted(catalogs.rglob("*.po"))
    entries = sum(1 for f in files for e in polib.pofile(str(f)) if e.msgid)
    empty = BENCH / "no-sources"
    empty.mkdir(exist_ok=True)

    polib_time = best(lambda: [polib.pofile(str(f)) for f in files], 3)
    if "--quick" in sys.argv:  # one timing of the check only (while optimising)
        start = time.perf_counter()
        result = run(Options(paths=[catalogs], glossary=BENCH / "glossary-300.yaml", source_dir=empty))
        print(f"polib {polib_time:.2f}s, check {time.perf_counter() - start:.2f}s, "
              f"{len(result.findings)} findings {result.summary()['rules']}")
        return 0

    def check(glossary: str, **extra):
        return run(Options(paths=[catalogs], glossary=BENCH / glossary, source_dir=empty, **extra))

    result = check("glossary-300.yaml")
    unscreened = check("glossary-300.yaml", screen=False)
    if unscreened.findings != result.findings:
        raise SystemExit("bench_check: the screen changed the findings; see tests/test_check_screen.py")
    time_300 = best(lambda: check("glossary-300.yaml"), 3)
    time_3000 = best(lambda: check("glossary-3000.yaml"), 3)
    time_1job = best(lambda: check("glossary-300.yaml", jobs=1), 1)
    time_unscreened = best(lambda: check("glossary-300.yaml", screen=False), 1)
    jaxko = ROOT / ".venv" / "bin" / "jaxko"
    cli = [str(jaxko), "check", str(catalogs), "--glossary", str(BENCH / "glossary-300.yaml"),
           "--source-dir", str(empty), "--format", "json"]
    cli_time = best(lambda: subprocess.run(cli + ["--no-cache"], stdout=subprocess.DEVNULL,
                                           check=False), 3)
    # The result cache: a first run fills it, then nothing changed, then one catalog
    # changed before each run (what a translator's save or a rebase does).
    cache = BENCH / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    cached_cli = cli + ["--cache-dir", str(cache)]
    subprocess.run(cached_cli, stdout=subprocess.DEVNULL, check=False)
    warm_time = best(lambda: subprocess.run(cached_cli, stdout=subprocess.DEVNULL, check=False), 5)
    edited = files[len(files) // 3]
    original = edited.read_text(encoding="utf-8")
    flips = iter(range(100))

    def one_changed() -> None:
        marker = "번역" * (next(flips) % 2 + 1)  # a different edit before every run
        edited.write_text(original.replace('msgstr "', f'msgstr "{marker} ', 1), encoding="utf-8")
        subprocess.run(cached_cli, stdout=subprocess.DEVNULL, check=False)

    changed_time = best(one_changed, 5)
    edited.write_text(original, encoding="utf-8")
    startup_time = best(lambda: subprocess.run([str(jaxko), "check", "--help"],
                                               stdout=subprocess.DEVNULL, check=False), 5)

    # --since: a git checkout of the set with one entry changed.
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@b",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "b@b"}
    subprocess.run(["git", "init", "-q", str(BENCH)], check=True, env=env)
    subprocess.run(["git", "-C", str(BENCH), "add", "-A", "catalogs"], check=True, env=env)
    subprocess.run(["git", "-C", str(BENCH), "commit", "-q", "-m", "bench"], check=True, env=env)
    victim = files[len(files) // 2]
    text = victim.read_text(encoding="utf-8")
    marker = 'msgstr "'
    at = text.index(marker, len(text) // 2) + len(marker)
    victim.write_text(text[:at] + "컨볼루션 " + text[at:], encoding="utf-8")
    since_cli = cli[:2] + ["--since", "HEAD"] + cli[2:]
    since_time = best(lambda: subprocess.run(since_cli, stdout=subprocess.DEVNULL, check=False, cwd=BENCH), 5)
    since_inproc = best(lambda: run(Options(paths=[catalogs], glossary=BENCH / "glossary-300.yaml",
                                            source_dir=empty, since="HEAD")), 5)
    shutil.rmtree(BENCH / ".git")

    stages, sent = stage_costs(files, empty)
    cpus = os.cpu_count()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print("## jaxko check\n")
    print(f"Synthetic catalogs: {len(files)} files, {entries:,} entries, {size / 1e6:.1f} MB "
          f"({result.checked:,} translated entries checked, {len(result.findings):,} findings, "
          f"the same with and without the screen); {cpus} CPUs, load average {load} after "
          "the run. Command: `.venv/bin/python benchmarks/bench_check.py` (best of 3 runs "
          "each, 1 for the slow ones).\n")
    print("| measurement | seconds | × polib parse |")
    print("|---|---:|---:|")
    rows = [
        ("polib parse of every file (baseline, 1 process)", polib_time),
        ("`jaxko check`, 300-term glossary, all rules (in-process, 2 workers)", time_300),
        ("`jaxko check`, 3,000-term glossary (in-process, 2 workers)", time_3000),
        ("`jaxko check`, 300 terms, `--jobs 1`", time_1job),
        ("`jaxko check`, 300 terms, `--no-screen` (every rule on every message)", time_unscreened),
        ("`jaxko check DIR --glossary G --no-cache` command line (start-up included)", cli_time),
        ("`jaxko check DIR --glossary G`, cache warm, nothing changed", warm_time),
        ("`jaxko check DIR --glossary G`, cache warm, one catalog changed", changed_time),
        ("`jaxko check --help` (start-up and argument parsing; the checker is not imported)", startup_time),
        ("`jaxko check --since HEAD`, one entry changed (in-process)", since_inproc),
        ("`jaxko check --since HEAD` command line", since_time),
    ]
    for label, seconds in rows:
        print(f"| {label} | {seconds:.3f} | {seconds / polib_time:.2f} |")
    print(f"\n10× the glossary terms costs {time_3000 / time_300:.2f}× the time (goal ≤ 1.3×). "
          f"The screen makes the check {time_unscreened / time_300:.1f}× faster.")
    print("\nWhere the time goes (one process, every catalog, microseconds per translated "
          f"entry). The screen sent {sent['messages']:,} of {sent['text']:,} text messages "
          f"({sent['messages'] / sent['text']:.1%}) to the rules, and "
          f"{sent['groups']:,} groups of rules of the {sent['text'] * 8:,} it answers for:\n")
    print("| stage | µs/entry |\n|---|---:|")
    for label, micros in stages:
        print(f"| {label} | {micros:.2f} |")
    return 0


def stage_costs(files: list[Path], sources: Path):
    """Microseconds per translated entry of each stage of runner._check_file, run
    stage by stage over every catalog in one process; and what the screen sent on."""
    import gc

    from jaxko import glossary
    from jaxko.check import cache, pofile
    from jaxko.check.message import TEXT
    from jaxko.check.runner import (build_state, check_messages, checkable, describe_all,
                                    is_suppressed, screened, stable_hash)

    state = build_state(Options(source_dir=sources), glossary.load(BENCH / "glossary-300.yaml"))
    names = ["read the file, SHA-1 for the cache", "parse the catalog (native reader)",
             "describe each entry (syntax, code or text, suppressions)",
             "screen (inline markup of the joined messages, native kernel)",
             "rules, where the screen sent them", "consistency records (hashes)"]
    spent = [0.0] * len(names)
    count = text = sent_messages = sent_groups = 0
    gc.disable()
    for path in files:
        marks = [time.perf_counter()]
        data = pofile.read_bytes(path)
        cache.digest_bytes(data)
        marks.append(time.perf_counter())
        entries = pofile.parse(pofile.decode(data, path), path)
        marks.append(time.perf_counter())
        chosen = list(checkable(entries, None))
        descriptions = describe_all(chosen, state)
        marks.append(time.perf_counter())
        messages = screened(path, chosen, descriptions, state)
        marks.append(time.perf_counter())
        check_messages(messages, state)
        marks.append(time.perf_counter())
        [(stable_hash(e.msgid), stable_hash(e.msgstr), is_suppressed(d[3], "consistency.translation"))
         for e, d in zip(chosen, descriptions)]
        marks.append(time.perf_counter())
        for i in range(len(names)):
            spent[i] += marks[i + 1] - marks[i]
        count += len(chosen)
        text += sum(1 for d in descriptions if d[1] == TEXT)
        sent_messages += sum(1 for m in messages if m.block == TEXT)
        sent_groups += sum(bin(m.groups).count("1") for m in messages if m.block == TEXT)
    gc.enable()
    rows = [(name, seconds / count * 1e6) for name, seconds in zip(names, spent)]
    rows.append(("all stages", sum(spent) / count * 1e6))
    return rows, {"messages": sent_messages, "groups": sent_groups, "text": text}


if __name__ == "__main__":
    raise SystemExit(main())
