"""Markup rules: the msgstr keeps the literals, roles, links, references and math of its msgid.

Order does not matter (Korean word order differs), display texts may be translated;
what must not change is what the markup points to or shows verbatim.
"""

from __future__ import annotations

import re
from collections import Counter

from jaxko.check import inline, structure
from jaxko.check.context import Context, msgid_inlines, msgstr_inlines, msgstr_masked
from jaxko.check.message import MATH, Message
from jaxko.check.registry import Edit, Hit, family, rule

FAMILY = family("markup", "마크업 (markup)", order=3)


def _structural(message: Message) -> frozenset:
    """(kind, value) of the links, references and roles ``safety.structure`` reports as
    new in this msgstr: a changed target it reports is not reported here again (one
    defect, one finding)."""
    cache = message.cache
    if "structural" not in cache:
        syntax = message.parsed_as or message.syntax
        cache["structural"] = frozenset(
            (part.kind, part.value) for part in structure.added(
                message.msgid, message.msgstr, (syntax,), message.names)
            if part.kind in ("link", "reference", "role"))
    return cache["structural"]


def _missing(source: Counter, translated: Counter) -> list:
    """What the msgid has and the msgstr lacks. Presence, not count: a translation may
    mention a literal or role once where the English repeats it."""
    return [key for key in source if key not in translated]


def _show_role(role: str | None, target: str, syntax: str) -> str:
    if syntax == "myst":
        return f"{{{role}}}`{target}`" if role else f"`{target}`"
    return f":{role}:`{target}`" if role else f"`{target}`"


_WORDS = re.compile(r"[A-Za-z가-힣]+(?:\s+[A-Za-z가-힣]+)*")
_INFLECTIONS = ("s", "es", "'s", "ed", "d")  # ``Mock``\s, ``sendmail``'s: not in Korean


def _skeleton(text: str) -> str:
    """A literal without its words: what is code in it (quotes, brackets, operators)."""
    return _WORDS.sub("a", text)


@rule("markup.literal", severity="error", needs="`", markup=True,
      explanation=(
          "msgid의 인라인 리터럴(reST ``` ``x`` ```, MyST `` `x` ``)은 msgstr에 그대로 한 번 이상 "
          "나와야 합니다. 코드는 번역하지 않습니다."))
def literal_kept(message: Message, context: Context):
    """Every inline literal of the msgid (``x`` in reST, `x` in MyST) appears unchanged in the msgstr (at least once).

    Bad::

        location: quickstart.md:30
        msgid: Use `jax.numpy` as `jnp`.
        msgstr: "`jax.numpy`를 `np`로 씁니다."
        expect:
          - 'inline literal `jnp` of the msgid is missing or changed'

    Good::

        location: quickstart.md:30
        msgid: Use `jax.numpy` as `jnp`.
        msgstr: "`jax.numpy`를 `jnp`로 씁니다."

    Bad::

        location: library/os.rst:10
        msgid: Use ``x`` and ``y`` here.
        msgstr: 여기서 ``x``\\와 ``z``\\를 사용합니다.
        expect:
          - 'inline literal ``y`` of the msgid is missing or changed'

    Good::

        location: library/os.rst:10
        msgid: Use ``x`` and ``y`` here.
        msgstr: 여기서 ``x``\\와 ``y``\\를 사용합니다.

    Words translated inside a literal that keeps its code (``(key, value)`` as ``(키, 값)``,
    ``'hello world'`` as ``'안녕 세상'``) are an ``info`` hint: usually meant. An English
    inflection left out of a literal (``Mocks`` as ``Mock``) is not a change.

    Good::

        location: library/unittest.mock.rst:10
        msgid: Attributes of ``Mock`` objects are ``Mocks``.
        msgstr: 어트리뷰트는 ``Mock`` 객체에서 ``Mock``\\입니다.
    """
    source = Counter(i.text for i in msgid_inlines(message) if i.kind == inline.LITERAL)
    if not source:
        return
    translated = Counter(i.text for i in msgstr_inlines(message) if i.kind == inline.LITERAL)
    quote = "`" if message.syntax == "myst" else "``"
    new = [t for t in translated if t not in source]
    extra = {_skeleton(t) for t in new}
    korean = [t for t in new if re.search("[가-힣]", t)]
    korean_skeletons = {_skeleton(t) for t in korean}
    # ``field``\s: a literal used as an English noun, which a translation may name in Korean.
    nouns = {i.text for i in msgid_inlines(message) if i.kind == inline.LITERAL
             and message.msgid.startswith("\\s", i.end)}
    for text in _missing(source, translated):
        if any(text == t + ending for t in translated for ending in _INFLECTIONS):
            continue  # the English inflection dropped: ``Mocks`` as ``Mock``
        skeleton = _skeleton(text)
        if (skeleton in korean_skeletons
                or ((" " in text or "'" in text or '"' in text) and skeleton in extra)
                or (text[:1] in "'\"" and any(t[:1] == text[:1] and t[-1:] == text[-1:] for t in korean))):
            # Only words changed, the code around them kept: ``(key, value)`` as
            # ``(키, 값)``, ``widthxheight`` as ``너비x높이``, a quoted example string in
            # Korean. Translated contents of an example, more often meant than not.
            yield Hit(f"inline literal {quote}{text}{quote} has its words translated; keep them "
                      "if they are code", f"{quote}{text}{quote}", "info")
            continue
        if text in nouns:
            yield Hit(f"inline literal {quote}{text}{quote} is used as an English noun "
                      f"({quote}{text}{quote}\\s) and named in Korean; keep it if it is code",
                      f"{quote}{text}{quote}", "info")
            continue
        yield Hit(f"inline literal {quote}{text}{quote} of the msgid is missing or changed",
                  f"{quote}{text}{quote}")


