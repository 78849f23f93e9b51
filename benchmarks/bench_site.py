"""The Korean site: build speed, rebuild after one .po edit, Korean search recall.

`python benchmarks/bench_site.py [speed] [rebuild] [search] [audit]` (the first three by
default;
`make bench` runs it as `run.py site`). Prints markdown for BENCHMARKS.md.

* speed: a fresh `jaxko site build --no-execute` of the narrative scope in Korean and
  the same build with `--language en`, in the same run (notebook execution left out:
  it is the same for both languages and cached after the first build).
* rebuild: after the Korean build, one message of one catalog changes (a copy of
  locale/ under _build/bench, so the committed catalogs stay untouched), a paragraph
  or the page's title, and the site is built again, a few times in turn: by `jaxko
  site build`, then by `jaxko site watch` (seconds from the save to the end of the
  build), and how many HTML pages were written again.
* audit: ``jaxko site audit`` over a fresh Korean build, best of five, and its share of
  that build's time.
* search: 40 queries (two-syllable nouns, longer nouns, nouns typed with a particle,
  mixed Korean/English) run by Sphinx's own searchtools.js in Node against the built
  index, once with jaxko's Korean search and once with Sphinx's fallback for 'ko'
  (the same doctrees written again with `-D jaxko_korean_search=0`). A page is
  relevant when its text has every query word at the start of a word (배열 in
  배열을); recall is over relevant pages, averaged over queries that have any.
"""

from __future__ import annotations

import json
import platform
import random
import re
import shutil
import subprocess
import sys
import time
from statistics import median
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from jaxko import paths  # noqa: E402
from jaxko.extract import sphinx_env  # noqa: E402
from jaxko.site.state import BuildState  # noqa: E402

BENCH = ROOT / "_build" / "bench"
EDITED_CATALOG = "automatic-differentiation.po"

QUERIES: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    # (query as typed, the words a relevant page must contain)
    "two-syllable noun": [(q, (q,)) for q in (
        "함수", "설치", "파일", "계산", "변환", "미분", "코드", "배치", "인자", "출력",
        "루프", "연산", "입력", "오류", "성능", "예제", "버전", "결과")],
    "longer noun": [(q, (q,)) for q in (
        "파이썬", "인덱스", "라이브러리", "컨테이너", "프로그램", "트레이스", "가이드", "컴파일")],
    "noun with particle": [
        ("함수를", ("함수",)), ("파일을", ("파일",)), ("계산의", ("계산",)), ("변환은", ("변환",)),
        ("코드로", ("코드",)), ("인자가", ("인자",)), ("배열을", ("배열",)), ("루프에서", ("루프",))],
    "mixed": [
        ("jit 컴파일", ("jit", "컴파일")), ("JAX 함수", ("jax", "함수")),
        ("vmap 배치", ("vmap", "배치")), ("grad 미분", ("grad", "미분")),
        ("GPU 설치", ("gpu", "설치")), ("pip 설치", ("pip", "설치"))],
}


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the sphinx-build runs):
    unlike wall time, barely moved by other processes sharing the cores."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@dataclass
class Built:
    """One run of the build command: ``seconds`` Sphinx's (as the command prints it),
    ``wall`` and ``cpu`` the whole command's (input checks, gate, Sphinx, and for
    Korean the audit), ``cpu`` from getrusage, barely moved by other processes."""

    seconds: float
    wall: float
    cpu: float
    pages: int
    warnings: int
    unexpected: int
    i18n: int
    output: str


def build_site(outdir: Path, *, language: str, locale: Path) -> Built:
    """``jaxko site build --no-execute --no-notebooks`` as a user runs it (``make html``
    without notebook execution), in its own process."""
    cmd = [sys.executable, "-m", "jaxko", "site", "build", "--no-execute", "--no-notebooks",
           "--language", language, "--outdir", str(outdir), "--locale-dir", str(locale)]
    cpu, wall = cpu_seconds(), time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}")
    built = re.search(r"built (\d+) pages .* in ([\d.]+) s: (\d+) warnings(?: \([^)]*\))?, (\d+) from "
                      r"translations, (\d+) not on the accepted list", proc.stdout)
    pages, seconds, warnings, i18n, unexpected = built.groups()
    return Built(float(seconds), wall, cpu, int(pages), int(warnings), int(unexpected),
                 int(i18n), proc.stdout)


