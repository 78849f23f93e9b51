"""Generate the rules part of the translator guide, ``docs/checks.md`` (Korean).

The guide's prose (how to run, suppress, adopt) is written by hand above :data:`MARKER`;
everything below it is generated: the examples from the rule docstrings (the same ones
the tests run), the Korean explanations from :data:`EXPLANATIONS` (a rule without one
fails here). Regenerate with ``.venv/bin/python -m jaxko.check.guide``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from jaxko.check import config
from jaxko.check.registry import RULES
from jaxko.check.runner import load_rules_modules
from jaxko.paths import repo_root

FAMILIES = {
    "glossary": "용어집 (glossary)",
    "particle": "조사 (particle)",
    "markup": "마크업 (markup)",
    "safety": "안전 (safety)",
    "code": "코드 (code)",
    "consistency": "일관성 (consistency)",
    "leftover": "남은 영어 (leftover)",
    "syntax": "구문 (syntax)",
}

EXPLANATIONS = {
    "glossary.missing":
        "msgid의 영어 용어(인라인 코드, 역할 대상, URL, 수식 밖)가 msgstr에 용어집의 합의된 번역"
        "(`ko`)으로도, 허용 변형(`variants`)으로도 나오지 않습니다. 복수형과 활용형(arrays, traced)도 "
        "같은 용어로 봅니다. 문맥상 다른 뜻이면(예: machine learning *methods* → 기법) 항목에 "
        "`# jaxko: ignore glossary.missing -- 이유`를 답니다.",
    "glossary.forbidden":
        "용어집이 금지한 번역(`forbidden`)이 msgstr에 있습니다. msgid와 상관없이 어디에 있든 오류입니다. "
        "다른 단어의 일부(하이퍼파라미터 안의 파라미터)는 그 단어의 항목이 따로 다룹니다.",
    "glossary.keep":
        "`keep: true`인 용어(JAX, XLA, pytree 등)는 영어 그대로 둡니다. msgstr에 영어 표기가 없으면 "
        "오류이고, 읽는 소리(잭스)로 바꿔 쓴 경우에는 그렇게 알려 줍니다.",
    "glossary.spacing":
        "합의된 번역을 띄어쓰기만 다르게 썼습니다(매개 변수 ↔ 매개변수). 용어집 표기대로 고치거나, "
        "그 띄어쓰기도 허용하려면 용어집의 `variants`에 추가합니다.",
    "glossary.gloss-position":
        "용어의 병기(번역어(영어 원어))는 한 페이지에 한 번, 그 용어가 처음 나오는 곳에 씁니다. 먼저 병기 없이 "
        "쓰고 나중에 병기했거나, 같은 용어를 두 번 병기하면 알립니다. 제목(짧고 마침표가 없는 msgid)은 "
        "첫 사용으로 치지 않습니다.",
    "particle.emphasis":
        "강조(`**…**`, `__…__`, `*…*`) 안에 조사가 들어 있습니다. 강조는 단어에만 하고 조사는 밖에 "
        "붙입니다: `**슬픔과**`가 아니라 `**슬픔**과`(reST는 `**슬픔**\\ 과`). 조사인지는 앞 음절과의 "
        "호응으로 판단하므로 `**사과**`, `*무언가*`처럼 낱말의 끝 글자는 건너뜁니다.",
    "particle.agreement":
        "조사가 앞말의 받침과 맞지 않습니다. 받침이 있으면 을/은/이/과/으로, 없으면 를/는/가/와/로를 "
        "쓰고, ㄹ 받침 뒤에는 로를 씁니다(파일로). 영어 용어는 용어집의 `reading`(JAX → 잭스, jit → 짓)"
        "으로, 인라인 코드는 읽는 소리(`x` → 엑스)로 판단합니다. 판단할 수 없는 단어는 건너뜁니다. "
        "괄호 속 원어는 무시합니다: 합성곱(convolution)을.",
    "markup.literal":
        "msgid의 인라인 리터럴(reST ``` ``x`` ```, MyST `` `x` ``)은 msgstr에 그대로 한 번 이상 "
        "나와야 합니다. 코드는 번역하지 않습니다.",
    "markup.role":
        "역할(role)과 그 대상이 msgid와 같아야 합니다. 순서는 바뀌어도 되고, 표시 텍스트는 번역해도 "
        "됩니다(`` :ref:`추적 <jit-tracing>` ``). 대상이 바뀌면 빌드 때 "
        "`i18n.inconsistent_references` 경고가 나거나 링크가 엉뚱한 곳을 가리킵니다. 역할 이름"
        "(`:setting:`)은 번역하지 않습니다. reST에서 리터럴을 따옴표로 닫는 등(``` ``lhs\" ```) 백틱의 "
        "짝이 어긋나면 그 사이가 해석 텍스트로 읽히는데, 이는 처음 어긋난 곳에서 한 번만 알립니다.",
    "markup.link":
        "링크 대상이 msgid와 같아야 합니다. 링크 텍스트는 번역해도 됩니다. msgid에 없는 외부 URL은 "
        "`safety.new-url`이 따로 오류로 알립니다.",
    "markup.reference":
        "각주 참조(`[#f1]_`, `[^1]`), 인용, 치환(`|name|`, `{{ name }}`)은 빠뜨리거나 새로 넣지 않습니다.",
    "markup.math":
        "수식(`$...$`, `{math}`, `:math:`, 수식 블록)은 바꾸지 않고 그대로 옮깁니다.",
    "markup.hangul-after-markup":
        "reST에서는 인라인 마크업 바로 뒤(또는 앞)에 한글이 붙으면 마크업으로 인식되지 않습니다. "
        "사이에 이스케이프한 공백(`\\ `)을 넣습니다: `` :func:`jax.jit`\\ 으로 ``. MyST에서는 필요 없습니다.",
    "safety.structure":
        "안전 판단의 기준입니다. msgid와 msgstr를 Sphinx가 그 문서에 쓰는 파서(`.md`·`.ipynb`는 MyST, "
        "`.rst`는 docutils)로 실제로 읽어 구조를 비교합니다. 번역은 글자, 강조, 평범한 인라인 마크업"
        "(``리터럴``, **굵게**, `:kbd:` 등)만 더할 수 있고, 지시어, 원시·HTML 내용, 역할, 참조, 치환, "
        "그림, 링크는 msgid에 있는 것만 쓸 수 있습니다. 철자를 어떻게 바꾸든(이스케이프, 띄어쓰기, "
        "처리 명령 `<?x>`·`<![CDATA[`) 파서가 구조로 읽으면 걸립니다. `#:` 줄이 다른 문서를 가리켜도 "
        "카탈로그가 번역하는 실제 문서의 파서를 씁니다. `jaxko: ignore` 주석으로 끌 수 없습니다.",
    "safety.html":
        "msgid에 없는 HTML 태그·주석을 msgstr에 넣으면 MyST가 그대로 페이지에 내보냅니다. "
        "`<script>`, `onerror=` 같은 능동 HTML은 물론, 모든 새 HTML이 오류입니다. reST는 태그를 "
        "글자 그대로 보여 주므로(docutils가 이스케이프) MyST 메시지만 검사합니다.",
    "safety.url-scheme":
        "`javascript:`, `vbscript:`, `data:` URL은 msgid에 없는 한 어떤 경우에도 오류입니다.",
    "safety.new-url":
        "msgid에 없는 외부 URL을 msgstr에 넣을 수 없습니다. 번역된 사이트가 원문이 링크하지 않는 "
        "곳을 링크하면 안 됩니다. 한국어 참고 자료는 번역 노트나 용어집에 적습니다.",
    "safety.raw":
        "원시 내용을 끼워 넣는 지시어·역할(`raw`, `include`, `literalinclude`, `eval-rst`, "
        "`:raw-html:`)은 msgid에 없으면 넣을 수 없습니다.",
    "safety.directive":
        "msgid에 없는 지시어(reST `.. 이름::`, 치환 정의 `.. |x| 이름::`, MyST ```` ```{이름} ````)는 "
        "어떤 것이든 msgstr에 넣을 수 없습니다. 지시어는 메시지를 읽는 순간 실행되어 파일을 읽고"
        "(`csv-table`, `mermaid`), 코드를 실행하고(`plot`), 모듈을 불러오거나(`automodule`) 페이지를 "
        "바꿉니다(`meta`, `role`). 사이트 빌드는 이런 번역을 적용하지 않고 영어 원문을 보여 줍니다.",
    "safety.link-scheme":
        "msgid에 없는 대상으로 http, https, mailto가 아닌 링크(`tel:`, `intent:`, 파일을 복사하는 "
        "MyST `path:` 등)를 msgstr에 넣을 수 없습니다. 사이트 빌드는 이런 번역을 적용하지 않고 영어 "
        "원문을 보여 줍니다. `javascript:`·`data:`는 `safety.url-scheme`이 따로 알립니다.",
    "safety.file":
        "msgid에 없는 파일 참조(`{download}`, `:download:`, `image`, `figure`, `include`, "
        "`![그림](경로)`)를 msgstr에 넣을 수 없습니다. 빌드가 다른 파일을 읽거나 사이트로 복사하게 "
        "되기 때문입니다. 사이트 빌드는 이런 번역을 적용하지 않고 영어 원문을 보여 줍니다.",
    "code.tokens":
        "코드 블록과 노트북 코드 셀에서 번역할 수 있는 것은 주석과 문자열 리터럴의 내용뿐입니다. "
        "식별자, 숫자, 연산자가 바뀌면 처음 달라진 토큰을 알려 줍니다. 파이썬이 아닌 블록은 "
        "주석처럼 보이는 줄만 바꿀 수 있습니다.",
    "consistency.translation":
        "같은 msgid를 카탈로그마다 다르게 번역했습니다. 제목, 이름표, 용어처럼 문장이 아닌 msgid는 "
        "다른 낱말로 옮겼을 때 알립니다(띄어쓰기, 조사와 어미, 괄호 속 영어 병기, 원문 영어를 그대로 둔 "
        "것의 차이는 알리지 않습니다). 문장(\"For example:\"처럼 뒤를 이끄는 구절 포함)은 그 안의 "
        "용어집 용어를 다르게 옮겼을 때만 알립니다. 가장 많이 쓴 번역을 제안하고 변형을 모두 보여 줍니다. "
        "`--since`로 돌리면 읽은 카탈로그끼리만 비교합니다.",
    "leftover.untranslated":
        "긴 영어 문장을 msgstr에 그대로 복사했습니다(경고). 번역하거나, 영어를 그대로 보이려면 "
        "msgstr을 비워 둡니다.",
    "leftover.english":
        "번역한 msgstr에 msgid의 영어 단어가 다섯 개 이상 이어서 남아 있습니다(경고). 책 제목처럼 "
        "영어로 두는 것이 맞으면 `# jaxko: ignore leftover.english -- 이유`를 답니다.",
    "syntax.parse":
        "msgstr을 실제 파서(reST는 docutils, MyST는 MyST 파서)로 읽었을 때 msgid에는 없던 문제가 "
        "생깁니다. MyST에서는 문장 부호 뒤의 강조 닫는 기호 바로 뒤에 한글이 오면(`**\"jit\"**을`) "
        "강조가 풀립니다: 문장 부호를 강조 안쪽으로 옮기거나 구조를 바꿉니다.",
}

MARKER = "<!-- 아래는 생성됩니다: .venv/bin/python -m jaxko.check.guide (규칙 설명은 guide.py, 예시는 각 규칙의 docstring) -->\n"


GUIDE = repo_root() / "docs" / "checks.md"


def prose_of(text: str, path: Path = GUIDE) -> str:
    """The hand-written part of the guide: everything before the marker."""
    if MARKER not in text:
        raise SystemExit(f"{path}: the line {MARKER.strip()!r} is missing; put it where the rules begin")
    return text[:text.index(MARKER)]


def _example_block(example: dict) -> str:
    lines = []
    for entry in example.get("entries", [example]):
        location = entry.get("location", "example.md:1")
        lines.append(f"#: {location}")
        for key in ("msgid", "msgstr"):
            value = str(entry[key]).rstrip("\n")
            if "\n" in value:
                lines.append(f"{key}:")
                lines.extend("    " + line for line in value.split("\n"))
            else:
                lines.append(f"{key}: {value}")
        lines.append("")
    return "```text\n" + "\n".join(lines).rstrip("\n") + "\n```\n"


def _first_sentence(text: str) -> str:
    head, sep, _ = text.partition("다. ")
    return head + "다." if sep else text


def render(prose: str) -> str:
    """The whole of docs/checks.md: ``prose`` (everything up to the marker) and the rules."""
    load_rules_modules()
    missing = sorted(set(RULES) - set(EXPLANATIONS))
    if missing:
        raise SystemExit(f"no Korean explanation for rule(s) {', '.join(missing)} in {__file__}")
    project = config.severities([repo_root()])

    def severity(name: str) -> str:
        default = RULES[name].severity
        raised = project.get(name, default)
        return default if raised == default else f"{default} (jax-docs-ko: {raised})"

    out = [prose, MARKER]
    out.append("\n## 규칙 목록\n\n| 규칙 | 심각도 | 요약 |\n|---|---|---|\n")
    for name in sorted(RULES, key=lambda n: (list(FAMILIES).index(RULES[n].family), n)):
        summary = _first_sentence(EXPLANATIONS[name]).replace("|", "\\|")
        out.append(f"| [`{name}`](#{name.replace('.', '')}) | {severity(name)} | {summary} |\n")
    for family, title in FAMILIES.items():
        names = sorted(n for n in RULES if RULES[n].family == family)
        if not names:
            continue
        out.append(f"\n## {title}\n")
        for name in names:
            rule_ = RULES[name]
            out.append(f"\n### `{name}`\n\n심각도: **{severity(name)}**\n\n")
            out.append(EXPLANATIONS[name] + "\n\n")
            for kind, label in (("Bad", "나쁜 예"), ("Good", "좋은 예")):
                for example in rule_.examples(kind):
                    out.append(f"{label}:\n\n")
                    out.append(_example_block(example) + "\n")
    return "".join(out).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    from jaxko.catalogs import write_text_atomic

    target = Path(argv[0]) if argv else GUIDE
    changed = write_text_atomic(target, render(prose_of(target.read_text(encoding="utf-8"), target)))
    print(f"{target}: {'written' if changed else 'unchanged'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
