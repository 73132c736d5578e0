// The sheet without Wi-Fi, the page's side. The service worker (/sw.js) is
// registered here: it keeps the pages seen and queues a form posted while the server does
// not answer. This script
// - queues the hand, undo, payment and void forms itself while the phone is offline or
//   older entries still wait (so they are recorded in the order entered);
// - shows what waits as "waiting to be sent" rows on the sheet, in the form's words (the
//   phone has no rules, so no points or money), the latest brought into view with a note
//   that it is kept;
// - sends the queue, oldest first, each with its Idempotency-Key and the expected_events
//   the phone saw, whenever the server answers again (the live stream opens, the browser
//   says it is online, or every few seconds while something waits), then fetches the
//   sheet afresh, so it is current without a reload;
// - when another phone's entry made a queued one stale (409), shows both and lets the
//   player send his anyway as the next entry or drop it; a refusal by the rules is shown
//   with its reason and dropped only when the player says so. Nothing goes silently.
// - asks before a logout drops entries still waiting, and empties the queue when it does.
// Without script none of this runs and the forms post as ever.
(function () {
  if (!('serviceWorker' in navigator) || !window.indexedDB || !window.fetch || !window.SkQueue) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(function () {});

  // Logging out leaves nothing of the club on the phone: the worker forgets the pages, and
  // the queue is emptied here; with entries still waiting to be sent, the player is asked
  // first, in the count of what would be lost.
  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (new URL(form.action, location.href).pathname !== '/logout' || form.dataset.asked) return;
    event.preventDefault();
    var logOut = function () { form.dataset.asked = 'yes'; form.submit(); };
    SkQueue.all().then(function (waiting) {
      var n = waiting.length;
      var lost = n === 1 ? '1 entry made on this phone has' : n + ' entries made on this phone have';
      if (n > 0 && !window.confirm(lost + ' not been sent yet; logging out drops ' +
        (n === 1 ? 'it' : 'them') + '. Log out anyway?')) return;
      return SkQueue.clear().then(logOut);
    }).catch(logOut);
  });

  var root = document.getElementById('live');
  if (!root) return;
  var session = /\/sessions\/(\d+)\//.exec(root.getAttribute('data-live'))[1];
  var items = null, sending = false;
  var asOf = (document.getElementById('offline') || {}).dataset;
  asOf = asOf && asOf.asOf ? new Date(asOf.asOf) : new Date();

  function clock(when) { return when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }); }
  function element(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text) e.textContent = text;
    return e;
  }

  // The "offline: showing the sheet as of 21:14" line, shown while the server is away.
  function offline(away) {
    var line = document.getElementById('offline');
    if (!away) { if (line) line.remove(); return; }
    if (!line) {
      line = element('p', 'offline');
      line.id = 'offline';
      line.setAttribute('role', 'status');
      document.querySelector('main').prepend(line);
    }
    line.textContent = 'offline: showing the sheet as of ' + clock(asOf);
  }

  function load() {
    return SkQueue.all(session).then(function (all) { items = all; render(); return all; });
  }

  // The waiting rows at the foot of the score sheet, and the panel above the next hand's
  // form saying how many wait and what needs the player.
  function render() {
    document.querySelectorAll('tr.queued').forEach(function (r) { r.remove(); });
    var body = document.querySelector('#sheet table.sheet tbody');
    var panel = document.getElementById('queue');
    if (!items || items.length === 0) { if (panel) panel.remove(); return; }
    items.forEach(function (item) {
      var row = element('tr', 'queued ' + item.state), cell = element('td', null, item.words + ' ');
      row.appendChild(element('td', 'num', '…'));
      cell.colSpan = 99;
      cell.appendChild(element('em', null, item.state === 'waiting' ? 'waiting to be sent' : 'not sent: see below'));
      row.appendChild(cell);
      if (body) body.appendChild(row);
    });
    // The panel is made again only when what waits changed: a button the player is about
    // to tap is not swapped under his finger by the next look at the queue.
    var shown = JSON.stringify(items);
    if (panel && panel.getAttribute('data-shown') === shown) return;
    if (!panel) {
      panel = element('section');
      panel.id = 'queue';
      var sheet = document.getElementById('sheet');
      sheet.parentNode.insertBefore(panel, sheet.nextSibling);
    }
    panel.setAttribute('data-shown', shown);
    panel.replaceChildren();
    var waiting = items.filter(function (i) { return i.state === 'waiting'; });
    if (waiting.length > 0) {
      panel.appendChild(element('p', 'queue-kept', 'Kept on this phone: ' + waiting[waiting.length - 1].words +
        '. It goes in as soon as the server answers; do not enter it again.'));
    }
    panel.appendChild(element('p', 'hint queue-count', waiting.length + (waiting.length === 1 ? ' entry' : ' entries') +
      ' waiting to be sent from this phone; they go in this order as soon as the server answers.'));
    items.filter(function (i) { return i.state !== 'waiting'; }).forEach(function (item) {
      panel.appendChild(problem(item));
    });
  }

  // The latest waiting row and the note under it, brought to the middle of the screen: a
  // hand entered offline is seen kept where an online one lands (#latest), not left under
  // an empty form that invites entering it again.
  function showKept() {
    var rows = document.querySelectorAll('#sheet tr.queued');
    var last = rows[rows.length - 1];
    if (last) last.scrollIntoView({ block: 'center' });
  }

  // A stale or refused entry: both versions and the player's choice.
  function problem(item) {
    var box = element('div', 'queue-problem error');
    box.setAttribute('role', 'alert');
    box.appendChild(element('p', null, item.message));
    box.appendChild(element('p', null, 'Yours, entered on this phone at ' + clock(new Date(item.at)) + ': ' + item.words));
    if (item.theirs) box.appendChild(element('p', null, 'On the sheet now: ' + item.theirs));
    if (item.state === 'conflict') {
      var send = element('button', 'send-anyway', 'Send mine anyway as the next entry');
      send.type = 'button';
      send.addEventListener('click', function () { choose(item, 'send'); });
      box.appendChild(send);
    }
    var drop = element('button', 'secondary drop', 'Drop mine');
    drop.type = 'button';
    drop.addEventListener('click', function () { choose(item, 'drop'); });
    box.appendChild(drop);
    return box;
  }

  function choose(item, choice) {
    var done = choice === 'send'
      // As the next entry: after what the server holds now; the ones behind it follow it.
      ? SkQueue.shift(session, item.id, item.current - item.expected).then(function () {
        return SkQueue.all(session);
      }).then(function (all) {
        var now = all.filter(function (i) { return i.id === item.id; })[0];
        now.state = 'waiting';
        return SkQueue.put(now);
      })
      // Dropped: the ones behind it no longer come after it.
      : SkQueue.remove(item.id).then(function () { return SkQueue.shift(session, item.id + 1, -1); });
    done.then(load).then(send);
  }

  // Sends the waiting entries, oldest first; stops at the first the server does not take.
  function send() {
    if (sending || !items || items.length === 0) return;
    sending = true;
    var sent = 0;
    function next() {
      var item = items[0];
      if (!item || item.state !== 'waiting') return Promise.resolve();
      return fetch(item.path, {
        method: 'POST', credentials: 'same-origin', redirect: 'manual', body: SkQueue.bodyToSend(item),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': item.key }
      }).then(function (response) {
        if (response.type === 'opaqueredirect' || (response.status >= 200 && response.status < 400)) {
          sent += 1;
          return SkQueue.remove(item.id).then(load).then(next);
        }
        if (response.status === 409 || response.status === 422 || response.status === 400) {
          return response.text().then(function (html) { return refused(item, response.status, html); });
        }
        // Busy or down: try again later.
      });
    }
    next().then(function () { offline(false); }, function () { offline(true); })
      .then(function () {
        sending = false;
        if (sent > 0 && window.Live) Live.refresh();
        render();
      });
  }

  // Keeps what the server said about a stale or refused entry, with the sheet's latest line
  // and the count of events it holds now, from the page it answered with.
  function refused(item, status, html) {
    var page = new DOMParser().parseFromString(html, 'text/html');
    var error = page.getElementById('error');
    var latest = page.getElementById('latest');
    var count = page.querySelector('#next input[name="expected_events"], input[name="expected_events"]');
    item.state = status === 409 ? 'conflict' : 'refused';
    item.message = error ? error.textContent.trim() : 'The server did not take this entry.';
    item.theirs = status === 409 && latest ? latest.textContent.replace(/\s+/g, ' ').trim() : '';
    item.current = count ? Number(count.value) : item.expected;
    return SkQueue.put(item).then(load);
  }

  // A queueable form posted while the phone is offline, or while older entries wait.
  document.addEventListener('submit', function (event) {
    var form = event.target;
    var path = new URL(form.action, location.href).pathname;
    if ((form.getAttribute('method') || '').toLowerCase() !== 'post' || !SkQueue.QUEUEABLE.test(path)) return;
    if (items === null || (navigator.onLine && items.length === 0)) return;
    event.preventDefault();
    var body = new URLSearchParams(new FormData(form)).toString();
    var seen = Number(new FormData(form).get('expected_events')) || 0;
    SkQueue.add(path, body, seen).then(load).then(function () {
      form.reset();
      var open = form.closest('details');
      if (open) open.open = false;
      if (window.Live) Live.typingDone();
      showKept();
      send();
    });
  });

  document.addEventListener('sheet:updated', function () { asOf = new Date(); offline(false); render(); });
  document.addEventListener('live:open', function () {
    if (document.getElementById('offline') && window.Live) Live.refresh();
    send();
  });
  document.addEventListener('live:error', function () {
    if (!navigator.onLine) offline(true);
  });
  window.addEventListener('online', send);
  window.addEventListener('offline', function () { offline(true); });
  setInterval(function () { if (items && items.length > 0) load().then(send); }, 4000);
  // The worker queued the first entry made offline and sent the phone back to #latest.
  load().then(function () { if (location.hash === '#latest') showKept(); }).then(send);
})();
