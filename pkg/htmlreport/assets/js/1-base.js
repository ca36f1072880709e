// Draws the testctl HTML report from the JSON embedded in the page. The
// files of assets/js are joined in name order inside one function (see
// render.go): this one holds the data and the helpers every other uses.
//
// Every string of the data is service text: it only ever reaches the page
// through textContent, attribute setters and SVG attributes, never as
// markup, and a URL becomes a link only when it is http or https.
//
// Nothing here classifies: each run, test case, attempt and history entry
// carries its class as the verdict decided it (failed, errored, flaky,
// notrun, skipped, passed), and the page colours, filters and counts by it,
// never by a status or a result.
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
function pill(cls, text) { return el('span', 'pill ' + (cls || ''), text); }
var classLabel = { failed: 'failed', errored: 'errored', flaky: 'flaky', notrun: 'not run', skipped: 'skipped', passed: 'passed' };
// isFailure: the class counts against its run, as the verdict says
// (data.failing); what the Failed filter shows.
function isFailure(c) { return data.failing.indexOf(c) >= 0; }

