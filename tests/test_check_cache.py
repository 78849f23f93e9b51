"""The result cache of `jaxko check`: an unchanged catalog is not checked again, and
anything its findings depend on (its bytes, its source documents, the glossary, the
rule selection) invalidates it. Every test plants a change after a warm run and sees
the check react to it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from conftest import run_jaxko
from jaxko.check import cache as cache_model
from jaxko.check.runner import Options, run
from jaxko.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "check"
GLOSSARY = FIXTURES / "glossary.yaml"
CLEAN = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
         '#: guide.md:3\nmsgid "Use the array."\nmsgstr "배열을 쓰세요."\n')


@pytest.fixture
def catalogs(tmp_path: Path) -> Path:
    folder = tmp_path / "locale"
    shutil.copytree(FIXTURES / "catalogs", folder)
    return folder


def check(folder: Path, cache_dir: Path, **extra):
    options = dict(paths=[folder], glossary=GLOSSARY, source_dir=folder / "no-sources",
                   cache_dir=cache_dir, jobs=1)
    options.update(extra)
    return run(Options(**options))


def keys(result):
    return [(f.path, f.line, f.rule, f.severity, f.message, f.msgid, f.suggestion)
            for f in result.findings]


def test_warm_run_reuses_every_catalog_and_equals_the_cold_run(catalogs, tmp_path):
    cold = check(catalogs, tmp_path / "cache")
    warm = check(catalogs, tmp_path / "cache")
    uncached = check(catalogs, None)
    assert (cold.cached, warm.cached, uncached.cached) == (0, 3, 0)
    # Every rule family of the fixtures, consistency across catalogs included.
    assert {f.rule.split(".")[0] for f in cold.findings} >= {
        "glossary", "particle", "markup", "safety", "code", "consistency", "leftover", "syntax"}
    assert keys(warm) == keys(cold) == keys(uncached)
    assert warm.summary() | {"cached": 0} == cold.summary()


def test_a_planted_fault_in_a_cached_catalog_is_caught(tmp_path):
    folder = tmp_path / "locale"
    folder.mkdir()
    (folder / "a.po").write_text(CLEAN, encoding="utf-8")
    (folder / "b.po").write_text(CLEAN, encoding="utf-8")
    assert check(folder, tmp_path / "cache").findings == []
    (folder / "a.po").write_text(CLEAN.replace("배열을", "어레이를"), encoding="utf-8")
    result = check(folder, tmp_path / "cache")
    assert result.cached == 1
    found = [(Path(f.path).name, f.rule) for f in result.findings]
    # The cached b.po now also disagrees with a.po (the glossary term rendered another
    # way): its records came from the cache.
    assert found == [("a.po", "glossary.missing"), ("b.po", "consistency.translation")]


def test_consistency_reads_again_only_the_catalogs_whose_results_were_cached(catalogs, tmp_path,
                                                                          monkeypatch):
    """The texts of a catalog checked in this run travel with its records; only a
    cached catalog (hashes only) is read again, and the findings are the same."""
    from jaxko import catalogs as catalog_module
    from jaxko.check import consistency

    read_again = []

    def counting_read(path):
        read_again.append(Path(path).name)
        return catalog_module.read(path)

    monkeypatch.setattr(consistency, "catalogs", type("P", (), {"read": staticmethod(counting_read)}))
    cold = check(catalogs, tmp_path / "cache")
    assert read_again == []
    warm = check(catalogs, tmp_path / "cache")
    assert read_again, "a warm run has no texts on its records: it must read them"
    assert any(f.rule == "consistency.translation" for f in cold.findings)
    assert keys(warm) == keys(cold)


def test_touching_a_catalog_keeps_its_cached_result(catalogs, tmp_path):
    check(catalogs, tmp_path / "cache")
    later = os.stat(catalogs / "faq.po").st_mtime + 100
    os.utime(catalogs / "faq.po", (later, later))
    assert check(catalogs, tmp_path / "cache").cached == 3  # same bytes, same result


def test_a_changed_glossary_invalidates_the_cache(tmp_path):
    folder = tmp_path / "locale"
    folder.mkdir()
    (folder / "a.po").write_text(CLEAN, encoding="utf-8")
    glossary = tmp_path / "glossary.yaml"
    glossary.write_text("terms:\n  - en: array\n    ko: 배열\n", encoding="utf-8")
    assert check(folder, tmp_path / "cache", glossary=glossary).findings == []
    glossary.write_text("terms:\n  - en: array\n    ko: 어레이\n    forbidden: [배열]\n",
                        encoding="utf-8")
    result = check(folder, tmp_path / "cache", glossary=glossary)
    assert result.cached == 0
    assert {f.rule for f in result.findings} == {"glossary.forbidden"}


def test_the_rule_selection_is_part_of_the_key(tmp_path):
    folder = tmp_path / "locale"
    folder.mkdir()
    (folder / "a.po").write_text(CLEAN.replace("배열을", "배열를"), encoding="utf-8")
    assert check(folder, tmp_path / "cache", ignore=["particle"]).findings == []
    result = check(folder, tmp_path / "cache")
    assert result.cached == 0 and [f.rule for f in result.findings] == ["particle.agreement"]


def test_a_changed_source_document_reclassifies_its_messages(tmp_path):
    """The source tells a code block from prose: editing it re-checks its catalogs."""
    folder, sources = tmp_path / "locale", tmp_path / "docs"
    folder.mkdir()
    sources.mkdir()
    (folder / "guide.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#: guide.rst:3\nmsgid "x = 1"\nmsgstr "x = 2"\n', encoding="utf-8")
    (folder / "other.po").write_text(CLEAN, encoding="utf-8")
    (sources / "guide.rst").write_text("Some prose.\n", encoding="utf-8")

    def findings():
        result = check(folder, tmp_path / "cache", source_dir=sources, select=["code"])
        return result.cached, [f.rule for f in result.findings]

    # Not a block of its source: a one-line message is prose, and code rules skip it.
    assert findings() == (0, [])
    assert findings() == (2, [])
    # The source now shows it as a literal block: the same catalog bytes, a new verdict.
    (sources / "guide.rst").write_text("Example::\n\n   x = 1\n", encoding="utf-8")
    assert findings() == (1, ["code.tokens"])
    (sources / "guide.rst").unlink()  # a source that disappears counts as a change too
    assert findings()[0] == 1


def test_a_damaged_cache_is_a_cold_start(catalogs, tmp_path):
    folder = tmp_path / "cache"
    cold = check(catalogs, folder)
    for garbage in ("{not json", "[]", '{"fingerprint": 1}',
                    json.dumps({"fingerprint": None, "files": {}}),
                    (folder / "check.json").read_text(encoding="utf-8").replace('"digest"', '"dig"'),
                    _with_findings(folder / "check.json", [1]),
                    _with_findings(folder / "check.json", [["1", "r", "s", "m", "i", None]]),
                    _with_findings(folder / "check.json", [[1, "r", "s", "m", "i"]])):
        (folder / "check.json").write_text(garbage, encoding="utf-8")
        again = check(catalogs, folder)
        assert keys(again) == keys(cold)
    # Rewritten whole: the next run is warm again.
    assert check(catalogs, folder).cached == 3


def _with_findings(path: Path, findings) -> str:
    """The cache file with every catalog's findings replaced (a hand-edited cache)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for entry in data["files"].values():
        entry["findings"] = findings
    return json.dumps(data)


