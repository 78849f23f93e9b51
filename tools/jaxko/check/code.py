"""Code rules: a translated code block or code cell is the same code.

Translators may translate comments and the text of string literals in code; nothing
else. The comparison itself is :func:`jaxko.codetokens.first_difference`, shared with
``jaxko notebooks`` (Python compared token by token, other languages line by line
with comment lines free).
"""

from __future__ import annotations

from jaxko.check.context import Context
from jaxko.check.message import CODE, Message
from jaxko.check.registry import Hit, rule
from jaxko.codetokens import first_difference


@rule("code.tokens", severity="error", blocks=(CODE,))
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
    """
    if message.msgid == message.msgstr:
        return
    difference = first_difference(message.msgid, message.msgstr, message.language or "python")
    if difference:
        yield Hit(f"code changed: {difference}; only comments and string contents may be translated")
