"""jaxko.site.ext.search.KiwiProcess: a serial build (every rebuild) loads Kiwi in a process
of its own, started by the search extension when Sphinx has read the configuration,
before it reads; the search index is the one Kiwi gives in the build's own process
(real Kiwi, real Sphinx on the site fixture)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from conftest import processes_mentioning
from jaxko.site import build as site_build
from jaxko.site.ext import search
from jaxko.site.state import BuildState
from test_site import SITE, _copy_docs, docs_for, search_index

ROOT = Path(__file__).resolve().parents[1]


def _alone(body: str, *args: str) -> str:
    """``body`` run in a new Python process; what it printed. A Kiwi process is forked,
    and a test runner's worker may run JAX's threads (a fork there could deadlock; the
    build forks one only from a process with one thread)."""
    preamble = (
        "import os, signal, sys\n"
        "import polib\n"
        "from jaxko.site.ext import search\n"
        f"ROOT = {str(ROOT)!r}\n"
        "texts = [search.korean_runs(e.msgstr) for name in ('automatic-differentiation', 'faq')\n"
        "         for e in polib.pofile(f'{ROOT}/locale/ko/LC_MESSAGES/{name}.po') if e.msgstr]\n"
        "texts = [t for t in texts if t][:200]\n")
    done = subprocess.run([sys.executable, "-c", preamble + body, *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


ANALYSED = (
    "import json\n"
    "many = len(texts)\n"
    "kiwi = search.KiwiProcess(None, search.SERIAL_KIWI_THREADS)\n"
    "try:\n"
    "    theirs = kiwi.nouns_of_many(texts)\n"
    "    one = kiwi.nouns(texts[0]) == theirs[texts[0]]\n"
    "finally:\n"
    "    kiwi.close()\n"
    "ended = not kiwi._process.is_alive()\n"
    "# Forked, as the first, before this process loads Kiwi (and starts its threads).\n"
    "died = search.KiwiProcess(None, search.SERIAL_KIWI_THREADS)\n"
    "try:\n"
    "    os.kill(died._process.pid, signal.SIGKILL)\n"
    "    died._process.join(timeout=10)\n"
    "    left = died.nouns_of_many(texts[:40])\n"
    "finally:\n"
    "    died.close()\n"
    "ours = search.KoreanMorphology(workers=search.SERIAL_KIWI_THREADS).nouns_of_many(texts)\n"
    "print(json.dumps({'many': many, 'one': one, 'ended': ended, 'same': theirs == ours,\n"
    "                  'with_nouns': sum(1 for nouns in ours.values() if nouns),\n"
    "                  'left_same': left == {t: ours[t] for t in texts[:40]},\n"
    "                  'failed': died._failed}))\n")


@pytest.fixture(scope="module")
def analysed() -> dict:
    """In one new process: a Kiwi process's nouns of 200 texts of the committed catalogs
    (and of the first one alone), then a Kiwi process killed before it was asked for
    the first 40, then the same texts analysed by Kiwi in this process (the build's own
    KoreanMorphology, with the serial build's threads: the fallback's too). What came
    of each, as JSON."""
    return json.loads(_alone(ANALYSED))


def test_the_process_gives_kiwis_own_nouns(analysed):
    assert analysed["many"] > 50
    assert analysed["one"] and analysed["ended"]
    assert analysed["same"], "nouns differ"
    assert analysed["with_nouns"] > 50


STARTED = (
    "from sphinx.application import Sphinx\n"
    "for src, language, builder, jobs, morphology in zip(*[iter(sys.argv[1:])] * 5):\n"
    "    open(f'{src}/conf.py', 'w').write(\n"
    "        f'extensions = [\"jaxko.site.ext.search\"]\\nlanguage = {language!r}\\n'\n"
    "        f'jaxko_search_morphology = {morphology}\\n'\n"
    "        'from jaxko.site.ext import search\\n'\n"
    "        'def setup(app):\\n'  # after the extension's own config-inited handler\n"
    "        '    app.connect(\"config-inited\", lambda app, config: print(\"at config-inited:\", '\n"
    "        '\"kiwi\" if search._SETTINGS[\"kiwi\"] else \"none\"), priority=900)\\n')\n"
    "    open(f'{src}/index.rst', 'w').write('Title\\n=====\\n')\n"
    "    app = Sphinx(src, src, f'{src}/_out', f'{src}/_doctrees', builder,\n"
    "                 status=None, warning=None, parallel=int(jobs))\n"
    "    kiwi = search._SETTINGS['kiwi']\n"
    "    alive = kiwi is not None and kiwi._process.is_alive()\n"
    "    search._stop_kiwi(app, None)  # as at the end of a build: it ends\n"
    "    assert search._SETTINGS['kiwi'] is None\n"
    "    assert kiwi is None or not kiwi._process.is_alive()\n"
    "    print('builder set up:', 'kiwi' if alive else 'none', flush=True)\n")


CONFIGS = [  # language, builder, jobs, morphology
    ("ko", "html", "1", "True"),     # a serial Korean HTML build: every rebuild
    ("en", "html", "1", "True"),     # no Korean search
    ("ko", "html", "2", "True"),     # parallel: its main process analyses
    ("ko", "html", "1", "False"),    # morphology off
    ("ko", "gettext", "1", "True"),  # no search index: the one started ends
]


@pytest.fixture(scope="module")
def started(tmp_path_factory) -> dict[tuple, list[str]]:
    """What STARTED printed for each of CONFIGS, one Sphinx application after another in
    one new process (each ends its Kiwi process, as a build's end does, before the next
    starts): the two lines of each configuration."""
    args = []
    for number, config in enumerate(CONFIGS):
        src = tmp_path_factory.mktemp(f"started{number}")
        args += [str(src), *config]
    lines = _alone(STARTED, *args).splitlines()
    assert len(lines) == 2 * len(CONFIGS), lines
    return {config: lines[2 * n: 2 * n + 2] for n, config in enumerate(CONFIGS)}


@pytest.mark.parametrize("language, builder, jobs, morphology, at_config, at_builder", [
    (*CONFIGS[0], "kiwi", "kiwi"),
    (*CONFIGS[1], "none", "none"),
    (*CONFIGS[2], "none", "none"),
    (*CONFIGS[3], "none", "none"),
    (*CONFIGS[4], "kiwi", "none"),
])
def test_the_search_extension_starts_kiwi_when_the_config_is_read(
        started, language, builder, jobs, morphology, at_config, at_builder):
    """The extension alone decides, from the configuration Sphinx read (the driver only
    passes -D settings), and starts the process before Sphinx loads its environment and
    sets up the builder."""
    assert started[(language, builder, jobs, morphology)] == [
        f"at config-inited: {at_config}", f"builder set up: {at_builder}"]


def test_a_process_that_died_leaves_the_nouns_to_the_build(analysed):
    assert analysed["failed"]  # it found the process gone and analysed here
    assert analysed["left_same"]


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """The site fixture built serially (as every rebuild is) and in parallel."""
    tmp = tmp_path_factory.mktemp("kiwi-process")
    built = {}
    for name, jobs in (("serial", "1"), ("parallel", "3")):
        built[name] = site_build.build(
            execute=False, srcdir=_copy_docs(tmp / name), outdir=tmp / name / "html",
            locale_dir=SITE / "locale", glossary=SITE / "glossary.yaml", jobs=jobs)
    return tmp, built


def test_a_serial_build_indexes_with_kiwi_outside_sphinx(builds):
    tmp, built = builds
    serial, parallel = built["serial"], built["parallel"]
    ours = search_index(serial)
    # A noun only Kiwi finds (inside 예측값): Kiwi analysed this build's text...
    assert "mystnb" in docs_for(ours, search.stem("예측"))
    # ... and not in Sphinx's process, which lists every module it imported.
    listed = (BuildState(serial.outdir).folder / "sphinx-modules.txt").read_text(
        encoding="utf-8").split()
    assert "sphinx.application" in listed
    assert not [name for name in listed if name.startswith("kiwipiepy")]
    # The index is the one of a build that analyses in its own processes.
    assert ours == search_index(parallel)
    assert (serial.outdir / "searchindex.js").read_bytes() == \
        (parallel.outdir / "searchindex.js").read_bytes()
    # Nothing of the build is left running: the Sphinx process and its Kiwi process
    # (whose command lines name the build's kept state) have ended.
    assert processes_mentioning(str(tmp / "serial")) == []


def test_a_rebuild_with_new_text_indexes_it(builds, tmp_path):
    """A rebuild (a Sphinx process that starts Kiwi's before it reads) indexes the new
    text of an edited message the same as a fresh build of the edited catalogs does."""
    tmp, built = builds
    locale = tmp_path / "locale"
    shutil.copytree(SITE / "locale", locale)
    path = locale / "ko" / "LC_MESSAGES" / "guide.po"
    catalog = polib.pofile(str(path))
    # A paragraph (the first message is the page's title, which other pages show too)
    entry = [e for e in catalog if e.msgstr and not e.obsolete][1]
    entry.msgstr += " 고양이자동차를 봅니다."
    catalog.save(str(path))
    outdir = tmp / "serial" / "html"
    rebuilt = site_build.build(execute=False, srcdir=tmp / "serial" / "docs", outdir=outdir,
                               locale_dir=locale, glossary=SITE / "glossary.yaml", jobs="1")
    fresh = site_build.build(execute=False, srcdir=_copy_docs(tmp_path / "fresh"),
                             outdir=tmp_path / "fresh" / "html", locale_dir=locale,
                             glossary=SITE / "glossary.yaml", jobs="3")
    ours = search_index(rebuilt)
    # Kiwi's nouns of the new text (inside 고양이자동차를)
    assert "guide" in docs_for(ours, search.stem("고양이"))
    assert "guide" in docs_for(ours, search.stem("자동차"))
    assert ours == search_index(fresh)
    listed = (BuildState(outdir).folder / "sphinx-modules.txt").read_text(
        encoding="utf-8").split()
    assert not [name for name in listed if name.startswith("kiwipiepy")]
    assert processes_mentioning(str(tmp / "serial")) == []
