"""Who translates and who reviews each document: ``locale/ko/assignments.yaml``.

The file maps a document's built source (``notebooks/thinking_in_jax.ipynb``) to its
translators, reviewers and status::

    notebooks/thinking_in_jax.ipynb:
      translator: jax-docs-ko
      reviewer: [kim, lee]
      status: in-review
      since: 2025-06-01

``jaxko assign`` edits it and ``jaxko stats`` and the site (역자/검수 credits) read it.
It is written by :func:`render` in one canonical form (documents grouped by section,
fixed comments), so hand edits are allowed but the next ``jaxko assign`` normalises them;
free text belongs in a document's ``note``.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from jaxko import paths
from jaxko.catalogs import write_text_atomic
from jaxko.errors import UserError
from jaxko.workflow import sections
from jaxko.workflow.documents import SOURCE_SUFFIXES, Document

STATUSES = ("reserved", "translating", "in-review", "done")
STATUS_KO = {"reserved": "예약", "translating": "번역 중", "in-review": "검토 중", "done": "완료"}
_STATUS_ALIASES = {"in review": "in-review", "in_review": "in-review", "review": "in-review"}
FIELDS = ("translator", "reviewer", "status", "since", "note")

HEADER = """\
# 번역 문서 배정표: 문서(빌드되는 원문 파일)마다 역자, 검수자, 상태를 적습니다.
# `jaxko assign 문서 --translator 이름`으로 고치고, `jaxko stats`와 사이트의
# 역자/검수 표시가 이 파일을 읽습니다. 상태: reserved(예약), translating(번역 중),
# in-review(검토 중), done(완료). 자세한 내용은 docs/translator-guide.md를 보세요.
"""


@dataclass(frozen=True)
class Assignment:
    """One document's translators, reviewers and status."""

    document: str                        # key as written: the built source
    translators: tuple[str, ...] = ()
    reviewers: tuple[str, ...] = ()
    status: str = "reserved"
    since: dt.date | None = None
    note: str = ""
    line: int | None = None              # where it starts in the file (None: not from a file)

    def as_dict(self) -> dict:
        return {"document": self.document, "translators": list(self.translators),
                "reviewers": list(self.reviewers), "status": self.status,
                "since": self.since.isoformat() if self.since else None, "note": self.note}


@dataclass
class Problem:
    """A validation finding: file, line, message."""

    path: Path
    line: int | None
    message: str

    def format(self) -> str:
        return UserError(self.message, self.path, self.line).format()


@dataclass
class Table:
    """The assignments file in memory: document key -> assignment."""

    path: Path
    entries: dict[str, Assignment] = field(default_factory=dict)

    def for_docname(self, docname: str) -> Assignment | None:
        """The assignment of a docname, whatever suffix its key was written with."""
        for key in (docname, *(docname + suffix for suffix in SOURCE_SUFFIXES)):
            if key in self.entries:
                return self.entries[key]
        return None


def default_path(locale_dir: Path | None = None, language: str = "ko") -> Path:
    return (locale_dir or paths.locale_dir()) / language / "assignments.yaml"


def normalise_status(value: str) -> str:
    """Canonical status from what a person typed (``in review`` -> ``in-review``)."""
    text = str(value).strip().lower()
    return _STATUS_ALIASES.get(text, text)


# --------------------------------------------------------------------------- reading


def load(path: Path, documents: dict[str, Document] | None = None) -> Table:
    """Read and validate the file; the first problem is raised as a one-line UserError.

    A missing file is an empty table. ``documents`` (docname -> Document) enables the
    check that every key names a document with a catalog.
    """
    table, problems = parse(path, documents)
    if problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more; run `jaxko assign --check`)" if len(problems) > 1 else ""
        raise UserError(first.message + more, first.path, first.line)
    return table


