# cython: language_level=3, cdivision=True
"""Native kernel of ``jaxko check``, in four parts, each the C twin of Python code the
tests hold it to:

* the reader: catalog blocks of the usual shape, as :mod:`jaxko.check.pofile` reads them;
* inline markup: what :mod:`jaxko.check.inline` makes of its patterns' matches over
  many messages joined into one text (the Inline tuples and the masked text);
* the screen (see :mod:`jaxko.check.screen`): for every text message of a catalog,
  which groups of rules could report anything on it. It never produces a finding;
  the rules do that, in Python, on the messages it names. So every test there is a
  *superset* of what the rule it stands for can report, and says which rule and which
  condition it covers. A test may name a group where the rule then finds nothing
  (that costs time); it may never miss one where the rule would report (that would
  lose a finding), which ``tests/test_check_screen.py`` checks against the rules;
* a stable hash for the consistency records.

Reading the joined messages character by character in C costs a few microseconds per
message, where running every rule costs some sixty.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport Py_EQ, PyObject_RichCompareBool
from cpython.unicode cimport Py_UNICODE_ISALNUM, Py_UNICODE_ISSPACE, PyUnicode_Find


cdef extern from "Python.h":
    Py_UCS4* PyUnicode_AsUCS4Copy(object text) except NULL
    object PyUnicode_FromKindAndData(int kind, const void* data, Py_ssize_t size)
    int PyUnicode_4BYTE_KIND


# Groups of rules; jaxko.check.screen maps rule names to them.
MARKUP = 1        # markup.literal/role/link/reference/math, safety.html/new-url
HANGUL_AFTER = 2  # markup.hangul-after-markup
GLOSSARY = 4      # glossary.*
PARTICLE = 8      # particle.agreement
LEFTOVER = 16     # leftover.*
SYNTAX = 32       # syntax.parse
URL_SCHEME = 64   # safety.url-scheme
RAW = 128         # safety.raw
ALL = 255

DEF SEPARATOR_LENGTH = 3  # len(inline.SEPARATOR)

# Inline kinds (jaxko.check.inline), compared by value.
cdef str LITERAL = "literal"
cdef str ROLE = "role"
cdef str LINK = "link"
cdef str REFERENCE = "reference"
cdef str MATH = "math"
cdef str FOOTNOTE = "footnote"
cdef str SUBSTITUTION = "substitution"
cdef str STRONG = "strong"
cdef str EMPHASIS = "emphasis"


# ------------------------------------------------------------------- characters


# The kernel reads UCS-4 copies of the joined texts (PyUnicode_AsUCS4Copy): a plain
# array, where reading the str itself would test its storage kind at every character.
ctypedef Py_UCS4* Chars


cdef inline Py_UCS4 at(Chars text, Py_ssize_t index) noexcept:
    return text[index]


cdef inline bint is_hangul(Py_UCS4 c) noexcept:
    return 0xAC00 <= c <= 0xD7A3


cdef inline bint is_ascii_alnum(Py_UCS4 c) noexcept:
    return (c >= 97 and c <= 122) or (c >= 65 and c <= 90) or (c >= 48 and c <= 57)


cdef inline bint is_ascii_letter(Py_UCS4 c) noexcept:
    return (c >= 97 and c <= 122) or (c >= 65 and c <= 90)


cdef inline bint is_space(Py_UCS4 c) noexcept:  # the \s of Python's re
    return Py_UNICODE_ISSPACE(c)


cdef inline bint is_word(Py_UCS4 c) noexcept:  # the \w of Python's re
    return Py_UNICODE_ISALNUM(c) or c == 95


cdef inline Py_UCS4 lower(Py_UCS4 c) noexcept:
    if c >= 65 and c <= 90:
        return <Py_UCS4>(<unsigned int>c + 32)
    return c


cdef inline bint has_bit(const unsigned char* bitmap, Py_UCS4 c) noexcept:
    cdef unsigned int code = <unsigned int>c
    return (bitmap[code >> 3] >> (code & 7)) & 1


def bitmap(chars_):
    """A bit per code point (all of Unicode): the set ``chars_`` as the kernel reads it."""
    data = bytearray(0x110000 // 8)
    for ch in chars_:
        code = ord(ch)
        data[code >> 3] |= 1 << (code & 7)
    return bytes(data)


# Bloom filters: one bit per hash in a table of BLOOM_BITS bits. A few hundred keys
# each, so a false hit (which costs only a dictionary lookup) is rare.
DEF BLOOM_BITS = 1 << 20


cdef inline unsigned long long mix(unsigned long long h, unsigned int code) noexcept:
    """FNV-1a, a code point at a time."""
    return (h ^ code) * 1099511628211ULL


cdef inline unsigned int slot(unsigned long long h) noexcept:
    return <unsigned int>((h ^ (h >> 29) ^ (h >> 43)) & (BLOOM_BITS - 1))


cdef inline unsigned long long pair(Py_UCS4 first, Py_UCS4 second) noexcept:
    return mix(mix(14695981039346656037ULL, <unsigned int>first), <unsigned int>second)


cdef inline void bloom_set(unsigned char* bloom, unsigned long long h) noexcept:
    cdef unsigned int s = slot(h)
    bloom[s >> 3] |= <unsigned char>(1 << (s & 7))


cdef inline bint bloom_has(const unsigned char* bloom, unsigned long long h) noexcept:
    cdef unsigned int s = slot(h)
    return (bloom[s >> 3] >> (s & 7)) & 1


cdef unsigned long long word_hash(str word):
    cdef unsigned long long h = 14695981039346656037ULL
    cdef Py_UCS4 c
    for c in word:
        h = mix(h, <unsigned int>lower(c))
    return h


# Position of each character of syntax._MARKUP_CHARS (`*|_[]<>{}$), else -1.
cdef signed char MARKUP_INDEX[128]
for _code in range(128):
    MARKUP_INDEX[_code] = -1
for _position, _char in enumerate("`*|_[]<>{}$"):
    MARKUP_INDEX[ord(_char)] = _position


cdef inline int markup_index(Py_UCS4 c) noexcept:
    return MARKUP_INDEX[<unsigned int>c] if c < 128 else -1


# ----------------------------------------------------------------------- tables


cdef class Scratch:
    """Buffers reused from message to message: the words of one, one rewritten."""

    cdef Py_ssize_t* word_start
    cdef Py_ssize_t* word_end
    cdef Py_ssize_t capacity
    cdef Py_UCS4* text
    cdef Py_ssize_t text_capacity

    def __cinit__(self):
        self.word_start = NULL
        self.word_end = NULL
        self.capacity = 0
        self.text = NULL
        self.text_capacity = 0

    def __dealloc__(self):
        PyMem_Free(self.word_start)
        PyMem_Free(self.word_end)
        PyMem_Free(self.text)

    cdef int reserve(self, Py_ssize_t words) except -1:
        if words > self.capacity:
            PyMem_Free(self.word_start)
            PyMem_Free(self.word_end)
            self.word_start = <Py_ssize_t*>PyMem_Malloc(words * sizeof(Py_ssize_t))
            self.word_end = <Py_ssize_t*>PyMem_Malloc(words * sizeof(Py_ssize_t))
            if self.word_start == NULL or self.word_end == NULL:
                self.capacity = 0
                raise MemoryError()
            self.capacity = words
        return 0

    cdef int reserve_text(self, Py_ssize_t length) except -1:
        if length > self.text_capacity:
            PyMem_Free(self.text)
            self.text = <Py_UCS4*>PyMem_Malloc((length + 1) * sizeof(Py_UCS4))
            if self.text == NULL:
                self.text_capacity = 0
                raise MemoryError()
            self.text_capacity = length
        return 0


cdef class Tables:
    """What the kernel needs of the glossary and the particle rules; built once per run
    (by jaxko.check.screen.tables), before the check forks its workers."""

    cdef dict phrases          # first word -> [(words, term, case_sensitive)], as TermMatcher
    cdef bytearray word_bloom_bytes
    cdef unsigned char* word_bloom        # hashes of those first words
    cdef list keep             # term -> kept in English?
    cdef list renderings       # term -> accepted renderings (empty: not checked)
    cdef dict forbidden        # first character -> forbidden renderings starting with it
    cdef bytes forbidden_first_bytes
    cdef const unsigned char* forbidden_first
    cdef bytearray forbidden_bloom_bytes
    cdef unsigned char* forbidden_bloom   # their first two characters
    cdef dict last_bad         # last code point -> [(rendering, suffixes wrong after it)]
    cdef bytearray last_bloom_bytes
    cdef unsigned char* last_bloom        # (last character, first of a wrong suffix)
    cdef frozenset suffixes    # every particle as a whole run (korean.PARTICLE_SUFFIXES)
    cdef bytes suffix_first_bytes
    cdef const unsigned char* suffix_first
    cdef Py_ssize_t longest_suffix
    cdef tuple gloss_bad       # suffixes wrong after (a vowel, ㄹ, another consonant)
    cdef dict markup_memo
    cdef object markup_verdict  # (literal, shown text, run) -> wrong?
    cdef dict latin_memo
    cdef object latin_verdict   # (word, run) -> wrong?
    cdef bint glossary
    cdef Scratch scratch

    def __init__(self, dict phrases, list keep, list renderings, list forbidden,
                 list last_bad, frozenset suffixes, tuple gloss_bad,
                 markup_verdict, latin_verdict):
        cdef str text
        cdef Py_UCS4 last
        self.phrases = phrases
        self.word_bloom_bytes = bytearray(BLOOM_BITS // 8)
        self.word_bloom = self.word_bloom_bytes
        for text in phrases:
            bloom_set(self.word_bloom, word_hash(text))
        self.keep = keep
        self.renderings = renderings
        self.forbidden = {}
        self.forbidden_first_bytes = bitmap({text[0] for text in forbidden})
        self.forbidden_first = self.forbidden_first_bytes
        self.forbidden_bloom_bytes = bytearray(BLOOM_BITS // 8)
        self.forbidden_bloom = self.forbidden_bloom_bytes
        for text in forbidden:
            self.forbidden.setdefault(text[0], []).append(text)
            bloom_set(self.forbidden_bloom, pair(text[0], text[1] if len(text) > 1 else <Py_UCS4>0))
        self.last_bad = {}
        self.last_bloom_bytes = bytearray(BLOOM_BITS // 8)
        self.last_bloom = self.last_bloom_bytes
        for text, wrong in last_bad:
            last = text[len(text) - 1]
            self.last_bad.setdefault(<unsigned int>last, []).append((text, wrong))
            for suffix in wrong:
                bloom_set(self.last_bloom, pair(last, suffix[0]))
        self.suffixes = suffixes
        self.suffix_first_bytes = bitmap({suffix[0] for suffix in suffixes})
        self.suffix_first = self.suffix_first_bytes
        self.longest_suffix = max([len(suffix) for suffix in suffixes] or [0])
        self.gloss_bad = gloss_bad
        self.markup_memo = {}
        self.markup_verdict = markup_verdict
        self.latin_memo = {}
        self.latin_verdict = latin_verdict
        self.glossary = bool(phrases) or bool(forbidden)
        self.scratch = Scratch()


# ---------------------------------------------------------------- inline markup
#
# jaxko.check.inline in C: its own regular expressions find the constructs (one
# finditer over the joined text, and inline.bare_urls); what _myst, _rst and _parse
# make of each match, and what mask makes of the text, is done here, line for line,
# into the same Inline tuples (kind, start, end, text, target, role, explicit_title)
# and the same masked text. tests/test_check_screen.py holds the two to each other.

cdef enum Alternative:
    UNKNOWN
    M_ROLE
    M_SUBST
    M_CODE
    M_DMATH
    M_MATH
    M_IMAGE
    M_FOOTNOTE
    M_LINK
    M_REFLINK
    M_AUTOLINK
    M_COMMENT
    M_HTML
    M_STRONG
    M_EMPH
    R_LITERAL
    R_ROLE
    R_INTERP
    R_SUBST
    R_FOOTNOTE
    R_AUTOLINK
    R_COMMENT
    R_HTML
    R_STRONG
    R_EMPH

# The group an alternative ends with (Match.lastgroup) -> the alternative.
_MYST_LAST = {"role_body": M_ROLE, "subst_name": M_SUBST, "code_body": M_CODE,
              "dmath_body": M_DMATH, "math_body": M_MATH, "image_target": M_IMAGE,
              "footnote_label": M_FOOTNOTE, "link_target": M_LINK, "reflink_label": M_REFLINK,
              "autolink": M_AUTOLINK, "comment_body": M_COMMENT, "html_tag": M_HTML,
              "html_attrs": M_HTML, "strong_body": M_STRONG, "emph_body": M_EMPH}
_RST_LAST = {"lit_body": R_LITERAL, "role_body": R_ROLE, "role_ref": R_ROLE,
             "interp_body": R_INTERP, "role_suffix": R_INTERP, "interp_ref": R_INTERP,
             "subst_name": R_SUBST, "subst_ref": R_SUBST, "fn_label": R_FOOTNOTE,
             "autolink": R_AUTOLINK, "comment_body": R_COMMENT, "html_tag": R_HTML,
             "html_attrs": R_HTML, "strong_body": R_STRONG, "emph_body": R_EMPH}

cdef str IMAGE = "image"
cdef str URL = "url"
cdef str HTML = "html"
cdef str COMMENT = "comment"


cdef class Syntax:
    """One syntax's pattern, as the kernel reads its matches."""

    cdef readonly bint rst
    cdef object pattern       # inline._RST or inline._MYST
    cdef object bare_urls     # inline.bare_urls
    cdef int* alternative     # group number -> Alternative
    cdef Py_ssize_t groups
    cdef int g_role_name, g_role_body, g_role_ref, g_subst_name, g_code_body, g_dmath_body
    cdef int g_math_body, g_image_text, g_image_target, g_footnote_label, g_link_text
    cdef int g_link_target, g_reflink_label, g_autolink, g_html_tag, g_strong_body
    cdef int g_emph_body, g_lit_body, g_interp_body, g_role_suffix, g_interp_ref, g_subst_ref
    cdef int g_fn_label
    cdef object title_target  # inline._TITLE_TARGET
    cdef object role_parts    # inline._role_parts
    cdef object nested_mask   # (shown text) -> inline.mask(shown, inline.parse(shown)), for
                              # markup inside a link's text
    cdef dict converted       # (last group, matched text) -> (kind, text, target, role, explicit)

    def __cinit__(self):
        self.alternative = NULL

    def __dealloc__(self):
        PyMem_Free(self.alternative)

    def __init__(self, bint rst, pattern, bare_urls, title_target, role_parts, nested_mask):
        cdef dict index = dict(pattern.groupindex)
        last = _RST_LAST if rst else _MYST_LAST
        self.rst = rst
        self.pattern = pattern
        self.bare_urls = bare_urls
        self.groups = pattern.groups + 1
        self.alternative = <int*>PyMem_Malloc(self.groups * sizeof(int))
        if self.alternative == NULL:
            raise MemoryError()
        for number in range(self.groups):
            self.alternative[number] = UNKNOWN
        for name, number in index.items():
            self.alternative[number] = last.get(name, UNKNOWN)
        get = lambda name: index.get(name, -1)
        self.g_role_name, self.g_role_body, self.g_role_ref = get("role_name"), get("role_body"), get("role_ref")
        self.g_subst_name, self.g_code_body, self.g_dmath_body = get("subst_name"), get("code_body"), get("dmath_body")
        self.g_math_body, self.g_image_text, self.g_image_target = get("math_body"), get("image_text"), get("image_target")
        self.g_footnote_label, self.g_link_text, self.g_link_target = get("footnote_label"), get("link_text"), get("link_target")
        self.g_reflink_label, self.g_autolink, self.g_html_tag = get("reflink_label"), get("autolink"), get("html_tag")
        self.g_strong_body, self.g_emph_body, self.g_lit_body = get("strong_body"), get("emph_body"), get("lit_body")
        self.g_interp_body, self.g_role_suffix, self.g_interp_ref = get("interp_body"), get("role_suffix"), get("interp_ref")
        self.g_subst_ref, self.g_fn_label = get("subst_ref"), get("fn_label")
        self.title_target = title_target
        self.role_parts = role_parts
        self.nested_mask = nested_mask
        self.converted = {}


