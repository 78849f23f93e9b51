"""The explicit section map agrees with the pinned upstream's toctrees."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from jaxko.workflow import sections

from conftest import ROOT

CATALOGS = ROOT / "locale" / "ko" / "LC_MESSAGES"

# Section root documents: everything their toctrees reach belongs to that section.
ROOTS = {
    "jax-101": "jax-101",
    "advanced_guides": "advanced-guides",
    "jep/index": "jep",
    "pallas/index": "pallas",
    "extensions": "extensions-notes",
    "notes": "extensions-notes",
    "contributor_guide": "contributor",
}

_RST_TOCTREE = re.compile(r"^(\s*)\.\. toctree::")
_MYST_TOCTREE = re.compile(r"^\s*(```+|:::+)\{toctree\}")


def toctree_entries(docs: Path, docname: str) -> list[str]:
    """Docnames listed by the toctrees of one document (rst or MyST)."""
    for suffix in (".rst", ".md"):
        path = docs / f"{docname}{suffix}"
        if path.is_file():
            break
    else:
        return []  # notebooks list no toctrees in this upstream
    lines = path.read_text(encoding="utf-8").splitlines()
    raw: list[str] = []
    i = 0
    while i < len(lines):
        rst = _RST_TOCTREE.match(lines[i])
        myst = _MYST_TOCTREE.match(lines[i])
        i += 1
        if rst:
            indent = len(rst.group(1))
            while i < len(lines) and (not lines[i].strip() or
                                      len(lines[i]) - len(lines[i].lstrip()) > indent):
                raw.append(lines[i].strip())
                i += 1
        elif myst:
            fence = myst.group(1)
            while i < len(lines) and not lines[i].strip().startswith(fence):
                raw.append(lines[i].strip())
                i += 1
    entries = []
    base = PurePosixPath(docname).parent
    for item in raw:
        if not item or item.startswith(":") or item == "self" or "://" in item:
            continue
        target = re.search(r"<([^<>]+)>$", item)
        name = target.group(1) if target else item
        parts = []
        for part in (base / name).parts:
            if part == "..":
                parts.pop()
            elif part != ".":
                parts.append(part)
        entries.append("/".join(parts))
    return entries


def test_every_catalog_has_a_section():
    names = [p.relative_to(CATALOGS).with_suffix("").as_posix() for p in CATALOGS.rglob("*.po")]
    names = [n for n in names if n != "sphinx"]   # Sphinx's own messages, not a document
    assert len(names) >= 140
    unmapped = [n for n in names if sections.section_of(n) is sections.OTHER]
    assert unmapped == []


def test_map_follows_upstream_toctrees(shared_upstream):
    docs = shared_upstream / "docs"
    have_catalog = {p.relative_to(CATALOGS).with_suffix("").as_posix() for p in CATALOGS.rglob("*.po")}
    mismatches = []
    for root, key in ROOTS.items():
        seen, todo = set(), [root]
        while todo:
            docname = todo.pop()
            if docname in seen:
                continue
            seen.add(docname)
            if docname in have_catalog and sections.section_of(docname).key != key:
                mismatches.append((root, docname, sections.section_of(docname).key))
            for child in toctree_entries(docs, docname):
                if child not in ROOTS and child != "index":
                    todo.append(child)
        assert len(seen) > 1 or root == "jep/index", root
    assert mismatches == []


def test_getting_started_follows_index(shared_upstream):
    entries = toctree_entries(shared_upstream / "docs", "index")
    assert entries[:3] == ["installation", "notebooks/thinking_in_jax", "notebooks/Common_Gotchas_in_JAX"]
    for name in ("index", *entries[:3]):
        assert sections.section_of(name).key == "getting-started"
