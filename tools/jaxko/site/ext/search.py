"""Korean search language for Sphinx's HTML search (``app.add_search_language``).

Sphinx has no Korean search language: with ``language = 'ko'`` it falls back to the
English one, which indexes whole eojeol (space-separated words) such as 배열을, so the
query 배열 finds nothing (its JavaScript does partial matches only for terms longer
than two characters; jupyter-book#1606).

Two steps, the same on both sides of the search:

* :func:`stem` strips trailing particles (조사) and a few copula endings by rules, in
  Python when indexing and in the browser (:data:`JS_STEMMER`, generated from the
  same tables) when querying. Whatever a reader types, the query term is ``stem(q)``,
  and every word of the text is indexed as ``stem(w)``; a noun typed with or without
  a particle reaches the same key. Latin words go through Sphinx's English (Porter)
  stemmer on both sides, as on an English site.
* :class:`SearchKorean` ``.split`` adds what rules cannot see: Kiwi (kiwipiepy, whose
  model ships in the PyPI package) finds the nouns inside an eojeol (자동미분의 ->
  자동, 미분, 자동미분) and after verbal suffixes (변환하여 -> 변환). The glossary's
  Korean renderings are added to Kiwi's dictionary, so 컴파일 stays one noun. Without
  kiwipiepy the rules alone are used (``jaxko_search_morphology = False`` too).
* Keys of one- and two-syllable Korean words carry an invisible mark
  (:data:`SHORT_MARK`), so searchtools.js treats them as required terms like any
  longer word (see the comment at :data:`SHORT_MARK`).
* A serial build (every rebuild) runs Kiwi in a process of its own
  (:class:`KiwiProcess`), started as soon as the configuration is read
  (``config-inited``), before Sphinx loads its environment and reads: its model loads
  while the pages are read, not when the first page with new Korean text is indexed.
  This extension alone owns Kiwi: the build driver (:mod:`jaxko.site.build`,
  :mod:`jaxko.site.watch`) only sets the config values read here.
* ``static/jaxko-search-escape.js`` (in language_data.js, after the stemmer) escapes
  the section titles of the index as it loads where searchtools.js shows titles as
  HTML (Sphinx 8.2; Sphinx 9 escapes them itself: :func:`index_titles_are_text`).
* ``static/jaxko-search.js`` (search.html only) replaces the result excerpts of
  searchtools.js, which looked for those keys, marks and all, in the page text and so
  showed no excerpt for most Korean results: it finds the query's words (keys without
  the mark, words as typed and their stems) in the article, without the theme's
  buttons or the translation banner, and highlights them.
"""

from __future__ import annotations

import functools
import json
import os
import re
from importlib import resources
from pathlib import Path
from typing import Iterable

from docutils import nodes
from sphinx.search import SearchLanguage
from sphinx.search.en import SearchEnglish
from sphinx.util import logging
from jaxko import glossary
from jaxko import paths
from jaxko.catalogs import write_text_atomic

logger = logging.getLogger(__name__)

HANGUL = re.compile(r"[가-힣]")
LATIN_WORD = re.compile(r"^[a-z]+$")
_WORD = re.compile(r"\w+")

