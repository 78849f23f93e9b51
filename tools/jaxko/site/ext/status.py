"""Per-page translation status: progress, credits, the English original, downloads.

Every page with a catalog gets a small banner above its content: how much of the page
is translated (from its catalog, as ``jaxko stats`` counts it; fuzzy messages show in
English, so they do not count), a link to the same page in upstream's English docs,
the translators from ``locale/ko/assignments.yaml`` and the review state from the
review records (``locale/ko/reviews/``, ``jaxko review``) in the three levels of
:class:`jaxko.workflow.review.Level` (사람 검수, AI 검토만, 검수 전): 검수 완료 only when
every translated message has a current approval by a person; an AI pass is named as
one. Credits name each reviewer under the label of their kind (검수, 역자 본인 검수,
AI 검토); reviewers assigned but without records are shown as 검수 예정. Below 100% it
says the untranslated parts are shown in English.

Notebook pages also offer the Korean notebook (``jaxko notebooks build`` writes them
to ``_build/notebooks/ko/<docname>.ipynb``; copied to ``_downloads/ko/``) and, when the
site is published from a GitHub repository (``jaxko_github_repo``), an "open in Colab"
link to that copy on the Pages branch, and say how ``jaxko notebooks verify`` ran the
Korean notebook (``jaxko_notebook_runs``, written by ``jaxko site build``): passed on
this platform, passed in interpret mode (Pallas's interpreter on CPU: never presented
as a run on the TPU or GPU the page is written for; the page keeps upstream's stored
outputs), or not run, with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import weakref
from html import escape
from pathlib import Path

from sphinx.util import logging

from jaxko.workflow.review import Kind, Level
from jaxko import paths
from jaxko.errors import UserError
from jaxko.workflow import stats

logger = logging.getLogger(__name__)

DOWNLOADS = "_downloads/ko"

# What one build (one Sphinx application) has loaded: its pages' stats, from
# builder-inited, and its notebook runs, read once. Kept here, not on Sphinx's objects;
# a forked reader or writer process sees its parent's.
_LOADED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
COLAB = "https://colab.research.google.com/github/{repo}/blob/{branch}/{path}"


def locale_dir(app) -> Path:
    dirs = app.config.locale_dirs or ["locales"]
    return (Path(app.srcdir) / dirs[0]).resolve()


def load_stats(app) -> dict:
    """docname -> jaxko.workflow.stats.DocumentStats. A catalog, assignments file or
    review record that does not read stops the build with its one-line message (the
    pages never show without their banners instead)."""
    from sphinx.errors import ExtensionError

    assignments = app.config.jaxko_assignments_path or None
    cache = app.config.jaxko_stats_cache or None
    try:
        return stats.document_stats(locale_dir(app), app.config.language,
                                    assignments_path=Path(assignments) if assignments else None,
                                    cache=Path(cache) if cache else None)
    except UserError as err:
        raise ExtensionError(f"translation status: {err.format()}") from None


def percent_text(value: float) -> str:
    """99.6 -> '99%' (a partial page never shows 100%, a started one never 0%)."""
    if 0 < value < 1:
        return "1% 미만"
    return f"{int(value)}%"


def korean_notebook(app, docname: str) -> Path | None:
    """The built Korean notebook of a page, if ``jaxko notebooks build`` made one."""
    folder = app.config.jaxko_notebooks_dir
    if not folder:
        return None
    path = Path(folder) / f"{docname}.ipynb"
    return path if path.is_file() else None


def is_notebook_page(app, docname: str) -> bool:
    return docname in getattr(app.env, "nb_metadata", {}) or \
        app.env.doc2path(docname).suffix == ".ipynb"


def notebook_runs(app) -> dict:
    """docname -> {"status", "mode", "platform", "error", "known_errors": cells} of the
    last verify (the site build writes them, :func:`jaxko.site.build.write_notebook_runs`);
    {} without one."""
    loaded = _LOADED.setdefault(app, {})
    if "runs" in loaded:
        return loaded["runs"]
    path = app.config.jaxko_notebook_runs
    runs = {}
    if path:
        try:
            runs = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            runs = {}
    loaded["runs"] = runs if isinstance(runs, dict) else {}
    return loaded["runs"]


def run_text(run: dict | None) -> tuple[str, str]:
    """(state, line) of how verify ran a page's Korean notebook; ("", "") without a run."""
    if not run:
        return "", ""
    status, mode = run.get("status"), run.get("mode")
    where = "GPU" if run.get("platform") == "gpu" else "CPU"
    if status in ("passed", "cached") and mode == "interpret":
        return "interpret", ("실행 확인: 인터프리트 모드로 통과. 한국어 노트북의 Pallas 커널을 "
                             "CPU에서 Pallas 인터프리터로 해석해 실행했습니다. TPU나 GPU 하드웨어에서 "
                             "실행한 결과가 아니므로, 아래 출력은 원문에 저장된 출력입니다.")
    known = [cell for cell in run.get("known_errors") or () if isinstance(cell, int)]
    if status in ("passed", "cached") and known:
        cells = ", ".join(str(cell) for cell in known)
        return "passed", (f"실행 확인: 한국어 노트북의 모든 코드 셀이 {where}에서 실행되었습니다. "
                          f"다만 셀 {len(known)}개({cells}번째 셀)는 원문 코드가 지금의 라이브러리에서 "
                          "내는 오류를 그대로 냅니다(영어 원문 노트북도 같습니다). 아래 그 셀의 출력은 "
                          "그 오류입니다.")
    if status in ("passed", "cached"):
        return "passed", f"실행 확인: 한국어 노트북의 모든 코드 셀이 {where}에서 실행되었습니다."
    if status == "skipped":
        return "skipped", f"실행 확인: 실행하지 않았습니다({run.get('error', '')})."
    return "", ""


