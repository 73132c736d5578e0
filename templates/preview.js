// The hand form's what-if preview: a pause of 250 ms after a field
// changes posts the form's fields to its box's data-preview address, which answers the row
// this hand would add (or the refusal) as an HTML fragment for the box. Nothing is recorded
// and nothing waits on it: Enter posts the form as ever, and without this script the box
// stays hidden. Listens on the document, so forms the live sheet swaps in are served too.
(function () {
  'use strict';
  if (window.skWhatIf) return; // every hand form includes this script; one listener
  window.skWhatIf = true;
  var DELAY = 250;
  var timers = new WeakMap();
  var asked = new WeakMap();

  function boxOf(form) {
    return form ? form.querySelector('.what-if[data-preview]') : null;
  }

  // The box keeps one height from the moment the page shows it (style.css, under
  // .what-if-on), with the row scrolling inside it: an answer never moves the fields or
  // the submit button under a finger on its way to them.
  var EMPTY = '<p class="hint">The row this hand would add shows here as you fill in the form.</p>';
  document.documentElement.classList.add('what-if-on');

  function show(box, html) {
    box.innerHTML = html.trim() === '' ? EMPTY : html;
  }

  document.querySelectorAll('.what-if[data-preview]').forEach(function (box) { show(box, ''); });

  function ask(form) {
    var box = boxOf(form);
    if (!box) return;
    var n = asked.get(form) || 0;
    fetch(box.getAttribute('data-preview'), {
      method: 'POST',
      body: new URLSearchParams(new FormData(form)),
      credentials: 'same-origin',
      headers: { Accept: 'text/html' }
    }).then(function (r) {
      // 200: the row; 409/422: the refusal in words. Busy or not allowed: keep quiet.
      if (r.status === 429 || r.status >= 500) return null;
      var answer = r.status === 200 || r.status === 409 || r.status === 422;
      return r.text().then(function (t) { return answer ? t : ''; });
    }).then(function (html) {
      if (html === null || asked.get(form) !== n) return;
      show(box, html);
    }).catch(function () {
      // Offline: the form still posts (and queues); the preview just waits.
    });
  }

  function later(event) {
    var form = event.target && event.target.closest ? event.target.closest('form') : null;
    if (!boxOf(form)) return;
    // Any change makes an answer on its way stale: only the answer to the form as it
    // stands now is shown, so nothing moves for a question already overtaken.
    asked.set(form, (asked.get(form) || 0) + 1);
    clearTimeout(timers.get(form));
    timers.set(form, setTimeout(function () { ask(form); }, DELAY));
  }

  document.addEventListener('input', later);
  document.addEventListener('change', later);

  // A folded section of a hand form may send its fields as <noscript class="unfold"> text
  // (the Auction game's overtime: thousands of chips a phone would otherwise lay out for
  // nothing). Opened, the text becomes the same fields; without script the browser shows
  // the noscript's fields as ever. `toggle` does not bubble: caught on the way down.
  document.addEventListener('toggle', function (event) {
    var details = event.target;
    if (!details.open || !details.querySelectorAll) return;
    details.querySelectorAll('noscript.unfold').forEach(function (folded) {
      folded.insertAdjacentHTML('afterend', folded.textContent);
      folded.remove();
    });
  }, true);
})();