# Particles and endings stripped from the end of a word, with the condition on the
# syllable before them: "C" after a final consonant (받침), "V" after none, "VR" after
# none or ㄹ (로 in 파일로), "" either. Longest first wins. A one-syllable ending that
# also ends many nouns (가 in 추가, 도 in 속도, 이 in 길이) is only stripped when at
# least two characters remain: 추가 stays, 평가가 -> 평가.
PARTICLES: tuple[tuple[str, str], ...] = (
    ("에서부터", ""), ("으로부터", "C"), ("로부터", "VR"), ("이라는", "C"), ("이라고", "C"),
    ("입니다", ""), ("이므로", "C"), ("에서는", ""), ("에서도", ""), ("에서의", ""),
    ("에게서", ""), ("으로는", "C"), ("으로도", "C"), ("으로써", "C"), ("으로서", "C"),
    ("에서", ""), ("에게", ""), ("에는", ""), ("에도", ""), ("에의", ""), ("으로", "C"),
    ("로는", "VR"), ("로도", "VR"), ("로써", "VR"), ("로서", "VR"), ("와는", "V"),
    ("과는", "C"), ("와의", "V"), ("과의", "C"), ("와도", "V"), ("과도", "C"), ("까지", ""),
    ("부터", ""), ("마다", ""), ("처럼", ""), ("보다", ""), ("만큼", ""), ("이나", "C"),
    ("이란", "C"), ("라는", "V"), ("이며", "C"), ("이고", "C"), ("이다", "C"), ("라고", "V"),
    ("조차", ""), ("밖에", ""), ("한테", ""), ("께서", ""), ("만의", ""), ("만을", ""),
    ("만이", ""), ("들을", ""), ("들은", ""), ("들이", ""), ("들의", ""), ("들에", ""),
    ("들과", ""), ("들로", ""), ("들도", ""), ("들", ""),
    ("을", "C"), ("를", "V"), ("은", "C"), ("는", "V"), ("이", "C"), ("가", "V"),
    ("과", "C"), ("와", "V"), ("의", ""), ("에", ""), ("도", ""), ("만", ""), ("로", "VR"),
)
# Endings short enough to end a noun too: only stripped when two characters remain.
AMBIGUOUS = frozenset({"이", "가", "도", "의", "만", "로", "들", "에", "와", "과"})
MAX_STRIPS = 2  # 배열들을 -> 배열들 -> 배열

# Kiwi part-of-speech tags indexed as words: nouns, numerals, roots, foreign words.
NOUN_TAGS = frozenset({"NNG", "NNP", "NR", "XR", "SH"})

# Korean function words that make poor search terms on their own, and particles that
# stand alone in a text node (after inline code: `jit`을).
KOREAN_STOPWORDS = frozenset({"수", "것", "등", "및", "또는", "그", "저", "때",
                              *(particle for particle, _condition in PARTICLES)})


def _ending(ch: str) -> str:
    """'C' (final consonant), 'R' (final ㄹ) or 'V' (none) for a Hangul syllable."""
    index = (ord(ch) - 0xAC00) % 28
    return "V" if index == 0 else ("R" if index == 8 else "C")


def _allowed(condition: str, before: str) -> bool:
    if not condition:
        return True
    if not HANGUL.fullmatch(before):
        # After Latin letters or digits the reading decides (JAX를, jit을): allow both.
        return True
    ending = _ending(before)
    if condition == "C":
        return ending in ("C", "R")
    if condition == "V":
        return ending == "V"
    return ending in ("V", "R")  # "VR"


def strip_particles(word: str) -> str:
    """One word without its trailing particles: 배열을 -> 배열, 추가 -> 추가."""
    for _ in range(MAX_STRIPS):
        for particle, condition in PARTICLES:
            if not word.endswith(particle):
                continue
            rest = word[: -len(particle)]
            minimum = 2 if particle in AMBIGUOUS else 1
            if len(rest) >= minimum and _allowed(condition, rest[-1]):
                word = rest
                break
        else:
            break
    return word


@functools.lru_cache(maxsize=1)
def _porter():
    import snowballstemmer
    return snowballstemmer.stemmer("porter")


# Sphinx's searchtools.js treats query terms of one or two characters as optional
# when the query also has a longer one (English short words are mostly noise), so
# "vmap 배치" returned every page with vmap. A Korean noun of one or two syllables is
# a content word: its key carries this invisible mark, which makes it three
# characters long and so required. Longer keys never contain the mark, so the
# partial matching searchtools.js does for long terms still finds only the exact key.
SHORT_MARK = "\u200d"
_SHORT_HANGUL = re.compile(r"^[가-힣]{1,2}$")


