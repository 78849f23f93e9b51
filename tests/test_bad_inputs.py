"""A bad-input corpus: glossaries, assignment files, notebooks, reports and options.

Every case gives a malformed or hostile input to a real `jaxko` command and expects what
a user must get: exit 2, a message naming the file (and line, where there is one), no
traceback, and every input file's bytes unchanged. The malformed catalogs, given to
every command that reads catalogs, are in tests/test_lossless.py (18 kinds x 7
commands); the injection corpus of the site build is in tests/test_site_gate.py.

Each command meets its first case as a real process (exit status and stderr as the
user sees them); the other cases run it in this process (``jaxko.cli.main``, output
captured at the file descriptors; an escaping exception fails the test).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, run_jaxko, run_jaxko_in_process

INDEX_PO = str(ROOT / "locale" / "ko" / "LC_MESSAGES" / "index.po")
NB_DOCS = str(FIXTURES / "notebooks" / "docs")
INDEX_BYTES = Path(INDEX_PO).read_bytes()

# name: (files {name: bytes}, argv with {dir} for the case's folder, expected text,
#        expected "file:line" prefix or None)
GLOSSARY = {
    "glossary-yaml-syntax": b"terms: [\n",
    "glossary-not-mapping": b"just a string\n",
    "glossary-no-ko": b"terms:\n  - en: array\n",
    "glossary-duplicate": b"terms:\n  - en: array\n    ko: \xeb\xb0\xb0\xec\x97\xb4\n"
                          b"  - en: array\n    ko: \xeb\xb0\xb0\xec\x97\xb4\n",
    "glossary-bad-utf8": b"terms:\n  - en: a\n    ko: \xff\n",
    "glossary-empty": b"",
    "glossary-terms-not-list": b"terms: 5\n",
}
ASSIGNMENTS = {
    "assignments-yaml-syntax": b"index.rst: [\n",
    "assignments-unknown-status": b"index.rst:\n  translator: x\n  status: bogus\n",
    "assignments-list": b"[1, 2]\n",
    "assignments-bad-date": b"index.rst:\n  translator: x\n  status: done\n  since: yesterday\n",
    "assignments-not-mapping-entry": b"index.rst: 5\n",
    "assignments-bad-utf8": b"index.rst:\n  translator: \xff\n  status: done\n",
}

CASES: dict[str, tuple[dict[str, bytes], list[str], str]] = {}
for name, data in GLOSSARY.items():
    CASES[f"{name}/check"] = ({"g.yaml": data}, ["check", "--glossary", "{dir}/g.yaml", INDEX_PO],
                              "g.yaml")
    CASES[f"{name}/validate"] = ({"g.yaml": data}, ["glossary", "validate", "{dir}/g.yaml"],
                                 "g.yaml")
for name, data in ASSIGNMENTS.items():
    # stats reads every catalog before the assignments: one catalog, not the repository's
    CASES[f"{name}/stats"] = ({"a.yaml": data, "locale/ko/LC_MESSAGES/index.po": INDEX_BYTES},
                              ["stats", "--locale-dir", "{dir}/locale", "--assignments",
                               "{dir}/a.yaml"], "a.yaml")
    CASES[f"{name}/assign"] = ({"a.yaml": data}, ["assign", "--check", "--assignments",
                                                  "{dir}/a.yaml"], "a.yaml")
CASES.update({
    "notebook-not-json/verify": ({"nb/tiny.ipynb": b"{not json"},
                                 ["notebooks", "verify", "--notebooks-dir", "{dir}/nb",
                                  "--srcdir", NB_DOCS, "tiny"], "tiny.ipynb"),
    "notebook-wrong-shape/verify": ({"nb/tiny.ipynb": b'{"cells": 5}'},
                                    ["notebooks", "verify", "--notebooks-dir", "{dir}/nb",
                                     "--srcdir", NB_DOCS, "tiny"], "tiny.ipynb"),
    "report-not-json/merge": ({"r.json": b"{"}, ["notebooks", "report", "merge", "{dir}/r.json"],
                              "r.json"),
    "report-unsharded/merge": ({"r.json": b'{"results": []}'},
                               ["notebooks", "report", "merge", "{dir}/r.json"], "r.json"),
    "report-bad-row/merge": ({"r.json": b'{"shard": {"notebooks": []}, "results": [{}], '
                                        b'"options": {}}'},
                             ["notebooks", "report", "merge", "{dir}/r.json"], "r.json"),
    "durations-not-report/verify": ({"d.json": b"[]"},
                                    ["notebooks", "verify", "--shard", "1/2", "--durations",
                                     "{dir}/d.json", "--srcdir", NB_DOCS, "--notebooks-dir",
                                     NB_DOCS], "d.json"),
    "baseline-not-json/check": ({"b.json": b"nope"}, ["check", "--baseline", "{dir}/b.json",
                                                      INDEX_PO], "b.json"),
    "catalog-missing/check": ({}, ["check", "{dir}/none.po"], "none.po"),
    "catalog-missing/fmt": ({}, ["fmt", "{dir}/none.po"], "none.po"),
    "site-missing/audit": ({}, ["site", "audit", "{dir}/nosite"], "nosite"),
    "upstream-no-docs/sync": ({"tree/README": b"x"}, ["upstream", "sync", "--from", "{dir}/tree"],
                              "tree"),
    "notebook-bad-utf8/verify": ({"nb/tiny.ipynb": b'{"cells": []}\n\xff'},
                                 ["notebooks", "verify", "--notebooks-dir", "{dir}/nb",
                                  "--srcdir", NB_DOCS, "tiny"], "tiny.ipynb"),
    "notebook-source-not-text/verify": (
        {"nb/tiny.ipynb": b'{"cells": [{"cell_type": "code", "source": 5, "metadata": {},\n'
                          b'"outputs": []}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'},
        ["notebooks", "verify", "--notebooks-dir", "{dir}/nb", "--srcdir", NB_DOCS, "tiny"],
        "tiny.ipynb"),
    "catalog-symlink-loop/check": ({}, ["check", "{dir}/loop.po"], "loop.po"),
    "catalog-symlink-loop/fmt": ({}, ["fmt", "{dir}/loop.po"], "loop.po"),
})
# Review records beside the catalogs (locale/ko/reviews/<doc>.yaml), read by `review` and `stats`.
REVIEWS = {
    "reviews-bad-utf8": b"- key: x\n  reviewer: \xff\n",
    "reviews-yaml-syntax": b"- key: x\n  reviewer: [1\n",
    "reviews-not-list": b"key: x\n",
}
for name, data in REVIEWS.items():
    files = {"locale/ko/LC_MESSAGES/index.po": INDEX_BYTES,
             "locale/ko/reviews/index.yaml": data}
    CASES[f"{name}/queue"] = (files, ["review", "queue", "--locale-dir", "{dir}/locale"],
                              "index.yaml")
    CASES[f"{name}/stats"] = (files, ["stats", "--locale-dir", "{dir}/locale"], "index.yaml")
OPTIONS = {
    "option-unknown-rule": ["check", "--select", "nosuch.rule", INDEX_PO],
    "option-bad-revision": ["check", "--since", "no-such-rev", INDEX_PO],
    "option-negative-timeout": ["notebooks", "verify", "--timeout", "-1"],
    "option-bad-shard": ["notebooks", "verify", "--shard", "0/2"],
    "option-bad-choice": ["stats", "--sort", "bogus"],
    "option-bad-int": ["check", "--jobs", "x"],
    "option-missing-value": ["review", "approve", "index.rst", "--reviewer"],
    "option-renamed-flag": ["notebooks", "verify", "--no-static-check"],
}


def _command(argv: list[str]) -> str:
    """The (sub)command ``argv`` runs: its words before the first option or path."""
    words = []
    for arg in argv:
        if arg.startswith("-") or "/" in arg or "." in arg:
            break
        words.append(arg)
    return " ".join(words)


def _first_case_of_each_command(table: dict[str, list[str]]) -> frozenset[str]:
    first: dict[str, str] = {}
    for case in sorted(table):
        first.setdefault(_command(table[case]), case)
    return frozenset(first.values())


AS_PROCESS = (_first_case_of_each_command({case: argv for case, (_, argv, _) in CASES.items()})
              | _first_case_of_each_command(OPTIONS))


def _runner(case: str):
    return run_jaxko if case in AS_PROCESS else run_jaxko_in_process


def _one_clean_error(proc) -> list[str]:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
    assert "report this" not in proc.stderr  # a bad input is never "a bug to report"
    lines = [line for line in (proc.stderr + proc.stdout).splitlines() if line.strip()]
    assert lines, "no message"
    return lines


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_file(tmp_path, case):
    files, argv, named = CASES[case]
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    if "symlink-loop" in case:
        (tmp_path / "loop.po").symlink_to("loop.po")
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    proc = _runner(case)(*(a.replace("{dir}", str(tmp_path)) for a in argv))
    lines = _one_clean_error(proc)
    if case.endswith("/validate") and len(lines) == 2:  # a validator lists each problem, then a count
        assert lines[1].startswith("1 problem(s) in "), (case, lines)
        lines = lines[:1]
    assert len(lines) == 1, (case, lines)  # one line, on stderr (or stdout for --check)
    problem = [line for line in lines if named in line]
    assert problem, (case, lines)
    # Where the input has lines, the message names the line: file:N:
    data = files.get(next((k for k in files if k.endswith(named)), ""), b"")
    if not named.endswith(("nosite", "tree")) and b"\n" in data and not case.startswith(
            ("reviews-not-list", "glossary-", "assignments-")) or case.startswith(
            ("reviews-bad-utf8", "reviews-yaml")):
        assert any(f"{named}:" in line for line in problem), (case, problem)
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("case", sorted(OPTIONS))
def test_bad_option(case):
    lines = _one_clean_error(_runner(case)(*OPTIONS[case]))
    assert len(lines) == 1, lines


def test_corpus_size():
    """The issue asks for at least 40 inputs across the kinds (catalogs in test_lossless)."""
    from test_lossless import MALFORMED

    other_files = len(CASES) - 2 * (len(GLOSSARY) + len(ASSIGNMENTS) + len(REVIEWS))
    inputs = (len(GLOSSARY) + len(ASSIGNMENTS) + len(REVIEWS) + other_files + len(OPTIONS)
              + len(MALFORMED))
    assert inputs >= 40, inputs


def test_the_in_process_runner_shows_what_the_process_shows(tmp_path, monkeypatch):
    """The cases run in this process see what a user sees: the same exit status and
    output as the real process; a second line (even one a child process writes) shows;
    an exception escaping the command (a traceback for the user) fails the test."""
    from jaxko.commands import fmt as fmt_command

    for case in ("catalog-missing/fmt", "option-bad-choice"):
        argv = OPTIONS.get(case) or [a.replace("{dir}", str(tmp_path)) for a in CASES[case][1]]
        real, here = run_jaxko(*argv), run_jaxko_in_process(*argv)
        assert (here.returncode, here.stdout, here.stderr) == (
            real.returncode, real.stdout, real.stderr), case
    argv = [a.replace("{dir}", str(tmp_path)) for a in CASES["catalog-missing/fmt"][1]]
    real_run = fmt_command.run

    def noisy(args):
        subprocess.run(["sh", "-c", "echo a child says more >&2"], check=True)
        return real_run(args)

    monkeypatch.setattr(fmt_command, "run", noisy)
    lines = _one_clean_error(run_jaxko_in_process(*argv))
    assert len(lines) == 2 and lines[0] == "a child says more", lines  # a case would fail
    monkeypatch.setattr(fmt_command, "run", lambda args: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        run_jaxko_in_process(*argv)
