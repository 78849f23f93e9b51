"""``jaxko review serve``: a local web app in which a person reviews the person's queue.

The app is a stdlib :class:`http.server.ThreadingHTTPServer` bound to 127.0.0.1 (a free
port unless one is given). ``/`` lists the documents with their messages waiting for a
person; ``/doc/<docname>`` shows one document's queue in catalog order, every message
as the static review pages show it (:func:`jaxko.workflow.review_html.message_cells`),
with its findings, records and history; ``/static/review_serve.js`` drives it (mouse and
keyboard: j/k, a, r, e). Every write is a JSON ``POST /api/<action>`` and goes through
the library the commands use, never a second implementation:

- ``approve``, ``reject``, ``approve-clean``: :func:`jaxko.workflow.review.decide` with
  kind person, so the records are those ``jaxko review approve/reject`` writes, and its
  refusals (open errors, the reviewer translated the message) are checked at that
  moment;
- ``check``: the message rules on the edited text (:func:`jaxko.check.check_text`),
  shown before saving; ``edit``: the msgstr saved with :func:`jaxko.catalogs.save`
  (atomic, the ``jaxko fmt`` layout). The edit makes the reviewer the message's last
  translator (git blame names the work tree's user for lines not committed, and the app
  remembers its own edits), so another person approves it.

A write is refused unless it carries the per-process random token of the page (header
``X-Jaxko-Token``), its Host is the app's own and its Origin, when sent, too (HTTP 403);
and unless the catalog and the records file still hash to what the page was rendered
from (HTTP 409: someone else changed them; the page says so and nothing is written).
Every text shown comes from strangers and is escaped (server: :func:`html.escape`;
script: ``textContent``); the pages also carry a Content-Security-Policy.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import http.server
import json
import os
import secrets
import shlex
import sys
import threading
import urllib.parse
from dataclasses import dataclass, field
from html import escape
from importlib import resources
from pathlib import Path

from jaxko import catalogs, check
from jaxko.errors import UserError
from jaxko.workflow import review, review_html
from jaxko.workflow.documents import Document

PERSON = review.Kind.PERSON
TOKEN_HEADER = "X-Jaxko-Token"
MAX_BODY = 1_000_000
CSP = ("default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; "
       "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

STYLE = review_html.STYLE + """
header { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ccc;
         padding: .4em 0; z-index: 1; }