@functools.lru_cache(maxsize=1 << 17)
def stem(word: str) -> str:
    """The index/query key of a word; :data:`JS_STEMMER` computes the same in JS.

    Cached: the indexer asks for every word of every page, mostly the same few
    thousand words, and each Korean one walks the particle table."""
    word = word.lower()
    if HANGUL.search(word):
        word = strip_particles(word)
    if LATIN_WORD.match(word):
        word = _porter().stemWord(word)
    elif _SHORT_HANGUL.match(word):
        word += SHORT_MARK
    return word


def _snowball_js(name: str) -> str:
    """A Snowball stemmer's JavaScript as Sphinx ships it (8.2 and 9.x alike: the files
    its ``js_stemmer_rawcode`` names, ``non-minified-js/<name>``), read as package data."""
    return (resources.files("sphinx.search") / "non-minified-js" / name).read_text("utf-8")


def _js_stemmer() -> str:
    # Snowball's Porter stemmer, the algorithm _porter() runs on the Python side.
    porter = _snowball_js("base-stemmer.js") + "\n" + _snowball_js("porter-stemmer.js")
    tables = json.dumps({"particles": PARTICLES, "ambiguous": sorted(AMBIGUOUS),
                         "maxStrips": MAX_STRIPS}, ensure_ascii=False)
    return porter + """
/**
 * Korean stemmer of jax-docs-ko (jaxko/site/ext/search.py generates this from the tables
 * the index was built with): strips particles from Hangul words, then stems Latin
 * words with the Porter stemmer, exactly as the Python side did when indexing.
 */
var KoreanTables = """ + tables + """;
var Stemmer = function() {
  var porter = new PorterStemmer();
  var ambiguous = new Set(KoreanTables.ambiguous);
  var hangul = /[\\uAC00-\\uD7A3]/;
  var ending = function(ch) {
    var index = (ch.charCodeAt(0) - 0xAC00) % 28;
    return index === 0 ? "V" : (index === 8 ? "R" : "C");
  };
  var allowed = function(condition, before) {
    if (!condition) return true;
    if (!hangul.test(before)) return true;
    var e = ending(before);
    if (condition === "C") return e === "C" || e === "R";
    if (condition === "V") return e === "V";
    return e === "V" || e === "R";
  };
  this.stripParticles = function(word) {
    for (var round = 0; round < KoreanTables.maxStrips; round++) {
      var stripped = false;
      for (var i = 0; i < KoreanTables.particles.length; i++) {
        var particle = KoreanTables.particles[i][0], condition = KoreanTables.particles[i][1];
        if (!word.endsWith(particle)) continue;
        var rest = word.slice(0, word.length - particle.length);
        var minimum = ambiguous.has(particle) ? 2 : 1;
        if (rest.length >= minimum && allowed(condition, rest[rest.length - 1])) {
          word = rest;
          stripped = true;
          break;
        }
      }
      if (!stripped) break;
    }
    return word;
  };
  this.stemWord = function(w) {
    w = w.toLowerCase();
    if (hangul.test(w)) w = this.stripParticles(w);
    if (/^[a-z]+$/.test(w)) w = porter.stemWord(w);
    else if (/^[\uAC00-\uD7A3]{1,2}$/.test(w)) w += "\u200d";
    return w;
  };
};
"""


JS_STEMMER = _js_stemmer()
# Appended to the stemmer in language_data.js, which search.html loads between
# searchtools.js and searchindex.js: result titles are shown as text (see the file).
JS_ESCAPE_TITLES = (Path(__file__).parent / "static" / "jaxko-search-escape.js").read_text(
    encoding="utf-8")

# What Sphinx 9's searchtools.js does where it shows a result's title (sphinx-doc/sphinx
# #13356): it escapes the title, and the index holds document titles as plain text.
SEARCHTOOLS_ESCAPES = "innerHTML = _escapeHTML(title)"