cdef tuple convert(Syntax s, object m):
    """The Inline of one match (inline._myst and inline._rst, a branch each)."""
    cdef tuple span = m.span()
    cdef object start = span[0], end = span[1]
    cdef object last = m.lastindex
    cdef int alternative = s.alternative[<Py_ssize_t>last] if 0 <= <Py_ssize_t>last < s.groups else UNKNOWN
    cdef object body, role, ref, found, label, target
    cdef tuple parts
    g = m.group
    if alternative == M_CODE:
        body = g(s.g_code_body)
        if body.startswith(" ") and body.endswith(" ") and body.strip():
            body = body[1:-1]
        return (LITERAL, start, end, body, body, None, False)
    if alternative == M_ROLE:
        role = g(s.g_role_name)
        body = g(s.g_role_body)
        if role == "math":
            return (MATH, start, end, body, body.strip(), role, False)
        parts = s.role_parts(body)
        return (ROLE, start, end, parts[0], parts[1], role, parts[2])
    if alternative == M_LINK:
        target = g(s.g_link_target)
        if target.startswith("<") and target.endswith(">"):
            target = target[1:-1]
        return (LINK, start, end, g(s.g_link_text), target, None, True)
    if alternative == M_STRONG or alternative == R_STRONG:
        return (STRONG, start, end, g(s.g_strong_body), None, None, False)
    if alternative == M_EMPH or alternative == R_EMPH:
        return (EMPHASIS, start, end, g(s.g_emph_body), None, None, False)
    if alternative == M_MATH or alternative == M_DMATH:
        body = g(s.g_math_body if alternative == M_MATH else s.g_dmath_body)
        return (MATH, start, end, body, body.strip(), None, False)
    if alternative == M_SUBST:
        return (SUBSTITUTION, start, end, "", g(s.g_subst_name).strip(), None, False)
    if alternative == M_IMAGE:
        return (IMAGE, start, end, g(s.g_image_text), g(s.g_image_target), None, True)
    if alternative == M_FOOTNOTE:
        return (FOOTNOTE, start, end, "", g(s.g_footnote_label), None, False)
    if alternative == M_REFLINK:
        label = g(s.g_reflink_label) or g(s.g_link_text)
        return (REFERENCE, start, end, g(s.g_link_text), label.strip().lower(), None, True)
    if alternative == M_AUTOLINK or alternative == R_AUTOLINK:
        body = g(s.g_autolink)
        return (URL, start, end, body, body, None, False)
    if alternative == M_COMMENT or alternative == R_COMMENT:
        return (COMMENT, start, end, "", g(0), None, False)
    if alternative == M_HTML or alternative == R_HTML:
        return (HTML, start, end, "", g(0), g(s.g_html_tag).lower(), False)
    if alternative == R_LITERAL:
        body = g(s.g_lit_body)
        return (LITERAL, start, end, body, body, None, False)
    if alternative == R_ROLE or alternative == R_INTERP:
        if alternative == R_ROLE:
            body, role, ref = g(s.g_role_body), g(s.g_role_name), g(s.g_role_ref)
        else:
            body, role, ref = g(s.g_interp_body), g(s.g_role_suffix), g(s.g_interp_ref)
        if role == "math":
            return (MATH, start, end, body, body.strip(), role, False)
        if ref and role is None:
            found = s.title_target.match(body)
            if found:
                return (LINK, start, end, found.group("title") or found.group("target"),
                        found.group("target").strip().replace("\n", ""), None, bool(found.group("title")))
            return (REFERENCE, start, end, body, " ".join(body.split()).lower(), None, False)
        parts = s.role_parts(body)
        return (ROLE, start, end, parts[0], parts[1], role or "", parts[2])
    if alternative == R_SUBST:
        return (SUBSTITUTION, start, end, "", g(s.g_subst_name), None, False)
    if alternative == R_FOOTNOTE:
        return (FOOTNOTE, start, end, "", g(s.g_fn_label), None, False)
    raise ValueError(f"no conversion for a match ending in group {m.lastgroup!r}")


