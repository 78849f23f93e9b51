"""Math in a msgstr is the msgid's math (issue #41): safety.structure compares it.

`:math:` and `$…$` were ordinary inline markup, so nothing looked inside: a msgstr
could add a MathJax overlay (``\\mmlToken[href style]``), split a ``javascript:``
scheme with ``\\newcommand``, or style itself with ``\\style``/``\\class``/``\\cssId``.
Now any math the msgid lacks is structure; a translation may change only the words of
``\\text{…}`` (and its kin) and the spacing. Run through ``jaxko check`` on a catalog.
"""

from __future__ import annotations

import polib
import pytest

from jaxko.cli import main

OVERLAY = (r'$\mmlToken{mtext}[href="https://evil.example/x" style="position:fixed;top:0;'
           r'left:0;width:100vw;height:100vh;z-index:99999"]{로그인}$')
REFUSED = [
    ("The loss $L(x)$.", f"손실 $L(x)$입니다. {OVERLAY}"),
    ("The loss $L(x)$.", r"손실 $\newcommand{\js}{javascript}\href{\js:alert(1)}{L(x)}$입니다."),
    ("The loss $L(x)$.", r"손실 $\style{position:fixed}{L(x)}$입니다."),
    ("The loss $L(x)$.", r"손실 $\class{bd-header}{L(x)}$입니다."),
    (r"The loss $\text{loss}(x)$.", r"손실 $\text{$\href{https://evil.example}{손실}$}(x)$입니다."),
]
CLEAN = [
    ("The loss $L(x)$.", "손실은 $L(x)$입니다."),
    (r"The loss $L = \text{loss}(x)$.", r"손실 $L=\text{손실}(x)$입니다."),
    (r"Math $$\frac{1}{2} \, x$$ here.", r"수식 $$\frac{1}{2}\,x$$ 입니다."),
]


def _check(tmp_path, capsys, msgid: str, msgstr: str) -> tuple[int, str]:
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
    po.append(polib.POEntry(msgid=msgid, msgstr=msgstr, occurrences=[("page.md", "3")]))
    path = tmp_path / "page.po"
    po.save(str(path))
    capsys.readouterr()
    code = main(["check", "--no-glossary", "--select", "safety", str(path)])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("msgid, msgstr", REFUSED)
def test_math_the_msgid_lacks_is_refused(tmp_path, capsys, msgid, msgstr):
    code, out = _check(tmp_path, capsys, msgid, msgstr)
    assert code == 1 and "error safety.structure: math `" in out, out


@pytest.mark.parametrize("msgid, msgstr", CLEAN)
def test_the_msgids_math_with_translated_words_passes(tmp_path, capsys, msgid, msgstr):
    code, out = _check(tmp_path, capsys, msgid, msgstr)
    assert code == 0, out
