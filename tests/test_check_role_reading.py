"""One reading of roles (issue #41): the checker reads a role's target as Sphinx does.

Sphinx's cross-reference roles split ``title <target>`` on the text docutils hands
them (backslash escapes turned into NUL marks) and unescape both halves. The checker
once read ``데이터 <../../../../etc/passwd>\\<data.txt>`` as a link to ``data.txt`` (the
msgid's file) while Sphinx read ``../../../../etc/passwd><data.txt``. Here a real
``sphinx.util.docutils.ReferenceRole`` run by real docutils says what Sphinx reads, and
every reader of the checker (inline markup, the structure parse, safety.file) must
agree with it; a download or document role whose target differs is a safety error.
"""

from __future__ import annotations

import pytest
from docutils.core import publish_doctree
from docutils.parsers.rst import roles
from sphinx.util.docutils import ReferenceRole

from jaxko.check import inline
from jaxko.check.examples import run_example
from jaxko.check.registry import RULES
from jaxko.check.runner import load_rules_modules
from jaxko.check.safety import file_references
from jaxko.check.structure import added

BODIES = [
    "data.txt",
    "데이터 <data.txt>",
    "데이터 <../../../../etc/passwd>\\<data.txt>",
    "데이터 \\<원본\\> <data.txt>",
    "<data.txt>",
    "a <b> <c>",
    "x\\ y <data.txt>",
    "제목 <a\\>b>",
    "~jax.numpy.sum",
]


class _Probe(ReferenceRole):
    seen: list[str] = []

    def run(self):
        _Probe.seen.append(self.target)
        return [], []


def sphinx_target(body: str) -> str:
    """The target Sphinx's ReferenceRole reads from ``:probe:`body``` in a reST page."""
    _Probe.seen = []
    roles.register_local_role("jaxko-probe", _Probe())  # a name no page uses
    publish_doctree(f":jaxko-probe:`{body}`", settings_overrides={"report_level": 5})
    assert len(_Probe.seen) == 1, body
    return _Probe.seen[0]


@pytest.mark.parametrize("body", BODIES)
def test_the_checker_reads_the_target_sphinx_reads(body):
    expected = sphinx_target(body)
    (item,) = [i for i in inline.parse(f":download:`{body}`", "rst") if i.kind == inline.ROLE]
    assert item.target == expected.strip().lstrip("~!")
    _explicit, _title, target = inline.split_role(body, "rst")
    assert target == expected


def test_the_escaped_target_is_a_new_role_part():
    msgid = "Get :download:`the data <data.txt>`."
    msgstr = ":download:`데이터 <../../../../etc/passwd>\\<data.txt>`\\ 를 받으세요."
    assert [p.value for p in added(msgid, msgstr, ("rst",))] == \
        ["download ../../../../etc/passwd><data.txt"]
    myst = "{download}`데이터 <../../etc/passwd>\\<data.txt>`를 받으세요."
    assert [p.kind for p in added("Get {download}`the data <data.txt>`.", myst, ("myst",))] == \
        ["role"]


def test_an_escaped_title_keeps_the_target():
    msgid = "Get :download:`the data <data.txt>`."
    msgstr = ":download:`데이터 \\<원본\\> <data.txt>`\\ 를 받으세요."
    assert not added(msgid, msgstr, ("rst",))
    assert not (file_references(msgstr) - file_references(msgid))


CASES = [
    # (location, msgid, msgstr, refused?)
    ("data.rst:4", "Get :download:`the data <data.txt>`.",
     ":download:`데이터 <../../../../etc/passwd>\\<data.txt>`\\ 를 받으세요.", True),
    ("data.md:4", "Get {download}`the data <data.txt>`.",
     "{download}`데이터 <../../etc/passwd>\\<data.txt>`를 받으세요.", True),
    ("index.rst:4", "Read :doc:`the guide <guide>`.", ":doc:`안내서 <../private/notes>`\\ 를 읽으세요.",
     True),
    ("index.md:4", "Read {doc}`guide`.", "{doc}`안내서 <other>`를 읽으세요.", True),
    ("index.rst:4", "Read :doc:`guide`.", ":doc:`안내서 <guide>`\\ 를 읽으세요.", False),
    ("data.rst:4", "Get :download:`the data <data.txt>`.",
     ":download:`데이터 <./data.txt>`\\ 를 받으세요.", False),
    ("data.md:4", "Get {download}`the data <data.txt>`.", "{download}`데이터 <data.txt>`를 받으세요.",
     False),
]


@pytest.mark.parametrize("location, msgid, msgstr, refused", CASES)
def test_a_changed_download_or_doc_target_is_a_safety_error(location, msgid, msgstr, refused):
    load_rules_modules()
    rule = RULES["safety.file"]
    assert rule.severity == "error"
    findings = run_example(rule, {"location": location, "msgid": msgid, "msgstr": msgstr})
    assert bool(findings) == refused, findings