def parse(path: Path, documents: dict[str, Document] | None = None, *,
          text: str | None = None) -> tuple[Table, list[Problem]]:
    """Read the file and collect every problem instead of stopping at the first.
    ``text``: the file's text as given (another revision's), not read from ``path``."""
    table = Table(path)
    if text is None:
        if not path.exists():
            return table, []
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            return table, [Problem(path, None, "not valid UTF-8; save the file as UTF-8")]
        except OSError as err:
            return table, [Problem(path, None, f"cannot read: {err.strerror}")]
    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        reason = getattr(err, "problem", None) or "invalid YAML"
        return table, [Problem(path, mark.line + 1 if mark else None, f"YAML syntax error: {reason}")]
    if root is None:
        return table, []
    if not isinstance(root, yaml.MappingNode):
        return table, [Problem(path, root.start_mark.line + 1,
                               "expected a mapping of documents to assignments")]
    problems: list[Problem] = []
    for key_node, value_node in root.value:
        line = key_node.start_mark.line + 1
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        if not key:
            problems.append(Problem(path, line, "a document name must be a non-empty string"))
            continue
        if key in table.entries:
            problems.append(Problem(path, line, f"{key} is listed twice (first at line "
                                                f"{table.entries[key].line}); keep one"))
            continue
        entry, entry_problems = _entry(path, key, line, value_node)
        problems.extend(entry_problems)
        if documents is not None:
            problems.extend(_check_document(path, key, line, documents, table))
        if entry is not None:
            table.entries[key] = entry
    return table, problems


def _key_docname(key: str) -> str:
    for suffix in SOURCE_SUFFIXES:
        if key.endswith(suffix):
            return key[: -len(suffix)]
    return key


def _check_document(path: Path, key: str, line: int, documents: dict[str, Document],
                    table: Table) -> list[Problem]:
    docname = _key_docname(key)
    document = documents.get(docname)
    if document is None:
        return [Problem(path, line, f"{key}: no catalog for this document; check the name "
                                    "with `jaxko stats` or remove the entry")]
    if key != document.source and document.source != docname:
        return [Problem(path, line, f"{key}: the built source is {document.source}; "
                                    "rename the key")]
    others = [k for k in table.entries if _key_docname(k) == docname]
    if others:
        return [Problem(path, line, f"{key}: the same document as {others[0]}; keep one")]
    return []


def _names(value: yaml.Node, what: str, path: Path) -> tuple[tuple[str, ...], list[Problem]]:
    line = value.start_mark.line + 1
    items = value.value if isinstance(value, yaml.SequenceNode) else [value]
    names: list[str] = []
    for item in items:
        if not isinstance(item, yaml.ScalarNode) or not str(item.value).strip() \
                or "\n" in str(item.value):
            return (), [Problem(path, line, f"{what} must be a name or a list of names")]
        names.append(str(item.value).strip())
    if len(set(names)) != len(names):
        return (), [Problem(path, line, f"{what} lists a name twice")]
    return tuple(names), []


def _entry(path: Path, key: str, line: int, node: yaml.Node) -> tuple[Assignment | None, list[Problem]]:
    if not isinstance(node, yaml.MappingNode):
        return None, [Problem(path, line, f"{key}: expected translator/reviewer/status fields")]
    problems: list[Problem] = []
    values: dict = {"document": key, "line": line}
    seen: set[str] = set()
    for field_node, value in node.value:
        name = field_node.value if isinstance(field_node, yaml.ScalarNode) else ""
        field_line = field_node.start_mark.line + 1
        if name in seen:
            problems.append(Problem(path, field_line, f"{key}: {name} is given twice"))
            continue
        seen.add(name)
        if name == "translator" or name == "reviewer":
            names, found = _names(value, name, path)
            problems.extend(found)
            values[name + "s"] = names
        elif name == "status":
            status = normalise_status(value.value) if isinstance(value, yaml.ScalarNode) else ""
            if status not in STATUSES:
                problems.append(Problem(path, field_line, f"{key}: unknown status "
                                        f"{getattr(value, 'value', '')!r}; use one of "
                                        f"{', '.join(STATUSES)}"))
            else:
                values["status"] = status
        elif name == "since":
            since = _date(value)
            if since is None:
                problems.append(Problem(path, field_line, f"{key}: since must be a date "
                                                          "like 2025-06-01"))
            else:
                values["since"] = since
        elif name == "note":
            if not isinstance(value, yaml.ScalarNode):
                problems.append(Problem(path, field_line, f"{key}: note must be text"))
            else:
                values["note"] = str(value.value)
        else:
            problems.append(Problem(path, field_line, f"{key}: unknown field {name!r}; use "
                                                      f"{', '.join(FIELDS)}"))
    if "status" not in seen:
        problems.append(Problem(path, line, f"{key}: status is missing; use one of "
                                            f"{', '.join(STATUSES)}"))
    entry = Assignment(**values)
    if entry.status in ("reserved", "translating") and not entry.translators and "status" in values:
        problems.append(Problem(path, line, f"{key}: status {entry.status} needs a translator"))
    return entry, problems


def _date(node: yaml.Node) -> dt.date | None:
    if not isinstance(node, yaml.ScalarNode):
        return None
    try:
        return dt.date.fromisoformat(str(node.value).strip())
    except ValueError:
        return None


