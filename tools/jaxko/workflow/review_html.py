"""The side-by-side review pages: ``make review-html`` -> ``_build/review/``.

One static page per document with translated messages (``doc/<docname>.html``): English | Korean | findings |
review state, a changed message's word diff against the approved Korean, filters
(unreviewed only, with findings only) that work from a file or a CI artifact without a
server, and each message's catalog line. ``index.html`` lists the documents.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from html import escape
from pathlib import Path

from jaxko import catalogs
from jaxko.workflow import review
from jaxko.workflow.documents import Document

STATE_KO = {"reviewed": "검수됨", "unreviewed": "검수 전", "changed": "승인 후 바뀜",
            "rejected": "거부됨", "fuzzy": "퍼지(원문 바뀜)"}
KIND_KO = {"person": "", "self": " (역자 본인)", "ai-pass": " (AI 검토)"}

STYLE = """
body { font-family: sans-serif; margin: 1.5em; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { border: 1px solid #ccc; padding: .4em; vertical-align: top; word-wrap: break-word; }
tr.state-reviewed td.state { background: #e6f4ea; }
tr.state-changed td, tr.state-fuzzy td { background: #fff7e0; }
tr.state-rejected td.state { background: #fde8e8; }
del { background: #fdd; } ins { background: #dfd; text-decoration: none; }
.was { color: #666; font-size: .9em; }
.finding-error { color: #b00; } .finding-warning { color: #a60; }
"""

SCRIPT = """
function applyFilters() {
  const unreviewed = document.getElementById('only-unreviewed').checked;
  const withFindings = document.getElementById('only-findings').checked;
  let shown = 0;
  for (const row of document.querySelectorAll('tr.message')) {
    const hide = (unreviewed && row.dataset.state === 'reviewed') ||
                 (withFindings && row.dataset.findings === '0');
    row.hidden = hide;
    if (!hide) shown++;
  }
  document.getElementById('shown').textContent = shown;
}
document.addEventListener('change', applyFilters);
"""


@dataclass(frozen=True)
class PageSummary:
    docname: str
    translated: int
    reviewed: int
    waiting: int
    findings: int


def _diff_html(old: str, new: str) -> str:
    import difflib
    a, b = old.split(), new.split()
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(escape(" ".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(f"<del>{escape(' '.join(a[i1:i2]))}</del>")
        if j2 > j1:
            out.append(f"<ins>{escape(' '.join(b[j1:j2]))}</ins>")
    return " ".join(out)


def render_page(doc: Document, items: list[review.Item], findings: dict[str, list],
                catalog_href: str, github: str | None) -> str:
    rows = []
    shown = [i for i in items if i.state not in ("untranslated",)]
    for item in shown:
        found = findings.get(item.msgid, [])
        korean = escape(item.msgstr)
        if item.record is not None and item.state in ("changed", "fuzzy") \
                and item.record.msgstr != item.msgstr:
            korean += f'<div class="diff">승인된 번역과의 차이: {_diff_html(item.record.msgstr, item.msgstr)}</div>'
        english = escape(item.msgid)
        if item.previous_msgid is not None:
            english += f'<div class="was">이전 원문: {escape(item.previous_msgid)}</div>'
        state = STATE_KO.get(item.state, item.state)
        if item.record is not None:
            r = item.record
            state += (f"<br>{escape(r.reviewer)}{KIND_KO.get(r.kind, '')}, {escape(r.date)}"
                      + (f"<br>메모: {escape(r.note)}" if r.note else ""))
        line_link = f'<a href="{escape(catalog_href)}">{escape(doc.catalog.name)}:{item.line}</a>'
        if github:
            line_link += f' (<a href="{escape(github)}#L{item.line}">GitHub</a>)'
        listed = "".join(f'<li class="finding-{escape(f.severity)}">{escape(f.rule)}: '
                         f'{escape(f.message)}</li>' for f in found)
        rows.append(f'<tr class="message state-{item.state}" data-state="{item.state}" '
                    f'data-findings="{len(found)}" id="m-{item.key}">'
                    f'<td>{english}</td><td>{korean}</td><td><ul>{listed}</ul></td>'
                    f'<td class="state">{state}</td><td>{line_link}<br><code>{item.key}</code></td></tr>')
    return f"""<!DOCTYPE html>
<html lang="ko"><head><meta charset="utf-8"><title>검토: {escape(doc.docname)}</title>
<style>{STYLE}</style></head><body>
<p><a href="../index.html">← 전체 문서</a></p>
<h1>검토: {escape(doc.docname)}</h1>
<p><label><input type="checkbox" id="only-unreviewed"> 검수 안 된 것만</label>
<label><input type="checkbox" id="only-findings"> 검사 결과 있는 것만</label>
표시: <span id="shown">{len(shown)}</span> / {len(shown)}</p>
<table><colgroup><col style="width:30%"><col style="width:30%"><col style="width:18%">
<col style="width:12%"><col style="width:10%"></colgroup>
<thead><tr><th>영어 원문</th><th>한국어 번역</th><th>검사 결과</th><th>검토 상태</th><th>카탈로그</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table>
<script>{SCRIPT}</script>
</body></html>
"""


def page_name(docname: str) -> str:
    """``notebooks/x`` -> ``doc/notebooks__x.html`` (flat, apart from ``index.html``)."""
    return f"doc/{docname.replace('/', '__')}.html"


def render_index(pages: list[PageSummary]) -> str:
    rows = "\n".join(
        f'<tr><td><a href="{escape(page_name(p.docname))}">{escape(p.docname)}</a></td>'
        f'<td>{p.translated}</td><td>{p.reviewed}</td><td>{p.waiting}</td><td>{p.findings}</td></tr>'
        for p in pages)
    return f"""<!DOCTYPE html>
<html lang="ko"><head><meta charset="utf-8"><title>크로스 검토</title><style>{STYLE}</style></head>
<body><h1>크로스 검토</h1>
<p>문서마다 영어 원문, 한국어 번역, 검사 결과(jaxko check), 검토 상태를 나란히 보여 줍니다.
검토 방법: docs/review-guide.md.</p>
<table><thead><tr><th>문서</th><th>번역</th><th>검수됨</th><th>검토 대기</th><th>검사 결과</th></tr></thead>
<tbody>
{rows}
</tbody></table></body></html>
"""


def write_pages(documents: dict[str, Document], reviews: Path, outdir: Path, *,
                github_repo: str | None = None, repo_root: Path | None = None) -> list[PageSummary]:
    """Write one page per document with translated messages, and the index."""
    from jaxko import check

    chosen = []
    for name in sorted(documents):
        doc = documents[name]
        items = review.items_of(catalogs.load(doc.catalog),
                                review.load_records(review.records_path(reviews, name)))
        if any(i.state != "untranslated" for i in items):
            chosen.append((doc, items))
    by_file: dict[str, dict[str, list]] = {}
    if chosen:
        check.load_rules_modules()
        result = check.run(check.Options(paths=[d.catalog for d, _ in chosen], progress=False))
        for finding in result.findings:
            by_file.setdefault(os.path.abspath(finding.path), {}).setdefault(
                finding.msgid, []).append(finding)
    outdir.mkdir(parents=True, exist_ok=True)
    pages = []
    for doc, items in chosen:
        findings = by_file.get(os.path.abspath(doc.catalog), {})
        href = os.path.relpath(doc.catalog.resolve(), (outdir / "doc").resolve())
        github = None
        if github_repo and repo_root is not None:
            try:
                rel = doc.catalog.resolve().relative_to(repo_root.resolve()).as_posix()
                github = f"https://github.com/{github_repo}/blob/main/{rel}"
            except ValueError:
                pass
        html = render_page(doc, items, findings, href, github)
        target = outdir / page_name(doc.docname)
        target.parent.mkdir(parents=True, exist_ok=True)
        catalogs.write_text_atomic(target, html)
        summary = review.summarise(items)
        pages.append(PageSummary(doc.docname, summary.translated, summary.reviewed,
                                 sum(1 for i in items if i.waiting),
                                 sum(len(v) for v in findings.values())))
    catalogs.write_text_atomic(outdir / "index.html", render_index(pages))
    return pages
