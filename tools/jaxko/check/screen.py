"""The screen: which groups of rules can report anything on each message of a catalog.

Most translated messages are clean, and running every rule on every message costs
about sixty microseconds each in Python: five seconds for a catalog set the size of
python-docs-ko. So the runner first asks a native kernel (``_kernel.pyx``, built with
Cython when the package is installed) about every text message at once, and runs the
rules only on the messages, and only the groups of rules, it names.

The contract, checked by ``tests/test_check_screen.py`` against the rules themselves
(on generated messages, planted faults, the synthetic benchmark set and the
project's catalogs): **the screen never leaves out a group whose rules would report
on a message.** It may name groups that then find nothing. Each of its tests is a
superset of one rule's condition, and says so in the kernel's source:

* ``markup.*`` (but hangul-after-markup), ``safety.html``, ``safety.new-url``: the
  msgid and msgstr differ in their inline constructs (kind, role, target);
* the glossary rules: a term of the msgid none of whose renderings occurs in the
  msgstr, a kept term missing from the msgstr, a forbidden rendering anywhere;
* ``particle.agreement``: each place the rule judges a particle, with the rule's own
  verdict on the word and particle found there (memoised per run);
* the others: the characters or words their patterns need (``javascript:`` ends in
  ``t:``, a raw directive says ``raw``), or the rule's own cheap pre-test
  (``syntax.worth_parsing``, leftovers).

The messages are parsed once for all of this: joined into one text per side, the inline
patterns run over it once, and the kernel converts and masks what they find (:func:`parse`).
Code and math blocks, and rules the screen does not know, always run. Without the
native kernel (no C compiler at install time) every rule runs on every message: the
same findings, slower.
"""

from __future__ import annotations

from functools import partial

from jaxko import korean
from jaxko.check import inline, particles
from jaxko.check.context import Context
from jaxko.check.native import kernel as _kernel

MARKUP = 1
HANGUL_AFTER = 2
GLOSSARY = 4
PARTICLE = 8
LEFTOVER = 16
SYNTAX = 32
URL_SCHEME = 64
RAW = 128
ALL = 255

# Rule name -> the group the screen answers for. A rule not listed here is never
# skipped, so a new rule is safe (only slower) until the screen learns about it.
RULE_GROUPS: dict[str, int] = {
    "markup.literal": MARKUP, "markup.role": MARKUP, "markup.link": MARKUP,
    "markup.reference": MARKUP, "markup.math": MARKUP, "safety.html": MARKUP,
    "safety.new-url": MARKUP,
    "markup.hangul-after-markup": HANGUL_AFTER,
    "glossary.missing": GLOSSARY, "glossary.spacing": GLOSSARY, "glossary.keep": GLOSSARY,
    "glossary.forbidden": GLOSSARY,
    "particle.agreement": PARTICLE,
    "leftover.untranslated": LEFTOVER, "leftover.english": LEFTOVER,
    "syntax.parse": SYNTAX,
    "safety.url-scheme": URL_SCHEME,
    "safety.raw": RAW,
}


def available() -> bool:
    """Whether the native kernel is built (``pip install -e .`` builds it)."""
    return _kernel is not None


def tables(context: Context):
    """The glossary and particle tables of the kernel, built once per run."""
    if _kernel is None:
        raise RuntimeError("the screen's native kernel is not built")
    matcher = context.matcher
    phrases = {first: [(p.words, p.term, p.case_sensitive) for p in found]
               for first, found in matcher._index.items()}
    wrong = {ending: frozenset(suffix for suffix, (particle, form, _) in korean.PARTICLE_SUFFIXES.items()
                               if not particle.accepts(form, ending))
             for ending in (korean.VOWEL, korean.RIEUL, korean.CONSONANT)}
    last_bad = []  # every string the rule's step 2 may match, with what is wrong after it
    for text in sorted(set(matcher.rendering_terms) | set(matcher.forbidden_terms)):
        ending = context.ending(text)
        if ending is not None:
            last_bad.append((text, wrong[ending]))
    return _kernel.Tables(
        phrases, [term.keep for term in matcher.terms],
        [() if term.keep else tuple(term.renderings) for term in matcher.terms],
        sorted(matcher.forbidden_terms), last_bad, frozenset(korean.PARTICLE_SUFFIXES),
        (wrong[korean.VOWEL], wrong[korean.RIEUL], wrong[korean.CONSONANT]),
        partial(_markup_verdict, context), partial(_latin_verdict, context))


def _markup_verdict(context: Context, literal: bool, text: str, run: str) -> bool:
    return particles.wrong_after_markup(literal, text, run, context)


def _latin_verdict(context: Context, word: str, run: str) -> bool:
    return particles.wrong_after_latin(word, run, context)


_SYNTAXES: dict = {}


def syntax_of(name: str):
    """The kernel's view of one syntax's pattern (``"rst"`` or ``"myst"``)."""
    if name not in _SYNTAXES:
        pattern = inline._RST if name == "rst" else inline._MYST
        _SYNTAXES[name] = _kernel.Syntax(name == "rst", pattern, inline.bare_urls, inline._TITLE_TARGET,
                                         inline._role_parts, partial(_nested_mask, name))
    return _SYNTAXES[name]


def _nested_mask(syntax: str, shown: str) -> str:
    return inline.mask(shown, inline.parse(shown, syntax), True, syntax)


def parse(texts: list[str], syntax: str, masked_text: bool = True):
    """The texts joined, parsed and masked by the kernel (a ``_kernel.Parsed``), and where
    each starts; None when a text holds a NUL."""
    joined = _kernel.join(texts)
    if joined is None:
        return None
    text, starts = joined
    return _kernel.Parsed(syntax_of(syntax), text, masked_text), starts


def groups(kernel_tables, msgids: list[str], msgstrs: list[str], syntax: str) -> list[int]:
    """For each (msgid, msgstr) text message of one syntax, the groups that may report."""
    ids = parse(msgids, syntax, masked_text=False)
    strs = parse(msgstrs, syntax)
    if ids is None or strs is None:  # a NUL in a message: no screening
        return [ALL] * len(msgids)
    return _kernel.screen(kernel_tables, syntax_of(syntax), ids[0], ids[1], strs[0], strs[1])