# --------------------------------------------------------------------------- writing

_PLAIN = re.compile(r"^[A-Za-z0-9_가-힣][A-Za-z0-9_./가-힣 -]*$")
_RESERVED_WORDS = {"yes", "no", "true", "false", "on", "off", "null", "~", "y", "n"}


def _scalar(text: str) -> str:
    """A YAML scalar: plain when that cannot be misread, else a JSON (double-quoted) string."""
    if (_PLAIN.match(text) and text.lower() not in _RESERVED_WORDS and text == text.strip()
            and not re.fullmatch(r"[0-9._+-]+(e[0-9+-]+)?", text.lower())):
        return text
    return json.dumps(text, ensure_ascii=False)


def _names_yaml(names: tuple[str, ...]) -> str:
    if len(names) == 1:
        return _scalar(names[0])
    return "[" + ", ".join(_scalar(name) for name in names) + "]"


def render(table: Table) -> str:
    """The file's canonical text: header, then documents grouped by section, sorted."""
    out = [HEADER]
    groups: dict[str, list[Assignment]] = {}
    for entry in table.entries.values():
        section = sections.section_of(_key_docname(entry.document))
        groups.setdefault(section.key, []).append(entry)
    for section in sections.all_sections():
        entries = sorted(groups.get(section.key, []), key=lambda e: e.document)
        if not entries:
            continue
        out.append(f"\n# {section.title_ko} ({section.title})\n")
        for entry in entries:
            out.append(f"{_scalar(entry.document)}:\n")
            if entry.translators:
                out.append(f"  translator: {_names_yaml(entry.translators)}\n")
            if entry.reviewers:
                out.append(f"  reviewer: {_names_yaml(entry.reviewers)}\n")
            out.append(f"  status: {entry.status}\n")
            if entry.since:
                out.append(f"  since: {entry.since.isoformat()}\n")
            if entry.note:
                out.append(f"  note: {json.dumps(entry.note, ensure_ascii=False)}\n")
    return "".join(out)


def save(table: Table) -> bool:
    """Write the table atomically; returns whether the file changed."""
    return write_text_atomic(table.path, render(table))


# --------------------------------------------------------------------------- editing


@dataclass
class Change:
    """What ``assign`` did, for the command's report."""

    document: str
    before: Assignment | None
    after: Assignment | None


def assign(table: Table, document: Document, *, translators: tuple[str, ...] = (),
           reviewers: tuple[str, ...] = (), status: str | None = None, note: str | None = None,
           release: bool = False, force: bool = False, today: dt.date | None = None) -> Change:
    """Reserve, re-status, credit or release a document in ``table`` (not saved here).

    Taking a document someone else holds (as translator or reviewer) needs ``force``;
    ``since`` becomes ``today`` whenever the status changes. A new assignment starts
    ``reserved``.
    """
    today = today or dt.date.today()
    translators = tuple(name.strip() for name in translators)
    reviewers = tuple(name.strip() for name in reviewers)
    if any(not name or "\n" in name for name in (*translators, *reviewers)):
        raise UserError("a translator or reviewer name must be non-empty, on one line", table.path)
    key = document.source
    before = table.for_docname(document.docname)
    if before is not None and before.document != key:
        del table.entries[before.document]      # normalise an old key to the built source
    if release:
        table.entries.pop(key, None)
        return Change(key, before, None)
    current = before or Assignment(key, status="reserved", since=today)
    current = replace(current, document=key, line=None)
    for role, wanted, held in (("translator", translators, current.translators),
                               ("reviewer", reviewers, current.reviewers)):
        if wanted and held and not set(held) <= set(wanted) and not force:
            raise UserError(f"{key} already has {role} {', '.join(held)}"
                            f"{f' (since {current.since})' if current.since else ''}; "
                            "agree with them first, then use --force to take it over",
                            table.path, before.line if before else None)
    if translators:
        current = replace(current, translators=tuple(translators))
    if reviewers:
        current = replace(current, reviewers=tuple(reviewers))
    if note is not None:
        current = replace(current, note=note)
    if status is not None:
        status = normalise_status(status)
        if status not in STATUSES:
            raise UserError(f"unknown status {status!r}; use one of {', '.join(STATUSES)}",
                            table.path)
        if status != current.status:
            current = replace(current, status=status, since=today)
    if current.status in ("reserved", "translating") and not current.translators:
        raise UserError(f"{key}: status {current.status} needs a translator; add --translator NAME",
                        table.path)
    table.entries[key] = current
    return Change(key, before, current)