DUE_TEXT = ("실행 확인: 마지막 실행 뒤 코드 셀의 번역이 바뀌어, 아래 출력은 원문에 저장된 "
            "출력입니다. make html이 이 노트북을 다시 실행합니다.")


def page_run_text(app, docname: str) -> tuple[str, str]:
    """:func:`run_text` of the page's last Korean run, or ("due", ...) when the page shows
    stored outputs because that run ran other code (``jaxko_due_runs``, kept by
    jaxko.site.ext.korean_outputs while the page is read)."""
    if docname in getattr(app.env, "jaxko_due_runs", ()):
        return "due", DUE_TEXT
    return run_text(notebook_runs(app).get(docname))


def missing_text(files: list[str]) -> str:
    """The banner's line for a page that lacks files of the staged upstream."""
    shown = ", ".join(files[:3]) + (f" 외 {len(files) - 3}개" if len(files) > 3 else "")
    return (f"이 페이지의 일부(코드나 대화형 요소)는 원본 파일 {len(files)}개({shown})가 이 "
            "사이트의 원본 사본에 없어 빠져 있습니다. 빠진 자리마다 안내가 있으며, 영어 원문 "
            "페이지에서 볼 수 있습니다.")


def banner_html(app, pagename: str, item, pathto, missing: list[str] = ()) -> str:
    """The banner of one page (``item``: its DocumentStats; ``missing``: the files of
    the staged upstream it lacks, jaxko.site.ext.holes)."""
    upstream = app.config.jaxko_upstream_docs_url.rstrip("/") + f"/{pagename}.html"
    counts = item.counts
    percent = item.percent
    if counts.messages and counts.translated == counts.messages:
        state, line = "complete", "이 문서는 모두 번역되었습니다."
    elif counts.translated == 0:
        state, line = "none", "이 문서는 아직 번역되지 않아 영어 원문으로 표시됩니다."
    else:
        state = "partial"
        line = (f"이 문서는 {percent_text(percent)} 번역되었습니다"
                f"(메시지 {counts.messages}개 중 {counts.translated}개). "
                "아직 번역되지 않은 부분은 영어 원문으로 표시됩니다.")
    parts = [f'<div class="jaxko-status jaxko-status-{state}" role="note" '
             f'data-translated="{counts.translated}" data-total="{counts.messages}">',
             '<p class="jaxko-status-line">'
             f'<span class="jaxko-status-badge">번역 {percent_text(percent)}</span> '
             f'{escape(line)} '
             f'<a class="jaxko-upstream-link" href="{escape(upstream)}" hreflang="en">'
             '영어 원문 보기</a></p>']
    if missing:
        parts.append(f'<p class="jaxko-missing-note">{escape(missing_text(list(missing)))}</p>')
    head = len(parts)  # the lines below fold behind a toggle on a phone (jaxko-site.css)
    review_state, review_line = review_text(item)
    if review_state != "untranslated":
        r = item.review
        levels = " · ".join(f"{level.label} {r.count(level)}개" for level in _LEVELS)
        parts.append(f'<p class="jaxko-review jaxko-review-{review_state}" '
                     + " ".join(f'data-{level.key.replace("_", "-")}="{r.count(level)}"'
                                for level in _LEVELS)
                     + f'>{escape(review_line)} <span class="jaxko-review-levels">'
                     f'({escape(levels)})</span></p>')
    credits = credit_parts(item)
    if credits:
        parts.append(f'<p class="jaxko-credits">{" · ".join(escape(c) for c in credits)}</p>')
    notebook = korean_notebook(app, pagename) if is_notebook_page(app, pagename) else None
    if notebook is not None:
        target = f"{DOWNLOADS}/{pagename}.ipynb"
        links = [f'<a class="jaxko-download" href="{escape(pathto(target, 1))}" download>'
                 '한국어 노트북 내려받기(.ipynb)</a>']
        repo = app.config.jaxko_github_repo
        if repo:
            colab = COLAB.format(repo=repo, branch=app.config.jaxko_pages_branch, path=target)
            links.append(f'<a class="jaxko-colab" href="{escape(colab)}">Colab에서 열기</a>')
        parts.append(f'<p class="jaxko-notebook-links">{" · ".join(links)}</p>')
    if is_notebook_page(app, pagename):
        run = notebook_runs(app).get(pagename) or {}
        state, line = page_run_text(app, pagename)
        if line:
            parts.append(f'<p class="jaxko-notebook-run jaxko-notebook-run-{state}" '
                         f'data-mode="{escape(str(run.get("mode") or ""))}">{escape(line)}</p>')
    if len(parts) > head:
        parts.insert(head, '<input type="checkbox" id="jaxko-status-more" '
                           'class="jaxko-status-toggle">'
                           '<label for="jaxko-status-more" class="jaxko-status-toggle-label">'
                           '검수·역자·실행 정보 보기</label><div class="jaxko-status-more">')
        parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)