def fresh(*dirs: Path) -> None:
    """Nothing of an earlier build left: the output, Sphinx's doctrees, the gated
    catalogs and the build's kept state (jaxko.site.state)."""
    for path in dirs:
        state = BuildState(path)
        for folder in (path, state.doctrees, state.gated, state.folder):
            shutil.rmtree(folder, ignore_errors=True)


def html_mtimes(outdir: Path) -> dict[str, float]:
    return {str(p.relative_to(outdir)): p.stat().st_mtime_ns for p in outdir.rglob("*.html")}


def bench_speed(locale: Path, rounds: int = 2) -> list[str]:
    """Fresh Korean and English builds, alternated, so load from elsewhere hits both."""
    ko, en = BENCH / "html-ko", BENCH / "html-en"
    runs_of: dict[str, list[Built]] = {"ko": [], "en": []}
    for _ in range(rounds):
        for language, outdir in (("ko", ko), ("en", en)):
            fresh(outdir)
            runs_of[language].append(build_site(outdir, language=language, locale=locale))
    best = {lang: {what: min(getattr(r, what) for r in runs) for what in ("seconds", "wall", "cpu")}
            for lang, runs in runs_of.items()}
    listed = lambda lang, what: ", ".join(f"{getattr(r, what):.1f}" for r in runs_of[lang])  # noqa: E731
    ko_result = runs_of["ko"][-1]
    rows = []
    for lang, name, command in (("ko", "Korean", "jaxko site build --no-execute --no-notebooks"),
                                ("en", "English", "jaxko site build --no-execute --no-notebooks --language en")):
        rows.append(f"| {name} | `{command}` | {runs_of[lang][-1].pages} | "
                    f"{best[lang]['seconds']:.1f} | {best[lang]['wall']:.1f} | {listed(lang, 'wall')} | "
                    f"{best[lang]['cpu']:.1f} | {listed(lang, 'cpu')} |")
    return [
        f"### Build speed (fresh build, narrative scope, no notebook execution; {rounds} "
        "alternated rounds, best of each)\n",
        "| build | command | pages | Sphinx wall (s) | command wall (s) | runs (s) | CPU of the command (s) | runs (s) |",
        "|---|---|---:|---:|---:|---|---:|---|",
        *rows,
        "",
        f"Korean / English: **{best['ko']['wall'] / best['en']['wall']:.2f}x** in the command's "
        f"wall time, **{best['ko']['cpu'] / best['en']['cpu']:.2f}x** in CPU time (which other "
        "processes on the same cores barely move). The Korean command includes the gate and the "
        f"audit. The Korean build has {ko_result.i18n} i18n warnings and {ko_result.warnings} "
        f"warnings in all, {ko_result.unexpected} of them not on the accepted list "
        "(docs/build-warnings.md).\n",
    ]


EDITS = {
    # what a translator edits, and which message of the catalog stands for it
    "paragraph": "the second message (the first paragraph under the title)",
    "title": "the first message (the page's title)",
}


# What each edit puts at the end of the msgstr: a word the site has not shown before.
EDIT_MARK = re.compile(r" \(벤치마크 수정 [가-힣]+\)$")


def _edit(locale: Path, kind: str = "paragraph") -> None:
    """One saved edit of one msgstr, as a translator makes it: the text after it is one
    the site has never shown (a new made-up word at its end, in place of the last
    edit's), so the search index has new Korean to analyse, as after any real edit. An
    edit that only toggled a mark would give back a text analysed two edits before.
    ``kind``: a paragraph (most edits) or the page's title (which every page's
    navigation shows)."""
    import polib

    catalog = locale / "ko" / "LC_MESSAGES" / EDITED_CATALOG
    po = polib.pofile(str(catalog))
    translated = [e for e in po if e.msgstr and not e.obsolete]
    entry = translated[0] if kind == "title" else translated[1]
    word = "".join(chr(0xAC00 + random.randrange(11172)) for _ in range(3))
    entry.msgstr = EDIT_MARK.sub("", entry.msgstr) + f" (벤치마크 수정 {word})"
    po.save(str(catalog))


