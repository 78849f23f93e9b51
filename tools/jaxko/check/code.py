"""Code rules: a translated code block or code cell is the same code.

Translators may translate comments and the text of string literals in code; nothing
else. The comparison itself is :func:`jaxko.codetokens.first_difference`, shared with
``jaxko notebooks`` (Python compared token by token, other languages line by line
with comment lines free).
"""

from __future__ import annotations

import re

from jaxko.check.context import Context
from jaxko.check.message import CODE, Message
from jaxko.check.registry import Hit, family, rule
from jaxko.codetokens import first_difference

FAMILY = family("code", "코드 (code)", order=5)

_COMMENTS_AND_STRINGS = re.compile(r"(?:#|//|/\*).*|'[^'\n]*'|\"[^\"\n]*\"")
_C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_PROSE_RUN = re.compile(r"(?<![\w.#'\"])(?:[A-Za-z][a-z]+ ){3}[a-z]+(?![\w(.=])")


def _same_outside_comments(source: str, translated: str) -> bool:
    """A cheap proof of sameness that spares tokenizing most translated code blocks.

    Line by line: equal lines, or lines without quotes whose text before ``#`` is
    equal. Without a quote on the line, ``#`` starts a comment (or lies inside a
    multi-line string, whose text may change anyway), so the code tokens are the
    same. Anything else goes to the tokenizer comparison.
    """
    lines_a = source.split("\n")
    lines_b = translated.split("\n")
    if len(lines_a) != len(lines_b):
        return False
    for a, b in zip(lines_a, lines_b):
        if a == b:
            continue
        if "#" not in a or "#" not in b or "'" in a or '"' in a or "'" in b or '"' in b:
            return False
        if a.split("#", 1)[0].rstrip() != b.split("#", 1)[0].rstrip():
            return False
    return True


@rule("code.tokens", severity="error", blocks=(CODE,),
      explanation=(
          "코드 블록과 노트북 코드 셀에서 번역할 수 있는 것은 주석과 문자열 리터럴의 내용뿐입니다. "
          "식별자, 숫자, 연산자가 바뀌면 처음 달라진 토큰을 알려 줍니다. 파이썬이 아닌 블록은 "
          "주석처럼 보이는 줄만 바꿀 수 있습니다. 셸 블록(`bash`, `sh`, `shell`, `zsh`)에서는 명령 "
          "뒤의 주석(`pip install -e .  # jax를 설치합니다`)도 옮길 수 있습니다. 따옴표 밖에서 공백 "
          "뒤에 오는 `#`부터가 주석이고, 그 앞의 명령은 그대로여야 합니다. 파이썬으로 읽히지 않는 "
          "파이썬 블록(괄호가 어긋난 예시 코드 등)에서는 한 줄만으로 파이썬으로 읽히는 줄의 주석도 "
          "옮길 수 있으며, 그 줄의 코드와 문자열은 그대로여야 합니다."))
def same_code(message: Message, context: Context):
    """A code block's msgstr differs from its msgid beyond comments and string contents.

    Bad::

        location: notebooks/quickstart.ipynb:60002
        msgid: |
          # Compute the sum
          total = jnp.sum(x)
          print("total:", total)
        msgstr: |
          # 합을 계산합니다
          합계 = jnp.sum(x)
          print("합계:", 합계)
        expect:
          - 'code changed: line 2: ''total'' became ''합계''; only comments and string contents may be translated'

    Good::

        location: notebooks/quickstart.ipynb:60002
        msgid: |
          # Compute the sum
          total = jnp.sum(x)
          print("total:", total)
        msgstr: |
          # 합을 계산합니다
          total = jnp.sum(x)
          print("합계:", total)

    A one-line block, or text that reads as prose, is reported as ``info``: without the
    source document at hand such a message is mostly a heading or index entry taken for
    code ("import statement" translated as 임포트 문). Translated C comments are allowed.
    """
    if message.msgid == message.msgstr or _same_outside_comments(message.msgid, message.msgstr):
        return
    if _C_COMMENT.sub("", message.msgid) == _C_COMMENT.sub("", message.msgstr):
        return  # C code whose /* */ or // comments were translated
    difference = first_difference(message.msgid, message.msgstr, message.language or "python")
    if difference:
        # Text that reads as prose (an index entry "import statement", "- (minus)", a
        # paragraph) was taken for code without its source at hand: a hint, not an error.
        code = _COMMENTS_AND_STRINGS.sub("", message.msgid)
        prose = _PROSE_RUN.search(code) or "\n" not in message.msgid.strip()
        yield Hit(f"code changed: {difference}; only comments and string contents may be translated",
                  None, "info" if prose else None)
