// The live sheet: when another phone enters or corrects a hand, fetch this page again and
// swap in the new score sheet and balances. The next-hand form is swapped too unless
// someone has started typing in it; then it keeps the count of hands it saw, so the server
// can say "hand N was just entered by another device" instead of recording it twice.
// Without script, a plain reload shows the same. A screen reader hears "the sheet was
// updated" through the status line; leaving the page closes the connection, so a phone
// that goes back and forth never holds more than one.
// Times are stored in UTC; each <time datetime> is shown in the reader's own zone, as the
// table's clock reads ("Tue 20:15"); without script the UTC words stay.
function localTimes(root) {
  root.querySelectorAll('time[datetime]').forEach(function (t) {
    var when = new Date(t.getAttribute('datetime'));
    if (isNaN(when)) return;
    t.textContent = when.toLocaleString(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
    t.title = t.getAttribute('datetime');
  });
}
localTimes(document);
// Steppers: a number field marked data-stepper (a meld, a count of check melds) gets a −
// and a + button (44 px) that step it by its own step (10 points, one meld), within its
// min and max. The field stays typeable and is what the form posts: a count stepped back
// to nothing is empty again, as it started. Without script the field is typed.
function steppers(root) {
  root.querySelectorAll('input[data-stepper]').forEach(function (field) {
    if (field.parentNode.classList.contains('stepper')) return;
    var box = document.createElement('span');
    box.className = 'stepper';
    field.parentNode.insertBefore(box, field);
    var what = (field.closest('label') || field).textContent.trim();
    function button(sign, words) {
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 'step';
      b.textContent = sign > 0 ? '+' : '\u2212';
      b.setAttribute('aria-label', words + ': ' + what);
      b.addEventListener('click', function () {
        var step = Number(field.step) || 1, min = field.min === '' ? 0 : Number(field.min);
        var max = field.max === '' ? Infinity : Number(field.max);
        var now = Number(field.value) || 0, next = Math.min(max, Math.max(min, now + sign * step));
        field.value = next === 0 ? '' : String(next);
        field.dispatchEvent(new Event('input', { bubbles: true }));
      });
      return b;
    }
    box.appendChild(button(-1, 'one less'));
    box.appendChild(field);
    box.appendChild(button(1, 'one more'));
  });
}
steppers(document);
// Quick values: a number that is usually one of a few (a bid, a meld, a side's tricks, a
// poker put-in) gets a row of 44 px buttons under its field, one tap each. data-quick
// lists the values; data-quick-units lists multiples of the field's own step, written
// with the step's decimals (0.05 × 5 = "0.25"). Money is shown as every page writes it:
// data-quick-money is the server's pattern ("$#"), the digits in place of the #. The field
// stays typeable and is what the form posts; the button of the value it shows is marked
// pressed. Without script the field is typed.
function quickValues(root) {
  root.querySelectorAll('input[data-quick], input[data-quick-units]').forEach(function (field) {
    if (field.hasAttribute('data-quick-done')) return;
    field.setAttribute('data-quick-done', '');
    var values = (field.getAttribute('data-quick') || '').split(/\s+/).filter(Boolean);
    var units = (field.getAttribute('data-quick-units') || '').split(/\s+/).filter(Boolean);
    if (units.length) {
      var step = field.getAttribute('step') || '1', places = (step.split('.')[1] || '').length;
      values = units.map(function (n) { return (Number(step) * Number(n)).toFixed(places); });
    }
    var money = field.getAttribute('data-quick-money');
    var label = field.closest('label');
    var what = label && label.firstChild ? label.firstChild.textContent.trim() : field.name;
    var row = document.createElement('span');
    row.className = 'quick';
    values.forEach(function (v) {
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 'quick';
      b.value = v;
      var shown = money ? money.replace('#', v) : v;
      b.textContent = shown;
      b.setAttribute('data-for', field.name);
      b.setAttribute('aria-label', what + ' ' + shown);
      b.addEventListener('click', function () {
        field.value = v;
        field.dispatchEvent(new Event('input', { bubbles: true }));
      });
      row.appendChild(b);
    });
    function mark() {
      row.querySelectorAll('button').forEach(function (b) {
        b.setAttribute('aria-pressed', String(b.value === field.value));
      });
    }
    field.addEventListener('input', mark);
    mark();
    var after = label || field;
    after.parentNode.insertBefore(row, after.nextSibling);
  });
}
quickValues(document);
// Four at an auction-pinochle table: the dealer sits out, so the dealer's bidder chip is
// off (the server refuses that bidder anyway). Follows the dealer menu as it changes.
function dealerSitsOut(root) {
  root.querySelectorAll('form[data-dealer-sits-out]').forEach(function (form) {
    var dealer = form.querySelector('select[name=dealer]');
    if (!dealer) return;
    function mark() {
      form.querySelectorAll('input[name=bidder]').forEach(function (chip) {
        chip.disabled = chip.value === dealer.value && !chip.checked;
      });
    }
    dealer.addEventListener('change', mark);
    mark();
  });
}
dealerSitsOut(document);
// A refused entry: its message is brought to the top of the screen and focused, so the
// player sees it at once with the kept values under it, and a screen reader announces it.
(function () {
  var error = document.getElementById('error');
  if (!error) return;
  error.focus({ preventScroll: true });
  error.scrollIntoView({ block: 'start' });
})();
// When the stream drops (the Wi-Fi went, the server restarted), the browser opens it again
// by itself; a stream the browser gave up on is opened again here every few seconds. On
// every reopening the sheet is fetched afresh, since changes made meanwhile were not
// announced; `sheet:updated` tells the offline queue (offline.js) to send what waits.
var Live = (function () {
  var root = document.getElementById('live');
  if (!root || !window.EventSource || !window.fetch) return null;
  var typing = false, source = null, dropped = false;
  document.addEventListener('input', function () { typing = true; });
  // Fetches this page again and swaps in the new sheet; resolves true when it was
  // swapped, false when the server did not answer.
  function refresh() {
    return fetch(location.pathname + location.search, { credentials: 'same-origin' })
      .then(function (response) {
        if (!response.ok) return false;
        return response.text().then(function (html) {
          var fresh = new DOMParser().parseFromString(html, 'text/html');
          var parts = typing ? ['#now', '#sheet', '#settle'] : ['#now', '#sheet', '#settle', '#next', '#correct'];
          parts.forEach(function (selector) {
            var now = document.querySelector(selector), next = fresh.querySelector(selector);
            if (now && next) now.replaceWith(next);
          });
          localTimes(document);
          steppers(document);
          quickValues(document);
          dealerSitsOut(document);
          root.setAttribute('data-updated', String(Date.now()));
          var status = document.getElementById('live-status');
          if (status) status.textContent = 'The sheet was updated.';
          document.dispatchEvent(new CustomEvent('sheet:updated'));
          return true;
        });
      })
      .catch(function () { return false; });
  }
  function connect() {
    source = new EventSource(root.getAttribute('data-live'));
    source.addEventListener('changed', refresh);
    source.addEventListener('open', function () {
      if (dropped) refresh();
      dropped = false;
      document.dispatchEvent(new CustomEvent('live:open'));
    });
    source.addEventListener('error', function () {
      dropped = true;
      document.dispatchEvent(new CustomEvent('live:error'));
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 5000);
    });
  }
  connect();
  window.addEventListener('pagehide', function () { if (source) source.close(); });
  return { refresh: refresh, typingDone: function () { typing = false; } };
})();
