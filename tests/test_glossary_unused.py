"""`jaxko glossary validate --catalogs`: a rendering no catalog uses while its English
term occurs in many translated messages is a warning (a typo such as 컨테이너너)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from jaxko.cli import main

ROOT = Path(__file__).resolve().parents[1]

GLOSSARY = """\
terms:
  - en: array
    ko: 배열

  - en: container
    ko: {container}
"""

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


def write(tmp_path, container: str = "컨테이너", messages: int = 5,
          extra: str = "") -> tuple[Path, Path]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    glossary = tmp_path / "ko.yaml"
    glossary.write_text(GLOSSARY.format(container=container), encoding="utf-8")
    catalogs = tmp_path / "locale" / "ko" / "LC_MESSAGES"
    catalogs.mkdir(parents=True)
    body = "".join(f'msgid "Container {n} holds an array."\n'
                   f'msgstr "컨테이너 {n}에 배열이 있습니다."\n\n' for n in range(messages))
    (catalogs / "doc.po").write_text(HEADER + body + extra, encoding="utf-8")
    return glossary, tmp_path / "locale" / "ko"


def validate(capsys, *args) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["glossary", "validate", *map(str, args)])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err


def test_a_typo_in_a_rendering_is_a_warning(tmp_path, capsys):
    glossary, locale = write(tmp_path, container="컨테이너너")
    code, out, _ = validate(capsys, glossary, "--catalogs", locale)
    assert code == 0
    (line, summary) = out.splitlines()
    assert line.startswith(f"{glossary}:5: warning: `container` occurs in 5 translated messages "
                           f"(the first at {locale}/LC_MESSAGES/doc.po:")
    assert "no catalog uses its rendering `컨테이너너`; check the rendering for a typo" in line
    assert summary == f"{glossary}: 2 terms, valid; 1 warning(s)"
    code, out, _ = validate(capsys, glossary, "--catalogs", locale, "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["valid"] and [(w["line"], w["en"], w["messages"])
                                            for w in data["warnings"]] == [(5, "container", 5)]
    # without --catalogs, the glossary alone is valid as before
    assert validate(capsys, glossary) == (0, f"{glossary}: 2 terms, valid\n", "")


def test_a_used_rendering_and_a_rare_term_are_clean(tmp_path, capsys):
    glossary, locale = write(tmp_path)
    code, out, _ = validate(capsys, glossary, "--catalogs", locale)
    assert (code, out) == (0, f"{glossary}: 2 terms, valid\n")
    rare, rare_locale = write(tmp_path / "rare", container="컨테이너너", messages=4)
    assert validate(capsys, rare, "--catalogs", rare_locale)[1] == f"{rare}: 2 terms, valid\n"
    assert "1 warning(s)" in validate(capsys, rare, "--catalogs", rare_locale,
                                      "--min-messages", "4")[1]


def test_inline_code_code_blocks_and_untranslated_messages_do_not_count(tmp_path, capsys):
    extra = "".join(f'msgid "Call `container()` here {n}."\nmsgstr "여기서 `container()` {n}."\n\n'
                    for n in range(5))
    extra += "".join(f'msgid "Container {n} waits."\nmsgstr ""\n\n' for n in range(5))
    extra += 'msgid "x = container()\\ny = container()"\nmsgstr "x = container()\\ny = container()"\n\n'
    glossary, locale = write(tmp_path, container="컨테이너너", messages=4, extra=extra)
    assert validate(capsys, glossary, "--catalogs", locale)[1] == f"{glossary}: 2 terms, valid\n"


def test_bad_options_are_one_line_errors(tmp_path, capsys):
    glossary, locale = write(tmp_path)
    code, _, err = validate(capsys, glossary, "--catalogs", tmp_path / "nowhere")
    assert code == 2 and err.count("\n") == 1 and "no such catalog or folder" in err
    code, _, err = validate(capsys, glossary, "--catalogs", locale, "--min-messages", "0")
    assert code == 2 and "--min-messages 0" in err


def test_the_projects_glossary_warns_only_of_a_planted_typo(tmp_path, capsys):
    """The real glossary and catalogs: no warning; 컨테이너 → 컨테이너너 is the one."""
    real = ROOT / "glossary" / "ko.yaml"
    code, out, _ = validate(capsys, real, "--catalogs", ROOT / "locale" / "ko")
    assert code == 0 and "warning" not in out
    text = real.read_text(encoding="utf-8")
    planted = tmp_path / "ko.yaml"
    planted.write_text(re.sub(r"^    ko: 컨테이너$", "    ko: 컨테이너너", text, count=1,
                              flags=re.M), encoding="utf-8")
    code, out, _ = validate(capsys, planted, "--catalogs", ROOT / "locale" / "ko")
    warnings = [line for line in out.splitlines() if ": warning: " in line]
    assert code == 0 and len(warnings) == 1
    assert "`container` occurs in" in warnings[0] and "`컨테이너너`" in warnings[0]
