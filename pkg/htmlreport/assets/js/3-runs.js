// Each run: its facts, attempts, the plan's history, its test cases.
function run(r) {
  var sec = el('section', 'run ' + (r.class || ''));
  var h = el('div', 'run-head');
  var title = el('h2', null, r.plan || r.shortId || 'Run');
  var facts = el('div', 'facts');
  if (r.planShortId && r.planShortId !== r.plan) put(facts, el('span', 'id', 'plan ' + r.planShortId));
  if (r.shortId || r.link.text) put(facts, put(el('span', 'fact'), el('span', 'label', 'run '), link(r.link, r.shortId)));
  if (r.status || r.result) put(facts, pill(r.class, [r.status, r.result].filter(Boolean).join(' · ')));
  if (r.started) put(facts, el('span', 'fact', 'started ' + r.started));
  if (r.ended) put(facts, el('span', 'fact', r.ended));
  put(h, title, facts);
  put(sec, h);
  if (r.problem) put(sec, el('p', 'problem', r.problem));
  if (r.note) put(sec, el('p', 'note', r.note));
  if (r.attempts && r.attempts.length) {
    var at = el('div', 'attempts');
    put(at, el('span', 'label', 'Attempts (--retry-failed): '));
    r.attempts.forEach(function (a, i) {
      if (i) put(at, el('span', 'arrow', '→'));
      var chip = el('span', 'attempt ' + (a.class || ''));
      put(chip, el('span', 'n', '#' + (i + 1) + ' '), link(a.link, a.shortId || 'attempt ' + (i + 1)));
      if (a.result) put(chip, el('span', 'r', ' ' + a.result));
      put(at, chip);
    });
    put(sec, at);
  }
  if (r.history && r.history.length) put(sec, history(r));
  var list = el('div', 'cases');
  var mine = [];
  if (!r.cases.length) put(list, el('p', 'empty', 'No test cases reported for this run.'));
  r.cases.forEach(function (c) {
    var node = testCase(c, r);
    var k = {
      node: node, cls: c.class, failure: c.failure || '',
      text: [c.name, c.shortId, c.status, c.result, c.resultTitle, c.evaluation, c.class, c.failure, r.plan, r.shortId]
        .concat(c.failedAttempt ? [c.failedAttempt.resultTitle, c.failedAttempt.evaluation] : []).join('\n').toLowerCase()
    };
    cards.push(k);
    mine.push(k);
    put(list, node);
  });
  runSections.push({ node: sec, cards: mine });
  return put(sec, list);
}

function history(r) {
  var box = el('div', 'history');
  put(box, el('span', 'label', 'Recent runs of this plan, newest first'));
  var strip = el('div', 'strip');
  r.history.forEach(function (h) {
    var item = el('div', 'hist ' + (h.class || '') + (h.shortId && h.shortId === r.shortId ? ' current' : ''));
    item.title = [h.shortId, h.label, h.duration, h.createdAt].filter(Boolean).join(' · ');
    var mark = el('span', 'mark');
    var href = safeHref(h.link.href);
    if (href) {
      var a = el('a', 'marklink');
      a.href = href;
      a.rel = 'noopener noreferrer';
      a.setAttribute('aria-label', item.title);
      put(a, mark);
      put(item, a);
    } else {
      put(item, mark);
    }
    put(item, el('span', 'dur', h.duration || '–'));
    put(strip, item);
  });
  return put(box, strip);
}

function testCase(c, r) {
  var d = el('details', 'case ' + c.class);
  d.open = c.class !== 'passed' && c.class !== 'skipped';
  var s = el('summary');
  put(s, pill(c.class, classLabel[c.class] || c.class));
  // The failure's class against the baseline and the quarantine: whether
  // it is the change's, decided by the verdict.
  if (c.failure) put(s, pill('failure ' + c.failure, c.failure));
  put(s, el('span', 'name', c.name || c.shortId || '(no name)'));
  var side = el('span', 'side');
  if (c.attempt > 1) put(side, el('span', 'att', 'attempt ' + c.attempt));
  if (c.shortId) put(side, el('span', 'id', c.shortId));
  put(s, side);
  if (c.resultTitle) put(s, el('span', 'title', c.resultTitle));
  put(d, s);
  var body = el('div', 'case-body');
  if (c.failureNote) put(body, el('p', 'fact', c.failureNote));
  if (c.failedAttempt) {
    var grid = el('div', 'sidebyside');
    put(grid, attemptColumn(r, c.failedAttempt, 'Failed on attempt ' + c.failedAttempt.attempt, c.failedAttempt.class),
      attemptColumn(r, c, 'Passed on attempt ' + c.attempt, 'passed'));
    put(body, grid);
  } else {
    caseDetails(body, c);
  }
  if (!body.childNodes.length) put(body, el('p', 'empty', 'Nothing more was reported for this test case.'));
  return put(d, body);
}
// attemptColumn is one attempt of a flaky test case, with a link to the
// run of that attempt when the run lists it.
function attemptColumn(r, c, heading, cls) {
  var col = el('div', 'col');
  put(col, put(el('h3', 'col-head'), pill(cls, heading), c.shortId ? el('span', 'id', ' ' + c.shortId) : null));
  var facts = el('div', 'fact', [c.status, c.result].filter(Boolean).join(' · '));
  var at = r.attempts && r.attempts[c.attempt - 1];
  if (at) put(facts, el('span', 'label', (facts.textContent ? ' · ' : '') + 'run '), link(at.link, at.shortId));
  if (facts.childNodes.length) put(col, facts);
  if (c.resultTitle) put(col, el('p', 'rtitle', c.resultTitle));
  caseDetails(col, c);
  return col;
}
function caseDetails(box, c) {
  if (c.evaluation) put(box, put(el('div', 'evaluation'), el('div', 'label', 'Evaluation'), el('p', 'text', c.evaluation)));
  if (c.evidence) put(box, evidenceSlot(c.evidence));
}

// The first evidence blocks are drawn at once; the others when they come
// near the screen, so that a report of fifty failures with a thousand
// requests each is as quick to open as one of five.
var eager = 5, pending = new Map();
function evidenceSlot(ev) {
  if (eager > 0 || !('IntersectionObserver' in window)) {
    eager--;
    return evidence(ev);
  }
  var slot = el('div', 'evidence pending', 'Loading evidence…');
  var rows = ev.network.entries.length + ev.console.entries.length + 2 * ev.apiCalls.entries.length + 2 * ev.issues.entries.length;
  slot.style.minHeight = Math.min(rows * 20 + 160, 8000) + 'px';
  pending.set(slot, ev);
  return slot;
}
function drawPending() {
  if (!pending.size) return;
  var io = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (!e.isIntersecting || !pending.has(e.target)) return;
      io.unobserve(e.target);
      var full = evidence(pending.get(e.target));
      pending.delete(e.target);
      e.target.replaceWith(full);
    });
  }, { rootMargin: '1500px 0px' });
  pending.forEach(function (_, slot) { io.observe(slot); });
}

