"""The rule table: ``@rule("family.name", severity=...)`` on a generator over a message.

Everything about a rule is in its declaration. Its module declares the family once
(``FAMILY = family("markup", "마크업 (markup)", order=3)``); the decorator says its
severity, its prefilters, whether it can fix (``fix="always"|"sometimes"|"never"``,
ruff's shape), which code blocks it reads (``code_languages``) and its Korean
explanation for translators; the function is a small generator ``rule(message, context)``
that yields ``Hit``s (or plain strings), a Hit's fix being data (:class:`Edit`s of the
msgstr). Its docstring says what it catches in one line, then gives ``Bad::`` and
``Good::`` examples as small YAML mappings (``msgid``, ``msgstr``, optionally
``location``, ``syntax``; a Bad one lists the exact messages it gets under ``expect``)::

    @rule("markup.literal", severity="error", needs="`", explanation="...")
    def literal_kept(message, context):
        '''Every inline literal of the msgid appears unchanged in the msgstr.

        Bad::

            location: index.md:3
            msgid: Call `jax.jit` once.
            msgstr: `jax.jjit`를 한 번 호출합니다.
            expect:
              - 'inline literal `jax.jit` of the msgid is missing or changed'

        Good::
            ...
        '''

The examples are the documentation (``docs/checks.md`` shows them) and a test
(``tests/test_check_rules.py`` runs each: Bad must give exactly its ``expect``, Good
must stay clean, and a rule that fixes must fix its Bad example into its Good one).

The prefilters say when a rule has nothing to do with a text message (code and math
blocks always reach the rules that apply to them), so the runner need not call it:
``needs``, strings of which at least one must occur in the msgid or msgstr (a
backtick for the literal rule); ``markup=True``, the rule finds nothing when msgid
and msgstr have the same inline markup. They only spare work:
``tests/test_check_prefilter.py`` runs every rule with and without them.
"""

from __future__ import annotations

import inspect
import re
import textwrap
from dataclasses import dataclass, field
from typing import Callable, Iterator, NamedTuple

from jaxko.check.message import UNSUPPRESSIBLE, MessageKey


SEVERITIES = ("error", "warning", "info")  # info: not shown unless asked (--show-info)
# Whether a rule's findings carry a fix (ruff's shape): on every finding, on some (the
# unambiguous ones), or never.
FIXES = ("always", "sometimes", "never")


class Edit(NamedTuple):
    """One change to a msgstr: ``msgstr[start:end]`` becomes ``text`` (offsets in the
    msgstr as read, unescaped). A fix is data, never prose: ``jaxko check --fix``
    applies it and nothing else."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Hit:
    """What a rule yields: the problem, a suggestion for the reader and, when there is
    exactly one right answer, the fix (edits of the msgstr, applied together)."""

    message: str
    suggestion: str | None = None
    severity: str | None = None   # this hit's severity when not the rule's (info: a hint)
    fix: tuple[Edit, ...] = ()


@dataclass(frozen=True, order=True)
class Finding:
    """One problem in one entry, formatted in one place (see report.py)."""

    path: str
    line: int
    rule: str
    severity: str = field(compare=False)
    message: str = field(compare=False)
    msgid: str = field(compare=False, default="")
    suggestion: str | None = field(compare=False, default=None)
    msgstr: str = field(compare=False, default="")
    msgctxt: str | None = field(compare=False, default=None)
    fix: tuple[Edit, ...] = field(compare=False, default=())   # see Hit.fix

    @property
    def key(self) -> MessageKey:
        """The entry this finding is about (catalog, msgctxt, msgid)."""
        return MessageKey(self.path, self.msgctxt, self.msgid)

    def as_dict(self) -> dict:
        return {"path": self.path, "line": self.line, "rule": self.rule,
                "severity": self.severity, "message": self.message, "msgid": self.msgid,
                "msgctxt": self.msgctxt, "msgstr": self.msgstr, "suggestion": self.suggestion,
                "fix": [list(edit) for edit in self.fix]}


@dataclass(frozen=True)
class Rule:
    """A registered rule."""

    name: str
    severity: str
    function: Callable[..., Iterator]
    needs: tuple[str, ...] = ()
    blocks: tuple[str, ...] = ("text",)  # message kinds the rule applies to
    scope: str = "message"               # "message", or "project" for cross-catalog rules
    syntaxes: tuple[str, ...] = ("myst", "rst")
    # Prefilter: finds nothing when msgid and msgstr have the same inline markup (the
    # same kinds, roles and targets): the runner then skips it (see runner.same_markup).
    markup: bool = False
    fix: str = "never"                   # FIXES: whether its findings carry a fix
    # In code blocks, the languages the rule reads (None: any; a None inside: unknown).
    code_languages: tuple[str | None, ...] | None = None
    explanation: str = ""                # Korean, for translators (docs/checks.md)

    @property
    def fixable(self) -> bool:
        return self.fix != "never"

    @property
    def family(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def summary(self) -> str:
        doc = inspect.getdoc(self.function) or ""
        return doc.split("\n\n", 1)[0].replace("\n", " ").strip()

    @property
    def description(self) -> str:
        """The docstring's prose: everything but the examples."""
        doc = inspect.getdoc(self.function) or ""
        return re.split(r"^(?:Bad|Good)::\s*$", doc, maxsplit=1, flags=re.M)[0].strip()

    def examples(self, kind: str) -> list[dict]:
        """The ``Bad::`` or ``Good::`` examples of the docstring, parsed."""
        return parse_examples(inspect.getdoc(self.function) or "", kind)


