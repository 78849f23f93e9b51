"""Planted findings and clean look-alikes, in MyST- and reST-sourced catalogs.

Each entry of ``tests/fixtures/check/catalogs/*.po`` says in an extracted comment
which rules must fire on it (``#. expect: markup.role safety.new-url``) or that it
must stay clean (``#. expect: clean``). Untranslated, fuzzy and suppressed entries
are among the clean ones.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import polib
import pytest

from jaxko import catalogs as pofile
from jaxko.check.runner import Options, run

FIXTURES = Path(__file__).parent / "fixtures" / "check"
CATALOGS = FIXTURES / "catalogs"


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    empty = tmp_path_factory.mktemp("no-sources")
    return run(Options(paths=[CATALOGS], glossary=FIXTURES / "glossary.yaml",
                       source_dir=empty, jobs=1))


def expectations():
    for path in sorted(CATALOGS.glob("*.po")):
        lines = {e.first_line: e.msgstr_line for e in pofile.read(path)}  # findings' line
        for entry in polib.pofile(str(path)):
            if not entry.msgid:
                continue
            expect = entry.comment.split("expect:", 1)[1].split()
            rules = set() if expect == ["clean"] else set(expect)
            yield pytest.param(str(path), lines[entry.linenum], rules,
                               id=f"{path.stem}:{entry.occurrences[0][1]}")


@pytest.mark.parametrize("path, line, rules", list(expectations()))
def test_entry_gets_exactly_its_findings(result, path, line, rules):
    fired = defaultdict(set)
    for finding in result.findings:
        fired[(finding.path, finding.line)].add(finding.rule)
    assert fired[(path, line)] == rules


def test_every_finding_is_at_an_expected_entry(result):
    lines = {(str(p), e.msgstr_line) for p in CATALOGS.glob("*.po") for e in pofile.read(p)}
    assert all((f.path, f.line) in lines for f in result.findings)


def test_summary_counts(result):
    summary = result.summary()
    assert summary["suppressed"] == 1          # the `jaxko: ignore` entry
    assert summary["checked"] == summary["entries"] - 2  # untranslated + fuzzy skipped
    assert result.exit_code == 1


def test_suggestions_carry_the_fix(result):
    by_message = {f.message: f.suggestion for f in result.findings}
    assert by_message["`합성곱를`: after `합성곱` the particle is `을`, not `를`"] == "합성곱을"
    assert by_message["`JAX으로`: after `JAX` the particle is `로`, not `으로`"] == "JAX로"
    assert by_message["`:func:`jax.jit`을`: reST needs an escaped space between markup and "
                      "Hangul"] == ":func:`jax.jit`\\ 을"
    assert by_message["`컨볼루션` is forbidden for `convolution`; use `합성곱`"] == "합성곱"