_LEVELS = list(reversed(Level))   # person, AI pass only, not reviewed


def translator_credit(item) -> str:
    """``번역: NAME, NAME`` from assignments.yaml ("" when nobody is assigned); the
    banner of every page and the progress page show this one text."""
    return "번역: " + ", ".join(item.translators) if item.translators else ""


def review_credits(item) -> list[str]:
    """``검수: A`` / ``역자 본인 검수: B`` / ``AI 검토: C``: who has current approvals on
    the page, under the label of their kind (one label per kind, every surface), then
    the reviewers assigned who have recorded nothing yet (``검수 예정``; none once a
    person reviewed every message: an assigned AI with no current pass is no 검수)."""
    found = []
    for kind in Kind:
        names = [c.name for c in item.review.credits_of(kind)]
        if names:
            found.append(f"{kind.label}: " + ", ".join(names))
    recorded = {c.name for c in item.review.credits}
    planned = [] if item.review.complete else [n for n in item.reviewers if n not in recorded]
    if planned:
        found.append("검수 예정: " + ", ".join(planned))
    return found


def credit_parts(item) -> list[str]:
    """The credits line of a page: the translators, then the review credits."""
    translator = translator_credit(item)
    return ([translator] if translator else []) + review_credits(item)


def review_text(item) -> tuple[str, str]:
    """(state, line) of a page's review, honestly from the records, in the three levels.

    ``complete`` (검수 완료) only when every translated message has a current approval
    by a person; ``partial`` when some have; ``ai`` when an AI pass is all there is,
    named as such; ``none`` without approvals; ``untranslated`` with nothing translated.
    """
    review = item.review
    total = review.translated
    if not total:
        return "untranslated", ""
    person, ai_only = review.count(Level.PERSON), review.count(Level.AI_PASS)
    if review.complete:
        names = [c.name for c in review.credits_of(Kind.PERSON)] + \
            [f"{c.name}({Kind.SELF.label})" for c in review.credits_of(Kind.SELF)]
        return "complete", (f"검수 완료: {', '.join(names)}, "
                            f"{review.last_date(Kind.PERSON, Kind.SELF)}")
    if person:
        return "partial", (f"번역된 메시지 {total}개 중 {person}개"
                           f"({percent_text(review.percent(Level.PERSON))})를 사람이 "
                           "검수했습니다.")
    if ai_only:
        names = ", ".join(c.name for c in review.credits_of(Kind.AI_PASS))
        date = review.last_date(Kind.AI_PASS)
        if ai_only == total:
            return "ai", f"AI 검토만 마쳤습니다: {names}, {date}. 사람의 검수는 아직입니다."
        return "ai", (f"번역된 메시지 {total}개 중 {ai_only}개가 AI 검토만 마쳤습니다: "
                      f"{names}, {date}. 사람의 검수는 아직입니다.")
    return "none", "이 문서의 번역은 아직 검수되지 않았습니다."