cdef list inlines_of(Syntax syntax, str text):
    """inline._parse of the joined text: the constructs, then the bare URLs that do not
    start inside one, in order of start.

    A match's Inline depends only on which alternative matched and the matched text
    (the patterns look outside a match only at its two ends, the same for every way
    it could match), and the same roles and literals come back all through a catalog:
    conversions are remembered by (last group, text).
    """
    cdef list found = []
    cdef dict converted = syntax.converted
    cdef tuple span, done, item
    cdef object key
    if len(converted) > 200_000:
        converted.clear()
    for m in syntax.pattern.finditer(text):
        key = (m.lastindex, m.group(0))
        done = <tuple>converted.get(key)
        if done is None:
            item = convert(syntax, m)
            converted[key] = (item[0], item[3], item[4], item[5], item[6])
            found.append(item)
        else:
            span = m.span()
            found.append((done[0], span[0], span[1], done[1], done[2], done[3], done[4]))
    cdef list merged
    cdef Py_ssize_t i = 0, n = len(found), s, e
    cdef tuple last
    if "://" not in text:
        return found
    merged = []
    for m in syntax.bare_urls(text):
        span = m.span()
        s = span[0]
        e = span[1]
        while i < n and <Py_ssize_t>(<tuple>found[i])[1] <= s:
            merged.append(found[i])
            i += 1
        if merged:  # the construct starting last at or before s: is s inside it?
            last = <tuple>merged[len(merged) - 1]
            if <Py_ssize_t>last[1] <= s < <Py_ssize_t>last[2]:
                continue
        url = m.group(0)
        merged.append((URL, s, e, url, url, None, False))
    while i < n:
        merged.append(found[i])
        i += 1
    return merged


cdef inline bint has_trigger(str text):
    """inline._has_trigger"""
    return ("`" in text or "{" in text or "$" in text or "[" in text or "<" in text
            or "*" in text or "|" in text or "://" in text)


