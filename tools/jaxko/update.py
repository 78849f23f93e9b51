"""Stage 2b: update locale/<lang>/LC_MESSAGES from the .pot files, losing nothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from jaxko import catalogs as cat, paths
from jaxko.errors import Interrupted, UserError


@dataclass
class UpdateSummary:
    catalogs: int = 0
    created: int = 0
    changed: int = 0
    orphaned: list[str] = field(default_factory=list)
    totals: cat.MergeStats = field(default_factory=cat.MergeStats)

    def as_dict(self) -> dict:
        t = self.totals
        return {
            "catalogs": self.catalogs, "created": self.created, "changed": self.changed,
            "entries": t.entries, "new": t.new, "translated_kept": t.kept,
            "now_fuzzy": t.fuzzy, "revived": t.revived, "obsolete": t.obsolete,
            "orphaned_catalogs": self.orphaned,
        }


def update(*, pot_dir: Path | None = None, locale_dir: Path | None = None, language: str = "ko",
           srcdir: Path | None = None, root: Path | None = None, progress: bool = True) -> UpdateSummary:
    """Create or merge one .po per .pot; report what happened."""
    root = root or paths.repo_root()
    pot_dir = pot_dir or paths.gettext_dir(root)
    out_dir = (locale_dir or paths.locale_dir(root)) / language / "LC_MESSAGES"
    srcdir = srcdir or paths.staged_docs(root)
    pots = sorted(pot_dir.rglob("*.pot"))
    if not pots:
        raise UserError("no .pot files; run `jaxko extract` (make gettext) first", pot_dir)
    summary = UpdateSummary()
    seen: set[Path] = set()
    # Two phases: every catalog is merged in memory first (the slow part; Ctrl-C there
    # leaves every catalog as it was), then all are written; an interruption while
    # writing names exactly the catalogs already written.
    pending: list[tuple[Path, str]] = []
    for pot_path in tqdm(pots, desc="update-po", unit="catalog", disable=not progress, leave=False):
        rel = pot_path.relative_to(pot_dir).with_suffix(".po")
        po_path = out_dir / rel
        seen.add(po_path)
        pot = cat.load(pot_path)
        if po_path.exists():
            po = cat.load(po_path)
            merged, stats = cat.merge(po, pot, pot_dir=pot_dir, srcdir=srcdir)
            if not merged.metadata:  # an emptied or headerless catalog gets its header back
                cat.give_header(merged, pot, language)
        else:
            merged = cat.new_catalog(pot, language, pot_dir=pot_dir, srcdir=srcdir)
            stats = cat.MergeStats(entries=len(merged), new=len(merged))
            summary.created += 1
        pending.append((po_path, cat.render(merged)))
        summary.catalogs += 1
        summary.totals.add(stats)
    written: list[Path] = []
    try:
        for po_path, text in pending:
            if cat.write_text_atomic(po_path, text):
                written.append(po_path)
                summary.changed += 1
    except KeyboardInterrupt:
        names = ", ".join(p.relative_to(out_dir).as_posix() for p in written) or "none"
        raise Interrupted(f"interrupted while writing: {len(written)} of {len(pending)} "
                          f"catalogs written ({names}); the others are as they were; run "
                          "`jaxko update` again to finish", out_dir) from None
    if out_dir.is_dir():
        summary.orphaned = sorted(p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*.po")
                                  if p.is_file() and p not in seen and p.name != "sphinx.po")
    return summary