# Roles whose body is text shown to the reader, not a target: translators translate it
# (:dfn:`parameter` -> :dfn:`매개변수`); only the role itself must be kept.
TEXT_ROLES = frozenset({"dfn", "abbr", "emphasis", "strong", "sup", "sub", "superscript",
                        "subscript", "title-reference", "t", "guilabel", "menuselection"})


def _role_key(item) -> tuple:
    """What of a role must be kept: the role and its target (the role alone for TEXT_ROLES)."""
    if item.role in TEXT_ROLES:
        return item.role, "…"
    return item.role, item.target


@rule("markup.role", severity="error", needs="`", markup=True,
      explanation=(
          "역할(role)과 그 대상이 msgid와 같아야 합니다. 순서는 바뀌어도 되고, 표시 텍스트는 번역해도 "
          "됩니다(`` :ref:`추적 <jit-tracing>` ``). 대상이 바뀌면 빌드 때 "
          "`i18n.inconsistent_references` 경고가 나거나 링크가 엉뚱한 곳을 가리킵니다. 역할 이름"
          "(`:setting:`)은 번역하지 않습니다. reST에서 리터럴을 따옴표로 닫는 등(``` ``lhs\" ```) 백틱의 "
          "짝이 어긋나면 그 사이가 해석 텍스트로 읽히는데, 이는 처음 어긋난 곳에서 한 번만 알립니다."))