def _watched_rebuilds(ko: Path, locale: Path, edits: list[str]) -> list[float]:
    """``jaxko site watch`` on the built folder: seconds from each saved edit (of the
    kinds in ``edits``, in turn) to the end of the build it starts (its audit line, the
    last line of a build's summary)."""
    cmd = [sys.executable, "-m", "jaxko", "site", "watch", "--no-execute", "--no-notebooks",
           "--outdir", str(ko), "--locale-dir", str(locale), "--builds", str(len(edits) + 1)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    seconds: list[float] = []
    try:
        for build in range(len(edits) + 1):
            for line in proc.stdout:
                if line.startswith("audit:"):
                    break
                if line.startswith("jaxko:"):
                    raise SystemExit(f"{' '.join(cmd)}: {line}")
            else:
                raise SystemExit(f"{' '.join(cmd)} stopped early (exit {proc.wait()})")
            if build:
                seconds.append(time.perf_counter() - saved)
            if build < len(edits):
                time.sleep(1.0)  # the watcher is polling again
                _edit(locale, edits[build])
                saved = time.perf_counter()
        proc.wait(timeout=60)
    finally:
        proc.kill()
    return seconds


def _command_rebuilds(ko: Path, locale: Path, kind: str, edits: int
                      ) -> tuple[list[Built], list[str]]:
    """``edits`` edits of one kind, each rebuilt by the command; the pages written."""
    built: list[Built] = []
    written: list[str] = []
    for _ in range(edits):
        _edit(locale, kind)
        before = html_mtimes(ko)
        built.append(build_site(ko, language="ko", locale=locale))
        written = sorted(k for k, v in html_mtimes(ko).items() if before.get(k) != v)
    return built, written


def bench_rebuild(locale: Path, edits: int = 6) -> list[str]:
    """A no-change rebuild, then ``edits`` one-msgstr edits of a paragraph and of the
    page's title, each rebuilt by the command, then as many rebuilt by ``jaxko site
    watch`` (paragraph and title edits alternated), on the same built folder."""
    ko = BENCH / "html-ko"
    if not (ko / "index.html").is_file():
        build_site(ko, language="ko", locale=locale)
    build_site(ko, language="ko", locale=locale)  # settle: nothing left from another run
    before = html_mtimes(ko)
    noop = build_site(ko, language="ko", locale=locale)
    noop_pages = sum(1 for k, v in html_mtimes(ko).items() if before.get(k) != v)
    by_command = {kind: _command_rebuilds(ko, locale, kind, edits) for kind in EDITS}
    kinds = [kind for _ in range(edits) for kind in EDITS]
    watched: dict[str, list[float]] = {kind: [] for kind in EDITS}
    for kind, seconds in zip(kinds, _watched_rebuilds(ko, locale, kinds)):
        watched[kind].append(seconds)
    listed = lambda xs: ", ".join(f"{x:.1f}" for x in xs)  # noqa: E731
    rows = []
    for kind in EDITS:
        walls = [b.wall for b in by_command[kind][0]]
        pages = len(by_command[kind][1])
        rows += [
            f"| one msgstr: {kind} | `jaxko site build` (wall) | {median(walls):.1f} | "
            f"{listed(walls)} | {pages} |",
            f"| one msgstr: {kind} | `jaxko site watch`: from the save to the end of the "
            f"build it starts | {median(watched[kind]):.1f} | {listed(watched[kind])} | {pages} |"]
    return [
        "### Rebuild after editing one `.po`\n",
        f"One msgstr of `{EDITED_CATALOG}` changed and saved (a made-up word put at its end, a new one "
        "each time: every edit gives a text the site has not shown, as a translator's does), "
        f"{edits} times for each kind of edit: a paragraph ({EDITS['paragraph']}, what most "
        f"edits are) and the page's title ({EDITS['title']}); rebuilt first by the command, "
        "then by the watcher, on the same built folder.\n",
        "| change | how | seconds (median) | runs (s) | HTML pages written again |",
        "|---|---|---:|---|---:|",
        f"| nothing | `jaxko site build` (wall; Sphinx {noop.seconds:.1f} s) | {noop.wall:.1f} | "
        f"{noop.wall:.1f} | {noop_pages} |",
        *rows,
        "",
        f"Pages written again after a paragraph edit: {', '.join(by_command['paragraph'][1])}; "
        f"after a title edit: {', '.join(by_command['title'][1])}. Sphinx re-reads the "
        "document whose catalog changed, and the 번역 현황 page when what it shows changed "
        "(the first edit of a message with an AI-pass record changes its review counts: "
        "the record no longer matches the msgstr; later edits change nothing it shows); "
        "it writes "
        "the index and search pages on every build, and the pages whose toctree lists a "
        "page read again when that page's title or table of contents changed "
        "(`jaxko.site.ext.speedups`: `jaxko_spare_toc_parents`). A new title also changes every page's "
        "navigation, so the pages written render it again (`jaxko.site.ext.navigation`). The "
        "watcher runs each build in a fork of a process that has already imported Sphinx "
        "and the extensions (docs/site.md); its figure includes its polling (every 0.25 s) "
        "and the input checks, gate, stats and audit of the build command.\n",
    ]


def _article_text(path: Path) -> str:
    html = path.read_text(encoding="utf-8")
    match = re.search(r"<article.*?</article>", html, re.S)
    text = re.sub(r"<[^>]+>", " ", match.group(0) if match else html)
    return re.sub(r"\s+", " ", text)


def relevant_pages(outdir: Path, words: tuple[str, ...], texts: dict[str, str]) -> set[str]:
    found = set()
    for docname, text in texts.items():
        ok = True
        for word in words:
            if re.search(r"[가-힣]", word):
                pattern = rf"(?<![가-힣]){re.escape(word)}"
                ok &= bool(re.search(pattern, text))
            else:
                ok &= bool(re.search(rf"(?i)\b{re.escape(word)}\b", text))
        if ok:
            found.add(docname)
    return found


def run_queries(outdir: Path, queries: list[str]) -> dict[str, list[str]]:
    proc = subprocess.run(["node", str(ROOT / "benchmarks" / "search_rank.js"), str(outdir)],
                          input=json.dumps(queries, ensure_ascii=False), capture_output=True,
                          text=True, check=True)
    return json.loads(proc.stdout)


def bench_search(locale: Path) -> list[str]:
    ko = BENCH / "html-ko"
    if not (ko / "index.html").is_file():
        build_site(ko, language="ko", locale=locale)
    fallback = BENCH / "html-ko-fallback"
    shutil.rmtree(fallback, ignore_errors=True)
    # The same doctrees written again with Sphinx's own fallback for 'ko'.
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-c", str(ROOT),
           "-d", str(BENCH / ".doctrees" / "html-ko"), "-D", "language=ko",
           "-D", f"locale_dirs={locale}", "-D", "jaxko_korean_search=0",
           str(paths.staged_docs(ROOT)), str(fallback)]
    subprocess.run(cmd, env=sphinx_env("narrative", "off", paths.staged_docs(ROOT)), check=True)
    texts = {str(p.relative_to(ko).with_suffix("")): _article_text(p) for p in ko.rglob("*.html")
             if p.name not in ("search.html", "genindex.html")}
    all_queries = [q for rows in QUERIES.values() for q, _ in rows]
    ours = run_queries(ko, all_queries)
    theirs = run_queries(fallback, all_queries)
    lines = ["### Korean search recall\n",
             f"{len(all_queries)} queries, Sphinx's searchtools.js in Node "
             "(`benchmarks/search_rank.js`) against each build's searchindex.js.\n",
             "| query kind | queries | with relevant pages | recall, jaxko Korean search | "
             "recall, Sphinx fallback | precision, jaxko | precision, fallback |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    detail = ["", "<details><summary>Per query: relevant pages, found by jaxko / by the "
              "fallback</summary>\n", "| query | relevant | jaxko | fallback |",
              "|---|---:|---:|---:|"]
    totals = {"n": 0, "ours": 0.0, "theirs": 0.0, "p_ours": [], "p_theirs": []}
    for kind, rows in QUERIES.items():
        recalls_ours, recalls_theirs = [], []
        precision = {"p_ours": [], "p_theirs": []}
        for query, words in rows:
            relevant = relevant_pages(ko, words, texts)
            hit_ours = len(relevant & set(ours[query]))
            hit_theirs = len(relevant & set(theirs[query]))
            detail.append(f"| {query} | {len(relevant)} | {hit_ours} | {hit_theirs} |")
            if relevant:
                recalls_ours.append(hit_ours / len(relevant))
                recalls_theirs.append(hit_theirs / len(relevant))
            for key, found in (("p_ours", ours[query]), ("p_theirs", theirs[query])):
                if found:
                    precision[key].append(len(relevant & set(found)) / len(found))
        n = len(recalls_ours)
        mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")  # noqa: E731
        lines.append(f"| {kind} | {len(rows)} | {n} | {mean(recalls_ours):.2f} | "
                     f"{mean(recalls_theirs):.2f} | {mean(precision['p_ours']):.2f} | "
                     f"{mean(precision['p_theirs']):.2f} |")
        totals["p_ours"] += precision["p_ours"]
        totals["p_theirs"] += precision["p_theirs"]
        totals["n"] += n
        totals["ours"] += sum(recalls_ours)
        totals["theirs"] += sum(recalls_theirs)
    if totals["n"]:
        p_mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")  # noqa: E731
        lines.append(f"| **all** | {len(all_queries)} | {totals['n']} | "
                     f"**{totals['ours'] / totals['n']:.2f}** | "
                     f"**{totals['theirs'] / totals['n']:.2f}** | "
                     f"{p_mean(totals['p_ours']):.2f} | {p_mean(totals['p_theirs']):.2f} |")
    lines.append("\nPrecision is over the pages a query returned (queries returning none are "
                 "left out). With a two-character Korean word next to a longer word (vmap "
                 "배치), Sphinx's searchtools.js requires only the longer one, so the "
                 "fallback's recall stays high there while it ignores the Korean word.")
    detail.append("\n</details>\n")
    return lines + detail


