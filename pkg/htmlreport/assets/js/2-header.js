// The verdict at the top, and the filter and search bar under it.
function header() {
  var h = el('header', 'top');
  var v = el('div', 'verdict ' + (data.class || ''));
  put(v, el('span', 'verdict-word', data.verdict || 'NO VERDICT'), el('span', 'exit', 'exit code ' + data.exitCode));
  var meta = el('div', 'meta');
  put(meta, el('h1', null, 'testctl report'),
    el('div', 'sub', data.runsText + (data.generatedAt ? ' · written ' + data.generatedAt : '')));
  var counts = el('div', 'counts');
  ['failed', 'errored', 'flaky', 'notrun', 'skipped', 'passed'].forEach(function (c) {
    var n = data.counts[c] || 0;
    if (n) put(counts, el('span', 'count ' + c, num(n) + ' ' + classLabel[c]));
  });
  put(h, v, meta, counts);
  put(app, h);
  if (data.partial) {
    var banner = el('div', 'banner', 'Partial report: written before every run ended' +
      (data.partialReason ? ' (' + data.partialReason + ')' : '') + '. Test cases still running are shown as not run.');
    if (data.resume) {
      put(banner, el('span', 'resume', ' The run goes on; resume waiting with: '), el('code', null, data.resume));
    }
    put(app, banner);
  }
  if (data.limits.clipped) {
    put(app, el('div', 'banner soft', 'This report reached its size limit: further down, long texts are shortened and fewer ' +
      'entries of evidence are kept. The service keeps them whole.'));
  }
}

// --------------------------------------------------------------- toolbar
var filter = 'all', query = '', cards = [], runSections = [], shownLine;
function toolbar() {
  var bar = el('nav', 'toolbar');
  var total = 0, failed = 0, flaky = 0, byFailure = { new: 0, known: 0, quarantined: 0 };
  data.runs.forEach(function (r) {
    r.cases.forEach(function (c) {
      total++;
      if (isFailure(c.class)) failed++;
      if (c.class === 'flaky') flaky++;
      if (c.failure in byFailure) byFailure[c.failure]++;
    });
  });
  var group = el('div', 'filters');
  group.setAttribute('role', 'group');
  var filters = [['failed', 'Failed', failed]];
  // With a baseline or a quarantine, a filter per class of failure.
  if (byFailure.new + byFailure.known + byFailure.quarantined > 0) {
    filters.push(['new', 'New', byFailure.new], ['known', 'Known', byFailure.known], ['quarantined', 'Quarantined', byFailure.quarantined]);
  }
  filters.concat([['flaky', 'Flaky', flaky], ['all', 'All', total]]).forEach(function (f) {
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
  search.placeholder = 'Search test cases  ( / )';
  search.setAttribute('aria-label', 'Search test cases');
  search.addEventListener('input', function () { query = search.value.trim().toLowerCase(); apply(); });
  // "/" jumps to the search, as on most sites with one.
  document.addEventListener('keydown', function (e) {
    if (e.key === '/' && document.activeElement !== search && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      search.focus();
    }
  });
  shownLine = el('span', 'shown');
  put(app, put(bar, group, search, shownLine));
}
function apply() {
  var shown = 0;
  cards.forEach(function (k) {
    var ok = (filter === 'all' || (filter === 'flaky' ? k.cls === 'flaky' : filter === 'failed' ? isFailure(k.cls) : k.failure === filter)) &&
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