RULES: dict[str, Rule] = {}
_NAME = re.compile(r"^[a-z]+\.[a-z][a-z0-9-]*$")


@dataclass(frozen=True)
class Family:
    """A family of rules (one module each): its name, its Korean title in the guide,
    and its place there."""

    name: str
    title: str
    order: int


FAMILIES: dict[str, Family] = {}


def family(name: str, title: str, order: int) -> Family:
    """Declare a family of rules (at the top of its module, before its rules)."""
    if FAMILIES.get(name, Family(name, title, order)) != Family(name, title, order):
        raise ValueError(f"family {name} declared twice, differently")
    FAMILIES[name] = Family(name, title, order)
    return FAMILIES[name]


# What a project-wide rule sees of each checked message: hashes, which the cache keeps,
# and the texts (msgctxt, msgid, msgstr) of a catalog read in this run, which it does
# not; the rule reads the texts of a cached catalog from the catalog itself.
class Record(NamedTuple):
    key: int                  # stable hash of msgctxt + msgid
    text: int                 # stable hash of the msgstr
    path: str
    line: int
    ignored: tuple[str, ...]  # `jaxko: ignore` names on the entry
    texts: tuple[str | None, str, str] | None = None  # (msgctxt, msgid, msgstr) as read
    # `jaxko: ignore` names no message rule used on the entry, all of whose message rules
    # ran (jaxko.check.suppression.candidates); the cache keeps them, and the texts of
    # such a record.
    unused: tuple[str, ...] = ()


def stable_hash(text: str) -> int:
    """A 64-bit hash that is the same in every process and run (``hash`` is salted)."""
    from hashlib import blake2b

    return int.from_bytes(blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest())


def rule(name: str, severity: str = "error", *, needs: str | tuple[str, ...] = (),
         blocks: tuple[str, ...] = ("text",), scope: str = "message",
         syntaxes: tuple[str, ...] = ("myst", "rst"), markup: bool = False,
         fix: str = "never", code_languages: tuple[str | None, ...] | None = None,
         explanation: str = ""):
    """Register a rule under a dotted name, family first.

    A message rule is a generator ``rule(message, context)`` of Hits; a project rule
    (``scope="project"``) is ``rule(records, context, severity)`` over the
    :class:`Record` of every checked message, yielding Findings, called once per run.
    ``explanation`` is the Korean text of the translator guide.
    """
    if not _NAME.match(name):
        raise ValueError(f"rule name {name!r} must be family.name in lower case")
    if severity not in SEVERITIES:
        raise ValueError(f"severity of {name} must be one of {SEVERITIES}")
    if fix not in FIXES:
        raise ValueError(f"fix of {name} must be one of {FIXES}")
    if fix != "never" and (name.startswith(UNSUPPRESSIBLE) or scope != "message"):
        # A safety finding is a refusal: nothing may "fix" it into acceptance.
        raise ValueError(f"{name} cannot declare a fix (safety and project-wide rules never fix)")
    needs_tuple = (needs,) if isinstance(needs, str) and needs else tuple(needs)

    def register(function):
        if name in RULES:
            raise ValueError(f"rule {name} registered twice")
        doc = inspect.getdoc(function) or ""
        if "Bad::" not in doc or "Good::" not in doc:
            raise ValueError(f"rule {name} needs Bad:: and Good:: examples in its docstring")
        if not explanation:
            raise ValueError(f"rule {name} needs its Korean explanation (explanation=...)")
        if name.split(".", 1)[0] not in FAMILIES:
            raise ValueError(f"rule {name}: declare its family first (registry.family)")
        RULES[name] = Rule(name, severity, function, needs_tuple, tuple(blocks), scope,
                           tuple(syntaxes), markup, fix, code_languages, explanation)
        return function

    return register


_EXAMPLE = re.compile(r"^(Bad|Good)::\s*\n((?:\n|[ \t]+\S[^\n]*\n?)+)", re.M)


def parse_examples(doc: str, kind: str) -> list[dict]:
    """Each ``Bad::``/``Good::`` block of a docstring as a mapping."""
    import yaml  # only the tests and the docs read the examples

    found = []
    for match in _EXAMPLE.finditer(doc + "\n"):
        if match.group(1) != kind:
            continue
        data = yaml.safe_load(textwrap.dedent(match.group(2)))
        if not isinstance(data, dict):
            raise ValueError(f"{kind} example is not a mapping: {match.group(2)!r}")
        found.append(data)
    return found


def select_rules(select: list[str] | None = None, ignore: list[str] | None = None) -> list[Rule]:
    """Rules chosen by name or family (``--select glossary,markup.role``)."""

    def matches(rule_: Rule, names: list[str]) -> bool:
        return any(rule_.name == n or rule_.family == n or rule_.name.startswith(n + ".")
                   for n in names)

    chosen = [r for r in RULES.values() if not select or matches(r, select)]
    if ignore:
        chosen = [r for r in chosen if not matches(r, ignore)]
    return chosen


def unknown_names(names: list[str]) -> list[str]:
    """Names that are neither a registered rule nor a family."""
    families = {r.family for r in RULES.values()}
    return [n for n in names if n not in RULES and n not in families and n != "all"]
