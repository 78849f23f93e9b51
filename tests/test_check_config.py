"""A project's own severities (``[tool.jaxko.check.severity]`` of the nearest
pyproject.toml): policy rules are hints on a foreign catalog and raised where the
project has the policy; a bad setting is one line and exit 2."""

from __future__ import annotations

from pathlib import Path

import polib

from jaxko.check.runner import Options, run

ROOT = Path(__file__).resolve().parents[1]


def catalog(folder: Path) -> Path:
    folder.mkdir(parents=True)
    po = polib.POFile(wrapwidth=79)
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
    po.append(polib.POEntry(msgid="Be **sad** and **dull**.", msgstr="**슬픔과** **단조로움이** 있습니다.",
                            occurrences=[("page.md", "3")]))
    po.save(str(folder / "page.po"))
    return folder


def emphasis(folder: Path) -> list[str]:
    result = run(Options(paths=[folder], use_glossary=False, select=["particle.emphasis"],
                         source_dir=folder / "none", jobs=1))
    return sorted({f.severity for f in result.findings})


def test_a_policy_rule_is_a_hint_without_a_project_and_raised_by_one(tmp_path):
    assert emphasis(catalog(tmp_path / "foreign" / "ko")) == ["info"]
    project = tmp_path / "project"
    folder = catalog(project / "locale" / "ko")
    (project / "pyproject.toml").write_text(
        '[tool.jaxko.check.severity]\n"particle.emphasis" = "error"\n', encoding="utf-8")
    assert emphasis(folder) == ["error"]


def test_this_project_raises_its_policy_rules():
    from jaxko.check import config

    assert config.severities([ROOT / "locale" / "ko"]) == {
        "consistency.translation": "warning", "particle.emphasis": "warning",
        "safety.new-url": "error"}


def test_a_bad_setting_is_one_line_and_exit_2(tmp_path, jaxko):
    folder = catalog(tmp_path / "locale" / "ko")
    settings = tmp_path / "pyproject.toml"
    for text, expected in (('[tool.jaxko.check.severity]\n"particle.emphasis" = "fatal"\n', "fatal"),
                           ('[tool.jaxko.check.severity]\n"particle.emphaziz" = "error"\n', "not a rule"),
                           ('[tool.jaxko.check\nx = 1\n', "not valid TOML")):
        settings.write_text(text, encoding="utf-8")
        proc = jaxko("check", str(folder))
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.count("\n") == 1 and str(settings) in proc.stderr
        assert expected in proc.stderr and "Traceback" not in proc.stderr


def test_a_changed_project_severity_is_not_served_from_the_cache(tmp_path):
    project = tmp_path / "project"
    folder = catalog(project / "locale" / "ko")
    settings = project / "pyproject.toml"

    def severities() -> list[str]:
        result = run(Options(paths=[folder], use_glossary=False, select=["particle.emphasis"],
                             source_dir=folder / "none", jobs=1, cache_dir=tmp_path / "cache"))
        return sorted({f.severity for f in result.findings})

    settings.write_text('[tool.jaxko.check.severity]\n"particle.emphasis" = "warning"\n', encoding="utf-8")
    assert severities() == ["warning"]
    settings.write_text('[tool.jaxko.check.severity]\n"particle.emphasis" = "error"\n', encoding="utf-8")
    assert severities() == ["error"]
