// Draws the page, then marks when it is ready for the browser test.
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