cdef Py_UCS4* masked_copy(Syntax syntax, str text, list inlines) except NULL:
    """inline.mask(text, inlines): code, targets, URLs, math and HTML blanked, the
    display text of links and titled roles kept (its own markup masked in turn)."""
    cdef Py_UCS4* out = PyUnicode_AsUCS4Copy(text)
    cdef Py_ssize_t last = 0, start, end, at, k, length
    cdef object kind, shown
    cdef tuple item
    cdef bint keep
    for item_ in inlines:
        item = <tuple>item_
        start = item[1]
        end = item[2]
        if start < last:
            continue
        kind = item[0]
        keep = (kind == STRONG or kind == EMPHASIS or (
            item[6] and (kind == ROLE or kind == LINK or kind == IMAGE or kind == REFERENCE)))
        shown = item[3] if keep else ""
        at = PyUnicode_Find(text, shown, start, end, 1) if shown else -1
        if at >= 0:
            at -= start
        for k in range(start, end):
            out[k] = 32
        if at >= 0:
            if kind != STRONG and kind != EMPHASIS and has_trigger(<str>shown):
                shown = syntax.nested_mask(shown)
            length = len(<str>shown)
            for k in range(length):
                out[start + at + k] = (<str>shown)[k]
        last = end
    return out


cdef class Parsed:
    """One side (msgids or msgstrs) of a catalog's text messages: joined, parsed, masked."""

    cdef readonly str text
    cdef readonly list inlines
    cdef readonly str masked
    cdef Py_UCS4* chars
    cdef Py_UCS4* masked_chars

    def __cinit__(self):
        self.chars = NULL
        self.masked_chars = NULL

    def __dealloc__(self):
        PyMem_Free(self.chars)
        PyMem_Free(self.masked_chars)

    def __init__(self, Syntax syntax, str text, bint masked_text=True):
        self.text = text
        self.inlines = inlines_of(syntax, text)
        self.chars = PyUnicode_AsUCS4Copy(text)
        self.masked_chars = masked_copy(syntax, text, self.inlines)
        if masked_text:  # the msgstrs' is read as a str too; the msgids' only as characters
            self.masked = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, self.masked_chars, len(text))


def join(list texts):
    """The texts joined with inline.SEPARATOR ("\\n\\0\\n") and where each starts;
    None when one holds a NUL."""
    cdef str text = "\n\x00\n".join(texts)
    cdef list starts = []
    cdef Py_ssize_t position = 0
    if text.count("\x00") != (len(texts) - 1 if texts else 0):
        return None
    for item in texts:
        starts.append(position)
        position += len(<str>item) + SEPARATOR_LENGTH
    return text, starts


# ----------------------------------------------------------------------- screen


def screen(Tables tables, Syntax syntax, Parsed ids, list id_starts, Parsed strs, list starts):
    """The groups (an int of bits) that may report on each message, in order."""
    result = []
    _screen(tables, syntax.rst, result, len(id_starts), ids.text, ids.chars, ids.masked_chars,
            id_starts, ids.inlines, strs.text, strs.chars, strs.masked, strs.masked_chars,
            starts, strs.inlines)
    return result


cdef int _screen(Tables tables, bint rst, list result, Py_ssize_t n, str id_text, Chars x,
                 Chars xm, list id_starts, list id_inlines, str text, Chars y, str masked,
                 Chars ym, list starts, list inlines) except -1:
    cdef Py_ssize_t e, a, b, c, d, i0, i1, j0, j1
    cdef Py_ssize_t ii = 0, jj = 0
    cdef Py_ssize_t n_id = len(id_inlines), n_str = len(inlines)
    cdef int groups
    cdef bint hangul
    for e in range(n):
        a = id_starts[e]
        b = (<Py_ssize_t>id_starts[e + 1] - SEPARATOR_LENGTH) if e + 1 < n else len(id_text)
        c = starts[e]
        d = (<Py_ssize_t>starts[e + 1] - SEPARATOR_LENGTH) if e + 1 < n else len(text)
        i0 = ii
        while ii < n_id and <Py_ssize_t>(<tuple>id_inlines[ii])[1] < b:
            ii += 1
        i1 = ii
        j0 = jj
        while jj < n_str and <Py_ssize_t>(<tuple>inlines[jj])[1] < d:
            jj += 1
        j1 = jj
        groups = 0
        hangul = has_hangul(y, c, d)
        if not same_keys(id_inlines, i0, i1, inlines, j0, j1):
            groups |= MARKUP
        if rst and hangul_next_to_markup(y, c, d, inlines, j0, j1):
            groups |= HANGUL_AFTER
        if worth_parsing(tables, x, a, b, y, c, d, rst):
            groups |= SYNTAX
        if script_url(y, c, d):
            groups |= URL_SCHEME
        if raw_content(y, c, d):
            groups |= RAW
        if same_text(x, a, b, y, c, d) or (hangul and english_run(ym, c, d)):
            groups |= LEFTOVER
        if tables.glossary and glossary(tables, xm, a, b, masked, ym, c, d):
            groups |= GLOSSARY
        if hangul and particles(tables, text, y, masked, ym, c, d, inlines, j0, j1):
            groups |= PARTICLE
        result.append(groups)
    return 0


cdef bint has_hangul(Chars t, Py_ssize_t c, Py_ssize_t d) noexcept:
    cdef Py_ssize_t i
    for i in range(c, d):
        if is_hangul(at(t, i)):
            return True
    return False


cdef bint same_text(Chars x, Py_ssize_t a, Py_ssize_t b, Chars y, Py_ssize_t c, Py_ssize_t d) noexcept:
    """leftover.untranslated: the msgstr is the msgid."""
    cdef Py_ssize_t i
    if b - a != d - c:
        return False
    for i in range(b - a):
        if at(x, a + i) != at(y, c + i):
            return False
    return True


# ----------------------------------------------------------------------- markup


cdef bint same_keys(list xs, Py_ssize_t i0, Py_ssize_t i1, list ys, Py_ssize_t j0, Py_ssize_t j1) except -1:
    """runner.same_markup: the same (kind, role, target) multiset, strong and emphasis
    aside. False sends the markup group (and markup.math) to the message."""
    cdef Py_ssize_t i, j
    cdef object x, y
    cdef list left = []
    cdef list right = []
    for i in range(i0, i1):
        x = xs[i]
        if (<tuple>x)[0] != STRONG and (<tuple>x)[0] != EMPHASIS:
            left.append(x)
    for j in range(j0, j1):
        y = ys[j]
        if (<tuple>y)[0] != STRONG and (<tuple>y)[0] != EMPHASIS:
            right.append(y)
    if len(left) != len(right):
        return False
    for x in left:  # a handful per message: pairing them off beats hashing
        for j in range(len(right)):
            y = right[j]
            if (PyObject_RichCompareBool((<tuple>x)[0], (<tuple>y)[0], Py_EQ)
                    and PyObject_RichCompareBool((<tuple>x)[5], (<tuple>y)[5], Py_EQ)
                    and PyObject_RichCompareBool((<tuple>x)[4], (<tuple>y)[4], Py_EQ)):
                del right[j]
                break
        else:
            return False
    return True


cdef inline bint shown_kind(object kind) except -1:
    """particles._SHOWN_KINDS: markup whose shown text a particle can follow."""
    return (kind == LITERAL or kind == ROLE or kind == LINK or kind == REFERENCE
            or kind == STRONG or kind == EMPHASIS)