def role_kept(message: Message, context: Context):
    """The msgstr has the same roles with the same targets; only display texts may change.

    A role whose target changed (:term:`인자` for :term:`argument`) is one defect: when
    ``safety.structure`` runs too, it reports it (a role the msgid does not have) and
    this rule says the rest: a role lost, a role name translated, backticks that pair
    up wrongly.

    Bad::

        location: jit-compilation.rst:12
        msgid: See :func:`jax.jit` and :ref:`jit-tracing`.
        msgstr: :func:`jax.vmap`\\ 과 :ref:`추적 <tracing>`\\ 을 보세요.
        expect:
          - 'role :func:`jax.jit` of the msgid is missing or its target changed'
          - 'role :ref:`jit-tracing` of the msgid is missing or its target changed'
          - 'role :func:`jax.vmap` is not in the msgid'
          - 'role :ref:`tracing` is not in the msgid'

    Good::

        location: jit-compilation.rst:12
        msgid: See :func:`jax.jit` and :ref:`jit-tracing`.
        msgstr: :ref:`추적 <jit-tracing>`\\ 과 :func:`jax.jit`\\ 을 보세요.

    Bad::

        location: glossary.rst:3
        msgid: A :dfn:`parameter` is a named entity; see :term:`argument`.
        msgstr: :dfn:`매개변수`\\는 이름 붙은 개체입니다. :term:`인자`\\를 보세요.
        expect:
          - 'role :term:`argument` of the msgid has become :term:`인자`'

    Good::

        location: glossary.rst:3
        msgid: A :dfn:`parameter` is a named entity; see :term:`argument`.
        msgstr: :dfn:`매개변수`\\는 이름 붙은 개체입니다. :term:`인자 <argument>`\\를 보세요.

    Good::

        location: library/dbm.rst:3
        msgid: See the :data:`open_flags` member.
        msgstr: :const:`open_flags` 멤버를 보세요.

    Bad::

        location: howto/lookups.rst:5
        msgid: The attribute is ``lookup_name``. The ORM reads ``name__ne``.
        msgstr: '속성은 ``lookup_name"이다. ORM은 ``name__ne"를 읽는다.'
        expect:
          - '`lookup_name"이다. ORM은` reads as interpreted text, which the msgid does not have: a literal or role near it lost a backtick, or a quote replaced one'

    Bad::

        location: topics/cache.rst:9
        msgid: :setting:`CACHES`
        msgstr: :설정:`CACHES`
        expect:
          - 'role name `설정` is translated: role names stay as in the msgid'
    """
    source = Counter(_role_key(i) for i in msgid_inlines(message) if i.kind == inline.ROLE)
    translated = Counter(_role_key(i) for i in msgstr_inlines(message) if i.kind == inline.ROLE)
    if source == translated:
        return
    # The same target under another role of the domain (:meth: for :func:, :const: for
    # :data:): Sphinx resolves an exact name whatever the role, so the link still works.
    kept = {target for role, target in translated if role and role not in TEXT_ROLES}
    # :data:`!NotImplemented` links nowhere: ``NotImplemented`` shows the same.
    kept |= {i.text for i in msgstr_inlines(message) if i.kind == inline.LITERAL}.intersection(
        i.target for i in msgid_inlines(message)
        if i.kind == inline.ROLE and message.msgid.startswith("`!", i.start + len(i.role or "") + 2))
    wanted = {target for role, target in source if role and role not in TEXT_ROLES}
    lost = [key for key in _missing(source, translated) if not (key[0] and key[1] in kept)]
    added = [key for key in _missing(translated, source) if not (key[0] and key[1] in wanted)]
    if lost and added and "safety.structure" in context.rules:
        # A new role safety.structure reports: the lost one of the same role it replaced
        # is that one defect, said there.
        structural = _structural(message)
        for key in list(added):
            if ("role", f"{(key[0] or '').lower()} {key[1]}") in structural:
                same = next((k for k in lost if k[0] == key[0]), None)
                if same is not None:
                    lost.remove(same)
                    added.remove(key)
        if not lost and not added:
            return
    if len(lost) == 1 and len(added) == 1 and lost[0][0] == added[0][0]:
        # One target changed (a typo, a shortened name): one problem, one finding.
        was, now = (_show_role(*key, message.syntax) for key in (lost[0], added[0]))
        yield Hit(f"role {was} of the msgid has become {now}", was)
        return
    # `text` without a role in reST that the msgid lacks: a role name written in Korean
    # (:설정:`X`, one finding for the role it breaks), or the backticks of broken
    # literals and roles pairing up with each other (one finding, where it starts).
    extra, renamed, stray = [], set(), []
    for key in added:
        if key[0] or message.syntax != "rst":
            extra.append(Hit(f"role {_show_role(*key, message.syntax)} is not in the msgid"))
            continue
        start = next(i.start for i in msgstr_inlines(message)
                     if i.kind == inline.ROLE and _role_key(i) == key)
        named = _TRANSLATED_ROLE.search(message.msgstr, 0, start)
        if named:
            renamed.add(key[1])
            extra.append(Hit(f"role name `{named.group(1)}` is translated: role names stay as "
                             "in the msgid"))
        else:
            stray.append((start, key[1]))
    if stray:
        more = f" (and {len(stray) - 1} more after it)" if len(stray) > 1 else ""
        extra.append(Hit(f"`{_clip(min(stray)[1])}` reads as interpreted text{more}, which the "
                         "msgid does not have: a literal or role near it lost a backtick, or a "
                         "quote replaced one"))
    for key in lost:
        if key[1] not in renamed:
            shown = _show_role(*key, message.syntax)
            yield Hit(f"role {shown} of the msgid is missing or its target changed", shown)
    yield from extra


