"""What a site build keeps between runs, and the rule that no checkout may supply it.

An incremental build trusts files of its earlier runs: Sphinx's pickled environment
(``<outdir's parent>/.doctrees/``), the gated catalogs (``<outdir>-locale/``) and the
records of this package (``<outdir's parent>/.jaxko-state/<outdir name>/``: the stats of
unchanged documents, the gate's verdicts on unchanged catalogs, the audit of unchanged
pages). Each record is keyed by the SHA-256 of what it was computed from, so a changed
catalog, review file or page is always read again.

What such a key cannot stop is a record that was never computed here: a pull request
that adds files under ``_build/`` (``git add -f`` ignores ``.gitignore``) would hand the
build a pickle to load or a verdict to trust. So the build stops when git tracks
anything there (:func:`jaxko.memo.refuse_tracked`); a fresh clone then
starts from nothing, as CI does.
"""

from __future__ import annotations

from pathlib import Path

from jaxko import paths
from jaxko.extract import doctrees_dir

FOLDER = ".jaxko-state"


class BuildState:
    """The files one output folder's builds keep (see the module's text)."""

    def __init__(self, outdir: Path) -> None:
        self.outdir = outdir
        self.folder = outdir.parent / FOLDER / outdir.name

    def file(self, name: str) -> Path:
        return self.folder / f"{name}.json"

    @property
    def doctrees(self) -> Path:
        return doctrees_dir(self.outdir)

    @property
    def gated(self) -> Path:
        return self.outdir.with_name(self.outdir.name + "-locale")

    def trusted(self, root: Path) -> list[Path]:
        """Every folder whose contents a build reads back."""
        return [paths.build_dir(root), root / ".jaxko_cache", self.folder, self.doctrees,
                self.gated]