def bench_audit(locale: Path, rounds: int = 5) -> list[str]:
    """`jaxko site audit` on the full Korean site, against the build that made it."""
    from jaxko.site import audit

    ko = BENCH / "html-ko"
    fresh(ko)
    built = build_site(ko, language="ko", locale=locale)
    times, result = [], None
    for _ in range(rounds):
        started = time.perf_counter()
        result = audit.audit(ko, locale, srcdir=paths.staged_docs(ROOT))
        times.append(time.perf_counter() - started)
    best = min(times)
    return [
        "### Applied-translation audit (`jaxko site audit`)\n",
        "| what | pages | translated messages checked | findings | wall (s), best of "
        f"{rounds} |", "|---|---:|---:|---:|---:|",
        f"| audit of `_build/html` | {result.pages} | {result.messages} | "
        f"{len(result.findings)} | {best:.2f} |",
        f"| the fresh Korean build it audits (`--no-execute`) | {built.pages} | | | "
        f"{built.seconds:.1f} |",
        "",
        f"The audit adds **{best / built.seconds:.1%}** to a fresh build (same run).\n",
    ]


def main(argv: list[str]) -> int:
    wanted = argv or ["speed", "rebuild", "search"]
    BENCH.mkdir(parents=True, exist_ok=True)
    locale = BENCH / "locale"
    shutil.rmtree(locale, ignore_errors=True)
    shutil.copytree(paths.locale_dir(ROOT), locale)
    out = ["## Site\n",
           f"Machine: {platform.machine()}, {shutil.os.cpu_count()} cores, Python "
           f"{platform.python_version()}. Command: `python benchmarks/bench_site.py "
           f"{' '.join(wanted)}` (a copy of locale/ under _build/bench).\n"]
    started = time.perf_counter()
    if "speed" in wanted:
        out += bench_speed(locale)
    if "rebuild" in wanted:
        out += bench_rebuild(locale)
    if "search" in wanted:
        out += bench_search(locale)
    if "audit" in wanted:
        out += bench_audit(locale)
    out.append(f"(benchmark wall time {time.perf_counter() - started:.0f} s)\n")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