cdef bint hangul_next_to_markup(Chars t, Py_ssize_t c, Py_ssize_t d, list inlines,
                                Py_ssize_t j0, Py_ssize_t j1) except -1:
    """markup.hangul-after-markup: a construct of its kinds (markup._MARKUP_KINDS) with
    Hangul right after or right before it."""
    cdef Py_ssize_t j, start, end
    cdef tuple item
    cdef object kind
    for j in range(j0, j1):
        item = <tuple>inlines[j]
        kind = item[0]
        if not (shown_kind(kind) or kind == MATH or kind == FOOTNOTE or kind == SUBSTITUTION):
            continue  # markup._MARKUP_KINDS
        start = item[1]
        end = item[2]
        if end < d and is_hangul(at(t, end)):
            return True
        if start > c and is_hangul(at(t, start - 1)):
            return True
    return False


# ----------------------------------------------------------------------- syntax


cdef inline bint space_at(Chars t, Py_ssize_t j, Py_ssize_t b) noexcept:
    """A space (or the end) at ``j`` of t[:b] read with reST's escaped spaces as spaces
    (syntax._fingerprint's ``text.replace("\\ ", " ")``: a backslash before a space
    goes, the space stays)."""
    if j >= b:
        return True
    return is_space(at(t, j)) or (at(t, j) == 92 and j + 1 < b and at(t, j + 1) == 32)


cdef Py_ssize_t spaced_delimiters(Chars t, Py_ssize_t a, Py_ssize_t b) noexcept:
    """len(syntax._SPACED.findall(...)) of t[a:b] so read: delimiters with space on both
    sides. (Before a delimiter the character is as written: a backslash there is not
    followed by a space, so it stays.)"""
    cdef Py_ssize_t i = a, count = 0
    cdef Py_UCS4 ch
    while i < b:
        ch = at(t, i)
        if (ch == 96 or ch == 42) and (i == a or is_space(at(t, i - 1))):
            if i + 1 < b and at(t, i + 1) == ch and space_at(t, i + 2, b):
                count += 1
                i += 2
                continue
            if space_at(t, i + 1, b):
                count += 1
                i += 1
                continue
        i += 1
    return count


cdef bint flanking(Chars t, Py_ssize_t c, Py_ssize_t d) noexcept:
    """syntax._FLANKING, or an underscore right before Hangul (every match of
    syntax._UNDERSCORE_BEFORE_HANGUL ends so): emphasis CommonMark may not close."""
    cdef Py_ssize_t r0 = c, r1, k
    cdef Py_UCS4 ch, before, after
    while r0 < d:
        ch = at(t, r0)
        if ch != 42 and ch != 95:
            r0 += 1
            continue
        r1 = r0
        while r1 < d and (at(t, r1) == 42 or at(t, r1) == 95):
            r1 += 1
        # t[r0:r1]: a maximal run of * and _.
        if r1 < d:
            after = at(t, r1)
            if is_hangul(after):
                if at(t, r1 - 1) == 95:
                    return True
                if r0 > c:  # the lookbehind [^\s\w] before the run's start
                    before = at(t, r0 - 1)
                    if not is_space(before) and not is_word(before):
                        return True
                for k in range(r0, r1 - 1):  # or before a later start: after a `*`
                    if at(t, k) == 42:
                        return True
            if r0 > c and is_hangul(at(t, r0 - 1)) and not is_space(after) and not is_word(after):
                return True
        r0 = r1
    return False


cdef bint worth_parsing(Tables tables, Chars x, Py_ssize_t a, Py_ssize_t b,
                        Chars y, Py_ssize_t c, Py_ssize_t d, bint rst) except -1:
    """syntax.parse runs (needs a markup character) and syntax.worth_parsing holds."""
    cdef Py_ssize_t k
    cdef int m
    cdef bint present = False
    cdef Py_ssize_t counts[11]
    for k in range(11):
        counts[k] = 0
    for k in range(a, b):
        m = markup_index(at(x, k))
        if m >= 0:
            counts[m] += 1
            present = True
    for k in range(c, d):
        m = markup_index(at(y, k))
        if m >= 0:
            counts[m] -= 1
            present = True
    if not present:
        return False
    for k in range(11):
        if counts[k] != 0:
            return True
    if spaced_delimiters(x, a, b) != spaced_delimiters(y, c, d):
        return True
    return not rst and flanking(y, c, d)


# ----------------------------------------------------------------------- safety


cdef bint script_url(Chars t, Py_ssize_t c, Py_ssize_t d) noexcept:
    """safety.url-scheme: every match of its patterns (javascript:, vbscript:, data:)
    has a `t` or an `a`, spaces allowed, before a colon."""
    cdef Py_ssize_t i, k
    cdef Py_UCS4 ch
    for i in range(c, d):
        if at(t, i) == 58:  # ':'
            k = i - 1
            while k >= c and is_space(at(t, k)):
                k -= 1
            if k >= c:
                ch = lower(at(t, k))
                if ch == 116 or ch == 97:
                    return True
    return False


cdef bint word_at(Chars t, Py_ssize_t i, Py_ssize_t d, const char* word) noexcept:
    cdef Py_ssize_t k = 0
    while word[k] != 0:
        if i + k >= d or lower(at(t, i + k)) != <Py_UCS4>word[k]:
            return False
        k += 1
    return True


cdef bint raw_content(Chars t, Py_ssize_t c, Py_ssize_t d) noexcept:
    """safety.raw: `raw`, `include` or `eval-rst` in any case (its patterns ignore
    case), or a non-ASCII letter that case-folds to an ASCII one (ſ, K, İ, ı)."""
    cdef Py_ssize_t i
    cdef Py_UCS4 ch
    for i in range(c, d):
        ch = lower(at(t, i))
        if ch == 114 and word_at(t, i, d, b"raw"):
            return True
        if ch == 105 and word_at(t, i, d, b"include"):
            return True
        if ch == 101 and word_at(t, i, d, b"eval-rst"):
            return True
        if ch == 0x17F or ch == 0x212A or ch == 0x130 or ch == 0x131:
            return True
    return False


# -------------------------------------------------------------------- leftovers


cdef inline bint english_continues(Py_UCS4 ch) noexcept:  # [A-Za-z'’-]
    return is_ascii_letter(ch) or ch == 39 or ch == 0x2019 or ch == 45


cdef inline bint english_separator(Py_UCS4 ch) noexcept:  # [ ,;]
    return ch == 32 or ch == 44 or ch == 59


cdef bint english_run(Chars t, Py_ssize_t c, Py_ssize_t d) noexcept:
    """leftover.english: a match of its _ENGLISH_RUN (five or more English words with
    only spaces, commas or semicolons between) in the masked msgstr."""
    cdef Py_ssize_t i = c, chain = 0
    cdef bint joined = False   # only separators since the last word
    while i < d:
        if not is_ascii_letter(at(t, i)):
            chain = 0
            joined = False
            i += 1
            continue
        chain = chain + 1 if joined else 1
        if chain >= 5:
            return True
        i += 1
        while i < d and english_continues(at(t, i)):
            i += 1
        joined = i < d and english_separator(at(t, i))
        while i < d and english_separator(at(t, i)):
            i += 1
        if not joined:
            chain = 0
    return False


# --------------------------------------------------------------------- glossary