# A role name in Korean right before a backtick (:설정:`CACHES`): not a role to docutils.
_TRANSLATED_ROLE = re.compile(r":([^\s:`]*[가-힣][^\s:`]*):$")


def _clip(text: str, size: int = 40) -> str:
    return text if len(text) <= size else text[:size - 1] + "…"


def _link_key(item) -> tuple:
    """What a link must keep. `번역 <Name_>`_ is the named reference `Name`_ with its own
    text (valid reST): the same key as the reference."""
    target = item.target.strip()
    if item.kind == inline.LINK and target.endswith("_") and not target.endswith("\\_") \
            and not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:|^/", target):
        return inline.REFERENCE, " ".join(target[:-1].split()).lower()
    return item.kind, inline.normalise_url(item.target)


@rule("markup.link", severity="error", needs=("](", "`_", "`__", "<", "://", "]["), markup=True,
      explanation=(
          "링크 대상이 msgid와 같아야 합니다. 링크 텍스트는 번역해도 됩니다. msgid에 없는 외부 URL은 "
          "`safety.new-url`이 따로 오류로 알립니다."))
def link_kept(message: Message, context: Context):
    """The msgstr links to the same targets as the msgid (link texts may be translated).

    A target changed to a new one (`[설치 안내](installation.md)`) is one defect: when
    ``safety.structure`` runs too, it reports it (a link the msgid does not have) and
    this rule says the rest: a link lost, a reference renamed. A named reference written with the
    catalog's translation of its section title is the same reference.

    Bad::

        location: installation.md:40
        msgid: Read the [installation guide](installation.md#pip).
        msgstr: "[설치 안내](installation.md)를 읽으세요."
        expect:
          - 'link target `installation.md#pip` of the msgid is missing or changed'
          - 'link target `installation.md` is not in the msgid'

    Good::

        location: installation.md:40
        msgid: Read the [installation guide](installation.md#pip).
        msgstr: "[설치 안내](installation.md#pip)를 읽으세요."

    Bad::

        location: tutorial.rst:8
        msgid: See `the tutorial <Tutorial_>`_ for more.
        msgstr: 더 보려면 `자습서 <Guide_>`_\\를 보세요.
        expect:
          - 'link target `tutorial` of the msgid is missing or changed'
          - 'link target `guide` is not in the msgid'

    Good::

        location: tutorial.rst:8
        msgid: See `Tutorial`_ for more.
        msgstr: 더 보려면 `자습서 <Tutorial_>`_\\를 보세요.
    """
    kinds = (inline.LINK, inline.IMAGE, inline.REFERENCE, inline.URL)
    source = Counter(_link_key(i) for i in msgid_inlines(message)
                     if i.kind in kinds and i.target is not None)
    translated = Counter(_link_key(i) for i in msgstr_inlines(message)
                         if i.kind in kinds and i.target is not None)
    if source == translated:
        return
    lost, added = _missing(source, translated), _missing(translated, source)
    if lost and added:
        # A new link or reference safety.structure reports: the lost one it replaced is
        # that one defect, said there. A reference under the catalog's translation of
        # its name is no change at all (Sphinx's i18n resolves it).
        names = message.names or {}
        structural = _structural(message) if "safety.structure" in context.rules else ()
        for key in list(added):
            kind = "reference" if key[0] == inline.REFERENCE else "link"
            renamed = next((k for k in lost if k[0] == inline.REFERENCE == key[0]
                            and key[1] in names.get(k[1], ())), None)
            if renamed is not None:
                lost.remove(renamed)
                added.remove(key)
                continue
            if len(lost) == len(added) == 1 and kind == "reference" \
                    and re.search("[가-힣]", key[1]):
                continue  # the hint below says more than "not in the msgid"
            if (kind, key[1]) in structural:
                same = next((k for k in lost if k[0] == key[0]), None)
                if same is not None:
                    lost.remove(same)
                    added.remove(key)
        if not lost and not added:
            return
    if ([kind for kind, _ in lost] == [kind for kind, _ in added] == [inline.REFERENCE]
            and re.search("[가-힣]", added[0][1])):
        # `rounding modes`_ written `자리 올림 모드`_: it resolves when the section is
        # translated so (the catalog decides, not this message), else the build warns.
        yield Hit(f"named reference `{lost[0][1]}`_ is written `{added[0][1]}`_; it resolves only "
                  "if a section or target has that translated name", f"{lost[0][1]}", "info")
        return
    for kind, target in lost:
        yield Hit(f"{'image' if kind == inline.IMAGE else 'link'} target `{target}` of the msgid "
                  "is missing or changed", target)
    for kind, target in added:
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//", target):
            continue  # a new external URL: safety.new-url reports it
        if kind == inline.REFERENCE and re.search(rf"(?<![\w`]){re.escape(target)}_(?!\w)",
                                                  message.msgid, re.I):
            continue  # msgid's bare reference name_ given a translated text: `번역 <name_>`_
        yield Hit(f"link target `{target}` is not in the msgid")