@functools.lru_cache(maxsize=1)
def index_titles_are_text() -> bool:
    """Whether this Sphinx shows search result titles as text by itself.

    Sphinx 8.2 stores document titles in searchindex.js as HTML and section titles as
    plain text, and its searchtools.js shows both with ``innerHTML``: a translated
    heading ``<img onerror=…>`` would run, so :data:`JS_ESCAPE_TITLES` escapes the
    section titles as the index loads. Sphinx 9 stores both as plain text and escapes
    them where it shows them; escaping them again would show ``&lt;`` to the reader. The
    answer is read from the searchtools.js the build ships (Sphinx's basic theme): when
    it does not visibly escape titles, the site escapes them itself (the safe side).
    A query matches a section title by its characters as the index holds them: on
    Sphinx 8.2 a title with ``<``, ``>`` or ``&`` is found by the escaped form of those
    characters (``&lt;``), on 9.x by the characters themselves; every other query gives
    the same results on both.
    """
    searchtools = resources.files("sphinx") / "themes" / "basic" / "static" / "searchtools.js"
    try:
        return SEARCHTOOLS_ESCAPES in searchtools.read_text(encoding="utf-8")
    except OSError:
        return False


def language_js() -> str:
    """What the Korean search language writes into language_data.js: the stemmer, and
    the title escape where this Sphinx's searchtools.js needs it."""
    if index_titles_are_text():
        return JS_STEMMER
    return JS_STEMMER + "\n" + JS_ESCAPE_TITLES


KIWI_OPTIONS = {"load_typo_dict": False, "load_multi_dict": False}
# Kiwi's threads in a serial build, whose other core is otherwise idle.
SERIAL_KIWI_THREADS = 2


class KoreanMorphology:
    """Nouns of Korean text by Kiwi, with the glossary's renderings as known words."""

    def __init__(self, user_words: Iterable[str] = (),
                 workers: int | None = SERIAL_KIWI_THREADS):
        """``workers``: threads Kiwi spreads a batch of texts over; None for none (each
        text is analysed in the calling thread). Two for a serial Sphinx build, whose
        other core is otherwise idle; none for a parallel one (:func:`_register`), whose
        main process analyses the pages it indexes while its writer processes keep the
        other core busy."""
        self.workers = workers
        from kiwipiepy import Kiwi  # imported here: a second of model loading

        # Without the typo and multi-word dictionaries: the model loads in half the time
        # (every build with new Korean text loads it), and the nouns of all of the
        # site's text came out the same without them.
        self.kiwi = Kiwi(num_workers=workers, **KIWI_OPTIONS)
        for word in sorted(set(user_words)):
            if HANGUL.search(word) and " " not in word:
                self.kiwi.add_user_word(word, "NNG", 0.0)
        self._nouns = functools.lru_cache(maxsize=65536)(self._analyse)

    def nouns(self, text: str) -> list[str]:
        return self._nouns(text)

    def nouns_of_many(self, texts: list[str]) -> dict[str, list[str]]:
        """The nouns of each text, analysed as one batch (the same as :meth:`nouns` of
        each: Kiwi's batch mode only spreads the texts over its threads; without
        threads, one text after another)."""
        unique = list(dict.fromkeys(texts))
        if self.workers is None:
            return {text: self.nouns(text) for text in unique}
        return {text: _nouns(tokens) for text, tokens in zip(unique, self.kiwi.tokenize(unique))}

    def _analyse(self, text: str) -> list[str]:
        return _nouns(self.kiwi.tokenize(text))


def _nouns(tokens) -> list[str]:
    """The nouns among Kiwi's tokens, and each run of adjacent nouns as one compound
    too (자동 + 미분 -> 자동미분)."""
    words: list[str] = []
    run: list = []

    def flush():
        if len(run) > 1:
            words.append("".join(t.form for t in run))
        run.clear()

    for token in tokens:
        if token.tag in NOUN_TAGS and HANGUL.search(token.form):
            if run and run[-1].start + run[-1].len != token.start:
                flush()
            words.append(token.form)
            run.append(token)
        else:
            flush()
    flush()
    return words