cdef list english_terms(Tables tables, Chars t, Py_ssize_t a, Py_ssize_t b):
    """TermMatcher.english_terms(text[a:b]): the terms found, in order."""
    cdef Py_ssize_t i = a, s, k, n = 0, size, free = 0, w, end
    cdef unsigned long long h
    cdef bint candidate = False
    tables.scratch.reserve((b - a) // 2 + 1)
    cdef Py_ssize_t* starts = tables.scratch.word_start
    cdef Py_ssize_t* ends = tables.scratch.word_end
    # Words as terms.WORD finds them: [A-Za-z0-9]+(?:-[A-Za-z0-9]+)*. A word whose
    # lower-case hash is in the bloom of first words may start a phrase; the others
    # have their end stored negated, and the loop below skips them.
    while i < b:
        if not is_ascii_alnum(at(t, i)):
            i += 1
            continue
        s = i
        h = 14695981039346656037ULL
        while True:
            while i < b and is_ascii_alnum(at(t, i)):
                h = mix(h, <unsigned int>lower(at(t, i)))
                i += 1
            if i + 1 < b and at(t, i) == 45 and is_ascii_alnum(at(t, i + 1)):
                h = mix(h, 45)
                i += 1
                continue
            break
        starts[n] = s
        if bloom_has(tables.word_bloom, h):
            ends[n] = i
            candidate = True
        else:
            ends[n] = -i
        n += 1
    if not candidate:
        return []
    cdef list found = []
    cdef object phrases, phrase, term
    cdef tuple words
    cdef bint match
    for k in range(n):
        if k < free or ends[k] < 0:
            continue
        phrases = tables.phrases.get(_lower_str(t, starts[k], ends[k]))
        if phrases is None:
            continue
        for phrase in phrases:
            words = <tuple>phrase[0]
            size = len(words)
            if k + size > n:
                continue
            match = True
            for w in range(size):
                end = ends[k + w] if ends[k + w] >= 0 else -ends[k + w]
                if not word_is(t, starts[k + w], end, <str>words[w], not phrase[2]):
                    match = False
                    break
            if match:
                term = phrase[1]
                if term >= 0 and term not in found:
                    found.append(term)
                free = k + size
                break
    return found


cdef str _lower_str(Chars t, Py_ssize_t s, Py_ssize_t e):
    """The ASCII word t[s:e] in lower case, as a str."""
    cdef bytearray buffer = bytearray(e - s)
    cdef Py_ssize_t k
    for k in range(e - s):
        buffer[k] = <unsigned char>lower(at(t, s + k))
    return buffer.decode("ascii")


cdef bint word_is(Chars t, Py_ssize_t s, Py_ssize_t e, str word, bint fold) except -1:
    """t[s:e] == word, lower-cased first when ``fold`` (the word is ASCII)."""
    cdef Py_ssize_t k
    cdef Py_UCS4 ch
    if e - s != len(word):
        return False
    for k in range(e - s):
        ch = at(t, s + k)
        if (lower(ch) if fold else ch) != word[k]:
            return False
    return True


cdef bint matches_at(Chars t, Py_ssize_t p, Py_ssize_t d, str needle) except -1:
    """``needle`` at ``p``, each of its spaces matching a run of spaces (the `` +`` of
    terms._trie_regex)."""
    cdef Py_UCS4 ch
    for ch in needle:
        if p >= d:
            return False
        if ch == 32:
            if at(t, p) != 32:
                return False
            while p < d and at(t, p) == 32:
                p += 1
        else:
            if at(t, p) != ch:
                return False
            p += 1
    return True


cdef bint occurs(str rendering, str text, Chars t, Py_ssize_t c, Py_ssize_t d) except -1:
    """TermMatcher.occurs(rendering, text[c:d])."""
    cdef Py_ssize_t p
    cdef Py_UCS4 first
    if PyUnicode_Find(text, rendering, c, d, 1) >= 0:
        return True
    if PyUnicode_Find(rendering, " ", 0, len(rendering), 1) < 0:
        return False
    if PyUnicode_Find(rendering, "  ", 0, len(rendering), 1) >= 0:
        return False  # squeezing the text's spaces cannot make a double space
    if PyUnicode_Find(text, "  ", c, d, 1) < 0:
        return False
    first = rendering[0]
    for p in range(c, d):
        if at(t, p) == first and matches_at(t, p, d, rendering):
            return True
    return False


cdef bint glossary(Tables tables, Chars xm, Py_ssize_t a, Py_ssize_t b,
                   str masked, Chars ym, Py_ssize_t c, Py_ssize_t d) except -1:
    """glossary.missing and glossary.spacing (a term of the msgid none of whose
    renderings occurs in the msgstr), glossary.keep (a kept term of the msgid the
    msgstr's English lacks), glossary.forbidden (a forbidden rendering anywhere)."""
    cdef list terms = english_terms(tables, xm, a, b)
    cdef list kept = None
    cdef object term, rendering
    cdef tuple renderings
    cdef Py_ssize_t p
    cdef Py_UCS4 ch
    for term in terms:
        if tables.keep[term]:
            if kept is None:
                kept = english_terms(tables, ym, c, d)
            if term not in kept:
                return True
            continue
        renderings = <tuple>tables.renderings[term]
        if not renderings:
            continue
        for rendering in renderings:
            if occurs(<str>rendering, masked, ym, c, d):
                break
        else:
            return True
    for p in range(c, d):
        ch = at(ym, p)
        if (has_bit(tables.forbidden_first, ch)
                and bloom_has(tables.forbidden_bloom, pair(ch, at(ym, p + 1) if p + 1 < d else 0))):
            for rendering in tables.forbidden.get(masked[p], ()):
                if matches_at(ym, p, d, <str>rendering):
                    return True
    return False


# -------------------------------------------------------------------- particles


cdef Py_ssize_t hangul_end(Chars t, Py_ssize_t p, Py_ssize_t d) noexcept:
    while p < d and is_hangul(at(t, p)):
        p += 1
    return p


cdef inline int ending_class(Py_UCS4 syllable) noexcept:
    """0 after a vowel, 1 after ㄹ, 2 after another final consonant."""
    cdef int final = (<int>syllable - 0xAC00) % 28
    if final == 0:
        return 0
    return 1 if final == 8 else 2


cdef inline bint may_be_particle(Tables tables, Chars t, Py_ssize_t p, Py_ssize_t end) noexcept:
    return end > p and end - p <= tables.longest_suffix and has_bit(tables.suffix_first, at(t, p))


cdef bint particles(Tables tables, str text, Chars t, str masked, Chars m,
                    Py_ssize_t c, Py_ssize_t d, list inlines, Py_ssize_t j0, Py_ssize_t j1) except -1:
    """particle.agreement: each place its four steps judge a particle, with the rule's
    own verdict (jaxko.check.particles) on the word and the particle there."""
    cdef Py_ssize_t j, p, end, q, s, s0
    cdef tuple item
    cdef object kind, key, verdict
    cdef str run
    cdef Py_UCS4 ch
    # 1. Inline markup followed (after reST's escaped space) by a particle, in the msgstr.
    for j in range(j0, j1):
        item = <tuple>inlines[j]
        kind = item[0]
        if not shown_kind(kind) or not item[3]:
            continue
        p = item[2]
        if p + 1 < d and at(t, p) == 92 and at(t, p + 1) == 32:
            p += 2
        end = hangul_end(t, p, d)
        if not may_be_particle(tables, t, p, end):
            continue
        run = text[p:end]
        if run not in tables.suffixes:
            continue
        key = (kind == LITERAL, item[3], run)
        verdict = tables.markup_memo.get(key)
        if verdict is None:
            verdict = tables.markup_memo[key] = bool(tables.markup_verdict(kind == LITERAL, item[3], run))
        if verdict:
            return True
    # 2-4 read the masked msgstr, a run of Hangul at a time: a particle is a whole tail.
    p = c
    while p < d:
        if not is_hangul(at(m, p)):
            p += 1
            continue
        end = hangul_end(m, p, d)
        # 2. A rendering (accepted or forbidden) ends right before the tail masked[q:end].
        q = end - tables.longest_suffix
        if q < p:
            q = p
        if q == c:
            q += 1
        while q < end:
            ch = at(m, q)
            if (has_bit(tables.suffix_first, ch) and bloom_has(tables.last_bloom, pair(at(m, q - 1), ch))
                    and rendering_before(tables, masked, m, c, q, end)):
                return True
            q += 1
        if p > c and may_be_particle(tables, m, p, end):
            ch = at(m, p - 1)
            # 3. A Latin word right before the run (particles._LATIN_BEFORE_HANGUL):
            #    the earliest start in the stretch of [A-Za-z0-9_.+-] before it that is
            #    alphanumeric and not preceded by [A-Za-z0-9_.-].
            if is_ascii_alnum(ch):
                s0 = p - 1
                while s0 > c and latin_body(at(m, s0 - 1)):
                    s0 -= 1
                s = s0
                while s < p and not (is_ascii_alnum(at(m, s)) and (s == s0 or at(m, s - 1) == 43)):
                    s += 1
                run = masked[p:end]
                if s < p and run in tables.suffixes:
                    key = (masked[s:p], run)
                    verdict = tables.latin_memo.get(key)
                    if verdict is None:
                        verdict = tables.latin_memo[key] = bool(tables.latin_verdict(masked[s:p], run))
                    if verdict:
                        return True
            # 4. A gloss after a Hangul head (particles._GLOSS): Hangul, `(`, 1 to 80
            #    characters other than ( ) and newline, `)`, then the run.
            elif ch == 41:
                s = p - 2
                while s >= c and p - 2 - s < 81:
                    ch = at(m, s)
                    if ch == 40 or ch == 41 or ch == 10:
                        break
                    s -= 1
                if (s >= c and at(m, s) == 40 and 1 <= p - 2 - s <= 80
                        and s - 1 >= c and is_hangul(at(m, s - 1))):
                    run = masked[p:end]
                    if run in (<frozenset>tables.gloss_bad[ending_class(at(m, s - 1))]):
                        return True
        p = end
    return False


cdef inline bint latin_body(Py_UCS4 ch) noexcept:  # [A-Za-z0-9_.+\-]
    return is_ascii_alnum(ch) or ch == 95 or ch == 46 or ch == 43 or ch == 45


cdef bint rendering_before(Tables tables, str masked, Chars m, Py_ssize_t c, Py_ssize_t q,
                           Py_ssize_t end) except -1:
    """A rendering ends at ``q`` and masked[q:end] is a particle wrong after it."""
    cdef object entries = tables.last_bad.get(<unsigned int>at(m, q - 1))
    cdef object entry
    cdef str run
    if entries is None:
        return False
    run = masked[q:end]
    if run not in tables.suffixes:
        return False
    for entry in entries:
        if run in (<frozenset>(<tuple>entry)[1]) and ends_with(m, c, q, <str>(<tuple>entry)[0]):
            return True
    return False


cdef bint ends_with(Chars t, Py_ssize_t c, Py_ssize_t q, str needle) except -1:
    """``needle`` ends at ``q`` (starting at ``c`` or later), its spaces matching runs
    of spaces."""
    cdef Py_ssize_t k = len(needle) - 1
    cdef Py_ssize_t p = q - 1
    cdef Py_UCS4 ch
    while k >= 0:
        if p < c:
            return False
        ch = needle[k]
        if ch == 32:
            if at(t, p) != 32:
                return False
            while p >= c and at(t, p) == 32:
                p -= 1
        else:
            if at(t, p) != ch:
                return False
            p -= 1
        k -= 1
    return True


# ----------------------------------------------------------------------- reader
#
# jaxko.check.pofile.parse's fast path in C: the blocks between blank lines that have
# the usual shape (comments, msgctxt, msgid, msgstr, each string on its own lines) are
# read here exactly as pofile._parse_blocks reads them; every other block goes to the
# general parser through ``general``. tests/test_check_pofile.py holds the two to
# each other.


cdef inline Py_ssize_t line_end(Chars t, Py_ssize_t p, Py_ssize_t end) noexcept:
    while p < end and t[p] != 10:
        p += 1
    return p


cdef Py_ssize_t string_lines(Chars t, Py_ssize_t p, Py_ssize_t end, list parts) except -2:
    """``"..."(\\n"...")*`` at ``p`` (pofile._SIMPLE_ENTRY's string): each line's
    content into ``parts`` as (start, stop); where it ends, or -1 if it does not match."""
    cdef Py_ssize_t e
    e = line_end(t, p, end)
    if e - p < 2 or t[p] != 34 or t[e - 1] != 34:
        return -1
    parts.append((p + 1, e - 1))
    while e + 1 < end and t[e + 1] == 34:
        p = e + 1
        e = line_end(t, p, end)
        if e - p < 2 or t[e - 1] != 34:
            return -1  # a continuation that is not a whole string: not the usual shape
        parts.append((p + 1, e - 1))
    return e


cdef inline bint starts(Chars t, Py_ssize_t p, Py_ssize_t end, const char* word) noexcept:
    cdef Py_ssize_t k = 0
    while word[k] != 0:
        if p + k >= end or t[p + k] != <Py_UCS4>word[k]:
            return False
        k += 1
    return True


cdef object joined(str text, Chars t, list parts, Scratch scratch):
    """pofile._join: the unescaped text of a string's lines, or None where pofile
    falls back (a quote that no odd run of backslashes escapes)."""
    cdef Py_ssize_t a, b, k, n = 0, total = 0, run
    cdef Py_UCS4 ch
    cdef bint backslash = False
    for part in parts:
        a = (<tuple>part)[0]
        b = (<tuple>part)[1]
        total += b - a
        run = 0
        for k in range(a, b):
            ch = t[k]
            if ch == 34 and run % 2 == 0:
                return None
            if ch == 92:
                run += 1
                backslash = True
            else:
                run = 0
    if not backslash:
        if len(parts) == 1:
            return text[(<tuple>parts[0])[0]:(<tuple>parts[0])[1]]
        return "".join([text[(<tuple>part)[0]:(<tuple>part)[1]] for part in parts])
    scratch.reserve_text(total)
    cdef Py_UCS4* out = scratch.text
    # The parts are joined first, then unescaped (an escape may not span two lines in
    # a well-formed catalog, but pofile joins before unescaping, so this does too).
    for part in parts:
        for k in range((<tuple>part)[0], (<tuple>part)[1]):
            out[n] = t[k]
            n += 1
    k = 0
    b = 0
    while k < n:
        ch = out[k]
        if ch == 92 and k + 1 < n:
            ch = out[k + 1]
            if ch == 92 or ch == 34:
                out[b] = ch
            elif ch == 110:
                out[b] = 10
            elif ch == 116:
                out[b] = 9
            elif ch == 114:
                out[b] = 13
            elif ch == 118:
                out[b] = 11
            elif ch == 98:
                out[b] = 8
            elif ch == 102:
                out[b] = 12
            else:
                out[b] = 92
                b += 1
                k += 1
                continue
            b += 1
            k += 2
            continue
        out[b] = ch
        b += 1
        k += 1
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, b)


