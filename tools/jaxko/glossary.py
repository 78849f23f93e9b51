"""The glossary model: agreed Korean renderings of English terms, and their validation.

``glossary/ko.yaml`` is a mapping whose ``terms:`` key holds one entry per term::

    terms:
      - en: convolution
        ko: 합성곱
        forbidden: [컨볼루션, 콘볼루션]
        note: 수학 용어로 정착된 번역
      - en: JAX
        keep: true
        reading: 잭스
        case_sensitive: true

The YAML is read with its node positions (``yaml.compose``), so every problem is
reported as ``glossary/ko.yaml:LINE: what is wrong; what to do``.
"""

from __future__ import annotations

import importlib
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Mapping

from jaxko.errors import UserError
from jaxko.paths import repo_root
from jaxko.korean import term_shape_problem

class _Lazy:
    """A module imported on first use: ``jaxko check`` that finds the glossary already
    parsed in its cache (:mod:`jaxko.check.runner`) never imports PyYAML."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attribute: str):
        module = importlib.import_module(self._name)
        globals()[self._name] = module
        return getattr(module, attribute)


yaml = _Lazy("yaml")

# Keys of one entry, with the type each must have.
ENTRY_KEYS: Mapping[str, type] = {
    "en": str, "ko": str, "variants": list, "forbidden": list, "keep": bool,
    "reading": str, "case_sensitive": bool, "forms": list, "note": str, "pos": str,
    "sources": str, "senses": list, "check": bool,
}
TOP_LEVEL_KEYS = ("terms",)
PARTS_OF_SPEECH = ("noun", "verb", "adjective", "adverb", "phrase", "name")
_HANGUL_READING = re.compile(r"[가-힣 ]+")
_HAS_LATIN = re.compile(r"[A-Za-z]")


@dataclass(frozen=True)
class Term:
    """One glossary entry."""

    en: str
    ko: str | None = None
    variants: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()
    keep: bool = False
    reading: str | None = None
    case_sensitive: bool = False
    forms: tuple[str, ...] = ()
    note: str | None = None
    pos: str | None = None
    sources: str | None = None
    line: int = 0
    senses: tuple[str, ...] = ()   # English cue words: the term is meant only where one occurs
    # False: a recorded decision only. `jaxko terms` accepts the renderings; `jaxko check`
    # does not look for the term (a general word: correspond, evaluate).
    check: bool = True

    @property
    def renderings(self) -> tuple[str, ...]:
        """Accepted Korean renderings: the agreed one first, then the variants."""
        return ((self.ko,) if self.ko else ()) + self.variants


@dataclass(frozen=True)
class Glossary:
    """All terms of one glossary file."""

    terms: tuple[Term, ...] = ()
    path: str | None = None

    @property
    def checked(self) -> "Glossary":
        """The terms ``jaxko check`` looks for: all but the ``check: false`` entries."""
        if all(term.check for term in self.terms):
            return self
        return Glossary(terms=tuple(t for t in self.terms if t.check), path=self.path)

    @property
    def recorded(self) -> "Glossary":
        """The ``check: false`` entries: not looked for, but their renderings are known
        Korean words (a particle after 명세 is still checked)."""
        return Glossary(terms=tuple(t for t in self.terms if not t.check), path=self.path)

    @property
    def readings(self) -> dict[str, str]:
        """Hangul readings of Latin terms, keyed as written and in lower case."""
        out: dict[str, str] = {}
        for term in self.terms:
            if term.reading:
                out.setdefault(term.en, term.reading)
                if not term.case_sensitive:
                    out.setdefault(term.en.lower(), term.reading)
                for form in term.forms:
                    out.setdefault(form, term.reading)
        return out

    def __len__(self) -> int:
        return len(self.terms)


@dataclass(frozen=True, order=True)
class Problem:
    """One validation problem, at a line of the glossary file."""

    line: int
    message: str
    path: str = field(default="", compare=False)

    def format(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def default_path() -> Path:
    """``glossary/ko.yaml`` of the repository."""
    return repo_root() / "glossary" / "ko.yaml"


# ---------------------------------------------------------------------------- parsing


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


@lru_cache(maxsize=1)
def _loader():
    """A loader whose constructor alone is used, on composed nodes."""
    return yaml.SafeLoader("")


def _composer():
    """libyaml's parser when PyYAML has it (10x faster on a 3,000-term glossary); same
    nodes and marks as the pure-Python one."""
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _value(node: yaml.Node):
    """A scalar with YAML 1.1 resolution (true/false, numbers), as yaml.safe_load does;
    None for anything that is not a scalar."""
    if not isinstance(node, yaml.ScalarNode):
        return None
    loader = _loader()
    try:
        return loader.construct_object(node, deep=True)
    except yaml.YAMLError:
        return node.value
    finally:
        loader.constructed_objects.clear()


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.SequenceNode):
        return "list"
    if isinstance(node, yaml.MappingNode):
        return "mapping"
    return _typename(_value(node))


def _typename(value) -> str:
    return {str: "text", bool: "true/false", list: "list", dict: "mapping", int: "number",
            float: "number", type(None): "empty"}.get(type(value), type(value).__name__)


def parse(text: str, path: str = "glossary.yaml") -> tuple[Glossary, list[Problem]]:
    """The glossary in ``text`` and every problem found; terms with problems are left out."""
    problems: list[Problem] = []

    def problem(line: int, message: str) -> None:
        problems.append(Problem(line, message, path))

    try:
        root = yaml.compose(text, Loader=_composer())
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else 1
        reason = (err.problem or "invalid YAML").strip()
        problem(line, f"YAML syntax error: {reason}; fix the indentation or quoting")
        return Glossary(path=path), problems
    except yaml.YAMLError as err:
        problem(1, f"YAML error: {err}")
        return Glossary(path=path), problems
    if root is None:
        problem(1, "empty glossary; expected a mapping with a `terms:` list")
        return Glossary(path=path), problems
    if not isinstance(root, yaml.MappingNode):
        problem(_line(root), "expected a mapping with a `terms:` list at the top level")
        return Glossary(path=path), problems

    terms_node = None
    seen_top: set[str] = set()
    for key_node, value_node in root.value:
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        if key in seen_top:
            problem(_line(key_node), f"duplicate key `{key}`")
            continue
        seen_top.add(key)
        if key == "terms":
            terms_node = value_node
        else:
            problem(_line(key_node), f"unknown top-level key `{key}`; allowed: "
                    + ", ".join(TOP_LEVEL_KEYS))
    if terms_node is None:
        problem(_line(root), "no `terms:` list; add `terms:` with one entry per term")
        return Glossary(path=path), problems
    if not isinstance(terms_node, yaml.SequenceNode):
        problem(_line(terms_node), "`terms:` must be a list of entries (`- en: ...`)")
        return Glossary(path=path), problems

    terms: list[Term] = []
    for entry_node in terms_node.value:
        term = _parse_entry(entry_node, problem)
        if term is not None:
            terms.append(term)
    _cross_check(terms, problem)
    problems.sort()
    return Glossary(terms=tuple(terms), path=path), problems


def _parse_entry(node: yaml.Node, problem) -> Term | None:
    if not isinstance(node, yaml.MappingNode):
        problem(_line(node), "each term must be a mapping (`- en: ...`)")
        return None
    values: dict[str, object] = {}
    lines: dict[str, int] = {}
    item_lines: dict[str, list[int]] = {}
    ok = True
    misspelled = None  # an unknown key may be a misspelled `ko:`: say that, not "no ko"
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            problem(_line(key_node), "keys must be plain words")
            ok = False
            continue
        key = key_node.value
        line = _line(key_node)
        if key in values or key in lines:
            problem(line, f"duplicate key `{key}` in this term")
            ok = False
            continue
        lines[key] = line
        if key not in ENTRY_KEYS:
            import difflib

            close = difflib.get_close_matches(key, ENTRY_KEYS, n=1)
            hint = f"did you mean `{close[0]}`?" if close else "allowed: " + ", ".join(ENTRY_KEYS)
            problem(line, f"unknown key `{key}`; {hint}")
            ok = misspelled = False
            continue
        expected = ENTRY_KEYS[key]
        if expected is list:
            if not isinstance(value_node, yaml.SequenceNode):
                problem(line, f"`{key}` must be a list (got {_kind(value_node)}); "
                        f"write `{key}: [a, b]`")
                ok = False
                continue
            items = []
            item_lines[key] = []
            for item in value_node.value:
                value = _value(item)
                if not isinstance(value, str):
                    problem(_line(item), f"items of `{key}` must be text (got {_kind(item)})")
                    ok = False
                    continue
                if not value.strip():
                    problem(_line(item), f"empty item in `{key}`; remove it")
                    ok = False
                    continue
                if value.strip() in items:
                    problem(_line(item), f"`{value.strip()}` is listed twice in `{key}`")
                    ok = False
                    continue
                items.append(value.strip())
                item_lines[key].append(_line(item))
            if not items and ok:
                problem(line, f"`{key}` is empty; remove the key or add items")
                ok = False
            values[key] = tuple(items)
            continue
        value = _value(value_node)
        if not isinstance(value, expected) or (expected is not bool and isinstance(value, bool)):
            kind = "true or false" if expected is bool else "text"
            problem(line, f"`{key}` must be {kind} (got {_kind(value_node)})")
            ok = False
            continue
        if isinstance(value, str):
            value = value.strip()
            if not value:
                problem(line, f"`{key}` is empty; remove the key or fill it in")
                ok = False
                continue
        values[key] = value

    start = _line(node)
    if "en" not in values:
        if "en" not in lines:
            problem(start, "term without `en:`; every term needs its English text")
        return None
    en = values["en"]
    if not values.get("keep") and "ko" not in values and "ko" not in lines \
            and misspelled is None:
        problem(start, f"term `{en}` has no `ko:`; add the Korean rendering or `keep: true`")
        ok = False
    if values.get("keep") and "ko" in values:
        problem(lines["ko"], f"term `{en}` is kept in English (`keep: true`) but has `ko:`; "
                "remove one (put a Korean gloss in `note:`)")
        ok = False
    if "reading" in values and not _HANGUL_READING.fullmatch(values["reading"]):
        problem(lines["reading"], f"`reading` must be Hangul (how `{en}` is read aloud), "
                f"got `{values['reading']}`")
        ok = False
    if "reading" in values and not _HAS_LATIN.search(en):
        problem(lines["reading"], f"`reading` is for Latin terms; `{en}` has no Latin letters")
        ok = False
    if "pos" in values and values["pos"] not in PARTS_OF_SPEECH:
        problem(lines["pos"], f"`pos` must be one of {', '.join(PARTS_OF_SPEECH)}")
        ok = False
    for form_key in ("forms",):
        for form, form_line in zip(values.get(form_key, ()), item_lines.get(form_key, ())):
            if not _HAS_LATIN.search(form):
                problem(form_line, f"`forms` lists English forms of `{en}`; `{form}` is not English")
                ok = False
    # Forbidden and accepted at once within the term.
    accepted = {values.get("ko"), *values.get("variants", ())} - {None}
    for item, item_line in zip(values.get("forbidden", ()), item_lines.get("forbidden", ())):
        if item in accepted:
            problem(item_line, f"`{item}` is both forbidden and accepted for `{en}`; "
                    "remove it from one list")
            ok = False
    if values.get("check") is False:
        for key in ("keep", "forbidden"):
            if values.get(key):
                problem(lines[key], f"term `{en}` has `check: false` (not checked) but `{key}`, "
                        "which only `jaxko check` enforces; remove one")
                ok = False
    if values.get("ko") in values.get("variants", ()):
        problem(lines["variants"], f"the agreed rendering `{values['ko']}` is repeated in `variants`")
        ok = False
    if not ok:
        return None
    return Term(
        en=en, ko=values.get("ko"), variants=values.get("variants", ()),
        forbidden=values.get("forbidden", ()), keep=bool(values.get("keep", False)),
        reading=values.get("reading"), case_sensitive=bool(values.get("case_sensitive", False)),
        forms=values.get("forms", ()), note=values.get("note"), pos=values.get("pos"),
        sources=values.get("sources"), line=start, senses=values.get("senses", ()),
        check=values.get("check", True),
    )


def _cross_check(terms: list[Term], problem) -> None:
    """Problems between terms: duplicates, a rendering forbidden by another term."""
    seen: dict[tuple[str, str | None], Term] = {}
    for term in terms:
        key = (term.en if term.case_sensitive else term.en.lower(), term.pos)
        if key in seen:
            problem(term.line, f"duplicate term `{term.en}` (also on line {seen[key].line}); "
                    "merge the entries or give them different `pos`")
        else:
            seen[key] = term
    accepted: dict[str, Term] = {}
    for term in terms:
        for rendering in term.renderings:
            accepted.setdefault(rendering, term)
    for term in terms:
        for item in term.forbidden:
            other = accepted.get(item)
            if other is not None and other is not term:
                problem(term.line, f"`{item}` is forbidden for `{term.en}` but accepted for "
                        f"`{other.en}` (line {other.line}); a rendering cannot be both")


# ---------------------------------------------------------------------------- loading


def validate(path: str | os.PathLike) -> list[Problem]:
    """Every problem of a glossary file (empty when it is valid)."""
    path = Path(path)
    text = _read(path)
    glossary, problems = parse(text, str(path))
    return sorted(problems + shape_problems(glossary))


def shape_problems(glossary: Glossary) -> list[Problem]:
    """Korean renderings that are not terms: an adverb (이제), a verb form (반환됩니다),
    where the term declares no such part of speech (see :func:`korean.term_shape_problem`)."""

    problems = []
    for term in glossary.terms:
        for rendering in term.renderings:
            reason = term_shape_problem(rendering, term.pos)
            if reason:
                problems.append(Problem(term.line, f"term `{term.en}`: {reason}", glossary.path or ""))
    return problems


def load(path: str | os.PathLike | None = None) -> Glossary:
    """The glossary at ``path`` (default ``glossary/ko.yaml``); UserError on any problem."""
    path = Path(path) if path is not None else default_path()
    text = _read(path)
    glossary, problems = parse(text, str(path))
    if problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more; run `jaxko glossary validate`)" if len(problems) > 1 else ""
        raise UserError(first.message + more, path, first.line)
    return glossary


def _read(path: Path) -> str:
    if not path.is_file():
        raise UserError("glossary not found; pass --glossary FILE", path)
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        line = path.read_bytes()[: err.start].count(b"\n") + 1
        raise UserError("not valid UTF-8; save the glossary as UTF-8", path, line) from None
    except OSError as err:
        raise UserError(f"cannot read glossary: {err.strerror}", path) from None


def from_terms(terms: Iterable[Term], path: str | None = None) -> Glossary:
    """A glossary from Term objects (tests, tools that build glossaries in memory)."""
    return Glossary(terms=tuple(terms), path=path)
