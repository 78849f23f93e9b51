"""Stage 4: build the Korean site (``jaxko site build``, ``make html``).

``sphinx-build -b html -D language=ko`` over the staged upstream with the root conf.py
and ``locale/`` (Sphinx compiles each changed ``.po`` into a ``.mo`` itself). Notebook
outputs come from real execution through MyST-NB's cache (``JAXKO_EXECUTE=cache``,
cache under ``_build/jupyter_cache``): a rebuild with unchanged code executes nothing,
and the notebooks in ``scope.EXECUTION_EXCLUDES`` keep their stored outputs.
``execute=False`` renders stored outputs only (fast; development and tests).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from jaxko import paths
from jaxko.errors import UserError
from jaxko.extract import accepted_reason, run_sphinx, sphinx_env
from jaxko.site import gate as site_gate

# Warnings of Sphinx's i18n step: a translated message whose references differ from
# the original's, or a msgstr that failed to parse (its location ends in <translated>).
_I18N = re.compile(r"inconsistent .*references in translated message|<translated>")


def is_i18n_warning(line: str) -> bool:
    return bool(_I18N.search(line))


@dataclass
class SiteResult:
    outdir: Path
    language: str
    seconds: float
    pages: int
    warnings: list[str] = field(default_factory=list)
    notebooks: int = 0            # Korean notebooks written for download
    notebook_errors: list[str] = field(default_factory=list)
    blocked: list = field(default_factory=list)  # site_gate.Blocked: kept off the site

    @property
    def i18n_warnings(self) -> list[str]:
        return [w for w in self.warnings if is_i18n_warning(w)]

    @property
    def unexpected(self) -> list[str]:
        return [w for w in self.warnings if accepted_reason(w) is None]


def check_inputs(locale_dir: Path, language: str, assignments: Path | None) -> None:
    """Fail early, with one line, on inputs the banners and progress page read."""
    from jaxko.workflow import stats

    if language == "en":
        return
    catalogs = locale_dir / language / "LC_MESSAGES"
    if not catalogs.is_dir():
        raise UserError(f"no {language} catalogs here; run `jaxko update` or pass --locale-dir",
                        catalogs)
    stats.document_stats(locale_dir, language, assignments_path=assignments)


def build(*, execute: bool = True, language: str = "ko", scope: str = "narrative",
          root: Path | None = None, srcdir: Path | None = None, outdir: Path | None = None,
          locale_dir: Path | None = None, glossary: Path | None = None,
          assignments: Path | None = None, jobs: str = "1", notebooks: bool = False,
          overrides: dict[str, str] | None = None) -> SiteResult:
    """Build the site into ``outdir`` (default ``_build/html``; ``_build/html-en`` for en)."""
    root = root or paths.repo_root()
    srcdir = (srcdir or paths.staged_docs(root)).resolve()
    if not (srcdir / "index.rst").is_file() and not any(srcdir.glob("index.*")):
        raise UserError("no staged docs here; run `jaxko upstream sync` (make upstream) first",
                        srcdir)
    default_out = "html" if language == "ko" else f"html-{language}"
    outdir = (outdir or paths.build_dir(root) / default_out).resolve()
    locale_dir = (locale_dir or paths.locale_dir(root)).resolve()
    check_inputs(locale_dir, language, assignments)
    defines = {"language": language, "locale_dirs": str(locale_dir)}
    if glossary is not None:
        if not glossary.is_file():
            raise UserError("glossary not found", glossary)
        defines["jaxko_glossary_path"] = str(glossary.resolve())
    if assignments is not None:
        defines["jaxko_assignments_path"] = str(assignments.resolve())
    if language != "en":
        # The security gate: Sphinx reads a copy of the catalogs without the messages the
        # safety rules refuse (jaxko.site.gate); the build reports each one.
        gate = site_gate.gate_catalogs(locale_dir, language,
                                       outdir.with_name(outdir.name + "-locale"), srcdir)
        gate_blocked = gate.blocked
        locale_dir = gate.locale_dir
        defines["locale_dirs"] = str(locale_dir)
    else:
        gate_blocked = []
    notebook_summary = None
    if notebooks and language != "en":
        # The downloads: Korean notebooks from the same catalogs (no execution here).
        from jaxko.notebooks import build as notebooks_build

        notebook_summary = notebooks_build.build(srcdir=srcdir, locale_dir=locale_dir,
                                                 language=language)
        defines["jaxko_notebooks_dir"] = str(notebook_summary.out_dir)
    defines.update(overrides or {})
    extra = [arg for key, value in defines.items() for arg in ("-D", f"{key}={value}")]
    env = sphinx_env(scope, "cache" if execute else "off", srcdir)
    start = time.perf_counter()
    status, warnings = run_sphinx("html", srcdir, outdir, confdir=root, env=env, extra=extra,
                                  jobs=jobs)
    seconds = time.perf_counter() - start
    if status != 0:
        raise UserError(f"sphinx-build -b html failed (exit {status}); see the messages above",
                        srcdir)
    pages = sum(1 for _ in outdir.rglob("*.html"))
    result = SiteResult(outdir, language, seconds, pages, warnings, blocked=gate_blocked)
    if notebook_summary is not None:
        result.notebooks = sum(1 for _ in notebook_summary.out_dir.rglob("*.ipynb"))
        result.notebook_errors = [e.format() for e in notebook_summary.errors]
    return result