cdef Scratch _READER_SCRATCH = Scratch()


def read_catalog(str text, entry_type, general):
    """pofile._parse_blocks(text): the catalog's active entries, ``entry_type`` tuples;
    ``general(block, offset)`` reads a block of unusual shape."""
    cdef Scratch scratch = _READER_SCRATCH
    cdef Chars t = PyUnicode_AsUCS4Copy(text)
    try:
        return _read(text, t, len(text), entry_type, general, scratch)
    finally:
        PyMem_Free(t)


cdef list _read(str text, Chars t, Py_ssize_t length, entry_type, general, Scratch scratch):
    cdef list entries = []
    cdef Py_ssize_t pos = 0, block_end, s0, s1, count, k, line = 1, p, e, lead
    cdef Py_ssize_t n_comments, ctx_lines, first, newlines
    cdef list comment_lines, ctx_parts, id_parts, str_parts
    cdef object msgid, msgstr, ctx
    cdef bint simple
    cdef str part, kind, rest
    while pos <= length:
        block_end = PyUnicode_Find(text, "\n\n", pos, length, 1)
        if block_end < 0:
            block_end = length
        count = 0
        for k in range(pos, block_end):
            if t[k] == 10:
                count += 1
        s0 = pos
        while s0 < block_end and t[s0] == 10:
            s0 += 1
        s1 = block_end
        while s1 > s0 and t[s1 - 1] == 10:
            s1 -= 1
        if s0 == s1:
            line += count + 2
            pos = block_end + 2
            continue
        lead = s0 - pos
        simple = t[s0] == 35 or t[s0] == 109  # '#' or 'm'
        comment_lines = []
        ctx_parts = None
        id_parts = []
        str_parts = []
        p = s0
        if simple:
            # comments: (#[ .:,] anything | # alone), each a line of its own
            while p < s1 and t[p] == 35:
                e = line_end(t, p, s1)
                if e == s1 or not (e == p + 1 or t[p + 1] == 32 or t[p + 1] == 46
                                   or t[p + 1] == 58 or t[p + 1] == 44):
                    simple = False
                    break
                comment_lines.append((p, e))
                p = e + 1
        if simple and starts(t, p, s1, b"msgctxt "):
            ctx_parts = []
            e = string_lines(t, p + 8, s1, ctx_parts)
            if e < 0 or e >= s1:
                simple = False
            else:
                p = e + 1
        if simple and starts(t, p, s1, b"msgid "):
            e = string_lines(t, p + 6, s1, id_parts)
            if e < 0 or e >= s1:
                simple = False
            else:
                p = e + 1
        else:
            simple = False
        if simple and starts(t, p, s1, b"msgstr "):
            e = string_lines(t, p + 7, s1, str_parts)
            if e != s1:
                simple = False
        else:
            simple = False
        if simple:
            msgid = joined(text, t, id_parts, scratch)
            msgstr = joined(text, t, str_parts, scratch)
            ctx = joined(text, t, ctx_parts, scratch) if ctx_parts is not None else None
            if msgid is None or msgstr is None or (ctx_parts is not None and ctx is None):
                simple = False
        if not simple:
            entries.extend(general(text[s0:s1], line + lead - 1))
            line += count + 2
            pos = block_end + 2
            continue
        first = line + lead
        n_comments = len(comment_lines)
        ctx_lines = len(ctx_parts) if ctx_parts is not None else 0
        newlines = 0
        for k in range(s0, s1):
            if t[k] == 10:
                newlines += 1
        flags = []
        locations = []
        tcomment = []
        comment = []
        for span in comment_lines:
            part = text[(<tuple>span)[0]:(<tuple>span)[1]]
            kind = part[1:2]
            rest = part[2:].strip()
            if kind == ":":
                if rest:
                    locations.append(rest)
            elif kind == ",":
                flags.extend([f.strip() for f in rest.split(",") if f.strip()])
            elif kind == ".":
                if rest:
                    comment.append(rest)
            else:
                tcomment.append(part[1:].strip())
        # tuple.__new__ is what a named tuple's own __new__ calls, without its Python frame.
        entries.append(tuple.__new__(entry_type, (
            first + n_comments + ctx_lines, first, first + newlines, msgid, msgstr, ctx,
            tuple(flags), tuple(locations), "\n".join(tcomment), "\n".join(comment), False)))
        line += count + 2
        pos = block_end + 2
    return entries


