"""The side-by-side review pages: ``make review-html`` -> ``_build/review/``.

One static page per document with translated messages (``doc/<docname>.html``): English |
Korean | findings | review records. A page opens on the person's queue (what no person
has approved, AI-passed messages included, the AI pass marked with its notes and
history), the same queue as ``jaxko review queue``; filters (the queue, AI pass only,
with errors or warnings) work from a file or a CI artifact without a server. Findings of
``jaxko check`` are labelled by severity (오류, 경고, 힌트); an info hint is shown as a
hint and counted apart, never as a finding to fix. Each message shows
its catalog line (the msgstr line, as ``jaxko check``) and a changed message its word
diff against the Korean approved before. ``index.html`` lists the documents with the
three review levels and the findings by severity.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from html import escape
from pathlib import Path

from jaxko import catalogs
from jaxko.workflow import review
from jaxko.workflow.documents import Document
from jaxko import check

# queue states in Korean: the three levels' own labels, and why a message waits
STATE_KO = {"reviewed": review.Level.PERSON.label, "unreviewed": review.Level.NOT_REVIEWED.label,
            "ai-passed": review.Level.AI_PASS.label, "changed": "승인 후 바뀜",
            "rejected": "거부됨", "fuzzy": "퍼지(원문 바뀜)"}
VERDICT_KO = {review.APPROVED: "승인", review.REJECTED: "거부"}
# `jaxko check` severities as the pages label them; info is a hint (`--show-info`)
SEVERITY_KO = {"error": "오류", "warning": "경고", "info": "힌트"}
SEVERITIES = tuple(SEVERITY_KO)

STYLE = """
body { font-family: sans-serif; margin: 1.5em; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { border: 1px solid #ccc; padding: .4em; vertical-align: top; word-wrap: break-word; }
tr.state-reviewed td.state { background: #e6f4ea; }
tr.state-ai-passed td.state { background: #e8f0fe; }
tr.state-changed td, tr.state-fuzzy td { background: #fff7e0; }
tr.state-rejected td.state { background: #fde8e8; }
del { background: #fdd; } ins { background: #dfd; text-decoration: none; }
.was { color: #666; font-size: .9em; }
.finding-error { color: #b00; } .finding-warning { color: #a60; } .finding-info { color: #555; }
.severity { font-size: .85em; border: 1px solid currentColor; border-radius: 3px; padding: 0 .2em; }
.record { margin: .3em 0 0; } .record-ai-pass .kind { background: #e8f0fe; padding: 0 .3em; }
.record-stale { color: #777; } .history { color: #555; font-size: .9em; margin: .2em 0 0 1em; }
.level { font-weight: bold; }
"""

SCRIPT = """
function applyFilters() {
  const waiting = document.getElementById('only-waiting').checked;
  const aiOnly = document.getElementById('only-ai').checked;
  const withFindings = document.getElementById('only-findings').checked;
  let shown = 0;
  for (const row of document.querySelectorAll('tr.message')) {
    const hide = (waiting && row.dataset.waiting !== '1') ||
                 (aiOnly && row.dataset.level !== 'ai_pass_only') ||
                 (withFindings && row.dataset.findings === '0');
    row.hidden = hide;
    if (!hide) shown++;
  }
  document.getElementById('shown').textContent = shown;
}
document.addEventListener('change', applyFilters);
applyFilters();
"""


@dataclass(frozen=True)
class PageSummary:
    docname: str
    counts: review.ReviewCounts
    waiting: int           # in the person's queue
    severities: dict       # `jaxko check` findings by severity (error, warning, info)

    @property
    def findings(self) -> int:
        """Findings to fix: errors and warnings (info hints are counted apart)."""
        return self.severities.get("error", 0) + self.severities.get("warning", 0)


def by_severity(found: list) -> dict[str, int]:
    """``{"error": n, "warning": n, "info": n}`` of a list of findings."""
    return {severity: sum(1 for f in found if f.severity == severity) for severity in SEVERITIES}


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


def _records_html(item: review.Item) -> str:
    """Every record of a message, its kind named (an AI pass marked), with its history."""
    out = []
    for kind, r in item.records.items():
        current = item.is_current(r)
        classes = f"record record-{kind.value}" + ("" if current else " record-stale")
        text = (f'<span class="kind">{escape(kind.label)}</span> '
                f'{VERDICT_KO[r.verdict]}: {escape(r.reviewer)}, {escape(r.date)}'
                + ("" if current else " (이전 번역에 대한 기록)")
                + (f"<br>메모: {escape(r.note)}" if r.note else ""))
        history = "".join(
            f'<div class="history">이전: {VERDICT_KO[p.verdict]}, {escape(p.reviewer)}, '
            f'{escape(p.date)}' + (f" — {escape(p.note)}" if p.note else "")
            + ("" if p.msgstr_hash == review.text_hash(item.msgstr) else " (그 뒤 번역이 고쳐짐)")
            + "</div>" for p in r.history)
        out.append(f'<div class="{classes}" data-kind="{kind.value}">{text}{history}</div>')
    return "".join(out)


def heading(item: review.Item) -> str:
    """The level of a translated message (fuzzy: its state), then why it waits."""
    state = item.state(review.Kind.PERSON)
    text = item.level.label if item.translation == "translated" else STATE_KO[state]
    if state in ("changed", "rejected"):
        text += f" · {STATE_KO[state]}"
    return text


def message_cells(item: review.Item, found: list) -> tuple[str, str, str, str]:
    """One message as HTML, every text escaped: the English (with the English it had
    before upstream changed it), the Korean (with the word diff against the Korean
    approved before), the findings as ``<li>`` items, and its level with every record.
    The static pages and ``jaxko review serve`` both show a message with this."""
    korean = escape(item.msgstr)
    earlier = item.earlier()
    if earlier is not None and earlier.msgstr != item.msgstr:
        said = "승인된" if earlier.approved else "반려된"
        korean += (f'<div class="diff">{said} 번역과의 차이: '
                   f'{_diff_html(earlier.msgstr, item.msgstr)}</div>')
    english = escape(item.msgid)
    if item.previous_msgid is not None:
        english += f'<div class="was">이전 원문: {escape(item.previous_msgid)}</div>'
    cell = f'<span class="level">{escape(heading(item))}</span>{_records_html(item)}'
    order = {severity: n for n, severity in enumerate(SEVERITIES)}
    listed = "".join(f'<li class="finding-{escape(f.severity)}"><span class="severity">'
                     f'{escape(SEVERITY_KO.get(f.severity, f.severity))}</span> '
                     f'{escape(f.rule)}: {escape(f.message)}</li>'
                     for f in sorted(found, key=lambda f: order.get(f.severity, len(order))))
    return english, korean, listed, cell


def render_page(doc: Document, items: list[review.Item],
                findings: dict[tuple[str | None, str], list], catalog_href: str,
                github: str | None) -> str:
    """One document's messages; ``findings`` by (msgctxt, msgid) of this catalog."""
    rows = []
    shown = [i for i in items if i.translation != "untranslated"]
    for item in shown:
        found = findings.get((item.msgctxt, item.msgid), [])
        english, korean, listed, cell = message_cells(item, found)
        state = item.state(review.Kind.PERSON)
        level = item.level
        line_link = f'<a href="{escape(catalog_href)}">{escape(doc.catalog.name)}:{item.line}</a>'
        if github:
            line_link += f' (<a href="{escape(github)}#L{item.line}">GitHub</a>)'
        waiting = "1" if item.waiting_for(review.Kind.PERSON) else "0"
        counts = by_severity(found)
        rows.append(f'<tr class="message state-{state}" data-state="{state}" '
                    f'data-level="{level.key}" data-waiting="{waiting}" '
                    f'data-findings="{counts["error"] + counts["warning"]}" '
                    f'data-hints="{counts["info"]}" id="m-{item.key}">'
                    f'<td>{english}</td><td>{korean}</td><td><ul>{listed}</ul></td>'
                    f'<td class="state">{cell}</td><td>{line_link}<br><code>{item.key}</code></td></tr>')
    queue = sum(1 for i in shown if i.waiting_for(review.Kind.PERSON))
    total = by_severity([f for i in shown for f in findings.get((i.msgctxt, i.msgid), [])])
    return f"""<!DOCTYPE html>
<html lang="ko"><head><meta charset="utf-8"><title>검토: {escape(doc.docname)}</title>
<style>{STYLE}</style></head><body>
<p><a href="../index.html">← 전체 문서</a></p>
<h1>검토: {escape(doc.docname)}</h1>
<p>사람의 검수를 기다리는 메시지 {queue}개(AI 검토만 거친 메시지 포함)를 먼저 보여 줍니다.
AI 검토 기록은 <span class="kind">{review.Kind.AI_PASS.label}</span>로 표시합니다. 검수: <code>jaxko review approve {escape(doc.docname)} -m ID --reviewer 이름</code></p>
<p><label><input type="checkbox" id="only-waiting" checked> 사람 검수 대기만</label>
<label><input type="checkbox" id="only-ai"> AI 검토만 거친 것만</label>
<label><input type="checkbox" id="only-findings"> 오류·경고 있는 것만</label>
표시: <span id="shown">{len(shown)}</span> / {len(shown)}</p>
<p id="severities">{escape(severity_text(total))}</p>
<table><colgroup><col style="width:28%"><col style="width:28%"><col style="width:16%">
<col style="width:18%"><col style="width:10%"></colgroup>
<thead><tr><th>영어 원문</th><th>한국어 번역</th><th>검사 결과</th><th>검토 상태</th><th>카탈로그</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table>
<script>{SCRIPT}</script>
</body></html>
"""


def severity_text(counts: dict[str, int]) -> str:
    """``검사 결과: 오류 1개 · 경고 2개 · 힌트 5개(참고용: 고치지 않아도 됩니다)``."""
    return ("검사 결과: " + " · ".join(f"{SEVERITY_KO[s]} {counts.get(s, 0)}개" for s in SEVERITIES)
            + "(힌트는 참고용: 고치지 않아도 됩니다)")


def page_name(docname: str) -> str:
    """``notebooks/x`` -> ``doc/notebooks__x.html`` (flat, apart from ``index.html``)."""
    return f"doc/{docname.replace('/', '__')}.html"


def render_index(pages: list[PageSummary]) -> str:
    levels = list(reversed(review.Level))
    rows = "\n".join(
        f'<tr><td><a href="{escape(page_name(p.docname))}">{escape(p.docname)}</a></td>'
        f'<td>{p.counts.translated}</td>'
        + "".join(f'<td class="level-{level.key}">{p.counts.count(level)}</td>' for level in levels)
        + f'<td>{p.waiting}</td>'
        + "".join(f'<td class="severity-{s}">{p.severities.get(s, 0)}</td>' for s in SEVERITIES)
        + '</tr>'
        for p in pages)
    heads = "".join(f"<th>{level.label}</th>" for level in levels)
    severity_heads = "".join(f"<th>검사 {SEVERITY_KO[s]}</th>" for s in SEVERITIES)
    return f"""<!DOCTYPE html>
<html lang="ko"><head><meta charset="utf-8"><title>크로스 검토</title><style>{STYLE}</style></head>
<body><h1>크로스 검토</h1>
<p>문서마다 영어 원문, 한국어 번역, 검사 결과(jaxko check), 검토 기록을 나란히 보여 줍니다.
사람 검수 대기: 어느 사람도 승인하지 않은 메시지(AI 검토만 거친 메시지 포함). 검토 방법:
docs/review-guide.md.</p>
<p>검사 결과(jaxko check)는 심각도별로 셉니다: 오류와 경고는 고칠 것, 힌트는 참고용입니다.</p>
<table><thead><tr><th>문서</th><th>번역</th>{heads}<th>사람 검수 대기</th>{severity_heads}</tr></thead>
<tbody>
{rows}
</tbody></table></body></html>
"""


def findings_by_message(catalog_paths: list[Path], jobs: int | None = None
                        ) -> dict[str, dict[tuple[str | None, str], list]]:
    """``jaxko check`` findings by catalog (absolute path), then by (msgctxt, msgid)."""
    by_file: dict[str, dict[tuple[str | None, str], list]] = {}
    if catalog_paths:
        check.load_rules_modules()
        result = check.run(check.Options(paths=list(catalog_paths), progress=False, jobs=jobs))
        for finding in result.findings:
            by_file.setdefault(os.path.abspath(finding.key.catalog), {}).setdefault(
                (finding.key.msgctxt, finding.key.msgid), []).append(finding)
    return by_file


def write_pages(documents: dict[str, Document], reviews: Path, outdir: Path, *,
                github_repo: str | None = None, repo_root: Path | None = None) -> list[PageSummary]:
    """Write one page per document with translated messages, and the index."""

    chosen = []
    for name in sorted(documents):
        doc = documents[name]
        items = review.read_items(doc.catalog,
                                  review.load_records(review.records_path(reviews, name)))
        if any(i.translation != "untranslated" for i in items):
            chosen.append((doc, items))
    by_file = findings_by_message([d.catalog for d, _ in chosen])
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
        pages.append(PageSummary(doc.docname, review.summarise(items),
                                 sum(1 for i in items if i.waiting_for(review.Kind.PERSON)),
                                 by_severity([f for v in findings.values() for f in v])))
    catalogs.write_text_atomic(outdir / "index.html", render_index(pages))
    return pages