@rule("markup.reference", severity="error", needs=("[", "|", "{{"), markup=True,
      explanation=(
          "각주 참조(`[#f1]_`, `[^1]`), 인용, 치환(`|name|`, `{{ name }}`)은 빠뜨리거나 새로 넣지 않습니다."))
def references_kept(message: Message, context: Context):
    """Footnote references, citations and substitutions of the msgid are kept, none added.

    Bad::

        location: faq.rst:88
        msgid: This is documented in |jax_version| [#f1]_.
        msgstr: 이 내용은 문서 [#f2]_ 에 있습니다.
        expect:
          - 'substitution `jax_version` of the msgid is missing'
          - 'footnote `#f1` of the msgid is missing'
          - 'footnote `#f2` is not in the msgid'

    Good::

        location: faq.rst:88
        msgid: This is documented in |jax_version| [#f1]_.
        msgstr: 이 내용은 |jax_version| 문서 [#f1]_ 에 있습니다.
    """
    kinds = (inline.FOOTNOTE, inline.SUBSTITUTION)
    source = Counter((i.kind, i.target) for i in msgid_inlines(message) if i.kind in kinds)
    translated = Counter((i.kind, i.target) for i in msgstr_inlines(message) if i.kind in kinds)
    if source == translated:
        return
    for kind, target in _missing(source, translated):
        yield Hit(f"{kind} `{target}` of the msgid is missing", target)
    for kind, target in _missing(translated, source):
        yield Hit(f"{kind} `{target}` is not in the msgid")


@rule("markup.math", severity="error", needs=("$", "math"), blocks=("text", MATH),
      explanation=(
          "수식(`$...$`, `{math}`, `:math:`, 수식 블록)은 바꾸지 않고 그대로 옮깁니다."))
def math_kept(message: Message, context: Context):
    """Math (`$...$`, {math}, :math:, math blocks) is copied unchanged.

    Bad::

        location: autodidax.md:100
        msgid: The derivative of $x^2$ is $2x$.
        msgstr: $x^2$의 도함수는 $2y$입니다.
        expect:
          - 'math `2x` of the msgid is missing or changed'

    Good::

        location: autodidax.md:100
        msgid: The derivative of $x^2$ is $2x$.
        msgstr: $x^2$의 도함수는 $2x$입니다.
    """
    if message.block == MATH:
        if " ".join(message.msgid.split()) != " ".join(message.msgstr.split()):
            yield Hit("a math block must be copied unchanged", message.msgid)
        return
    if "safety.structure" in context.rules:
        return  # it compares inline math too, and reports a change as the one finding
    source = Counter(i.target for i in msgid_inlines(message) if i.kind == inline.MATH)
    translated = Counter(i.target for i in msgstr_inlines(message) if i.kind == inline.MATH)
    for text in _missing(source, translated):
        yield Hit(f"math `{text}` of the msgid is missing or changed", text)


_AFTER_MARKUP = re.compile(r"[가-힣]")
_MARKUP_KINDS = frozenset({inline.LITERAL, inline.ROLE, inline.LINK, inline.REFERENCE,
                           inline.MATH, inline.FOOTNOTE, inline.SUBSTITUTION, inline.STRONG,
                           inline.EMPHASIS})


@rule("markup.hangul-after-markup", severity="error", needs=("`", "*", "|", "]_"),
      syntaxes=("rst",), fix="always",
      explanation=(
          "reST에서는 인라인 마크업 바로 뒤(또는 앞)에 한글이 붙으면 마크업으로 인식되지 않습니다. "
          "사이에 이스케이프한 공백(`\\ `)을 넣습니다: `` :func:`jax.jit`\\ 으로 ``. MyST에서는 필요 없습니다. "
          "`jaxko check --fix`가 그 자리에 넣어 줍니다(docutils는 이 공백을 지우므로 보이는 글은 그대로입니다)."))