#progress span { margin-right: 1em; } #progress code { user-select: all; }
#notice { color: #b00; font-weight: bold; } #notice:empty { display: none; }
tr.message.current td { outline: 2px solid #1a73e8; outline-offset: -2px; }
tr.message.done td { opacity: .55; } tr.message.done td.actions { opacity: 1; }
td.actions button { margin: 0 .2em .2em 0; } tr.message.done td.actions button { display: none; }
td.en, td.ko { white-space: pre-wrap; } #banner span { margin-right: 1em; }
.outcome { display: block; font-weight: bold; }
.outcome-approved { color: #137333; } .outcome-rejected, .outcome-refused { color: #b00; }
.outcome-edited { color: #a60; }
form.note textarea, form.edit textarea { width: 100%; box-sizing: border-box; }
.keys { color: #555; font-size: .9em; }
"""


class Conflict(Exception):
    """The catalog or the records file changed on disk since the page showed them."""


class Forbidden(Exception):
    """A request that is not from the app's own page."""


class BadRequest(Exception):
    """A request the app's page never sends."""


def file_hash(path: Path) -> str:
    """SHA-256 of a file's bytes; "" for a file that does not exist (no records yet)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return ""


@dataclass
class Session:
    """What the reviewer did since the app started."""

    approved: int = 0
    rejected: int = 0
    edited: int = 0
    touched: list[Path] = field(default_factory=list)   # files written, in order
    own_edits: set[tuple[str, str]] = field(default_factory=set)   # (docname, key)

    def touch(self, *paths: Path) -> None:
        for path in paths:
            if path not in self.touched:
                self.touched.append(path)


class ReviewApp:
    """The app's state and its actions; the HTTP handler only routes to it."""

    def __init__(self, documents: dict[str, Document], reviews: Path, *, reviewer: str,
                 assignments_path: Path | None = None, workdir: Path | None = None,
                 today: dt.date | None = None):
        reviewer = reviewer.strip()
        if not reviewer:
            raise UserError("no reviewer: pass --reviewer NAME or set `git config user.name`")
        self.documents = documents
        self.reviews = reviews
        self.reviewer = reviewer
        self.assignments_path = assignments_path
        self.workdir = workdir or Path.cwd()
        self.today = today
        self.token = secrets.token_urlsafe(32)
        self.session = Session()
        self.lock = threading.Lock()   # one write at a time: check the hashes, then write

    # ------------------------------------------------------------------ reading

    def _document(self, docname) -> Document:
        if not isinstance(docname, str) or docname not in self.documents:
            raise BadRequest(f"no document {docname!r} in this review session")
        return self.documents[docname]

    def _records_path(self, doc: Document) -> Path:
        return review.records_path(self.reviews, doc.docname)

    def _items(self, doc: Document) -> list[review.Item]:
        return review.read_items(doc.catalog, review.load_records(self._records_path(doc)))

    def hashes(self, doc: Document) -> dict[str, str]:
        return {"catalog": file_hash(doc.catalog), "records": file_hash(self._records_path(doc))}

    def progress(self, doc: Document) -> dict:
        items = self._items(doc)
        counts = review.summarise(items)
        return {"session": {"approved": self.session.approved,
                            "rejected": self.session.rejected,
                            "edited": self.session.edited},
                "document_left": sum(1 for i in items if i.waiting_for(PERSON)),
                "levels": {level.key: counts.count(level) for level in review.Level},
                "translated": counts.translated,
                "commit": self.commit_command()}

    def commit_command(self) -> str:
        """The command that records this session's work in git ("" before any write)."""
        if not self.session.touched:
            return ""
        shown = []
        for path in self.session.touched:
            try:
                shown.append(os.path.relpath(path, self.workdir))
            except ValueError:
                shown.append(str(path))
        names = sorted({p.stem for p in self.session.touched})
        done = [f"{n} {what}" for what, n in (("approved", self.session.approved),
                                              ("rejected", self.session.rejected),
                                              ("edited", self.session.edited)) if n]
        message = f"review: {', '.join(names)} ({', '.join(done)}) by {self.reviewer}"
        return (f"git add {' '.join(shlex.quote(p) for p in shown)} && "
                f"git commit -m {shlex.quote(message)}")

    # ------------------------------------------------------------------ pages

    def index_html(self) -> str:
        rows = []
        for name in sorted(self.documents):
            doc = self.documents[name]
            items = self._items(doc)
            counts = review.summarise(items)
            waiting = sum(1 for i in items if i.waiting_for(PERSON))
            rows.append(f'<tr data-doc="{escape(name)}"><td><a href="/doc/'
                        f'{escape(urllib.parse.quote(name))}">{escape(name)}</a></td>'
                        f'<td class="waiting">{waiting}</td><td>{counts.translated}</td>'
                        + "".join(f'<td>{counts.count(level)}</td>'
                                  for level in reversed(review.Level)) + "</tr>")
        heads = "".join(f"<th>{level.label}</th>" for level in reversed(review.Level))
        return self._html("크로스 검토", f"""<h1>크로스 검토: {escape(self.reviewer)}</h1>
<p>문서를 골라 사람의 검수를 기다리는 메시지(AI 검토만 거친 메시지 포함)를 검토합니다.</p>
<table id="documents"><thead><tr><th>문서</th><th>사람 검수 대기</th><th>번역</th>{heads}</tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table>""")

    def page_html(self, docname: str) -> str:
        doc = self._document(docname)
        with self.lock:
            hashes = self.hashes(doc)
            items = self._items(doc)
        findings = review_html.findings_by_message([doc.catalog], jobs=1).get(
            os.path.abspath(doc.catalog), {})
        waiting = [i for i in items if i.waiting_for(PERSON)]
        rows = []
        for item in waiting:
            found = findings.get((item.msgctxt, item.msgid), [])
            english, korean, listed, cell = review_html.message_cells(item, found)
            state = item.state(PERSON)
            errors = any(f.severity == "error" for f in found)
            clean = "1" if not errors and state not in ("fuzzy", "rejected") else "0"
            rows.append(
                f'<tr class="message state-{state}" id="m-{item.key}" data-key="{item.key}" '
                f'data-state="{state}" data-clean="{clean}" '
                f'data-msgstr="{escape(item.msgstr, quote=True)}">'
                f'<td class="en">{english}</td><td class="ko">{korean}</td>'
                f'<td class="findings"><ul>{listed}</ul></td><td class="state">{cell}</td>'
                f'<td class="actions"><button type="button" data-action="approve">승인 (a)'
                f'</button><button type="button" data-action="reject">거부 (r)</button>'
                f'<button type="button" data-action="edit">고치기 (e)</button>'
                f'<br><code>{escape(doc.catalog.name)}:{item.line}</code> '
                f'<code>{item.key}</code><span class="outcome"></span></td></tr>')
        progress = self.progress(doc)
        levels = "".join(
            f'<span data-level="{level.key}">{level.label} '
            f'<b>{progress["levels"][level.key]}</b></span>' for level in reversed(review.Level))
        return self._html(f"검토: {doc.docname}", f"""<header>
<p><a href="/">← 전체 문서</a> · 검토자 <b id="reviewer">{escape(self.reviewer)}</b>
<span class="keys">· j/k 이동, a 승인, r 거부(메모), e 고치기</span></p>
<p id="banner">번역된 메시지 {progress["translated"]}개: {levels}</p>
<p id="progress">
<span>이번 세션: 승인 <b id="done-approved">{progress["session"]["approved"]}</b>,
거부 <b id="done-rejected">{progress["session"]["rejected"]}</b>,
고침 <b id="done-edited">{progress["session"]["edited"]}</b></span>
<span>이 페이지에 남음 <b id="left-page">{len(waiting)}</b></span>
<span>문서에 남음 <b id="left-document">{progress["document_left"]}</b></span>
<br>기록하기: <code id="commit-command">{escape(progress["commit"])}</code></p>
<p><button type="button" id="approve-clean" disabled>이 페이지의 검사 통과 메시지 모두 승인</button>
<span id="clean-hint">(모든 메시지를 끝까지 훑어본 뒤에 켜집니다)</span></p>
<p id="notice" role="alert"></p>
</header>
<main data-doc="{escape(doc.docname, quote=True)}" data-catalog-hash="{hashes['catalog']}"
 data-records-hash="{hashes['records']}">
<h1>검토: {escape(doc.docname)}</h1>
<p>사람의 검수를 기다리는 메시지 {len(waiting)}개를 카탈로그 순서로 보여 줍니다. AI 검토 기록은
<span class="kind">{review.Kind.AI_PASS.label}</span>로 표시합니다.</p>
<table><colgroup><col style="width:25%"><col style="width:27%"><col style="width:14%">
<col style="width:18%"><col style="width:16%"></colgroup>
<thead><tr><th>영어 원문</th><th>한국어 번역</th><th>검사 결과</th><th>검토 상태</th><th>검토</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table></main>""")

    def _html(self, title: str, body: str) -> str:
        return f"""<!DOCTYPE html>
<html lang="ko"><head><meta charset="utf-8"><title>{escape(title)}</title>
<meta name="jaxko-token" content="{self.token}">
<style>{STYLE}</style></head><body>
{body}
<script src="/static/review_serve.js"></script>
</body></html>
"""

    # ------------------------------------------------------------------ writes

    def _unchanged(self, doc: Document, body: dict) -> None:
        """Refuse (Conflict) when the files differ from what the page was rendered from."""
        now = self.hashes(doc)
        changed = [what for what, name in (("catalog", "catalog_hash"), ("records", "records_hash"))
                   if body.get(name) != now[what]]
        if changed:
            files = " and ".join(
                str(doc.catalog) if what == "catalog" else str(self._records_path(doc))
                for what in changed)
            raise Conflict(f"{files}: changed on disk since this page was shown (another editor "
                           "or command); nothing was written. Reload the page to see the "
                           "change, then review again. / 이 페이지를 연 뒤 파일이 디스크에서 "
                           "바뀌었습니다. 덮어쓰지 않았습니다. 페이지를 새로 고친 뒤 다시 하세요.")

    def _keys(self, body: dict, name: str = "keys") -> list[str]:
        keys = body.get(name)
        if not isinstance(keys, list) or not keys or not all(isinstance(k, str) for k in keys):
            raise BadRequest(f"{name} must be a non-empty list of message ids")
        return keys

    def _not_own_edit(self, doc: Document, keys: list[str]) -> None:
        for key in keys:
            if (doc.docname, key) in self.session.own_edits:
                raise UserError(f"{self.reviewer} edited message {key} in this session; "
                                "another person reviews it", doc.catalog)

    def _decide(self, doc: Document, keys: list[str], verdict: str, note: str = "") -> None:
        review.decide(doc, self.reviews, reviewer=self.reviewer, keys=keys, verdict=verdict,
                      kind=PERSON, note=note, assignments_path=self.assignments_path,
                      today=self.today)
        self.session.touch(self._records_path(doc))

    def _answer(self, doc: Document, keys: list[str], **extra) -> dict:
        """What the page updates after a write: the new hashes, the progress, and the
        level of each message written (as the static pages word it)."""
        items = {i.key: i for i in self._items(doc)}
        levels = {k: review_html.heading(items[k]) for k in keys if k in items}
        return {"ok": True, "hashes": self.hashes(doc), "progress": self.progress(doc),
                "keys": keys, "levels": levels, **extra}

    def approve(self, body: dict) -> dict:
        doc = self._document(body.get("doc"))
        keys = self._keys(body)
        with self.lock:
            self._unchanged(doc, body)
            self._not_own_edit(doc, keys)
            self._decide(doc, keys, review.APPROVED)
            self.session.approved += len(keys)
            return self._answer(doc, keys)

    def approve_clean(self, body: dict) -> dict:
        """Approve the messages of the page the reviewer has seen that are clean: waiting
        for a person, not fuzzy nor rejected, no error findings, not their own edit."""
        doc = self._document(body.get("doc"))
        keys = self._keys(body)
        with self.lock:
            self._unchanged(doc, body)
            items = {i.key: i for i in self._items(doc)}
            errors = review.error_findings(doc.catalog)
            chosen = [k for k in keys if k in items and items[k].waiting_for(PERSON)
                      and items[k].state(PERSON) not in ("fuzzy", "rejected")
                      and k not in errors and (doc.docname, k) not in self.session.own_edits]
            own = review.last_translated_by(doc.catalog, self.reviewer, chosen)
            chosen = [k for k in chosen if k not in own]
            if not chosen:
                raise UserError("no clean message of this page waits for you (open errors, "
                                "rejected, fuzzy, or your own translation)", doc.catalog)
            self._decide(doc, chosen, review.APPROVED)
            self.session.approved += len(chosen)
            return self._answer(doc, chosen, skipped=[k for k in keys if k not in set(chosen)])

    def reject(self, body: dict) -> dict:
        doc = self._document(body.get("doc"))
        keys = self._keys(body)
        note = body.get("note")
        if not isinstance(note, str):
            raise BadRequest("note must be text")
        with self.lock:
            self._unchanged(doc, body)
            self._decide(doc, keys, review.REJECTED, note)
            self.session.rejected += len(keys)
            return self._answer(doc, keys)

    def _edited(self, doc: Document, body: dict) -> tuple[str, str, str]:
        """(key, new msgstr, the catalog's text with it) for a check or an edit."""
        (key,) = self._keys(body)[:1]
        msgstr = body.get("msgstr")
        if not isinstance(msgstr, str):
            raise BadRequest("msgstr must be text")
        msgstr = msgstr.replace("\r\n", "\n")
        if not msgstr.strip():
            raise UserError("the Korean is empty; reject the message instead", doc.catalog)
        po = catalogs.load(doc.catalog)
        entry = next((e for e in po if not e.obsolete
                      and review.message_key(e.msgctxt, e.msgid) == key), None)
        if entry is None:
            raise UserError(f"no message {key!r} in this catalog", doc.catalog)
        entry.msgstr = msgstr
        return key, msgstr, catalogs.render(po)

    def _findings(self, doc: Document, key: str, text: str) -> list[dict]:
        found = check.check_text(
            doc.catalog, text, wanted=lambda e: review.message_key(e.msgctxt, e.msgid) == key)
        return [{"rule": f.rule, "severity": f.severity, "message": f.message} for f in found]

    def check_edit(self, body: dict) -> dict:
        doc = self._document(body.get("doc"))
        with self.lock:
            self._unchanged(doc, body)
            key, _msgstr, text = self._edited(doc, body)
            return {"ok": True, "findings": self._findings(doc, key, text)}

    def edit(self, body: dict) -> dict:
        doc = self._document(body.get("doc"))
        with self.lock:
            self._unchanged(doc, body)
            key, msgstr, text = self._edited(doc, body)
            findings = self._findings(doc, key, text)
            catalogs.write_text_atomic(doc.catalog, text)
            self.session.own_edits.add((doc.docname, key))
            self.session.touch(doc.catalog)
            self.session.edited += 1
            return self._answer(doc, [key], findings=findings, msgstr=msgstr)

    ACTIONS = {"approve": "approve", "approve-clean": "approve_clean", "reject": "reject",
               "check": "check_edit", "edit": "edit"}


def _script() -> bytes:
    return resources.files("jaxko.workflow").joinpath("static/review_serve.js").read_bytes()


class Handler(http.server.BaseHTTPRequestHandler):
    """Routes requests to the server's :class:`ReviewApp`; checks Host, Origin, token."""

    server_version = "jaxko-review"
    sys_version = ""

    @property
    def app(self) -> ReviewApp:
        return self.server.app   # type: ignore[attr-defined]

    def log_message(self, format, *args) -> None:   # noqa: A002 (the base class's name)
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)

    def _own_hosts(self) -> set[str]:
        port = self.server.server_address[1]
        return {f"127.0.0.1:{port}", f"localhost:{port}"}

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, data: dict) -> None:
        self._send(status, json.dumps(data, ensure_ascii=False).encode("utf-8"),
                   "application/json; charset=utf-8")

    def do_GET(self) -> None:   # noqa: N802 (the base class's name)
        if self.headers.get("Host") not in self._own_hosts():
            self._send(403, b"wrong Host header\n", "text/plain; charset=utf-8")
            return
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        try:
            if path == "/":
                html = self.app.index_html()
            elif path.startswith("/doc/"):
                html = self.app.page_html(path[len("/doc/"):])
            elif path == "/static/review_serve.js":
                self._send(200, _script(), "text/javascript; charset=utf-8")
                return
            else:
                self._send(404, b"not found\n", "text/plain; charset=utf-8")
                return
        except BadRequest as err:
            self._send(404, escape(str(err)).encode("utf-8"), "text/plain; charset=utf-8")
            return
        except UserError as err:
            self._send(500, escape(err.format()).encode("utf-8"), "text/plain; charset=utf-8")
            return
        self._send(200, html.encode("utf-8"), "text/html; charset=utf-8")

    def _refuse_foreign(self) -> None:
        """Raise Forbidden unless the request comes from the app's own page."""
        own = self._own_hosts()
        if self.headers.get("Host") not in own:
            raise Forbidden("wrong Host header")
        origin = self.headers.get("Origin")
        if origin is not None and origin not in {f"http://{h}" for h in own}:
            raise Forbidden(f"requests from {origin} are refused")
        site = self.headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            raise Forbidden("requests from other sites are refused")
        token = self.headers.get(TOKEN_HEADER) or ""
        if not secrets.compare_digest(token.encode("utf-8", "replace"),
                                      self.app.token.encode("utf-8")):
            raise Forbidden("missing or wrong token; reload the page the app printed")

    def do_POST(self) -> None:   # noqa: N802 (the base class's name)
        try:
            self._refuse_foreign()
            path = urllib.parse.urlsplit(self.path).path
            action = ReviewApp.ACTIONS.get(path[len("/api/"):]) if path.startswith("/api/") else None
            if action is None:
                raise BadRequest(f"no action {path}")
            if not (self.headers.get("Content-Type") or "").startswith("application/json"):
                raise BadRequest("send JSON (Content-Type: application/json)")
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_BODY:
                raise BadRequest("empty or too large a request")
            try:
                body = json.loads(self.rfile.read(length).decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                raise BadRequest("the request is not JSON") from None
            if not isinstance(body, dict):
                raise BadRequest("the request is not a JSON object")
            self._json(200, getattr(self.app, action)(body))
        except Forbidden as err:
            self._json(403, {"error": str(err)})
        except Conflict as err:
            self._json(409, {"error": str(err), "conflict": True})
        except BadRequest as err:
            self._json(400, {"error": str(err)})
        except UserError as err:
            self._json(422, {"error": err.format(), "refused": True})
        except ValueError as err:
            self._json(400, {"error": f"bad request: {err}"})


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, app: ReviewApp, port: int = 0, verbose: bool = False):
        self.app = app
        self.verbose = verbose
        super().__init__(("127.0.0.1", port), Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"


def make_server(app: ReviewApp, port: int = 0, verbose: bool = False) -> Server:
    """The app's server on 127.0.0.1 (``port`` 0: a free one); not yet serving."""
    try:
        return Server(app, port, verbose)
    except OSError as err:
        raise UserError(f"cannot listen on 127.0.0.1:{port}: {err.strerror}; pick another "
                        "--port or 0 for a free one") from None


def can_open_browser() -> bool:
    """Whether a graphical browser can be opened here (not a text browser in this terminal)."""
    if sys.platform not in ("darwin", "win32") and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    import webbrowser
    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True