# ------------------------------------------------------------------------ hashes


def stable_hash(str text):
    """A 64-bit FNV-1a hash of the text's code points: the same in every process and
    run (``hash`` is salted), for the consistency records the cache keeps."""
    cdef unsigned long long h = 14695981039346656037ULL
    cdef Py_UCS4 c
    for c in text:
        h = mix(h, <unsigned int>c)
    return h


# ------------------------------------------------------------------------- trie
#
# terms._trie_regex in C: the Korean renderings (and forbidden ones) of a glossary,
# found leftmost and longest as that regex's finditer finds them, a space in a string
# matching a run of spaces. Compiling the regex of a 3,000-term glossary takes 0.1 s;
# building this, a few milliseconds. tests/test_check_terms.py holds the two together.


cdef class Trie:
    """Strings, matched as ``terms._trie_regex(strings).finditer`` matches them."""

    cdef list children   # node -> {code point: child node}
    cdef list terminal   # node -> whether a string ends there

    def __init__(self, strings):
        self.children = [{}]
        self.terminal = [False]
        cdef dict node
        cdef Py_ssize_t at
        cdef Py_UCS4 ch
        for text in strings:
            at = 0
            for ch in <str>text:
                node = <dict>self.children[at]
                child = node.get(<unsigned int>ch)
                if child is None:
                    child = len(self.children)
                    node[<unsigned int>ch] = child
                    self.children.append({})
                    self.terminal.append(False)
                at = child
            self.terminal[at] = True

    def finditer(self, str text):
        """(start, end) of every match, left to right, as finditer would find them."""
        cdef Chars t = PyUnicode_AsUCS4Copy(text)
        cdef Py_ssize_t n = len(text), i = 0, end
        cdef list found = []
        try:
            while i < n:
                end = self.longest(t, n, 0, i)
                if end > i:
                    found.append((i, end))
                    i = end
                else:
                    i += 1
        finally:
            PyMem_Free(t)
        return found

    cdef Py_ssize_t longest(self, Chars t, Py_ssize_t n, Py_ssize_t node, Py_ssize_t i):
        """The end of the longest string from ``node`` matching at ``i`` (the regex's
        greedy order: deeper first, a space run longest first), or -1."""
        cdef dict children = <dict>self.children[node]
        cdef object child
        cdef Py_ssize_t j, k, end
        if i < n and children:
            if t[i] == 32:
                child = children.get(32)
                if child is not None:
                    j = i
                    while j < n and t[j] == 32:
                        j += 1
                    k = j
                    while k > i:  # " +": as many spaces as there are, then fewer
                        end = self.longest(t, n, child, k)
                        if end >= 0:
                            return end
                        k -= 1
            else:
                child = children.get(<unsigned int>t[i])
                if child is not None:
                    end = self.longest(t, n, child, i + 1)
                    if end >= 0:
                        return end
        return i if self.terminal[node] and node != 0 else -1