def korean_runs(text: str) -> str:
    """Only the words with Hangul, space-separated: Kiwi is slow on code and English."""
    return " ".join(w for w in _WORD.findall(text) if HANGUL.search(w))


# What the HTML build asked for (set at config-inited, read when the index is built,
# which happens in the main process even in parallel builds).
_SETTINGS: dict = {"morphology": True, "glossary": None, "cache": None,
                   "workers": SERIAL_KIWI_THREADS, "kiwi": None}


class NounCache:
    """Kiwi's nouns of each text, kept between builds (``<doctrees>/jaxko-nouns.json``).

    An incremental build re-indexes every page it writes again; with the nouns of
    unchanged texts on disk, Kiwi (a model load and an analysis per text) runs only
    for texts it has not seen. The entries are valid for one Kiwi version and one
    glossary (its words are Kiwi's user words): the signature says which.
    """

    def __init__(self, path: Path, signature: str) -> None:
        self.path, self.signature = path, signature
        self.nouns: dict[str, list[str]] = {}
        self.changed = False
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("signature") == signature:
                self.nouns = data["nouns"]
        except (OSError, ValueError, KeyError, TypeError):
            pass  # no cache yet, or an unreadable one: start empty

    def save(self) -> None:
        if self.changed:

            write_text_atomic(self.path, json.dumps(
                {"signature": self.signature, "nouns": self.nouns}, ensure_ascii=False))
            self.changed = False


def _signature(glossary: str | None) -> str:
    import hashlib
    from importlib import metadata

    try:
        version = metadata.version("kiwipiepy")
    except metadata.PackageNotFoundError:
        version = "none"
    path = Path(glossary) if glossary else None
    digest = hashlib.sha256(path.read_bytes()).hexdigest() if path and path.is_file() else ""
    options = ",".join(f"{k}={v}" for k, v in sorted(KIWI_OPTIONS.items()))
    return f"kiwipiepy {version} ({options}); glossary {digest}"


@functools.lru_cache(maxsize=4)
def _morphology(glossary: str | None, workers: int | None) -> KoreanMorphology | None:
    try:
        return KoreanMorphology(glossary_words(Path(glossary)) if glossary else (), workers)
    except ImportError:
        logger.warning("kiwipiepy is not installed: Korean search indexes by particle rules "
                       "only (pip install kiwipiepy)", type="jaxko", subtype="search")
        return None


def _serve_kiwi(conn, parents, glossary: str | None, workers: int | None) -> None:
    """The Kiwi process (:class:`KiwiProcess`): load the model, analyse once (Kiwi
    builds its tables on the first analysis, which takes as long as the load), then
    answer each batch of texts with their nouns until the build's end closes the pipe."""
    parents.close()  # inherited by the fork: the end the build holds
    # Nothing waits on this process's output (the build reads its stderr to the end)
    # and it takes only the CPU no one else wants until the build asks it for nouns.
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    try:
        os.nice(10)
    except OSError:
        pass
    morphology = _morphology(glossary, workers)
    if morphology is not None:
        morphology.nouns("가")
    while True:
        try:
            texts = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if morphology is None:
                raise ImportError("kiwipiepy")
            conn.send((True, morphology.nouns_of_many(texts)))
        except Exception as err:  # noqa: BLE001 - the build analyses them itself
            conn.send((False, repr(err)))