def is_translated_html(app) -> bool:
    """An HTML build of a translation (an English build gets no banners or pages)."""
    return app.builder.format == "html" and (app.config.language or "en") != "en"


def page_stats(app) -> dict:
    """docname -> DocumentStats of this build's pages ({} before builder-inited, or for
    a build that is not a translation's HTML)."""
    return _LOADED.get(app, {}).get("stats", {})


def _builder_inited(app) -> None:
    _LOADED.setdefault(app, {})["stats"] = load_stats(app) if is_translated_html(app) else {}


def banner_signature(app, docname: str) -> tuple:
    """What a page's banner shows; a change makes Sphinx write the page again."""
    item = page_stats(app).get(docname)
    if item is None:
        return ()
    return (item.counts.translated, item.counts.messages, item.translators, item.reviewers,
            korean_notebook(app, docname) is not None, review_text(item),
            tuple(item.review.count(level) for level in _LEVELS), tuple(credit_parts(item)),
            page_run_text(app, docname))


def _outdated(app, env, added, changed, removed) -> list[str]:
    """Pages whose credits or download changed (assignments.yaml is no Sphinx input)."""
    previous = getattr(env, "jaxko_banner_signatures", None)
    if previous is None:
        return []
    return sorted(name for name in env.found_docs
                  if name not in added and name not in changed
                  and previous.get(name, ()) != banner_signature(app, name))


def _remember(app, env) -> None:
    env.jaxko_banner_signatures = {name: banner_signature(app, name) for name in env.found_docs}


def _page_context(app, pagename, templatename, context, doctree) -> None:
    item = page_stats(app).get(pagename)
    if item is None or doctree is None or "body" not in context:
        return
    missing = getattr(app.env, "jaxko_missing_files", {}).get(pagename, [])
    context["body"] = banner_html(app, pagename, item, context["pathto"], missing) \
        + context["body"]
    context["jaxko_translation_percent"] = item.percent


def _copy_notebooks(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    copied = 0
    for docname in sorted(app.env.found_docs):
        source = korean_notebook(app, docname)
        if source is None or not is_notebook_page(app, docname):
            continue
        target = Path(app.outdir) / DOWNLOADS / f"{docname}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp")
        shutil.copyfile(source, tmp)
        os.replace(tmp, target)
        copied += 1
    if copied:
        logger.info("jaxko.site: %d Korean notebooks copied to %s", copied, DOWNLOADS)


def setup(app):

    app.add_config_value("jaxko_assignments_path", "", "html", types=[str])
    # A file where the stats of unchanged documents are kept between builds
    # (jaxko.workflow.stats.collect's cache); "" reads every catalog each build.
    app.add_config_value("jaxko_stats_cache", "", "", types=[str])
    app.add_config_value("jaxko_notebooks_dir", str(paths.build_dir() / "notebooks" / "ko"),
                         "html", types=[str])
    # "owner/name" of the GitHub repository the site is published from (Colab links).
    app.add_config_value("jaxko_github_repo", os.environ.get("JAXKO_GITHUB_REPO", ""), "html",
                         types=[str])
    app.add_config_value("jaxko_pages_branch", "gh-pages", "html", types=[str])
    # How verify ran each Korean notebook (JSON, docname -> run); "" shows nothing.
    app.add_config_value("jaxko_notebook_runs", "", "html", types=[str])
    if "jaxko_upstream_docs_url" not in app.config:  # api_links adds it too
        app.add_config_value("jaxko_upstream_docs_url", "https://docs.jax.dev/en/latest/", "html")
    app.connect("builder-inited", _builder_inited)
    app.connect("html-page-context", _page_context)
    app.connect("env-get-outdated", _outdated)
    app.connect("env-updated", _remember)
    app.connect("build-finished", _copy_notebooks)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
