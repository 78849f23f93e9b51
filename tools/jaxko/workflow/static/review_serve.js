// jaxko review serve: one document's queue. Every text from the server is set with
// textContent (never innerHTML); writes are JSON POSTs carrying the page's token and the
// hashes of the files the page was rendered from, one at a time.
'use strict';
(function () {
  const main = document.querySelector('main[data-doc]');
  if (!main) return;   // the index page
  const TOKEN = document.querySelector('meta[name="jaxko-token"]').content;
  const DOC = main.dataset.doc;
  let hashes = {catalog: main.dataset.catalogHash, records: main.dataset.recordsHash};
  const rows = Array.from(document.querySelectorAll('tr.message'));
  const notice = document.getElementById('notice');
  const cleanButton = document.getElementById('approve-clean');
  let current = -1;
  let chain = Promise.resolve();
  let stopped = false;   // after a conflict nothing more is sent until a reload

  function say(text) { notice.textContent = text; }

  function setText(id, value) {
    const node = document.getElementById(id);
    if (node) node.textContent = String(value);
  }

  function pending(row) { return !row.classList.contains('done'); }

  function updateProgress(progress) {
    setText('done-approved', progress.session.approved);
    setText('done-rejected', progress.session.rejected);
    setText('done-edited', progress.session.edited);
    setText('left-document', progress.document_left);
    setText('commit-command', progress.commit);
    for (const [level, count] of Object.entries(progress.levels)) {
      const node = document.querySelector(`#banner [data-level="${level}"] b`);
      if (node) node.textContent = String(count);
    }
    updatePage();
  }

  function updatePage() {
    setText('left-page', rows.filter(pending).length);
    const seenAll = rows.every((row) => row.dataset.seen === '1');
    const clean = rows.some((row) => pending(row) && row.dataset.clean === '1');
    cleanButton.disabled = !(seenAll && clean) || stopped;
    setText('clean-hint', seenAll ? '' : '(모든 메시지를 끝까지 훑어본 뒤에 켜집니다)');
  }

  // A message counts as seen once its end has been inside the window.
  function markSeen() {
    const height = window.innerHeight || document.documentElement.clientHeight;
    let changed = false;
    for (const row of rows) {
      if (row.dataset.seen === '1') continue;
      const box = row.getBoundingClientRect();
      if (box.bottom <= height && box.bottom > 0) {
        row.dataset.seen = '1';
        changed = true;
      }
    }
    if (changed) updatePage();
  }

  function outcome(row, kind, text) {
    const node = row.querySelector('.outcome');
    node.className = 'outcome outcome-' + kind;
    node.textContent = text;
  }

  function finish(row, kind, text) {
    row.classList.add('done');
    row.dataset.outcome = kind;
    outcome(row, kind, text);
    updatePage();
  }

  async function post(action, payload) {
    if (stopped) throw new Error(notice.textContent);   // keep the conflict shown
    const response = await fetch('/api/' + action, {
      method: 'POST',
      headers: {'Content-Type': 'application/json', 'X-Jaxko-Token': TOKEN},
      body: JSON.stringify(Object.assign({doc: DOC, catalog_hash: hashes.catalog,
                                          records_hash: hashes.records}, payload)),
    });
    let data;
    try { data = await response.json(); } catch (e) { data = {error: 'HTTP ' + response.status}; }
    if (!response.ok) {
      if (response.status === 409) {
        stopped = true;
        main.dataset.conflict = '1';
        updatePage();
      }
      const error = new Error(data.error || ('HTTP ' + response.status));
      error.status = response.status;
      throw error;
    }
    if (data.hashes) hashes = data.hashes;
    for (const [key, label] of Object.entries(data.levels || {})) {
      const node = document.querySelector(`tr.message[data-key="${CSS.escape(key)}"] td.state .level`);
      if (node) node.textContent = label;
    }
    if (data.progress) updateProgress(data.progress);
    return data;
  }

  // One write at a time, in the order they were asked for.
  function enqueue(work) {
    chain = chain.then(work).catch((error) => { say(error.message); });
    return chain;
  }

  function move(index) {
    if (!rows.length) return;
    index = Math.max(0, Math.min(rows.length - 1, index));
    if (current >= 0 && rows[current]) rows[current].classList.remove('current');
    current = index;
    const row = rows[current];
    row.classList.add('current');
    row.scrollIntoView({block: 'center'});
    markSeen();
  }

  function nextPending(from) {
    for (let i = from + 1; i < rows.length; i++) if (pending(rows[i])) return i;
    return Math.min(from + 1, rows.length - 1);
  }

  function approve(row) {
    if (!pending(row)) return;
    row.classList.add('done');   // no second approval while this one is on its way
    enqueue(async () => {
      try {
        await post('approve', {keys: [row.dataset.key]});
        finish(row, 'approved', '승인함');
      } catch (error) {
        row.classList.remove('done');
        outcome(row, 'refused', error.message);
        throw error;
      }
    });
  }

  function closeForms(row) {
    for (const form of row.querySelectorAll('form')) form.remove();
  }

  function rejectForm(row) {
    if (!pending(row)) return;
    closeForms(row);
    const form = document.createElement('form');
    form.className = 'note';
    const label = document.createElement('label');
    label.textContent = '역자에게 남길 메모(무엇을 고칠지):';
    const note = document.createElement('textarea');
    note.rows = 3;
    note.name = 'note';
    const send = document.createElement('button');
    send.type = 'submit';
    send.textContent = '거부 기록 (Enter)';
    label.appendChild(note);
    form.append(label, send);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const text = note.value.trim();
      if (!text) { say('거부하려면 메모가 필요합니다.'); note.focus(); return; }
      form.remove();
      enqueue(async () => {
        try {
          await post('reject', {keys: [row.dataset.key], note: text});
          finish(row, 'rejected', '거부함: ' + text);
        } catch (error) {
          outcome(row, 'refused', error.message);
          throw error;
        }
      });
      row.focus();
    });
    note.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey) { event.preventDefault(); form.requestSubmit(); }
      if (event.key === 'Escape') { form.remove(); }
    });
    row.querySelector('td.actions').appendChild(form);
    note.focus();
  }

  // the severities as the static review pages label them (review_html.SEVERITY_KO)
  const SEVERITY_KO = {error: '오류', warning: '경고', info: '힌트'};

  function showFindings(list, findings) {
    list.replaceChildren();
    if (!findings.length) {
      const item = document.createElement('li');
      item.textContent = '검사 결과 없음';
      item.className = 'finding-none';
      list.appendChild(item);
    }
    for (const finding of findings) {
      const item = document.createElement('li');
      item.className = 'finding-' + finding.severity;
      const label = document.createElement('span');
      label.className = 'severity';
      label.textContent = SEVERITY_KO[finding.severity] || finding.severity;
      item.append(label, ' ' + finding.rule + ': ' + finding.message);
      list.appendChild(item);
    }
  }

  function editForm(row) {
    if (!pending(row)) return;
    closeForms(row);
    const form = document.createElement('form');
    form.className = 'edit';
    const text = document.createElement('textarea');
    text.rows = 4;
    text.name = 'msgstr';
    text.value = row.dataset.msgstr;
    const checkButton = document.createElement('button');
    checkButton.type = 'button';
    checkButton.className = 'check';
    checkButton.textContent = '검사 (Ctrl+Enter)';
    const save = document.createElement('button');
    save.type = 'submit';
    save.className = 'save';
    save.textContent = '저장';
    save.disabled = true;
    const list = document.createElement('ul');
    list.className = 'edit-findings';
    let checked = null;   // the text the findings shown are about
    text.addEventListener('input', () => { save.disabled = true; checked = null; });
    checkButton.addEventListener('click', () => {
      const value = text.value;
      enqueue(async () => {
        const data = await post('check', {keys: [row.dataset.key], msgstr: value});
        showFindings(list, data.findings);
        if (text.value === value) { checked = value; save.disabled = false; }
      });
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (checked === null || checked !== text.value) return;
      const value = checked;
      form.remove();
      enqueue(async () => {
        try {
          const data = await post('edit', {keys: [row.dataset.key], msgstr: value});
          row.dataset.msgstr = data.msgstr;
          row.querySelector('td.ko').textContent = data.msgstr;
          const found = row.querySelector('td.findings ul');
          showFindings(found, data.findings);
          finish(row, 'edited', '고침: 다른 사람의 검수를 기다립니다');
        } catch (error) {
          outcome(row, 'refused', error.message);
          throw error;
        }
      });
      row.focus();
    });
    text.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        if (checked !== null && checked === text.value) form.requestSubmit();
        else checkButton.click();
      }
      if (event.key === 'Escape') { form.remove(); }
    });
    form.append(text, checkButton, save, list);
    row.querySelector('td.actions').appendChild(form);
    text.focus();
  }

  function approveClean() {
    const keys = rows.filter((row) => pending(row) && row.dataset.clean === '1' &&
                             row.dataset.seen === '1').map((row) => row.dataset.key);
    if (!keys.length) return;
    cleanButton.disabled = true;
    enqueue(async () => {
      const data = await post('approve-clean', {keys: keys});
      const approved = new Set(data.keys);
      for (const row of rows) if (approved.has(row.dataset.key)) finish(row, 'approved', '승인함');
      const skipped = (data.skipped || []).length;
      say(skipped ? `${approved.size}개 승인, ${skipped}개는 승인하지 않음(검사 오류, 거부, 퍼지, ` +
                    '또는 내가 번역·수정한 메시지)' : '');
      updatePage();
    });
  }

  for (const row of rows) {
    row.tabIndex = -1;
    row.addEventListener('click', (event) => {
      const index = rows.indexOf(row);
      if (index !== current) {
        if (current >= 0 && rows[current]) rows[current].classList.remove('current');
        current = index;
        row.classList.add('current');
      }
      const action = event.target.dataset ? event.target.dataset.action : undefined;
      if (action === 'approve') approve(row);
      else if (action === 'reject') rejectForm(row);
      else if (action === 'edit') editForm(row);
    });
  }
  cleanButton.addEventListener('click', approveClean);

  document.addEventListener('keydown', (event) => {
    const target = event.target;
    if (target && (target.tagName === 'TEXTAREA' || target.tagName === 'INPUT')) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const row = current >= 0 ? rows[current] : null;
    if (event.key === 'j') move(current + 1);
    else if (event.key === 'k') move(current - 1);
    else if (event.key === 'a' && row) { approve(row); move(nextPending(current)); }
    else if (event.key === 'r' && row) rejectForm(row);
    else if (event.key === 'e' && row) editForm(row);
    else return;
    event.preventDefault();
  });

  window.addEventListener('scroll', markSeen, {passive: true});
  window.addEventListener('resize', markSeen);
  markSeen();
  updatePage();
  window.jaxkoReview = {settled: () => chain};   // tests wait for the writes in flight
})();