class KiwiProcess:
    """Kiwi's nouns, from a process forked when a serial build starts.

    Kiwi takes a second to load its model and about as long again for its first
    analysis, holding the interpreter's lock throughout. A serial build (every rebuild:
    ``jaxko site build`` runs them with ``-j 1``) would pay that when it writes its first
    page with Korean text not seen before: after any edit of a Korean message. Forked
    as soon as Sphinx has read the configuration (``config-inited``: before it loads its
    environment), the process loads Kiwi at a low priority on the other core while
    Sphinx loads and reads; the texts go to it in batches. It runs the same :class:`KoreanMorphology` (same options, same user words),
    so the nouns are the same; if it fails, the build loads Kiwi itself. A parallel
    build (a first build) does not use one: its main process, which indexes every page,
    loads Kiwi and analyses each page's texts itself, while its writer processes keep
    the other core busy (BENCHMARKS.md: a Kiwi process there was slower)."""

    def __init__(self, glossary: str | None, workers: int | None) -> None:
        import multiprocessing

        self.glossary, self.workers = glossary, workers
        context = multiprocessing.get_context("fork")
        self._conn, theirs = context.Pipe()
        # A daemon: an interpreter that exits normally ends it instead of waiting for it.
        self._process = context.Process(target=_serve_kiwi, name="jaxko-kiwi", daemon=True,
                                        args=(theirs, self._conn, glossary, workers))
        self._process.start()
        theirs.close()
        self._owner = os.getpid()
        self._failed = False

    def nouns_of_many(self, texts: list[str]) -> dict[str, list[str]]:
        unique = list(dict.fromkeys(texts))
        if not self._failed:
            try:
                self._conn.send(unique)
                answered, nouns = self._conn.recv()
            except (EOFError, OSError) as err:
                answered, nouns = False, repr(err)
            if answered:
                return nouns
            self._failed = True
            logger.info("jaxko.site.ext.search: the Kiwi process failed (%s); analysing here", nouns)
        local = _morphology(self.glossary, self.workers)
        return local.nouns_of_many(unique) if local is not None else {t: [] for t in unique}

    def nouns(self, text: str) -> list[str]:
        return self.nouns_of_many([text])[text]

    def close(self) -> None:
        """End the process, loaded or not (a build with no new Korean text never asks).
        In a fork of the process that started it (a build of ``jaxko site watch``), only
        this end of the pipe: the process that started it ends it."""
        self._conn.close()
        if os.getpid() != self._owner:
            return
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(timeout=5)


class SearchKorean(SearchLanguage):
    """Sphinx search language ``ko`` (see the module docstring)."""

    lang = "ko"
    language_name = "Korean"
    js_stemmer_code = language_js()
    # The browser skips these query words too, so "배열 및 함수" still finds pages.
    stopwords = frozenset(SearchEnglish.stopwords) | KOREAN_STOPWORDS

    def __init__(self, options: dict) -> None:
        # Sphinx 8 calls init() from here, Sphinx 9 only __init__: both end up here.
        super().__init__(options)
        # Kiwi loads on first use: builders that never index (gettext) never pay for it.
        self._morphology: KoreanMorphology | None | bool = False

    @property
    def morphology(self) -> KoreanMorphology | None:
        if self._morphology is False:
            if not _SETTINGS["morphology"]:
                self._morphology = None
            else:
                self._morphology = _SETTINGS["kiwi"] or _morphology(_SETTINGS["glossary"],
                                                                    _SETTINGS["workers"])
        return self._morphology

    def split(self, input: str) -> list[str]:
        words = self._word_re.findall(input)
        if HANGUL.search(input) and _SETTINGS["morphology"]:
            runs = korean_runs(input)
            cache: NounCache | None = _SETTINGS["cache"]
            nouns = cache.nouns.get(runs) if cache is not None else None
            if nouns is None and self.morphology is not None:
                nouns = self.morphology.nouns(runs)
                if cache is not None:
                    cache.nouns[runs] = nouns
                    cache.changed = True
            words.extend(nouns or [])
        return words

    def prepare(self, texts: Iterable[str]) -> None:
        """Analyse the Korean of a page's texts in one batch before Sphinx splits them
        one by one (:func:`_analyse_page`): :meth:`split` then finds each in the cache."""
        cache: NounCache | None = _SETTINGS["cache"]
        if cache is None:
            return
        todo = [runs for runs in map(korean_runs, texts) if runs and runs not in cache.nouns]
        # Kiwi's model loads only when some text is new (a rebuild of known pages needs none)
        if todo and self.morphology is not None:
            cache.nouns.update(self.morphology.nouns_of_many(todo))
            cache.changed = True

    def stem(self, word: str) -> str:
        return stem(word)

    def word_filter(self, word: str) -> bool:
        return (bool(word) and word.removesuffix(SHORT_MARK) not in KOREAN_STOPWORDS
                and super().word_filter(word))