def hangul_after_markup(message: Message, context: Context):
    """reST: inline markup directly next to Hangul does not parse; put an escaped space (``\\ ``) between.

    Bad::

        location: jax.rst:20
        msgid: Wrap the function with :func:`jax.jit` first.
        msgstr: 먼저 함수를 :func:`jax.jit`으로 감쌉니다.
        expect:
          - '`:func:`jax.jit`으로`: reST needs an escaped space between markup and Hangul'

    Good::

        location: jax.rst:20
        msgid: Wrap the function with :func:`jax.jit` first.
        msgstr: 먼저 함수를 :func:`jax.jit`\\ 으로 감쌉니다.
    """
    text = message.msgstr
    for item in msgstr_inlines(message):
        if item.kind not in _MARKUP_KINDS:
            continue
        raw = text[item.start:item.end]
        # The fix: docutils drops an escaped space outside literals, so it changes nothing
        # the reader sees; it only lets the markup end (or start) there.
        if item.end < len(text) and _AFTER_MARKUP.match(text, item.end):
            run = re.match(r"[가-힣]+", text[item.end:]).group(0)
            yield Hit(f"`{raw}{run}`: reST needs an escaped space between markup and Hangul",
                      f"{raw}\\ {run}", fix=(Edit(item.end, item.end, "\\ "),))
        if item.start > 0 and _AFTER_MARKUP.match(text, item.start - 1):
            yield Hit(f"`{text[item.start - 1]}{raw}`: reST needs an escaped space between "
                      "Hangul and markup", f"{text[item.start - 1]}\\ {raw}",
                      fix=(Edit(item.start, item.start, "\\ "),))


# A backslash before a space or Hangul: in Markdown it escapes nothing and shows.
_SHOWN_BACKSLASH = re.compile(r"\\(?=[ 가-힣])")


@rule("markup.backslash", severity="warning", needs="\\", syntaxes=("myst",), fix="always",
      explanation=(
          "MyST(Markdown)에서 역슬래시는 ASCII 문장 부호 앞에서만 이스케이프이고, 공백이나 한글 앞에서는 "
          "그대로 글자로 보입니다. reST의 이스케이프한 공백(`\\ `)은 MyST에 없습니다. msgid에 `\\ `가 "
          "있다면 원문 줄 끝의 역슬래시(강제 줄바꿈)에서 온 것으로, 한 줄짜리 번역문은 줄바꿈을 담을 수 "
          "없으니 공백으로 씁니다. 코드와 수식 안(LaTeX의 `\\ `)은 보지 않습니다. `jaxko check --fix`가 "
          "역슬래시를 지웁니다."))
def backslash_shown(message: Message, context: Context):
    """MyST: a backslash before a space or Hangul escapes nothing and shows on the page.

    Bad::

        location: pallas/CHANGELOG.md:392
        msgid: Added initial support for shape polymorphism\\ ({jax-issue}`#22084`).
        msgstr: 형상 다형성의 초기 지원을 추가했습니다\\ ({jax-issue}`#22084`).
        expect:
          - 'a backslash before a space shows as text in Markdown'

    Good::

        location: pallas/CHANGELOG.md:392
        msgid: Added initial support for shape polymorphism\\ ({jax-issue}`#22084`).
        msgstr: 형상 다형성의 초기 지원을 추가했습니다 ({jax-issue}`#22084`).
    """
    if message.msgstr == message.msgid:
        return  # Sphinx keeps the English node: the msgstr is never parsed
    masked = msgstr_masked(message)
    for match in _SHOWN_BACKSLASH.finditer(masked):
        start = match.start()
        # `\\ ` is an escaped backslash followed by a space: the text shows one backslash
        # on purpose.
        run = len(masked[:start]) - len(masked[:start].rstrip("\\"))
        if run % 2:
            continue
        after = "a space" if masked[start + 1] == " " else "Hangul"
        yield Hit(f"a backslash before {after} shows as text in Markdown",
                  fix=(Edit(start, start + 1, ""),))
