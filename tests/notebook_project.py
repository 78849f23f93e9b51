"""The notebooks tests' project: the fixture notebooks and a writable copy of their catalogs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from jaxko.notebooks import build

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "notebooks"
DOCS = FIXTURES / "docs"


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A project root with a writable copy of the fixture catalogs."""
    shutil.copytree(FIXTURES / "locale", tmp_path / "locale")
    monkeypatch.setenv("JAXKO_ROOT", str(tmp_path))
    return tmp_path


def build_fixture_notebooks(project: Path, **kwargs) -> build.BuildSummary:
    """Build the Korean fixture notebooks into the project's _build."""
    return build.build(srcdir=DOCS, locale_dir=project / "locale",
                       out_dir=project / "_build" / "notebooks" / "ko", **kwargs)