def test_an_unwritable_cache_costs_speed_not_the_check(catalogs, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    result = check(catalogs, blocker / "cache")
    assert result.findings and result.cached == 0


def test_paths_are_reported_as_named_in_this_run(catalogs, tmp_path, monkeypatch):
    check(catalogs, tmp_path / "cache")
    monkeypatch.chdir(catalogs.parent)
    warm = check(Path("locale"), tmp_path / "cache")
    assert warm.cached == 3
    assert all(f.path.startswith("locale" + os.sep) for f in warm.findings)


def test_command_line_writes_the_cache_and_no_cache_does_not(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "locale"
    folder.mkdir()
    (folder / "a.po").write_text(CLEAN, encoding="utf-8")
    default = tmp_path / "env-cache"
    monkeypatch.setenv("JAXKO_CACHE_DIR", str(default))
    assert main(["check", "--glossary", str(GLOSSARY), "--no-cache", str(folder)]) == 0
    assert not default.exists()
    assert main(["check", "--glossary", str(GLOSSARY), str(folder)]) == 0
    assert (default / "check.json").is_file()
    assert (default / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    assert main(["check", "--glossary", str(GLOSSARY), "--format", "json", str(folder)]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["summary"]["cached"] == 1
    explicit = tmp_path / "explicit"
    assert main(["check", "--glossary", str(GLOSSARY), "--cache-dir", str(explicit), str(folder)]) == 0
    assert (explicit / "check.json").is_file()


def test_since_neither_reads_nor_writes_the_cache(tmp_path):
    folder = tmp_path / "locale"
    folder.mkdir()
    (folder / "a.po").write_text(CLEAN, encoding="utf-8")
    os.system(f"cd {tmp_path} && git init -q && git add -A && "
              "git -c user.name=t -c user.email=t@t commit -q -m start")
    result = check(folder, tmp_path / "cache", since="HEAD")
    assert result.checked == 0 and not (tmp_path / "cache").exists()


def test_consistency_survives_separate_processes(catalogs, tmp_path):
    """Records are hashed the same way in every process (``hash()`` is salted per
    process), so a warm run in a new process still sees disagreeing catalogs."""
    cache = tmp_path / "cache"
    args = ("check", "--glossary", str(GLOSSARY), "--format", "json", "--show-info", str(catalogs))
    outputs = []
    for seed in ("1", "2"):
        proc = run_jaxko(*args, env={"JAXKO_CACHE_DIR": str(cache), "PYTHONHASHSEED": seed})
        assert proc.returncode == 1, proc.stderr
        outputs.append(json.loads(proc.stdout))
    cold, warm = outputs
    assert warm["summary"]["cached"] == 3
    assert warm["findings"] == cold["findings"]
    assert any(f["rule"] == "consistency.translation" for f in warm["findings"])


def test_fingerprint_covers_what_findings_depend_on(tmp_path):
    glossary = tmp_path / "g.yaml"
    glossary.write_text("terms: []\n", encoding="utf-8")
    base = dict(glossary=glossary, use_glossary=True, syntax=None, select=None, ignore=None,
                source_dir=None)
    stamp = cache_model.fingerprint(**base)
    assert cache_model.fingerprint(**base) == stamp
    for change in (dict(syntax="rst"), dict(select=["markup"]), dict(ignore=["leftover"]),
                   dict(use_glossary=False), dict(source_dir=tmp_path),
                   dict(severity={"particle.emphasis": "warning"})):
        assert cache_model.fingerprint(**(base | change)) != stamp, change
    glossary.write_text("terms: [] # edited\n", encoding="utf-8")
    assert cache_model.fingerprint(**base) != stamp
