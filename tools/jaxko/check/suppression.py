"""The `jaxko: ignore` comments themselves: one that no longer suppresses anything.

A translator silences a finding with ``# jaxko: ignore RULE -- reason`` on the entry
(:func:`jaxko.check.message.ignored_rules`). When the glossary or the translation
changes, such a comment can stop suppressing anything, and then it only misleads (ruff's
RUF100 "unused noqa", pylint's useless-suppression). ``ignore.unused`` reports it.

It decides on what ran, never on a guess, in two steps:

1. Per catalog (:func:`candidates`, called by the runner for every checked message with
   a comment; cached with the catalog's records): the comment's names that no message
   rule's suppressed finding on the entry falls under, and whose message rules all ran
   in this run (selected: a rule left out by ``--select``/``--ignore``/``--no-glossary``,
   or a glossary rule with no glossary terms, did not run; one skipped by a prefilter,
   or not made for the entry's kind of block, ran and found nothing there). A name that is not a rule or a family is not judged
   (it never suppressed anything, and today's behaviour leaves it alone).
2. Once per run, after the project-wide rules (:func:`settle`): a name that covers a
   project-wide rule (``consistency``) stays only when that rule ran over the whole
   project (selected, and not a ``--since`` run, which compares only the catalogs it
   read) and suppressed nothing on the entry. What stays is reported by
   :func:`unused_ignore`, at the entry's msgstr line.

A bare ``jaxko: ignore`` (``all``) is unused only when nothing at all was suppressed on
the entry, and only when every rule ran. ``ignore.unused`` is never suppressed by a
comment (:data:`jaxko.check.message.SELF_REPORTING`): a bare ``jaxko: ignore`` must not hide
the finding about itself.
"""

from __future__ import annotations

from jaxko.check.message import is_suppressed
from jaxko.check.registry import RULES, Finding, family, rule

FAMILY = family("ignore", "검사 끄기 주석 (ignore)", order=9)

RULE = "ignore.unused"


def covered(name: str) -> frozenset[str]:
    """The rules a ``jaxko: ignore`` name can suppress (none for a safety rule or this
    family: a comment never lifts those)."""
    return frozenset(r for r in RULES if is_suppressed(frozenset((name,)), r))


def known(name: str) -> bool:
    """A rule, a family or ``all``: the names ``--select`` accepts."""
    return name == "all" or name in RULES or any(r.split(".", 1)[0] == name for r in RULES)


def candidates(ignored: frozenset[str], used: set[str], ran: frozenset[str]) -> tuple[str, ...]:
    """The names of a comment that suppressed no message rule's finding (``used``: the
    rules whose findings the comment suppressed on the entry) and whose message rules
    all ran (``ran``: the rules selected in this run). Sorted; project-wide rules are
    :func:`settle`'s."""
    found = []
    for name in sorted(ignored):
        if not known(name):
            continue
        rules = covered(name)
        message_rules = {r for r in rules if RULES[r].scope == "message"}
        if message_rules - ran:
            continue  # a rule it covers did not run: nothing to say
        if any(r in rules for r in used):
            continue
        found.append(name)
    return tuple(found)


def settle(names: tuple[str, ...], used: set[str], ran_project: frozenset[str]) -> tuple[str, ...]:
    """The names that stay unused after the project-wide rules: those covering no
    project rule, or only ones that ran over the whole project (``ran_project``) and
    suppressed nothing on the entry (``used``)."""
    kept = []
    for name in names:
        project_rules = {r for r in covered(name) if RULES[r].scope == "project"}
        if project_rules - ran_project or project_rules & used:
            continue
        kept.append(name)
    return tuple(kept)


@rule(RULE, severity="warning", scope="project", blocks=("text", "code", "math"),
      explanation=(
          "`# jaxko: ignore 규칙 -- 이유` 주석이 이번 검사에서 아무것도 끄지 않았습니다. 용어집이나 번역이 "
          "바뀌어 그 규칙이 더는 이 항목에서 아무것도 찾지 않으면, 주석은 리뷰어를 헷갈리게만 합니다. "
          "주석을 지우거나, 이유가 리뷰어에게 여전히 쓸모 있으면 `jaxko: ignore 규칙 --`를 빼고 "
          "보통 번역자 주석(`# 이유`)으로 남기세요. 주석이 가리키는 규칙이 모두 실행된 경우에만 "
          "알립니다: `--select`/`--ignore`로 빠진 규칙, `--since` 실행의 일관성(consistency) 규칙처럼 "
          "이번에 돌지 않은 규칙의 이름은 판단하지 않고, 규칙이나 계열 이름이 아닌 낱말도 판단하지 "
          "않습니다. 이름 없는 `# jaxko: ignore`(모두 끄기)는 모든 규칙이 돌았는데 항목에서 아무것도 "
          "끄지 않았을 때 알립니다. 이 규칙 자신은 `jaxko: ignore`로 끌 수 없습니다."))
def unused_ignore(records, context, severity: str):
    """A `jaxko: ignore` comment names a rule or family that suppressed nothing on the entry.

    Reported once per entry, at its msgstr line, naming the unused names; only names whose
    rules all ran in this run are judged.

    Bad::

        location: jit.md:3
        msgid: Compile the function.
        msgstr: 함수를 컴파일합니다.
        comment: "jaxko: ignore markup.literal -- the code is kept in English"
        select: [markup]
        expect:
          - '`# jaxko: ignore markup.literal` suppressed nothing on this entry: remove the comment, or keep the reason as a plain translator comment'

    Good::

        location: jit.md:3
        msgid: Call `jax.jit` once.
        msgstr: '`jax.jjit`를 한 번 호출합니다.'
        comment: "jaxko: ignore markup.literal -- the name is changed on purpose"
        select: [markup]
    """
    for record in records:
        if not record.unused or record.texts is None:
            continue
        msgctxt, msgid, msgstr = record.texts
        # A bare `jaxko: ignore` reads "all": shown as it was written.
        names = ", ".join(record.unused) if record.unused != ("all",) else ""
        written = f"`# jaxko: ignore {names}`" if names else "`# jaxko: ignore`"
        if set(record.unused) == {n for n in record.ignored if known(n)}:
            what = "remove the comment, or keep the reason as a plain translator comment"
        else:
            what = f"remove {names} from the comment"
        yield Finding(record.path, record.line, RULE, severity,
                      f"{written} suppressed nothing on this entry: {what}",
                      msgid, None, msgstr, msgctxt)


__all__ = ["candidates", "covered", "known", "settle", "unused_ignore"]