def glossary_words(path: Path) -> list[str]:
    """Korean renderings from the glossary (empty when it is missing or invalid)."""
    if not path.is_file():
        return []
    try:
        terms = glossary.load(path).terms
    except Exception as err:  # a broken glossary is `jaxko check`'s to report
        logger.info("jaxko.site.ext.search: glossary not used for Kiwi (%s)", err)
        return []
    words = []
    for term in terms:
        words.extend(term.renderings)
    return words


def _register(app, config) -> None:
    from sphinx.search import languages

    # Registered here, not in setup(), so `-D jaxko_korean_search=0` gives Sphinx's own
    # fallback (the benchmark's baseline).
    if not config.jaxko_korean_search:
        if languages.get("ko") is SearchKorean:
            del languages["ko"]
        return
    app.add_search_language(SearchKorean)
    _SETTINGS["morphology"] = bool(config.jaxko_search_morphology)
    _SETTINGS["glossary"] = config.jaxko_glossary_path or None
    _SETTINGS["workers"] = SERIAL_KIWI_THREADS if app.parallel <= 1 else None
    _SETTINGS["cache"] = None
    if _SETTINGS["morphology"]:
        _SETTINGS["cache"] = NounCache(Path(app.doctreedir) / "jaxko-nouns.json",
                                       _signature(_SETTINGS["glossary"]))
    _start_kiwi(app)


# API names that the glossary keeps in English, and the glossary term for what they do:
# a reader who searches for the API finds the page whose Korean title names the concept.
API_CONCEPTS = {
    "vmap": "automatic vectorization",
    "grad": "automatic differentiation",
    "jit": "just-in-time compilation",
}
SCORER = "jaxko-scorer.js"


def title_renderings(path: Path) -> dict[str, list[str]]:
    """Lower-case English term (and its forms, and :data:`API_CONCEPTS`) -> its Korean
    renderings, for the search scorer's title match (empty without a glossary)."""
    if not path.is_file():
        return {}
    try:
        terms = glossary.load(path).terms
    except Exception:  # a broken glossary is reported by the glossary page and `jaxko check`
        return {}
    out: dict[str, list[str]] = {}
    for term in terms:
        if not term.renderings:
            continue
        for english in (term.en, *term.forms):
            out.setdefault(english.lower(), [])
            out[english.lower()] += [r for r in term.renderings if r not in out[english.lower()]]
    for api, concept in API_CONCEPTS.items():
        if concept in out:
            out.setdefault(api, list(out[concept]))
    return out


def scorer_code(renderings: dict[str, list[str]], titles_are_text: bool | None = None) -> str:
    """The scorer script (static/jaxko-scorer.js) with the glossary's renderings.

    ``titles_are_text``: whether searchindex.js holds document titles as plain text
    (Sphinx 9) rather than HTML (8.2); :func:`index_titles_are_text` when None."""
    if titles_are_text is None:
        titles_are_text = index_titles_are_text()
    template = (Path(__file__).parent / "static" / SCORER).read_text(encoding="utf-8")
    data = json.dumps(renderings, ensure_ascii=False, sort_keys=True)
    # JSON inside a script: no "</script>" or line separators can end or break it.
    data = data.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return (template.replace("/*JAXKO_RENDERINGS*/{}", data)
            .replace("/*JAXKO_TITLES_ARE_TEXT*/false", json.dumps(bool(titles_are_text))))


