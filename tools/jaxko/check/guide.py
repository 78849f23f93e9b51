"""Generate the rules chapter of the translator guide, ``docs/checks.md`` (Korean).

The examples come from the rule docstrings (the same ones the tests run), the Korean
explanations from :data:`EXPLANATIONS`; a rule without an explanation fails here.
Regenerate with ``.venv/bin/python -m jaxko.check.guide``.
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
        "`i18n.inconsistent_references` 경고가 나거나 링크가 엉뚱한 곳을 가리킵니다.",
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
    "safety.html":
        "msgid에 없는 HTML 태그·주석을 msgstr에 넣으면 MyST가 그대로 페이지에 내보냅니다. "
        "`<script>`, `onerror=` 같은 능동 HTML은 물론, 모든 새 HTML이 오류입니다.",
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

HEADER = """\
# 번역 검사 규칙 (`jaxko check`)

<!-- 이 파일은 생성됩니다: `.venv/bin/python -m jaxko.check.guide`. 규칙 설명은
tools/jaxko/check/guide.py, 예시는 각 규칙의 docstring에 있습니다. -->

`jaxko check`는 번역된(퍼지가 아닌) 모든 항목을 용어집, 조사, 마크업, 안전, 코드 규칙으로
검사합니다. 각 예시의 **나쁜 예**는 실제로 그 규칙에 걸리고 **좋은 예**는 걸리지 않는다는 것을
테스트(`tests/test_check_rules.py`)가 매번 확인합니다.

## 실행

```console
$ make check                                  # = jaxko check locale/ko
$ jaxko check locale/ko/LC_MESSAGES/jit-compilation.po
$ jaxko check --since origin/main             # 바뀐 항목만 (풀 리퀘스트 검토)
$ jaxko check --select glossary,particle      # 규칙 계열만 골라서
$ jaxko check --format json                   # 도구용 출력 (github: 워크플로 주석)
```

- 출력: `경로:줄: 심각도 규칙: 메시지 [제안]`. 줄은 항목의 `msgid` 줄입니다.
- 종료 코드: 0 오류 없음, 1 오류 있음(`--fail-on warning`이면 경고도), 2 잘못된 입력
  (읽을 수 없는 `.po`나 용어집: 파일과 줄을 알려 줍니다).
- 원문 문법은 항목의 `#:` 위치로 정합니다: `.md`·`.ipynb`는 MyST, `.rst`와 docstring은 reST
  (`--syntax`로 강제). 코드 블록인지는 스테이징된 원문(`_build/upstream/docs`,
  `--source-dir`)에서 찾아 확인하고, 원문이 없으면 추측합니다.
- 용어집: 기본은 `glossary/ko.yaml`, `--glossary FILE`로 바꿉니다.
- 캐시: 바뀌지 않은 카탈로그는 다시 검사하지 않고 지난 결과를 씁니다(`.jaxko_cache/`,
  `$JAXKO_CACHE_DIR`나 `--cache-dir DIR`로 위치를 바꿉니다). 카탈로그 내용, 그 원문 문서,
  용어집, 고른 규칙, 검사 도구 코드 가운데 하나라도 바뀌면 다시 검사합니다. 모두 새로
  검사하려면 `--no-cache`를 씁니다. `--since` 실행은 캐시를 읽지도 쓰지도 않습니다.
- 사전 거름(prefilter): 규칙마다 할 일이 없는 항목을 싸게 알아보는 조건이 있습니다(원문이나
  번역문에 특정 문자열이 있는지, 두 쪽의 인라인 마크업이 다른지). 검사기는 이 조건이 맞는
  항목에만 규칙을 돌립니다. 사전 거름은 규칙이 찾을 것을 빠뜨리지 않습니다(테스트가 모든
  규칙을 모든 항목에 돌린 결과와 비교합니다). 결과가 의심스러우면 `--no-prefilter`로 모든
  규칙을 모든 항목에 돌려 비교할 수 있습니다(결과는 같아야 합니다).

## 검사 끄기

특정 항목에서 규칙을 끄려면 번역자 주석을 답니다. 이유를 `--` 뒤에 적습니다.

```po
# jaxko: ignore glossary.missing -- 여기서 methods는 기법이라는 뜻
#: automatic-differentiation.md:20
msgid "..."
msgstr "..."
```

규칙 이름 대신 계열(`glossary`)을 쓰면 계열 전체를, 이름 없이 `jaxko: ignore`만 쓰면 모든
규칙을 끕니다. 추출 주석(`#. jaxko: ignore ...`)도 같습니다.

## 심각도

- **오류(error)**: 페이지가 깨지거나, 잘못 링크되거나, 합의를 어긴 것. `make check`와 CI가 실패합니다.
- **경고(warning)**: 검토할 것. 맞는 번역일 수도 있습니다.
- **정보(info)**: 참고용 힌트. 기본 출력에는 보이지 않고 `--show-info`로 봅니다.

규칙의 기본 심각도는 이 프로젝트가 쓰지 않은 실제 한국어 카탈로그(python-docs-ko)에서 잰
정밀도에 맞춰 정했습니다(`BENCHMARKS.md`). 한 프로젝트의 문체나 정책을 지키게 하는 규칙(같은
문장은 한 가지로, 조사는 강조 밖에, 원문에 없는 링크 금지)은 기본이 `info`이고, 그 정책을 가진
프로젝트가 검사하는 카탈로그 위쪽의 `pyproject.toml`에서 올립니다. jax-docs-ko의 설정은 아래
표의 괄호 안과 같습니다.

```toml
[tool.jaxko.check.severity]
"consistency.translation" = "warning"
```

## 기존 카탈로그에 도입하기 (`--baseline`)

```console
$ jaxko check --baseline .jaxko-baseline.json          # 처음: 지금의 결과를 파일에 씁니다
$ jaxko check --baseline .jaxko-baseline.json          # 다음부터: 새로 생긴 것만 보입니다
$ jaxko check --baseline .jaxko-baseline.json --update-baseline   # 기준을 다시 씁니다
$ jaxko check --statistics                             # 규칙별 개수
```

기준 파일은 결과를 (카탈로그, msgid, 규칙)으로 기억하므로 줄 번호가 바뀌어도 그대로 맞습니다.
`--format json`의 각 결과에는 `msgid`와 `msgstr`이 함께 들어 있습니다.
"""


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


def render() -> str:
    """The whole of docs/checks.md."""
    load_rules_modules()
    missing = sorted(set(RULES) - set(EXPLANATIONS))
    if missing:
        raise SystemExit(f"no Korean explanation for rule(s) {', '.join(missing)} in {__file__}")
    project = config.severities([repo_root()])

    def severity(name: str) -> str:
        default = RULES[name].severity
        raised = project.get(name, default)
        return default if raised == default else f"{default} (jax-docs-ko: {raised})"

    out = [HEADER]
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

    target = Path(argv[0]) if argv else repo_root() / "docs" / "checks.md"
    changed = write_text_atomic(target, render())
    print(f"{target}: {'written' if changed else 'unchanged'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
