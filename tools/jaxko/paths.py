"""Where things live: the repository root and the build tree."""

from __future__ import annotations

import os
from pathlib import Path


def repo_root() -> Path:
    """The project root: $JAXKO_ROOT, else the nearest parent holding upstream.toml."""
    env = os.environ.get("JAXKO_ROOT")
    if env:
        return Path(env).resolve()
    here = Path.cwd().resolve()
    for candidate in (here, *here.parents):
        if (candidate / "upstream.toml").is_file():
            return candidate
    # Installed in development mode: tools/jaxko/paths.py -> repository root.
    source_root = Path(__file__).resolve().parents[2]
    if (source_root / "upstream.toml").is_file():
        return source_root
    return here


def build_dir(root: Path | None = None) -> Path:
    return (root or repo_root()) / "_build"


def staged_docs(root: Path | None = None) -> Path:
    """The staged upstream docs tree that Sphinx reads."""
    return build_dir(root) / "upstream" / "docs"


def gettext_dir(root: Path | None = None) -> Path:
    return build_dir(root) / "gettext"


def locale_dir(root: Path | None = None) -> Path:
    return (root or repo_root()) / "locale"


def catalogs_dir(root: Path | None = None, language: str = "ko") -> Path:
    return locale_dir(root) / language / "LC_MESSAGES"
