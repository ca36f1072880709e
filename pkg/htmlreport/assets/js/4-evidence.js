// What the service captured while a test case ran.
function partNote(p, what, keptFirst) {
  var notes = [];
  if (p.leftOut) notes.push(num(p.entries.length) + ' of ' + num(p.entries.length + p.leftOut) + ' ' + what + ' shown: ' +
    num(p.leftOut) + ' left out of this report (at most ' + num(p.limit) + ' per test case, ' + keptFirst + ' kept first)');
  if (p.more || (p.total && p.total > p.entries.length + (p.leftOut || 0))) notes.push('the service matched ' + num(p.total || 0) + ' and sent fewer');
  return notes.length ? el('p', 'note', notes.join('; ')) : null;
}
function section(title, p, what, keptFirst, draw) {
  if (!p.unavailable && !p.entries.length) return null;
  var sec = el('div', 'ev');
  var n = p.entries.length + (p.leftOut || 0);
  put(sec, el('h4', null, n ? title + ' (' + num(n) + ')' : title));
  // A request on the part's origin carries only its path.
  p.entries.forEach(function (e) { if (e.path !== undefined && !e.url) e.url = p.origin + e.path; });
  if (p.unavailable) put(sec, el('p', 'note warn', 'Could not be read: ' + p.unavailable));
  put(sec, partNote(p, what, keptFirst));
  if (p.entries.length) put(sec, draw(p.entries));
  return sec;
}
function evidence(ev) {
  var box = el('div', 'evidence');
  put(box,
    section('Detected issues', ev.issues, 'issues', 'the first', issues),
    section('Network', ev.network, 'requests', 'failed ones', waterfall),
    section('Console', ev.console, 'messages', 'errors and warnings', consoleLog),
    section('API calls', ev.apiCalls, 'calls', 'failed ones', apiCalls));
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
    var row = el('div', 'wf-row' + (n.failed ? ' failed' : '') + (n.named ? ' named' : ''));
    put(row, n.named ? namedMark() : null, el('span', 'st', n.status ? n.status : 'no answer'), el('span', 'm', n.method), el('span', 'u', n.path || n.url));
    row.title = (n.method ? n.method + ' ' : '') + n.url + (n.error ? '\n' + n.error : '') + (n.named ? '\nnamed by the evaluation' : '');
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

// requestURL is an API call's URL as its summary shows it: the path (the
// application's own host left out, as in the waterfall), whole on hover.
function requestURL(r) {
  var u = el('span', 'u', r.path || r.url);
  u.title = r.url;
  return u;
}

// namedMark marks an entry the evaluation names: the one to look at first.
function namedMark() {
  var m = el('span', 'named-mark', '◆');
  m.title = 'named by the evaluation';
  m.setAttribute('aria-label', 'named by the evaluation');
  return m;
}

function consoleLog(list) {
  var t = el('table', 'console');
  var frag = document.createDocumentFragment();
  list.forEach(function (c) {
    var tr = el('tr', 'lvl-' + String(c.level).toLowerCase() + (c.named ? ' named' : ''));
    put(tr, el('td', 'at', '+' + c.atS + ' s'), put(el('td'), pill('lvl ' + String(c.level).toLowerCase(), c.level), c.named ? namedMark() : null),
      put(el('td', 'msg'), el('span', 'text', c.message), c.source ? el('div', 'src', c.source) : null));
    put(frag, tr);
  });
  return put(t, frag);
}

function apiCalls(list) {
  var box = el('div', 'apicalls');
  list.forEach(function (a) {
    var d = el('details', 'api' + (a.failed ? ' failed' : '') + (a.named ? ' named' : ''));
    d.open = a.failed;
    var s = el('summary');
    put(s, a.named ? namedMark() : null, pill(a.failed ? 'failed' : 'passed', a.status !== undefined ? a.status : 'no answer'), el('span', 'm', a.method),
      requestURL(a), a.durationMs !== undefined ? el('span', 'id', ms(a.durationMs)) : null);
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