def _install_scorer(app, config) -> None:
    """Title-first ranking (static/jaxko-scorer.js) through Sphinx's ``html_search_scorer``,
    unless conf.py names a scorer of its own or ``jaxko_search_titles`` is off."""
    if not (config.jaxko_korean_search and config.jaxko_search_titles) \
            or config.html_search_scorer:
        return
    target = Path(app.doctreedir) / SCORER
    target.parent.mkdir(parents=True, exist_ok=True)
    glossary_path = Path(config.jaxko_glossary_path) if config.jaxko_glossary_path else None
    write_text_atomic(target, scorer_code(title_renderings(glossary_path) if glossary_path else {}))
    config.html_search_scorer = str(target)


def _start_kiwi(app) -> None:
    """A serial build with Kiwi: load it in a process of its own (:class:`KiwiProcess`),
    started when the configuration is read, so the model loads while Sphinx loads its
    environment and reads. A parallel build analyses in its main process, which
    indexes the pages."""
    from jaxko.forked import can_fork

    _stop_kiwi(app, None)
    korean = str(app.config.language or "")[:2] == SearchKorean.lang
    if korean and _SETTINGS["morphology"] and app.parallel <= 1 and can_fork() \
            and _kiwi_installed():
        _SETTINGS["kiwi"] = KiwiProcess(_SETTINGS["glossary"], _SETTINGS["workers"])


def _not_html(app) -> None:
    """A builder that writes no HTML search index needs no Kiwi."""
    if app.builder.format != "html":
        _stop_kiwi(app, None)


def _kiwi_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("kiwipiepy") is not None


def _stop_kiwi(app, exc) -> None:
    kiwi: KiwiProcess | None = _SETTINGS["kiwi"]
    _SETTINGS["kiwi"] = None
    if kiwi is not None:
        kiwi.close()


def _analyse_page(app, doctree, docname: str) -> None:
    """Before the page is indexed: its Korean texts to Kiwi as one batch."""
    indexer = getattr(app.builder, "indexer", None)
    language = getattr(indexer, "lang", None)
    if not isinstance(language, SearchKorean):
        return
    language.prepare(node.astext() for node in doctree.findall(nodes.Text)
                     if HANGUL.search(node))


def _save_cache(app, exc) -> None:
    cache: NounCache | None = _SETTINGS["cache"]
    if exc is None and cache is not None:
        cache.save()


SCRIPT = "jaxko-search.js"


def _search_page(app, pagename, templatename, context, doctree) -> None:
    """Load the excerpt script on search.html, after searchtools.js (``defer``)."""
    if pagename == "search" and app.config.jaxko_korean_search:
        app.add_js_file(SCRIPT, defer="defer")


def _copy_script(app, exc) -> None:
    if exc is None and app.builder.format == "html" and app.config.jaxko_korean_search:
        from sphinx.util.fileutil import copy_asset_file

        copy_asset_file(Path(__file__).parent / "static" / SCRIPT,
                        Path(app.outdir) / "_static" / SCRIPT, force=True)


def setup(app):
    app.add_config_value("jaxko_korean_search", True, "html", types=[bool])
    app.add_config_value("jaxko_search_morphology", True, "html", types=[bool])
    # "env": another glossary file re-reads the pages (the glossary page depends on
    # the file it read, which a switch to another file does not touch).
    app.add_config_value("jaxko_glossary_path", str(paths.repo_root() / "glossary" / "ko.yaml"),
                         "env", types=[str])
    app.connect("config-inited", _register)
    # A page whose title (or its glossary rendering) matches the query comes first.
    app.add_config_value("jaxko_search_titles", True, "html", types=[bool])
    app.connect("config-inited", _install_scorer)
    app.connect("builder-inited", _not_html)
    app.connect("doctree-resolved", _analyse_page)
    app.connect("build-finished", _stop_kiwi)
    app.connect("build-finished", _save_cache)
    app.connect("html-page-context", _search_page)
    app.connect("build-finished", _copy_script)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
