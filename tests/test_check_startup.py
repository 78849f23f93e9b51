"""`jaxko check FILE` starts cheaply (issue 43): the glossary, once parsed, is read from
the cache by content, so a check on every save imports neither PyYAML nor the parsers
of settings it has none of. What the user sees stays the same: an edited glossary is
read again, a damaged cache file is parsed again. (Speed itself is measured in
benchmarks/bench_check_one.py, never asserted here.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HEADER = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
          '"Language: ko\\n"\n\n')
CATALOG = HEADER + '#: page.md:3\nmsgid "The convolution is fast."\nmsgstr "컨볼루션은 빠릅니다."\n'


def setup(tmp_path: Path, forbidden: bool = True) -> tuple[Path, Path]:
    catalog = tmp_path / "page.po"
    catalog.write_text(CATALOG, encoding="utf-8")
    glossary = tmp_path / "glossary.yaml"
    glossary.write_text("terms:\n  - en: convolution\n    ko: 합성곱\n"
                        + ("    forbidden: [컨볼루션]\n" if forbidden else ""), encoding="utf-8")
    return catalog, glossary


def _run(catalog: Path, glossary: Path, cache: Path, *extra: str):
    """The real CLI in a subprocess, with its imports listed (``-X importtime``)."""
    env = dict(os.environ, JAXKO_CACHE_DIR=str(cache))
    # The source docs named, as an editor's hook would: without them a checkout that has
    # not staged the upstream reads the pin (tomllib) to find the offline copy.
    sources = catalog.parent / "docs"
    sources.mkdir(exist_ok=True)
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "jaxko", "check",
                           str(catalog), "--glossary", str(glossary), "--format", "json",
                           "--source-dir", str(sources), *extra],
                          env=env, capture_output=True, text=True, cwd=catalog.parent)


def imported(proc) -> set[str]:
    """Top-level packages the run imported (``-X importtime``)."""
    return {line.split("|")[-1].strip().split(".")[0] for line in proc.stderr.splitlines()
            if line.startswith("import time:")}


def rules(proc) -> list[str]:
    return [f["rule"] for f in json.loads(proc.stdout)["findings"]]


def test_a_cached_glossary_spares_pyyaml(tmp_path):
    catalog, glossary = setup(tmp_path)
    cache = tmp_path / "cache"
    first = _run(catalog, glossary, cache)
    assert "yaml" in imported(first)          # parsed once, and kept
    assert rules(first) == ["glossary.forbidden"]
    catalog.write_text(CATALOG.replace("빠릅니다", "매우 빠릅니다"), encoding="utf-8")  # a save
    second = _run(catalog, glossary, cache)
    assert "yaml" not in imported(second) and "tomllib" not in imported(second)
    assert rules(second) == ["glossary.forbidden"]


def test_an_edited_glossary_is_read_again(tmp_path):
    catalog, glossary = setup(tmp_path)
    cache = tmp_path / "cache"
    assert rules(_run(catalog, glossary, cache)) == ["glossary.forbidden"]
    setup(tmp_path, forbidden=False)
    catalog.write_text(CATALOG.replace("빠릅니다", "매우 빠릅니다"), encoding="utf-8")
    after = _run(catalog, glossary, cache)
    assert "glossary.forbidden" not in rules(after)


def test_a_damaged_glossary_cache_is_parsed_again(tmp_path):
    catalog, glossary = setup(tmp_path)
    cache = tmp_path / "cache"
    _run(catalog, glossary, cache)
    stored = list((cache / "glossary").glob("*.json"))
    assert len(stored) == 1
    stored[0].write_text('[{"en": 1, "bogus": true}]', encoding="utf-8")
    catalog.write_text(CATALOG.replace("빠릅니다", "매우 빠릅니다"), encoding="utf-8")
    again = _run(catalog, glossary, cache)
    assert again.returncode == 1 and rules(again) == ["glossary.forbidden"]
    assert "yaml" in imported(again)


def test_no_cache_leaves_no_glossary_cache(tmp_path):
    catalog, glossary = setup(tmp_path)
    cache = tmp_path / "cache"
    assert rules(_run(catalog, glossary, cache, "--no-cache")) == ["glossary.forbidden"]
    assert not (cache / "glossary").exists()
