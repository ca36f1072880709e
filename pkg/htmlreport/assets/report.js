// Draws the testctl HTML report from the JSON embedded in the page.
// Every string of the data is service text: it only ever reaches the page
// through textContent, attribute setters and SVG attributes, never as
// markup, and a URL becomes a link only when it is http or https.
(function () {
  'use strict';
  var SVG = 'http://www.w3.org/2000/svg';
  var data = JSON.parse(document.getElementById('testctl-report-data').textContent);
  var app = document.getElementById('app');
  document.documentElement.dataset.parsed = String(Math.round(performance.now()));

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null && text !== '') e.textContent = String(text);
    return e;
  }
  function put(parent) {
    for (var i = 1; i < arguments.length; i++) {
      if (arguments[i]) parent.appendChild(arguments[i]);
    }
    return parent;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function num(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  function plural(n, one, many) { return num(n) + ' ' + (n === 1 ? one : many); }
  function ms(v) { return v >= 1000 ? (v / 1000).toFixed(v >= 10000 ? 0 : 1) + ' s' : Math.round(v) + ' ms'; }
  function safeHref(u) {
    // The Go side only sets href for http(s) URLs; checked again here so
    // that this file alone never makes a javascript: link.
    return typeof u === 'string' && /^https?:\/\//i.test(u) ? u : '';
  }
  // link shows label (or the URL) as a link when the URL is safe to follow,
  // else as text, with the URL beside it so nothing is hidden.
  function link(l, label) {
    l = l || {};
    var href = safeHref(l.href);
    if (href) {
      var a = el('a', null, label || l.text);
      a.href = href;
      a.rel = 'noopener noreferrer';
      a.title = l.text;
      return a;
    }
    var s = el('span', 'nolink', label || l.text);
    if (label && l.text) put(s, el('span', 'rawurl', ' ' + l.text));
    return s;
  }
  function pill(cls, text) { return el('span', 'pill ' + cls, text); }
  var classLabel = { failed: 'failed', errored: 'errored', flaky: 'flaky', notrun: 'not run', skipped: 'skipped', passed: 'passed' };
  function verdictClass(v) {
    v = String(v || '').toLowerCase();
    if (v === 'passed') return 'passed';
    if (v === 'flaky') return 'flaky';
    if (v === 'skipped') return 'skipped';
    if (v === 'failed') return 'failed';
    return 'errored';
  }
  function resultClass(r) {
    var v = String(r || '').toUpperCase();
    if (v === 'PASSED') return 'passed';
    if (v === 'FAILED') return 'failed';
    if (v === 'SKIPPED') return 'skipped';
    if (v === 'ERROR' || v === 'CANCELLED') return 'errored';
    return 'notrun';
  }

  // ---------------------------------------------------------------- header
  function header() {
    var h = el('header', 'top');
    var v = el('div', 'verdict ' + verdictClass(data.verdict));
    put(v, el('span', 'verdict-word', data.verdict || 'NO VERDICT'), el('span', 'exit', 'exit code ' + data.exitCode));
    var meta = el('div', 'meta');
    put(meta, el('h1', null, 'testctl report'),
      el('div', 'sub', plural(data.runs.length, 'run', 'runs') + (data.generatedAt ? ' · written ' + data.generatedAt : '')));
    var counts = el('div', 'counts');
    ['failed', 'errored', 'flaky', 'notrun', 'skipped', 'passed'].forEach(function (c) {
      var n = data.counts[c] || 0;
      if (n) put(counts, el('span', 'count ' + c, num(n) + ' ' + classLabel[c]));
    });
    put(h, v, meta, counts);
    put(app, h);
    if (data.partial) {
      put(app, el('div', 'banner', 'Partial report: written before every run ended' +
        (data.partialReason ? ' (' + data.partialReason + ')' : '') + '. Test cases still running are shown as not run.'));
    }
    if (data.limits.clipped) {
      put(app, el('div', 'banner soft', 'Long texts were shortened to keep this report small; the service keeps them whole.'));
    }
  }

  // --------------------------------------------------------------- toolbar
  var filter = 'all', query = '', cards = [], runSections = [], shownLine;
  function isFailure(c) { return c !== 'passed' && c !== 'flaky' && c !== 'skipped'; }
  function toolbar() {
    var bar = el('nav', 'toolbar');
    var total = 0, failed = 0, flaky = 0;
    data.runs.forEach(function (r) {
      r.cases.forEach(function (c) {
        total++;
        if (isFailure(c.class)) failed++;
        if (c.class === 'flaky') flaky++;
      });
    });
    var group = el('div', 'filters');
    group.setAttribute('role', 'group');
    [['failed', 'Failed', failed], ['flaky', 'Flaky', flaky], ['all', 'All', total]].forEach(function (f) {
      var b = el('button', 'filter', f[1] + ' ' + num(f[2]));
      b.type = 'button';
      b.dataset.filter = f[0];
      b.setAttribute('aria-pressed', String(f[0] === filter));
      b.addEventListener('click', function () {
        filter = f[0];
        group.querySelectorAll('button').forEach(function (x) { x.setAttribute('aria-pressed', String(x === b)); });
        apply();
      });
      put(group, b);
    });
    var search = el('input', 'search');
    search.type = 'search';
    search.placeholder = 'Search test cases';
    search.setAttribute('aria-label', 'Search test cases');
    search.addEventListener('input', function () { query = search.value.trim().toLowerCase(); apply(); });
    shownLine = el('span', 'shown');
    put(app, put(bar, group, search, shownLine));
  }
  function apply() {
    var shown = 0;
    cards.forEach(function (k) {
      var ok = (filter === 'all' || (filter === 'flaky' ? k.cls === 'flaky' : isFailure(k.cls))) &&
        (!query || k.text.indexOf(query) >= 0);
      k.node.hidden = !ok;
      if (ok) shown++;
    });
    runSections.forEach(function (s) {
      s.node.hidden = filter !== 'all' || query ? !s.cards.some(function (k) { return !k.node.hidden; }) : false;
    });
    shownLine.textContent = shown === cards.length ? plural(cards.length, 'test case', 'test cases')
      : num(shown) + ' of ' + plural(cards.length, 'test case', 'test cases') + ' shown';
  }

  // ------------------------------------------------------------------ runs
  function run(r) {
    var sec = el('section', 'run worst-' + (r.worst || 'passed'));
    var h = el('div', 'run-head');
    var title = el('h2', null, r.plan || r.shortId || 'Run');
    var facts = el('div', 'facts');
    if (r.planShortId && r.planShortId !== r.plan) put(facts, el('span', 'id', 'plan ' + r.planShortId));
    if (r.shortId || r.link.text) put(facts, put(el('span', 'fact'), el('span', 'label', 'run '), link(r.link, r.shortId)));
    if (r.status || r.result) put(facts, pill(resultClass(r.result || r.status), [r.status, r.result].filter(Boolean).join(' · ')));
    if (r.started) put(facts, el('span', 'fact', 'started ' + r.started));
    if (r.duration) put(facts, el('span', 'fact', 'took ' + r.duration));
    put(h, title, facts);
    put(sec, h);
    if (r.problem) put(sec, el('p', 'problem', r.problem));
    if (r.attempts && r.attempts.length) {
      var at = el('div', 'attempts');
      put(at, el('span', 'label', 'Attempts (--retry-failed): '));
      r.attempts.forEach(function (a, i) {
        if (i) put(at, el('span', 'arrow', '→'));
        var chip = el('span', 'attempt ' + resultClass(a.result));
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
      var node = testCase(c);
      var k = {
        node: node, cls: c.class,
        text: [c.name, c.shortId, c.status, c.result, c.resultTitle, c.evaluation, c.class, r.plan, r.shortId].join('\n').toLowerCase()
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
      var item = el('div', 'hist ' + h.outcome + (h.shortId && h.shortId === r.shortId ? ' current' : ''));
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

  function testCase(c) {
    var d = el('details', 'case ' + c.class);
    d.open = c.class !== 'passed' && c.class !== 'skipped';
    var s = el('summary');
    put(s, pill(c.class, classLabel[c.class] || c.class), el('span', 'name', c.name || c.shortId || '(no name)'));
    var side = el('span', 'side');
    if (c.attempt > 1) put(side, el('span', 'att', 'attempt ' + c.attempt));
    if (c.shortId) put(side, el('span', 'id', c.shortId));
    put(s, side);
    if (c.resultTitle) put(s, el('span', 'title', c.resultTitle));
    put(d, s);
    var body = el('div', 'case-body');
    if (c.failedAttempt) {
      var grid = el('div', 'sidebyside');
      put(grid, attemptColumn(c.failedAttempt, 'Failed on attempt ' + c.failedAttempt.attempt, 'failed'),
        attemptColumn(c, 'Passed on attempt ' + c.attempt, 'passed'));
      put(body, grid);
    } else {
      caseDetails(body, c);
    }
    if (!body.childNodes.length) put(body, el('p', 'empty', 'Nothing more was reported for this test case.'));
    return put(d, body);
  }
  function attemptColumn(c, heading, cls) {
    var col = el('div', 'col');
    put(col, put(el('h3', 'col-head'), pill(cls, heading), c.shortId ? el('span', 'id', ' ' + c.shortId) : null));
    if (c.status || c.result) put(col, el('div', 'fact', [c.status, c.result].filter(Boolean).join(' · ')));
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

  // -------------------------------------------------------------- evidence
  function partNote(p, what, cap, keptFirst) {
    var notes = [];
    if (p.leftOut) notes.push(num(p.entries.length) + ' of ' + num(p.entries.length + p.leftOut) + ' ' + what + ' shown: ' +
      num(p.leftOut) + ' left out of this report (at most ' + num(cap) + ' per test case, ' + keptFirst + ' kept first)');
    if (p.more || (p.total && p.total > p.entries.length + (p.leftOut || 0))) notes.push('the service matched ' + num(p.total || 0) + ' and sent fewer');
    return notes.length ? el('p', 'note', notes.join('; ')) : null;
  }
  function section(title, p, what, cap, keptFirst, draw) {
    if (!p.unavailable && !p.entries.length) return null;
    var sec = el('div', 'ev');
    var n = p.entries.length + (p.leftOut || 0);
    put(sec, el('h4', null, n ? title + ' (' + num(n) + ')' : title));
    if (p.unavailable) put(sec, el('p', 'note warn', 'Could not be read: ' + p.unavailable));
    put(sec, partNote(p, what, cap, keptFirst));
    if (p.entries.length) put(sec, draw(p.entries));
    return sec;
  }
  function evidence(ev) {
    var box = el('div', 'evidence');
    put(box,
      section('Detected issues', ev.issues, 'issues', data.limits.issues, 'all', issues),
      section('Network', ev.network, 'requests', data.limits.network, 'failed ones', waterfall),
      section('Console', ev.console, 'messages', data.limits.console, 'errors and warnings', consoleLog),
      section('API calls', ev.apiCalls, 'calls', data.limits.apiCalls, 'failed ones', apiCalls));
    return box;
  }

  function issues(list) {
    var ul = el('ul', 'issues');
    list.forEach(function (i) {
      var li = el('li');
      put(li, i.severity ? pill('sev ' + String(i.severity).toLowerCase(), i.severity) : null, el('strong', null, i.title),
        i.type ? el('span', 'id', ' ' + i.type) : null);
      if (i.description) put(li, el('p', 'text', i.description));
      if (i.tags) put(li, el('span', 'tags', i.tags.join(' · ')));
      if (i.help && i.help.text) put(li, put(el('div', 'help'), el('span', 'label', 'Help: '), link(i.help)));
      put(ul, li);
    });
    return ul;
  }

  // The waterfall: a bar per request from its start to its end. Requests the
  // service gave no start time are laid one after another after the timed
  // ones, and drawn dashed, since their place on the time axis is a guess.
  var ROW = 20;
  function waterfall(list) {
    var rows = [], end = 0, cursor = 0, untimed = 0;
    list.forEach(function (n) {
      var d = n.durationMs > 0 ? n.durationMs : 0;
      if (n.startMs !== undefined && n.startMs !== null) end = Math.max(end, n.startMs + d);
    });
    cursor = end;
    list.forEach(function (n) {
      var d = n.durationMs > 0 ? n.durationMs : 0, timed = n.startMs !== undefined && n.startMs !== null, s;
      if (timed) s = n.startMs; else { s = cursor; cursor += d; untimed++; }
      rows.push({ n: n, start: s, dur: d, timed: timed });
    });
    var total = Math.max(cursor, end, 1);
    var box = el('div', 'wf');
    var labels = el('div', 'wf-labels');
    var chart = el('div', 'wf-chart');
    var axis = el('div', 'wf-axis');
    [0, 0.25, 0.5, 0.75, 1].forEach(function (f) {
      var t = el('span', 'tick', ms(total * f));
      t.style.left = (f * 100) + '%';
      if (f === 1) t.classList.add('last');
      put(axis, t);
    });
    put(labels, el('div', 'wf-lhead', 'Request'));
    var g = svg('svg', { class: 'wf-svg', width: '100%', height: rows.length * ROW, role: 'img' });
    g.setAttribute('aria-label', 'Network waterfall, ' + rows.length + ' requests over ' + ms(total));
    [0.25, 0.5, 0.75].forEach(function (f) {
      put(g, svg('line', { class: 'grid', x1: f * 100 + '%', x2: f * 100 + '%', y1: 0, y2: rows.length * ROW }));
    });
    var frag = document.createDocumentFragment();
    rows.forEach(function (r, i) {
      var n = r.n;
      var row = el('div', 'wf-row' + (n.failed ? ' failed' : ''));
      put(row, el('span', 'st', n.status ? n.status : 'no answer'), el('span', 'm', n.method), el('span', 'u', n.url));
      row.title = (n.method ? n.method + ' ' : '') + n.url + (n.error ? '\n' + n.error : '');
      put(frag, row);
      var x = r.start / total * 100, w = Math.max(r.dur / total * 100, 0.4);
      var cls = 'bar' + (n.failed ? ' failed' : '') + (r.timed ? '' : ' untimed') + (n.durationMs === undefined ? ' nodur' : '');
      var rect = svg('rect', { class: cls, x: Math.min(x, 99.6) + '%', y: i * ROW + 4, width: w + '%', height: ROW - 8, rx: 2 });
      put(rect, put(svg('title', {}), document.createTextNode(
        (n.method ? n.method + ' ' : '') + n.url + ' → ' + (n.status || 'no answer') +
        (n.durationMs !== undefined ? ', ' + ms(n.durationMs) : ', no duration') +
        (r.timed ? ', started at ' + ms(r.start) : ', start time unknown') + (n.error ? ': ' + n.error : ''))));
      put(g, rect);
    });
    put(labels, frag);
    put(chart, axis, g);
    put(box, labels, chart);
    var legend = el('div', 'legend');
    put(legend, put(el('span'), el('i', 'key ok'), document.createTextNode(' answered')),
      put(el('span'), el('i', 'key failed'), document.createTextNode(' failed')));
    if (untimed) put(legend, put(el('span'), el('i', 'key untimed'), document.createTextNode(
      ' start time unknown (' + num(untimed) + '): laid one after another')));
    return put(el('div'), box, legend);
  }

  function consoleLog(list) {
    var t = el('table', 'console');
    var frag = document.createDocumentFragment();
    list.forEach(function (c) {
      var tr = el('tr', 'lvl-' + String(c.level).toLowerCase());
      put(tr, el('td', 'at', '+' + c.atS + ' s'), put(el('td'), pill('lvl ' + String(c.level).toLowerCase(), c.level)),
        put(el('td', 'msg'), el('span', 'text', c.message), c.source ? el('div', 'src', c.source) : null));
      put(frag, tr);
    });
    return put(t, frag);
  }

  function apiCalls(list) {
    var box = el('div', 'apicalls');
    list.forEach(function (a) {
      var d = el('details', 'api' + (a.failed ? ' failed' : ''));
      d.open = a.failed;
      var s = el('summary');
      put(s, pill(a.failed ? 'failed' : 'passed', a.status !== undefined ? a.status : 'no answer'), el('span', 'm', a.method),
        el('span', 'u', a.url), a.durationMs !== undefined ? el('span', 'id', ms(a.durationMs)) : null);
      put(d, s);
      if (a.error) put(d, el('p', 'note warn', a.error));
      if (a.result) put(d, el('p', 'text', a.result));
      put(d, body('Request body', a.requestBody, a.requestTruncated, a.requestClipped),
        body('Response body', a.responseBody, a.responseTruncated, a.responseClipped));
      put(box, d);
    });
    return box;
  }
  function body(title, text, cut, clipped) {
    if (!text && !cut) return null;
    var b = el('div', 'body');
    put(b, el('div', 'label', title + (cut ? ' (truncated by the service)' : '') + (clipped ? ' (shortened in this report)' : '')),
      el('pre', null, text || ''));
    return b;
  }

  // ------------------------------------------------------------------ page
  header();
  toolbar();
  var main = el('main');
  if (!data.runs.length) put(main, el('p', 'empty', 'No runs.'));
  data.runs.forEach(function (r) { put(main, run(r)); });
  put(app, main);
  apply();
  drawPending();
  // ready: drawn; painted: the next frame after it, when a person sees it.
  document.documentElement.dataset.ready = String(Math.round(performance.now()));
  requestAnimationFrame(function () {
    setTimeout(function () { document.documentElement.dataset.painted = String(Math.round(performance.now())); }, 0);
  });
})();
